//! One compiled program evaluated by many threads at once, each on its
//! own scratch state: results equal the single-threaded ones.

use hclvm::{Compiled, Options, Value, Variables};
use std::sync::Arc;

const SRC: &str = r#"{
  allowed = request.user.role == "admin" || contains(request.user.groups, "ops")
  names   = [for g in request.user.groups : upper(g) if g != "hr"]
  message = "user ${request.user.name} may ${request.action} (${length(request.user.groups)} groups)"
  first   = try(request.user.groups[0], "none")
}"#;

fn vars_for(i: usize) -> Variables {
    let groups: Vec<String> = (0..i % 5).map(|g| format!("\"g{g}\"")).collect();
    let json = format!(
        r#"{{"user":{{"name":"u{i}","role":"{}","groups":[{}]}},"action":"read"}}"#,
        if i % 3 == 0 { "admin" } else { "dev" },
        groups.join(",")
    );
    Variables::from_json_str(&format!(r#"{{"request":{json}}}"#)).unwrap()
}

fn run(program: &Compiled, i: usize) -> (Value, usize) {
    let e = program.evaluate(&vars_for(i));
    (e.outcome().unwrap().value_unchecked().clone(), e.diagnostics().len())
}

#[test]
fn threads_share_one_program() {
    let program = Arc::new(Compiled::expression(SRC, &Options::new().variables(["request"])).unwrap());
    let expected: Vec<(Value, usize)> = (0..200).map(|i| run(&program, i)).collect();
    let handles: Vec<_> = (0..4)
        .map(|t| {
            let program = Arc::clone(&program);
            std::thread::spawn(move || {
                // Each thread walks the inputs in a different order.
                (0..200).map(|k| (k * (t + 1) * 7) % 200).map(|i| (i, run(&program, i))).collect::<Vec<_>>()
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
