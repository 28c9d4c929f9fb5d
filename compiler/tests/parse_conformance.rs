//! Parse-phase agreement with the reference on the conformance suite: we
//! fail to parse exactly when the reference does, and our first error
//! starts on the same line as the reference's first diagnostic. Reads the
//! repository's copy of the suite, `tests/data/conformance` (the same files
//! as the shared folder's); a missing file fails the test.

#[path = "../../tests/support/case_line.rs"]
mod case_line;
#[path = "../../tests/support/data.rs"]
mod data;

use case_line::{case_source, parse_json_deep};
use runtime::LineIndex;
use serde_json::Value;

struct Outcome {
    failed: bool,
    first_line: Option<u32>,
}

fn run_case(mode: &str, src: &[u8]) -> Outcome {
    let arena = bumpalo::Bump::new();
    let mut interner = compiler::Interner::new();
    let diags = match mode {
        "body" => compiler::parse_body(&arena, src, &mut interner).1,
        "template" => compiler::parse_template(&arena, src, &mut interner).1,
        _ => compiler::parse_expression(&arena, src, &mut interner).1,
    };
    let first = diags.iter().find(|d| d.is_error());
    let idx = LineIndex::new(src);
    Outcome { failed: first.is_some(), first_line: first.and_then(|d| d.subject).map(|s| idx.line_of(s.start) as u32 + 1) }
}

/// One expected result line. Successful results may nest values deeper than
/// serde_json's recursion limit; only the outcome is needed from those.
fn expectation(line: &str) -> Option<(String, Value)> {
    if let Ok(v) = serde_json::from_str::<Value>(line) {
        return Some((v["id"].as_str()?.to_owned(), v));
    }
    let id: String = serde_json::from_str(line.strip_prefix("{\"id\":")?.split(",\"ok\":").next()?).ok()?;
    let ok = line.contains(",\"ok\":true,");
    Some((id, serde_json::json!({ "ok": ok })))
}

#[test]
fn parse_phase_agrees_with_reference() {
    // JSON decoding of deeply nested case data needs more stack than the
    // parser does; the parser's own stack needs are tested in nesting.rs.
    let worker = std::thread::Builder::new().stack_size(64 << 20).spawn(check_suite).expect("spawn");
    worker.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
}

fn check_suite() {
    let dir = data::vendored("conformance");
    let mut cases = 0;
    let mut reference_failures = 0;
    let mut mismatches = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(dir.join("cases")).unwrap().flatten().map(|e| e.path()).collect();
    files.sort();
    for case_file in files {
        let stem = case_file.file_stem().unwrap().to_string_lossy().into_owned();
        let expected_file = dir.join("expected").join(format!("{stem}.expected.jsonl"));
        let expected_text = std::fs::read_to_string(&expected_file)
            .unwrap_or_else(|e| panic!("{stem} has no expectations ({}): {e}", expected_file.display()));
        let expected: std::collections::HashMap<String, Value> =
            expected_text.lines().filter(|l| !l.trim().is_empty()).filter_map(expectation).collect();
        for line in std::fs::read_to_string(&case_file).unwrap().lines() {
            if line.trim().is_empty() {
                continue;
            }
            let case = parse_json_deep(line).unwrap_or_else(|| panic!("{stem}: a case line is not JSON: {line}"));
            let id = case["id"].as_str().unwrap_or("").to_owned();
            let Some(exp) = expected.get(&id) else { continue };
            let Some(src) = case_source(&case) else { continue };
            let mode = case["mode"].as_str().unwrap_or("expr");
            cases += 1;
            let ours = run_case(mode, &src);
            let ref_failed = exp["ok"] == Value::Bool(false) && exp["phase"] == "parse";
            if ours.failed != ref_failed {
                mismatches.push(format!("{id}: reference parse failure = {ref_failed}, ours = {}", ours.failed));
                continue;
            }
            if ref_failed {
                reference_failures += 1;
                let ref_line = exp["diags"][0]["subject"]["start"]["line"].as_u64().map(|l| l as u32);
                if ref_line.is_some() && ref_line != ours.first_line {
                    mismatches.push(format!("{id}: first error line reference {ref_line:?}, ours {:?}", ours.first_line));
                }
            }
        }
    }
    println!("{cases} cases ({reference_failures} rejected by the reference), {} disagreements", mismatches.len());
    for m in &mismatches {
        println!("  {m}");
    }
    assert!(cases > 2000, "expected the whole conformance suite, ran {cases} cases");
    assert!(mismatches.is_empty(), "{} of {cases} cases disagree", mismatches.len());
}
