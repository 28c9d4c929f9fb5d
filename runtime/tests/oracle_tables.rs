//! Conversion, unification and equality checked against tables of the
//! reference's answers (generated once with hcl-oracle over typed
//! variables; see `data/oracle_tables.rs`).
//!
//! Each table row names input values from `VALUES` and gives the oracle's
//! outcome for an HCL expression built from them:
//! * `COND`: `C ? a : b` — `UnifyUnsafe` of the two types, then the chosen
//!   side's conversion (errors worded as HCL wraps them);
//! * `EQ`: `a == b` — cty `Equals`;
//! * `TO`: `tostring(a)` ... `tomap(a)` — cty's `MakeToFunc` over `Convert`;
//! * `PARAM`: a function whose parameter has a fixed type — `Convert` of the
//!   argument, with cty's exact error message.

use runtime::convert::{convert, get_conversion_unsafe};
use runtime::json::{value_from_json_typed, value_from_result_json, write_typed_value};
use runtime::unify::unify_unsafe;
use runtime::{Type, Value};
use std::collections::HashMap;

mod data {
    include!("data/oracle_tables.rs");
}

fn values() -> HashMap<&'static str, Value> {
    let mut m = HashMap::new();
    for (name, ty, value, unknown) in data::VALUES {
        let ty = Type::from_json(&serde_json::from_str(ty).unwrap()).unwrap();
        let v = if *unknown {
            Value::unknown(ty)
        } else {
            value_from_json_typed(&serde_json::from_str(value).unwrap(), &ty).unwrap()
        };
        m.insert(*name, v);
    }
    for (name, _src, ty, value) in data::EXPR_VALUES {
        let ty = Type::from_json(&serde_json::from_str(ty).unwrap()).unwrap();
        let v = value_from_result_json(&serde_json::from_str(value).unwrap(), &ty).unwrap();
        // The decoded value must re-encode exactly as the reference wrote it
        // (sets come out in cty order whatever order they are built in).
        let mut enc = String::new();
        runtime::json::write_value(&mut enc, &v).unwrap();
        assert_eq!(&enc, value, "{name}");
        m.insert(*name, v);
    }
    m
}

fn ok(v: &Value) -> String {
    let mut s = String::from("ok ");
    write_typed_value(&mut s, v).unwrap();
    s
}

fn check(failures: &mut Vec<String>, what: String, got: String, want: &str) {
    if got != want {
        failures.push(format!("{what}\n   got: {got}\n  want: {want}"));
    }
}

fn report(table: &str, failures: Vec<String>, total: usize) {
    if !failures.is_empty() {
        let shown: Vec<_> = failures.iter().take(25).cloned().collect();
        panic!("{table}: {} of {total} rows differ:\n{}", failures.len(), shown.join("\n"));
    }
}

#[test]
fn conditional_unify_and_convert() {
    let vals = values();
    let mut failures = Vec::new();
    for (meta, want) in data::COND {
        let (a, b, cond) = (&vals[meta[0]], &vals[meta[1]], meta[2] == "true");
        let what = format!("{} ? {} : {}", meta[2], meta[0], meta[1]);
        let got = match unify_unsafe(&[a.ty(), b.ty()]) {
            None => {
                let prefix = "err Inconsistent conditional result types: The true and false result expressions must have consistent types.";
                if want.starts_with(prefix) {
                    continue;
                }
                "err (no unification)".to_string()
            }
            Some((ty, convs)) => {
                let (side, conv, label) = if cond { (a, &convs[0], "true") } else { (b, &convs[1], "false") };
                let _ = ty;
                match conv {
                    None => ok(side),
                    Some(c) => match c.apply(side) {
                        Ok(v) => ok(&v),
                        Err(e) => format!(
                            "err Inconsistent conditional result types: The {label} result value has the wrong type: {e}."
                        ),
                    },
                }
            }
        };
        check(&mut failures, what, got, want);
    }
    report("COND", failures, data::COND.len());
}

#[test]
fn equality() {
    let vals = values();
    let mut failures = Vec::new();
    for (meta, want) in data::EQ {
        let (a, b) = (&vals[meta[0]], &vals[meta[1]]);
        check(&mut failures, format!("{} == {}", meta[0], meta[1]), ok(&a.equals(b)), want);
        // Equality is symmetric in cty for these values.
        check(&mut failures, format!("{} == {} (swapped)", meta[1], meta[0]), ok(&b.equals(a)), want);
    }
    report("EQ", failures, data::EQ.len());
}

/// cty `MakeToFunc(want)` applied to `v`, as HCL reports it.
fn to_func(v: &Value, want: &Type) -> String {
    let arg_err = |msg: String| format!("err Invalid function argument: Invalid value for \"v\" parameter: {msg}.");
    let got = v.ty();
    let cannot = || arg_err(format!("cannot convert {} to {}", got.friendly_name(), want.friendly_name_for_constraint()));
    if got != *want && get_conversion_unsafe(&got, want).is_none() {
        return cannot();
    }
    if !v.is_known() {
        // The parameter does not accept unknowns: the call's result is an
        // unknown of the declared return type.
        return ok(&Value::unknown(want.clone()));
    }
    match convert(v, want) {
        Ok(r) => ok(&r),
        Err(_) => {
            let what = match v.as_str() {
                Some(s) => format!("{s:?}"),
                None => "string".to_string(),
            };
            match (&got, want) {
                (Type::String, Type::Bool) => arg_err(format!(
                    "cannot convert {what} to bool; only the strings \"true\" or \"false\" are allowed"
                )),
                (Type::String, Type::Number) => arg_err(format!(
                    "cannot convert {what} to number; given string must be a decimal representation of a number"
                )),
                _ => cannot(),
            }
        }
    }
}

#[test]
fn to_functions() {
    let vals = values();
    let mut failures = Vec::new();
    for (meta, want) in data::TO {
        let target = match meta[0] {
            "tostring" => Type::String,
            "tonumber" => Type::Number,
            "tobool" => Type::Bool,
            "tolist" => Type::list(Type::Dynamic),
            "toset" => Type::set(Type::Dynamic),
            _ => Type::map(Type::Dynamic),
        };
        let got = to_func(&vals[meta[1]], &target);
        check(&mut failures, format!("{}({})", meta[0], meta[1]), got, want);
    }
    report("TO", failures, data::TO.len());
}

#[test]
fn typed_parameters() {
    let vals = values();
    let mut failures = Vec::new();
    for (meta, want) in data::PARAM {
        let (func, param, target, arg) = (meta[0], meta[1], meta[2], meta[3]);
        let target = Type::from_json(&serde_json::from_str(target).unwrap()).unwrap();
        let what = format!("{func}({arg})");
        match convert(&vals[arg], &target) {
            Err(e) => {
                let got = format!("err Invalid function argument: Invalid value for \"{param}\" parameter: {e}.");
                check(&mut failures, what, got, want);
            }
            Ok(v) => {
                // The functions' own results are not conversions; only
                // whether the conversion succeeded is compared.
                if !want.starts_with("ok ") {
                    check(&mut failures, what, ok(&v), want);
                }
            }
        }
    }
    report("PARAM", failures, data::PARAM.len());
}
