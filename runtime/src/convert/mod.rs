//! Type conversion, as cty's `convert` package.
//!
//! A conversion is planned once from an input type and an output type
//! ([`get_conversion`] / [`get_conversion_unsafe`]) and then applied to
//! values of the input type ([`Conversion::apply`]). "Safe" conversions
//! never fail on a known value of the input type (number/bool → string,
//! tuple → list, object → map, ...); "unsafe" ones may (string → number,
//! string → bool, list → set, map → object, from dynamic). [`convert`] is
//! cty's `Convert`: unsafe conversion of one value with cty's error text.

mod mismatch;
mod plan;

pub use mismatch::mismatch_message;
pub(crate) use plan::with_plan_memo;
pub use plan::{dynamic_replace, Conversion};

use crate::types::Type;
use crate::value::Value;
use std::fmt;
use std::sync::Arc;

/// One step of a path into a value, for error locations.
#[derive(Clone, Debug)]
pub enum PathStep {
    /// `.name`
    Attr(Arc<str>),
    /// `[key]`: a number (list, tuple, set position) or string (map key).
    Index(Value),
}

/// A conversion failure: cty's error message and where in the value it
/// happened. `Display` is the message alone, as HCL shows it.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ConvError {
    pub path: Vec<PathStep>,
    pub message: String,
}

impl ConvError {
    pub(crate) fn new(path: &[PathStep], message: impl Into<String>) -> ConvError {
        ConvError { path: path.to_vec(), message: message.into() }
    }

    /// The path in cty notation, e.g. `.foo[0]["k"]` (empty at the root).
    pub fn path_string(&self) -> String {
        self.path_text(|s, k| match k {
            Value::String(k) => crate::strings::write_json_string(s, k),
            Value::Number(n) => s.push_str(&n.to_string()),
            _ => s.push('?'),
        })
    }

    /// The path with each index written by `index` inside its brackets.
    fn path_text(&self, index: impl Fn(&mut String, &Value)) -> String {
        let mut s = String::new();
        for step in &self.path {
            match step {
                PathStep::Attr(n) => {
                    s.push('.');
                    s.push_str(n);
                }
                PathStep::Index(k) => {
                    s.push('[');
                    index(&mut s, k);
                    s.push(']');
                }
            }
        }
        s
    }

    /// The message prefixed with the path (`.foo[0]: a number is required`),
    /// or the message alone at the root.
    pub fn with_path(&self) -> String {
        let p = self.path_string();
        if p.is_empty() {
            self.message.clone()
        } else {
            format!("{p}: {}", self.message)
        }
    }
}

impl ConvError {
    /// The error as Terraform's `tfdiags.FormatError` writes a cty path
    /// error: the path as its `FormatCtyPath` writes it (`.tags["env"]`,
    /// `[0]`; string keys quoted as Go's `%q`, numbers as `%g`), a colon
    /// and the message; the message alone at the root.
    pub fn format_with_path(&self) -> String {
        if self.path.is_empty() {
            return self.message.clone();
        }
        let mut s = self.path_text(|s, k| match k {
            Value::Null(_) => s.push_str("null"),
            Value::Unknown(_) => s.push_str("(not yet known)"),
            Value::Number(n) => s.push_str(&n.to_text_general().unwrap_or_else(|_| "...".to_string())),
            Value::String(k) => s.push_str(&crate::strings::go_quote(k)),
            _ => s.push_str("..."),
        });
        s.push_str(": ");
        s.push_str(&self.message);
        s
    }
}

impl fmt::Display for ConvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ConvError {}

/// cty `GetConversion`: a safe conversion from `from` to `to`, if any.
pub fn get_conversion(from: &Type, to: &Type) -> Option<Conversion> {
    plan::get_conversion(from, to, false).map(Conversion::from_plan)
}

/// cty `GetConversionUnsafe`: a conversion that may fail for some values.
pub fn get_conversion_unsafe(from: &Type, to: &Type) -> Option<Conversion> {
    plan::get_conversion(from, to, true).map(Conversion::from_plan)
}

