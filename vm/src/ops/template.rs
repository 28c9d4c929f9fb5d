//! String templates: the conversion of each interpolated value to text
//! (hcl `TemplateExpr`) and the join of a `%{for}` directive's results
//! (hcl `TemplateJoinExpr`).
//!
//! A template that is a single interpolation (`"${x}"`) is not converted
//! at all: its value is `x` itself (hcl `TemplateWrapExpr`), which the
//! compiler handles without calling anything here.

use super::{Blame, OpDiag, OpError, OpResult};
use runtime::convert::convert;
use runtime::number::push_i64;
use runtime::value::Str;
use runtime::{Type, Value};

const INVALID_INTERPOLATION: &str = "Invalid template interpolation value";

/// What one interpolated value contributes to a template's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TemplatePart {
    Text(Str),
    /// The value is unknown (of any type, even one that could never be
    /// converted): the whole template's result is an unknown string, but
    /// the remaining parts are still evaluated for their diagnostics.
    Unknown,
}

/// Converts one interpolated value of a template with several parts. On
/// error the part contributes nothing and the template goes on (its result
/// is then whatever text the other parts make, with the diagnostics).
/// Blame: `Operand(0)` is the interpolated expression; context the
/// template. The caller concatenates the texts of all parts (literal parts
/// included) and makes the result with `Value::from_string`, which
/// NFC-normalizes it as `cty.StringVal` does: the join of two normalized
/// pieces need not be normalized (`"e${"\u0301"}"` is `"é"`).
pub fn template_part(v: &Value) -> Result<TemplatePart, OpDiag> {
    if let Value::String(s) = v {
        return Ok(TemplatePart::Text(s.clone()));
    }
    let mut text = String::new();
    if push_template_part(v, &mut text)? {
        Ok(TemplatePart::Text(Str::from_string(text)))
    } else {
        Ok(TemplatePart::Unknown)
    }
}

/// [`template_part`] appending the text to `out` (what an evaluator
/// streaming a template into one buffer wants). `Ok(false)`: the value is
/// unknown and nothing was appended.
#[inline]
pub fn push_template_part(v: &Value, out: &mut String) -> Result<bool, OpDiag> {
    // Strings, the common case, inline at the call site; the rest is not.
    if let Value::String(s) = v {
        out.push_str(s.as_str());
        return Ok(true);
    }
    push_non_string_part(v, out)
}

fn push_non_string_part(v: &Value, out: &mut String) -> Result<bool, OpDiag> {
    match v {
        Value::Null(_) => {
            return Err(OpDiag::new(
                INVALID_INTERPOLATION,
                "The expression result is null. Cannot include a null value in a string template.",
                Blame::Operand(0),
            )
            .in_expr())
        }
        Value::Unknown(_) => return Ok(false),
        // Integers print as their decimal digits, the text the conversion
        // to string gives, without allocating a string first.
        Value::Number(n) if !n.is_neg_zero() => {
            if let Some(i) = n.to_i64() {
                push_i64(out, i);
                return Ok(true);
            }
        }
        // The bool-to-string conversion's texts.
        Value::Bool(b) => {
            out.push_str(if *b { "true" } else { "false" });
            return Ok(true);
        }
        _ => {}
    }
    match convert(v, &Type::String) {
        Ok(Value::String(s)) => {
            out.push_str(s.as_str());
            Ok(true)
        }
        // Conversion of a known value to string yields a known string.
        Ok(_) => Ok(false),
        Err(e) => {
            Err(OpDiag::new(INVALID_INTERPOLATION, format!("Cannot include the given value in a string template: {e}."), Blame::Operand(0))
                .in_expr())
        }
    }
}

/// Joins the tuple a template's `%{for}` directive produced (each element
/// is one iteration's text). A dynamic-typed or unknown element makes the
/// result an unknown string at once; null and unconvertible elements are
/// errors that skip the element (blamed on `Expr`, the directive, without
/// context). After errors the fallback is the text joined from the rest.
pub fn template_join(tuple: &Value) -> OpResult {
    // (A `for` never makes a null tuple; treated as unknown all the same.)
    if !tuple.is_known() || tuple.is_null() || tuple.ty().is_dynamic() {
        return Ok(Value::unknown(Type::String));
    }
    let mut out = String::new();
    let mut diags = Vec::new();
    for v in tuple.elements_slice() {
        if v.is_null() {
            diags.push(OpDiag::new(
                INVALID_INTERPOLATION,
                "An iteration result is null. Cannot include a null value in a string template.",
                Blame::Expr,
            ));
            continue;
        }
        if v.ty().is_dynamic() {
            return finish(Value::unknown(Type::String), diags);
        }
        match convert(v, &Type::String) {
            Err(e) => diags.push(OpDiag::new(
                INVALID_INTERPOLATION,
                format!("Cannot include one of the interpolation results into the string template: {e}."),
                Blame::Expr,
            )),
            Ok(Value::String(s)) => out.push_str(&s),
            Ok(_) => return finish(Value::unknown(Type::String), diags),
        }
    }
    finish(Value::from_string(out), diags)
}

fn finish(v: Value, diags: Vec<OpDiag>) -> OpResult {
    if diags.is_empty() {
        Ok(v)
    } else {
        Err(Box::new(OpError { diags, fallback: v }))
    }
}
