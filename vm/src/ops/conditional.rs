//! `cond ? t : f` (hcl `ConditionalExpr`). hcl evaluates both results
//! first, unifies their types (before even looking at the condition), then
//! evaluates the condition and converts the chosen result to the unified
//! type. Diagnostics of the result not chosen are dropped, and when the
//! types don't unify, those of the condition and both results are too.

use super::{Blame, OpDiag};
use runtime::convert::{convert, Conversion};
use runtime::strings::go_quote;
use runtime::value::{BoundArg, RangeBound};
use runtime::{unify_unsafe, Type, Value};

/// Which evaluated sub-expressions' own diagnostics the conditional keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CondBranch {
    /// Types did not unify: keep none (not even the condition's).
    Nothing,
    /// Keep the condition's only (it was null, unknown or not a bool).
    Condition,
    /// Keep the condition's, then the true result's.
    True,
    /// Keep the condition's, then the false result's.
    False,
}

/// The outcome of a conditional: its value, whose diagnostics to keep, and
/// its own diagnostics (reported after the kept ones). Blame: `Operand(0)`
/// condition, `Operand(1)` true result, `Operand(2)` false result.
#[derive(Clone, Debug)]
pub struct Conditional {
    pub value: Value,
    pub keep: CondBranch,
    pub diag: Option<OpDiag>,
}

const INCONSISTENT: &str = "Inconsistent conditional result types";

/// The result type of a conditional and how to convert each result to it:
/// the first phase, decided from the two results alone (hcl unifies before
/// it evaluates the condition).
#[derive(Clone, Debug)]
pub struct CondPlan {
    pub result_type: Type,
    t_conv: Option<Conversion>,
    f_conv: Option<Conversion>,
}

/// Phase one: the plan for results `t` and `f`, or the "Inconsistent
/// conditional result types" diagnostic (blame `Between(1, 2)`; the
/// expression's value is then `DynamicVal` and no operand's own
/// diagnostics are kept).
pub fn conditional_plan(t: &Value, f: &Value) -> Result<CondPlan, OpDiag> {
    match result_type(t, f) {
        Ok((result_type, t_conv, f_conv)) => Ok(CondPlan { result_type, t_conv, f_conv }),
        Err(detail) => Err(OpDiag::new(INCONSISTENT, detail, Blame::Between(1, 2)).in_expr()),
    }
}

/// Phase two: which result a condition value selects. `Ok(None)`: the
/// condition is unknown (the conditional is unknown of the plan's type).
/// `Err`: the condition is null or not a bool (blame `Operand(0)`; the
/// conditional is then unknown too).
pub fn condition_choice(cond: &Value) -> Result<Option<bool>, OpDiag> {
    if let Value::Bool(b) = cond {
        return Ok(Some(*b));
    }
    if cond.is_null() {
        return Err(OpDiag::new(
            "Null condition",
            "The condition value is null. Conditions must either be true or false.",
            Blame::Operand(0),
        )
        .in_expr());
    }
    if !cond.is_known() {
        return Ok(None);
    }
    match convert(cond, &Type::Bool) {
        Ok(Value::Bool(b)) => Ok(Some(b)),
        // A known non-null value converts to a known non-null bool; this
        // arm only keeps the match total.
        Ok(_) => Ok(None),
        Err(_) => {
            Err(OpDiag::new("Incorrect condition type", "The condition expression must be of type bool.", Blame::Operand(0)).in_expr())
        }
    }
}

