//! Declared variable types (`Options::declare`), validation without
//! inputs (`Compiled::validate`), and the `--declare`/`--declarations`
//! flags of the CLI. The reference's results for declarations are pinned
//! by the rows of `tests/data/rows/cases/declare.jsonl` (tests/conformance.rs).

mod support;

use hclvm::{Compiled, Error, Options, SourceKind, Type, Value, Variables};
use support::{assert_exit, hclvm, scratch_arg as scratch, text};

const REQUEST: &str = "object({user = string, amount = number, currency = optional(string, \"USD\"), tags = optional(map(string), {})})";

fn result_line(e: &hclvm::Evaluation) -> String {
    let mut s = String::new();
    e.write_result_json(&mut s);
    s
}

#[test]
fn given_values_get_defaults_and_are_converted() {
    let options = Options::new().declare("request", REQUEST);
    let e = Compiled::expression("[request.amount, request.currency, length(request.tags)]", &options).unwrap();
    let out = e.evaluate_json(&serde_json::json!({"request": {"user": "ann", "amount": "12.5"}})).unwrap();
    assert_eq!(result_line(&out), r#"{"ok":true,"type":["tuple",["number","string","number"]],"value":[12.5,"USD",0]}"#);
    // Bound once, evaluated many times: the conversion happens when binding.
    let vars = Variables::from_json_str(r#"{"request": {"user": "bob", "amount": 3, "currency": "EUR"}}"#).unwrap();
    let bound = e.bind(&vars);
    for _ in 0..2 {
        assert_eq!(
            result_line(&e.evaluate_bound(&bound)),
            r#"{"ok":true,"type":["tuple",["number","string","number"]],"value":[3,"EUR",0]}"#
        );
    }
}

#[test]
fn values_that_do_not_fit_are_rejected_per_variable() {
    let options = Options::new().declarations([("a", "number"), ("b", "list(object({n = number}))"), ("c", "string")]);
    let e = Compiled::body("x = a\ny = b\n", &options).unwrap();
    let out = e.evaluate_json(&serde_json::json!({"a": "one", "b": [{"n": 1}, {"n": "two"}], "c": "fine"})).unwrap();
    assert!(out.has_errors() && out.body().is_none() && out.value().is_none());
    let details: Vec<&str> = out.diagnostics().iter().map(|d| d.detail.as_str()).collect();
    assert_eq!(
        details,
        [
            "The value for variable \"a\" is not suitable: a number is required.",
            "The value for variable \"b\" is not suitable: [1].n: a number is required.",
        ]
    );
    assert!(out.diagnostics().iter().all(|d| d.subject.is_none() && d.summary == "Invalid value for variable"));
    let Err(Error::InvalidVariables(diags)) = out.check() else { panic!("not InvalidVariables") };
    assert_eq!(diags.as_slice().len(), 2);
    assert!(matches!(out.to_value(), Err(Error::InvalidVariables(_))));
    assert!(result_line(&out).starts_with(r#"{"ok":false,"phase":"vars","diags":[{"severity":"error","summary":"Invalid value"#));
    // Map keys in paths are quoted as Go quotes them.
    let e = Compiled::expression("m", &Options::new().declare("m", "map(number)")).unwrap();
    let out = e.evaluate_json(&serde_json::json!({"m": {"a\u{1}": "x"}})).unwrap();
    assert_eq!(out.diagnostics()[0].detail, "The value for variable \"m\" is not suitable: [\"a\\x01\"]: a number is required.");
}

#[test]
fn declared_variables_not_given_are_unknowns_of_their_types() {
    let options = Options::new().declare("request", REQUEST);
    let e = Compiled::expression("request", &options).unwrap();
    let out = e.evaluate(&Variables::new());
    let v = out.value().unwrap();
    assert!(!v.is_known());
    assert_eq!(
        v.ty().to_json_string(),
        r#"["object",{"amount":"number","currency":"string","tags":["map","string"],"user":"string"},["currency","tags"]]"#
    );
    let e = Compiled::expression("request.amount * 2 > 10", &options).unwrap();
    assert_eq!(
        result_line(&e.evaluate(&Variables::new())),
        r#"{"ok":true,"type":"bool","value":{"$unknown":true,"refined":{"not_null":true}},"known":false}"#
    );
}

#[test]
fn declarations_declare_the_names() {
    let options = Options::new().declare("request", REQUEST);
    let e = Compiled::expression("requst.user", &options).unwrap();
    assert_eq!(e.variable_names().collect::<Vec<_>>(), ["request"]);
    let out = e.evaluate(&Variables::new().with("requst", Value::string("x")));
    assert_eq!(out.diagnostics()[0].detail, "There is no variable named \"requst\". Did you mean \"request\"?");
    // With names given too, both kinds are variables.
    let e = Compiled::expression("[untyped, request.user]", &options.clone().variables(["untyped"])).unwrap();
    assert_eq!(e.variable_names().collect::<Vec<_>>(), ["request", "untyped"]);
    let out = e.evaluate_json(&serde_json::json!({"untyped": [1], "request": {"user": 7, "amount": 1}})).unwrap();
    assert_eq!(result_line(&out), r#"{"ok":true,"type":["tuple",[["tuple",["number"]],"string"]],"value":[[1],"7"]}"#);
}

#[test]
fn invalid_constraints_fail_compilation_with_every_declaration_s_errors() {
    let options = Options::new().declarations([("b", "lst(string)"), ("a", "object({x = optional(number, \"n\")})"), ("c", "number")]);
    let Err(Error::Declaration(list)) = Compiled::expression("1", &options) else { panic!("not a declaration error") };
    let files: Vec<&str> = list.iter().map(|d| d.filename()).collect();
    assert_eq!(files, ["declare.a", "declare.b"]);
    assert_eq!(list[0].as_slice()[0].summary, "Invalid default value for optional attribute");
    assert_eq!(list[1].as_slice()[0].detail, "Keyword \"lst\" is not a valid type constructor.");
    let err = Error::Declaration(list);
    assert!(err.to_string().starts_with("declare.a:1,30-33: Invalid default value for optional attribute; "), "{err}");
    assert!(err.to_string().ends_with("; and 1 other declaration with errors"), "{err}");
    // Declarations are read before the source.
    let Err(Error::Declaration(_)) = Compiled::expression("1 +", &options) else { panic!("syntax errors came first") };
}

#[test]
fn validate_reports_what_fails_for_every_input() {
    let options = Options::new().declare("request", REQUEST);
    let src = r#"
limit  = request.ammount <= 1000
owner  = lookup(request.tags, "owner")
names  = [for k, v in request.tags : uper(v)]
guard  = try(request.nope, nope(1), "default")
fine   = request.amount > 10 ? "big" : request.currency
"#;
    let policy = Compiled::body(src, &options).unwrap();
    let found = policy.validate();
    let got: Vec<(&str, &str)> = found.as_slice().iter().map(|d| (&*d.summary, d.detail.as_str())).collect();
    assert_eq!(
        got,
        [
            ("Unsupported attribute", "This object does not have an attribute named \"ammount\"."),
            ("Not enough function arguments", "Function \"lookup\" expects 3 argument(s). Missing value for \"default\"."),
            ("Call to unknown function", "There is no function named \"uper\"."),
        ]
    );
    assert!(found.has_errors());
    assert!(found.render(false).contains("  on input.hcl line 2:\n"));
    // A valid program: nothing, whatever the inputs.
    let ok = Compiled::body("fine = request.amount > 10 ? \"big\" : request.currency\n", &options).unwrap();
    assert!(ok.validate().as_slice().is_empty());
    // Undeclared names, also where evaluation does not go.
    let e = Compiled::expression("[for x in request.tags : reqest]", &options).unwrap();
    let found = e.validate();
    assert_eq!(found.as_slice().len(), 1);
    assert_eq!(found.as_slice()[0].detail, "There is no variable named \"reqest\". Did you mean \"request\"?");
    // Without declarations every variable is an unknown of any type.
    let e = Compiled::compile(SourceKind::Template, b"${upper(x)} ${x + 1}", &Options::new()).unwrap();
    assert!(e.validate().as_slice().is_empty());
    let e = Compiled::expression("max(x...)", &Options::new()).unwrap();
    assert!(e.validate().as_slice().is_empty());
}

#[test]
fn unknowns_of_declared_types_are_typed_through_operations() {
    let options = Options::new().declare("l", "list(object({name = string, port = optional(number, 80)}))");
    let e = Compiled::expression("l[*].port", &options).unwrap();
    let v = e.evaluate(&Variables::new()).value().unwrap().clone();
    assert_eq!(v.ty(), Type::list(Type::Number));
    let e = Compiled::expression("l[*].nope", &options).unwrap();
    assert_eq!(e.validate().as_slice()[0].summary, "Unsupported attribute");
}

// ---- CLI ----

#[test]
fn cli_eval_declare() {
    let out = hclvm(&["eval", "-e", "r.amount * 2", "--declare", "r=object({amount=number})", "--var", r#"r={"amount":"21"}"#], b"");
    assert_exit(&out, 0);
    assert_eq!(text(&out.stdout), "42\n");
    let out = hclvm(&["eval", "-e", "r.amount * 2", "--declare", "r=object({amount=number})"], b"");
    assert_exit(&out, 0);
    assert_eq!(text(&out.stdout), "{\"$unknown\":true,\"refined\":{\"not_null\":true}}\n");
    let out =
        hclvm(&["eval", "-e", "r", "--declare", "r=object({amount=number})", "--var", r#"r={"amount":"x"}"#, "--color", "never"], b"");
    assert_exit(&out, 1);
    assert_eq!(text(&out.stdout), "");
    assert_eq!(
        text(&out.stderr),
        "Error: Invalid value for variable\n\nThe value for variable \"r\" is not suitable: .amount: a number is required.\n\n"
    );
    let out = hclvm(&["eval", "-e", "r", "--declare", "r=lst(number)", "--color", "never"], b"");
    assert_exit(&out, 1);
    assert!(text(&out.stderr).contains("  on declare.r line 1:\n   1: lst(number)\n"), "{}", text(&out.stderr));
    let out = hclvm(&["eval", "-e", "r", "--declare", "nothing"], b"");
    assert_exit(&out, 2);
}

#[test]
fn cli_check_validates_with_a_declarations_file() {
    let decls = scratch("request-decls.hcl", "# requests\nrequest = object({\n  user   = string\n  amount = number\n})\n");
    let policy = scratch("typo-policy.hcl", "allow = request.ammount < 10\n");
    let out = hclvm(&["check", &policy, "--declarations", &decls, "--color", "never"], b"");
    assert_exit(&out, 1);
    assert!(text(&out.stderr).contains("This object does not have an attribute named \"ammount\"."), "{}", text(&out.stderr));
    let good = scratch("good-policy.hcl", "allow = request.amount < 10\n");
    let out = hclvm(&["check", &good, "--declarations", &decls], b"");
    assert_exit(&out, 0);
    assert_eq!(text(&out.stderr), "");
    // Positions of a constraint's diagnostics are the declarations file's.
    let bad = scratch("bad-decls.hcl", "# requests\nrequest = object({\n  user   = strng\n})\n");
    let out = hclvm(&["check", &good, "--declarations", &bad, "--color", "never"], b"");
    assert_exit(&out, 1);
    assert!(text(&out.stderr).contains("bad-decls.hcl line 3:\n   3:   user   = strng\n"), "{}", text(&out.stderr));
    let blocks = scratch("block-decls.hcl", "variable \"x\" {}\n");
    let out = hclvm(&["check", &good, "--declarations", &blocks, "--color", "never"], b"");
    assert_exit(&out, 1);
}

#[test]
fn cli_batch_and_render_declare() {
    let src = scratch("declare-batch.hcl", "total = r.amount * 2\n");
    let lines = scratch("declare-batch.jsonl", "{\"r\": {\"amount\": \"2\"}}\n{\"r\": {\"amount\": \"two\"}}\n");
    let out = hclvm(&["batch", &src, "--vars-jsonl", &lines, "--declare", "r=object({amount=number})"], b"");
    assert_exit(&out, 1);
    let stdout = text(&out.stdout);
    let got: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        got[0],
        r#"{"id":1,"ok":true,"body":{"attrs":{"total":{"ok":true,"type":"number","value":4,"vars":["r.amount"]}},"blocks":[]}}"#
    );
    assert!(got[1].starts_with(r#"{"id":2,"ok":false,"phase":"vars","diags":[{"severity":"error","summary":"Invalid value for variable""#));
    let tpl = scratch("declare-render.tmpl", "Hi ${user.name}, ${user.greeting}");
    let out = hclvm(
        &[
            "render",
            &tpl,
            "--declare",
            "user=object({name=string, greeting=optional(string, \"welcome\")})",
            "--var",
            r#"user={"name":"ann"}"#,
        ],
        b"",
    );
    assert_exit(&out, 0);
    assert_eq!(text(&out.stdout), "Hi ann, welcome");
}

#[test]
fn cli_declarations_share_the_file_and_the_last_of_a_name_wins() {
    // Many declarations read in place from one file: each constraint's
    // positions are the file's, defaults work, and a later `--declare`
    // replaces the file's declaration of the same name.
    let mut file = String::from("# é, ü: columns count characters\n");
    for i in 0..2000 {
        file.push_str(&format!("v{i} = object({{n = optional(number, {i})}})\n"));
    }
    file.push_str("bad = lst(number)\n");
    let decls = scratch("many-decls.hcl", &file);
    let src = scratch("many-decls-use.hcl", "sum = v7.n + v1999.n\n");
    let out = hclvm(&["check", &src, "--declarations", &decls, "--color", "never"], b"");
    assert_exit(&out, 1);
    assert!(text(&out.stderr).contains("many-decls.hcl line 2002:\n2002: bad = lst(number)\n"), "{}", text(&out.stderr));
    let out = hclvm(
        &["eval", &src, "--declarations", &decls, "--declare", "bad=list(number)", "--var", "v7={}", "--var", r#"v1999={"n":1}"#],
        b"",
    );
    assert_exit(&out, 0);
    assert_eq!(text(&out.stdout).split_whitespace().collect::<String>(), r#"{"sum":8}"#);
    // A heredoc's range ends before the line break that closes it.
    let heredoc = scratch("heredoc-decls.hcl", "a = number\nh = <<EOT\nstring\nEOT\nb = string\n");
    let out = hclvm(&["check", &src, "--declarations", &heredoc, "--color", "never"], b"");
    assert_exit(&out, 1);
    assert!(text(&out.stderr).contains("Error: Invalid type specification\n\n  on "), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("heredoc-decls.hcl line 2:\n   2: h = <<EOT\n"), "{}", text(&out.stderr));
}

#[test]
fn a_later_declaration_of_a_name_replaces_the_earlier() {
    let options = Options::new().declare("n", "numbr").declare("m", "string").declare("n", "number");
    let e = Compiled::expression("n + 1", &options).unwrap();
    let out = e.evaluate_json(&serde_json::json!({"n": "2", "m": "x"})).unwrap();
    assert_eq!(out.value(), Some(&hclvm::Value::int(3)));
}

#[test]
fn declaring_names_again_and_again_keeps_the_last_of_each() {
    let mut options = Options::new();
    for i in 0..300 {
        options = options.declare(format!("v{}", i % 7), "number").declare("s", if i % 2 == 0 { "number" } else { "string" });
    }
    let e = Compiled::expression("\"${s}:${v6 + 1}\"", &options).unwrap();
    let out = e.evaluate_json(&serde_json::json!({"s": 5, "v6": "41"})).unwrap();
    assert_eq!(out.value().and_then(|v| v.as_str()), Some("5:42"));
    // Every name declared is declared (an unset one is an unknown).
    let e = Compiled::expression("[v0, v5, s]", &options).unwrap();
    assert!(!e.evaluate_json(&serde_json::json!({})).unwrap().has_errors());
}
