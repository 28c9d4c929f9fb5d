//! cty values.
//!
//! A [`Value`] always carries its exact cty type: typed nulls and typed
//! unknowns are variants of their own, primitives are inline (bools and
//! small numbers never allocate), and collections are shared immutable
//! nodes behind an `Arc`, so cloning any value is O(1).
//!
//! Collections are stored in cty iteration order: lists and tuples by
//! index, maps and objects by key (bytewise sorted), sets deduplicated and
//! ordered exactly as cty's set implementation iterates them.
//!
//! The payload types ([`Str`], [`ListVal`], ...) have private fields, so a
//! `Value` can only be built through the checked constructors and always
//! satisfies cty's validity rules (NFC strings, homogeneous collections).

mod compare;
mod equality;
mod go_string;
mod node;
mod refine;
mod set;
mod traverse;

pub use compare::OpError;
pub use equality::Tri;
pub use go_string::conformance_error;
pub use refine::{Bound, BoundArg, Facts, RangeBound, Refinement, RefinementBuilder, Unknown, UNBOUNDED_LEN};
pub use set::{equality_hash, set_hash_text, set_less, SetIndex};
pub use traverse::TraversalError;

use crate::number::Number;
use crate::strings::normalize_nfc;
use crate::types::{sort_dedup_last_wins, ObjectType, TupleType, Type};
use node::Node;
use std::fmt;
use std::ops::Deref;
use std::sync::{Arc, OnceLock};

/// How deeply values and types may nest when they are built from external
/// input (JSON). Recursive algorithms over values (equality, conversion,
/// encoding) rely on the producers of values bounding depth like this.
pub const MAX_NESTING: usize = 10_000;

/// An immutable, NFC-normalized string.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Str(Arc<str>);

/// The empty string, shared (joins of nothing, empty template parts).
/// (One per thread, as the shared types in `types.rs`.)
fn empty_str() -> Str {
    thread_local! { static EMPTY: Arc<str> = Arc::from(""); }
    Str(EMPTY.try_with(Arc::clone).unwrap_or_else(|_| Arc::from("")))
}

impl Str {
    /// Normalizes `s` to NFC.
    pub fn new(s: &str) -> Str {
        if s.is_empty() {
            return empty_str();
        }
        Str(Arc::from(normalize_nfc(s).as_ref()))
    }
    /// Normalizes `s` to NFC, reusing its buffer when it already is.
    pub fn from_string(s: String) -> Str {
        if s.is_empty() {
            return empty_str();
        }
        match normalize_nfc(&s) {
            std::borrow::Cow::Borrowed(_) => Str(Arc::from(s)),
            std::borrow::Cow::Owned(n) => Str(Arc::from(n)),
        }
    }
    /// Wraps a string that is known to be NFC (e.g. an object attribute
    /// name taken from a type).
    pub(crate) fn from_nfc_arc(s: Arc<str>) -> Str {
        Str(s)
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
    pub fn as_arc(&self) -> &Arc<str> {
        &self.0
    }
}

/// Hashes and compares as its text (a map keyed by `Str` is looked up by
/// `&str`).
impl std::borrow::Borrow<str> for Str {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl Deref for Str {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Str {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

/// A known list: `ty` is `list(E)` and every element has type `E`.
pub struct ListVal {
    ty: Type,
    elems: Box<[Value]>,
}

/// A known set: `ty` is `set(E)`; elements are distinct and in cty order.
pub struct SetVal {
    ty: Type,
    elems: Box<[Value]>,
}

/// A known map: `ty` is `map(E)`; keys sorted bytewise, unique.
pub struct MapVal {
    ty: Type,
    keys: Box<[Str]>,
    vals: Box<[Value]>,
}

/// A known object: its type and, in the same block, its attribute values
/// parallel to the type's sorted names.
#[derive(Clone)]
pub struct ObjectVal(Node<Arc<ObjectType>>);

/// A known tuple.
///
/// (Not a [`Node`], as objects are: a tuple is often long and made from a
/// vector of its elements, which a node would copy, where a box takes the
/// vector's own buffer.)
pub struct TupleVal {
    /// The type, which the elements' types imply: for a long tuple, made
    /// when first asked for (a list of two million literal numbers is
    /// written out without its 32 MB type ever being needed).
    lazy_ty: TupleTy,
    elems: Box<[Value]>,
}

/// A tuple's type, given or made on demand. (Given, it is not in a
/// `OnceLock`: setting one goes through its `Once`, which cost policy a
/// hundred instructions a request.)
enum TupleTy {
    Given(Arc<TupleType>),
    /// (Boxed: the common tuple stays in its allocator size class.)
    OnDemand(Box<OnceLock<Arc<TupleType>>>),
}

/// Tuples of more elements than this make their type on demand.
const LAZY_TYPE_MIN: usize = 4096;

/// A cty value.
#[derive(Clone)]
pub enum Value {
    /// A null of the given type (`cty.NullVal(T)`).
    Null(Type),
    /// An unknown of the given type (`cty.UnknownVal(T)`), with what is
    /// known about it ([`Refinement`]); unknown of type dynamic is
    /// `cty.DynamicVal`.
    Unknown(Unknown),
    Bool(bool),
    Number(Number),
    String(Str),
    List(Arc<ListVal>),
    Set(Arc<SetVal>),
    Map(Arc<MapVal>),
    Object(ObjectVal),
    Tuple(Arc<TupleVal>),
}

const _: () = assert!(std::mem::size_of::<Value>() <= 24);

impl Value {
    /// Feeds `h` with this value exactly: its kind, its type and its
    /// content (numbers by [`Number::hash_exact`]). Values hashed alike are
    /// identical, types and number precisions included; the code generator
    /// keys the constants of shared subexpressions on it.
    pub fn hash_exact<H: std::hash::Hasher>(&self, h: &mut H) {
        use std::hash::Hash;
        fn all<H: std::hash::Hasher>(vals: &[Value], h: &mut H) {
            vals.len().hash(h);
            for v in vals {
                v.hash_exact(h);
            }
        }
        std::mem::discriminant(self).hash(h);
        match self {
            Value::Null(t) => t.hash(h),
            Value::Unknown(u) => {
                u.ty().hash(h);
                refine::hash_refinement(u.refinement(), h);
            }
            Value::Bool(b) => b.hash(h),
            Value::Number(n) => n.hash_exact(h),
            Value::String(s) => s.hash(h),
            Value::List(l) => {
                l.ty.hash(h);
                crate::stack::guarded(|| all(&l.elems, h));
            }
            Value::Set(s) => {
                s.ty.hash(h);
                crate::stack::guarded(|| all(&s.elems, h));
            }
            Value::Map(m) => {
                m.ty.hash(h);
                m.keys.hash(h);
                crate::stack::guarded(|| all(&m.vals, h));
            }
            Value::Object(o) => {
                o.object_type().hash(h);
                crate::stack::guarded(|| all(o.vals(), h));
            }
            Value::Tuple(t) => {
                t.tuple_type().hash(h);
                crate::stack::guarded(|| all(t.elems(), h));
            }
        }
    }
}

// Dropping a collection recurses into its elements as usual, down to a
// fixed depth; below that they are freed with a work list (values nest as
// deeply as their input). See `crate::stack::drop_elements` (and `Node`'s
// drop, for objects).
macro_rules! iterative_drop {
    ($ty:ty, $field:ident) => {
        impl Drop for $ty {
            fn drop(&mut self) {
                if !self.$field.is_empty() {
                    crate::stack::drop_elements(std::mem::take(&mut self.$field));
                }
            }
        }
    };
}
iterative_drop!(ListVal, elems);
iterative_drop!(SetVal, elems);
iterative_drop!(MapVal, vals);
iterative_drop!(TupleVal, elems);

/// The length (bytes of a string, elements of a collection) from which
/// [`Value::deep_copy`] shares a part instead of copying it.
pub const SHARED_COPY_LEN: usize = 1024;

impl Value {
    /// An equal value (same type, same content) whose reference counts are
    /// its own: a thread that clones parts of a value many times (the VM,
    /// with a program's constants) clones them from its own copy, so
    /// threads do not contend on one counter. Large parts (strings of at
    /// least [`SHARED_COPY_LEN`] bytes, collections of at least as many
    /// elements) stay shared: whatever uses them spends far longer on
    /// their contents than on their counter, and a copy per thread would
    /// multiply the memory a large constant takes.
    pub fn deep_copy(&self) -> Value {
        self.deep_copy_at(0, &mut crate::types::TypeCopies::default())
    }