impl CondPlan {
    /// The value when the condition is unknown: null if both results are
    /// null, else an unknown of the result type with what both results
    /// have in common (not null; a number range or a collection length
    /// range covering both).
    pub fn unknown_result(&self, t: &Value, f: &Value) -> Value {
        if t.is_null() && f.is_null() {
            return Value::null(self.result_type.clone());
        }
        let both_not_null = t.definitely_not_null() && f.definitely_not_null();
        let (tt, ft) = (t.ty(), f.ty());
        if tt == Type::Number && ft == Type::Number {
            let mut b = Value::unknown(Type::Number).refine();
            if both_not_null {
                b.not_null();
            }
            let (lo, lo_inc) = wider_bound(t.number_lower_bound(), f.number_lower_bound(), true);
            b.number_lower_bound(lo, lo_inc);
            let (hi, hi_inc) = wider_bound(t.number_upper_bound(), f.number_upper_bound(), false);
            b.number_upper_bound(hi, hi_inc);
            return b.into_value();
        }
        if tt.is_collection() && ft.is_collection() && tt == ft {
            let mut b = Value::unknown(self.result_type.clone()).refine();
            if both_not_null {
                b.not_null();
            }
            let ((t_lo, t_hi), (f_lo, f_hi)) = (t.length_bounds(), f.length_bounds());
            b.collection_length_lower_bound(t_lo.min(f_lo)).collection_length_upper_bound(t_hi.max(f_hi));
            return b.into_value();
        }
        let v = Value::unknown(self.result_type.clone());
        if both_not_null {
            v.refine_not_null()
        } else {
            v
        }
    }

    /// Phase three: the chosen result (`chosen` says which one `v` is)
    /// converted to the plan's type. On failure the diagnostic blames that
    /// result and the value is the second element.
    pub fn finish(&self, chosen: bool, v: Value) -> Result<Value, (OpDiag, Value)> {
        let (conv, which, operand) = if chosen { (&self.t_conv, "true", 1) } else { (&self.f_conv, "false", 2) };
        let Some(conv) = conv else {
            return Ok(v);
        };
        conv.apply(&v).map_err(|e| {
            let d =
                OpDiag::new(INCONSISTENT, format!("The {which} result value has the wrong type: {e}."), Blame::Operand(operand)).in_expr();
            (d, Value::unknown(self.result_type.clone()))
        })
    }
}

/// Evaluates a conditional from its three evaluated operands (the three
/// phases above in one call).
pub fn conditional(cond: &Value, t: &Value, f: &Value) -> Conditional {
    // A bool condition and results of one type: nothing to unify or convert.
    if let Value::Bool(b) = cond {
        let (tt, ft) = (t.ty(), f.ty());
        if tt == ft && !tt.is_dynamic() && !tt.has_optional_attributes() {
            let (value, keep) = if *b { (t.clone(), CondBranch::True) } else { (f.clone(), CondBranch::False) };
            return Conditional { value, keep, diag: None };
        }
    }
    let plan = match conditional_plan(t, f) {
        Ok(p) => p,
        Err(d) => return Conditional { value: Value::dynamic_unknown(), keep: CondBranch::Nothing, diag: Some(d) },
    };
    let chosen = match condition_choice(cond) {
        Ok(Some(b)) => b,
        Ok(None) => return Conditional { value: plan.unknown_result(t, f), keep: CondBranch::Condition, diag: None },
        Err(d) => return Conditional { value: Value::unknown(plan.result_type), keep: CondBranch::Condition, diag: Some(d) },
    };
    let keep = if chosen { CondBranch::True } else { CondBranch::False };
    match plan.finish(chosen, if chosen { t.clone() } else { f.clone() }) {
        Ok(value) => Conditional { value, keep, diag: None },
        Err((d, value)) => Conditional { value, keep, diag: Some(d) },
    }
}

type Plan = (Type, Option<Conversion>, Option<Conversion>);

/// The conditional's result type and the conversion of each result to it,
/// or the mismatch explanation.
fn result_type(t: &Value, f: &Value) -> Result<Plan, String> {
    let (tt, ft) = (t.ty(), f.ty());
    // A literal `null` (null of dynamic type) takes the other side's type.
    if matches!(t, Value::Null(Type::Dynamic)) {
        let conv = runtime::convert::get_conversion_unsafe(&Type::Dynamic, &ft);
        return Ok((ft, conv, None));
    }
    if matches!(f, Value::Null(Type::Dynamic)) {
        let conv = runtime::convert::get_conversion_unsafe(&Type::Dynamic, &tt);
        return Ok((tt, None, conv));
    }
    if tt.is_dynamic() || ft.is_dynamic() {
        return Ok((Type::Dynamic, None, None));
    }
    if tt == ft && !tt.has_dynamic_types() && !tt.has_optional_attributes() {
        // Unifying a type with itself needs no conversions (and no
        // allocation, which keeps boolean evaluations allocation-free).
        // (cty builds a type with optional attributes anew, without them.)
        return Ok((tt, None, None));
    }
    match unify_unsafe(&[tt.clone(), ft.clone()]) {
        Some((ty, mut convs)) => {
            let f_conv = convs.pop().flatten();
            let t_conv = convs.pop().flatten();
            Ok((ty, t_conv, f_conv))
        }
        None => Err(format!("The true and false result expressions must have consistent types. {}.", describe_mismatch(&tt, &ft, 0))),
    }
}