/// Whether [`convert`] gives `v` itself: `v` already has type `want`,
/// `want` is the dynamic pseudo-type, or `v` is a known list, set or map
/// of primitives and `want` the same collection of the dynamic
/// pseudo-type (cty keeps the element type then; only a null or unknown
/// collection would take `want`'s type).
#[inline]
pub fn converts_to_itself(v: &Value, want: &Type) -> bool {
    // The common argument: a known primitive of its parameter's type
    // (what `has_type` would find, without its walk of `want`).
    match (want, v) {
        (Type::Dynamic, _) | (Type::String, Value::String(_)) | (Type::Number, Value::Number(_)) | (Type::Bool, Value::Bool(_)) => true,
        _ => converts_to_itself_by_type(v, want),
    }
}

/// [`converts_to_itself`] from the types alone (its definition; the
/// primitive cases before it are a shortcut of this). Out of line: the
/// shortcut is what callers inline.
#[inline(never)]
pub(crate) fn converts_to_itself_by_type(v: &Value, want: &Type) -> bool {
    if want.is_dynamic() {
        return true;
    }
    if v.has_type(want) {
        // cty compares with `want` less its optional attributes: a value
        // of a type that has them (an unknown of a declared type) loses
        // them.
        return !want.has_optional_attributes();
    }
    let primitive = |e: &Type| matches!(e, Type::String | Type::Number | Type::Bool);
    match (v, want) {
        (Value::List(_), Type::List(w)) | (Value::Set(_), Type::Set(w)) | (Value::Map(_), Type::Map(w)) if w.is_dynamic() => match v.ty() {
            Type::List(e) | Type::Set(e) | Type::Map(e) => primitive(&e),
            _ => false,
        },
        _ => false,
    }
}

/// cty `Convert`: converts `v` to type `want` (unsafe conversions allowed);
/// when no conversion exists the error is cty's `MismatchMessage`.
pub fn convert(v: &Value, want: &Type) -> Result<Value, ConvError> {
    if converts_to_itself(v, want) {
        return Ok(v.clone());
    }
    convert_changed(v, want)
}

/// [`convert`] for a value the caller knows does not convert to itself
/// ([`converts_to_itself`] is false), without checking that again.
pub fn convert_changed(v: &Value, want: &Type) -> Result<Value, ConvError> {
    if want.has_optional_attributes() {
        // A type constraint's: `Convert` is the planned conversion then
        // (cty returns the value itself when its type equals `want` less
        // its optional attributes).
        if v.has_type(&want.without_optional_attributes()) {
            return Ok(v.clone());
        }
        let from = v.ty();
        return match plan::get_conversion(&from, want, true) {
            Some(p) => p.apply(v, &mut Vec::new()),
            None => Err(ConvError::new(&[], mismatch_message(&from, want))),
        };
    }
    // An unknown or null of dynamic type (an iterator during a `for`
    // condition's pre-check, a short-circuited call): an unsafe conversion
    // from dynamic always exists and keeps unknown/null, typed `want`.
    match v {
        Value::Unknown(u) if u.ty().is_dynamic() => return Ok(Value::unknown(want.clone())),
        Value::Null(Type::Dynamic) => return Ok(Value::Null(want.clone())),
        _ => {}
    }
    // A known tuple whose element types all equal the list's element type
    // (e.g. a `for` result passed to `join`): the plan would convert no
    // element, so build the list directly without planning.
    if let (Value::Tuple(t), Type::List(ety)) = (v, want) {
        if !ety.is_dynamic() && t.tuple_type().elems().iter().all(|e| e == &**ety) {
            let elems = t.elems();
            return Ok(if elems.is_empty() {
                Value::list_empty((**ety).clone())
            } else {
                Value::list_unchecked((**ety).clone(), elems.to_vec())
            });
        }
    }
    let from = v.ty();
    match plan::get_conversion(&from, want, true) {
        Some(p) => p.apply(v, &mut Vec::new()),
        None => Err(ConvError::new(&[], mismatch_message(&from, want))),
    }
}

