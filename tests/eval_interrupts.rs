//! Deadlines and cancellation (`Options::deadline`, `Options::cancel_token`,
//! `Compiled::evaluate_cancellable`): an evaluation that would run for
//! hours stops soon after its deadline or its cancellation, with an error,
//! and only the evaluation that was cancelled stops. Times are asserted
//! loosely (these machines are shared and noisy): stopping within seconds
//! what would take hours.

use hclvm::{CancelToken, Compiled, Evaluation, Options, Value, Variables};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// Ten billion iterations of a loop over a large input that keeps
/// nothing: hours of work, in constant memory.
const SLOW: &str = "[for x in xs : x if length([for y in xs : y if y < 0]) > 0]";

/// Well under the time the slow loop would take, well over any stall of
/// a busy machine.
const PROMPTLY: Duration = Duration::from_secs(20);

fn large_input() -> Variables {
    Variables::new().with("xs", Value::tuple((0..100_000).map(Value::int).collect()))
}

/// Options whose budgets do not end the slow loop first.
fn unbounded() -> Options {
    Options::new().max_steps(u64::MAX).max_size(u64::MAX)
}

fn summaries(e: &Evaluation<'_>) -> Vec<String> {
    e.diagnostics().iter().map(|d| d.summary.to_string()).collect()
}

#[test]
fn a_long_for_stops_soon_after_it_is_cancelled() {
    let slow = Compiled::expression(SLOW, &unbounded()).expect("compiles");
    let vars = large_input();
    let token = CancelToken::new();
    let remote = token.clone();
    let canceller = thread::spawn(move || {
        thread::sleep(Duration::from_millis(50));
        remote.cancel();
        Instant::now()
    });
    let started = Instant::now();
    let out = slow.evaluate_cancellable(&vars, &token);
    let ended = Instant::now();
    let cancelled_at = canceller.join().expect("canceller");
    assert_eq!(summaries(&out), ["Evaluation cancelled"]);
    assert_eq!(out.diagnostics()[0].detail, "The evaluation was cancelled before the expression was evaluated.");
    assert!(out.value().is_none(), "no value from a cancelled evaluation");
    // It ran until it was cancelled, and stopped promptly after.
    assert!(ended >= cancelled_at, "ended before it was cancelled");
    assert!(ended - started < PROMPTLY, "took {:?} to stop", ended - started);
}

#[test]
fn cancelling_one_evaluation_leaves_the_others_of_a_shared_program_running() {
    let slow = Arc::new(Compiled::expression(SLOW, &unbounded()).expect("compiles"));
    let vars = Arc::new(large_input());
    let (first, second) = (CancelToken::new(), CancelToken::new());
    let run = |token: &CancelToken| {
        let (slow, vars, token) = (slow.clone(), vars.clone(), token.clone());
        thread::spawn(move || {
            let out = slow.evaluate_cancellable(&vars, &token);
            (summaries(&out), Instant::now())
        })
    };
    let (a, b) = (run(&first), run(&second));
    thread::sleep(Duration::from_millis(50));
    first.cancel();
    let (a_summaries, a_ended) = a.join().expect("first evaluation");
    assert_eq!(a_summaries, ["Evaluation cancelled"]);
    // The second evaluation watches only its own token: it is still
    // running (it can end no other way), until that token is cancelled.
    thread::sleep(Duration::from_millis(50));
    let second_cancelled = Instant::now();
    second.cancel();
    let (b_summaries, b_ended) = b.join().expect("second evaluation");
    assert_eq!(b_summaries, ["Evaluation cancelled"]);
    assert!(b_ended >= second_cancelled && b_ended > a_ended);
    assert!(b_ended - second_cancelled < PROMPTLY);
    // The program is none the worse: the next evaluation runs to its end.
    let quick = Variables::new().with("xs", Value::tuple((0..10).map(Value::int).collect()));
    assert_eq!(slow.evaluate_cancellable(&quick, &CancelToken::new()).value(), Some(&Value::tuple(Vec::new())));
}

#[test]
fn a_deadline_ends_each_evaluation_that_outlives_it() {
    let options = unbounded().deadline(Duration::from_millis(50));
    let slow = Compiled::expression(SLOW, &options).expect("compiles");
    for _ in 0..2 {
        // Each evaluation has its own deadline, counted from its start.
        let started = Instant::now();
        let out = slow.evaluate(&large_input());
        let took = started.elapsed();
        assert_eq!(summaries(&out), ["Evaluation limit exceeded"]);
        assert_eq!(out.diagnostics()[0].detail, "The expression needs more time than this evaluation allows.");
        assert!(took >= Duration::from_millis(50), "stopped after {took:?}, before its deadline");
        assert!(took < PROMPTLY, "took {took:?} to stop");
    }
    // Quick evaluations end before it and are unaffected.
    let quick = Variables::new().with("xs", Value::tuple((0..10).map(Value::int).collect()));
    assert!(!slow.evaluate(&quick).has_errors());
}

