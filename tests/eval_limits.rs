//! Hostile inputs end with a diagnostic, not a hang, a crash or unbounded
//! memory: work and size budgets, deep nesting.

use hclvm::{Compiled, Evaluation, Limits, Options, Type, Value, Variables};

/// Whether the expression `src` evaluated with no variables has errors,
/// and the summaries of its diagnostics.
fn evaluate(src: &str, options: Options) -> (bool, Vec<String>) {
    let program = Compiled::expression(src, &options).expect("compiles");
    let e = program.evaluate(&Variables::new());
    (e.has_errors(), summaries(&e))
}

fn summaries(e: &Evaluation) -> Vec<String> {
    e.diagnostics().iter().map(|d| d.summary.to_string()).collect()
}

fn eval_with(src: &str, limits: Limits) -> (bool, Vec<String>) {
    evaluate(src, Options::new().limits(limits))
}

/// The summaries of the diagnostics of expression `src` evaluated with
/// `vars` under a budget of `max_steps`.
fn summaries_within(src: &str, max_steps: u64, vars: &Variables) -> Vec<String> {
    let program = Compiled::expression(src, &Options::new().max_steps(max_steps)).expect("compiles");
    summaries(&program.evaluate(vars))
}

#[test]
fn step_budget_stops_nested_loops() {
    let src = "[for a in range(1000) : [for b in range(1000) : [for c in range(1000) : a + b + c]]]";
    let (failed, summaries) = eval_with(src, Limits { max_steps: 200_000, ..Limits::default() });
    assert!(failed);
    assert_eq!(summaries.last().map(String::as_str), Some("Evaluation limit exceeded"));
}

#[test]
fn size_budget_stops_string_doubling() {
    // 100000 x 100000 x 8 bytes if unchecked.
    let src = "join(\"\", [for i in range(100000) : \"${join(\"\", [for j in range(100000) : \"xxxxxxxx\"])}\"])";
    let (failed, summaries) = eval_with(src, Limits { max_size: 1 << 20, max_steps: u64::MAX });
    assert!(failed, "{summaries:?}");
}

#[test]
fn within_budget_is_unaffected() {
    let (failed, summaries) = eval_with("[for a in range(100) : a * 2]", Limits::default());
    assert!(!failed, "{summaries:?}");
}

#[test]
fn deep_nesting_evaluates_or_fails_cleanly() {
    let depth = 1000;
    let src = format!("{}1{}", "(".repeat(depth), ")".repeat(depth));
    // Parsing and evaluating recurse; run on a thread with a known stack, as the CLI does.
    let handle = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || match Compiled::expression(&src, &Options::new().without_functions()) {
            Ok(c) => {
                let e = c.evaluate(&Variables::new());
                (e.has_errors(), e.value().cloned())
            }
            Err(_) => (true, None),
        })
        .unwrap();
    let (failed, v) = handle.join().unwrap();
    assert!(failed || v == Some(Value::int(1)));
    let nested = format!("{}1{}", "[".repeat(500), "]".repeat(500));
    let handle =
        std::thread::Builder::new().stack_size(64 << 20).spawn(move || evaluate(&nested, Options::new().without_functions()).0).unwrap();
    assert!(!handle.join().unwrap());
}

#[test]
fn deep_nesting_compiles_and_evaluates_on_a_small_thread_stack() {
    // The embedding API gives compilation and deep evaluation the stack
    // they need, so a 2 MiB thread (Rust's default) handles nesting up to
    // the parser's limit, in debug builds too.
    let d = 500;
    let cases = [
        format!("{}1{}", "a ? (".repeat(d), ") : 2".repeat(d)),
        format!("{}a{}", "{x = ".repeat(2 * d), "}".repeat(2 * d)),
        format!("\"{}x{}\"", "%{ if a }".repeat(2 * d), "%{ endif }".repeat(2 * d)),
        format!("\"{}x{}\"", "%{ for v in [1] }".repeat(2 * d), "%{ endfor }".repeat(2 * d)),
        format!("\"{}x{}\"", "${\"".repeat(d), "\"}".repeat(d)),
    ];
    for src in cases {
        let outcome = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || {
                let compiled = Compiled::expression(&src, &Options::new()).map_err(|e| e.to_string())?;
                let mut vars = Variables::new();
                vars.set("a", Value::from(true));
                let evaluation = compiled.evaluate(&vars);
                Ok::<usize, String>(evaluation.diagnostics().len())
            })
            .expect("spawns")
            .join()
            .expect("no panic, no overflow");
        assert_eq!(outcome, Ok(0));
    }
}

