//! index length reverse coalesce, as Packer has them: Packer's own `index`
//! and `length` (`hcl2template/function`), go-cty's `ReverseListFunc` under
//! the name `reverse`, and go-cty-funcs' `coalesce`.

use super::super::{CallCtx, FnError, ELEMENT_COST};
use crate::convert::convert;
use crate::graphemes::{graphemes, Textseg};
use crate::number::Number;
use crate::types::Type;
use crate::value::{BoundArg, Tri, Value};

/// Packer's `index(list, value)`: the index of the first element equal to
/// `value`.
pub fn index(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let list = &args[0];
    let ty = list.ty();
    if !(ty.is_list() || ty.is_tuple()) {
        return Err(FnError::new("argument must be a list or tuple"));
    }
    let elems = list.elements_slice();
    if elems.is_empty() {
        return Err(FnError::new("cannot search an empty list"));
    }
    // Each comparison is a step, as `contains` counts them.
    for (i, v) in elems.iter().enumerate() {
        match v.equals_tri(&args[1]) {
            Tri::Unknown => {
                ctx.work(i as u64 + 1);
                return Ok(Value::unknown(Type::Number));
            }
            Tri::True => {
                ctx.work(i as u64 + 1);
                return Ok(Value::int(i as i64));
            }
            Tri::False => {}
        }
    }
    ctx.work(elems.len() as u64);
    Err(FnError::new("item not found"))
}

/// Packer's `length`: strings too.
pub fn length_type(args: &[Value]) -> Result<Type, FnError> {
    let t = args[0].ty();
    let ok = matches!(t, Type::String | Type::Dynamic) || t.is_tuple() || t.is_object() || t.is_list() || t.is_map() || t.is_set();
    if ok {
        Ok(Type::Number)
    } else {
        Err(FnError::new("argument must be a string, a collection type, or a structural type"))
    }
}

pub fn length(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let v = &args[0];
    if let Value::String(s) = v {
        ctx.segment(s);
    }
    match v.ty() {
        Type::Dynamic => Ok(Value::unknown(Type::Number)),
        Type::Tuple(tt) => Ok(Value::int(tt.len() as i64)),
        Type::Object(ot) => Ok(Value::int(ot.len() as i64)),
        Type::String => Ok(strlen(v)),
        _ => Ok(v.cty_length()),
    }
}

/// go-cty's `Strlen`: grapheme clusters of a known string; for an unknown
/// one, at least those of its known prefix (with Strlen's own refinement:
/// not null, not negative).
fn strlen(v: &Value) -> Value {
    match v {
        Value::String(s) => Value::int(graphemes(s, Textseg::V13).count() as i64),
        _ => {
            let n = graphemes(v.string_prefix(), Textseg::V13).count() as i64;
            let mut b = Value::unknown(Type::Number).refine();
            b.number_lower_bound(Some(BoundArg::Value(Number::from_i64(n))), true);
            b.not_null().number_lower_bound(Some(BoundArg::Value(Number::from_i64(0))), true);
            b.into_value()
        }
    }
}

/// go-cty's `ReverseListFunc`.
pub fn reverse_type(args: &[Value]) -> Result<Type, FnError> {
    match args[0].ty() {
        Type::Tuple(tt) => Ok(Type::tuple(tt.elems().iter().rev().cloned().collect())),
        Type::List(e) | Type::Set(e) => Ok(Type::list((*e).clone())),
        t => Err(FnError::arg(0, format!("can only reverse list or tuple values, not {}", t.friendly_name()))),
    }
}

pub fn reverse(args: &[Value], ret: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let elems = args[0].elements_slice();
    ctx.charge((elems.len() as u64).saturating_mul(ELEMENT_COST))?;
    let out: Vec<Value> = elems.iter().rev().cloned().collect();
    match ret {
        Type::List(e) => Value::list_of((**e).clone(), out).map_err(|e| FnError::new(e.to_string())),
        _ => Ok(Value::tuple(out)),
    }
}

/// go-cty-funcs' `coalesce`: the first argument that is neither null nor
/// an empty string (its type step is the stdlib's `coalesce_type`).
pub fn coalesce(args: &[Value], ret: &Type, _: &mut CallCtx) -> Result<Value, FnError> {
    for a in args {
        // The type step unified the types: the conversion succeeds.
        let v = convert(a, ret).map_err(|e| FnError::new(e.to_string()))?;
        if !v.is_known() {
            return Ok(Value::unknown(ret.clone()));
        }
        if v.is_null() {
            continue;
        }
        if *ret == Type::String && v.as_str() == Some("") {
            continue;
        }
        return Ok(v);
    }
    Err(FnError::new("no non-null, non-empty-string arguments"))
}