    /// (`types`: the types copied so far, shared among the copies as in
    /// the original, see [`Type::deep_copy_sharing`].)
    fn deep_copy_at(&self, depth: usize, types: &mut crate::types::TypeCopies) -> Value {
        let all = |vals: &[Value], types: &mut crate::types::TypeCopies| -> Vec<Value> {
            vals.iter().map(|v| v.deep_copy_at(depth + 1, types)).collect()
        };
        let large = match self {
            Value::String(s) => s.0.len() >= SHARED_COPY_LEN,
            Value::List(l) => l.elems.len() >= SHARED_COPY_LEN,
            Value::Set(s) => s.elems.len() >= SHARED_COPY_LEN,
            Value::Map(m) => m.vals.len() >= SHARED_COPY_LEN,
            Value::Tuple(t) => t.elems().len() >= SHARED_COPY_LEN,
            Value::Object(o) => o.vals().len() >= SHARED_COPY_LEN,
            _ => false,
        };
        if large {
            return self.clone();
        }
        crate::stack::deeper(depth, || match self {
            Value::Null(t) => Value::Null(t.deep_copy_sharing(types)),
            Value::Unknown(u) => Value::Unknown(u.deep_copy()),
            Value::Bool(b) => Value::Bool(*b),
            Value::Number(n) => Value::Number(n.deep_copy()),
            Value::String(s) => Value::String(Str(Arc::from(&*s.0))),
            Value::List(l) => Value::List(Arc::new(ListVal { ty: l.ty.deep_copy_sharing(types), elems: all(&l.elems, types).into() })),
            Value::Set(st) => Value::Set(Arc::new(SetVal { ty: st.ty.deep_copy_sharing(types), elems: all(&st.elems, types).into() })),
            Value::Map(m) => Value::Map(Arc::new(MapVal {
                ty: m.ty.deep_copy_sharing(types),
                keys: m.keys.iter().map(|k| Str(Arc::from(&*k.0))).collect(),
                vals: all(&m.vals, types).into(),
            })),
            Value::Object(o) => match Type::Object(o.object_type().clone()).deep_copy_sharing(types) {
                Type::Object(ty) => Value::Object(ObjectVal::new(ty, all(o.vals(), types))),
                _ => self.clone(),
            },
            Value::Tuple(t) => match Type::Tuple(t.tuple_type().clone()).deep_copy_sharing(types) {
                Type::Tuple(ty) => Value::Tuple(Arc::new(TupleVal::typed(ty, all(t.elems(), types).into()))),
                _ => self.clone(),
            },
        })
    }

