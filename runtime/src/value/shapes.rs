//! Sharing the object types of values kept in memory together.

use crate::value::Value;
use std::sync::Arc;

/// Canonical object types for values bound once and evaluated many times:
/// objects of the same shape end up sharing one type (and its attribute
/// names), so attribute lookups across many variable sets touch the same
/// memory. Values are unchanged (equal, same types).
#[derive(Default)]
pub struct ShapeCache {
    shapes: std::collections::HashSet<Arc<crate::types::ObjectType>>,
}

impl ShapeCache {
    pub fn new() -> ShapeCache {
        ShapeCache::default()
    }

    /// `v` with its objects' types replaced by the canonical ones.
    pub fn share(&mut self, v: &Value) -> Value {
        self.share_depth(v, 0)
    }

    fn share_depth(&mut self, v: &Value, depth: u32) -> Value {
        if depth > 256 {
            return v.clone();
        }
        match v {
            Value::Object(o) => {
                let vals: Vec<Value> = o.vals().iter().map(|e| self.share_depth(e, depth + 1)).collect();
                let shape = match self.shapes.get(o.object_type()) {
                    Some(s) => s.clone(),
                    None => {
                        self.shapes.insert(o.object_type().clone());
                        o.object_type().clone()
                    }
                };
                Value::object_like(&shape, vals).unwrap_or_else(|_| v.clone())
            }
            Value::Tuple(t) => Value::tuple(t.elems().iter().map(|e| self.share_depth(e, depth + 1)).collect()),
            Value::List(l) => {
                let elems = l.elems().iter().map(|e| self.share_depth(e, depth + 1)).collect();
                Value::list_of(l.element_type().clone(), elems).unwrap_or_else(|_| v.clone())
            }
            Value::Map(m) => {
                let entries: Vec<(&str, Value)> =
                    m.keys().iter().map(|k| k.as_str()).zip(m.vals().iter().map(|e| self.share_depth(e, depth + 1))).collect();
                Value::map_of(m.element_type().clone(), entries).unwrap_or_else(|_| v.clone())
            }
            _ => v.clone(),
        }
    }
}
