//! cty `Equals` (the `==` operator: unknown-aware) and `RawEquals` (exact
//! structural identity, for tests and set ordering).

use super::Value;
use crate::types::Type;

/// A three-valued boolean: the result of cty `Equals`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tri {
    True,
    False,
    Unknown,
}

impl Tri {
    fn from_bool(b: bool) -> Tri {
        if b {
            Tri::True
        } else {
            Tri::False
        }
    }
    /// As cty's `Equals` gives it: a bool, or an unknown bool that is
    /// known not to be null.
    pub fn to_value(self) -> Value {
        match self {
            Tri::True => Value::Bool(true),
            Tri::False => Value::Bool(false),
            Tri::Unknown => Value::unknown(Type::Bool).refine_not_null(),
        }
    }
    /// A known bool as a [`Tri`], anything else unknown.
    pub fn of(v: &Value) -> Tri {
        match v {
            Value::Bool(b) => Tri::from_bool(*b),
            _ => Tri::Unknown,
        }
    }
}

/// Notes the work of comparing `n` element pairs ([`crate::work`]).
fn count_compared(n: u64) {
    crate::work::note(n);
}

/// Folds element comparisons as cty does: the first unknown result makes
/// the whole comparison unknown, the first false one ends it as false.
fn all_equal<'a>(pairs: impl Iterator<Item = (&'a Value, &'a Value)>) -> Tri {
    for (a, b) in pairs {
        count_compared(1);
        match equals(a, b, true) {
            Tri::True => {}
            other => return other,
        }
    }
    Tri::True
}

/// Element comparisons for maps and objects. cty walks these in Go map
/// order, which is random, so when some elements compare unknown and
/// others false the reference answers either way from run to run. Here a
/// definite difference wins: the result is false if any element differs,
/// else unknown if any comparison is unknown.
fn unordered_all_equal<'a>(pairs: impl Iterator<Item = (&'a Value, &'a Value)>) -> Tri {
    let mut result = Tri::True;
    for (a, b) in pairs {
        count_compared(1);
        match equals(a, b, true) {
            Tri::True => {}
            Tri::False => return Tri::False,
            Tri::Unknown => result = Tri::Unknown,
        }
    }
    result
}

impl Value {
    /// cty `Equals`: a bool value, or an unknown bool when the answer
    /// depends on unknown values.
    pub fn equals(&self, other: &Value) -> Value {
        self.equals_tri(other).to_value()
    }

    /// cty `Equals` as a [`Tri`].
    pub fn equals_tri(&self, other: &Value) -> Tri {
        equals(self, other, false)
    }
    /// cty `RawEquals`: same type, same knownness and nullness, and equal
    /// content at every depth (unknowns of one type are raw-equal).
    pub fn raw_equals(&self, other: &Value) -> bool {
        if self.is_collection() {
            return crate::stack::guarded(|| self.raw_equals_here(other));
        }
        self.raw_equals_here(other)
    }

    fn raw_equals_here(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Unknown(a), Value::Unknown(b)) => a.ty() == b.ty() && a.refinement() == b.refinement(),
            (Value::Null(a), Value::Null(b)) => a == b,
            (Value::Unknown(_), _) | (_, Value::Unknown(_)) | (Value::Null(_), _) | (_, Value::Null(_)) => false,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Number(a), Value::Number(b)) => a.equals(b),
            (Value::String(a), Value::String(b)) => a == b,
            (Value::List(a), Value::List(b)) => {
                a.ty == b.ty && a.elems.len() == b.elems.len() && a.elems.iter().zip(b.elems.iter()).all(|(x, y)| x.raw_equals(y))
            }
            (Value::Set(a), Value::Set(b)) => {
                a.ty == b.ty && a.elems.len() == b.elems.len() && a.elems.iter().zip(b.elems.iter()).all(|(x, y)| x.raw_equals(y))
            }
            (Value::Tuple(a), Value::Tuple(b)) => {
                a.tuple_type() == b.tuple_type() && a.elems().iter().zip(b.elems().iter()).all(|(x, y)| x.raw_equals(y))
            }
            (Value::Object(a), Value::Object(b)) => {
                a.object_type() == b.object_type() && a.vals().iter().zip(b.vals().iter()).all(|(x, y)| x.raw_equals(y))
            }
            (Value::Map(a), Value::Map(b)) => {
                a.ty == b.ty && a.keys == b.keys && a.vals.iter().zip(b.vals.iter()).all(|(x, y)| x.raw_equals(y))
            }
            _ => false,
        }
    }
}

