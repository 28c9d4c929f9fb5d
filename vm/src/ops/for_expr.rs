//! `[for k, v in coll: value if cond]` and `{for k, v in coll: key => value...}`
//! (hcl `ForExpr`).
//!
//! The VM drives the loop; this module decides what the collection gives
//! ([`for_source`], [`for_element`]) and what each step's values mean
//! ([`ForCollector`]). Blame: `Operand(0)` the collection, `Operand(1)` the
//! key expression, `Operand(2)` the value expression, `Operand(3)` the `if`
//! expression; context the whole `for` expression.
//!
//! The loop, as hcl runs it:
//! 1. `for_source(coll)`; on `ForSource::Unknown` the result is `DynamicVal`.
//! 2. With an `if` clause, evaluate it once with the key and value
//!    variables set to `DynamicVal`; if that has error diagnostics, or
//!    [`ForCollector::precheck_condition`] reports one, the result is
//!    `DynamicVal`.
//! 3. For each element `i`: bind [`for_value`]`(coll, i)` and, when a key
//!    variable is bound, [`for_key`] ([`for_element`] gives both); evaluate the
//!    `if` clause and pass it to [`ForCollector::condition`] (skip the
//!    element on `false`); for objects evaluate the key and pass it to
//!    [`ForCollector::key`] (skip on `None`, before evaluating the value);
//!    evaluate the value and [`ForCollector::push`] it.
//! 4. [`ForCollector::finish`].

use super::{Blame, OpDiag, OpError};
use ahash::AHashMap as HashMap;
use runtime::convert::convert;
use runtime::value::Str;
use runtime::{Type, Value};

/// What a `for` expression iterates.
#[derive(Clone, Debug)]
pub enum ForSource {
    /// An unknown collection, or one of unknown type: the result is
    /// `DynamicVal` without evaluating anything else.
    Unknown,
    /// A known list, set, tuple, map or object.
    Known(Value),
}

