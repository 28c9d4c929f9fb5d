//! Refinements of unknown values (go-cty 1.13).
//!
//! An unknown value may carry facts that narrow what it can turn out to
//! be: that it is not null, that a string starts with a known prefix, that
//! a number lies within bounds, that a collection's length lies within
//! bounds. Operations create and propagate these facts, and some
//! operations on refined unknowns give known results (`x != null` for a
//! not-null `x`, `length()` of a collection whose length is fixed).
//!
//! [`Unknown`] is the payload of [`Value::Unknown`]: a type, plus a shared
//! [`Refinement`] when there is anything to say. A refinement that says
//! nothing is never stored, so an unrefined unknown costs what it always
//! did.
//!
//! [`RefinementBuilder`] is cty's `Value.Refine()`: it starts from the
//! facts a value already has, adds more, and [`RefinementBuilder::new_value`]
//! makes the refined value, which collapses to a known value when the facts
//! pin it down (a not-null number whose bounds are equal and inclusive is
//! that number; a not-null list of known length is a list of that many
//! unknowns). cty panics when a refinement contradicts the value; the
//! builder records the panic's message instead and reports it from
//! `new_value`.
//!
//! [`Value::range`] is cty's `Value.Range()`: the facts of any value, known
//! or not, in one shape.

use super::Value;
use crate::number::Number;
use crate::types::Type;
use std::fmt;
use std::sync::Arc;

/// Go's `math.MaxInt` (64-bit): the upper bound of a collection length
/// that nothing bounds.
pub const UNBOUNDED_LEN: u64 = i64::MAX as u64;

/// A bound of a number's range, as a refinement stores it.
#[derive(Clone, Debug)]
pub struct Bound {
    pub value: Number,
    pub inclusive: bool,
}

/// What an unknown value of one kind of type can know about itself.
#[derive(Clone, Debug)]
pub enum Facts {
    /// Bools, objects and tuples: nullness only.
    Nullable,
    /// A string's known prefix (NFC, possibly empty).
    String { prefix: Arc<str> },
    /// A number's bounds; `None` is no bound (cty's `NilVal`).
    Number { lower: Option<Bound>, upper: Option<Bound> },
    /// A list, map or set's length bounds.
    Collection { min_len: u64, max_len: u64 },
}

/// The facts about an unknown value beyond its type.
#[derive(Clone, Debug)]
pub struct Refinement {
    /// Definitely not null (cty's `isNull == tristateFalse`). A refinement
    /// saying "definitely null" makes a null value instead, so it is never
    /// stored.
    pub not_null: bool,
    pub facts: Facts,
}

impl Refinement {
    /// Whether this says anything an unrefined unknown does not.
    fn says_something(&self) -> bool {
        self.not_null
            || match &self.facts {
                Facts::Nullable => false,
                Facts::String { prefix } => !prefix.is_empty(),
                Facts::Number { lower, upper } => lower.is_some() || upper.is_some(),
                Facts::Collection { min_len, max_len } => *min_len != 0 || *max_len != UNBOUNDED_LEN,
            }
    }
}

/// The payload of [`Value::Unknown`]: the type and, if any, the
/// refinement. The same size as a [`Type`].
#[derive(Clone)]
pub struct Unknown(Repr);

#[derive(Clone)]
enum Repr {
    Plain(Type),
    Refined(Arc<RefinedUnknown>),
}

struct RefinedUnknown {
    ty: Type,
    refinement: Refinement,
}

const _: () = assert!(std::mem::size_of::<Unknown>() == std::mem::size_of::<Type>());

impl Unknown {
    /// An unrefined unknown of type `ty` (`cty.UnknownVal`).
    #[inline]
    pub fn new(ty: Type) -> Unknown {
        Unknown(Repr::Plain(ty))
    }

    /// An unknown with `refinement`, or an unrefined one when it says
    /// nothing.
    pub(crate) fn refined(ty: Type, refinement: Refinement) -> Unknown {
        if refinement.says_something() {
            Unknown(Repr::Refined(Arc::new(RefinedUnknown { ty, refinement })))
        } else {
            Unknown(Repr::Plain(ty))
        }
    }