    /// Drops this value, first moving to `out` the elements of a
    /// collection this value alone holds (the collection is then freed
    /// with nothing left in it to drop).
    pub(crate) fn give_up_sole_elements(self, out: &mut Vec<Value>) {
        fn take<T>(arc: Arc<T>, field: impl FnOnce(&mut T) -> &mut Box<[Value]>, out: &mut Vec<Value>) {
            if let Some(mut inner) = Arc::into_inner(arc) {
                out.extend(std::mem::take(field(&mut inner)).into_vec());
            }
        }
        match self {
            Value::List(l) => take(l, |l| &mut l.elems, out),
            Value::Set(s) => take(s, |s| &mut s.elems, out),
            Value::Map(m) => take(m, |m| &mut m.vals, out),
            Value::Object(o) => o.0.give_up_elements(out),
            Value::Tuple(t) => take(t, |t| &mut t.elems, out),
            _ => {}
        }
    }
}

/// Why a value could not be constructed (cty panics in these cases).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ValueError {
    /// `list_val`, `set_val` and `map_val` need at least one element (use the
    /// `*_empty` constructors to give the element type).
    Empty,
    /// Elements of a list, set or map (`collection`) must all have the
    /// same type.
    InconsistentElementTypes { collection: &'static str, first: Type, then: Type },
    /// Object attribute values must match the object type.
    AttributeMismatch,
}

impl fmt::Display for ValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValueError::Empty => f.write_str("a collection needs at least one element to imply its element type"),
            // cty's panic, types in Go syntax.
            ValueError::InconsistentElementTypes { collection, first, then } => {
                write!(f, "inconsistent {collection} element types ({} then {})", first.go_syntax(), then.go_syntax())
            }
            ValueError::AttributeMismatch => f.write_str("attribute values do not match the object type"),
        }
    }
}

impl std::error::Error for ValueError {}

/// The element type cty implies for a homogeneous sequence: the first type
/// that is not dynamic; values of dynamic type (null or unknown) are then
/// retyped to it. Fails when two non-dynamic types differ.
fn implied_element_type<'a>(collection: &'static str, types: impl Iterator<Item = Type> + 'a) -> Result<Type, ValueError> {
    let mut ety = Type::Dynamic;
    for t in types {
        if ety.is_dynamic() {
            ety = t;
        } else if !t.is_dynamic() && t != ety {
            return Err(ValueError::InconsistentElementTypes { collection, first: ety, then: t });
        }
    }
    Ok(ety)
}

/// cty stores a collection element's raw payload without its type, so an
/// element whose type is dynamic (only possible for nulls and unknowns)
/// takes the collection's element type.
fn retype_dynamic(v: Value, ety: &Type) -> Value {
    match v {
        Value::Null(Type::Dynamic) if !ety.is_dynamic() => Value::Null(ety.clone()),
        Value::Unknown(u) if u.ty().is_dynamic() && !ety.is_dynamic() => Value::Unknown(u.with_type(ety.clone())),
        v => v,
    }
}

impl Value {
    // ----- constructors -------------------------------------------------

    #[inline]
    pub fn bool(b: bool) -> Value {
        Value::Bool(b)
    }
    #[inline]
    pub fn number(n: Number) -> Value {
        Value::Number(n)
    }
    /// A number from an integer (`cty.NumberIntVal`).
    #[inline]
    pub fn int(i: i64) -> Value {
        Value::Number(Number::from_i64(i))
    }
    /// A string value; the text is NFC-normalized.
    pub fn string(s: &str) -> Value {
        Value::String(Str::new(s))
    }
    /// A string value from an owned `String`; the text is NFC-normalized.
    pub fn from_string(s: String) -> Value {
        Value::String(Str::from_string(s))
    }
    #[inline]
    pub fn null(ty: Type) -> Value {
        Value::Null(ty)
    }
    #[inline]
    pub fn unknown(ty: Type) -> Value {
        Value::Unknown(Unknown::new(ty))
    }
    /// `cty.DynamicVal`: an unknown value of unknown type.
    #[inline]
    pub fn dynamic_unknown() -> Value {
        Value::Unknown(Unknown::new(Type::Dynamic))
    }

    /// `cty.ListVal`: a non-empty list whose elements share one type.
    pub fn list(elems: Vec<Value>) -> Result<Value, ValueError> {
        if elems.is_empty() {
            return Err(ValueError::Empty);
        }
        let ety = implied_element_type("list", elems.iter().map(Value::ty))?;
        let elems = elems.into_iter().map(|v| retype_dynamic(v, &ety)).collect();
        Ok(Value::List(Arc::new(ListVal { ty: Type::list(ety), elems })))
    }
    /// `cty.ListValEmpty`.
    pub fn list_empty(ety: Type) -> Value {
        Value::List(Arc::new(ListVal { ty: Type::list(ety), elems: Box::new([]) }))
    }
    /// A list of the given element type; every element must have that type
    /// (or be a dynamic null/unknown). Useful when the element type is
    /// already known, including for an empty list.
    pub fn list_of(ety: Type, elems: Vec<Value>) -> Result<Value, ValueError> {
        let elems = if check_elements("list", &ety, &elems)? {
            elems.into_iter().map(|v| retype_dynamic(v, &ety)).collect()
        } else {
            elems.into_boxed_slice()
        };
        Ok(Value::List(Arc::new(ListVal { ty: Type::list(ety), elems })))
    }
    /// A list from elements already known to have type `ety` exactly
    /// (internal fast path for conversions).
    pub(crate) fn list_unchecked(ety: Type, elems: Vec<Value>) -> Value {
        debug_assert!(elems.iter().all(|e| e.has_type(&ety)));
        Value::List(Arc::new(ListVal { ty: Type::list(ety), elems: elems.into() }))
    }
    /// `cty.CanListVal` (also the rule for sets and maps).
    pub fn can_list(elems: &[Value]) -> bool {
        implied_element_type("list", elems.iter().map(Value::ty)).is_ok()
    }

