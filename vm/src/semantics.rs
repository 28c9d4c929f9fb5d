//! Operator semantics as `hclsyntax` applies cty's operator functions:
//! operand conversion to the parameter type, the function calling
//! convention (null rejected, unknown short-circuits), then the operation.

use crate::program::{BinOp, BinaryNode, UnOp, UnaryNode};
use runtime::convert::convert;
use runtime::{Diagnostic, Type, Value};

fn param_type(op: BinOp) -> Type {
    match op {
        BinOp::Or | BinOp::And => Type::Bool,
        BinOp::Equal | BinOp::NotEqual => Type::Dynamic,
        _ => Type::Number,
    }
}

fn result_type(op: BinOp) -> Type {
    match op {
        BinOp::Add | BinOp::Subtract | BinOp::Multiply | BinOp::Divide | BinOp::Modulo => Type::Number,
        _ => Type::Bool,
    }
}

fn operation_failed(detail: impl std::fmt::Display, node_span: runtime::Span) -> Diagnostic {
    Diagnostic::error("Operation failed", format!("Error during operation: {detail}."), Some(node_span))
}

/// Applies a binary operator to evaluated operands. `had_errors`: the
/// operands' evaluation reported errors (the result is then unknown).
pub fn binary(b: &BinaryNode, l: Value, r: Value, had_errors: bool, diags: &mut Vec<Diagnostic>) -> Value {
    let pty = param_type(b.op);
    let rty = result_type(b.op);
    let mut failed = had_errors;
    let l = match convert_operand(&l, &pty) {
        Ok(v) => v,
        Err(e) => {
            diags.push(Diagnostic::error("Invalid operand", format!("Unsuitable value for left operand: {e}."), Some(b.lhs_span)));
            failed = true;
            l
        }
    };
    let r = match convert_operand(&r, &pty) {
        Ok(v) => v,
        Err(e) => {
            diags.push(Diagnostic::error("Invalid operand", format!("Unsuitable value for right operand: {e}."), Some(b.rhs_span)));
            failed = true;
            r
        }
    };
    if failed {
        return Value::unknown(rty);
    }
    match apply_binary(b.op, &l, &r) {
        Ok(v) => v,
        Err(msg) => {
            diags.push(operation_failed(msg, b.span));
            Value::unknown(rty)
        }
    }
}

fn convert_operand(v: &Value, ty: &Type) -> Result<Value, runtime::ConvError> {
    if ty.is_dynamic() || v.ty() == *ty {
        return Ok(v.clone());
    }
    convert(v, ty)
}

/// The operator function's call: arguments already have the parameter type.
pub fn apply_binary(op: BinOp, l: &Value, r: &Value) -> Result<Value, String> {
    match op {
        BinOp::Equal => return Ok(l.equals(r)),
        BinOp::NotEqual => {
            let eq = l.equals(r);
            return Ok(match eq.as_bool() {
                Some(b) => Value::bool(!b),
                None => eq,
            });
        }
        _ => {}
    }
    if l.is_null() || r.is_null() {
        return Err("argument must not be null".into());
    }
    let rty = result_type(op);
    if !l.is_known() || !r.is_known() {
        return Ok(Value::unknown(rty));
    }
    let res = match op {
        BinOp::Or => l.or(r).map_err(|e| e.0)?,
        BinOp::And => l.and(r).map_err(|e| e.0)?,
        BinOp::LessThan => l.less_than(r).map_err(|e| e.0)?,
        BinOp::LessThanOrEqual => l.less_than_or_equal(r).map_err(|e| e.0)?,
        BinOp::GreaterThan => l.greater_than(r).map_err(|e| e.0)?,
        BinOp::GreaterThanOrEqual => l.greater_than_or_equal(r).map_err(|e| e.0)?,
        BinOp::Add | BinOp::Subtract | BinOp::Multiply | BinOp::Divide | BinOp::Modulo => {
            let (Some(x), Some(y)) = (l.as_number(), r.as_number()) else {
                return Ok(Value::unknown(Type::Number));
            };
            let n = match op {
                BinOp::Add => x.add(y),
                BinOp::Subtract => x.sub(y),
                BinOp::Multiply => x.mul(y),
                BinOp::Divide => x.div(y),
                _ => x.rem(y),
            };
            Value::number(n.map_err(|e| e.to_string())?)
        }
        BinOp::Equal | BinOp::NotEqual => unreachable_equal(),
    };
    Ok(res)
}