    #[inline]
    pub fn ty(&self) -> &Type {
        match &self.0 {
            Repr::Plain(t) => t,
            Repr::Refined(r) => &r.ty,
        }
    }

    /// An equal unknown that shares no allocation with this one.
    pub(crate) fn deep_copy(&self) -> Unknown {
        match &self.0 {
            Repr::Plain(t) => Unknown(Repr::Plain(t.deep_copy())),
            Repr::Refined(r) => {
                let bound = |b: &Option<Bound>| b.as_ref().map(|b| Bound { value: b.value.deep_copy(), inclusive: b.inclusive });
                let facts = match &r.refinement.facts {
                    Facts::String { prefix } => Facts::String { prefix: Arc::from(&**prefix) },
                    Facts::Number { lower, upper } => Facts::Number { lower: bound(lower), upper: bound(upper) },
                    other => other.clone(),
                };
                let refinement = Refinement { not_null: r.refinement.not_null, facts };
                Unknown(Repr::Refined(Arc::new(RefinedUnknown { ty: r.ty.deep_copy(), refinement })))
            }
        }
    }

    /// The refinement, if the value has one.
    #[inline]
    pub fn refinement(&self) -> Option<&Refinement> {
        match &self.0 {
            Repr::Plain(_) => None,
            Repr::Refined(r) => Some(&r.refinement),
        }
    }

    /// Whether this is cty's `DynamicVal` with no refinement: a value
    /// that owns nothing.
    #[inline]
    pub fn is_plain_dynamic(&self) -> bool {
        matches!(self.0, Repr::Plain(Type::Dynamic))
    }

    /// Whether this unknown is known not to be null.
    #[inline]
    pub fn not_null(&self) -> bool {
        self.refinement().is_some_and(|r| r.not_null)
    }

    /// The same facts on another type: dynamic element types taking the
    /// collection's element type (cty stores an element without its type).
    pub(crate) fn with_type(&self, ty: Type) -> Unknown {
        match &self.0 {
            Repr::Plain(_) => Unknown(Repr::Plain(ty)),
            Repr::Refined(r) => Unknown::refined(ty, r.refinement.clone()),
        }
    }
}

impl fmt::Debug for Unknown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.refinement() {
            None => write!(f, "{:?}", self.ty()),
            Some(r) => write!(f, "{:?} {:?}", self.ty(), r),
        }
    }
}

// ----- ranges ---------------------------------------------------------------

/// A number bound as cty's `ValueRange` reports it.
#[derive(Clone, Debug)]
pub enum RangeBound {
    /// No bound: cty's own `NegativeInfinity`/`PositiveInfinity` values,
    /// not inclusive. (A bound that was set to a computed infinity is an
    /// [`RangeBound::At`].)
    Unbounded,
    At(Number, bool),
    /// The value's type is dynamic, so not even that it is a number is
    /// known (cty returns an unknown number).
    Unknown,
}

impl RangeBound {
    /// The bound as a number (`lower` picks the infinity of no bound), or
    /// `None` when unknown.
    pub fn number(&self, lower: bool) -> Option<Number> {
        match self {
            RangeBound::Unbounded => Some(if lower { Number::neg_inf() } else { Number::pos_inf() }),
            RangeBound::At(n, _) => Some(n.clone()),
            RangeBound::Unknown => None,
        }
    }
    pub fn inclusive(&self) -> bool {
        matches!(self, RangeBound::At(_, true))
    }
}

impl Value {
    /// cty `Range().DefinitelyNotNull()`: known and not null, or unknown
    /// and refined as not null.
    #[inline]
    pub fn definitely_not_null(&self) -> bool {
        match self {
            Value::Null(_) => false,
            Value::Unknown(u) => u.not_null(),
            _ => true,
        }
    }

    /// cty `Range().CouldBeNull()`.
    #[inline]
    pub fn could_be_null(&self) -> bool {
        !self.definitely_not_null()
    }

    /// cty `Range().NumberLowerBound()`. For a value that is not a number
    /// (cty panics) this is [`RangeBound::Unbounded`].
    pub fn number_lower_bound(&self) -> RangeBound {
        self.number_bound(true)
    }