impl ForSource {
    /// Number of iterations.
    pub fn len(&self) -> usize {
        match self {
            ForSource::Unknown => 0,
            ForSource::Known(v) => v.elements_slice().len(),
        }
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Checks the collection of a `for` expression (taken: a known one is
/// what is iterated). The error's fallback is `DynamicVal`.
pub fn for_source(coll: Value) -> Result<ForSource, Box<OpError>> {
    // (The common case, a known collection, asks for no type: making an
    // object's or a tuple's costs more than the rest of the check.)
    let ty = match &coll {
        Value::List(_) | Value::Set(_) | Value::Map(_) | Value::Object(_) | Value::Tuple(_) => return Ok(ForSource::Known(coll)),
        Value::Null(_) => {
            return Err(OpError::one(
                OpDiag::new(
                    "Iteration over null value",
                    "A null value cannot be used as the collection in a 'for' expression.",
                    Blame::Operand(0),
                )
                .in_expr(),
                Value::dynamic_unknown(),
            ))
        }
        other => other.ty(),
    };
    let iterable = matches!(ty, Type::Dynamic | Type::List(_) | Type::Set(_) | Type::Map(_) | Type::Object(_) | Type::Tuple(_));
    if !iterable {
        return Err(OpError::one(
            OpDiag::new(
                "Iteration over non-iterable value",
                format!("A value of type {} cannot be used as the collection in a 'for' expression.", ty.friendly_name()),
                Blame::Operand(0),
            )
            .in_expr(),
            Value::dynamic_unknown(),
        ));
    }
    // An unknown collection (of a collection type, or of the dynamic
    // pseudo-type).
    Ok(ForSource::Unknown)
}

/// The key and value of element `i` in cty iteration order: lists and
/// tuples give the index, sets the element itself, maps and objects the
/// key (sorted order).
pub fn for_element(coll: &Value, i: usize) -> Option<(Value, Value)> {
    let v = for_value(coll, i)?;
    Some((for_key(coll, i, v), v.clone()))
}

/// [`for_element`]'s key of element `i`, whose value is `v` (an element
/// [`for_value`] found). Built where the caller puts it, not returned in
/// an `Option` (whose unwrapping copies it right after it is stored,
/// which stalls on those stores).
#[inline]
pub fn for_key(coll: &Value, i: usize, v: &Value) -> Value {
    match coll {
        Value::List(_) | Value::Tuple(_) => Value::int(i as i64),
        Value::Set(_) => v.clone(),
        // (An element that exists has its key: the fallbacks are not met.)
        Value::Map(m) => m.keys().get(i).map_or_else(Value::dynamic_unknown, |k| Value::String(k.clone())),
        Value::Object(o) => o.object_type().name_value(i).unwrap_or_else(Value::dynamic_unknown),
        _ => Value::dynamic_unknown(),
    }
}

/// Element `i`'s value ([`for_element`]'s), in place: the caller clones
/// it straight into its register (a clone wrapped in an `Option` is
/// unwrapped by a copy that stalls on the clone's stores), or reads the
/// paths it needs from it there. [`for_key`] makes its key when a key
/// variable is bound.
pub fn for_value(coll: &Value, i: usize) -> Option<&Value> {
    coll.elements_slice().get(i)
}

/// The shape of a `for` expression's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ForKind {
    /// `[for ...]`
    Tuple,
    /// `{for ...}`; `group` with `...` after the value.
    Object { group: bool },
}

/// Accumulates a `for` expression's result. Once any element's key or
/// condition is unusable the result will be `DynamicVal`; only the first
/// such problem is reported, as hcl does.
pub struct ForCollector {
    kind: ForKind,
    known: bool,
    /// A tuple result's elements; an object result's values, parallel to
    /// `keys`, when it does not group.
    tuple: Vec<Value>,
    /// Object attributes.
    keys: Vec<Str>,
    /// A grouping object result's groups, parallel to `keys`.
    groups: Vec<Vec<Value>>,
    /// Key positions; built on the first object element (seeding a hasher
    /// per `for` costs more than many tuple results do in all).
    index: Option<HashMap<Str, usize>>,
    /// The object elements to make room for when the first one comes.
    room: usize,
}

const INVALID_CONDITION: &str = "Invalid 'for' condition";

impl ForCollector {
    pub fn new(kind: ForKind) -> ForCollector {
        ForCollector { kind, known: true, tuple: Vec::new(), keys: Vec::new(), groups: Vec::new(), index: None, room: 0 }
    }

    /// A collector whose result has room for `n` elements from the start
    /// (a `for` that keeps every element: its tuple is then made without
    /// growing or shrinking its buffer, its object's keys are indexed
    /// without rehashing).
    pub fn for_elements(kind: ForKind, n: usize) -> ForCollector {
        let mut c = ForCollector::new(kind);
        match kind {
            ForKind::Tuple => c.tuple.reserve_exact(n),
            ForKind::Object { .. } => c.room = n,
        }
        c
    }

    /// The check of the `if` clause evaluated once with `DynamicVal` key and
    /// value variables: `Some(diag)` means the result is `DynamicVal`.
    pub fn precheck_condition(v: &Value) -> Option<OpDiag> {
        // A bool, known or not (the usual outcome: the iterators are
        // unknown), converts to itself.
        match v {
            Value::Bool(_) => return None,
            Value::Unknown(u) if *u.ty() == Type::Bool => return None,
            _ => {}
        }
        if v.is_null() {
            return Some(OpDiag::new("Condition is null", "The value of the 'if' clause must not be null.", Blame::Operand(3)).in_expr());
        }
        convert(v, &Type::Bool)
            .err()
            .map(|e| OpDiag::new(INVALID_CONDITION, format!("The 'if' clause value is invalid: {e}."), Blame::Operand(3)).in_expr())
    }

    /// Whether the element is included, given its `if` clause value. Also
    /// returns the diagnostic to report, if any.
    #[inline(always)]
    pub fn condition(&mut self, v: &Value) -> (bool, Option<OpDiag>) {
        match v {
            Value::Bool(b) => (*b, None),
            _ => self.condition_other(v),
        }
    }

    /// [`ForCollector::condition`] of anything but a bool.
    #[inline(never)]
    fn condition_other(&mut self, v: &Value) -> (bool, Option<OpDiag>) {
        if v.is_null() {
            let d = OpDiag::new(INVALID_CONDITION, "The value of the 'if' clause must not be null.", Blame::Operand(3));
            return (false, self.unusable(d));
        }
        // Tuple results skip unknowns before converting; object results
        // convert first, so an unknown of a non-bool type is an error there.
        if self.kind == ForKind::Tuple && !v.is_known() {
            self.known = false;
            return (false, None);
        }
        match convert(v, &Type::Bool) {
            Ok(Value::Bool(b)) => (b, None),
            Ok(_) => {
                self.known = false;
                (false, None)
            }
            Err(e) => {
                let d = OpDiag::new(INVALID_CONDITION, format!("The 'if' clause value is invalid: {e}."), Blame::Operand(3));
                (false, self.unusable(d))
            }
        }
    }

    /// The attribute name for an object result's key value; `None` skips
    /// the element (its value expression is not evaluated).
    pub fn key(&mut self, v: Value) -> (Option<Str>, Option<OpDiag>) {
        match v {
            Value::String(s) => return (Some(s), None),
            Value::Null(_) => {
                let d = OpDiag::new(
                    "Invalid object key",
                    "Key expression in 'for' expression must not produce a null value.",
                    Blame::Operand(1),
                );
                return (None, self.unusable(d));
            }
            Value::Unknown(_) => {
                self.known = false;
                return (None, None);
            }
            _ => {}
        }
        match convert(&v, &Type::String) {
            Ok(Value::String(s)) => (Some(s), None),
            Ok(_) => {
                self.known = false;
                (None, None)
            }
            Err(e) => {
                let d =
                    OpDiag::new("Invalid object key", format!("The key expression produced an invalid result: {e}."), Blame::Operand(1));
                (None, self.unusable(d))
            }
        }
    }

    /// Marks the result unknown; the diagnostic is reported only for the
    /// first problem.
    fn unusable(&mut self, d: OpDiag) -> Option<OpDiag> {
        let first = self.known;
        self.known = false;
        first.then(|| d.in_expr())
    }

    /// Adds an element of a tuple result.
    #[inline]
    pub fn push_element(&mut self, value: Value) {
        debug_assert!(self.kind == ForKind::Tuple);
        self.tuple.push(value);
    }

    /// Adds an element's value (`key`: from [`ForCollector::key`], `None`
    /// for tuple results). A repeated key without grouping is an error and
    /// the first value stays.
    pub fn push(&mut self, key: Option<Str>, value: Value) -> Option<OpDiag> {
        let ForKind::Object { group } = self.kind else {
            self.push_element(value);
            return None;
        };
        // (An object element without a key is left out.)
        let key = key?;
        let room = self.room;
        let index = self.index.get_or_insert_with(|| {
            self.keys.reserve_exact(room);
            if group {
                self.groups.reserve_exact(room);
            } else {
                self.tuple.reserve_exact(room);
            }
            HashMap::with_capacity_and_hasher(room, Default::default())
        });
        match index.get(&key) {
            Some(&i) if group => {
                if let Some(g) = self.groups.get_mut(i) {
                    g.push(value);
                }
                None
            }
            Some(_) => Some(
                OpDiag::new(
                    "Duplicate object key",
                    format!(
                        "Two different items produced the key {} in this 'for' expression. If duplicates are expected, use the ellipsis (...) after the value expression to enable grouping by key.",
                        runtime::strings::go_quote(&key)
                    ),
                    Blame::Operand(1),
                )
                .in_expr(),
            ),
            None => {
                index.insert(key.clone(), self.keys.len());
                self.keys.push(key);
                if group {
                    self.groups.push(vec![value]);
                } else {
                    self.tuple.push(value);
                }
                None
            }
        }
    }

    /// Whether the result is still going to be known.
    pub fn is_known(&self) -> bool {
        self.known
    }

    /// The result: a tuple, an object (grouped: of tuples), or `DynamicVal`.
    pub fn finish(self) -> Value {
        if !self.known {
            return Value::dynamic_unknown();
        }
        match self.kind {
            ForKind::Tuple => Value::tuple(self.tuple),
            ForKind::Object { group } => {
                // (The keys are strings, NFC already: their storage is
                // shared with the object's names.)
                let attrs: Vec<(Str, Value)> = if group {
                    self.keys.into_iter().zip(self.groups.into_iter().map(Value::tuple)).collect()
                } else {
                    self.keys.into_iter().zip(self.tuple).collect()
                };
                Value::object_from_strs(attrs)
            }
        }
    }
}
