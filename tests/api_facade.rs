//! The embedding API: options, variables, results, serde conversion,
//! threads, and agreement with the conformance runner on every case.

use hclvm::conformance::{bind_values, decode_case, run_line, FuncTable, Mode};
use hclvm::{from_value, Compiled, Error, FnError, FunctionDef, Functions, Options, Param, Signature, SourceKind, Type, Value, Variables};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

fn expr(src: &str) -> Compiled {
    Compiled::expression(src, &Options::new()).expect("valid expression")
}

fn plain(evaluation: &hclvm::Evaluation) -> String {
    let mut out = String::new();
    evaluation.write_plain_json(&mut out).expect("plain JSON");
    out
}

#[test]
fn bodies_take_the_terraform_json_shape() {
    let cases: &[(&str, &str)] = &[
        ("", "{}"),
        ("a = 1\n", r#"{"a":1}"#),
        ("b {}\nb {}\n", r#"{"b":[{},{}]}"#),
        ("r \"x\" { v = 1 }\nr \"y\" { v = 2 }\nr \"x\" { v = 3 }\n", r#"{"r":{"x":[{"v":1},{"v":3}],"y":[{"v":2}]}}"#),
        ("r \"a\" \"b\" {\n  n {\n    z = true\n  }\n}\n", r#"{"r":{"a":{"b":[{"n":[{"z":true}]}]}}}"#),
        ("z = 1\na = [for i in [3, 1] : i]\n", r#"{"a":[3,1],"z":1}"#),
    ];
    for (src, want) in cases {
        let out_program = Compiled::body(src, &Options::new()).expect("valid body");
        let out = out_program.evaluate(&Variables::new());
        assert_eq!(plain(&out), *want, "{src:?}");
    }
}

#[test]
fn ambiguous_bodies_have_no_single_value() {
    for src in ["a = 1\na {}\n", "r \"x\" {}\nr {}\n", "r {}\nr \"x\" {}\n"] {
        let out_program = Compiled::body(src, &Options::new()).expect("valid body");
        let out = out_program.evaluate(&Variables::new());
        assert!(!out.has_errors(), "{src:?}");
        assert!(matches!(out.to_value(), Err(Error::Shape(_))), "{src:?}");
        // The body itself is still there, block by block.
        assert!(out.body().expect("a body").blocks().len() > 0);
    }
}

#[test]
fn references_decode_as_rendered() {
    // Kept as their result-line JSON, decoded when asked for: keys that
    // need escaping (quotes, backslashes, HTML characters, U+2028, non-ASCII)
    // come back as rendered.
    let src = "r = [a[\"q\\\"b\\\\c\"], a[\"<&>\u{2028}é\"].x, b[1.50], a]\nnone = 1\n";
    let compiled = Compiled::body(src, &Options::new()).expect("valid body");
    let out = compiled.evaluate(&Variables::new());
    let body = out.body().expect("a body");
    let r = body.attributes().find(|a| a.name() == "r").expect("r");
    assert_eq!(r.references(), ["a[\"q\\\"b\\\\c\"]", "a[\"<&>\\u2028é\"].x", "b[1.5]", "a"]);
    assert!(body.attributes().find(|a| a.name() == "none").expect("none").references().is_empty());
}

#[test]
fn body_outcomes_keep_every_attribute_and_block() {
    let src = "top = x\nsvc \"web\" {\n  port = 80 + x\n  bad  = x.nope\n}\n";
    let out_program = Compiled::body(src, &Options::new()).expect("valid body");
    let out = out_program.evaluate(&Variables::new().with("x", Value::int(1)));
    assert!(out.has_errors());
    let body = out.body().expect("a body");
    assert_eq!(body.attributes().map(|a| a.name()).collect::<Vec<_>>(), ["top"]);
    assert_eq!(body.attributes().next().expect("top").references(), ["x"]);
    let svc = body.blocks_of_type("svc").next().expect("svc block");
    assert_eq!(svc.labels().collect::<Vec<_>>(), ["web"]);
    assert_eq!(svc.body().attribute("port").and_then(|o| o.value()).and_then(|v| v.as_number()?.to_i64()), Some(81));
    let bad = svc.body().attribute("bad").expect("bad attribute");
    assert!(bad.value().is_none() && bad.has_errors());
    assert!(!bad.value_unchecked().is_known());
    let err = out.check().unwrap_err().to_string();
    assert!(err.starts_with("input.hcl:4,11-16: Unsupported attribute; "), "{err}");
    let rendered = out.render_diagnostics(false);
    assert!(rendered.contains("  on input.hcl line 4, in svc \"web\":\n"), "{rendered}");
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Tier {
    Free,
    Paid { seats: u32 },
}

#[derive(Deserialize, Debug, PartialEq)]
struct Account {
    name: String,
    tier: Tier,
    limit: Option<f64>,
    tags: BTreeMap<String, String>,
    ids: Vec<i64>,
    pair: (bool, String),
}

#[test]
fn results_deserialize_into_rust_types() {
    let src = r#"{
      name  = "acme"
      tier  = { paid = { seats = 3 } }
      limit = null
      tags  = { env = "prod" }
      ids   = toset([3, 1, 2])
      pair  = [true, "x"]
    }"#;
    let account: Account = expr(src).evaluate(&Variables::new()).deserialize().expect("fits Account");
    assert_eq!(
        account,
        Account {
            name: "acme".into(),
            tier: Tier::Paid { seats: 3 },
            limit: None,
            tags: [("env".to_string(), "prod".to_string())].into(),
            ids: vec![1, 2, 3],
            pair: (true, "x".into()),
        }
    );
    assert_eq!(from_value::<Tier>(&Value::string("free")), Ok(Tier::Free));
    assert_eq!(from_value::<f64>(&Value::int(2)), Ok(2.0));
    assert_eq!(from_value::<f64>(&expr("1/4").evaluate(&Variables::new()).to_value().expect("known")), Ok(0.25));
    assert!(from_value::<i32>(&expr("1/3").evaluate(&Variables::new()).to_value().expect("known")).is_err());
    assert!(from_value::<u8>(&Value::int(-1)).is_err());
    assert!(from_value::<String>(&Value::unknown(Type::String)).is_err());
    let big: u64 = from_value(&expr("18446744073709551615").evaluate(&Variables::new()).to_value().expect("known")).expect("fits u64");
    assert_eq!(big, u64::MAX);
    // Borrowed strings.
    let v = Value::string("borrowed");
    let s: &str = from_value(&v).expect("a string");
    assert_eq!(s, "borrowed");
    // Errors come first.
    assert!(matches!(expr("nope").evaluate(&Variables::new()).deserialize::<String>(), Err(Error::Evaluation(_))));
}

#[test]
fn variables_from_json_and_values() {
    let json = serde_json::json!({"n": 1.5, "s": "é", "l": [1, "a"], "o": {"k": null}});
    let vars = Variables::from_json(&json).expect("an object");
    let program = expr("[n * 2, s, l[1], o.k == null]");
    let out = program.evaluate(&vars);
    assert_eq!(plain(&out), r#"[3,"é","a",true]"#);
    // Implied types: a JSON array is a tuple, unless the typed form says otherwise.
    assert_eq!(vars.get("l").expect("l").ty().to_json_string(), r#"["tuple",["number","string"]]"#);
    let typed = Variables::from_typed_json(&serde_json::json!({"l": {"type": ["list", "string"], "value": ["a"]}})).expect("typed");
    assert_eq!(typed.get("l").expect("l").ty().to_json_string(), r#"["list","string"]"#);
    for bad in ["1", "[]", "{", "{\"a\": 1} x"] {
        assert!(matches!(Variables::from_json_str(bad), Err(Error::Variables(_))), "{bad}");
    }
    let e = Compiled::expression("a", &Options::new()).expect("valid");
    assert!(e.evaluate_json_str(r#"{"a": {"type": "number", "value": "x"}}"#, true).is_err());
    assert_eq!(
        e.evaluate_json_str(r#"{"a": {"type": "number", "value": "x"}}"#, false).map(|o| plain(&o)).ok(),
        Some(r#"{"type":"number","value":"x"}"#.to_string())
    );
}

#[test]
fn declared_variables_decide_what_is_unknown() {
    // Inferred: every referenced root name; a missing one fails at evaluation.
    let inferred = Compiled::expression("alpha + beta", &Options::new()).expect("valid");
    assert_eq!(inferred.variable_names().collect::<Vec<_>>(), ["alpha", "beta"]);
    let out = inferred.evaluate(&Variables::new().with("alpha", Value::int(1)));
    assert_eq!(out.diagnostics()[0].detail, "There is no variable named \"beta\".");
    // Declared: other names are unknown, with a suggestion among the declared.
    let declared = Compiled::expression("alpha + bet", &Options::new().variables(["alpha", "beta"])).expect("valid");
    let vars = Variables::new().with("alpha", Value::int(1)).with("beta", Value::int(2)).with("bet", Value::int(3));
    let out = declared.evaluate(&vars);
    assert_eq!(out.diagnostics()[0].detail, "There is no variable named \"bet\". Did you mean \"beta\"?");
}

#[test]
fn function_choices() {
    let call = "upper(\"x\")";
    let none_program = Compiled::expression(call, &Options::new().without_functions()).expect("valid");
    let none = none_program.evaluate(&Variables::new());
    assert_eq!(none.diagnostics()[0].summary, "Function calls not allowed");
    let empty_program = Compiled::expression(call, &Options::new().functions(Functions::empty())).expect("valid");
    let empty = empty_program.evaluate(&Variables::new());
    assert_eq!(empty.diagnostics()[0].summary, "Call to unknown function");
    // try and can are functions of the stdlib table (hcl's ext/tryfunc):
    // an empty table has neither, as the reference's "funcs":"none" cases.
    let guarded = "try(nope, 7)";
    let empty_program = Compiled::expression(guarded, &Options::new().functions(Functions::empty())).expect("valid");
    let empty = empty_program.evaluate(&Variables::new());
    assert_eq!(empty.diagnostics()[0].summary, "Call to unknown function");
    assert_eq!(empty.diagnostics()[0].detail, "There is no function named \"try\".");
    let can_program = Compiled::expression("can(1)", &Options::new().functions(Functions::empty())).expect("valid");
    let can = can_program.evaluate(&Variables::new());
    assert_eq!(can.diagnostics()[0].detail, "There is no function named \"can\".");
    let mut table = Functions::empty();
    table.add_try_can().expect("an empty table has no try");
    assert!(table.add_try_can().is_err(), "twice");
    let with_try = Compiled::expression(guarded, &Options::new().functions(table)).expect("valid");
    assert_eq!(with_try.evaluate(&Variables::new()).value().and_then(|v| v.as_number()?.to_i64()), Some(7));
    let stdlib = Compiled::expression(guarded, &Options::new().functions(Functions::stdlib())).expect("valid");
    assert_eq!(stdlib.evaluate(&Variables::new()).value().and_then(|v| v.as_number()?.to_i64()), Some(7));
    // A table with try and can cannot register functions of those names.
    let mut stdlib = Functions::stdlib();
    let def = FunctionDef::with_static_type(
        "try",
        Signature { params: vec![], var_param: None, pure: true },
        Type::Number,
        Arc::new(|_, _, _| Ok(Value::int(1))),
    );
    assert!(stdlib.register(def).is_err());
}

#[test]
fn host_functions_may_evaluate_other_programs() {
    // A host function that itself evaluates a compiled expression: the
    // per-thread scratch is busy, so the inner evaluation gets its own.
    let inner = Arc::new(Compiled::expression("n * 10", &Options::new()).expect("valid"));
    let mut table = Functions::stdlib();
    let nested = inner.clone();
    table
        .register(FunctionDef::with_static_type(
            "tenfold",
            Signature { params: vec![Param::new("n", Type::Number)], var_param: None, pure: false },
            Type::Number,
            Arc::new(move |args, _ty, _ctx| {
                let n = args.first().cloned().unwrap_or_else(|| Value::int(0));
                let out = nested.evaluate(&Variables::new().with("n", n));
                out.value().cloned().ok_or_else(|| FnError::new("inner evaluation failed"))
            }),
        ))
        .expect("new name");
    let outer = Compiled::expression("tenfold(4) + tenfold(1)", &Options::new().functions(table)).expect("valid");
    assert_eq!(outer.evaluate(&Variables::new()).value().and_then(|v| v.as_number()?.to_i64()), Some(50));
}

#[test]
fn limits_stop_runaway_evaluations() {
    let heavy = "[for i in range(1000) : [for j in range(1000) : i * j]]";
    let out_program = Compiled::expression(heavy, &Options::new().max_steps(10_000)).expect("valid");
    let out = out_program.evaluate(&Variables::new());
    assert_eq!(out.diagnostics()[0].summary, "Evaluation limit exceeded");
    let big = "join(\"\", [for i in range(1000) : \"0123456789\"])";
    let out_program = Compiled::expression(big, &Options::new().max_size(1_000)).expect("valid");
    let out = out_program.evaluate(&Variables::new());
    assert!(out.has_errors());
    let unlimited = Compiled::expression(big, &Options::new()).expect("valid");
    assert!(!unlimited.evaluate(&Variables::new()).has_errors());
}

#[test]
fn one_compiled_program_many_threads() {
    let compiled = Compiled::template("%{ for i in range(n) }${i}%{ endfor }", &Options::new()).expect("valid");
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..4)
            .map(|t| {
                let compiled = &compiled;
                scope.spawn(move || {
                    (0..200).all(|k| {
                        let n = (t * 7 + k) % 12;
                        let want: String = (0..n).map(|i| i.to_string()).collect();
                        compiled.evaluate(&Variables::new().with("n", Value::int(n))).value().and_then(|v| v.as_str().map(str::to_string))
                            == Some(want)
                    })
                })
            })
            .collect();
        assert!(handles.into_iter().all(|h| h.join().expect("no panic")));
    });
}

#[test]
fn syntax_errors_and_warnings() {
    let err = Compiled::compile(SourceKind::Body, b"a = \n", &Options::new().filename("main.hcl")).unwrap_err();
    let Error::Compile(diags) = err else { panic!("not a compile error") };
    assert!(diags.has_errors());
    assert_eq!(diags.filename(), "main.hcl");
    assert!(diags.render(false).starts_with("Error: "));
    assert!(Compiled::compile(SourceKind::Body, &[0xff, 0xfe], &Options::new()).is_err());
}

/// Every conformance case that the API can express (all but the
/// `"funcs": "none"` table, which lacks `try`/`can`) gives the same result
/// line through an `Evaluation` (`Compiled::evaluate`, then
/// `write_result_json`) as through the conformance runner, which writes
/// results while it evaluates (as `hclvm batch` does).
#[test]
fn api_results_agree_with_the_conformance_runner() {
    // Deep cases recurse; give them the CLI's stack.
    let worker = std::thread::Builder::new().stack_size(256 << 20).spawn(compare_all_cases).expect("thread");
    let (compared, parse_failures) = worker.join().expect("no panic");
    assert!(compared > 2000, "{compared} cases compared");
    assert!(parse_failures > 100, "{parse_failures} parse failures");
}

fn compare_all_cases() -> (usize, usize) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/conformance/cases");
    let (mut compared, mut parse_failures) = (0, 0);
    let mut files: Vec<_> = std::fs::read_dir(&dir).expect("cases dir").filter_map(|e| e.ok()).map(|e| e.path()).collect();
    files.sort();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("cases file");
        for (no, line) in text.lines().enumerate() {
            let Ok(case) = decode_case(line.as_bytes()) else { continue };
            let Ok(bindings) = bind_values(&case) else { continue };
            let options = match case.funcs {
                FuncTable::Stdlib => Options::new(),
                FuncTable::Nil => Options::new().without_functions(),
                FuncTable::None | FuncTable::Packer => continue,
            };
            let options = options.variables(bindings.iter().map(|(n, _)| n.clone()));
            let kind = match case.mode {
                Mode::Expr => SourceKind::Expression,
                Mode::Template => SourceKind::Template,
                Mode::Body => SourceKind::Body,
            };
            let runner = run_line(line.as_bytes(), no + 1);
            match Compiled::compile(kind, &case.src, &options) {
                Err(Error::Compile(_)) => {
                    assert!(runner.contains("\"phase\":\"parse\"") || runner.contains("\"phase\":\"panic\""), "{}: {runner}", case.id);
                    parse_failures += 1;
                }
                Err(e) => panic!("{}: {e}", case.id),
                Ok(compiled) => {
                    let vars: Variables = bindings.into_iter().collect();
                    let mut ours = String::new();
                    compiled.evaluate(&vars).write_result_json(&mut ours);
                    let mut prefix = String::from("{\"id\":");
                    hclvm::runtime::strings::write_json_string(&mut prefix, &case.id);
                    prefix.push(',');
                    let theirs = runner.strip_prefix(&prefix).map(|rest| format!("{{{rest}")).unwrap_or_default();
                    assert_eq!(ours, theirs, "{} in {}", case.id, file.display());
                    compared += 1;
                }
            }
        }
    }
    (compared, parse_failures)
}

/// A missing variable is reported as hcl reports it for a context holding
/// exactly the supplied variables: the suggestion considers every supplied
/// name and the `for` iterators in scope.
#[test]
fn missing_variables_get_the_references_suggestions() {
    let src = "x = reqest\ny = [for item in xs : itme]\nz = xs[0]\n";
    let config = Compiled::body(src, &Options::new()).expect("valid");
    let out = config.evaluate_json(&serde_json::json!({"xs": [1], "request": 1})).expect("object");
    let details: Vec<&str> = out.diagnostics().iter().map(|d| d.detail.as_str()).collect();
    assert_eq!(
        details,
        ["There is no variable named \"reqest\". Did you mean \"request\"?", "There is no variable named \"itme\". Did you mean \"item\"?"]
    );
    let body = out.body().expect("body");
    assert_eq!(body.attribute("z").and_then(|o| o.value()).and_then(|v| v.as_number()?.to_i64()), Some(1));
    // The same evaluation from Variables; and with other variables, other
    // suggestions.
    let vars = Variables::new().with("xs", Value::tuple(vec![Value::int(1)])).with("request", Value::int(1));
    assert_eq!(config.evaluate(&vars).diagnostics().len(), 2);
    let out = config.evaluate(&Variables::new().with("xs", Value::tuple(vec![Value::int(2)])).with("reqests", Value::int(1)));
    let details: Vec<&str> = out.diagnostics().iter().map(|d| d.detail.as_str()).collect();
    assert_eq!(
        details,
        ["There is no variable named \"reqest\". Did you mean \"reqests\"?", "There is no variable named \"itme\". Did you mean \"item\"?"]
    );
    // A declared name nothing supplies is not suggested.
    let declared = Compiled::expression("[nmae, nme]", &Options::new().variables(["name", "nme"])).expect("valid");
    let out = declared.evaluate(&Variables::new().with("nme", Value::int(1)));
    assert_eq!(out.diagnostics()[0].detail, "There is no variable named \"nmae\". Did you mean \"nme\"?");
    let out = declared.evaluate(&Variables::new().with("name", Value::int(1)).with("nme", Value::int(1)));
    assert_eq!(out.diagnostics()[0].detail, "There is no variable named \"nmae\". Did you mean \"name\"?");
    // Declared names: only those count, even when more are supplied.
    let declared = Compiled::expression("reqest", &Options::new().variables(["request", "reqest"])).expect("valid");
    let out = declared.evaluate(&Variables::new().with("request", Value::int(1)).with("reqests", Value::int(2)));
    assert_eq!(out.diagnostics()[0].detail, "There is no variable named \"reqest\". Did you mean \"request\"?");
}

/// A host function counting its calls.
fn counting(name: &str, pure: bool, calls: Arc<std::sync::atomic::AtomicUsize>) -> FunctionDef {
    let sig = Signature { params: vec![Param::new("x", Type::Number)], var_param: None, pure };
    FunctionDef::with_static_type(
        name,
        sig,
        Type::Number,
        Arc::new(move |args, _, _| {
            calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            Ok(args[0].clone())
        }),
    )
}

#[test]
fn pure_host_calls_with_invariant_arguments_run_once_per_evaluation_in_loops() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let pure_calls = Arc::new(AtomicUsize::new(0));
    let impure_calls = Arc::new(AtomicUsize::new(0));
    let mut table = Functions::stdlib();
    table.register(counting("pure_id", true, pure_calls.clone())).expect("registers");
    table.register(counting("impure_id", false, impure_calls.clone())).expect("registers");
    let options = Options::new().functions(table);
    let src = "[for x in [1, 2, 3] : pure_id(n) + impure_id(n) + pure_id(x)]";
    let compiled = Compiled::expression(src, &options).expect("valid");
    let mut vars = Variables::new();
    vars.set("n", Value::int(10));
    for round in 1..=2 {
        let out = compiled.evaluate(&vars);
        assert_eq!(plain(&out), "[21,22,23]");
        // pure_id(n): once per evaluation; pure_id(x) depends on the
        // iterator: three times; impure_id(n): three times.
        assert_eq!(pure_calls.load(Ordering::Relaxed), round * 4, "round {round}");
        assert_eq!(impure_calls.load(Ordering::Relaxed), round * 3, "round {round}");
    }
}

#[test]
fn a_host_function_named_try_is_an_ordinary_function_in_a_table_without_try() {
    let calls = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let mut table = Functions::empty();
    table.register(counting("try", false, calls.clone())).expect("no built-in try in an empty table");
    let out_program = Compiled::expression("try(5)", &Options::new().functions(table)).expect("valid");
    let out = out_program.evaluate(&Variables::new());
    assert_eq!(plain(&out), "5");
    assert_eq!(calls.load(std::sync::atomic::Ordering::Relaxed), 1);
}

/// A host function of one string argument that returns it changed by `f`.
fn string_fn(name: &str, f: fn(&str) -> String) -> FunctionDef {
    let sig = Signature { params: vec![Param::new("s", Type::String)], var_param: None, pure: true };
    FunctionDef::with_static_type(
        name,
        sig,
        Type::String,
        Arc::new(move |args, _, _| Ok(Value::string(&f(args[0].as_str().unwrap_or_default())))),
    )
}

/// A table with functions under namespaced names, as Terraform registers
/// provider functions (`provider::NAME::FUNC`) and its own (`core::`).
fn namespaced_table() -> Functions {
    let mut table = Functions::stdlib();
    table
        .register(string_fn("provider::aws::arn_service", |arn| arn.split(':').nth(2).unwrap_or_default().to_string()))
        .expect("registers");
    table.register(string_fn("core::upper", |s| format!("core {}", s.to_uppercase()))).expect("registers");
    table.register(string_fn("a::b", |s| s.to_string())).expect("registers");
    table
}

fn first_detail(src: &str, options: &Options) -> String {
    let out_program = Compiled::expression(src, options).expect("valid");
    let out = out_program.evaluate(&Variables::new().with("arn", "arn:aws:s3:::bucket"));
    out.diagnostics().first().map(|d| format!("{}: {}", d.summary, d.detail)).unwrap_or_else(|| plain(&out))
}

#[test]
fn host_functions_under_namespaced_names() {
    let options = Options::new().functions(namespaced_table());
    let cases = [
        // Registered names are called like any other, whatever separates the parts.
        ("provider::aws::arn_service(arn)", r#""s3""#),
        ("provider :: aws :: arn_service (arn)", r#""s3""#),
        ("[provider::aws::arn_service(arn), core::upper(\"x\"), upper(\"x\")]", r#"["s3","core X","X"]"#),
        // A name the table lacks is judged by its namespace: the rules look
        // at the functions actually registered.
        ("provider::gcp::f(1)", r#"Call to unknown function: There are no functions in namespace "provider::gcp::"."#),
        (
            "provider::aws::arn_sevrice(arn)",
            r#"Call to unknown function: There is no function named "arn_sevrice" in namespace provider::aws::."#,
        ),
        ("provider::aws(1)", r#"Call to unknown function: There is no function named "aws" in namespace provider::."#),
        ("core::lower(\"x\")", r#"Call to unknown function: There is no function named "lower" in namespace core::."#),
        ("upper::x()", r#"Call to unknown function: There are no functions in namespace "upper::"."#),
        // hcl compares the last part of the name with the full names of the
        // namespace's functions, and writes the suggestion after the
        // namespace: only very short names ever get one.
        ("a::ab(1)", r#"Call to unknown function: There is no function named "ab" in namespace a::. Did you mean a::a::b?"#),
        // The body of a `for` runs in a child context, which lists no
        // functions for these rules.
        ("[for x in [1] : a::ab(x)]", r#"Call to unknown function: There are no functions in namespace "a::"."#),
        ("[for x in [1] : provider::aws::arn_service(arn)]", r#"["s3"]"#),
    ];
    for (src, want) in cases {
        assert_eq!(first_detail(src, &options), want, "{src}");
    }
    // So does a splat's `each` while the splat probes the type of its
    // items (an unknown or empty source), and only then.
    let probe = Compiled::expression("u[*][a::ab(1)]", &options).expect("valid");
    let detail = |u: Value| probe.evaluate(&Variables::new().with("u", u)).diagnostics()[0].detail.clone();
    assert_eq!(detail(Value::unknown(Type::list(Type::list(Type::Number)))), r#"There are no functions in namespace "a::"."#);
    assert_eq!(
        detail(Value::list(vec![Value::list(vec![Value::int(1)]).expect("list")]).expect("list")),
        r#"There is no function named "ab" in namespace a::. Did you mean a::a::b?"#
    );
    // Without any function with that namespace, as in the reference's stdlib table.
    assert_eq!(
        first_detail("core::upper(\"a\")", &Options::new()),
        r#"Call to unknown function: There are no functions in namespace "core::"."#
    );
    assert_eq!(
        first_detail("core::upper(\"a\")", &Options::new().without_functions()),
        "Function calls not allowed: Functions may not be called here."
    );
}

#[test]
fn namespaced_names_register_only_when_every_part_is_an_identifier() {
    for bad in ["a::", "::a", "a::::b", "a:::b", "a:b", "a::1b", "a:: b", "a::b::"] {
        let mut table = Functions::empty();
        assert!(table.register(string_fn(bad, |s| s.to_string())).is_err(), "{bad:?}");
    }
    let mut table = Functions::empty();
    for good in ["a::b", "provider::aws-x::arn_parse", "x_1::y-2::z"] {
        assert!(table.register(string_fn(good, |s| s.to_string())).is_ok(), "{good:?}");
    }
}

#[test]
fn malformed_selectors_are_syntax_errors() {
    for (src, summary) in [("a::b", "Missing open parenthesis"), ("a::1()", "Missing function name"), ("-a::b", "Missing open parenthesis")]
    {
        match Compiled::expression(src, &Options::new().functions(namespaced_table())) {
            Err(Error::Compile(diags)) => assert_eq!(diags.as_slice()[0].summary, summary, "{src}"),
            other => panic!("{src}: {:?}", other.map(|_| ())),
        }
    }
}

#[test]
fn unknown_results_carry_their_refinements() {
    use hclvm::runtime::value::Facts;
    let program = Compiled::expression(r#"["https://${host}", length(ports)]"#, &Options::new()).expect("compiles");
    let vars = Variables::new().with("host", Value::unknown(Type::String)).with("ports", Value::unknown(Type::list(Type::Number)));
    let out = program.evaluate(&vars);
    let value = out.value().expect("a value");
    let Value::Unknown(host) = value.index(0).expect("element 0") else { panic!("an unknown") };
    let refinement = host.refinement().expect("refined");
    assert!(refinement.not_null);
    assert!(matches!(&refinement.facts, Facts::String { prefix } if &**prefix == "https://"));
    let Value::Unknown(len) = value.index(1).expect("element 1") else { panic!("an unknown") };
    match &len.refinement().expect("refined").facts {
        Facts::Number { lower: Some(lo), upper: Some(hi) } => {
            assert!(lo.inclusive && lo.value.to_i64() == Some(0));
            assert!(hi.inclusive && hi.value.to_i64() == Some(i64::MAX));
        }
        other => panic!("number bounds expected, got {other:?}"),
    }
}

/// A body without blocks is written straight to JSON (no object built);
/// the text must be the one the natural value gives, whatever the names'
/// order, the values or the escapes.
/// `write_plain_json` of `src` against writing the built natural value:
/// the same text, or the same error.
fn plain_json_both_ways(src: &str, vars: &Variables) -> (Result<String, String>, Result<String, String>) {
    let body = Compiled::compile(SourceKind::Body, src.as_bytes(), &Options::new()).expect("compiles");
    let out = body.evaluate(vars);
    let mut direct = String::new();
    let direct = out.write_plain_json(&mut direct).map(|()| direct).map_err(|e| e.to_string());
    let via_value = out.to_value().map_err(|e| e.to_string()).and_then(|v| {
        let mut text = String::new();
        runtime::json::write_value(&mut text, &v).map(|()| text).map_err(|e| e.to_string())
    });
    (direct, via_value)
}

#[test]
fn flat_body_json_is_the_natural_values_json() {
    let src = "zeta = 1\nalpha = \"a\\\"b\\n\"\nmid = [1, 2.5, null]\nobj = { k = true }\nu = x\nbig = 12345678901234567890\n";
    let (direct, via_value) = plain_json_both_ways(src, &Variables::new().with("x", Value::unknown(Type::String)));
    assert_eq!(direct, via_value);
    assert!(direct.expect("writes").starts_with("{\"alpha\":"));
}

#[test]
fn block_body_json_is_the_natural_values_json() {
    // Written without building the value: blocks grouped by type and
    // label, members by name, bodies in source order; and where the value
    // cannot be built (or names are not ASCII), the built value's path.
    let cases: &[(&str, bool)] = &[
        ("r \"x\" { v = 1 }\nr \"y\" { v = 2 }\nr \"x\" { v = 3 }\na = 0\nz = 9\n", true),
        ("b {}\nb { q = 1 }\nb {}\nc \"k\" {}\n", true),
        ("t \"b\" \"2\" { n = 1 }\nt \"a\" \"9\" { n = 2 }\nt \"b\" \"1\" { n = 3 }\nt \"a\" \"9\" { n = 4 }\n", true),
        // Label counts that differ under different first labels nest fine.
        ("t \"a\" { n = 1 }\nt \"b\" \"c\" { n = 2 }\nt \"ab\" { n = 3 }\n", true),
        ("outer \"o\" {\n  inner \"i\" {\n    deep {\n      x = [1, {y = \"z\"}]\n    }\n  }\n  inner \"h\" {}\n  w = 2\n}\nm = 1\n", true),
        ("x_ = 1\nx \"-\" {}\nx \"\" {}\nx \"\\n\\\"\" {}\n", true),
        // Not nestable: one block's labels begin another's.
        ("t \"a\" { n = 1 }\nt \"a\" \"b\" { n = 2 }\n", false),
        ("t { n = 1 }\nt \"a\" {}\n", false),
        ("u \"x\" {}\nt \"a\" \"b\" \"c\" {}\nt \"a\" {}\nt \"a\" \"b\" {}\n", false),
        ("o \"p\" {\n  t \"a\" {}\n  t {}\n}\n", false),
        // An attribute and a block type of one name.
        ("t = 1\nt {}\n", false),
        ("o {\n  t = 1\n  t {}\n}\nz \"a\" {}\nz {}\n", false),
        // Names the object normalizes (NFC): written from the value.
        ("r \"e\\u0301\" { v = 1 }\nr \"\\u00e9\" { v = 2 }\n", true),
        ("caf\u{e9} { v = 1 }\n", true),
    ];
    for &(src, ok) in cases {
        let (direct, via_value) = plain_json_both_ways(src, &Variables::new());
        assert_eq!(direct, via_value, "{src:?}");
        assert_eq!(direct.is_ok(), ok, "{src:?}: {direct:?}");
    }
    // Many blocks of shuffled labels, some sharing them.
    let mut src = String::new();
    for i in 0..500u32 {
        let k = i.wrapping_mul(7919) % 131;
        src.push_str(&format!("b \"l{}\" \"m{}\" {{ i = {i} }}\nc \"{}\" {{}}\nk{i} = {k}\n", k % 17, k % 5, k % 3));
    }
    let (direct, via_value) = plain_json_both_ways(&src, &Variables::new());
    assert_eq!(direct, via_value);
    assert!(direct.is_ok());
}

#[test]
fn compiling_patterns_is_charged_to_the_size_budget() {
    // Each pattern is new, and compiled: its compiled size (about a
    // megabyte for 50 letter classes) comes out of the size budget, so a
    // loop of new patterns ends; the step budget does not count compiling.
    let many = "length([for i in range(100) : can(regex(\"\\\\pL{50}${i}\", \"x\"))])";
    let program = Compiled::expression(many, &Options::new().max_size(8 << 20)).expect("valid");
    let out = program.evaluate(&Variables::new());
    assert_eq!(out.diagnostics()[0].summary, "Evaluation limit exceeded");
    assert!(out.diagnostics()[0].detail.contains("compiled pattern is too large"), "{}", out.diagnostics()[0].detail);
    // One pattern, compiled once, matched many times, costs its size once.
    let one = "length([for i in range(100) : can(regex(\"\\\\pL{50}\", \"x${i}\"))])";
    let program = Compiled::expression(one, &Options::new().max_size(8 << 20)).expect("valid");
    assert_eq!(program.evaluate(&Variables::new()).value().and_then(|v| v.as_number()?.to_i64()), Some(100));
}

#[test]
fn work_a_result_does_not_show_counts_against_the_step_budget() {
    // `contains` compares up to every element each time: a loop over a
    // long list that searches it does quadratic work with small results.
    let search = "length([for x in range(1000) : x if contains(range(1000), 999)])";
    let program = Compiled::expression(search, &Options::new().max_steps(200_000)).expect("valid");
    let out = program.evaluate(&Variables::new());
    assert_eq!(out.diagnostics()[0].summary, "Evaluation limit exceeded");
    // The same loop finding its element at once stays within the budget.
    let found = "length([for x in range(1000) : x if contains(range(1000), 0)])";
    let program = Compiled::expression(found, &Options::new().max_steps(200_000)).expect("valid");
    assert_eq!(program.evaluate(&Variables::new()).value().and_then(|v| v.as_number()?.to_i64()), Some(1000));
}

#[test]
fn comparing_collections_counts_against_the_step_budget() {
    // `==` on two long lists compares element by element: in a loop, the
    // work grows with the square of the length while each `==` is one step.
    let same = "length([for x in range(1000) : x if range(1000) == range(1000)])";
    let program = Compiled::expression(same, &Options::new().max_steps(200_000)).expect("valid");
    assert_eq!(program.evaluate(&Variables::new()).diagnostics()[0].summary, "Evaluation limit exceeded");
    // Lists that differ in their first element are told apart at once.
    let differ = "length([for x in range(1000) : x if range(1000) == range(1, 1001)])";
    let program = Compiled::expression(differ, &Options::new().max_steps(200_000)).expect("valid");
    assert_eq!(program.evaluate(&Variables::new()).value().and_then(|v| v.as_number()?.to_i64()), Some(0));
}

#[test]
fn random_block_bodies_write_the_natural_values_json() {
    // Bodies of random blocks (a few types and labels, label counts that
    // differ, nesting, attributes named like types): written directly,
    // the text or error is the built value's.
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let names = ["a", "b", "c", "ab", "b_"];
    let labels = ["x", "y", "", "x y", "\\\"q\\\""];
    let mut outcomes = [0usize; 2];
    for _ in 0..400 {
        let mut src = String::new();
        fn body(src: &mut String, depth: usize, next: &mut dyn FnMut(u64) -> u64, names: &[&str], labels: &[&str]) {
            for _ in 0..next(6) {
                let name = names[next(names.len() as u64) as usize];
                if next(4) == 0 {
                    src.push_str(&format!("{name} = {}\n", next(100)));
                    continue;
                }
                src.push_str(name);
                // Mostly one label count per type, sometimes another.
                let count = if next(5) == 0 { next(3) } else { name.len() as u64 % 3 };
                for _ in 0..count {
                    src.push_str(&format!(" \"{}\"", labels[next(labels.len() as u64) as usize]));
                }
                src.push_str(" {\n");
                if depth < 2 {
                    body(src, depth + 1, next, names, labels);
                }
                src.push_str(&format!("v = {}\n}}\n", next(10)));
            }
        }
        body(&mut src, 0, &mut next, &names, &labels);
        let Ok(compiled) = Compiled::compile(SourceKind::Body, src.as_bytes(), &Options::new()) else { continue };
        drop(compiled);
        let (direct, via_value) = plain_json_both_ways(&src, &Variables::new());
        assert_eq!(direct, via_value, "{src}");
        outcomes[usize::from(direct.is_ok())] += 1;
    }
    // Both kinds of outcome were tried.
    assert!(outcomes[0] > 20 && outcomes[1] > 20, "{outcomes:?}");
}

#[test]
fn folded_objects_of_one_shape_share_their_type() {
    // A literal list of objects is folded at compile time; objects of one
    // type (nested ones included, alternating with their parents) hold
    // one type between them, and equal the objects built one by one.
    let src = r#"[{ n = "a", i = 1, t = { e = "p" } }, { i = 2, n = "b", t = { e = "q" } }, { n = "c", i = 3, t = { e = 1 } }, { n = null, i = 4 }]"#;
    let list = expr(src).evaluate(&Variables::new()).to_value().expect("a value");
    let elements: Vec<Value> = (0..4).map(|i| list.index(i).expect("an element").clone()).collect();
    let object_type = |v: &Value| match v {
        Value::Object(o) => o.object_type().clone(),
        other => panic!("not an object: {other:?}"),
    };
    let types: Vec<_> = elements.iter().map(object_type).collect();
    assert!(Arc::ptr_eq(&types[0], &types[1]), "same shape, one type");
    assert!(!Arc::ptr_eq(&types[0], &types[2]) && *types[0] != *types[2], "t.e differs in type");
    assert!(*types[0] != *types[3]);
    let inner = |v: &Value| object_type(v.get_attr("t").expect("t"));
    assert!(Arc::ptr_eq(&inner(&elements[0]), &inner(&elements[1])));
    for (i, element) in elements.iter().enumerate() {
        let one = expr(&format!("{src}[{i}]")).evaluate(&Variables::new()).to_value().expect("a value");
        assert_eq!(element, &one, "element {i}");
        assert_eq!(element.ty(), one.ty());
    }
}

#[test]
fn a_block_of_many_labels_writes_its_plain_json_on_a_small_stack() {
    // One object level per label: the writer recurses label by label, on
    // stack segments of its own where this thread's runs short.
    let labels: Vec<String> = (0..100_000).map(|i| format!("\"l{i}\"")).collect();
    let src = format!("b {} {{\n  a = 1\n}}\n", labels.join(" "));
    let run = move || {
        let (direct, via_value) = plain_json_both_ways(&src, &Variables::new());
        let direct = direct.expect("writes");
        assert!(direct.starts_with("{\"b\":{\"l0\":{\"l1\":{"), "{}", &direct[..60]);
        assert!(direct.ends_with(&format!("{{\"l99999\":[{{\"a\":1}}]{}", "}".repeat(100_001))), "{}", &direct[direct.len() - 60..]);
        assert_eq!(Ok(direct), via_value);
    };
    std::thread::Builder::new().stack_size(256 << 10).spawn(run).expect("a thread").join().expect("no overflow");
}