    /// cty `Range().NumberUpperBound()`.
    pub fn number_upper_bound(&self) -> RangeBound {
        self.number_bound(false)
    }

    fn number_bound(&self, lower: bool) -> RangeBound {
        match self {
            Value::Number(n) => RangeBound::At(n.clone(), true),
            Value::Unknown(u) if u.ty().is_dynamic() => RangeBound::Unknown,
            Value::Unknown(u) => match u.refinement().map(|r| &r.facts) {
                Some(Facts::Number { lower: lo, upper: hi }) => match if lower { lo } else { hi } {
                    Some(b) => RangeBound::At(b.value.clone(), b.inclusive),
                    None => RangeBound::Unbounded,
                },
                _ => RangeBound::Unbounded,
            },
            Value::Null(Type::Dynamic) => RangeBound::Unknown,
            _ => RangeBound::Unbounded,
        }
    }

    /// cty `Range().StringPrefix()`: the whole text of a known string, the
    /// refined prefix of an unknown one, else empty.
    pub fn string_prefix(&self) -> &str {
        match self {
            Value::String(s) => s,
            Value::Unknown(u) => match u.refinement().map(|r| &r.facts) {
                Some(Facts::String { prefix }) => prefix,
                _ => "",
            },
            _ => "",
        }
    }

    /// cty `Range().LengthLowerBound()` and `LengthUpperBound()`.
    pub fn length_bounds(&self) -> (u64, u64) {
        match self {
            Value::Unknown(u) => match u.refinement().map(|r| &r.facts) {
                Some(Facts::Collection { min_len, max_len }) => (*min_len, *max_len),
                _ => (0, UNBOUNDED_LEN),
            },
            Value::List(_) | Value::Map(_) | Value::Set(_) => match self.cty_length() {
                Value::Number(n) => {
                    let n = n.to_u64().unwrap_or(0);
                    (n, n)
                }
                _ => (0, UNBOUNDED_LEN),
            },
            _ => (0, UNBOUNDED_LEN),
        }
    }

    /// A builder that adds facts to this value (cty `Refine()`).
    pub fn refine(&self) -> RefinementBuilder {
        RefinementBuilder::new(self.clone())
    }

    /// cty `RefineNotNull()`. Refining a null as not null is a cty panic;
    /// here the value is returned unchanged.
    pub fn refine_not_null(self) -> Value {
        match &self {
            Value::Unknown(u) if !u.ty().is_dynamic() && !u.not_null() => {
                if u.refinement().is_none() {
                    if let Some(v) = not_null_primitive(u.ty()) {
                        return v;
                    }
                }
                build_not_null(self)
            }
            _ => self,
        }
    }
}

fn build_not_null(v: Value) -> Value {
    let mut b = RefinementBuilder::new(v);
    b.not_null();
    b.into_value()
}

thread_local! {
    /// The not-null unknowns of the primitive types, built once per
    /// thread: operators and functions refine their unknown results as
    /// not null all the time (a `for` clause's type check with unknown
    /// iterators, every evaluation of a validation), and building one
    /// allocates. Per thread, so that sharing them costs no contended
    /// reference count.
    static NOT_NULL_PRIMITIVES: [Value; 3] =
        [Type::Bool, Type::Number, Type::String].map(|t| build_not_null(Value::Unknown(Unknown::new(t))));
}

/// An unrefined unknown of primitive type `ty` refined as not null.
fn not_null_primitive(ty: &Type) -> Option<Value> {
    let i = match ty {
        Type::Bool => 0,
        Type::Number => 1,
        Type::String => 2,
        _ => return None,
    };
    NOT_NULL_PRIMITIVES.try_with(|vs| vs[i].clone()).ok()
}

// ----- the builder ----------------------------------------------------------

/// cty's `RefinementBuilder` (see the module docs).
pub struct RefinementBuilder {
    orig: Value,
    /// `None` when the value's type cannot be refined (dynamic).
    wip: Option<Wip>,
    /// The first contradiction found: cty would have panicked with this.
    panic: Option<String>,
}

struct Wip {
    /// cty's tristate: `Some(true)` definitely null, `Some(false)` not.
    null: Option<bool>,
    facts: Facts,
}

