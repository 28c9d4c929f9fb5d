//! HCL's value traversal steps (`hcl.Index` and `hcl.GetAttr`): indexing
//! with a key value and attribute access, with the reference's results
//! for unknowns and its diagnostics' wording. The caller attaches source
//! ranges; on error the expression's value is `DynamicVal`.

use super::Value;
use crate::convert::convert;
use crate::strings::go_quote;
use crate::types::Type;

/// A failed traversal step: a diagnostic summary and detail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraversalError {
    pub summary: &'static str,
    pub detail: String,
}

const INVALID_INDEX: &str = "Invalid index";
const UNSUPPORTED_ATTR: &str = "Unsupported attribute";
const NO_ELEMENT: &str = "The given key does not identify an element in this collection value";

fn invalid_index(detail: impl Into<String>) -> TraversalError {
    TraversalError { summary: INVALID_INDEX, detail: detail.into() }
}

fn unsupported_attr(detail: impl Into<String>) -> TraversalError {
    TraversalError { summary: UNSUPPORTED_ATTR, detail: detail.into() }
}

/// cty `HasIndex` for lists, tuples and maps with a key of the right type:
/// `None` when unknown.
fn has_index(collection: &Value, key: &Value) -> Option<bool> {
    let ty = collection.ty();
    if !key.is_known() {
        return None;
    }
    match (&ty, key) {
        (Type::List(_), Value::Number(n)) => {
            if !collection.is_known() {
                return None;
            }
            Some(n.to_i64().is_some_and(|i| i >= 0 && (i as u64) < collection.elements_slice().len() as u64))
        }
        (Type::Tuple(tt), Value::Number(n)) => Some(n.to_i64().is_some_and(|i| i >= 0 && (i as u64) < tt.len() as u64)),
        (Type::Map(_), Value::String(k)) => {
            if !collection.is_known() {
                return None;
            }
            Some(collection.map_get(k).is_some())
        }
        _ => Some(false),
    }
}

impl Value {
    /// `hcl.Index(collection, key)`: `collection[key]`.
    pub fn hcl_index(&self, key: &Value) -> Result<Value, TraversalError> {
        if self.is_null() {
            return Err(TraversalError {
                summary: "Attempt to index null value",
                detail: "This value is null, so it does not have any indices.".to_string(),
            });
        }
        if key.is_null() {
            return Err(invalid_index("Can't use a null value as an indexing key."));
        }
        let ty = self.ty();
        if ty.is_dynamic() || key.ty().is_dynamic() {
            return Ok(Value::dynamic_unknown());
        }
        match &ty {
            Type::List(_) | Type::Tuple(_) | Type::Map(_) => {
                let want = if ty.is_map() { Type::String } else { Type::Number };
                let key = convert(key, &want).map_err(|e| invalid_index(format!("{NO_ELEMENT}: {e}.")))?;
                match has_index(self, &key) {
                    None => Ok(match &ty {
                        Type::Tuple(_) => Value::dynamic_unknown(),
                        _ => Value::unknown(ty.element_type().cloned().unwrap_or(Type::Dynamic)),
                    }),
                    Some(false) => Err(self.missing_index_error(&key)),
                    Some(true) => Ok(self.index_present(&key)),
                }
            }
            Type::Object(ot) => {
                let was_number = key.ty() == Type::Number;
                let key = convert(key, &Type::String).map_err(|e| invalid_index(format!("{NO_ELEMENT}: {e}.")))?;
                if !self.is_known() || !key.is_known() {
                    return Ok(Value::dynamic_unknown());
                }
                let name = key.as_str().unwrap_or_default();
                match ot.attr_index(name) {
                    Some(i) => Ok(self.attr_at(i).cloned().unwrap_or_else(Value::dynamic_unknown)),
                    None => {
                        let suggestion = if was_number {
                            " An object only supports looking up attributes by name, not by numeric index."
                        } else {
                            ""
                        };
                        Err(invalid_index(format!("{NO_ELEMENT}.{suggestion}")))
                    }
                }
            }
            Type::Set(_) => Err(invalid_index(
                "Elements of a set are identified only by their value and don't have any separate index or key to select with, so it's only possible to perform operations across all elements of the set.",
            )),
            _ => Err(invalid_index("This value does not have any indices.")),
        }
    }

    /// The element for a key that `has_index` found (cty `Index`).
    fn index_present(&self, key: &Value) -> Value {
        let found = match key {
            Value::Number(n) => n.to_i64().and_then(|i| usize::try_from(i).ok()).and_then(|i| self.index(i)),
            Value::String(k) => self.map_get(k),
            _ => None,
        };
        match (found, self) {
            (Some(v), _) => v.clone(),
            // An unknown tuple still knows its element types.
            (None, Value::Unknown(u)) if matches!(u.ty(), Type::Tuple(_)) => {
                let Type::Tuple(tt) = u.ty() else { unreachable!() };
                let i = key.as_number().and_then(|n| n.to_i64()).and_then(|i| usize::try_from(i).ok());
                Value::unknown(i.and_then(|i| tt.elems().get(i).cloned()).unwrap_or(Type::Dynamic))
            }
            (None, _) => Value::dynamic_unknown(),
        }
    }