/// The error cty gives for a string that is not "true"/"false"/"1"/"0"
/// when converting it to bool.
pub(crate) fn string_to_bool_error(s: &str) -> &'static str {
    match s.to_lowercase().as_str() {
        "true" => "a bool is required; to convert from string, use lowercase \"true\"",
        "false" => "a bool is required; to convert from string, use lowercase \"false\"",
        _ => "a bool is required",
    }
}

/// cty's `prepareUnknownResult`: the unknown result of converting the
/// unknown `source` to `target`, with what the source's facts and type say
/// about it (not null; a collection's length, from a tuple's or object's
/// type or from the source's own length bounds).
pub(crate) fn prepare_unknown_result(source: &Value, target: Type) -> Value {
    let source_ty = source.ty();
    let mut b = Value::unknown(target.clone()).refine();
    if source.definitely_not_null() {
        b.not_null();
    }
    match (&source_ty, &target) {
        (Type::Object(ot), Type::Map(_)) => {
            b.collection_length(ot.len() as u64);
        }
        (Type::Tuple(tt), Type::List(_)) => {
            b.collection_length(tt.len() as u64);
        }
        (Type::Tuple(tt), Type::Set(_)) => match tt.len() as u64 {
            n @ (0 | 1) => {
                b.collection_length(n);
            }
            n => {
                b.collection_length_lower_bound(1).collection_length_upper_bound(n);
            }
        },
        (Type::List(_) | Type::Set(_) | Type::Map(_), Type::List(_) | Type::Set(_) | Type::Map(_)) => {
            let (lo, hi) = source.length_bounds();
            if target.is_set() {
                if lo > 0 {
                    b.collection_length_lower_bound(1);
                }
            } else {
                b.collection_length_lower_bound(lo);
            }
            b.collection_length_upper_bound(hi);
        }
        _ => {}
    }
    b.into_value()
}

#[cfg(test)]
mod fast_path_tests {
    use super::*;

    /// `convert` (with its shortcuts) against applying the planned conversion.
    fn check(v: Value, want: Type) {
        let planned = plan::get_conversion(&v.ty(), &want, true).map(|p| p.apply(&v, &mut Vec::new()));
        let got = convert(&v, &want);
        match (got, planned) {
            (Ok(g), Some(Ok(p))) => {
                assert_eq!(g.ty(), p.ty(), "{v:?} -> {want:?}");
                assert_eq!(format!("{g:?}"), format!("{p:?}"), "{v:?} -> {want:?}");
            }
            (Err(g), Some(Err(p))) => assert_eq!(g.message, p.message),
            (g, p) => panic!("{v:?} -> {want:?}: {g:?} vs {p:?}"),
        }
    }

    #[test]
    fn shortcuts_agree_with_the_plan() {
        let wants = [
            Type::String,
            Type::Bool,
            Type::list(Type::Number),
            Type::object([("a", Type::String)]),
            Type::tuple(vec![Type::String, Type::Dynamic]),
            Type::map(Type::Dynamic),
        ];
        for want in &wants {
            check(Value::dynamic_unknown(), want.clone());
            check(Value::null(Type::Dynamic), want.clone());
        }
        let s = |x: &str| Value::string(x);
        check(Value::tuple(vec![s("a"), s("b")]), Type::list(Type::String));
        check(Value::tuple(vec![]), Type::list(Type::String));
        check(Value::tuple(vec![s("a"), Value::null(Type::String), Value::unknown(Type::String)]), Type::list(Type::String));
        check(Value::tuple(vec![s("a"), Value::int(1)]), Type::list(Type::String));
        check(Value::tuple(vec![s("a"), Value::dynamic_unknown()]), Type::list(Type::String));
        check(Value::tuple(vec![Value::int(1), Value::int(2)]), Type::list(Type::String));
    }
}