fn fresh_facts(ty: &Type) -> Option<Facts> {
    Some(match ty {
        Type::String => Facts::String { prefix: Arc::from("") },
        Type::Number => Facts::Number { lower: None, upper: None },
        Type::List(_) | Type::Set(_) | Type::Map(_) => Facts::Collection { min_len: 0, max_len: UNBOUNDED_LEN },
        Type::Bool | Type::Object(_) | Type::Tuple(_) => Facts::Nullable,
        Type::Dynamic => return None,
    })
}

/// Three-valued comparison result of two values (`None`: unknown).
fn known_bool(v: Result<Value, super::OpError>) -> Option<bool> {
    v.ok().and_then(|v| v.as_bool())
}

impl RefinementBuilder {
    fn new(orig: Value) -> RefinementBuilder {
        let mut panic = None;
        let wip = match &orig {
            Value::Unknown(u) => match u.refinement() {
                Some(r) => Some(Wip { null: r.not_null.then_some(false), facts: r.facts.clone() }),
                None if u.ty().is_dynamic() => {
                    panic = Some("cannot refine an unknown value of an unknown type".to_string());
                    None
                }
                None => fresh_facts(u.ty()).map(|facts| Wip { null: None, facts }),
            },
            Value::Null(Type::Dynamic) => Some(Wip { null: Some(true), facts: Facts::Nullable }),
            v => fresh_facts(&v.ty()).map(|facts| Wip { null: None, facts }),
        };
        RefinementBuilder { orig, wip, panic }
    }

    fn fail(&mut self, msg: impl Into<String>) {
        if self.panic.is_none() {
            self.panic = Some(msg.into());
        }
    }

    /// The facts in progress, if the value can be refined at all.
    fn wip(&mut self) -> Option<&mut Wip> {
        if self.wip.is_none() {
            let msg = format!("cannot refine a {} value", self.orig.ty().go_syntax());
            self.fail(msg);
        }
        self.wip.as_mut()
    }

    /// cty `NotNull()`.
    pub fn not_null(&mut self) -> &mut Self {
        let orig_null = self.orig.is_null() && self.orig.is_known();
        let Some(wip) = self.wip() else { return self };
        if orig_null || wip.null == Some(true) {
            self.fail("refining null value as non-null");
            return self;
        }
        wip.null = Some(false);
        self
    }

    /// cty `Null()`.
    pub fn null(&mut self) -> &mut Self {
        let orig_not_null = !self.orig.is_null() && self.orig.is_known();
        let Some(wip) = self.wip() else { return self };
        if orig_not_null || wip.null == Some(false) {
            self.fail("refining non-null value as null");
            return self;
        }
        wip.null = Some(true);
        self
    }

    /// cty `NumberRangeInclusive(min, max)`; `None` is an unknown bound
    /// (nothing to do).
    pub fn number_range_inclusive(&mut self, min: Option<Number>, max: Option<Number>) -> &mut Self {
        self.number_lower_bound(min.map(BoundArg::Value), true);
        self.number_upper_bound(max.map(BoundArg::Value), true)
    }

    /// cty `NumberRangeLowerBound(min, inclusive)`. `None` is an unknown
    /// bound, which changes nothing.
    pub fn number_lower_bound(&mut self, min: Option<BoundArg>, inclusive: bool) -> &mut Self {
        self.number_bound(min, inclusive, true)
    }

    /// cty `NumberRangeUpperBound(max, inclusive)`.
    pub fn number_upper_bound(&mut self, max: Option<BoundArg>, inclusive: bool) -> &mut Self {
        self.number_bound(max, inclusive, false)
    }

