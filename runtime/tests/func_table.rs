//! The function table's API: registration rules, the calling convention's
//! diagnostics and sites, host functions, and hostile inputs under a size
//! budget (no panics, bounded work).

use runtime::func::{CallCtx, ErrorSite, FnError, FunctionDef, FunctionTable, Functions, Param, RegisterError, Signature, SizeBudget};
use runtime::{Number, Type, Value};
use std::sync::Arc;

fn call(t: &Functions, name: &str, args: Vec<Value>, budget: u64) -> Result<Value, Vec<runtime::CallError>> {
    let id = t.lookup(name).unwrap_or_else(|| panic!("no function {name}"));
    t.call_unconverted(id, &args, &mut SizeBudget::new(budget))
}

fn num(s: &str) -> Value {
    Value::Number(Number::parse(s).unwrap())
}

#[test]
fn stdlib_has_the_oracle_names_without_try_and_can() {
    let t = Functions::stdlib();
    let mut names: Vec<&str> = t.names();
    names.sort_unstable();
    // The oracle lists 64 names, two of which are the special forms.
    assert_eq!(names.len(), 62);
    assert!(t.lookup("try").is_none() && t.lookup("can").is_none());
    assert!(t.has_try_can(), "the special forms, which lookup does not find");
    assert!(t.lookup("UPPER").is_none());
    for n in ["abs", "setproduct", "tomap", "formatdate", "regexreplace"] {
        assert!(t.lookup(n).is_some(), "{n}");
    }
}

fn host_upper() -> FunctionDef {
    let imp = Arc::new(|args: &[Value], _: &Type, _: &mut CallCtx| -> Result<Value, FnError> {
        Ok(Value::string(&args[0].as_str().unwrap_or("").to_uppercase()))
    });
    FunctionDef::with_static_type(
        "host::shout",
        Signature { params: vec![Param::new("text", Type::String)], var_param: None, pure: true },
        Type::String,
        imp,
    )
}

#[test]
fn registration_rules() {
    let mut t = Functions::empty();
    let id = t.register(host_upper()).unwrap();
    assert_eq!(t.lookup("host::shout"), Some(id));
    assert!(matches!(t.register(host_upper()), Err(RegisterError::DuplicateName(_))));
    let mut bad = host_upper();
    bad.name = "1x".into();
    assert!(matches!(t.register(bad), Err(RegisterError::InvalidName(_))));
    let mut dup_param = host_upper();
    dup_param.name = "twice".into();
    dup_param.signature.params.push(Param::new("text", Type::String));
    assert!(matches!(t.register(dup_param), Err(RegisterError::InvalidParameter(_))));
    // Host functions get the whole calling convention: conversion, nulls, unknowns.
    assert_eq!(call(&t, "host::shout", vec![Value::int(5)], 100).unwrap().as_str(), Some("5"));
    assert!(!call(&t, "host::shout", vec![Value::unknown(Type::String)], 100).unwrap().is_known());
    let e = call(&t, "host::shout", vec![Value::Null(Type::String)], 100).unwrap_err();
    assert_eq!(e[0].detail, "Invalid value for \"text\" parameter: argument must not be null.");
}

#[test]
fn diagnostics_and_sites() {
    let t = Functions::stdlib();
    let rows: Vec<(&str, Vec<Value>, ErrorSite, &str, &str)> = vec![
        (
            "upper",
            vec![],
            ErrorSite::CloseParen,
            "Not enough function arguments",
            "Function \"upper\" expects 1 argument(s). Missing value for \"str\".",
        ),
        (
            "upper",
            vec![Value::string("a"), Value::string("b")],
            ErrorSite::Argument(1),
            "Too many function arguments",
            "Function \"upper\" expects only 1 argument(s).",
        ),
        (
            "join",
            vec![],
            ErrorSite::CloseParen,
            "Not enough function arguments",
            "Function \"join\" expects at least 1 argument(s). Missing value for \"separator\".",
        ),
        (
            "ceil",
            vec![Value::string("x")],
            ErrorSite::Argument(0),
            "Invalid function argument",
            "Invalid value for \"num\" parameter: a number is required.",
        ),
        (
            "signum",
            vec![num("0.5")],
            ErrorSite::CallStart,
            "Error in function call",
            "Call to function \"signum\" failed: value must be a whole number, between -9223372036854775808 and 9223372036854775807.",
        ),
        // An argument error about a variadic parameter that got no arguments.
        (
            "join",
            vec![Value::string(",")],
            ErrorSite::CallStart,
            "Error in function call",
            "Call to function \"join\" failed: at least one list is required.",
        ),
    ];
    for (name, args, site, summary, detail) in rows {
        let e = call(&t, name, args, 1000).unwrap_err();
        assert_eq!((e[0].site, e[0].summary.as_str(), e[0].detail.as_str()), (site, summary, detail), "{name}");
    }
    // Every failed conversion is reported.
    let e = call(&t, "pow", vec![Value::string("a"), Value::string("b")], 1000).unwrap_err();
    assert_eq!(e.len(), 2);
    assert_eq!(e[1].site, ErrorSite::Argument(1));
}

#[test]
fn hostile_inputs_are_bounded() {
    let t = Functions::stdlib();
    let small = 10_000;
    // Reference-defined failures.
    assert!(call(&t, "range", vec![Value::int(0), num("1e300")], small).is_err());
    assert!(call(&t, "substr", vec![Value::string("abc"), num("1e30"), Value::int(1)], small).is_err());
    assert_eq!(
        call(&t, "substr", vec![Value::string("abc"), Value::int(i64::MAX), Value::int(i64::MAX)], small).unwrap().as_str(),
        Some("")
    );
    assert_eq!(call(&t, "pow", vec![Value::int(10), num("1e10")], small).unwrap().as_number().map(Number::is_infinite), Some(true));
    // Budget-limited growth.
    let many = Value::list((0..200).map(Value::int).collect()).unwrap();
    assert!(call(&t, "setproduct", vec![many.clone(), many.clone(), many.clone()], small).is_err());
    assert!(call(&t, "indent", vec![Value::int(1 << 40), Value::string("a\nb")], small).is_err());
    assert_eq!(call(&t, "indent", vec![Value::int(1 << 40), Value::string("ab")], small).unwrap().as_str(), Some("ab"));
    assert!(call(&t, "format", vec![Value::string("%9999999d"), Value::int(1)], small).is_err());
    assert!(call(&t, "format", vec![Value::string("%999999999s"), Value::int(1)], small).is_err());
    // A width Go's fmt cannot read: the reference's own text, no output built.
    assert_eq!(
        call(&t, "format", vec![Value::string("%999999999d"), Value::int(1)], small).unwrap().as_str(),
        Some("%!(NOVERB)%!(EXTRA *big.Int=1)")
    );
    assert!(call(&t, "formatlist", vec![Value::string("%s"), many.clone()], 100).is_err());
    assert!(call(&t, "chunklist", vec![many.clone(), Value::int(1)], 100).is_err());
    let long = Value::from_string("x".repeat(5000));
    assert!(call(&t, "replace", vec![long.clone(), Value::string("x"), Value::string("yyyyyyyy")], small).is_err());
    assert!(call(&t, "join", vec![Value::string("--------"), Value::list(vec![long; 4]).unwrap()], small).is_err());
    // Pathological patterns compile within the regex size limit or fail cleanly.
    let r = call(&t, "regex", vec![Value::string("(((a{1000}){1000}){1000})"), Value::string("a")], small);
    assert!(r.is_err());
    assert!(call(&t, "parseint", vec![Value::from_string("1".repeat(100_000)), Value::int(10)], small).is_err());
}