    /// `cty.SetVal`: duplicates (by cty equality) are dropped and the
    /// elements are put in cty's set iteration order.
    pub fn set(elems: Vec<Value>) -> Result<Value, ValueError> {
        if elems.is_empty() {
            return Err(ValueError::Empty);
        }
        let ety = implied_element_type("set", elems.iter().map(Value::ty))?;
        Ok(Self::set_of_unchecked(ety, elems))
    }
    /// `cty.SetValEmpty`.
    pub fn set_empty(ety: Type) -> Value {
        Value::Set(Arc::new(SetVal { ty: Type::set(ety), elems: Box::new([]) }))
    }
    /// A set of the given element type (see [`Value::list_of`]).
    pub fn set_of(ety: Type, elems: Vec<Value>) -> Result<Value, ValueError> {
        check_elements("set", &ety, &elems)?;
        Ok(Self::set_of_unchecked(ety, elems))
    }
    fn set_of_unchecked(ety: Type, elems: Vec<Value>) -> Value {
        let elems: Vec<Value> = elems.into_iter().map(|v| retype_dynamic(v, &ety)).collect();
        let elems = set::build_set(&ety, elems);
        Value::Set(Arc::new(SetVal { ty: Type::set(ety), elems: elems.into() }))
    }

    /// `cty.MapVal`: keys are NFC-normalized; a repeated key keeps the last
    /// value.
    pub fn map<K: AsRef<str>>(entries: Vec<(K, Value)>) -> Result<Value, ValueError> {
        if entries.is_empty() {
            return Err(ValueError::Empty);
        }
        let ety = implied_element_type("map", entries.iter().map(|(_, v)| v.ty()))?;
        Ok(Self::map_of_unchecked(ety, entries))
    }
    /// `cty.MapValEmpty`.
    pub fn map_empty(ety: Type) -> Value {
        Value::Map(Arc::new(MapVal { ty: Type::map(ety), keys: Box::new([]), vals: Box::new([]) }))
    }
    /// A map of the given element type (see [`Value::list_of`]).
    pub fn map_of<K: AsRef<str>>(ety: Type, entries: Vec<(K, Value)>) -> Result<Value, ValueError> {
        for (_, v) in &entries {
            let t = v.ty();
            if !t.is_dynamic() && t != ety {
                return Err(ValueError::InconsistentElementTypes { collection: "map", first: ety, then: t });
            }
        }
        Ok(Self::map_of_unchecked(ety, entries))
    }
    fn map_of_unchecked<K: AsRef<str>>(ety: Type, entries: Vec<(K, Value)>) -> Value {
        let mut pairs: Vec<(Arc<str>, Value)> =
            entries.into_iter().map(|(k, v)| (Arc::from(normalize_nfc(k.as_ref()).as_ref()), retype_dynamic(v, &ety))).collect();
        sort_dedup_last_wins(&mut pairs);
        let (keys, vals): (Vec<Arc<str>>, Vec<Value>) = pairs.into_iter().unzip();
        let keys: Vec<Str> = keys.into_iter().map(Str).collect();
        Value::Map(Arc::new(MapVal { ty: Type::map(ety), keys: keys.into(), vals: vals.into() }))
    }

    /// `cty.ObjectVal`: attribute names are NFC-normalized; a repeated name
    /// keeps the last value.
    pub fn object<N: AsRef<str>>(attrs: Vec<(N, Value)>) -> Value {
        let pairs: Vec<(Arc<str>, Value)> = attrs.into_iter().map(|(k, v)| (Arc::from(normalize_nfc(k.as_ref()).as_ref()), v)).collect();
        Self::object_from_pairs(pairs)
    }
    /// `cty.ObjectVal` with names that are already [`Str`]s (NFC): their
    /// storage is shared, not copied. A repeated name keeps the last value.
    pub fn object_from_strs(attrs: Vec<(Str, Value)>) -> Value {
        Self::object_from_pairs(attrs.into_iter().map(|(k, v)| (k.0, v)).collect())
    }
    /// `cty.ObjectVal` with names that are NFC already (internal callers).
    /// An object of type `ty` whose values (parallel to its sorted names)
    /// have exactly its attribute types: the caller guarantees it.
    pub(crate) fn object_of_type(ty: Arc<ObjectType>, vals: impl ExactSizeIterator<Item = Value>) -> Value {
        debug_assert!(vals.len() == ty.len());
        let o = ObjectVal(Node::from_iter(ty, vals));
        debug_assert!(o.vals().iter().zip(o.object_type().types()).all(|(v, t)| v.has_type(t)));
        Value::Object(o)
    }

    /// A tuple of type `ty`, whose element types the elements have
    /// exactly: the caller guarantees it.
    pub(crate) fn tuple_of_type(ty: Arc<TupleType>, elems: Vec<Value>) -> Value {
        debug_assert!(elems.len() == ty.len() && elems.iter().zip(ty.elems()).all(|(v, t)| v.has_type(t)));
        Value::Tuple(Arc::new(TupleVal::typed(ty, elems.into())))
    }

