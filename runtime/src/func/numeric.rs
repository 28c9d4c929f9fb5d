//! abs ceil floor log pow signum parseint min max

use super::{go_f64, go_int, gomath, CallCtx, FnError};
use crate::number::Number;
use crate::types::Type;
use crate::value::Value;
use dashu::integer::{IBig, UBig};
use std::cmp::Ordering;

fn num(v: &Value) -> Result<&Number, FnError> {
    v.as_number().ok_or_else(|| FnError::new("a number is required"))
}

pub fn abs(args: &[Value], _: &Type, _: &mut CallCtx) -> Result<Value, FnError> {
    Ok(Value::Number(num(&args[0])?.abs()))
}

pub fn ceil(args: &[Value], _: &Type, _: &mut CallCtx) -> Result<Value, FnError> {
    Ok(Value::Number(num(&args[0])?.ceil()))
}

pub fn floor(args: &[Value], _: &Type, _: &mut CallCtx) -> Result<Value, FnError> {
    Ok(Value::Number(num(&args[0])?.floor()))
}

/// cty.NumberFloatVal: Go panics on NaN inside the implementation.
fn float_result(f: f64) -> Result<Value, FnError> {
    Number::from_f64(f).map(Value::Number).ok_or_else(|| FnError::new("panic in function implementation: Float.SetFloat64(NaN)"))
}

pub fn log(args: &[Value], _: &Type, _: &mut CallCtx) -> Result<Value, FnError> {
    let x = go_f64(&args[0]).map_err(FnError::new)?;
    let base = go_f64(&args[1]).map_err(FnError::new)?;
    float_result(gomath::log(x) / gomath::log(base))
}

pub fn pow(args: &[Value], _: &Type, _: &mut CallCtx) -> Result<Value, FnError> {
    let x = go_f64(&args[0]).map_err(FnError::new)?;
    let y = go_f64(&args[1]).map_err(FnError::new)?;
    float_result(gomath::pow(x, y))
}

pub fn signum(args: &[Value], _: &Type, _: &mut CallCtx) -> Result<Value, FnError> {
    let n = go_int(&args[0]).map_err(FnError::new)?;
    Ok(Value::int(n.signum()))
}

pub fn parseint_type(args: &[Value]) -> Result<Type, FnError> {
    let t = args[0].ty();
    if t != Type::String {
        return Err(FnError::arg(0, format!("first argument must be a string, not {}", t.friendly_name())));
    }
    Ok(Type::Number)
}

/// Digit value as Go's `big.Int.SetString` reads it: for bases up to 36
/// letters are case-insensitive, above that lower case comes first.
fn digit_value(c: u8, base: u32) -> Option<u32> {
    let d = match c {
        b'0'..=b'9' => (c - b'0') as u32,
        b'a'..=b'z' => (c - b'a') as u32 + 10,
        b'A'..=b'Z' if base <= 36 => (c - b'A') as u32 + 10,
        b'A'..=b'Z' => (c - b'A') as u32 + 36,
        _ => return None,
    };
    (d < base).then_some(d)
}

fn parse_big_int(s: &str, base: u32) -> Option<IBig> {
    let (neg, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() {
        return None;
    }
    let values: Vec<u8> = digits.bytes().map(|c| digit_value(c, base).map(|d| d as u8)).collect::<Option<_>>()?;
    let acc = digits_value(&values, base);
    let v = IBig::from(acc);
    Some(if neg { -v } else { v })
}

/// The value of `digits` (digit values, most significant first) in `base`:
/// halves joined by one multiplication each, so that a long string costs
/// a few large multiplications instead of one per machine word (which
/// took 18 s for four million digits).
fn digits_value(digits: &[u8], base: u32) -> UBig {
    // Ten digits of base 62 or less fit in a u64.
    if digits.len() <= 10 {
        return UBig::from(digits.iter().fold(0u64, |acc, &d| acc * u64::from(base) + u64::from(d)));
    }
    let (high, low) = digits.split_at(digits.len() / 2);
    digits_value(high, base) * UBig::from(base).pow(low.len()) + digits_value(low, base)
}

pub fn parseint(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let s = args[0].as_str().ok_or_else(|| FnError::arg(0, "a string is required"))?;
    ctx.scan(s);
    let base = go_int(&args[1]).map_err(|e| FnError::arg(1, e))?;
    if !(2..=62).contains(&base) {
        return Err(FnError::arg(1, "base must be a whole number between 2 and 62 inclusive"));
    }
    ctx.charge(s.len() as u64)?;
    match parse_big_int(s, base as u32) {
        Some(v) => Ok(Value::Number(Number::from_ibig(&v))),
        None => Err(FnError::arg(0, format!("cannot parse {} as a base {} integer", crate::strings::go_quote(s), base))),
    }
}

fn extreme(args: &[Value], want: Ordering) -> Result<Value, FnError> {
    if args.is_empty() {
        return Err(FnError::new("must pass at least one number"));
    }
    let mut best: Option<&Number> = None;
    for a in args {
        let n = num(a)?;
        let better = match best {
            // The running value starts at the opposite infinity, which
            // every finite number beats.
            None => n.cmp(&if want == Ordering::Less { Number::pos_inf() } else { Number::neg_inf() }) == want,
            Some(b) => n.cmp(b) == want,
        };
        if better {
            best = Some(n);
        }
    }
    Ok(Value::Number(best.cloned().unwrap_or_else(|| if want == Ordering::Less { Number::pos_inf() } else { Number::neg_inf() })))
}

pub fn min(args: &[Value], _: &Type, _: &mut CallCtx) -> Result<Value, FnError> {
    extreme(args, Ordering::Less)
}

pub fn max(args: &[Value], _: &Type, _: &mut CallCtx) -> Result<Value, FnError> {
    extreme(args, Ordering::Greater)
}