#[test]
fn a_body_shares_one_deadline_and_later_attributes_with_code_fail_too() {
    let src = format!("slow = {SLOW}\nafter = [for x in small : x * 2]\nconstant = 1 + 1\n");
    let options = unbounded().deadline(Duration::from_millis(50));
    let body = Compiled::body(&src, &options).expect("compiles");
    let vars = large_input().with("small", Value::tuple(vec![Value::int(1)]));
    let out = body.evaluate(&vars);
    let body = out.body().expect("a body");
    let slow = body.attribute("slow").expect("slow");
    assert_eq!(slow.diagnostics()[0].detail, "The expression needs more time than this evaluation allows.");
    let after = body.attribute("after").expect("after");
    assert_eq!(after.diagnostics()[0].summary, "Evaluation limit exceeded");
    // A folded constant needs no evaluation at all: its value, and none of
    // the diagnostics of the attributes before it.
    let constant = body.attribute("constant").expect("constant");
    assert_eq!(constant.value().and_then(|v| v.as_number()?.to_i64()), Some(2));
    assert!(constant.diagnostics().is_empty(), "{:?}", constant.diagnostics());
}

#[test]
fn a_token_in_the_options_cancels_every_evaluation_of_the_program() {
    let shutdown = CancelToken::new();
    let slow = Arc::new(Compiled::expression(SLOW, &unbounded().cancel_token(shutdown.clone())).expect("compiles"));
    let vars = Arc::new(large_input());
    let runs: Vec<_> = (0..2)
        .map(|_| {
            let (slow, vars) = (slow.clone(), vars.clone());
            thread::spawn(move || summaries(&slow.evaluate(&vars)))
        })
        .collect();
    thread::sleep(Duration::from_millis(50));
    let cancelled = Instant::now();
    shutdown.cancel();
    for run in runs {
        assert_eq!(run.join().expect("evaluation"), ["Evaluation cancelled"]);
    }
    assert!(cancelled.elapsed() < PROMPTLY);
    // And every later one, at its first check.
    let quick = Variables::new().with("xs", Value::tuple((0..3).map(Value::int).collect()));
    assert_eq!(summaries(&slow.evaluate(&quick)), ["Evaluation cancelled"]);
}

#[test]
fn an_evaluation_cancelled_before_it_starts_fails_at_once() {
    let e = Compiled::template("%{ for x in xs }${x}%{ endfor }", &Options::new()).expect("compiles");
    let token = CancelToken::new();
    token.cancel();
    let out = e.evaluate_cancellable(&large_input(), &token);
    assert_eq!(summaries(&out), ["Evaluation cancelled"]);
}

#[test]
fn limits_still_apply_and_come_first_when_reached_first() {
    let options = Options::new().max_steps(10_000).deadline(Duration::from_secs(3600));
    let slow = Compiled::expression(SLOW, &options).expect("compiles");
    let out = slow.evaluate_cancellable(&large_input(), &CancelToken::new());
    assert_eq!(out.diagnostics()[0].detail, "The expression needs more steps than this evaluation allows.");
}

#[test]
fn a_call_that_fails_as_its_cancellation_is_noticed_keeps_its_error() {
    // `cancel_now` cancels the evaluation and returns its argument; the
    // cancellation is noticed in the charge for the work `regex` does
    // searching the long text, where it fails of its own accord (no
    // match): both its error and the cancellation are reported.
    let token = CancelToken::new();
    let remote = token.clone();
    let mut table = hclvm::Functions::stdlib();
    table
        .register(hclvm::FunctionDef::with_static_type(
            "cancel_now",
            hclvm::Signature { params: vec![hclvm::Param::new("v", hclvm::Type::String)], var_param: None, pure: false },
            hclvm::Type::String,
            Arc::new(move |args, _, _| {
                remote.cancel();
                Ok(args[0].clone())
            }),
        ))
        .expect("a new name");
    let e = Compiled::expression("regex(\"x\", cancel_now(text))", &Options::new().functions(table)).expect("compiles");
    // Work enough for the next check: 200 KB searched.
    let text = Variables::new().with("text", Value::string(&"a".repeat(200_000)));
    let out = e.evaluate_cancellable(&text, &token);
    assert_eq!(summaries(&out), ["Error in function call", "Evaluation cancelled"]);
    assert!(out.diagnostics()[0].detail.contains("did not match"), "{}", out.diagnostics()[0].detail);
    // A call that stops for want of steps reports only the evaluation's end.
    let starved = Compiled::expression("regex(\"x\", text)", &Options::new().max_steps(1_000)).expect("compiles");
    assert_eq!(summaries(&starved.evaluate(&text)), ["Evaluation limit exceeded"]);
}