#[cold]
fn unreachable_equal() -> Value {
    // Handled before the null check above.
    Value::unknown(Type::Bool)
}

/// Applies a unary operator to an evaluated operand.
pub fn unary(u: &UnaryNode, v: Value, had_errors: bool, diags: &mut Vec<Diagnostic>) -> Value {
    let (pty, rty) = match u.op {
        UnOp::Negate => (Type::Number, Type::Number),
        UnOp::Not => (Type::Bool, Type::Bool),
    };
    let mut failed = had_errors;
    let v = match convert_operand(&v, &pty) {
        Ok(v) => v,
        Err(e) => {
            diags.push(Diagnostic::error("Invalid operand", format!("Unsuitable value for unary operand: {e}."), Some(u.operand_span)));
            failed = true;
            v
        }
    };
    if failed {
        return Value::unknown(rty);
    }
    match apply_unary(u.op, &v) {
        Ok(v) => v,
        Err(msg) => {
            diags.push(operation_failed(msg, u.span));
            Value::unknown(rty)
        }
    }
}

pub fn apply_unary(op: UnOp, v: &Value) -> Result<Value, String> {
    if v.is_null() {
        return Err("argument must not be null".into());
    }
    if !v.is_known() {
        return Ok(Value::unknown(match op {
            UnOp::Negate => Type::Number,
            UnOp::Not => Type::Bool,
        }));
    }
    match op {
        UnOp::Not => v.not().map_err(|e| e.0),
        UnOp::Negate => match v.as_number() {
            Some(n) => Ok(Value::number(n.neg())),
            None => Ok(Value::unknown(Type::Number)),
        },
    }
}

/// Why two conditional result types do not unify, in the reference's words.
pub fn describe_mismatch(t: &Type, f: &Type) -> String {
    describe(t, f, 0)
}

fn describe(t: &Type, f: &Type, depth: u32) -> String {
    if depth < 64 {
        if let (Some(to), Some(fo)) = (t.object_type(), f.object_type()) {
            for (name, aty) in to.iter() {
                match fo.attr_type(name) {
                    None => {
                        return format!(
                            "The 'true' value includes object attribute {}, which is absent in the 'false' value",
                            runtime::strings::go_quote(name)
                        )
                    }
                    Some(faty) if faty != aty => {
                        return format!(
                            "Type mismatch for object attribute {}: {}",
                            runtime::strings::go_quote(name),
                            describe(aty, faty, depth + 1)
                        )
                    }
                    _ => {}
                }
            }
            for (name, _) in fo.iter() {
                if to.attr_type(name).is_none() {
                    return format!(
                        "The 'false' value includes object attribute {}, which is absent in the 'true' value",
                        runtime::strings::go_quote(name)
                    );
                }
            }
        } else if let (Some(tt), Some(ft)) = (t.tuple_type(), f.tuple_type()) {
            if tt.len() != ft.len() {
                return format!("The 'true' tuple has length {}, but the 'false' tuple has length {}", tt.len(), ft.len());
            }
            for (i, (a, b)) in tt.elems().iter().zip(ft.elems()).enumerate() {
                if a != b {
                    return format!("Type mismatch for tuple element {i}: {}", describe(a, b, depth + 1));
                }
            }
        } else if t.is_collection() && f.is_collection() {
            let same_kind = (t.is_list() && f.is_list()) || (t.is_map() && f.is_map()) || (t.is_set() && f.is_set());
            if let (true, Some(te), Some(fe)) = (same_kind, t.element_type(), f.element_type()) {
                if (te.is_object() && fe.is_object()) || (te.is_tuple() && fe.is_tuple()) {
                    let noun = if t.is_list() {
                        "list"
                    } else if t.is_set() {
                        "set"
                    } else {
                        "map"
                    };
                    return format!("Mismatched {noun} element types: {}", describe(te, fe, depth + 1));
                }
            }
        }
    }
    let (tn, fnm) = (t.friendly_name(), f.friendly_name());
    if tn == fnm {
        return "At least one deeply-nested attribute or element is not compatible across both the 'true' and the 'false' value".into();
    }
    format!("The 'true' value is {tn}, but the 'false' value is {fnm}")
}