    pub(crate) fn object_from_pairs(mut pairs: Vec<(Arc<str>, Value)>) -> Value {
        if pairs.is_empty() {
            return Value::empty_object();
        }
        sort_dedup_last_wins(&mut pairs);
        let (names, vals): (Vec<Arc<str>>, Vec<Value>) = pairs.into_iter().unzip();
        let types: Vec<Type> = vals.iter().map(Value::ty).collect();
        let ty = Arc::new(ObjectType::from_sorted_unchecked(names, types));
        Value::Object(ObjectVal::new(ty, vals))
    }
    /// An object of a given type, values parallel to the type's sorted
    /// attribute names. Each value must have exactly its attribute's type.
    pub fn object_of(ty: Arc<ObjectType>, vals: Vec<Value>) -> Result<Value, ValueError> {
        if vals.len() != ty.len() || vals.iter().zip(ty.types()).any(|(v, t)| !v.has_type(t)) {
            return Err(ValueError::AttributeMismatch);
        }
        Ok(Value::Object(ObjectVal::new(ty, vals)))
    }
    /// This object with `ty` for its type, when `ty` equals its type and
    /// the object is held only here: the same value with a type shared
    /// with others, its values kept in place. Anything else as it is.
    pub fn with_equal_object_type(self, ty: &Arc<ObjectType>) -> Value {
        let Value::Object(mut o) = self else { return self };
        if let Some((own, _)) = o.0.get_mut() {
            if !Arc::ptr_eq(own, ty) && **own == **ty {
                *own = ty.clone();
            }
        }
        Value::Object(o)
    }
    /// An object with the attribute names of `shape` (values parallel to
    /// them) whose type is implied by the values, as `cty.ObjectVal` does;
    /// `shape` itself is reused when the value types match it.
    pub fn object_like(shape: &Arc<ObjectType>, vals: Vec<Value>) -> Result<Value, ValueError> {
        if vals.len() != shape.len() {
            return Err(ValueError::AttributeMismatch);
        }
        if vals.iter().zip(shape.types()).all(|(v, t)| v.has_type(t)) {
            return Ok(Value::Object(ObjectVal::new(shape.clone(), vals)));
        }
        let types = vals.iter().map(Value::ty).collect();
        let ty = Arc::new(ObjectType::from_sorted_unchecked(shape.names().to_vec(), types));
        Ok(Value::Object(ObjectVal::new(ty, vals)))
    }
    /// `cty.EmptyObjectVal`.
    pub fn empty_object() -> Value {
        // One per thread, as the empty tuple (a million `{}` in variables
        // took 290 MB, each its own).
        fn fresh() -> ObjectVal {
            ObjectVal::new(crate::types::empty_object_type(), Vec::new())
        }
        thread_local! { static EMPTY: ObjectVal = fresh(); }
        Value::Object(crate::types::per_thread(&EMPTY, fresh))
    }

    /// `cty.TupleVal`.
    pub fn tuple(elems: Vec<Value>) -> Value {
        if elems.is_empty() {
            // Values are immutable: one empty tuple serves everyone (`for`
            // expressions that keep nothing make one per evaluation).
            // (One per thread, as the shared types in `types.rs`.)
            fn fresh() -> Arc<TupleVal> {
                Arc::new(TupleVal::typed(crate::types::empty_tuple_type(), Box::new([])))
            }
            thread_local! { static EMPTY: Arc<TupleVal> = fresh(); }
            return Value::Tuple(crate::types::per_thread(&EMPTY, fresh));
        }
        if elems.len() > LAZY_TYPE_MIN {
            return Value::Tuple(Arc::new(TupleVal { lazy_ty: TupleTy::OnDemand(Box::default()), elems: elems.into() }));
        }
        // Tuples of known strings, numbers or bools of one kind: short ones
        // share their type, the others' is made without asking each element
        // for its type.
        let prim = |v: &Value| match v {
            Value::String(_) => Some(0),
            Value::Number(_) => Some(1),
            Value::Bool(_) => Some(2),
            _ => None,
        };
        if let Some(first) = elems.first().and_then(prim) {
            if elems[1..].iter().all(|v| prim(v) == Some(first)) {
                if let Some(ty) = crate::types::uniform_tuple_type(first, elems.len()) {
                    return Value::Tuple(Arc::new(TupleVal::typed(ty, elems.into())));
                }
            }
        }
        let ty = Arc::new(TupleType::new(elems.iter().map(Value::ty).collect()));
        Value::Tuple(Arc::new(TupleVal::typed(ty, elems.into())))
    }
    /// `cty.EmptyTupleVal`.
    pub fn empty_tuple() -> Value {
        Value::tuple(Vec::new())
    }

    // ----- type and state -----------------------------------------------

    /// The value's exact type.
    #[inline]
    pub fn ty(&self) -> Type {
        match self {
            Value::Null(t) => t.clone(),
            Value::Unknown(u) => u.ty().clone(),
            Value::Bool(_) => Type::Bool,
            Value::Number(_) => Type::Number,
            Value::String(_) => Type::String,
            Value::List(l) => l.ty.clone(),
            Value::Set(s) => s.ty.clone(),
            Value::Map(m) => m.ty.clone(),
            Value::Object(o) => Type::Object(o.object_type().clone()),
            Value::Tuple(t) => Type::Tuple(t.tuple_type().clone()),
        }
    }

    /// cty `Length()`: the element count of a collection as a number
    /// value. A tuple's length is its type's, known or not. An unknown
    /// collection's length is an unknown number bounded by what the
    /// collection's refinement says. A set holding unknowns (at any depth)
    /// has a length between 1 and its element count, unless it has one
    /// element: unknowns may turn out equal to other elements.
    pub fn cty_length(&self) -> Value {
        match self {
            Value::Tuple(t) => Value::int(t.elems().len() as i64),
            Value::Null(Type::Tuple(tt)) => Value::int(tt.len() as i64),
            Value::Unknown(u) => match u.ty() {
                Type::Tuple(tt) => Value::int(tt.len() as i64),
                _ => {
                    let (lo, hi) = self.length_bounds();
                    unknown_length(lo, hi)
                }
            },
            Value::Set(s) if s.elems.len() != 1 && !self.is_wholly_known() => unknown_length(1, s.elems.len() as u64),
            _ => match self.length() {
                Some(n) => Value::int(n as i64),
                None => Value::unknown(Type::Number),
            },
        }
    }

    /// Whether the value's type equals `t`, without cloning the type.
    #[inline]
    pub fn has_type(&self, t: &Type) -> bool {
        match (self, t) {
            (Value::Null(a), t) => a == t,
            (Value::Unknown(u), t) => u.ty() == t,
            (Value::Bool(_), Type::Bool) | (Value::Number(_), Type::Number) | (Value::String(_), Type::String) => true,
            (Value::List(l), t) => &l.ty == t,
            (Value::Set(s), t) => &s.ty == t,
            (Value::Map(m), t) => &m.ty == t,
            (Value::Object(o), Type::Object(ot)) => o.object_type() == ot,
            (Value::Tuple(v), Type::Tuple(tt)) => v.tuple_type() == tt,
            _ => false,
        }
    }

