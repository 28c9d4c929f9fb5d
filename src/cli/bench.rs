//! `hclvm bench`: the oracle's bench mode (same flags, same one-line JSON
//! output, same `result_checksum`), so the two can be compared in one run.

use super::Status;
use crate::conformance::{parse_json, ResultWriter};
use crate::engine::{compile, compile_body, table_for, write_body_results, write_value_result, CompiledBody, ShapeCache, SourceKind};
use crate::conformance::FuncTable;
use clap::Args;
use compiler::lower::CompileEnv;
use compiler::Interner;
use runtime::diag::DiagnosticsExt;
use runtime::{Diagnostic, Value};
use std::time::Instant;
use vm::{BodyEvaluation, Program, Scratch, Vars};

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
    /// Parse (and compile) the source this many times; parse_ns is the mean.
    #[arg(long = "parse-iters", default_value_t = 1)]
    parse_iters: u64,
    /// stdlib | none
    #[arg(long, default_value = "stdlib")]
    funcs: String,
}

fn fnv1a(hash: &mut u64, bytes: &[u8]) {
    for b in bytes {
        *hash ^= u64::from(*b);
        *hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
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

enum Compiled {
    Expr(Program),
    Body(CompiledBody),
}

pub fn run(args: BenchArgs) -> Status {
    if !matches!(args.mode.as_str(), "expr" | "template" | "body") {
        return usage("--mode must be expr, template or body");
    }
    let funcs = match args.funcs.as_str() {
        "stdlib" => FuncTable::Stdlib,
        "none" => FuncTable::None,
        other => return usage(format!("unknown --funcs {other:?} (stdlib or none)")),
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
    let mut raw_lines: Vec<serde_json::Map<String, serde_json::Value>> = Vec::new();
    for (no, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        match parse_json(line) {
            Ok(serde_json::Value::Object(m)) => raw_lines.push(m),
            Ok(_) => return fail(format!("{}:{}: not a JSON object", args.vars_jsonl, no + 1)),
            Err(e) => return fail(format!("{}:{}: {e}", args.vars_jsonl, no + 1)),
        }
    }
    if raw_lines.is_empty() {
        return fail("vars file has no lines");
    }
    let mut names: Vec<&str> = raw_lines.iter().flat_map(|l| l.keys().map(String::as_str)).collect();
    names.sort_unstable();
    names.dedup();
    let env = CompileEnv::new(names.iter().copied(), table_for(funcs));

    let parse_iters = args.parse_iters.max(1);
    let t0 = Instant::now();
    let mut compiled = None;
    for _ in 0..parse_iters {
        let arena = bumpalo::Bump::new();
        let mut interner = Interner::new();
        let (c, diags) = match args.mode.as_str() {
            "body" => {
                let (body, diags) = compiler::parse_body(&arena, &src, &mut interner);
                (Compiled::Body(compile_body(&body, &src, &interner, &env)), diags)
            }
            mode => {
                let (e, diags) = if mode == "template" {
                    compiler::parse_template(&arena, &src, &mut interner)
                } else {
                    compiler::parse_expression(&arena, &src, &mut interner)
                };
                let kind = if mode == "template" { SourceKind::Template } else { SourceKind::Expr };
                (Compiled::Expr(compile(e, &src, kind, &interner, &env)), diags)
            }
        };
        if diags.has_errors() {
            let mut w = ResultWriter::new(&src);
            w.failure("parse", &diags);
            return fail(format!("parse failed: {{{}}}", w.as_str()));
        }
        compiled = Some(c);
    }
    let parse_ns = t0.elapsed().as_nanos() / u128::from(parse_iters);
    let Some(compiled) = compiled else { return fail("nothing compiled") };

    // Converted and bound once, before timing (as the oracle builds its
    // contexts). Objects take the program's attribute names, as
    // `Compiled::evaluate_json` does.
    let attr_names = match &compiled {
        Compiled::Expr(p) => p.chunk().attr_names(),
        Compiled::Body(b) => b.attr_names(),
    };
    let mut shapes = ShapeCache::new();
    let mut all_vars: Vec<Vars> = Vec::with_capacity(raw_lines.len());
    for (no, line) in raw_lines.iter().enumerate() {
        let mut v = Vars::with_slots(names.len());
        for (n, raw) in line {
            let val = match runtime::json::value_from_case_var_with(raw, attr_names) {
                Ok(val) => val,
                Err(e) => return fail(format!("{}: line {}: {n}: {e}", args.vars_jsonl, no + 1)),
            };
            if let Ok(i) = names.binary_search(&n.as_str()) {
                v.set(i as u32, shapes.share(&val));
            }
        }
        all_vars.push(v);
    }
    // The JSON is not needed any more; nor is the memory it holds.
    drop(shapes);
    drop(names);
    drop(raw_lines);

    let programs: Vec<&Program> = match &compiled {
        Compiled::Expr(p) => vec![p],
        Compiled::Body(b) => b.programs(),
    };
    let mut first: Vec<(Value, Vec<Diagnostic>)> = Vec::with_capacity(all_vars.len() * programs.len());
    let mut scratch = Scratch::new();
    let mut evals: u64 = 0;
    let mut passes: u64 = 0;
    let t1 = Instant::now();
    loop {
        for vars in &all_vars {
            let mut run = BodyEvaluation::new(&mut scratch, vars);
            for p in &programs {
                let v = run.evaluate(p);
                if passes == 0 {
                    first.push((v, run.scratch().take_diags()));
                } else {
                    std::hint::black_box(v);
                }
            }
            evals += 1;
        }
        passes += 1;
        if evals >= args.iters {
            break;
        }
    }
    let eval_ns = t1.elapsed().as_nanos();

    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut error_evals = 0u64;
    for rs in first.chunks(programs.len().max(1)) {
        if rs.iter().any(|(_, d)| d.has_errors()) {
            error_evals += 1;
        }
        let mut w = ResultWriter::new(&src);
        w.raw("{");
        match &compiled {
            Compiled::Body(b) => {
                w.raw("\"ok\":true,\"body\":");
                write_body_results(&mut w, b, &mut rs.iter());
            }
            Compiled::Expr(_) => {
                if let Some((v, d)) = rs.first() {
                    write_value_result(&mut w, v, d, Some("eval"));
                }
            }
        }
        w.raw("}\n");
        fnv1a(&mut hash, w.as_str().as_bytes());
    }
    let ns_per_eval = eval_ns as f64 / evals.max(1) as f64;
    println!(
        "{{\"mode\":\"{}\",\"parse_ns\":{},\"vars_lines\":{},\"passes\":{},\"evals\":{},\"eval_ns_total\":{},\"ns_per_eval\":{},\"first_pass_errors\":{},\"result_checksum\":\"{:016x}\"}}",
        args.mode,
        parse_ns,
        all_vars.len(),
        passes,
        evals,
        eval_ns,
        go_float(ns_per_eval),
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