    fn number_bound(&mut self, arg: Option<BoundArg>, inclusive: bool, lower: bool) -> &mut Self {
        let orig = self.orig.clone();
        let ty_name = orig.ty().go_syntax();
        let Some(wip) = self.wip() else { return self };
        let Facts::Number { lower: lo, upper: hi } = &mut wip.facts else {
            self.fail(format!("cannot refine numeric bounds for a {ty_name} value"));
            return self;
        };
        let Some(arg) = arg else { return self };
        let (value, canonical_infinity) = match arg {
            BoundArg::Value(n) => (n, false),
            BoundArg::NoBound => (if lower { Number::neg_inf() } else { Number::pos_inf() }, true),
        };
        let v = Value::Number(value.clone());
        // The bound must not exclude a known value.
        let excluded = match (lower, inclusive) {
            (true, true) => known_bool(v.greater_than(&orig)),
            (true, false) => known_bool(v.greater_than_or_equal(&orig)),
            (false, true) => known_bool(v.less_than(&orig)),
            (false, false) => known_bool(v.less_than_or_equal(&orig)),
        };
        if excluded == Some(true) {
            let op = match (lower, inclusive) {
                (true, true) => ">=",
                (true, false) => ">",
                (false, true) => "<=",
                (false, false) => "<",
            };
            self.fail(format!("refining {orig:?} to be {op} {value:?}"));
            return self;
        }
        let slot = if lower { lo } else { hi };
        if let Some(cur) = slot.as_ref() {
            let cur_v = Value::Number(cur.value.clone());
            let tighter = match (lower, inclusive && !cur.inclusive) {
                (true, true) => known_bool(v.greater_than(&cur_v)),
                (true, false) => known_bool(v.greater_than_or_equal(&cur_v)),
                (false, true) => known_bool(v.less_than(&cur_v)),
                (false, false) => known_bool(v.less_than_or_equal(&cur_v)),
            };
            if tighter == Some(false) {
                return self; // the bound already there is tighter
            }
        }
        if !canonical_infinity {
            *slot = Some(Bound { value, inclusive });
        }
        if let Facts::Number { lower: Some(l), upper: Some(u) } = &wip.facts {
            let ok = if l.inclusive != u.inclusive {
                known_bool(Value::Number(l.value.clone()).less_than(&Value::Number(u.value.clone())))
            } else {
                known_bool(Value::Number(l.value.clone()).less_than_or_equal(&Value::Number(u.value.clone())))
            };
            if ok == Some(false) {
                let msg = format!("number lower bound {:?} is greater than upper bound {:?}", l.value, u.value);
                self.fail(msg);
            }
        }
        self
    }

    /// cty `CollectionLengthLowerBound(min)`.
    pub fn collection_length_lower_bound(&mut self, min: u64) -> &mut Self {
        self.length_bound(min, true)
    }

    /// cty `CollectionLengthUpperBound(max)`.
    pub fn collection_length_upper_bound(&mut self, max: u64) -> &mut Self {
        self.length_bound(max, false)
    }

    /// cty `CollectionLength(n)`.
    pub fn collection_length(&mut self, n: u64) -> &mut Self {
        self.collection_length_lower_bound(n).collection_length_upper_bound(n)
    }

    fn length_bound(&mut self, n: u64, lower: bool) -> &mut Self {
        let real_len = if self.orig.is_known() { Some(self.orig.cty_length()) } else { None };
        let ty_name = self.orig.ty().go_syntax();
        let Some(wip) = self.wip() else { return self };
        let Facts::Collection { min_len, max_len } = &mut wip.facts else {
            self.fail(format!("cannot refine collection length bounds for a {ty_name} value"));
            return self;
        };
        if let Some(Value::Number(len)) = &real_len {
            let len = len.to_u64().unwrap_or(0);
            if (lower && n > len) || (!lower && n < len) {
                let which = if lower { "lower" } else { "upper" };
                self.fail(format!("refining collection of length {len} with {which} bound {n}"));
                return self;
            }
        }
        if lower {
            if *min_len > n {
                return self;
            }
            *min_len = n;
        } else {
            if *max_len < n {
                return self;
            }
            *max_len = n;
        }
        if *max_len < *min_len {
            let msg = format!("collection length upper bound {} is less than lower bound {}", max_len, min_len);
            self.fail(msg);
        }
        self
    }

    /// cty `StringPrefix(prefix)`: the prefix cut back to what later text
    /// cannot change (normalization or a grapheme cluster that goes on).
    pub fn string_prefix(&mut self, prefix: &str) -> &mut Self {
        let safe = crate::known_prefix::safe_known_prefix(prefix);
        self.string_prefix_full(&safe)
    }