    /// `self.ty().conforms_to(want)` without building the type (dynamic in
    /// `want` matches anything).
    pub fn conforms_to(&self, want: &Type) -> bool {
        match (self, want) {
            (_, Type::Dynamic) => true,
            (Value::Null(a), w) => a.conforms_to(w),
            (Value::Unknown(u), w) => u.ty().conforms_to(w),
            (Value::List(l), w) => l.ty.conforms_to(w),
            (Value::Set(s), w) => s.ty.conforms_to(w),
            (Value::Map(m), w) => m.ty.conforms_to(w),
            // Shares the type's storage: no allocation.
            (Value::Object(o), Type::Object(_)) => Type::Object(o.object_type().clone()).conforms_to(want),
            (Value::Tuple(v), Type::Tuple(_)) => Type::Tuple(v.tuple_type().clone()).conforms_to(want),
            _ => self.has_type(want),
        }
    }

    /// Whether this is a known list, set, map, object or tuple (a value
    /// that holds others).
    #[inline]
    pub fn is_collection(&self) -> bool {
        matches!(self, Value::List(_) | Value::Set(_) | Value::Map(_) | Value::Object(_) | Value::Tuple(_))
    }

    /// The type of a null or unknown value (`None` for a known non-null
    /// value), borrowed.
    #[inline]
    pub fn null_or_unknown_type(&self) -> Option<&Type> {
        match self {
            Value::Null(t) => Some(t),
            Value::Unknown(u) => Some(u.ty()),
            _ => None,
        }
    }
    /// The type of an unknown value, borrowed.
    #[inline]
    pub fn unknown_type(&self) -> Option<&Type> {
        match self {
            Value::Unknown(u) => Some(u.ty()),
            _ => None,
        }
    }

    /// Top-level knownness (`IsKnown`): a known collection may still hold
    /// unknown elements.
    #[inline]
    pub fn is_known(&self) -> bool {
        !matches!(self, Value::Unknown(_))
    }
    #[inline]
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null(_))
    }
    /// No unknowns at any depth (`IsWhollyKnown`).
    pub fn is_wholly_known(&self) -> bool {
        self.is_wholly_known_at(0)
    }
    /// (The stack is checked every 32 levels.)
    fn is_wholly_known_at(&self, depth: u32) -> bool {
        match self {
            Value::Unknown(_) => false,
            Value::Null(_) | Value::Bool(_) | Value::Number(_) | Value::String(_) => true,
            _ if depth % 32 == 31 => crate::stack::guarded(|| self.elements_slice().iter().all(|e| e.is_wholly_known_at(depth + 1))),
            // Primitive elements (most) are decided here, without a call.
            _ => self.elements_slice().iter().all(|e| match e {
                Value::Unknown(_) => false,
                Value::Null(_) | Value::Bool(_) | Value::Number(_) | Value::String(_) => true,
                _ => e.is_wholly_known_at(depth + 1),
            }),
        }
    }
    /// `HasWhollyKnownType`: no unknown of dynamic type at any depth.
    pub fn has_wholly_known_type(&self) -> bool {
        match self {
            Value::Null(_) => true,
            Value::Unknown(u) => !u.ty().has_dynamic_types(),
            Value::Bool(_) | Value::Number(_) | Value::String(_) => true,
            _ => {
                // Elements carry the types in the collection's type, so a
                // type without dynamic parts cannot hold a dynamic unknown.
                if !self.ty().has_dynamic_types() {
                    return true;
                }
                crate::stack::guarded(|| self.elements_slice().iter().all(Value::has_wholly_known_type))
            }
        }
    }

    // ----- primitive accessors ------------------------------------------

    #[inline]
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }
    #[inline]
    pub fn as_number(&self) -> Option<&Number> {
        match self {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }
    #[inline]
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    // ----- collection accessors -----------------------------------------

    /// Number of elements of a known list, set, map, tuple or attributes of
    /// an object.
    pub fn length(&self) -> Option<usize> {
        match self {
            Value::List(_) | Value::Set(_) | Value::Tuple(_) | Value::Map(_) | Value::Object(_) => Some(self.elements_slice().len()),
            _ => None,
        }
    }

    /// The element values in cty iteration order, for any known collection
    /// or structural value (maps and objects: the values in key order).
    /// Empty for everything else.
    #[inline]
    pub fn elements_slice(&self) -> &[Value] {
        match self {
            Value::List(l) => &l.elems,
            Value::Set(s) => &s.elems,
            Value::Tuple(t) => t.elems(),
            Value::Map(m) => &m.vals,
            Value::Object(o) => o.vals(),
            _ => &[],
        }
    }

    /// Element `i` of a known list or tuple.
    #[inline]
    pub fn index(&self, i: usize) -> Option<&Value> {
        match self {
            Value::List(l) => l.elems.get(i),
            Value::Tuple(t) => t.elems().get(i),
            _ => None,
        }
    }

    /// Attribute `name` of a known object (the name is NFC-normalized
    /// first, as cty's `GetAttr` does).
    #[inline]
    pub fn get_attr(&self, name: &str) -> Option<&Value> {
        match self {
            Value::Object(o) => o.object_type().attr_index(&normalize_nfc(name)).map(|i| &o.vals()[i]),
            _ => None,
        }
    }

    /// Attribute at position `i` (see [`ObjectType::attr_index`]).
    #[inline]
    pub fn attr_at(&self, i: usize) -> Option<&Value> {
        match self {
            Value::Object(o) => o.vals().get(i),
            _ => None,
        }
    }

    /// Element `key` of a known map.
    pub fn map_get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Map(m) => m.keys.binary_search_by(|k| k.as_bytes().cmp(key.as_bytes())).ok().map(|i| &m.vals[i]),
            _ => None,
        }
    }

    /// Keys (maps) or attribute names (objects) in cty order, paired with
    /// values; `None` for other values.
    pub fn key_value_pairs(&self) -> Option<Vec<(Str, &Value)>> {
        match self {
            Value::Map(m) => Some(m.keys.iter().cloned().zip(m.vals.iter()).collect()),
            Value::Object(o) => Some(o.object_type().names().iter().map(|n| Str::from_nfc_arc(n.clone())).zip(o.vals().iter()).collect()),
            _ => None,
        }
    }

    /// Visits `(key, element)` in cty order, as cty's `ElementIterator`:
    /// lists, sets and tuples give number keys (sets: the element itself as
    /// key, as cty does), maps and objects string keys.
    pub fn for_each_element(&self, mut f: impl FnMut(Value, &Value)) {
        match self {
            Value::List(_) | Value::Tuple(_) => {
                for (i, v) in self.elements_slice().iter().enumerate() {
                    f(Value::int(i as i64), v);
                }
            }
            Value::Set(s) => {
                for v in s.elems.iter() {
                    f(v.clone(), v);
                }
            }
            Value::Map(m) => {
                for (k, v) in m.keys.iter().zip(m.vals.iter()) {
                    f(Value::String(k.clone()), v);
                }
            }
            Value::Object(o) => {
                for (k, v) in o.object_type().names().iter().zip(o.vals().iter()) {
                    f(Value::String(Str::from_nfc_arc(k.clone())), v);
                }
            }
            _ => {}
        }
    }

    /// The cty iteration key of element `i` (see [`Value::elements_slice`]):
    /// the index for lists and tuples, the element itself for sets, the key
    /// or attribute name (sharing its storage) for maps and objects.
    pub fn element_key(&self, i: usize) -> Option<Value> {
        match self {
            Value::List(l) => (i < l.elems.len()).then(|| Value::int(i as i64)),
            Value::Tuple(t) => (i < t.elems().len()).then(|| Value::int(i as i64)),
            Value::Set(s) => s.elems.get(i).cloned(),
            Value::Map(m) => m.keys.get(i).cloned().map(Value::String),
            Value::Object(o) => o.attr_name(i).map(Value::String),
            _ => None,
        }
    }

    pub fn as_list(&self) -> Option<&ListVal> {
        match self {
            Value::List(l) => Some(l),
            _ => None,
        }
    }
    pub fn as_set(&self) -> Option<&SetVal> {
        match self {
            Value::Set(s) => Some(s),
            _ => None,
        }
    }
    pub fn as_map(&self) -> Option<&MapVal> {
        match self {
            Value::Map(m) => Some(m),
            _ => None,
        }
    }
    pub fn as_object(&self) -> Option<&ObjectVal> {
        match self {
            Value::Object(o) => Some(o),
            _ => None,
        }
    }
    pub fn as_tuple(&self) -> Option<&TupleVal> {
        match self {
            Value::Tuple(t) => Some(t),
            _ => None,
        }
    }
}

