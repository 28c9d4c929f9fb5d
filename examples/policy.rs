//! Decide access requests with an HCL policy: compile the policy once, then
//! evaluate it for every request read from JSON Lines, in parallel.
//!
//!     cargo run --release --example policy -- POLICY.hcl REQUESTS.jsonl [THREADS]
//!
//! Each `rule "name" { condition = BOOL, message = STRING }` block of the
//! policy is a check; a request is allowed when every condition holds. One
//! JSON line per request is printed: `{"line":N,"allow":true}` or
//! `{"line":N,"allow":false,"denied_by":[{"rule":..,"message":..}]}`; a
//! request that cannot be evaluated gets `{"line":N,"error":..}`.
//! Try it on `../shared/bench/policy/` (the shared folder beside the
//! repository) or on the small policy below (run without arguments).

use hclvm::{Compiled, Evaluation, Options};
use serde::Deserialize;
use std::io::{BufRead, BufReader, Write};

/// What each rule block evaluates to.
#[derive(Deserialize)]
struct Rule {
    condition: bool,
    message: String,
}

const DEMO_POLICY: &str = r#"
rule "known_user" {
  condition = contains(["ann", "bob"], request.user)
  message   = "unknown user ${request.user}"
}
rule "amount_limit" {
  condition = request.amount <= 100
  message   = "amount ${request.amount} is over 100"
}
"#;

const DEMO_REQUESTS: &str = r#"{"request": {"user": "ann", "amount": 20}}
{"request": {"user": "eve", "amount": 500}}
{"request": {"user": "bob"}}
"#;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (policy_src, requests): (String, Box<dyn BufRead>) = match args.as_slice() {
        [] => (DEMO_POLICY.to_string(), Box::new(DEMO_REQUESTS.as_bytes())),
        [policy, requests, ..] => (std::fs::read_to_string(policy)?, Box::new(BufReader::new(std::fs::File::open(requests)?))),
        [_] => return Err("usage: policy POLICY.hcl REQUESTS.jsonl [THREADS]".into()),
    };
    let threads: usize = args.get(2).map(|t| t.parse()).transpose()?.unwrap_or(2).max(1);

    // Compile once; the compiled policy is shared by all threads.
    let policy = Compiled::body(&policy_src, &Options::new().filename("policy.hcl"))?;
    let lines: Vec<String> = requests.lines().collect::<Result<_, _>>()?;

    // Each thread decides a contiguous share of the requests; output keeps
    // input order.
    let share = lines.len().div_ceil(threads).max(1);
    let decisions: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = lines
            .chunks(share)
            .enumerate()
            .map(|(chunk, part)| {
                let policy = &policy;
                scope
                    .spawn(move || part.iter().enumerate().map(|(i, line)| decide(policy, line, chunk * share + i + 1)).collect::<Vec<_>>())
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap_or_default()).collect()
    });

    let mut out = std::io::stdout().lock();
    for d in decisions {
        writeln!(out, "{d}")?;
    }
    Ok(())
}

/// The decision line for one request.
fn decide(policy: &Compiled, line: &str, line_no: usize) -> String {
    let evaluation = match policy.evaluate_json_str(line, false) {
        Ok(e) => e,
        Err(e) => return serde_json::json!({"line": line_no, "error": e.to_string()}).to_string(),
    };
    match denials(&evaluation) {
        Ok(denied) if denied.is_empty() => serde_json::json!({"line": line_no, "allow": true}).to_string(),
        Ok(denied) => serde_json::json!({"line": line_no, "allow": false, "denied_by": denied}).to_string(),
        Err(e) => serde_json::json!({"line": line_no, "error": e.to_string()}).to_string(),
    }
}

/// The rules whose condition is false, with their messages.
fn denials(evaluation: &Evaluation) -> Result<Vec<serde_json::Value>, hclvm::Error> {
    // Any error (a missing field in the request, a type mismatch) makes the
    // whole request undecidable rather than silently allowed.
    evaluation.check()?;
    let mut denied = Vec::new();
    let Some(body) = evaluation.body() else { return Ok(denied) };
    for block in body.blocks_of_type("rule") {
        let name = block.labels().next().unwrap_or("");
        let rule: Rule = hclvm::from_value(&block.body().to_value()?)?;
        if !rule.condition {
            denied.push(serde_json::json!({"rule": name, "message": rule.message}));
        }
    }
    Ok(denied)
}