#[test]
fn blocks_skipped_after_a_limit_do_not_read_stale_registers() {
    // Once the step budget is exhausted, blocks no longer run; whoever
    // takes such a block's value must not see what an earlier evaluation
    // left in its output register. Here the second `for`'s collection
    // block (a list when it runs) writes R5, which holds the number 1000
    // from the first `for` or the string "a" from the warm-up program:
    // read as the collection, either gave an "Iteration over non-iterable
    // value" error.
    // Each thread evaluates on one reused scratch state: a fresh thread
    // gives the fresh result, the warm-up program then leaves its values
    // in the registers the limited program finds.
    let src = "[[for i in range(1000) : \"${i}x\"], [for v in split(\",\", x) : v]]";
    let vars = Variables::new().with("x", "a");
    let limited = Compiled::expression(src, &Options::new().max_steps(100)).expect("compiles");
    let warm = Compiled::expression("upper(x) == (upper(x) == upper(x))", &Options::new()).expect("compiles");
    let fresh = std::thread::scope(|s| s.spawn(|| summaries(&limited.evaluate(&vars))).join().expect("no panic"));
    assert_eq!(fresh, ["Evaluation limit exceeded"]);
    let reused = std::thread::scope(|s| {
        s.spawn(|| {
            warm.evaluate(&vars);
            summaries(&limited.evaluate(&vars))
        })
        .join()
        .expect("no panic")
    });
    assert_eq!(reused, fresh);
}

#[test]
fn loops_whose_body_needs_no_code_still_count_steps() {
    // `[for v in l : v]` and `l[*]` run no instruction per element; each
    // iteration is still charged, so the step budget bounds them.
    let big = format!("[{}]", vec!["1"; 5000].join(", "));
    for src in [format!("[for v in {big} : v]"), format!("tolist({big})[*]")] {
        let (failed, diags) = eval_with(&src, Limits { max_steps: 1000, ..Limits::default() });
        assert!(failed, "{src:.40}");
        assert!(diags.iter().any(|d| d == "Evaluation limit exceeded"), "{diags:?}");
        let (failed, diags) = eval_with(&src, Limits { max_steps: 100_000, ..Limits::default() });
        assert!(!failed, "{src:.40}: {diags:?}");
    }
}

