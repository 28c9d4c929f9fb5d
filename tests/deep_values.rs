//! Values nested up to the JSON input limit (10,000 levels) evaluate, as the
//! reference evaluates them, on any thread: every recursion over values and
//! types grows the stack when it runs low, and dropping a deep value does
//! not recurse. The threads here have 256 KiB of stack.

use hclvm::{Compiled, Options};

fn deep_list(n: usize) -> String {
    format!("{}1{}", "[".repeat(n), "]".repeat(n))
}

fn deep_object(n: usize) -> String {
    format!("{}1{}", "{\"a\":".repeat(n), "}".repeat(n))
}

/// Evaluates `expr` with `a` and `b` set to the JSON texts, on a small stack,
/// and returns the result as plain JSON text (or the error's text).
fn eval_small_stack(expr: &'static str, a: String, b: String) -> String {
    std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(move || {
            let program = Compiled::expression(expr, &Options::new()).expect("compiles");
            let vars = format!("{{\"a\":{a},\"b\":{b}}}");
            match program.evaluate_json_str(&vars, false) {
                Ok(e) => {
                    let mut out = String::new();
                    match e.write_plain_json(&mut out) {
                        Ok(()) => out,
                        Err(err) => format!("error: {err}"),
                    }
                }
                Err(err) => format!("error: {err}"),
            }
        })
        .expect("spawn")
        .join()
        .expect("no stack overflow")
}

#[test]
fn deep_lists_evaluate() {
    let n = 9_990;
    for (expr, want) in [
        ("length(flatten(a))", "1"),
        ("a == b", "true"),
        ("length(toset([a, b]))", "1"),
        ("length(tolist(a))", "1"),
        ("jsonencode(a) != \"\"", "true"),
        ("length(flatten(jsondecode(jsonencode(a))))", "1"),
        ("length([for x in a : x])", "1"),
    ] {
        assert_eq!(eval_small_stack(expr, deep_list(n), deep_list(n)), want, "{expr}");
    }
}

#[test]
fn deep_objects_evaluate() {
    let n = 9_990;
    for (expr, want) in [
        ("a == b", "true"),
        ("keys(a)", "[\"a\"]"),
        ("length(tomap(a))", "1"),
        ("keys(merge(a, b))", "[\"a\"]"),
        ("length(toset([a, b]))", "1"),
    ] {
        assert_eq!(eval_small_stack(expr, deep_object(n), deep_object(n)), want, "{expr}");
    }
}
