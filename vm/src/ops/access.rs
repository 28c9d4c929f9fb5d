//! `c[k]`, `v.name` and the legacy `v.0`: `hcl.Index` and `hcl.GetAttr`
//! (implemented in the runtime as `Value::hcl_index` / `hcl_get_attr`),
//! with the diagnostic blamed on the step and `DynamicVal` as the value
//! after an error.

use super::{Blame, OpDiag, OpError, OpResult};
use runtime::value::TraversalError;
use runtime::{Number, Value};

fn step_error(e: TraversalError) -> Box<OpError> {
    OpError::one(OpDiag::new(e.summary, e.detail, Blame::Step), Value::dynamic_unknown())
}

/// `collection[key]` (hcl `Index`): list/tuple keys convert to numbers, map
/// and object keys to strings.
pub fn index(collection: &Value, key: &Value) -> OpResult {
    if let Some(v) = index_ref(collection, key) {
        return Ok(v.clone());
    }
    collection.hcl_index(key).map_err(step_error)
}

/// The element `collection[key]` selects when that is a plain lookup in a
/// known collection with a key of the collection's own key type (the
/// common case, answered by reference); `None` for everything else,
/// including every error: use [`index`] then.
#[inline]
pub fn index_ref<'v>(collection: &'v Value, key: &Value) -> Option<&'v Value> {
    match (collection, key) {
        (Value::List(_) | Value::Tuple(_), Value::Number(n)) => {
            n.to_i64().and_then(|i| usize::try_from(i).ok()).and_then(|i| collection.index(i))
        }
        (Value::Map(m), Value::String(k)) => m.get(k),
        (Value::Object(o), Value::String(k)) => o.get(k),
        _ => None,
    }
}

/// `v.name` (hcl `GetAttr`): objects by attribute, maps by key.
pub fn get_attr(v: &Value, name: &str) -> OpResult {
    if let Value::Object(o) = v {
        if let Some(found) = o.get(name) {
            return Ok(found.clone());
        }
    }
    v.hcl_get_attr(name).map_err(step_error)
}

/// The legacy index syntax `v.0`: the parser makes it an index step whose
/// key is the number literal (parsed as any number literal), so it behaves
/// exactly as `v[0]`.
pub fn legacy_index(v: &Value, idx: &Number) -> OpResult {
    index(v, &Value::Number(idx.clone()))
}
