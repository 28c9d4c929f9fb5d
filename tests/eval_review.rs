//! Findings of a review of the register VM, kept as regression tests:
//! cases where it differed from the reference (hcl-oracle output recorded
//! per row) or from the evaluator it replaced.
//!
//! Operator fast path: when an operand reported an error but still has a
//! known value (a multi-part template with a null interpolation yields the
//! string built so far; indexing with such a template as key yields the
//! element), hcl's BinaryOpExpr returns an unknown result because its
//! diagnostics have errors. The VM used to take `vm::ops::binary_fast`
//! before checking its mark, so the comparison yielded a known bool and a
//! conditional then reported its selected branch's diagnostics too.

use hclvm::conformance::{default_evaluator, run_line};

const ROWS: &[(&str, &str)] = &[
    (
        r###"{"id":"fast-eq-after-error","mode":"expr","src":"(\"a${null}\" == \"a\") ? undefined_t : 1"}"###,
        r###"{"id":"fast-eq-after-error","ok":false,"phase":"eval","diags":[{"severity":"error","summary":"Invalid template interpolation value","detail":"The expression result is null. Cannot include a null value in a string template.","subject":{"start":{"line":1,"column":6,"byte":5},"end":{"line":1,"column":10,"byte":9}}}]}"###,
    ),
    (
        r###"{"id":"fast-add-after-error","mode":"expr","src":"({a = 1}[\"a${null}\"] + 1 == 2) ? undefined_t : 1"}"###,
        r###"{"id":"fast-add-after-error","ok":false,"phase":"eval","diags":[{"severity":"error","summary":"Invalid template interpolation value","detail":"The expression result is null. Cannot include a null value in a string template.","subject":{"start":{"line":1,"column":14,"byte":13},"end":{"line":1,"column":18,"byte":17}}}]}"###,
    ),
    (
        r###"{"id":"fast-and-after-error","mode":"expr","src":"({a = true}[\"a${null}\"] && true) ? undefined_t : 1"}"###,
        r###"{"id":"fast-and-after-error","ok":false,"phase":"eval","diags":[{"severity":"error","summary":"Invalid template interpolation value","detail":"The expression result is null. Cannot include a null value in a string template.","subject":{"start":{"line":1,"column":17,"byte":16},"end":{"line":1,"column":21,"byte":20}}}]}"###,
    ),
];

#[test]
fn operator_with_failed_operand_is_unknown() {
    let evaluator = default_evaluator();
    let mut failures = Vec::new();
    for (i, (case, want)) in ROWS.iter().enumerate() {
        let got = run_line(case.as_bytes(), i + 1, &evaluator);
        if got != *want {
            failures.push(format!("case: {case}\n want: {want}\n  got: {got}"));
        }
    }
    assert!(failures.is_empty(), "{} of {} rows differ:\n{}", failures.len(), ROWS.len(), failures.join("\n"));
}

/// Once the step budget runs out, a `for` whose last iteration could not be
/// charged used to end with the elements collected so far, and the rest of
/// the block ran on that partial tuple: indexing it reported a spurious
/// "Invalid index" before "Evaluation limit exceeded". With any budget, the
/// diagnostics must be either none or only the limit.
#[test]
fn no_spurious_diagnostics_after_the_step_limit() {
    use hclvm::engine::{compile_source, stdlib_table, SourceKind};
    use hclvm::vm::{evaluate, Limits, Scratch, Vars};
    let src = "[for i in [1, 2, 3] : i][2]";
    let program = compile_source(SourceKind::Expr, src.as_bytes(), &[], Some(stdlib_table())).unwrap();
    let mut bad = Vec::new();
    for max_steps in 0..64 {
        let mut scratch = Scratch::with_limits(Limits { max_steps, ..Limits::default() });
        let _ = evaluate(&program, &Vars::default(), &mut scratch);
        let summaries: Vec<String> = scratch.diags().iter().map(|d| d.summary.clone()).collect();
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
/// runs out of budget: `range` then fails on each remaining iteration.
/// Memoization should not change what an evaluation reports.
#[test]
fn memoized_calls_are_charged_like_calls() {
    use hclvm::engine::{compile_source, stdlib_table, SourceKind};
    use hclvm::vm::{evaluate, Limits, Scratch, Vars};
    let run = |src: &str, max_size: u64| -> Vec<String> {
        let program = compile_source(SourceKind::Expr, src.as_bytes(), &[], Some(stdlib_table())).unwrap();
        let mut scratch = Scratch::with_limits(Limits { max_size, ..Limits::default() });
        let _ = evaluate(&program, &Vars::default(), &mut scratch);
        scratch.diags().iter().map(|d| format!("{}: {}", d.summary, d.detail)).collect()
    };
    let mut bad = Vec::new();
    for max_size in [1u64 << 16, 1 << 18, 1 << 20, 1 << 22] {
        let memoized = run("[for i in range(100) : range(1000)]", max_size);
        let called = run("[for i in range(100) : range(1000 + i * 0)]", max_size);
        if memoized != called {
            bad.push(format!("max_size {max_size}: memoized {} diagnostics, called {}: {:?}", memoized.len(), called.len(), called.first()));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
