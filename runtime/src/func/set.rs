//! setunion setintersection setsubtract setsymmetricdifference

use super::{CallCtx, FnError, ELEMENT_COST};
use crate::convert::convert;
use crate::types::Type;
use crate::unify::unify_unsafe;
use crate::value::{SetIndex, Value};

pub fn set_op_type(args: &[Value]) -> Result<Type, FnError> {
    let mut etys = Vec::with_capacity(args.len());
    for a in args {
        let ety = a.ty().element_type().cloned().unwrap_or(Type::Dynamic);
        if a.is_known() && a.elements_slice().is_empty() && ety.is_dynamic() {
            continue;
        }
        etys.push(ety);
    }
    if etys.is_empty() {
        return Ok(Type::set(Type::Dynamic));
    }
    match unify_unsafe(&etys) {
        Some((t, _)) => Ok(Type::set(t)),
        None => Err(FnError::new("given sets must all have compatible element types")),
    }
}

#[derive(Clone, Copy)]
enum SetOp {
    Union,
    Intersection,
    Subtract,
    SymmetricDifference,
}

fn set_op(args: &[Value], ret: &Type, ctx: &mut CallCtx, op: SetOp) -> Result<Value, FnError> {
    let allow_unknowns = matches!(op, SetOp::Union);
    // cty keeps each converted set's own element type (its "rules"): a
    // conversion to a set of dynamic leaves the elements as they are. The
    // result takes the first set's rules, and combining sets whose rules
    // differ is a panic in cty's set package.
    let mut ety = ret.element_type().cloned().unwrap_or(Type::Dynamic);
    let mut acc: Option<Vec<Value>> = None;
    for (i, a) in args.iter().enumerate() {
        let s = convert(a, ret).map_err(|e| FnError::arg(i, e.to_string()))?;
        if !allow_unknowns && !s.is_wholly_known() {
            return Ok(Value::unknown(ret.clone()));
        }
        let Value::Set(sv) = &s else {
            return Ok(Value::unknown(ret.clone()));
        };
        ctx.charge(sv.elems().len() as u64 * ELEMENT_COST)?;
        ctx.work(sv.elems().len() as u64);
        let rules = s.ty().element_type().cloned().unwrap_or(Type::Dynamic);
        if acc.is_none() {
            ety = rules;
        } else if rules != ety {
            return Err(FnError::new(format!(
                "panic in function implementation: incompatible set rules: cty.setRules{{Type:{}}}, cty.setRules{{Type:{}}}",
                ety.go_syntax(),
                rules.go_syntax()
            )));
        }
        acc = Some(match acc.take() {
            None => sv.elems().to_vec(),
            Some(cur) => match op {
                // Duplicates go when the result set is made, once: making a
                // set of what was gathered at every step was quadratic
                // (a union of 1,000 sets of 1,000 numbers took 13 s).
                SetOp::Union => {
                    let mut out = cur;
                    out.extend(sv.elems().iter().cloned());
                    out
                }
                SetOp::Intersection => {
                    let index = SetIndex::new(sv.elems());
                    cur.into_iter().filter(|v| index.contains(v)).collect()
                }
                SetOp::Subtract => {
                    let index = SetIndex::new(sv.elems());
                    cur.into_iter().filter(|v| !index.contains(v)).collect()
                }
                SetOp::SymmetricDifference => {
                    // `cur` has no duplicates here: each step filters sets.
                    let cur_set = Value::set_of(ety.clone(), cur.clone())
                        .map_err(|e| FnError::new(format!("panic in function implementation: {e}")))?;
                    let in_cur = SetIndex::new(cur_set.as_set().map_or(&[][..], |c| c.elems()));
                    let in_sv = SetIndex::new(sv.elems());
                    let mut out: Vec<Value> = cur.iter().filter(|v| !in_sv.contains(v)).cloned().collect();
                    out.extend(sv.elems().iter().filter(|v| !in_cur.contains(v)).cloned());
                    out
                }
            },
        });
    }
    Value::set_of(ety, acc.unwrap_or_default()).map_err(|e| FnError::new(format!("panic in function implementation: {e}")))
}

pub fn setunion(args: &[Value], ret: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    set_op(args, ret, ctx, SetOp::Union)
}
pub fn setintersection(args: &[Value], ret: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    set_op(args, ret, ctx, SetOp::Intersection)
}
pub fn setsubtract(args: &[Value], ret: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    set_op(args, ret, ctx, SetOp::Subtract)
}
pub fn setsymmetricdifference(args: &[Value], ret: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    set_op(args, ret, ctx, SetOp::SymmetricDifference)
}
