//! Tuple and object constructors (hcl `TupleConsExpr`, `ObjectConsExpr`).

use super::{Blame, OpDiag};
use runtime::convert::convert;
use runtime::{Type, Value};

/// `[a, b, ...]`: a tuple of exactly the given values.
pub fn make_tuple(values: Vec<Value>) -> Value {
    Value::tuple(values)
}

/// Builds the value of `{k1 = v1, k2 = v2, ...}` item by item. Keys
/// convert to strings; a later item with the same key replaces the
/// earlier one. When any key is unknown, null, unconvertible or failed to
/// evaluate, the object is `DynamicVal` (its set of attributes is not
/// known), though every item is still evaluated for its diagnostics.
/// Blame for each item: `Operand(0)` its key expression, `Operand(1)` its
/// value expression (no context).
#[derive(Default)]
pub struct ObjectBuilder {
    attrs: Vec<(runtime::value::Str, Value)>,
    known: bool,
}

impl ObjectBuilder {
    pub fn new() -> ObjectBuilder {
        ObjectBuilder { attrs: Vec::new(), known: true }
    }

    pub fn with_capacity(n: usize) -> ObjectBuilder {
        ObjectBuilder { attrs: Vec::with_capacity(n), known: true }
    }

    /// Adds one item. `key_failed`: the key expression produced error
    /// diagnostics (its value is then not looked at). Returns this item's
    /// own diagnostic, if any.
    pub fn push(&mut self, key: &Value, key_failed: bool, value: Value) -> Option<OpDiag> {
        if key_failed {
            self.known = false;
            return None;
        }
        if let Value::String(s) = key {
            self.attrs.push((s.clone(), value));
            return None;
        }
        if key.is_null() {
            self.known = false;
            return Some(OpDiag::new("Null value as key", "Can't use a null value as a key.", Blame::Operand(1)));
        }
        match convert(key, &Type::String) {
            Ok(Value::String(s)) => {
                self.attrs.push((s, value));
                None
            }
            Ok(_) => {
                // Unknown key.
                self.known = false;
                None
            }
            Err(e) => {
                self.known = false;
                Some(OpDiag::new("Incorrect key type", format!("Can't use this value as a key: {e}."), Blame::Operand(0)))
            }
        }
    }

    /// The object (or `DynamicVal` when some key was not usable).
    pub fn finish(self) -> Value {
        if !self.known {
            return Value::dynamic_unknown();
        }
        // Keys are `Str`s (NFC): shared, not normalised and copied again.
        Value::object_from_strs(self.attrs)
    }
}
