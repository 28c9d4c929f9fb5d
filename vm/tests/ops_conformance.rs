//! Evaluates the conformance cases that only use operators, accessors,
//! constructors, conditionals, `for`, splats and plain templates through
//! `vm::ops` (driven by a small tree-walking evaluator, `ops_support`),
//! and compares with the reference's expected results: ok/error, the
//! result's type and value, and the diagnostics' summary and detail.

#[path = "ops_support/mod.rs"]
mod ops_support;

use ops_support::eval::{Diag, Evaluator};
use ops_support::parse::{parse_expr, parse_template};
use runtime::json::{value_from_case_var, value_to_result_json};
use runtime::{Type, Value};
use serde_json::Value as J;
use std::collections::HashMap;

const CASE_DIR: &str = "/work/shared/conformance";
const FILES: &[&str] = &["semantics", "hclsyntax_expr", "hclsyntax_template", "spec", "specsuite"];

fn read_lines(path: &str) -> Vec<J> {
    let Ok(text) = std::fs::read_to_string(path) else { return Vec::new() };
    text.lines().filter(|l| !l.trim().is_empty()).filter_map(|l| serde_json::from_str(l).ok()).collect()
}

/// The outcome of one case, in the shape of the oracle's result line.
#[derive(Debug, PartialEq)]
enum Outcome {
    Ok { ty: J, value: J, known: bool },
    Err { diags: Vec<Diag> },
}

fn run_case(case: &J) -> Result<Outcome, String> {
    let src = case.get("src").and_then(J::as_str).ok_or("no src")?;
    let mode = case.get("mode").and_then(J::as_str).unwrap_or("");
    let expr = match mode {
        "expr" => parse_expr(src),
        "template" => parse_template(src),
        _ => return Err("mode".into()),
    }
    .map_err(|u| u.0)?;
    let mut vars = HashMap::new();
    if let Some(J::Object(m)) = case.get("vars") {
        for (k, v) in m {
            vars.insert(k.clone(), value_from_case_var(v).map_err(|e| format!("var {k}: {e}"))?);
        }
    }
    if let Some(J::Object(m)) = case.get("unknowns") {
        for (k, t) in m {
            let ty = Type::from_json(t).map_err(|e| format!("unknown {k}: {e}"))?;
            vars.insert(k.clone(), Value::unknown(ty));
        }
    }
    let mut ev = Evaluator::new(vars);
    let v = ev.eval(&expr);
    if !ev.diags.is_empty() {
        return Ok(Outcome::Err { diags: ev.diags });
    }
    let value = value_to_result_json(&v).map_err(|e| e.to_string())?;
    let mut ty = String::new();
    v.ty().write_json(&mut ty);
    let ty: J = serde_json::from_str(&ty).map_err(|e| e.to_string())?;
    Ok(Outcome::Ok { ty, value, known: v.is_wholly_known() })
}

fn expected_outcome(exp: &J) -> Option<Outcome> {
    if exp.get("ok").and_then(J::as_bool)? {
        return Some(Outcome::Ok {
            ty: exp.get("type")?.clone(),
            value: exp.get("value")?.clone(),
            known: exp.get("known").and_then(J::as_bool).unwrap_or(true),
        });
    }
    if exp.get("phase").and_then(J::as_str)? != "eval" {
        return None;
    }
    let diags = exp
        .get("diags")?
        .as_array()?
        .iter()
        .map(|d| Diag {
            summary: d.get("summary").and_then(J::as_str).unwrap_or("").to_string(),
            detail: d.get("detail").and_then(J::as_str).unwrap_or("").to_string(),
        })
        .collect();
    Some(Outcome::Err { diags })
}

#[test]
fn conformance_cases_through_ops() {
    // Deeply nested cases recurse in the test's own parser and evaluator.
    let t = std::thread::Builder::new().stack_size(256 << 20).spawn(run_all).expect("thread");
    t.join().expect("conformance run panicked");
}

