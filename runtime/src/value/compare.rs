//! cty's ordering and boolean operations on values (`LessThan`,
//! `GreaterThan`, `LessThanOrEqualTo`, `GreaterThanOrEqualTo`, `Not`,
//! `And`, `Or`), with cty's type check: an operand of dynamic type makes
//! the result an unknown bool, an unknown operand makes it unknown, and an
//! operand of another type is an error (cty panics). Null operands are
//! errors too: HCL's operator functions reject them before getting here.

use super::Value;
use crate::types::Type;
use std::cmp::Ordering;

/// Why an operation cannot be applied (cty panics in these cases).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpError(pub String);

impl std::fmt::Display for OpError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for OpError {}

/// cty `typeCheck`: `Ok(Some(unknown bool))` to short-circuit, `Ok(None)`
/// when every operand is a known value of type `required`.
fn type_check(required: &Type, values: &[&Value]) -> Result<Option<Value>, OpError> {
    let mut has_dynamic = false;
    let mut has_unknown = false;
    for (i, v) in values.iter().enumerate() {
        let t = v.ty();
        if t.is_dynamic() {
            has_dynamic = true;
            continue;
        }
        if t != *required {
            return Err(OpError(format!(
                "type mismatch: want {} but value {i} is {}",
                required.friendly_name(),
                t.friendly_name()
            )));
        }
        if !v.is_known() {
            has_unknown = true;
        }
    }
    if has_dynamic || has_unknown {
        return Ok(Some(Value::Unknown(Type::Bool)));
    }
    if values.iter().any(|v| v.is_null()) {
        return Err(OpError("can't operate on a null value".to_string()));
    }
    Ok(None)
}

fn number_order(a: &Value, b: &Value) -> Result<Result<Ordering, Value>, OpError> {
    if let Some(short) = type_check(&Type::Number, &[a, b])? {
        return Ok(Err(short));
    }
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => Ok(Ok(x.cmp(y))),
        _ => Err(OpError("numbers required".to_string())),
    }
}

fn bool_of(v: &Value) -> Option<bool> {
    v.as_bool()
}

impl Value {
    /// cty `LessThan` (numbers only).
    pub fn less_than(&self, other: &Value) -> Result<Value, OpError> {
        Ok(match number_order(self, other)? {
            Ok(o) => Value::Bool(o == Ordering::Less),
            Err(short) => short,
        })
    }

    /// cty `GreaterThan` (numbers only).
    pub fn greater_than(&self, other: &Value) -> Result<Value, OpError> {
        Ok(match number_order(self, other)? {
            Ok(o) => Value::Bool(o == Ordering::Greater),
            Err(short) => short,
        })
    }

    /// cty `LessThanOrEqualTo`: `LessThan(b) Or Equals(b)`. Equality is
    /// cty's (equal decimal text), so two numbers of different precision
    /// that print alike are `<=` each other both ways.
    pub fn less_than_or_equal(&self, other: &Value) -> Result<Value, OpError> {
        self.less_than(other)?.or(&self.equals(other))
    }

    /// cty `GreaterThanOrEqualTo`: `GreaterThan(b) Or Equals(b)`.
    pub fn greater_than_or_equal(&self, other: &Value) -> Result<Value, OpError> {
        self.greater_than(other)?.or(&self.equals(other))
    }

    /// cty `Not` (bools only).
    pub fn not(&self) -> Result<Value, OpError> {
        if let Some(short) = type_check(&Type::Bool, &[self])? {
            return Ok(short);
        }
        Ok(Value::Bool(!bool_of(self).unwrap_or(false)))
    }

    /// cty `And` (bools only; no short-circuit: an unknown operand makes
    /// the result unknown even when the other is false).
    pub fn and(&self, other: &Value) -> Result<Value, OpError> {
        if let Some(short) = type_check(&Type::Bool, &[self, other])? {
            return Ok(short);
        }
        Ok(Value::Bool(
            bool_of(self).unwrap_or(false) && bool_of(other).unwrap_or(false),
        ))
    }

    /// cty `Or` (bools only; no short-circuit, as [`Value::and`]).
    pub fn or(&self, other: &Value) -> Result<Value, OpError> {
        if let Some(short) = type_check(&Type::Bool, &[self, other])? {
            return Ok(short);
        }
        Ok(Value::Bool(
            bool_of(self).unwrap_or(false) || bool_of(other).unwrap_or(false),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::number::Number;

    #[test]
    fn ordering_and_logic() {
        let n = |s: &str| Value::Number(Number::parse(s).unwrap());
        let f = |x: f64| Value::Number(Number::from_f64(x).unwrap());
        let unk = Value::Unknown(Type::Number);
        assert_eq!(n("1").less_than(&n("2")).unwrap().as_bool(), Some(true));
        assert_eq!(n("2").greater_than(&n("2")).unwrap().as_bool(), Some(false));
        assert_eq!(
            n("2").greater_than_or_equal(&n("2")).unwrap().as_bool(),
            Some(true)
        );
        assert!(!n("1").less_than(&unk).unwrap().is_known());
        assert!(!n("1")
            .less_than(&Value::dynamic_unknown())
            .unwrap()
            .is_known());
        assert!(n("1").less_than(&Value::string("2")).is_err());
        // float64 0.1 is above 512-bit 0.1 but prints the same, so cty's
        // `<=` (less-than or text-equal) holds both ways.
        assert_eq!(
            f(0.1).greater_than(&n("0.1")).unwrap().as_bool(),
            Some(true)
        );
        assert_eq!(
            f(0.1).less_than_or_equal(&n("0.1")).unwrap().as_bool(),
            Some(true)
        );
        let t = Value::Bool(true);
        let ub = Value::Unknown(Type::Bool);
        assert!(!Value::Bool(false).and(&ub).unwrap().is_known());
        assert!(!t.or(&ub).unwrap().is_known());
        assert_eq!(t.not().unwrap().as_bool(), Some(false));
        assert_eq!(t.and(&Value::Bool(false)).unwrap().as_bool(), Some(false));
    }
}
