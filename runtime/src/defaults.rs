//! Default values of a type constraint's optional attributes, as hcl's
//! `ext/typeexpr` `Defaults` (v2.20.0): a tree parallel to the type, with
//! the default value of each `optional(T, DEFAULT)` attribute, applied to a
//! value before it is converted to the constraint's type.
//!
//! The tree is built by the compiler from a constraint's source
//! (`compiler::typeexpr`); applying it needs values alone.

use crate::types::Type;
use crate::unify::unify_unsafe;
use crate::value::Value;
use std::collections::BTreeMap;

/// hcl's `typeexpr.Defaults`: the defaults of one level of a type.
#[derive(Clone, Debug, PartialEq)]
pub struct Defaults {
    /// The type of the node these defaults apply to (a type constraint,
    /// with its optional attributes).
    pub ty: Type,
    /// Default values of the object attributes, by attribute name
    /// (already converted to the attribute's type).
    pub values: BTreeMap<String, Value>,
    /// Defaults of the elements: by attribute name for an object, by
    /// position (`"0"`, `"1"`, ...) for a tuple, at `""` for the element
    /// type of a list, set or map.
    pub children: BTreeMap<String, Defaults>,
}

impl Defaults {
    /// Applies the defaults to `v` (hcl's `Defaults.Apply`): wherever an
    /// object (or map) lacks an attribute that has a default, or has it
    /// null, the default is put in. The result may still need converting
    /// to the constraint's type (and its type may differ from `v`'s: a
    /// list whose elements no longer share one type becomes a tuple).
    /// Unknown and null values are returned as they are; nothing is
    /// reported: conversion reports what does not fit.
    pub fn apply(&self, v: &Value) -> Value {
        crate::stack::guarded(|| self.apply_here(v))
    }

    fn apply_here(&self, v: &Value) -> Value {
        if !v.is_known() || v.is_null() {
            return v.clone();
        }
        if self.values.is_empty() && self.children.is_empty() {
            return v.clone();
        }
        match v {
            Value::List(_) | Value::Set(_) | Value::Tuple(_) => {
                let values: Vec<Value> = v
                    .elements_slice()
                    .iter()
                    .enumerate()
                    .map(|(i, e)| match self.child_at_index(i) {
                        Some(d) => d.apply(e),
                        None => e.clone(),
                    })
                    .collect();
                let ety = v.ty().element_type().cloned();
                match (v, ety) {
                    (Value::Set(_), Some(ety)) if values.is_empty() => return Value::set_empty(ety),
                    (Value::List(_), Some(ety)) if values.is_empty() => return Value::list_empty(ety),
                    (Value::Set(_), _) => {
                        if let Some(converted) = unify_as_slice(&values) {
                            if let Ok(s) = Value::set(converted) {
                                return s;
                            }
                        }
                    }
                    (Value::List(_), _) => {
                        if let Some(converted) = unify_as_slice(&values) {
                            if let Ok(l) = Value::list(converted) {
                                return l;
                            }
                        }
                    }
                    _ => {}
                }
                Value::tuple(values)
            }
            Value::Object(_) | Value::Map(_) => {
                let mut values: BTreeMap<String, Value> = BTreeMap::new();
                for (k, e) in v.key_value_pairs().unwrap_or_default() {
                    let applied = match self.child_at_key(k.as_str()) {
                        Some(d) => d.apply(e),
                        None => e.clone(),
                    };
                    values.insert(k.as_str().to_string(), applied);
                }
                for (key, default) in &self.values {
                    let missing = !matches!(values.get(key), Some(x) if !x.is_null());
                    if missing {
                        let filled = match self.children.get(key) {
                            Some(d) => d.apply(default),
                            None => default.clone(),
                        };
                        values.insert(key.clone(), filled);
                    }
                    if default.definitely_not_null() {
                        if let Some(slot) = values.get_mut(key) {
                            if !slot.ty().is_dynamic() {
                                *slot = std::mem::replace(slot, Value::dynamic_unknown()).refine_not_null();
                            }
                        }
                    }
                }
                if let Value::Map(m) = v {
                    if values.is_empty() {
                        return Value::map_empty(m.element_type().clone());
                    }
                    let pairs: Vec<(String, Value)> = values.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
                    let vals: Vec<Value> = pairs.iter().map(|(_, v)| v.clone()).collect();
                    if let Some(converted) = unify_as_slice(&vals) {
                        let entries: Vec<(String, Value)> = pairs.into_iter().map(|(k, _)| k).zip(converted).collect();
                        if let Ok(m) = Value::map(entries) {
                            return m;
                        }
                    }
                }
                Value::object(values.into_iter().collect())
            }
            _ => v.clone(),
        }
    }

