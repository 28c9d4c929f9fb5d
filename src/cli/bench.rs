//! `hclvm bench`: the oracle's bench mode (same flags, same one-line JSON
//! output, same `result_checksum`), so the two can be compared in one run.

use super::{fnv1a, Status, FNV_OFFSET};
use crate::api::{BoundVariables, Compiled, Error, Evaluation, Options, SourceKind};
use clap::Args;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// expr | template | body
    #[arg(long, default_value = "expr")]
    mode: String,
    /// Source file.
    #[arg(long)]
    src: String,
    /// One JSON object NAME -> plain JSON value per line.
    #[arg(long = "vars-jsonl")]
    vars_jsonl: String,
    /// Minimum number of evaluations (whole passes; default one pass).
    #[arg(long, default_value_t = 0)]
    iters: u64,
    /// Time the evaluations this many times (each run `--iters`
    /// evaluations), as the hand-written Rust anchor's `--runs` does:
    /// `ns_per_eval` stays the first run's (the reference's bench mode has
    /// one run), `median_ns_per_eval` is the median run's.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1000))]
    runs: u64,
    /// Parse (and compile) the source this many times; parse_ns is the mean.
    #[arg(long = "parse-iters", default_value_t = 1)]
    parse_iters: u64,
    #[command(flatten)]
    funcs: super::FuncArgs,
    /// Evaluate `&&` and `||` with short-circuit, as hcl does since v2.21
    /// (not the reference's semantics: the checksum may differ from its).
    #[arg(long)]
    short_circuit: bool,
}

fn fail(msg: impl std::fmt::Display) -> Status {
    eprintln!("hclvm bench: {msg}");
    Status::ProblemsFound
}

/// A bad flag value or an unreadable file (exit status 2, as the other
/// commands).
fn usage(msg: impl std::fmt::Display) -> Status {
    eprintln!("hclvm bench: {msg}");
    Status::UsageOrIo
}

pub fn run(args: BenchArgs) -> Status {
    let kind = match args.mode.as_str() {
        "expr" => SourceKind::Expression,
        "template" => SourceKind::Template,
        "body" => SourceKind::Body,
        _ => return usage("--mode must be expr, template or body"),
    };
    let src = match std::fs::read(&args.src) {
        Ok(s) => s,
        Err(e) => return usage(format!("cannot read {}: {e}", args.src)),
    };
    let text = match std::fs::read_to_string(&args.vars_jsonl) {
        Ok(s) => s,
        Err(e) => return usage(format!("cannot read {}: {e}", args.vars_jsonl)),
    };
    // Every line's variables, read up front; they are converted once the
    // program is compiled, with its attribute names.
    let mut lines: Vec<(usize, &str)> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    for (no, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        match runtime::json::parse_json(line) {
            Ok(serde_json::Value::Object(m)) => names.extend(m.keys().cloned()),
            Ok(_) => return fail(format!("{}:{}: not a JSON object", args.vars_jsonl, no + 1)),
            Err(e) => return fail(format!("{}:{}: {e}", args.vars_jsonl, no + 1)),
        }
        lines.push((no + 1, line));
    }
    if lines.is_empty() {
        return fail("vars file has no lines");
    }
    // The oracle's contexts hold every name the lines set.
    let options = args.funcs.apply(Options::new().variables(names).short_circuit(args.short_circuit));

    let parse_iters = args.parse_iters.max(1);
    let t0 = Instant::now();
    let mut compiled = None;
    for _ in 0..parse_iters {
        match Compiled::compile(kind, &src, &options) {
            Ok(c) => compiled = Some(c),
            Err(Error::Compile(diags)) => {
                let mut fields = String::new();
                diags.write_failure("parse", &mut fields);
                return fail(format!("parse failed: {{{fields}}}"));
            }
            Err(e) => return fail(e),
        }
    }
    let parse_ns = t0.elapsed().as_nanos() / u128::from(parse_iters);
    let Some(compiled) = compiled else { return fail("nothing compiled") };

    // Converted and bound once, before timing (as the oracle builds its
    // contexts).
    let mut bound: Vec<BoundVariables> = Vec::with_capacity(lines.len());
    for (no, line) in lines {
        let vars = match compiled.variables_from_json_str(line, true) {
            Ok(v) => v,
            Err(e) => return fail(format!("{}: line {no}: {e}", args.vars_jsonl)),
        };
        bound.push(compiled.bind(&vars));
    }
    // The JSON is not needed any more; nor is the memory it holds.
    drop(text);

    // The first pass of the first run keeps its results for the checksum
    // (as the reference's bench mode does); later ones drop each result,
    // as a host that reads it in place.
    let mut first: Vec<Evaluation> = Vec::with_capacity(bound.len());
    let mut runs_ns: Vec<f64> = Vec::new();
    let (mut evals, mut eval_ns) = (0u64, 0u128);
    for run in 0..args.runs {
        let (mut run_evals, mut passes) = (0u64, 0u64);
        let t1 = Instant::now();
        loop {
            for vars in &bound {
                let evaluation = compiled.evaluate_bound(vars);
                if run == 0 && passes == 0 {
                    first.push(evaluation);
                } else {
                    std::hint::black_box(&evaluation);
                }
                run_evals += 1;
            }
            passes += 1;
            if run_evals >= args.iters {
                break;
            }
        }
        let ns = t1.elapsed().as_nanos();
        if run == 0 {
            (evals, eval_ns) = (run_evals, ns);
        }
        runs_ns.push(ns as f64 / run_evals.max(1) as f64);
    }
    let passes = evals / bound.len().max(1) as u64;
    let mut hash = FNV_OFFSET;
    let mut error_evals = 0u64;
    let mut line = String::new();
    for evaluation in &first {
        error_evals += u64::from(evaluation.has_errors());
        line.clear();
        evaluation.write_result_json(&mut line);
        line.push('\n');
        fnv1a(&mut hash, line.as_bytes());
    }
    let ns_per_eval = eval_ns as f64 / evals.max(1) as f64;
    let runs_list: Vec<String> = runs_ns.iter().map(|&ns| go_float((ns * 10.0).round() / 10.0)).collect();
    let mut sorted = runs_ns.clone();
    sorted.sort_by(f64::total_cmp);
    let median = sorted[sorted.len() / 2];
    println!(
        "{{\"mode\":\"{}\",\"parse_ns\":{},\"vars_lines\":{},\"passes\":{},\"evals\":{},\"eval_ns_total\":{},\"ns_per_eval\":{},\"runs\":{},\"runs_ns_per_eval\":[{}],\"median_ns_per_eval\":{},\"first_pass_errors\":{},\"result_checksum\":\"{:016x}\"}}",
        args.mode,
        parse_ns,
        bound.len(),
        passes,
        evals,
        eval_ns,
        go_float(ns_per_eval),
        args.runs,
        runs_list.join(","),
        go_float((median * 10.0).round() / 10.0),
        error_evals,
        hash
    );
    eprintln!("parse: {parse_ns} ns; {evals} evals in {eval_ns} ns ({ns_per_eval:.1} ns/eval)");
    Status::Ok
}

/// A float as Go's encoding/json writes it (shortest repr; integral values
/// without a fraction).
fn go_float(f: f64) -> String {
    if f.is_finite() && f == f.trunc() && f.abs() < 1e21 {
        format!("{}", f as i128)
    } else {
        format!("{f}")
    }
}