/// Deeper than this, the mismatch description gives up on detail.
const MAX_DESCRIBE_DEPTH: usize = 64;

/// hcl's `describeConditionalTypeMismatch`: points at the first attribute
/// or element that differs, else names both types.
fn describe_mismatch(tt: &Type, ft: &Type, depth: usize) -> String {
    if depth < MAX_DESCRIBE_DEPTH {
        if let Some(s) = describe_structural(tt, ft, depth) {
            return s;
        }
    }
    let (tn, fn_) = (tt.friendly_name(), ft.friendly_name());
    if tn == fn_ {
        return "At least one deeply-nested attribute or element is not compatible across both the 'true' and the 'false' value"
            .to_string();
    }
    format!("The 'true' value is {tn}, but the 'false' value is {fn_}")
}

fn describe_structural(tt: &Type, ft: &Type, depth: usize) -> Option<String> {
    match (tt, ft) {
        (Type::Object(a), Type::Object(b)) => {
            // Names are sorted bytewise, as hcl sorts them.
            for (name, aty) in a.iter() {
                let Some(bty) = b.attr_type(name) else {
                    return Some(format!(
                        "The 'true' value includes object attribute {}, which is absent in the 'false' value",
                        go_quote(name)
                    ));
                };
                if aty != bty {
                    return Some(format!(
                        "Type mismatch for object attribute {}: {}",
                        go_quote(name),
                        describe_mismatch(aty, bty, depth + 1)
                    ));
                }
            }
            for name in b.names() {
                if a.attr_type(name).is_none() {
                    return Some(format!(
                        "The 'false' value includes object attribute {}, which is absent in the 'true' value",
                        go_quote(name)
                    ));
                }
            }
            None
        }
        (Type::Tuple(a), Type::Tuple(b)) => {
            if a.len() != b.len() {
                return Some(format!("The 'true' tuple has length {}, but the 'false' tuple has length {}", a.len(), b.len()));
            }
            a.elems()
                .iter()
                .zip(b.elems())
                .enumerate()
                .find(|(_, (x, y))| x != y)
                .map(|(i, (x, y))| format!("Type mismatch for tuple element {i}: {}", describe_mismatch(x, y, depth + 1)))
        }
        (Type::List(a), Type::List(b)) | (Type::Set(a), Type::Set(b)) | (Type::Map(a), Type::Map(b)) => {
            let structural = (a.is_object() && b.is_object()) || (a.is_tuple() && b.is_tuple());
            if !structural {
                return None;
            }
            let noun = match tt {
                Type::List(_) => "list",
                Type::Set(_) => "set",
                _ => "map",
            };
            Some(format!("Mismatched {noun} element types: {}", describe_mismatch(a, b, depth + 1)))
        }
        _ => None,
    }
}

/// hcl's choice between two results' bounds for an unknown condition: the
/// further out of the two (`lower`: the smaller), inclusive if either equal
/// one is. `None` when a bound is unknown.
fn wider_bound(t: RangeBound, f: RangeBound, lower: bool) -> (Option<BoundArg>, bool) {
    let (Some(tv), Some(fv)) = (t.number(lower), f.number(lower)) else {
        return (None, false);
    };
    let further = if lower { tv.cmp(&fv).is_lt() } else { tv.cmp(&fv).is_gt() };
    if further {
        (BoundArg::from_range(&t), t.inclusive())
    } else if tv.equals(&fv) {
        (BoundArg::from_range(&f), t.inclusive() || f.inclusive())
    } else {
        (BoundArg::from_range(&f), f.inclusive())
    }
}