    /// hcl's `getChild` for an element at a position.
    fn child_at_index(&self, i: usize) -> Option<&Defaults> {
        if self.ty.is_tuple() {
            return self.children.get(&i.to_string());
        }
        self.children.get("")
    }

    /// hcl's `getChild` for an element under a key.
    fn child_at_key(&self, key: &str) -> Option<&Defaults> {
        if self.ty.is_object() {
            return self.children.get(key);
        }
        self.children.get("")
    }
}

/// hcl's `unifyAsSlice` (and `unifyAsMap`, over values in key order):
/// the values converted to the type they unify to, or `None` when they do
/// not unify or a conversion fails (or there are none).
fn unify_as_slice(values: &[Value]) -> Option<Vec<Value>> {
    let types: Vec<Type> = values.iter().map(Value::ty).collect();
    let (_, convs) = unify_unsafe(&types)?;
    let mut out = Vec::with_capacity(values.len());
    for (v, conv) in values.iter().zip(convs) {
        match conv {
            None => out.push(v.clone()),
            Some(c) => out.push(c.apply(v).ok()?),
        }
    }
    (!out.is_empty()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::ObjectType;
    use std::sync::Arc;

    fn obj_opt(attrs: Vec<(&str, Type)>, optional: &[&str]) -> Type {
        Type::Object(Arc::new(ObjectType::with_optional(attrs, optional.iter().copied()).unwrap()))
    }

    #[test]
    fn fills_missing_and_null_attributes() {
        let ty = obj_opt(vec![("a", Type::String), ("b", Type::Number)], &["b"]);
        let d = Defaults { ty, values: [("b".to_string(), Value::int(7))].into_iter().collect(), children: BTreeMap::new() };
        let v = Value::object(vec![("a", Value::string("x"))]);
        assert_eq!(format!("{:?}", d.apply(&v)), format!("{:?}", Value::object(vec![("a", Value::string("x")), ("b", Value::int(7))])));
        let v = Value::object(vec![("a", Value::string("x")), ("b", Value::null(Type::Number))]);
        assert_eq!(d.apply(&v).get_attr("b").and_then(|b| b.as_number()?.to_i64()), Some(7));
        // An unknown attribute becomes known not to be null.
        let v = Value::object(vec![("a", Value::string("x")), ("b", Value::unknown(Type::Number))]);
        assert!(d.apply(&v).get_attr("b").unwrap().definitely_not_null());
        // Unknown and null wholes are left alone.
        assert!(!d.apply(&Value::unknown(Type::Dynamic)).is_known());
        assert!(d.apply(&Value::null(Type::Dynamic)).is_null());
    }

    #[test]
    fn lists_of_objects_stay_lists_when_their_elements_unify() {
        let ety = obj_opt(vec![("a", Type::String), ("b", Type::Number)], &["b"]);
        let child =
            Defaults { ty: ety.clone(), values: [("b".to_string(), Value::int(1))].into_iter().collect(), children: BTreeMap::new() };
        let d = Defaults { ty: Type::list(ety), values: BTreeMap::new(), children: [(String::new(), child)].into_iter().collect() };
        let v = Value::tuple(vec![Value::object(vec![("a", Value::string("x"))]), Value::object(vec![("a", Value::string("y"))])]);
        let out = d.apply(&v);
        assert!(out.ty().is_tuple());
        assert_eq!(out.elements_slice()[1].get_attr("b").and_then(|b| b.as_number()?.to_i64()), Some(1));
    }
}
