//! cty's ordering and boolean operations on values (`LessThan`,
//! `GreaterThan`, `LessThanOrEqualTo`, `GreaterThanOrEqualTo`, `Not`,
//! `And`, `Or`), with cty's type check: an operand of dynamic type makes
//! the result an unknown bool, an unknown operand makes it unknown, and an
//! operand of another type is an error (cty panics). Null operands are
//! errors too: HCL's operator functions reject them before getting here.

use super::{RangeBound, Value};
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

/// cty `typeCheck`: `Ok(true)` to short-circuit (an operand is unknown or
/// of dynamic type), `Ok(false)` when every operand is a known value of
/// type `required`.
fn type_check(required: &Type, values: &[&Value]) -> Result<bool, OpError> {
    let mut short = false;
    for (i, v) in values.iter().enumerate() {
        let t = v.ty();
        if t.is_dynamic() {
            short = true;
            continue;
        }
        if t != *required {
            return Err(OpError(format!("type mismatch: want {} but value {i} is {}", required.friendly_name(), t.friendly_name())));
        }
        if !v.is_known() {
            short = true;
        }
    }
    if short {
        return Ok(true);
    }
    if values.iter().any(|v| v.is_null()) {
        return Err(OpError("can't operate on a null value".to_string()));
    }
    Ok(false)
}

/// An unknown bool known not to be null: the result of a short-circuited
/// comparison or logical operation.
fn unknown_bool() -> Value {
    Value::unknown(Type::Bool).refine_not_null()
}

/// The number a bound of a number range stands for (`None`: unknown).
fn bound_value(b: RangeBound, lower: bool) -> Option<Value> {
    b.number(lower).map(Value::Number)
}

/// cty's answer for `a < b` (`less`) or `a > b` from the operands'
/// ranges when one is unknown: known when the ranges do not overlap
/// (bounds taken as exclusive), else an unknown bool.
fn order_by_ranges(a: &Value, b: &Value, less: bool) -> Value {
    let number = |v: &Value| v.ty() == Type::Number;
    if number(a) && number(b) {
        // For `<`: a's upper bound below b's lower bound is true, a's
        // lower bound above b's upper bound is false; `>` mirrors it.
        let (a_hi, b_lo) = (bound_value(a.number_upper_bound(), false), bound_value(b.number_lower_bound(), true));
        let (a_lo, b_hi) = (bound_value(a.number_lower_bound(), true), bound_value(b.number_upper_bound(), false));
        let below = |x: &Option<Value>, y: &Option<Value>| match (x, y) {
            (Some(Value::Number(x)), Some(Value::Number(y))) => x.cmp(y) == Ordering::Less,
            _ => false,
        };
        if less {
            if below(&a_hi, &b_lo) {
                return Value::Bool(true);
            }
            if below(&b_hi, &a_lo) {
                return Value::Bool(false);
            }
        } else {
            if below(&b_hi, &a_lo) {
                return Value::Bool(true);
            }
            if below(&a_hi, &b_lo) {
                return Value::Bool(false);
            }
        }
    }
    unknown_bool()
}

fn number_order(a: &Value, b: &Value, less: bool) -> Result<Value, OpError> {
    if type_check(&Type::Number, &[a, b])? {
        return Ok(order_by_ranges(a, b, less));
    }
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let want = if less { Ordering::Less } else { Ordering::Greater };
            Ok(Value::Bool(x.cmp(y) == want))
        }
        _ => Err(OpError("numbers required".to_string())),
    }
}

fn bool_of(v: &Value) -> Option<bool> {
    v.as_bool()
}

impl Value {
    /// cty `LessThan` (numbers only). With an unknown operand the answer
    /// is known when the operands' ranges decide it.
    pub fn less_than(&self, other: &Value) -> Result<Value, OpError> {
        number_order(self, other, true)
    }

    /// cty `GreaterThan` (numbers only).
    pub fn greater_than(&self, other: &Value) -> Result<Value, OpError> {
        number_order(self, other, false)
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
        if type_check(&Type::Bool, &[self])? {
            return Ok(unknown_bool());
        }
        Ok(Value::Bool(!bool_of(self).unwrap_or(false)))
    }

    /// cty `And` (bools only). With an unknown operand the result is false
    /// if the other operand is false, else unknown.
    pub fn and(&self, other: &Value) -> Result<Value, OpError> {
        if type_check(&Type::Bool, &[self, other])? {
            if bool_of(self) == Some(false) || bool_of(other) == Some(false) {
                return Ok(Value::Bool(false));
            }
            return Ok(unknown_bool());
        }
        Ok(Value::Bool(bool_of(self).unwrap_or(false) && bool_of(other).unwrap_or(false)))
    }

    /// cty `Or` (bools only). With an unknown operand the result is true if
    /// the other operand is true, else unknown.
    pub fn or(&self, other: &Value) -> Result<Value, OpError> {
        if type_check(&Type::Bool, &[self, other])? {
            if bool_of(self) == Some(true) || bool_of(other) == Some(true) {
                return Ok(Value::Bool(true));
            }
            return Ok(unknown_bool());
        }
        Ok(Value::Bool(bool_of(self).unwrap_or(false) || bool_of(other).unwrap_or(false)))
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
        let unk = Value::unknown(Type::Number);
        assert_eq!(n("1").less_than(&n("2")).unwrap().as_bool(), Some(true));
        assert_eq!(n("2").greater_than(&n("2")).unwrap().as_bool(), Some(false));
        assert_eq!(n("2").greater_than_or_equal(&n("2")).unwrap().as_bool(), Some(true));
        assert!(!n("1").less_than(&unk).unwrap().is_known());
        assert!(!n("1").less_than(&Value::dynamic_unknown()).unwrap().is_known());
        assert!(n("1").less_than(&Value::string("2")).is_err());
        // float64 0.1 is above 512-bit 0.1 but prints the same, so cty's
        // `<=` (less-than or text-equal) holds both ways.
        assert_eq!(f(0.1).greater_than(&n("0.1")).unwrap().as_bool(), Some(true));
        assert_eq!(f(0.1).less_than_or_equal(&n("0.1")).unwrap().as_bool(), Some(true));
        let t = Value::Bool(true);
        let ub = Value::unknown(Type::Bool);
        // cty 1.13: a known false decides `and`, a known true decides `or`;
        // otherwise the result is an unknown that is not null.
        assert_eq!(Value::Bool(false).and(&ub).unwrap().as_bool(), Some(false));
        assert_eq!(t.or(&ub).unwrap().as_bool(), Some(true));
        let undecided = t.and(&ub).unwrap();
        assert!(!undecided.is_known() && undecided.definitely_not_null());
        // Comparisons decide from refined bounds.
        let mut b = Value::unknown(Type::Number).refine();
        b.number_range_inclusive(Some(Number::from_i64(0)), Some(Number::from_i64(3)));
        let small = b.into_value();
        assert_eq!(small.less_than(&n("5")).unwrap().as_bool(), Some(true));
        assert_eq!(small.greater_than(&n("5")).unwrap().as_bool(), Some(false));
        assert!(!small.less_than(&n("2")).unwrap().is_known());
        assert_eq!(t.not().unwrap().as_bool(), Some(false));
        assert_eq!(t.and(&Value::Bool(false)).unwrap().as_bool(), Some(false));
    }
}
