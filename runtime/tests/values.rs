//! Table tests for the value model rules that the oracle tables do not
//! reach directly: safe unification, mismatch messages, constructor
//! validity, NFC, typed-null equality, JSON typed decoding. Expected
//! results follow go-cty v1.13.0 (its documented behaviour and the
//! reference's answers).

use runtime::convert::{convert, get_conversion, get_conversion_unsafe, mismatch_message};
use runtime::json::{value_from_json_implied, value_from_result_json, value_to_result_string};
use runtime::unify::{unify, unify_unsafe};
use runtime::{Tri, Type, Value, ValueError};

fn ty(s: &str) -> Type {
    Type::from_json(&serde_json::from_str(s).unwrap()).unwrap()
}

/// A value from its type and result-encoded JSON.
fn val(t: &str, v: &str) -> Value {
    value_from_result_json(&serde_json::from_str(v).unwrap(), &ty(t)).unwrap()
}

fn enc(v: &Value) -> String {
    value_to_result_string(v).unwrap()
}

#[test]
fn safe_unification() {
    // (input types, unified type or "none")
    let cases: &[(&[&str], &str)] = &[
        (&[r#""string""#], r#""string""#),
        (&[r#""number""#, r#""number""#], r#""number""#),
        (&[r#""number""#, r#""string""#], r#""string""#),
        (&[r#""string""#, r#""number""#], r#""string""#),
        (&[r#""bool""#, r#""string""#, r#""number""#], r#""string""#),
        (&[r#""bool""#, r#""number""#], "none"),
        (&[r#"["object",{"foo":"string"}]"#, r#"["object",{"foo":"number"}]"#], r#"["object",{"foo":"string"}]"#),
        (&[r#"["object",{"foo":"string"}]"#, r#"["object",{"bar":"number"}]"#], r#"["map","string"]"#),
        (&[r#"["object",{"foo":"string"}]"#, r#"["object",{}]"#], r#"["map","string"]"#),
        (&[r#"["object",{"foo":"bool"}]"#, r#"["object",{"bar":"number"}]"#], "none"),
        (&[r#"["object",{"foo":"bool"}]"#, r#"["object",{"foo":"number"}]"#], "none"),
        (&[r#"["tuple",["string"]]"#, r#"["tuple",["number"]]"#], r#"["tuple",["string"]]"#),
        (&[r#"["tuple",["string"]]"#, r#"["tuple",["string","number"]]"#], r#"["list","string"]"#),
        (&[r#"["tuple",["string"]]"#, r#"["tuple",[]]"#], r#"["list","string"]"#),
        (&[r#"["tuple",["bool"]]"#, r#"["tuple",["number"]]"#], "none"),
        (
            &[
                r#"["tuple",[["object",{"a":"string"}],["object",{"a":"string"}]]]"#,
                r#"["tuple",[["object",{"a":"string","b":"string"}]]]"#,
            ],
            r#"["list",["map","string"]]"#,
        ),
        (&[r#"["tuple",[["object",{"a":"string"}],"dynamic"]]"#, r#"["list","dynamic"]"#], "none"),
        (&[r#"["list",["object",{"a":"string"}]]"#, r#"["list",["map","string"]]"#], r#"["list",["map","string"]]"#),
        (
            &[r#"["tuple",[["object",{"a":"string","b":"number"}]]]"#, r#"["tuple",[["object",{"a":"string"}]]]"#],
            r#"["tuple",[["map","string"]]]"#,
        ),
        (&[r#""dynamic""#, r#""string""#], r#""dynamic""#),
        (&[r#"["list","string"]"#, r#""dynamic""#], r#""dynamic""#),
        (&[r#"["set","string"]"#, r#"["list","number"]"#], "none"),
        (&[r#"["map","number"]"#, r#"["object",{"a":"string"}]"#], r#"["map","string"]"#),
    ];
    for (inputs, want) in cases {
        let types: Vec<Type> = inputs.iter().map(|s| ty(s)).collect();
        let got = unify(&types).map(|(t, _)| t.to_json_string()).unwrap_or_else(|| "none".to_string());
        assert_eq!(&got, want, "unify {inputs:?}");
    }
    assert!(unify(&[]).is_none());
    // Unsafe unification also finds string -> number/bool and list -> set.
    let (t, convs) = unify_unsafe(&[ty(r#"["set","string"]"#), ty(r#"["list","number"]"#)]).unwrap();
    assert_eq!(t.to_json_string(), r#"["list","number"]"#);
    assert!(convs[0].is_some() && convs[1].is_none());
}

#[test]
fn unify_conversions_apply() {
    let a = val(r#"["object",{"a":"number"}]"#, r#"{"a":1}"#);
    let b = val(r#"["object",{"b":"string"}]"#, r#"{"b":"x"}"#);
    let (t, convs) = unify(&[a.ty(), b.ty()]).unwrap();
    assert_eq!(t.to_json_string(), r#"["map","string"]"#);
    let ca = convs[0].as_ref().unwrap().apply(&a).unwrap();
    assert_eq!(enc(&ca), r#"{"a":"1"}"#);
    assert!(ca.has_type(&t));
    // A primitive with dynamic: dynamic is the only target, values pass through.
    let (t, convs) = unify(&[Type::String, Type::Dynamic]).unwrap();
    assert!(t.is_dynamic());
    let c = convs[0].as_ref().unwrap().apply(&Value::string("x")).unwrap();
    assert_eq!(c.as_str(), Some("x"));
    // Collections with a dynamic member: every value becomes DynamicVal.
    let (t, convs) = unify(&[Type::list(Type::String), Type::Dynamic]).unwrap();
    assert!(t.is_dynamic());
    let c = convs[0].as_ref().unwrap().apply(&Value::list_empty(Type::String)).unwrap();
    assert!(!c.is_known() && c.ty().is_dynamic());
}

#[test]
fn mismatch_messages() {
    let cases: &[(&str, &str, &str)] = &[
        (r#""bool""#, r#""number""#, "number required"),
        (r#"["object",{}]"#, r#"["object",{"foo":"string"}]"#, r#"attribute "foo" is required"#),
        (r#"["object",{}]"#, r#"["object",{"foo":"string","bar":"string"}]"#, r#"attributes "bar" and "foo" are required"#),
        (
            r#"["object",{}]"#,
            r#"["object",{"foo":"string","bar":"string","baz":"string"}]"#,
            r#"attributes "bar", "baz", and "foo" are required"#,
        ),
        (r#"["object",{}]"#, r#"["list",["object",{"foo":"string"}]]"#, "list of object required"),
        (r#"["list","string"]"#, r#"["list",["object",{"foo":"string"}]]"#, "incorrect list element type: object required"),
        (
            r#"["list",["object",{}]]"#,
            r#"["list",["object",{"foo":"string"}]]"#,
            r#"incorrect list element type: attribute "foo" is required"#,
        ),
        (r#"["tuple",[["object",{}]]]"#, r#"["list",["object",{"foo":"string"}]]"#, r#"element 0: attribute "foo" is required"#),
        (
            r#"["list",["object",{}]]"#,
            r#"["set",["object",{"foo":"string"}]]"#,
            r#"incorrect set element type: attribute "foo" is required"#,
        ),
        (
            r#"["map",["object",{}]]"#,
            r#"["map",["object",{"foo":"string"}]]"#,
            r#"incorrect map element type: attribute "foo" is required"#,
        ),
        (
            r#"["object",{"boop":["object",{}]}]"#,
            r#"["map",["object",{"foo":"string"}]]"#,
            r#"element "boop": attribute "foo" is required"#,
        ),
        (r#"["tuple",[["object",{}],["tuple",[]]]]"#, r#"["list","dynamic"]"#, "all list elements must have the same type"),
        (r#"["tuple",[["object",{}],["tuple",[]]]]"#, r#"["set","dynamic"]"#, "all set elements must have the same type"),
        (r#"["object",{"a":"bool","b":["list","string"]}]"#, r#"["map","dynamic"]"#, "all map elements must have the same type"),
        (
            r#"["object",{"foo":"bool","baz":["object",{"boop":"number"}]}]"#,
            r#"["object",{"foo":"bool","baz":["object",{"boop":"number","beep":"bool"}]}]"#,
            r#"attribute "baz": attribute "beep" is required"#,
        ),
        (r#"["tuple",["string"]]"#, r#"["map","string"]"#, "map of string required"),
        (r#"["list","string"]"#, r#"["map","string"]"#, "map of string required"),
        (r#""string""#, r#"["list","dynamic"]"#, "list of any single type required"),
        (r#"["tuple",["bool"]]"#, r#"["list","number"]"#, "element 0: number required"),
        (r#"["tuple",["string"]]"#, r#"["list","number"]"#, "all elements must be number"),
    ];
    for (got, want, msg) in cases {
        assert_eq!(mismatch_message(&ty(got), &ty(want)), *msg, "{got} -> {want}");
    }
}

#[test]
fn conversion_errors_and_results() {
    // (type, value, target, result encoding or "err: message")
    let cases: &[(&str, &str, &str, &str)] = &[
        (r#""number""#, "1.5", r#""string""#, r#""1.5""#),
        (r#""bool""#, "false", r#""string""#, r#""false""#),
        (r#""string""#, r#""1e3""#, r#""number""#, "1000"),
        (r#""string""#, r#""x""#, r#""number""#, "err: a number is required"),
        (r#""string""#, r#""0""#, r#""bool""#, "false"),
        (r#""string""#, r#""FALSE""#, r#""bool""#, r#"err: a bool is required; to convert from string, use lowercase "false""#),
        (r#""string""#, r#""yes""#, r#""bool""#, "err: a bool is required"),
        (
            r#"["map","string"]"#,
            r#"{"a":"1"}"#,
            r#"["object",{"a":"number","b":"number"}]"#,
            r#"err: map has no element for required attribute "b""#,
        ),
        (r#"["map","string"]"#, r#"{"a":"1","z":"q"}"#, r#"["object",{"a":"number"}]"#, r#"{"a":1}"#),
        (r#"["object",{"a":"number","b":"bool"}]"#, r#"{"a":1,"b":true}"#, r#"["object",{"a":"string"}]"#, r#"{"a":"1"}"#),
        (r#"["list","string"]"#, r#"["b","a","b"]"#, r#"["set","string"]"#, r#"["a","b"]"#),
        (r#"["list","string"]"#, r#"["1","x"]"#, r#"["list","number"]"#, "err: a number is required"),
        (r#"["tuple",["number","string"]]"#, r#"[1,"a"]"#, r#"["list","dynamic"]"#, r#"["1","a"]"#),
        (r#"["tuple",[]]"#, "[]", r#"["set","number"]"#, "[]"),
        (r#"["object",{}]"#, "{}", r#"["map","bool"]"#, "{}"),
        (r#""dynamic""#, "null", r#""string""#, "null"),
        (r#"["list","number"]"#, r#"{"$unknown":true}"#, r#"["set","string"]"#, r#"{"$unknown":true}"#),
        (r#""string""#, r#""x""#, r#"["list","string"]"#, "err: list of string required"),
    ];
    for (t, v, target, want) in cases {
        let input = val(t, v);
        let got = match convert(&input, &ty(target)) {
            Ok(r) => {
                assert!(r.ty().conforms_to(&ty(target)), "{t} {v} -> {target}: type {:?}", r.ty());
                enc(&r)
            }
            Err(e) => format!("err: {e}"),
        };
        assert_eq!(&got, want, "{t} {v} -> {target}");
    }
    // Nulls and unknowns keep what their type knows where the target is dynamic.
    let n = convert(&Value::null(ty(r#"["list","number"]"#)), &ty(r#"["list","dynamic"]"#)).unwrap();
    assert_eq!(n.ty().to_json_string(), r#"["list","number"]"#);
    let u = convert(&Value::unknown(ty(r#"["tuple",["string","string"]]"#)), &ty(r#"["list","dynamic"]"#)).unwrap();
    assert_eq!(u.ty().to_json_string(), r#"["list","string"]"#);
    // Safe versus unsafe.
    assert!(get_conversion(&Type::String, &Type::Number).is_none());
    assert!(get_conversion_unsafe(&Type::String, &Type::Number).is_some());
    assert!(get_conversion(&ty(r#"["list","string"]"#), &ty(r#"["set","string"]"#)).is_none());
    assert!(get_conversion(&ty(r#"["set","string"]"#), &ty(r#"["list","string"]"#)).is_some());
    assert!(get_conversion(&ty(r#"["map","string"]"#), &ty(r#"["object",{"a":"string"}]"#)).is_none());
    // Error paths locate the failing element.
    let e = convert(&val(r#"["object",{"a":["list","string"]}]"#, r#"{"a":["1","x"]}"#), &ty(r#"["object",{"a":["list","number"]}]"#))
        .unwrap_err();
    assert_eq!(e.with_path(), ".a[1]: a number is required");
}

#[test]
fn constructors_follow_cty_rules() {
    assert_eq!(Value::list(vec![]).unwrap_err(), ValueError::Empty);
    assert!(matches!(Value::list(vec![Value::int(1), Value::string("a")]), Err(ValueError::InconsistentElementTypes { .. })));
    // Dynamic nulls and unknowns take the element type.
    let l = Value::list(vec![Value::null(Type::Dynamic), Value::string("a"), Value::dynamic_unknown()]).unwrap();
    assert_eq!(l.ty(), Type::list(Type::String));
    assert_eq!(l.index(0).unwrap().ty(), Type::String);
    assert_eq!(l.index(2).unwrap().ty(), Type::String);
    assert!(Value::can_list(&[Value::dynamic_unknown(), Value::int(1)]));
    assert!(!Value::can_list(&[Value::string("a"), Value::dynamic_unknown(), Value::int(1)]));
    // Maps and objects: NFC keys, sorted, last duplicate wins.
    let m = Value::map(vec![("e\u{301}", Value::int(1)), ("a", Value::int(2)), ("a", Value::int(3))]).unwrap();
    assert_eq!(enc(&m), "{\"a\":3,\"é\":1}");
    assert_eq!(m.map_get("\u{e9}").map(enc), Some("1".to_string()));
    let o = Value::object(vec![("b", Value::bool(true)), ("a", Value::string("x"))]);
    assert_eq!(o.ty().to_json_string(), r#"["object",{"a":"string","b":"bool"}]"#);
    let ot = o.ty();
    let idx = ot.object_type().unwrap().attr_index("b").unwrap();
    assert_eq!(o.attr_at(idx).and_then(Value::as_bool), Some(true));
    assert_eq!(o.get_attr("a").and_then(|v| v.as_str().map(str::to_string)), Some("x".to_string()));
    assert_eq!(o.element_key(1).and_then(|k| k.as_str().map(str::to_string)), Some("b".to_string()));
    assert!(o.element_key(2).is_none());
    assert_eq!(m.element_key(0).and_then(|k| k.as_str().map(str::to_string)), Some("a".to_string()));
    // Strings are NFC.
    assert_eq!(Value::string("e\u{301}").as_str(), Some("\u{e9}"));
    // Sets deduplicate by cty equality and iterate in cty order.
    let s = Value::set(vec![Value::string("b"), Value::string("a"), Value::string("b")]).unwrap();
    assert_eq!(enc(&s), r#"["a","b"]"#);
    let s = Value::set(vec![Value::bool(true), Value::null(Type::Bool), Value::unknown(Type::Bool), Value::bool(false)]).unwrap();
    assert_eq!(enc(&s), r#"[false,true,{"$unknown":true},null]"#);
    assert!(!s.cty_length().is_known());
    assert_eq!(Value::empty_tuple().length(), Some(0));
    // Membership: by cty equality; unknowns are never members.
    let s = Value::set(vec![Value::string("b"), Value::unknown(Type::String), Value::string("a"), Value::null(Type::String)]).unwrap();
    let set = s.as_set().unwrap();
    assert!(set.contains(&Value::string("a")) && set.contains(&Value::string("b")));
    assert!(!set.contains(&Value::string("c")) && !set.contains(&Value::unknown(Type::String)));
    assert!(set.contains(&Value::null(Type::String)));
    let n = Value::set(vec![Value::int(2), Value::number(runtime::Number::parse("0.5").unwrap())]).unwrap();
    assert!(n.as_set().unwrap().contains(&Value::number(runtime::Number::from_f64(0.5).unwrap())));
    assert!(Value::object_of(ot.object_type().unwrap().clone(), vec![Value::int(1), Value::bool(true)]).is_err());
}

#[test]
fn equality_rules() {
    let t = |s: &str| ty(s);
    // (a, b, expected)
    let cases: Vec<(Value, Value, Tri)> = vec![
        (Value::null(Type::String), Value::null(Type::Dynamic), Tri::True),
        (Value::null(Type::String), Value::string("a"), Tri::False),
        (Value::null(Type::String), Value::unknown(Type::String), Tri::Unknown),
        (Value::string("a"), Value::unknown(Type::Number), Tri::False),
        (Value::string("a"), Value::dynamic_unknown(), Tri::Unknown),
        (Value::unknown(Type::String), Value::unknown(Type::String), Tri::Unknown),
        (Value::int(1), Value::string("1"), Tri::False),
        (val(r#"["list","number"]"#, "[1]"), val(r#"["tuple",["number"]]"#, "[1]"), Tri::False),
        (val(r#"["list","number"]"#, "[1,2]"), val(r#"["list","number"]"#, r#"[{"$unknown":true},3]"#), Tri::Unknown),
        (val(r#"["list","number"]"#, "[1,2]"), val(r#"["list","number"]"#, r#"[2,{"$unknown":true}]"#), Tri::False),
        (val(r#"["list","number"]"#, "[1]"), val(r#"["list","number"]"#, "[1,2]"), Tri::False),
        (val(r#"["set","number"]"#, "[1,2]"), val(r#"["set","number"]"#, "[2,1]"), Tri::True),
        (val(r#"["set","number"]"#, "[1]"), val(r#"["set","number"]"#, r#"[{"$unknown":true}]"#), Tri::Unknown),
        (val(r#"["map","string"]"#, r#"{"a":"x"}"#), val(r#"["map","string"]"#, r#"{"b":"x"}"#), Tri::False),
        (val(r#"["tuple",["dynamic"]]"#, "[null]"), val(r#"["tuple",["dynamic"]]"#, "[null]"), Tri::True),
        (Value::tuple(vec![Value::dynamic_unknown()]), val(r#"["tuple",["string"]]"#, r#"["a"]"#), Tri::Unknown),
        (Value::tuple(vec![Value::dynamic_unknown()]), Value::tuple(vec![]), Tri::False),
        (val(r#""number""#, "0.1"), Value::number(runtime::Number::from_f64(0.1).unwrap()), Tri::True),
        (Value::null(t(r#"["list","string"]"#)), Value::null(t(r#"["list","number"]"#)), Tri::True),
    ];
    for (a, b, want) in cases {
        assert_eq!(a.equals_tri(&b), want, "{a:?} == {b:?}");
        assert_eq!(b.equals_tri(&a), want, "{b:?} == {a:?}");
    }
    // Raw equality distinguishes types, knownness and nullness exactly.
    assert!(Value::unknown(Type::String).raw_equals(&Value::unknown(Type::String)));
    assert!(!Value::null(Type::String).raw_equals(&Value::null(Type::Dynamic)));
    assert!(!Value::int(1).raw_equals(&Value::string("1")));
}

#[test]
fn implied_json_decoding() {
    let v = value_from_json_implied(&serde_json::from_str(r#"{"n":1e-5,"l":[null,{"x":true}]}"#).unwrap()).unwrap();
    assert_eq!(v.ty().to_json_string(), r#"["object",{"l":["tuple",["dynamic",["object",{"x":"bool"}]]],"n":"number"}]"#);
    assert_eq!(enc(&v), r#"{"l":[null,{"x":true}],"n":0.00001}"#);
}

#[test]
fn long_mixed_tuples_unify_like_short_ones() {
    // Reference: tolist(concat([for i in range(35): "a"], [for i in range(35): 1], [true]))[69] is "1",
    // and the same with objects {a=1} / {b="x"} gives list(map(string)).
    let mut elems: Vec<Value> = (0..35).map(|_| Value::string("a")).collect();
    elems.extend((0..35).map(|_| Value::int(1)));
    elems.push(Value::bool(true));
    let l = convert(&Value::tuple(elems), &Type::list(Type::Dynamic)).unwrap();
    assert_eq!(l.ty(), Type::list(Type::String));
    assert_eq!(l.index(69).and_then(Value::as_str), Some("1"));
    assert_eq!(l.index(70).and_then(Value::as_str), Some("true"));
    let mut objs: Vec<Value> = (0..35).map(|_| Value::object(vec![("a", Value::int(1))])).collect();
    objs.extend((0..35).map(|_| Value::object(vec![("b", Value::string("x"))])));
    let l = convert(&Value::tuple(objs), &Type::list(Type::Dynamic)).unwrap();
    assert_eq!(l.ty().to_json_string(), r#"["list",["map","string"]]"#);
    assert_eq!(enc(l.index(0).unwrap()), r#"{"a":"1"}"#);
    // Sets compare by cty membership: -0 and 0 hash differently.
    let z = |s: &str| Value::number(runtime::Number::parse(s).unwrap());
    let neg_zero = z("0").as_number().unwrap().neg();
    let a = Value::set(vec![z("0")]).unwrap();
    let b = Value::set(vec![Value::number(neg_zero.clone())]).unwrap();
    assert_eq!(a.equals_tri(&b), Tri::False);
    assert_eq!(Value::tuple(vec![z("0")]).equals_tri(&Value::tuple(vec![Value::number(neg_zero)])), Tri::True);
}

#[test]
fn string_to_number_accepts_what_go_parsefloat_accepts() {
    // Reference: tonumber(x) for each string x (long results abbreviated
    // to first character and digit count).
    let cases: &[(&str, &str)] = &[
        ("inf", "{\"$number\":\"+Inf\"}"),
        ("+inf", "{\"$number\":\"+Inf\"}"),
        ("-inf", "{\"$number\":\"-Inf\"}"),
        ("Inf", "{\"$number\":\"+Inf\"}"),
        ("INF", "err"),
        ("Infinity", "err"),
        ("infinity", "err"),
        ("nan", "err"),
        ("NaN", "err"),
        ("1e", "err"),
        ("1e+", "err"),
        (".", "err"),
        (" .5", "err"),
        ("1.e5", "100000"),
        (".e5", "err"),
        ("1E5", "100000"),
        ("1e-5", "0.00001"),
        ("+.5", "0.5"),
        ("-.5", "-0.5"),
        ("0x10", "err"),
        ("0x1p4", "err"),
        ("1_000", "err"),
        ("1 ", "err"),
        ("1,5", "err"),
        ("\u{0661}", "err"),
        ("00012", "12"),
        ("-0", "-0"),
        ("+0", "0"),
        ("1e400", "1<401 digits>"),
        ("1e-400", "0<402 digits>"),
        ("9223372036854775808", "9223372036854775808"),
        ("0.0000", "0"),
        ("1.", "1"),
        ("-", "err"),
        ("+", "err"),
        ("", "err"),
        ("e5", "err"),
        ("1e+05", "100000"),
        ("1E-05", "0.00001"),
        ("0b101", "err"),
        ("0o17", "err"),
        ("1p4", "16"),
    ];
    for (input, want) in cases {
        let got = match convert(&Value::string(input), &Type::Number) {
            Ok(v) => {
                let e = enc(&v);
                if e.len() > 60 {
                    format!("{}<{} digits>", &e[..1], e.len())
                } else {
                    e
                }
            }
            Err(_) => "err".to_string(),
        };
        assert_eq!(&got, want, "tonumber({input:?})");
    }
}

#[test]
fn hostile_json_inputs_fail_cleanly() {
    // Nesting deeper than MAX_NESTING is an error, not a stack overflow.
    let depth = runtime::value::MAX_NESTING + 10;
    let mut j = serde_json::Value::Null;
    for _ in 0..depth {
        j = serde_json::Value::Array(vec![j]);
    }
    assert!(value_from_json_implied(&j).is_err());
    let mut t = serde_json::Value::from("string");
    for _ in 0..depth {
        t = serde_json::Value::Array(vec![serde_json::Value::from("list"), t]);
    }
    assert!(Type::from_json(&t).is_err());
    // Malformed type descriptions and mismatched values are errors.
    for bad in [r#"["list"]"#, r#"["object",[]]"#, r#"["tuple",{}]"#, r#"{"a":1}"#, "null", "[]"] {
        assert!(Type::from_json(&serde_json::from_str(bad).unwrap()).is_err(), "{bad}");
    }
    let t = ty(r#"["object",{"a":"number"}]"#);
    for bad in [r#"[1]"#, r#""x""#, r#"{"a":{}}"#, r#"{"a":"1x"}"#] {
        assert!(runtime::json::value_from_json_typed(&serde_json::from_str(bad).unwrap(), &t).is_err(), "{bad}");
    }
}

#[test]
fn deep_copies_are_equal_and_share_nothing() {
    let cases = [
        (r#"["object",{"a":["list","string"],"b":["tuple",["number",["map","bool"]]]}]"#, r#"{"a":["x","y"],"b":[1e400,{"k":true}]}"#),
        (r#"["set",["object",{"n":"number"}]]"#, r#"[{"n":1},{"n":0.5}]"#),
        (r#""string""#, r#""é""#),
    ];
    for (t, v) in cases {
        let original = val(t, v);
        let copy = original.deep_copy();
        assert!(copy.raw_equals(&original), "{t} {v}");
        assert_eq!(copy.ty(), original.ty());
        assert_eq!(enc(&copy), enc(&original));
        if let (Value::Object(a), Value::Object(b)) = (&original, &copy) {
            assert!(!std::sync::Arc::ptr_eq(a.object_type(), b.object_type()));
            assert!(!std::sync::Arc::ptr_eq(&a.object_type().names()[0], &b.object_type().names()[0]));
        }
    }
    // Unknowns keep their refinements.
    let mut builder = Value::unknown(Type::String).refine();
    builder.not_null().string_prefix("ab");
    let refined = builder.into_value();
    assert!(matches!(&refined, Value::Unknown(u) if u.refinement().is_some()));
    assert!(refined.deep_copy().raw_equals(&refined));
}

/// A long tuple makes its type when first asked for: the same type, and
/// the same comparisons, hashing and conversions, as a tuple whose type
/// was made with it.
#[test]
fn long_tuples_make_their_type_on_demand() {
    let n = 5000;
    let numbers = |last: Value| {
        let mut elems = vec![Value::from(1i64); n - 1];
        elems.push(last);
        Value::tuple(elems)
    };
    let all_numbers = numbers(Value::from(2i64));
    let want = Type::tuple(vec![Type::Number; n]);
    assert!(all_numbers.has_type(&want));
    assert!(all_numbers.conforms_to(&want));
    assert!(all_numbers.ty() == want);

    // Equality compares types first: each side's made on demand.
    let with_string = numbers(Value::from("2"));
    assert!(!numbers(Value::from(2i64)).raw_equals(&with_string));
    assert!(numbers(Value::from(2i64)).raw_equals(&all_numbers));
    assert_eq!(numbers(Value::from(2i64)).equals(&with_string).as_bool(), Some(false));
    assert_eq!(numbers(Value::from(2i64)).equals(&numbers(Value::from(2i64))).as_bool(), Some(true));
    assert_eq!(with_string.ty(), {
        let mut types = vec![Type::Number; n - 1];
        types.push(Type::String);
        Type::tuple(types)
    });

    // Hashing (sets) and conversion see the same type.
    let set = Value::set(vec![numbers(Value::from(2i64)), all_numbers.clone(), numbers(Value::from(3i64))]).expect("a set of tuples");
    assert_eq!(set.length(), Some(2));
    assert!(Value::set(vec![numbers(Value::from(2i64)), with_string.clone()]).is_err(), "element types differ");
    let list = convert(&numbers(Value::from(2i64)), &Type::list(Type::String)).expect("numbers convert to strings");
    assert!(list.has_type(&Type::list(Type::String)));
    assert_eq!(list.length(), Some(n));
}

/// Values built through the API nest as deeply as their builder likes:
/// dropping one does not recurse once per level, whatever kinds alternate
/// in it (objects keep their values in their own block, lists and tuples
/// in a box of their own), and a value shared elsewhere is left whole.
#[test]
fn dropping_deep_values_does_not_recurse_per_level() {
    let build = || {
        let mut v = Value::int(1);
        for i in 0..300_000 {
            v = match i % 3 {
                0 => Value::object(vec![("a", v)]),
                1 => Value::tuple(vec![v, Value::bool(true)]),
                _ => Value::object(vec![("b", Value::string("x")), ("c", Value::list(vec![v]).expect("a list"))]),
            };
        }
        v
    };
    let kept = std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(move || {
            let deep = build();
            let Value::Object(o) = &deep else { panic!("an object") };
            let inner = o.vals()[1].clone();
            drop(deep);
            inner
        })
        .expect("a thread")
        .join()
        .expect("no stack overflow");
    let Value::List(l) = &kept else { panic!("not a list") };
    assert!(matches!(l.elems(), [Value::Tuple(_)]));
    std::thread::Builder::new().stack_size(256 << 10).spawn(move || drop(kept)).expect("a thread").join().expect("no stack overflow");
}

/// A tuple of one primitive kind has the type its elements imply, however
/// long (short ones share their type, longer ones make it without asking
/// each element), and a tuple that mixes kinds has its elements' types.
#[test]
fn uniform_tuples_have_their_elements_types() {
    for len in [1, 16, 17, 100, 4096, 4097] {
        for (make, elem) in [
            (Value::string as fn(&str) -> Value, Type::String),
            (|s: &str| Value::int(s.len() as i64), Type::Number),
            (|s: &str| Value::bool(s.is_empty()), Type::Bool),
        ] {
            let t = Value::tuple((0..len).map(|i| make(&"x".repeat(i % 3))).collect());
            let want = Type::tuple(vec![elem.clone(); len]);
            assert_eq!(t.ty(), want, "{len} elements of {elem:?}");
            assert!(!t.ty().has_dynamic_types());
            assert!(!t.ty().has_optional_attributes());
            assert!(t.has_type(&want));
        }
    }
    let mixed = Value::tuple((0..40).map(|i| if i == 39 { Value::unknown(Type::Dynamic) } else { Value::string("s") }).collect());
    let mut want = vec![Type::String; 39];
    want.push(Type::Dynamic);
    assert_eq!(mixed.ty(), Type::tuple(want));
    assert!(mixed.ty().has_dynamic_types());
}
