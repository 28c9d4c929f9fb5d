//! One compiled program evaluated by many threads at once, each with its
//! own `Scratch` and `Vars`: results equal the single-threaded ones.

use hclvm::engine::{compile_source, stdlib_table, SourceKind};
use hclvm::runtime::{json::value_from_case_var, Value};
use hclvm::vm::{evaluate, Program, Scratch, Vars};
use std::sync::Arc;

const SRC: &str = r#"{
  allowed = request.user.role == "admin" || contains(request.user.groups, "ops")
  names   = [for g in request.user.groups : upper(g) if g != "hr"]
  message = "user ${request.user.name} may ${request.action} (${length(request.user.groups)} groups)"
  first   = try(request.user.groups[0], "none")
}"#;

fn vars_for(program: &Program, i: usize) -> Vars {
    let groups: Vec<String> = (0..i % 5).map(|g| format!("\"g{g}\"")).collect();
    let json = format!(
        r#"{{"user":{{"name":"u{i}","role":"{}","groups":[{}]}},"action":"read"}}"#,
        if i % 3 == 0 { "admin" } else { "dev" },
        groups.join(",")
    );
    let v = value_from_case_var(&serde_json::from_str(&json).unwrap()).unwrap();
    Vars::bind(program, [("request", v)])
}

fn run(program: &Program, i: usize, scratch: &mut Scratch) -> (Value, usize) {
    let vars = vars_for(program, i);
    let v = evaluate(program, &vars, scratch);
    (v, scratch.diags().len())
}

#[test]
fn threads_share_one_program() {
    let program = Arc::new(compile_source(SourceKind::Expr, SRC.as_bytes(), &["request"], Some(stdlib_table())).unwrap());
    let mut scratch = Scratch::new();
    let expected: Vec<(Value, usize)> = (0..200).map(|i| run(&program, i, &mut scratch)).collect();
    let handles: Vec<_> = (0..4)
        .map(|t| {
            let program = Arc::clone(&program);
            std::thread::spawn(move || {
                let mut scratch = Scratch::new();
                // Each thread walks the inputs in a different order.
                (0..200).map(|k| (k * (t + 1) * 7) % 200).map(|i| (i, run(&program, i, &mut scratch))).collect::<Vec<_>>()
            })
        })
        .collect();
    for h in handles {
        for (i, (v, ndiags)) in h.join().unwrap() {
            assert!(v.raw_equals(&expected[i].0), "input {i}");
            assert_eq!(ndiags, expected[i].1, "input {i}");
            assert_eq!(ndiags, 0, "input {i}");
        }
    }
}