fn run_all() {
    let mut total = 0;
    let mut ran = 0;
    let mut failures = Vec::new();
    let mut per_file = Vec::new();
    let mut skipped: HashMap<String, usize> = HashMap::new();
    for file in FILES {
        let cases = read_lines(&format!("{CASE_DIR}/cases/{file}.jsonl"));
        let expected: HashMap<String, J> = read_lines(&format!("{CASE_DIR}/expected/{file}.expected.jsonl"))
            .into_iter()
            .filter_map(|e| Some((e.get("id")?.as_str()?.to_string(), e)))
            .collect();
        let (mut f_ran, mut f_total) = (0, 0);
        for case in &cases {
            if !matches!(case.get("mode").and_then(J::as_str), Some("expr" | "template")) {
                continue;
            }
            let Some(id) = case.get("id").and_then(J::as_str) else { continue };
            let Some(want) = expected.get(id).and_then(expected_outcome) else { continue };
            total += 1;
            f_total += 1;
            let got = match run_case(case) {
                Ok(got) => got,
                Err(why) => {
                    *skipped.entry(why).or_insert(0usize) += 1;
                    continue;
                }
            };
            ran += 1;
            f_ran += 1;
            if got != want {
                failures.push(format!("{id}\n   src:  {}\n   got:  {got:?}\n   want: {want:?}", case["src"]));
            }
        }
        per_file.push(format!("{file}: {f_ran}/{f_total}"));
    }
    eprintln!("ops conformance: evaluated {ran} of {total} expr/template cases ({}); {} differ", per_file.join(", "), failures.len());
    let mut skipped: Vec<_> = skipped.into_iter().collect();
    skipped.sort_by_key(|s| std::cmp::Reverse(s.1));
    eprintln!("skipped (not in the subset evaluator): {skipped:?}");
    for f in &failures {
        eprintln!("DIFF {f}");
    }
    if total > 0 {
        assert!(ran * 2 > total, "the subset evaluator should cover most cases ({ran}/{total})");
    }
    assert!(failures.is_empty(), "{} cases differ from the reference", failures.len());
}

/// Operator/accessor/constructor matrix over literals, typed nulls,
/// unknowns of many types and collections (`tests/data/ops_matrix.jsonl`:
/// case plus the reference's result, generated with the oracle).
#[test]
fn ops_matrix_against_reference() {
    let t = std::thread::Builder::new().stack_size(64 << 20).spawn(run_matrix).expect("thread");
    t.join().expect("matrix run panicked");
}

fn run_matrix() {
    let mut rows = read_lines(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/ops_matrix.jsonl"));
    assert!(rows.len() > 4000, "matrix data missing ({} rows)", rows.len());
    let edge = read_lines(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/ops_edge.jsonl"));
    assert!(edge.len() > 150, "edge-case data missing ({} rows)", edge.len());
    rows.extend(edge);
    check_rows(&rows);
}

/// Rows in the same format from the file named by `OPS_ROWS` (e.g. random
/// expressions with oracle results, for differential runs).
#[test]
#[ignore = "needs OPS_ROWS=<file of {case, expected} lines>"]
fn rows_from_env() {
    let path = std::env::var("OPS_ROWS").expect("OPS_ROWS");
    let rows = read_lines(&path);
    assert!(!rows.is_empty(), "no rows in {path}");
    let t = std::thread::Builder::new().stack_size(64 << 20).spawn(move || check_rows(&rows)).expect("thread");
    t.join().expect("rows run panicked");
}

fn check_rows(rows: &[J]) {
    let mut failures = Vec::new();
    let mut ran = 0;
    for row in rows {
        let (Some(case), Some(want)) = (row.get("case"), row.get("expected").and_then(expected_outcome)) else {
            continue;
        };
        let got = match run_case(case) {
            Ok(got) => got,
            Err(why) => {
                failures.push(format!("{}: not evaluable: {why}", case["id"]));
                continue;
            }
        };
        ran += 1;
        if got != want {
            failures.push(format!("{}\n   src:  {}\n   got:  {got:?}\n   want: {want:?}", case["id"], case["src"]));
        }
    }
    eprintln!("ops matrix: {ran} of {} rows evaluated; {} differ", rows.len(), failures.len());
    for f in failures.iter().take(60) {
        eprintln!("DIFF {f}");
    }
    assert!(failures.is_empty(), "{} matrix rows differ from the reference", failures.len());
}