/// Once the step budget runs out, a `for` whose last iteration could not be
/// charged used to end with the elements collected so far, and the rest of
/// the block ran on that partial tuple: indexing it reported a spurious
/// "Invalid index" before "Evaluation limit exceeded". With any budget, the
/// diagnostics must be either none or only the limit.
#[test]
fn no_spurious_diagnostics_after_the_step_limit() {
    let src = "[for i in [1, 2, 3] : i][2]";
    let mut bad = Vec::new();
    for max_steps in 0..64 {
        let (_, summaries) = evaluate(src, Options::new().max_steps(max_steps));
        if !(summaries.is_empty() || summaries == ["Evaluation limit exceeded"]) {
            bad.push(format!("max_steps {max_steps}: {summaries:?}"));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// A memoized call (pure function, loop-invariant arguments, in a loop
/// body) used to be charged to the size budget only on its first run. The
/// same loop with an argument that merely looks loop-variant
/// (`1000 + i * 0`, not memoized, as every call was in the tree evaluator)
/// runs out of budget, where the memoized one did not. Memoization should
/// not change what an evaluation reports.
#[test]
fn memoized_calls_are_charged_like_calls() {
    let run = |src: &str, max_size: u64| -> Vec<String> {
        let program = Compiled::expression(src, &Options::new().max_size(max_size)).expect("compiles");
        let e = program.evaluate(&Variables::new());
        e.diagnostics().iter().map(|d| format!("{}: {}", d.summary, d.detail)).collect()
    };
    let mut bad = Vec::new();
    for max_size in [1u64 << 16, 1 << 18, 1 << 20, 1 << 22] {
        let memoized = run("[for i in range(100) : range(1000)]", max_size);
        let called = run("[for i in range(100) : range(1000 + i * 0)]", max_size);
        if memoized != called {
            bad.push(format!(
                "max_size {max_size}: memoized {} diagnostics, called {}: {:?}",
                memoized.len(),
                called.len(),
                called.first()
            ));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn nested_loops_in_for_conditions_compile_in_linear_work() {
    // Each level's `if` holds the next level's loop. Checking a condition
    // at compile time compiles it; doing so for conditions with loops in
    // them would compile each level twice per enclosing level (2^60 here).
    // Evaluating it is exponential for the reference too (each level runs
    // its condition once with unknown iterators, then per element): the
    // step budget ends it.
    let nested = |depth: usize| {
        let mut src = format!("x{depth} > 0");
        for i in (0..depth).rev() {
            let outer = if i == 0 { "[1]".to_string() } else { format!("[x{i}]") };
            src = format!("length([for x{} in {outer} : x{} if {src}]) > 0", i + 1, i + 1);
        }
        src
    };
    let (failed, summaries) = eval_with(&nested(60), Limits { max_steps: 200_000, ..Limits::default() });
    assert!(failed);
    assert_eq!(summaries, ["Evaluation limit exceeded"]);

    let program = Compiled::expression(&nested(8), &Options::new()).expect("compiles");
    let e = program.evaluate(&Variables::new());
    assert_eq!(e.value().and_then(|v| v.as_bool()), Some(true));
    assert!(e.diagnostics().is_empty(), "{:?}", e.diagnostics());
}

#[test]
fn a_result_too_long_to_print_is_an_error_and_leaves_the_others_whole() {
    // 1e400400 has 400,401 digits: beyond what hclvm writes out. The
    // attribute reports it; the text written before the number is taken
    // back, so the line stays valid JSON and the other attributes intact.
    let case = r#"{"id":"big","mode":"body","src":"a = [1, 2]\nb = [3, 1e400400]\nc = \"x\"\n"}"#;
    let line = hclvm::conformance::run_line(case.as_bytes(), 1);
    let result: serde_json::Value = serde_json::from_str(&line).expect("valid JSON");
    let attrs = &result["body"]["attrs"];
    assert_eq!(attrs["a"]["value"], serde_json::json!([1, 2]));
    assert_eq!(attrs["b"]["ok"], false);
    assert_eq!(attrs["b"]["diags"][0]["summary"], "Unprintable result");
    assert_eq!(attrs["c"]["value"], "x");
}

#[test]
fn jsondecode_is_charged_per_value_before_decoding() {
    // 200,001 values in 400 KB of text: charged as what they take in
    // memory, so a 16 MiB budget refuses it instead of decoding it.
    let src = r#"length(jsondecode(format("[%s1]", replace(format("%0200000d", 0), "0", "1,"))))"#;
    let (failed, summaries) = eval_with(src, Limits { max_size: 16 << 20, ..Limits::default() });
    assert!(failed, "{summaries:?}");
    let (failed, summaries) = eval_with(src, Limits::default());
    assert!(!failed, "{summaries:?}");
}

#[test]
fn a_value_too_long_to_write_is_refused_without_walking_it_whole() {
    // [x, x] nested 40 times: a short expression whose JSON text would be
    // about 2^41 bytes. The result says so instead of writing it.
    let mut x = String::from("1");
    for i in 0..40 {
        x = format!("[for x{i} in [{x}] : [x{i}, x{i}]][0]");
    }
    let case = serde_json::json!({"id": "huge", "mode": "expr", "src": x}).to_string();
    let line = hclvm::conformance::run_line(case.as_bytes(), 1);
    let result: serde_json::Value = serde_json::from_str(&line).expect("valid JSON");
    assert_eq!(result["ok"], false, "{line}");
    assert_eq!(result["diags"][0]["summary"], "Unprintable result", "{line}");
}

#[test]
fn an_expression_too_large_for_one_program_is_reported_at_its_range() {
    // A tuple of more elements than a program has registers for, and one
    // of more than an instruction can count (no code made for those).
    for n in [20_000, 70_000] {
        let src = format!("a = 1\nb = [{}]\n", "x,".repeat(n));
        let program = Compiled::body(&src, &Options::new()).expect("compiles");
        let e = program.evaluate(&Variables::new());
        let diagnostics = e.diagnostics();
        let d = diagnostics.iter().find(|d| d.summary == "Expression too complex").expect("too complex");
        // The subject is the attribute's expression, on line 2.
        let subject = d.subject.expect("a source range");
        assert_eq!(&src[subject.start as usize..subject.start as usize + 2], "[x", "{n}");
        assert_eq!(subject.end as usize, src.len() - 1, "{n}");
    }
}

/// A program the fast lane runs (every instruction simple) is charged its
/// instructions as the general loop charges them: a budget one short of
/// them stops it before it runs, with the limit's error and nothing else.
#[test]
fn fast_lane_programs_are_charged_like_others() {
    let src = "(a == 1 || b == 2) && (c >= 3 || a * 2 == 4)";
    let vars = Variables::from_json_str(r#"{"a": 1, "b": 2, "c": 3}"#).expect("json");
    let listing = Compiled::expression(src, &Options::new()).expect("compiles").disassemble();
    assert!(listing.contains(", fast lane"), "{listing}");
    let instructions: u64 = listing.lines().nth(1).and_then(|l| l.strip_prefix("; ")?.split(' ').next()?.parse().ok()).expect("count");
    let run = |max_steps: u64| {
        let program = Compiled::expression(src, &Options::new().max_steps(max_steps)).expect("compiles");
        let e = program.evaluate(&vars);
        (e.value().cloned(), summaries(&e))
    };
    assert_eq!(run(instructions), (Some(Value::Bool(true)), vec![]));
    assert_eq!(run(instructions - 1), (None, vec!["Evaluation limit exceeded".to_string()]));
}

/// The text of `src` a diagnostic's subject covers.
fn subject_text<'s>(src: &'s str, e: &Evaluation, i: usize) -> &'s str {
    let subject = e.diagnostics()[i].subject.expect("limit errors have a range");
    &src[subject.start as usize..subject.end as usize]
}

/// A function refused for the size budget used to report "Error in
/// function call" and let the evaluation go on: each later iteration
/// called it again and failed alike, thousands of identical errors. The
/// evaluation now ends at the first, with one error about that call.
#[test]
fn a_call_out_of_size_budget_ends_the_evaluation_with_one_error() {
    let src = "[for i in range(1000) : [for j in range(1000) : range(1000)]]";
    let program = Compiled::expression(src, &Options::new().max_size(1 << 20)).expect("compiles");
    let e = program.evaluate(&Variables::new());
    assert_eq!(summaries(&e), ["Evaluation limit exceeded"]);
    assert!(e.diagnostics()[0].detail.contains("Call to function \"range\" failed"), "{}", e.diagnostics()[0].detail);
    assert_eq!(subject_text(src, &e, 0), "range(1000)");
}

/// The other limits have no single place to blame: their error is about
/// the whole expression (it used to have no range at all).
#[test]
fn limit_errors_are_about_the_expression_they_stopped() {
    let src = "[for a in range(1000) : [for b in range(1000) : a + b]]";
    let steps = Compiled::expression(src, &Options::new().max_steps(10_000)).expect("compiles");
    let e = steps.evaluate(&Variables::new());
    assert_eq!(summaries(&e), ["Evaluation limit exceeded"]);
    assert_eq!(subject_text(src, &e, 0), src);
    // Built by the VM itself (a call out of budget is the error above).
    let built = "[for a in range(100) : [for b in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] : a + b]]";
    let size = Compiled::expression(built, &Options::new().max_size(10_000)).expect("compiles");
    let e = size.evaluate(&Variables::new());
    assert_eq!(summaries(&e), ["Evaluation limit exceeded"]);
    assert_eq!(subject_text(built, &e, 0), built);
    let body = "a = 1\nb = [for x in range(1000) : [for y in range(1000) : x * y]]\n";
    let program = Compiled::body(body, &Options::new().max_steps(10_000)).expect("compiles");
    let e = program.evaluate(&Variables::new());
    let last = e.diagnostics().len() - 1;
    assert_eq!(subject_text(body, &e, last), "[for x in range(1000) : [for y in range(1000) : x * y]]");
}

/// Diagnostics count against the size budget like what the evaluation
/// builds: a loop that reports in every iteration used to hold every
/// report (a million from `[for a in range(1000) : [for b in range(1000) :
/// b.x]]`, 770 MB for `hclvm eval`), bounded only by the step budget.
#[test]
fn reported_diagnostics_are_charged_to_the_size_budget() {
    let src = "[for a in range(1000) : [for b in range(1000) : b.x]]";
    let limited = Compiled::expression(src, &Options::new().max_size(1 << 20)).expect("compiles");
    let e = limited.evaluate(&Variables::new());
    let summaries = summaries(&e);
    assert_eq!(summaries.last().map(String::as_str), Some("Evaluation limit exceeded"));
    let reported = summaries.iter().filter(|s| *s == "Unsupported attribute").count();
    assert!((1_000..20_000).contains(&reported), "{reported} reports within a 1 MiB budget");
    // Within the default budget the same loop reports each error, as the
    // reference does.
    let small = "[for a in range(10) : [for b in range(10) : b.x]]";
    let (failed, summaries) = evaluate(small, Options::new());
    assert!(failed);
    assert_eq!(summaries.len(), 100);
    assert!(summaries.iter().all(|s| s == "Unsupported attribute"));
}

/// A body's attributes share one step and size budget, as they share a
/// deadline: each used to get a fresh budget, so a body of many heavy
/// attributes could take (budget x attributes) of time and memory. Once
/// the budget is spent, the attribute running and each later one with
/// code fail; one without code (a constant) still has its value.
#[test]
fn a_bodys_attributes_share_the_budgets() {
    // Distinct expressions: a repeated one is computed once per body.
    let heavy = |i: usize| format!("[for a in range(100) : [for b in range(100) : a * b + {i}]]");
    // The fewest steps one of them needs alone.
    let fits = |steps: u64| {
        let alone = Compiled::expression(&heavy(0), &Options::new().max_steps(steps)).expect("compiles");
        !alone.evaluate(&Variables::new()).has_errors()
    };
    let (mut lo, mut hi) = (1u64, 1 << 24);
    while lo < hi {
        let mid = (lo + hi) / 2;
        if fits(mid) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    assert!((1_000..1_000_000).contains(&lo), "{lo} steps");
    // Room for two and a half of them.
    let body: String = (0..5).map(|i| format!("a{i} = {}\n", heavy(i))).collect::<String>() + "c = 1\n";
    let program = Compiled::body(&body, &Options::new().max_steps(lo * 5 / 2)).expect("compiles");
    let e = program.evaluate(&Variables::new());
    let body = e.body().expect("a body");
    let failed: Vec<&str> = ["a0", "a1", "a2", "a3", "a4"]
        .into_iter()
        .filter(|name| body.attribute(name).expect("attribute").diagnostics().iter().any(|d| d.summary == "Evaluation limit exceeded"))
        .collect();
    assert_eq!(failed, ["a2", "a3", "a4"]);
    assert_eq!(body.attribute("c").expect("attribute").value(), Some(&Value::int(1)));
}

/// What `try`, `can` and an untaken branch discard gives its size back:
/// charged when reported, the discarded diagnostics of a loop used to
/// exhaust the budget where the reference gives a value.
#[test]
fn discarded_diagnostics_give_their_size_back() {
    let src = "[for i in range(100) : [for j in range(100) : [try(tonumber(\"x\"), 0), can(tonumber(\"y\")), true ? 0 : tonumber(\"z\")]]]";
    let (failed, summaries) = eval_with(src, Limits { max_size: 4 << 20, ..Limits::default() });
    assert!(!failed, "{:?}", &summaries[..summaries.len().min(3)]);
}

#[test]
fn trim_takes_time_linear_in_its_string_and_cutset() {
    // A million `x`s against a cutset of a million characters that ends in
    // `x`: searching the cutset per character took 42 s; a lookup set
    // takes milliseconds.
    let src = r#"trim(replace(format("%1000000s", ""), " ", "x"), format("%1000000s", "x")) == """#;
    let program = Compiled::expression(src, &Options::new()).expect("compiles");
    let e = program.evaluate(&Variables::new());
    assert!(!e.has_errors(), "{:?}", summaries(&e));
    assert_eq!(e.value(), Some(&Value::Bool(true)));
}

/// `[s, s, ...]`: `n` references to one string of `len` spaces (cheap to
/// build: the string is shared).
fn shared_string_list(len: usize, n: usize) -> String {
    format!(r#"[for s in [format("%{len}s", "")] : [for x in split(",", replace(format("%{n}s", ""), " ", ",")) : s]][0]"#, n = n - 1)
}

#[test]
fn encoding_a_value_with_shared_parts_stops_at_the_size_budget() {
    // 10,000 references to a 100 KB string: 1 GB of JSON if written whole.
    let list = shared_string_list(100_000, 10_000);
    for src in [format!("jsonencode({list})"), format!(r#"format("%v", {list})"#)] {
        let (failed, summaries) = eval_with(&src, Limits { max_size: 1 << 20, ..Limits::default() });
        assert!(failed, "{src}");
        assert_eq!(summaries, ["Evaluation limit exceeded"], "{src}");
    }
}

#[test]
fn long_keys_shared_by_many_elements_count_as_work() {
    // zipmap copied and compared each 100 KB key whole: minutes, unnoted.
    let keys = shared_string_list(100_000, 100_000);
    let src = format!(r#"length(zipmap({keys}, [for k in {keys} : 1]))"#);
    let (failed, summaries) = eval_with(&src, Limits::default());
    assert!(failed);
    assert_eq!(summaries.last().map(String::as_str), Some("Evaluation limit exceeded"));
}

#[test]
fn flatten_too_large_for_the_budget_ends_the_evaluation_even_inside_try() {
    // 1,024 references to one 2,000-element list: two million leaves, more
    // than a 1 MiB budget holds; refused (not caught by `try`) before they
    // are gathered.
    let list = "[for l in [[for x in split(\",\", replace(format(\"%1999s\", \"\"), \" \", \",\")) : 1]] : [for i in range(1024) : l]][0]";
    let src = format!(r#"try(flatten({list}), "caught")"#);
    let (failed, summaries) = eval_with(&src, Limits { max_size: 1 << 20, ..Limits::default() });
    assert!(failed);
    assert_eq!(summaries, ["Evaluation limit exceeded"]);
}

#[test]
fn a_pattern_that_reads_the_rest_again_for_each_match_ends_at_the_step_budget() {
    // Each search for the next match tries `a*X` first and reads the rest
    // of the 200,000 `a`s: 20 GB read in all (minutes, in Go as with the
    // `regex` crate), charged as read, so the budget ends it.
    let a = r#"replace(format("%200000s", ""), " ", "a")"#;
    for src in [format!(r#"length(regexall("a*X|a", {a}))"#), format!(r#"regexreplace({a}, "a*X|a", "b")"#)] {
        let (failed, summaries) = eval_with(&src, Limits { max_steps: 1_000_000, ..Limits::default() });
        assert!(failed, "{src}");
        assert_eq!(summaries, ["Evaluation limit exceeded"], "{src}");
    }
    // The same number of matches of a pattern that stops at each is
    // within the budget.
    let (failed, summaries) = eval_with(&format!(r#"length(regexall("a", {a}))"#), Limits { max_steps: 1_000_000, ..Limits::default() });
    assert!(!failed, "{summaries:?}");
}

#[test]
fn suggestions_for_unknown_names_are_searched_once_per_name_and_cost_steps_per_variable() {
    // `v*` declared and unset in the evaluation, which sets 10,000 `w*`:
    // each `v` read is reported, with the closest variable set, searched
    // among all of them.
    let unset: Vec<String> = (0..20).map(|i| format!("v{i:05}")).collect();
    let set: Vec<String> = (0..10_000).map(|i| format!("w{i:05}")).collect();
    let vars = Variables::from_json_str(&format!("{{{}}}", set.iter().map(|n| format!("\"{n}\": 1")).collect::<Vec<_>>().join(",")))
        .expect("json");
    let evaluate = |src: &str, steps: u64| {
        let options = Options::new().variables(unset.iter().chain(&set)).limits(Limits { max_steps: steps, ..Limits::default() });
        let program = Compiled::expression(src, &options).expect("compiles");
        let e = program.evaluate(&vars);
        summaries(&e)
    };
    // One name a million times: one search.
    let summaries = evaluate("[for i in range(1000) : [for j in range(1000) : v00001]]", 20_000_000);
    assert_eq!(summaries.len(), 1_000_000);
    assert!(summaries.iter().all(|s| s == "Unknown variable"));
    // Twenty names, twenty searches of 10,000 variables each (a step per
    // variable, and more per variable close enough to be measured): more
    // than a budget of 100,000 steps.
    let distinct = format!("[{}]", unset.join(", "));
    let summaries = evaluate(&distinct, 100_000);
    assert_eq!(summaries.last().map(String::as_str), Some("Evaluation limit exceeded"), "{summaries:?}");
    assert_eq!(evaluate(&distinct, 10_000_000).len(), 20);
}

#[test]
fn conditionals_between_deeply_nested_types_unify_through_remembered_plans() {
    // Unification plans each level's conversions to its target, each
    // containing the next level's; the plans are remembered by the types'
    // shared parts (planned anew per level, 1,000 levels took some 10⁹
    // steps, 1.6 s in a release build). The results stay those of
    // planning each anew.
    let d = 1_000;
    let (x, y) = (format!("{}1{}", "[".repeat(d), "]".repeat(d)), format!("{}\"s\"{}", "{a=".repeat(d), "}".repeat(d)));
    let (x2, y2) = (format!("{}1{}", "[".repeat(d), "]".repeat(d)), format!("{}\"s\"{}", "[".repeat(d), "]".repeat(d)));
    let (failed, summaries) = eval_with(&format!("true ? {x2} : {y2}"), Limits::default());
    assert!(!failed, "{summaries:?}");
    // Tuples and objects do not unify.
    let (failed, _) = eval_with(&format!("true ? {x} : {y}"), Limits::default());
    assert!(failed);
}

#[test]
fn set_keys_of_shared_parts_are_charged_per_element_written() {
    // Fifty tuples sharing one list of 100,000 numbers: deduplicating them
    // writes (hashes) the list fifty times. Each element written is a step.
    let big = Value::list((0..100_000).map(Value::int).collect()).expect("a list");
    let vars = Variables::new().with("big", big);
    let src = "length(toset([for i in range(50) : [i, big]]))";
    let run = |max_steps: u64| {
        let program = Compiled::expression(src, &Options::new().variables(["big"]).max_steps(max_steps)).expect("compiles");
        let e = program.evaluate(&vars);
        (e.value().cloned(), summaries(&e))
    };
    let (value, diags) = run(1_000_000);
    assert_eq!(diags, ["Evaluation limit exceeded"]);
    assert_eq!(value, None);
    let (value, diags) = run(Limits::default().max_steps);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(value, Some(Value::int(50)));
}

#[test]
fn sets_stop_keying_their_elements_once_out_of_steps() {
    // Keys cut short once the steps are spent would all be alike: the
    // elements after that point are not grouped by them (each would be
    // compared with all the others: 22,500 tuples, 250 million pairs).
    let big = Value::list((0..1_000).map(Value::int).collect()).expect("a list");
    let vars = Variables::new().with("big", big);
    let tuples = "[for p in setproduct(range(150), range(150)) : [p, big]]";
    for src in [format!("length(toset({tuples}))"), format!("setintersection({tuples}, [[[1, 1], big]])")] {
        let program = Compiled::expression(&src, &Options::new().variables(["big"]).max_steps(2_000_000)).expect("compiles");
        let e = program.evaluate(&vars);
        assert_eq!(summaries(&e), ["Evaluation limit exceeded"], "{src}");
    }
}

#[test]
fn sets_of_numbers_of_extreme_magnitude_count_their_digits() {
    // A set keys each number by its decimal text, which takes a bignum as
    // long as the exponent: at 1e-99999 about a millisecond (more in a
    // debug build). That work counts against the step budget, so a set of
    // many copies ends at it; 100,000 copies took a minute.
    let copies = "length(toset([for i in range(100) : 1.2345678901234567e-99999]))";
    let (failed, reported) = eval_with(copies, Limits { max_steps: 1_000_000, ..Limits::default() });
    assert!(failed, "{reported:?}");
    assert_eq!(reported.last().map(String::as_str), Some("Evaluation limit exceeded"));
    // Under the default budget the same set is built (its copies are one).
    let program = Compiled::expression(copies, &Options::new()).expect("compiles");
    let out = program.evaluate(&Variables::new());
    assert!(!out.has_errors(), "{:?}", summaries(&out));
    assert_eq!(out.value().and_then(|v| v.as_number()?.to_i64()), Some(1));
}

#[test]
fn comparing_numbers_of_huge_precision_counts_their_digits() {
    // `parseint` of 20,000 digits has a precision of 66,000 bits; `==`
    // with a 512-bit number of the same value compares their texts
    // (cty's equality), each a bignum conversion. That work counts: a loop
    // of such comparisons ends at the step budget.
    let digits = format!("1{}", "0".repeat(19_999));
    let vars = Variables::new().with("s", Value::string(&digits));
    // With a 512-bit number, and with a small integer (the other side's
    // text is written all the same).
    for other in ["1e19999", "1"] {
        let src = format!("[for i in range(1000) : parseint(s, 10) == {other}]");
        let reported = summaries_within(&src, 2_000_000, &vars);
        assert_eq!(reported.last().map(String::as_str), Some("Evaluation limit exceeded"), "{other}: {reported:?}");
    }
    // One such comparison is within the default budget, and true.
    let once = Compiled::expression("parseint(s, 10) == 1e19999", &Options::new()).expect("compiles");
    let out = once.evaluate(&vars);
    assert_eq!(out.value().and_then(Value::as_bool), Some(true), "{:?}", summaries(&out));
}

#[test]
fn arithmetic_on_numbers_of_high_precision_counts_its_work() {
    // `parseint` of 20,000 digits has a precision of 66,439 bits, which
    // every result made from it carries: a sum copies a thousand words, a
    // product or quotient multiplies them. A loop of ten thousand such
    // operations ends at the step budget (each counted as one step, they
    // ran for an hour at 100,000 digits).
    let digits = "7".repeat(20_000);
    let vars = Variables::new().with("s", Value::string(&digits));
    // Also an integer made from it, held small but at its precision; and
    // such a number as a key (its text: a map's key, an index out of range).
    let ops = [
        "n * n",
        "n / n",
        "n % n",
        "n / 3",
        "n + n",
        "n - 1",
        "-n",
        "n < n",
        "floor(n)",
        "max(n, 1)",
        "m / 3",
        "try({a = 1}[n], 0)",
        "try([1][n], 0)",
        "{(n) = 1}",
        "{for k in [n] : k => 1}",
    ];
    for op in ops {
        // (`m`, made outside the loop, is an integer held small.)
        let src = format!("[for n in [parseint(s, 10)] : [for m in [n - n + 1] : [for i in range(1000) : [for j in range(10) : {op}]]]]");
        assert_eq!(summaries_within(&src, 2_000_000, &vars), ["Evaluation limit exceeded"], "{op}");
    }
    // A number of huge magnitude as a key: its text has 100,000 digits.
    for op in ["try({a = 1}[x], 0)", "{(x) = 1}"] {
        let src = format!("[for x in [1e99999] : [for i in range(1000) : [for j in range(10) : {op}]]]");
        assert_eq!(summaries_within(&src, 2_000_000, &Variables::new()), ["Evaluation limit exceeded"], "{op}");
    }
    // A conditional whose condition is unknown compares its results'
    // bounds.
    let src = "[for n in [parseint(s, 10)] : [for i in range(1000) : [for j in range(10) : u ? n : 1.5]]]";
    let with_unknown = vars.clone().with("u", Value::unknown(Type::Bool));
    assert_eq!(summaries_within(src, 2_000_000, &with_unknown), ["Evaluation limit exceeded"], "unknown condition");
    // One product whose work is more than the steps left is not done, and
    // its own error is not reported: the evaluation's end is.
    assert_eq!(summaries_within("[for n in [parseint(s, 10)] : n * n]", 30_000, &vars), ["Evaluation limit exceeded"]);
    // Within the default budget the results are cty's (the reference's
    // too): a product is rounded to 512 bits, so `(n * n) / n` is not `n`.
    let src = "[for n in [parseint(s, 10)] : n - n == 0 && n * 2 > n && n % 10 == 7 && -n < 0 && floor(n) == n && n / n == 1 && (n * n) / n != n][0]";
    let checks = Compiled::expression(src, &Options::new()).expect("compiles");
    let out = checks.evaluate(&vars);
    assert_eq!(out.value().and_then(Value::as_bool), Some(true), "{:?}", summaries(&out));
}

#[test]
fn integers_of_huge_magnitude_round_from_their_mantissa() {
    // 1e600000000 is an integer of two billion bits. `%`, `floor` and
    // `ceil` gave its integer part as cty does, writing it out (some
    // 500 MB, uncounted); they round from its mantissa now. This checks
    // the results of that way (the reference's, which takes over a minute
    // for `floor`); the last case of each list takes the way for
    // fractions.
    let numbers = [("1e600000000 % 3", 0), ("-1e600000000 % 3", 0), ("(1e300 * 1e300) % 9", 0), ("1.5e70 % 7", 6)];
    let bools = [
        "1e600000000 % 7 == 0",
        "floor(1e600000000) == 1e600000000",
        "ceil(-1e600000000) == -1e600000000",
        "floor(12345678901234567890123.5) == 12345678901234567890123",
    ];
    let small = Options::new().max_size(64 << 20);
    for (src, want) in numbers {
        let program = Compiled::expression(src, &small).expect("compiles");
        let out = program.evaluate(&Variables::new());
        assert_eq!(out.value().and_then(|v| v.as_number()?.to_i64()), Some(want), "{src}: {:?}", summaries(&out));
    }
    for src in bools {
        let program = Compiled::expression(src, &small).expect("compiles");
        let out = program.evaluate(&Variables::new());
        assert_eq!(out.value().and_then(Value::as_bool), Some(true), "{src}: {:?}", summaries(&out));
    }
}

#[test]
fn number_literals_of_many_digits_round_as_the_reference_rounds_them() {
    // A mantissa of 300,000 digits: converted whole (as Go converts it) it
    // takes a bignum conversion that grows faster than the text; bounded
    // from its leading digits it is read in linear time, and the result
    // is the reference's (whose output these are).
    let cases = [
        (format!("1{}e-299990", "7".repeat(300_000)), "17777777777.777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777"),
        (format!("-0.{}{}1e+1010", "0".repeat(1000), "3".repeat(299_000)), "-3333333333.3333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333332"),
    ];
    for (src, expect) in cases {
        let program = Compiled::expression(&src, &Options::new()).expect("compiles");
        let out = program.evaluate(&Variables::new());
        let mut line = String::new();
        out.write_result_json(&mut line);
        assert!(line.contains(&format!("\"value\":{expect}}}")), "{}", &line[..line.len().min(300)]);
    }
}

/// The diagnostics (summary and subject) of evaluating `collection`
/// indexed `depth` times, `[(0)]` each: its elements are as many levels
/// deeper.
fn indexed_diagnostics(collection: &str, depth: usize) -> Vec<(String, Option<(u32, u32)>)> {
    let src = format!("{collection}{}", "[(0)]".repeat(depth));
    let program = Compiled::expression(&src, &Options::new()).expect("compiles");
    let e = program.evaluate(&Variables::new());
    e.diagnostics().iter().map(|d| (d.summary.to_string(), d.subject.map(|s| (s.start, s.end)))).collect()
}

/// Where "Expression too deeply nested" was reported.
fn too_deep_at(diags: &[(String, Option<(u32, u32)>)]) -> Vec<Option<(u32, u32)>> {
    diags.iter().filter(|(s, _)| s == "Expression too deeply nested").map(|(_, at)| *at).collect()
}

/// The elements of a tuple of bare literals (kept as its text) past
/// lowering's depth limit fail each at its place, as a name there does.
#[test]
fn literal_tuple_elements_past_the_depth_limit_fail_at_their_place() {
    let literal = indexed_diagnostics("[1]", 4095);
    assert!(literal.contains(&("Expression too deeply nested".to_string(), Some((1, 2)))), "{literal:?}");
    assert_eq!(literal, indexed_diagnostics("[x]", 4095));
}

/// Past lowering's depth limit, a literal object's values and quoted keys
/// fail each at its place, as those of an object of names do.
#[test]
fn literal_object_items_past_the_depth_limit_fail_at_their_place() {
    for depth in [4093, 4094, 4095] {
        let literal = too_deep_at(&indexed_diagnostics("[{a = 1, \"b\" = 2}]", depth));
        assert_eq!(literal, too_deep_at(&indexed_diagnostics("[{a = x, \"b\" = y}]", depth)), "depth {depth}");
        // Under 4,094 levels of indexing nothing is too deep; at 4,094 the
        // values `1` (6..7) and `2` (15..16) and the key `"b"` (9..12) are,
        // the object itself not (at 4,095 it is).
        match depth {
            4093 => assert_eq!(literal, []),
            4094 => assert_eq!(literal, [Some((6, 7)), Some((9, 12)), Some((15, 16))]),
            _ => assert!(!literal.is_empty()),
        }
    }
}

/// Past lowering's depth limit, the items of a literal tuple's objects
/// fail each at its place, as those of a tuple of objects of names do.
#[test]
fn literal_tuple_objects_past_the_depth_limit_fail_at_their_place() {
    for depth in [4092, 4093, 4094, 4095] {
        let literal = too_deep_at(&indexed_diagnostics("[1, {a = 2}]", depth));
        assert_eq!(literal, too_deep_at(&indexed_diagnostics("[1, {a = x}]", depth)), "depth {depth}");
        // At 4,094 levels of indexing the object's value `2` (9..10) is
        // past the limit, the object not; at 4,095 the elements are.
        match depth {
            4092 | 4093 => assert_eq!(literal, []),
            4094 => assert_eq!(literal, [Some((9, 10))]),
            _ => assert!(literal.contains(&Some((4, 11))), "{literal:?}"),
        }
    }
}