    /// cty `StringPrefixFull(prefix)`.
    pub fn string_prefix_full(&mut self, prefix: &str) -> &mut Self {
        let ty_name = self.orig.ty().go_syntax();
        let known = match &self.orig {
            Value::String(s) => Some(s.clone()),
            _ => None,
        };
        let Some(wip) = self.wip() else { return self };
        let Facts::String { prefix: cur } = &mut wip.facts else {
            self.fail(format!("cannot refine string prefix for a {ty_name} value"));
            return self;
        };
        let prefix = crate::strings::normalize_nfc(prefix);
        let overlaps = |a: &str, b: &str| {
            let n = a.len().min(b.len());
            a.as_bytes()[..n] == b.as_bytes()[..n]
        };
        if let Some(have) = &known {
            if !overlaps(have, &prefix) {
                self.fail("refined prefix is inconsistent with known value");
                return self;
            }
        }
        if !overlaps(cur, &prefix) {
            self.fail("refined prefix is inconsistent with previous refined prefix");
            return self;
        }
        if prefix.len() > cur.len() {
            *cur = Arc::from(prefix.as_ref());
        }
        self
    }

    /// cty `NewValue()`: the refined value, or the message cty would have
    /// panicked with.
    pub fn new_value(self) -> Result<Value, String> {
        if let Some(p) = self.panic {
            return Err(p);
        }
        let Value::Unknown(u) = &self.orig else {
            return Ok(self.orig);
        };
        let Some(wip) = self.wip else {
            return Ok(self.orig);
        };
        let ty = u.ty().clone();
        match wip.null {
            Some(true) => return Ok(Value::Null(ty)),
            Some(false) => match &wip.facts {
                Facts::Number { lower: Some(l), upper: Some(h) } if l.inclusive && h.inclusive && l.value.equals(&h.value) => {
                    return Ok(Value::Number(l.value.clone()));
                }
                Facts::Collection { min_len, max_len } if min_len == max_len => {
                    if let Some(v) = known_collection(&ty, *min_len) {
                        return Ok(v);
                    }
                }
                _ => {}
            },
            None => {}
        }
        Ok(Value::Unknown(Unknown::refined(ty, Refinement { not_null: wip.null == Some(false), facts: wip.facts })))
    }

    /// [`RefinementBuilder::new_value`] for refinements that cannot
    /// contradict the value (the caller's own derivations): on a
    /// contradiction the value is returned as it was.
    pub fn into_value(self) -> Value {
        let orig = self.orig.clone();
        self.new_value().unwrap_or(orig)
    }
}

/// The largest list that a refinement of exact length turns into a known
/// list of unknowns; beyond it the value stays unknown (cty would build it
/// whatever its length, but such lengths come only from refinements of
/// collections that exist, so this is not reached in practice).
const MAX_KNOWN_LIST_FROM_LENGTH: u64 = 1 << 24;

/// cty's known collection for a not-null unknown of exact length `n`.
fn known_collection(ty: &Type, n: u64) -> Option<Value> {
    match (ty, n) {
        (Type::List(e), 0) => Some(Value::list_empty((**e).clone())),
        (Type::Set(e), 0) => Some(Value::set_empty((**e).clone())),
        (Type::Map(e), 0) => Some(Value::map_empty((**e).clone())),
        (Type::List(e), n) if n <= MAX_KNOWN_LIST_FROM_LENGTH => {
            let elems = vec![Value::Unknown(Unknown::new((**e).clone())); n as usize];
            Some(Value::list_unchecked((**e).clone(), elems))
        }
        (Type::Set(e), 1) => Value::set_of((**e).clone(), vec![Value::Unknown(Unknown::new((**e).clone()))]).ok(),
        _ => None,
    }
}

/// A number bound given to the builder.
#[derive(Clone, Debug)]
pub enum BoundArg {
    Value(Number),
    /// cty's own `NegativeInfinity`/`PositiveInfinity` (what a range
    /// reports for no bound): accepted, never stored.
    NoBound,
}

impl BoundArg {
    /// The argument for a bound that a range reported.
    pub fn from_range(b: &RangeBound) -> Option<BoundArg> {
        match b {
            RangeBound::Unbounded => Some(BoundArg::NoBound),
            RangeBound::At(n, _) => Some(BoundArg::Value(n.clone())),
            RangeBound::Unknown => None,
        }
    }
}