    /// The reference's explanation of why a list/tuple/map key is absent.
    fn missing_index_error(&self, key: &Value) -> TraversalError {
        if let (false, Value::Number(n)) = (self.ty().is_map(), key) {
            if !n.is_integer() {
                return invalid_index(format!(
                    "{NO_ELEMENT}: indexing a sequence requires a whole number, but the given index has a fractional part."
                ));
            }
            if n.sign() < 0 {
                return invalid_index(format!("{NO_ELEMENT}: a negative number is not a valid index for a sequence."));
            }
            // Only an index equal to the length gets the specific message.
            if let Some(len) = self.cty_length().as_number().cloned() {
                if n.equals(&len) || n.cmp(&len) == std::cmp::Ordering::Equal {
                    return invalid_index(if len.is_zero() {
                        format!("{NO_ELEMENT}: the collection has no elements.")
                    } else {
                        format!("{NO_ELEMENT}: the given index is greater than or equal to the length of the collection.")
                    });
                }
            }
        }
        invalid_index(format!("{NO_ELEMENT}."))
    }

    /// `hcl.GetAttr(obj, name)`: `obj.name`.
    pub fn hcl_get_attr(&self, name: &str) -> Result<Value, TraversalError> {
        if self.is_null() {
            return Err(TraversalError {
                summary: "Attempt to get attribute from null value",
                detail: "This value is null, so it does not have any attributes.".to_string(),
            });
        }
        let ty = self.ty();
        match &ty {
            Type::Object(ot) => {
                let Some(i) = ot.attr_index(&crate::strings::normalize_nfc(name)) else {
                    return Err(unsupported_attr(format!("This object does not have an attribute named {}.", go_quote(name))));
                };
                match self {
                    Value::Unknown(_) => Ok(Value::unknown(ot.types()[i].clone())),
                    _ => Ok(self.attr_at(i).cloned().unwrap_or_else(Value::dynamic_unknown)),
                }
            }
            Type::Map(ety) => {
                if !self.is_known() {
                    return Ok(Value::unknown((**ety).clone()));
                }
                match self.map_get(&crate::strings::normalize_nfc(name)) {
                    Some(v) => Ok(v.clone()),
                    None => Err(TraversalError {
                        summary: "Missing map element",
                        detail: format!("This map does not have an element with the key {}.", go_quote(name)),
                    }),
                }
            }
            Type::Dynamic => Ok(Value::dynamic_unknown()),
            Type::List(ety) if ety.is_object() => {
                let has = ety.object_type().is_some_and(|o| o.attr_index(&crate::strings::normalize_nfc(name)).is_some());
                Err(unsupported_attr(if has {
                    format!(
                        "Can't access attributes on a list of objects. Did you mean to access attribute {} for a specific element of the list, or across all elements of the list?",
                        go_quote(name)
                    )
                } else {
                    "Can't access attributes on a list of objects. Did you mean to access an attribute for a specific element of the list, or across all elements of the list?".to_string()
                }))
            }
            Type::Set(ety) if ety.is_object() => Err(unsupported_attr(
                "Can't access attributes on a set of objects. Did you mean to access an attribute across all elements of the set?",
            )),
            Type::String | Type::Number | Type::Bool => {
                Err(unsupported_attr(format!("Can't access attributes on a primitive-typed value ({}).", ty.friendly_name())))
            }
            _ => Err(unsupported_attr("This value does not have any attributes.")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{value_from_json_implied, value_to_result_string};
    use crate::number::Number;

    fn v(json: &str) -> Value {
        value_from_json_implied(&serde_json::from_str(json).unwrap()).unwrap()
    }

    fn outcome(r: Result<Value, TraversalError>) -> String {
        match r {
            Ok(v) => value_to_result_string(&v).unwrap(),
            Err(e) => format!("{} | {}", e.summary, e.detail),
        }
    }

    #[test]
    fn index_like_hcl() {
        let list = crate::convert::convert(&v("[1,2]"), &Type::list(Type::Number)).unwrap();
        let num = |s: &str| Value::Number(Number::parse(s).unwrap());
        let inf = Value::Number(Number::pos_inf());
        let set = crate::convert::convert(&v("[1]"), &Type::set(Type::Number)).unwrap();
        let map = crate::convert::convert(&v(r#"{"a":1}"#), &Type::map(Type::Number)).unwrap();
        // Expected results from the reference (hcl-oracle).
        let cases: Vec<(Value, Value, &str)> = vec![
            (v("[1,2]"), num("5"), "Invalid index | The given key does not identify an element in this collection value."),
            (v("[1,2]"), num("2"), "Invalid index | The given key does not identify an element in this collection value: the given index is greater than or equal to the length of the collection."),
            (v("[]"), num("0"), "Invalid index | The given key does not identify an element in this collection value: the collection has no elements."),
            (v("[1,2]"), num("-1"), "Invalid index | The given key does not identify an element in this collection value: a negative number is not a valid index for a sequence."),
            (v("[1,2]"), num("1.5"), "Invalid index | The given key does not identify an element in this collection value: indexing a sequence requires a whole number, but the given index has a fractional part."),
            (v("[1,2]"), inf, "Invalid index | The given key does not identify an element in this collection value: indexing a sequence requires a whole number, but the given index has a fractional part."),
            (v("[1,2]"), num("9223372036854775808"), "Invalid index | The given key does not identify an element in this collection value."),
            (v("[1,2]"), Value::string("1"), "2"),
            (v("[1,2]"), Value::string("x"), "Invalid index | The given key does not identify an element in this collection value: a number is required."),
            (list.clone(), num("2"), "Invalid index | The given key does not identify an element in this collection value: the given index is greater than or equal to the length of the collection."),
            (list, num("1"), "2"),
            (v(r#"{"a":1}"#), num("0"), "Invalid index | The given key does not identify an element in this collection value. An object only supports looking up attributes by name, not by numeric index."),
            (v(r#"{"a":1}"#), Value::string("b"), "Invalid index | The given key does not identify an element in this collection value."),
            (v(r#"{"a":1}"#), Value::bool(true), "Invalid index | The given key does not identify an element in this collection value."),
            (map.clone(), Value::string("b"), "Invalid index | The given key does not identify an element in this collection value."),
            (map, Value::string("a"), "1"),
            (set, num("0"), "Invalid index | Elements of a set are identified only by their value and don't have any separate index or key to select with, so it's only possible to perform operations across all elements of the set."),
            (Value::string("abc"), num("0"), "Invalid index | This value does not have any indices."),
            (Value::null(Type::Dynamic), num("0"), "Attempt to index null value | This value is null, so it does not have any indices."),
            (v("[1]"), Value::null(Type::Dynamic), "Invalid index | Can't use a null value as an indexing key."),
            (Value::unknown(Type::list(Type::String)), num("3"), r#"{"$unknown":true}"#),
            (v("[1]"), Value::unknown(Type::Number), r#"{"$unknown":true}"#),
        ];
        for (c, k, want) in cases {
            assert_eq!(outcome(c.hcl_index(&k)), want, "{c:?}[{k:?}]");
        }
        assert_eq!(Value::unknown(Type::list(Type::String)).hcl_index(&num("3")).unwrap().ty(), Type::String);
        let ut = Value::unknown(Type::tuple(vec![Type::String, Type::Bool]));
        assert_eq!(ut.hcl_index(&num("1")).unwrap().ty(), Type::Bool);
        assert!(v("[1]").hcl_index(&Value::unknown(Type::Number)).unwrap().ty().is_dynamic());
    }

    #[test]
    fn get_attr_like_hcl() {
        let map = crate::convert::convert(&v(r#"{"a":1}"#), &Type::map(Type::Number)).unwrap();
        let lobj = crate::convert::convert(&v(r#"[{"a":1}]"#), &Type::list(Type::Dynamic)).unwrap();
        let sobj = crate::convert::convert(&v(r#"[{"a":1}]"#), &Type::set(Type::Dynamic)).unwrap();
        let cases: Vec<(Value, &str, &str)> = vec![
            (v(r#"{"a":1}"#), "a", "1"),
            (v(r#"{"a":1}"#), "b", r#"Unsupported attribute | This object does not have an attribute named "b"."#),
            (map.clone(), "b", r#"Missing map element | This map does not have an element with the key "b"."#),
            (map, "a", "1"),
            (v(r#"[{"a":1}]"#), "a", "Unsupported attribute | This value does not have any attributes."),
            (lobj.clone(), "a", r#"Unsupported attribute | Can't access attributes on a list of objects. Did you mean to access attribute "a" for a specific element of the list, or across all elements of the list?"#),
            (lobj, "b", "Unsupported attribute | Can't access attributes on a list of objects. Did you mean to access an attribute for a specific element of the list, or across all elements of the list?"),
            (sobj, "a", "Unsupported attribute | Can't access attributes on a set of objects. Did you mean to access an attribute across all elements of the set?"),
            (Value::string("x"), "a", "Unsupported attribute | Can't access attributes on a primitive-typed value (string)."),
            (Value::null(Type::Dynamic), "a", "Attempt to get attribute from null value | This value is null, so it does not have any attributes."),
            (Value::dynamic_unknown(), "a", r#"{"$unknown":true}"#),
        ];
        for (o, name, want) in cases {
            assert_eq!(outcome(o.hcl_get_attr(name)), want, "{o:?}.{name}");
        }
        let uo = Value::unknown(Type::object([("a", Type::Bool)]));
        assert_eq!(uo.hcl_get_attr("a").unwrap().ty(), Type::Bool);
    }
}