/// Checks that every element has type `ety` or is a dynamic null/unknown;
/// true when some element is such a dynamic one (to be retyped).
fn check_elements(collection: &'static str, ety: &Type, elems: &[Value]) -> Result<bool, ValueError> {
    let mut dynamic = false;
    for v in elems {
        if v.has_type(ety) {
            continue;
        }
        let t = v.ty();
        if t.is_dynamic() {
            dynamic = true;
        } else if &t != ety {
            return Err(ValueError::InconsistentElementTypes { collection, first: ety.clone(), then: t });
        }
    }
    Ok(dynamic)
}

impl ListVal {
    pub fn ty(&self) -> &Type {
        &self.ty
    }
    pub fn element_type(&self) -> &Type {
        match &self.ty {
            Type::List(e) => e,
            _ => &Type::Dynamic,
        }
    }
    pub fn elems(&self) -> &[Value] {
        &self.elems
    }
}

impl SetVal {
    pub fn ty(&self) -> &Type {
        &self.ty
    }
    pub fn element_type(&self) -> &Type {
        match &self.ty {
            Type::Set(e) => e,
            _ => &Type::Dynamic,
        }
    }
    /// Elements in cty set iteration order.
    pub fn elems(&self) -> &[Value] {
        &self.elems
    }
    /// Set membership as cty's `Has`: an element in the same hash bucket
    /// (equal set hash text) that is equal by cty `Equals`. Unknowns are
    /// never members; -0 is not a member of a set holding 0 (their hash
    /// texts differ) although `-0 == 0`.
    pub fn contains(&self, v: &Value) -> bool {
        if let Value::String(needle) = v {
            // Known strings come first, sorted bytewise, and string equality
            // is byte equality, so a binary search over them suffices.
            let known = self.elems.partition_point(|e| matches!(e, Value::String(_)));
            return self.elems[..known]
                .binary_search_by(|e| match e {
                    Value::String(s) => s.as_bytes().cmp(needle.as_bytes()),
                    _ => std::cmp::Ordering::Less,
                })
                .is_ok();
        }
        let mut hash: Option<String> = None;
        self.elems.iter().any(|e| {
            e.equals_tri(v) == Tri::True && {
                let h = hash.get_or_insert_with(|| set_hash_text(v));
                set_hash_text(e) == *h
            }
        })
    }
}

impl MapVal {
    pub fn ty(&self) -> &Type {
        &self.ty
    }
    pub fn element_type(&self) -> &Type {
        match &self.ty {
            Type::Map(e) => e,
            _ => &Type::Dynamic,
        }
    }
    /// Keys in sorted order.
    pub fn keys(&self) -> &[Str] {
        &self.keys
    }
    /// Values parallel to [`MapVal::keys`].
    pub fn vals(&self) -> &[Value] {
        &self.vals
    }
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.keys.binary_search_by(|k| k.as_bytes().cmp(key.as_bytes())).ok().map(|i| &self.vals[i])
    }
}