/// Feeds `h` with a refinement exactly (for [`Value::hash_exact`]).
pub(crate) fn hash_refinement<H: std::hash::Hasher>(r: Option<&Refinement>, h: &mut H) {
    use std::hash::Hash;
    let Some(r) = r else {
        0u8.hash(h);
        return;
    };
    1u8.hash(h);
    r.not_null.hash(h);
    match &r.facts {
        Facts::Nullable => 0u8.hash(h),
        Facts::String { prefix } => {
            1u8.hash(h);
            prefix.hash(h);
        }
        Facts::Number { lower, upper } => {
            2u8.hash(h);
            for b in [lower, upper] {
                match b {
                    None => 0u8.hash(h),
                    Some(b) => {
                        1u8.hash(h);
                        b.value.hash_exact(h);
                        b.inclusive.hash(h);
                    }
                }
            }
        }
        Facts::Collection { min_len, max_len } => {
            3u8.hash(h);
            min_len.hash(h);
            max_len.hash(h);
        }
    }
}

impl PartialEq for Bound {
    fn eq(&self, other: &Bound) -> bool {
        self.inclusive == other.inclusive && self.value.equals(&other.value)
    }
}

impl PartialEq for Facts {
    fn eq(&self, other: &Facts) -> bool {
        match (self, other) {
            (Facts::Nullable, Facts::Nullable) => true,
            (Facts::String { prefix: a }, Facts::String { prefix: b }) => a == b,
            (Facts::Number { lower: a, upper: b }, Facts::Number { lower: c, upper: d }) => a == c && b == d,
            (Facts::Collection { min_len: a, max_len: b }, Facts::Collection { min_len: c, max_len: d }) => a == c && b == d,
            _ => false,
        }
    }
}

impl PartialEq for Refinement {
    fn eq(&self, other: &Refinement) -> bool {
        self.not_null == other.not_null && self.facts == other.facts
    }
}

impl Value {
    /// cty `Range().Includes(v)` for this unknown value's range: `False`
    /// when the refinement rules `v` out, else `Unknown` (cty only ever
    /// disproves membership of a value in an unknown's range).
    pub fn range_includes(&self, v: &Value) -> super::Tri {
        use super::Tri;
        let Value::Unknown(u) = self else { return Tri::Unknown };
        let r = u.refinement();
        if r.is_some_and(|r| r.not_null) && v.is_null() {
            return Tri::False;
        }
        if v.is_null() {
            return Tri::True;
        }
        if !v.ty().conforms_to(u.ty()) {
            return Tri::False;
        }
        let Some(r) = r else { return Tri::Unknown };
        match &r.facts {
            Facts::String { prefix } => {
                if let Value::String(s) = v {
                    if !s.starts_with(&**prefix) {
                        return Tri::False;
                    }
                }
            }
            Facts::Collection { min_len, max_len } => {
                let len = v.cty_length();
                let min = Value::Number(Number::from_u64(*min_len));
                let max = Value::Number(Number::from_u64(*max_len));
                if known_bool(len.greater_than_or_equal(&min)) == Some(false) {
                    return Tri::False;
                }
                if known_bool(len.less_than_or_equal(&max)) == Some(false) {
                    return Tri::False;
                }
            }
            Facts::Number { .. } => {
                let bound = |b: RangeBound, lower: bool| match b {
                    RangeBound::At(n, inc) => (Value::Number(n), inc),
                    _ => (Value::Number(if lower { Number::neg_inf() } else { Number::pos_inf() }), false),
                };
                let (min, min_inc) = bound(self.number_lower_bound(), true);
                let (max, max_inc) = bound(self.number_upper_bound(), false);
                let min_ok = if min_inc { v.greater_than_or_equal(&min) } else { v.greater_than(&min) };
                let max_ok = if max_inc { v.less_than_or_equal(&max) } else { v.less_than(&max) };
                if known_bool(min_ok) == Some(false) || known_bool(max_ok) == Some(false) {
                    return Tri::False;
                }
            }
            Facts::Nullable => {}
        }
        Tri::Unknown
    }
}