/// cty `Equals`; `same_type`: the caller already knows the two values have
/// equal types (the elements of two collections whose types are equal), so
/// the check cty repeats at every level is skipped: a type is compared
/// once, not once per level of nesting.
fn equals(this: &Value, other: &Value, same_type: bool) -> Tri {
    // A null is unequal to what cannot be null.
    if (this.is_null() && other.definitely_not_null()) || (other.is_null() && this.definitely_not_null()) {
        return Tri::False;
    }
    // An unknown's refinement may rule out a known value.
    match (this, other) {
        (Value::Unknown(_), Value::Unknown(_)) => {}
        (Value::Unknown(_), known) | (known, Value::Unknown(_)) => {
            let unknown = if this.is_known() { other } else { this };
            if unknown.range_includes(known) == Tri::False {
                return Tri::False;
            }
        }
        _ => {}
    }
    match (this.is_known(), other.is_known()) {
        (false, false) => return Tri::Unknown,
        (true, false) => return known_vs_unknown(this, other),
        (false, true) => return known_vs_unknown(other, this),
        (true, true) => {}
    }
    match (this.is_null(), other.is_null()) {
        (true, true) => return Tri::True,
        (true, false) | (false, true) => return Tri::False,
        (false, false) => {}
    }
    // Fast paths for the common primitive cases.
    match (this, other) {
        (Value::String(a), Value::String(b)) => return Tri::from_bool(a == b),
        (Value::Number(a), Value::Number(b)) => return Tri::from_bool(a.equals(b)),
        (Value::Bool(a), Value::Bool(b)) => return Tri::from_bool(a == b),
        _ => {}
    }
    if !this.has_wholly_known_type() || !other.has_wholly_known_type() {
        let (ta, tb) = (this.ty(), other.ty());
        if !ta.conforms_to(&tb) && !tb.conforms_to(&ta) {
            return Tri::False;
        }
        return Tri::Unknown;
    }
    crate::stack::guarded(|| equals_collections(this, other, same_type))
}

/// [`equals`] for two known non-null values of wholly known types.
fn equals_collections(this: &Value, other: &Value, same_type: bool) -> Tri {
    match (this, other) {
        (Value::List(a), Value::List(b)) => {
            if !same_type && a.ty != b.ty {
                return Tri::False;
            }
            if a.elems.len() != b.elems.len() {
                return Tri::False;
            }
            all_equal(a.elems.iter().zip(b.elems.iter()))
        }
        (Value::Tuple(a), Value::Tuple(b)) => {
            if !same_type && a.tuple_type() != b.tuple_type() {
                return Tri::False;
            }
            all_equal(a.elems().iter().zip(b.elems().iter()))
        }
        (Value::Object(a), Value::Object(b)) => {
            if !same_type && a.object_type() != b.object_type() {
                return Tri::False;
            }
            unordered_all_equal(a.vals().iter().zip(b.vals().iter()))
        }
        (Value::Map(a), Value::Map(b)) => {
            if (!same_type && a.ty != b.ty) || a.keys != b.keys {
                return Tri::False;
            }
            unordered_all_equal(a.vals.iter().zip(b.vals.iter()))
        }
        (Value::Set(a), Value::Set(b)) => {
            if !same_type && a.ty != b.ty {
                return Tri::False;
            }
            if a.elems.iter().chain(b.elems.iter()).any(|e| !e.is_known()) {
                return Tri::Unknown;
            }
            Tri::from_bool(a.elems.len() == b.elems.len() && set_subset(a, b) && set_subset(b, a))
        }
        // Different kinds of value: different types.
        _ => Tri::False,
    }
}

/// Whether every element of `a` is in `b` by cty's set membership (`Has`:
/// same hash bucket and equal), for sets of one type with known elements.
/// Large sets are matched through an index on the hash text.
fn set_subset(a: &super::SetVal, b: &super::SetVal) -> bool {
    count_compared(a.elems.len() as u64);
    if b.elems.len() <= 16 || matches!(b.element_type(), Type::String) {
        return a.elems.iter().all(|x| b.contains(x));
    }
    let index = super::SetIndex::new(&b.elems);
    a.elems.iter().all(|x| index.contains(x))
}

/// cty `Equals` when `known` is known and `unknown` is not.
fn known_vs_unknown(known: &Value, unknown: &Value) -> Tri {
    let ut = unknown.ty();
    if known.is_null() || ut.has_dynamic_types() {
        return Tri::Unknown;
    }
    if !known.has_type(&ut) {
        return Tri::False;
    }
    Tri::Unknown
}

impl PartialEq for Value {
    /// Raw equality (cty `RawEquals`), the notion tests want.
    fn eq(&self, other: &Value) -> bool {
        self.raw_equals(other)
    }
}