impl ObjectVal {
    fn new(ty: Arc<ObjectType>, vals: Vec<Value>) -> ObjectVal {
        ObjectVal(Node::new(ty, vals))
    }
    #[inline]
    pub fn object_type(&self) -> &Arc<ObjectType> {
        self.0.header()
    }
    /// Attribute values parallel to the type's sorted names.
    #[inline]
    pub fn vals(&self) -> &[Value] {
        self.0.elems()
    }
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.object_type().attr_index(name).map(|i| &self.vals()[i])
    }
    /// The name of attribute `i` as a string sharing the type's storage.
    pub fn attr_name(&self, i: usize) -> Option<Str> {
        self.object_type().names().get(i).cloned().map(Str::from_nfc_arc)
    }
}

impl TupleVal {
    fn typed(ty: Arc<TupleType>, elems: Box<[Value]>) -> TupleVal {
        TupleVal { lazy_ty: TupleTy::Given(ty), elems }
    }

    /// The tuple's type (made now if it is made on demand).
    #[inline]
    pub fn tuple_type(&self) -> &Arc<TupleType> {
        match &self.lazy_ty {
            TupleTy::Given(ty) => ty,
            TupleTy::OnDemand(cell) => self.made_ty(cell),
        }
    }

    #[cold]
    #[inline(never)]
    fn made_ty<'s>(&'s self, cell: &'s OnceLock<Arc<TupleType>>) -> &'s Arc<TupleType> {
        cell.get_or_init(|| crate::stack::guarded(|| Arc::new(TupleType::new(self.elems().iter().map(Value::ty).collect()))))
    }

    pub fn elems(&self) -> &[Value] {
        &self.elems
    }
}

/// A known bool.
///
/// ```
/// use runtime::{Type, Value};
/// let v = Value::from(true);
/// assert_eq!((v.as_bool(), v.ty()), (Some(true), Type::Bool));
/// ```
impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}
/// A known string, NFC-normalized as cty does.
///
/// ```
/// use runtime::Value;
/// assert_eq!(Value::from("e\u{301}").as_str(), Some("\u{e9}"));
/// ```
impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::string(s)
    }
}
/// A known string, NFC-normalized as cty does.
///
/// ```
/// use runtime::Value;
/// assert_eq!(Value::from(String::from("web")), Value::from("web"));
/// ```
impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::from_string(s)
    }
}
/// A known number.
///
/// ```
/// use runtime::{Number, Value};
/// assert_eq!(Value::from(Number::from_i64(7)), Value::from(7));
/// ```
impl From<Number> for Value {
    fn from(n: Number) -> Value {
        Value::Number(n)
    }
}
/// A known number (cty's `NumberIntVal`).
///
/// ```
/// use runtime::Value;
/// let v = Value::from(-9_007_199_254_740_993_i64);
/// assert_eq!(v.as_number().and_then(|n| n.to_i64()), Some(-9_007_199_254_740_993));
/// ```
impl From<i64> for Value {
    fn from(i: i64) -> Value {
        Value::int(i)
    }
}
/// A known number.
///
/// ```
/// use runtime::Value;
/// assert_eq!(Value::from(-3_i32), Value::from(-3_i64));
/// ```
impl From<i32> for Value {
    fn from(i: i32) -> Value {
        Value::int(i64::from(i))
    }
}
/// A known number.
///
/// ```
/// use runtime::Value;
/// assert_eq!(Value::from(u32::MAX).as_number().and_then(|n| n.to_i64()), Some(4_294_967_295));
/// ```
impl From<u32> for Value {
    fn from(i: u32) -> Value {
        Value::int(i64::from(i))
    }
}
/// A known number (cty's `NumberUIntVal`), exact beyond `i64::MAX`.
///
/// ```
/// use runtime::Value;
/// let mut json = String::new();
/// runtime::json::write_value(&mut json, &Value::from(u64::MAX)).unwrap();
/// assert_eq!(json, "18446744073709551615");
/// ```
impl From<u64> for Value {
    fn from(i: u64) -> Value {
        Value::Number(Number::from_u64(i))
    }
}
/// A known number with the exact value of the float (cty's
/// `NumberFloatVal`): `0.1` is the binary fraction nearest to 0.1, not the
/// decimal 0.1 of HCL source text. Infinities are cty's infinite numbers.
/// NaN, which cty cannot represent, gives a null number.
///
/// ```
/// use runtime::{Type, Value};
/// assert_eq!(Value::from(2.5), runtime::convert(&Value::from("2.5"), &Type::Number).unwrap());
/// assert_eq!(Value::from(3.0_f64), Value::from(3));
/// assert!(Value::from(f64::INFINITY).as_number().is_some());
/// let nan = Value::from(f64::NAN);
/// assert!(nan.is_null() && nan.ty() == Type::Number);
/// ```
impl From<f64> for Value {
    fn from(f: f64) -> Value {
        match Number::from_f64(f) {
            Some(n) => Value::Number(n),
            None => Value::null(Type::Number),
        }
    }
}

impl fmt::Debug for Value {
    /// The oracle's compact result encoding of the value followed by its
    /// type, e.g. `["a",1] : ["tuple",["string","number"]]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        if crate::json::write_value(&mut s, self).is_err() {
            s.push_str("<number too long to print>");
        }
        s.push_str(" : ");
        self.ty().write_json(&mut s);
        f.write_str(&s)
    }
}

const _: () = {
    const fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Value>();
    assert_send_sync::<Type>();
};

/// The length of a collection whose length is not known: a number that is
/// not null, between `lo` and `hi`.
#[cold]
fn unknown_length(lo: u64, hi: u64) -> Value {
    let mut b = Value::unknown(Type::Number).refine();
    b.not_null().number_range_inclusive(Some(Number::from_u64(lo)), Some(Number::from_u64(hi)));
    b.into_value()
}
