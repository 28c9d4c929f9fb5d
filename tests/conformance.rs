//! Runs every conformance case under tests/data/conformance through the
//! runner and compares with the reference's expectations by the corpus's
//! matching rules.
//!
//! Asserted: parse-phase agreement is total (a case the reference rejects in
//! parsing is rejected in parsing here, and no other case is); for those
//! parse failures the result line is byte-identical to the reference's (every
//! diagnostic's wording and range); and the number of fully matching cases
//! is at least [`FULL_MATCH_FLOOR`].

mod support;

use hclvm::conformance::{compare_results, default_evaluator, run_line, CompareOptions};
use serde_json::Value as Json;

/// The fewest fully matching cases accepted. While the build cannot
/// evaluate, only cases whose reference result is a parse or evaluation
/// failure can match (223 parse + 505 eval = 728). Raise this as evaluation
/// lands, to the count the previous run printed.
const FULL_MATCH_FLOOR: usize = 728;

#[derive(Default)]
struct Tally {
    cases: usize,
    full: usize,
    parse_agree: usize,
    parse_mismatches: Vec<String>,
    parse_failures: usize,
    identical_parse_failures: usize,
    parse_failure_diffs: Vec<String>,
    first_mismatches: Vec<String>,
}

fn phase(r: &Json) -> &str {
    r.get("phase").and_then(Json::as_str).unwrap_or("")
}

fn run_file(cases: &std::path::Path, expected: &std::path::Path) -> Tally {
    let evaluator = default_evaluator();
    let expected_text = support::lines(expected);
    let expected = support::results(expected);
    let lines = support::lines(cases);
    assert_eq!(lines.len(), expected.len(), "{}: case and expectation counts differ", cases.display());
    let mut t = Tally::default();
    for (((line_no, line), (id, want)), (_, want_text)) in lines.iter().zip(&expected).zip(&expected_text) {
        let got_text = run_line(line, *line_no, &evaluator);
        let got: Json = hclvm::conformance::parse_json(&got_text).unwrap_or_else(|e| panic!("{id}: result is not JSON ({e}): {got_text}"));
        assert_eq!(got.get("id").and_then(Json::as_str), Some(id.as_str()), "result ids follow case order");
        t.cases += 1;
        let want_parse_failure = phase(want) == "parse";
        let got_parse_failure = phase(&got) == "parse";
        if want_parse_failure {
            t.parse_failures += 1;
            if got_text.as_bytes() == want_text.as_slice() {
                t.identical_parse_failures += 1;
            } else {
                t.parse_failure_diffs.push(format!("{id}:\n  expected {}\n  got      {got_text}", String::from_utf8_lossy(want_text)));
            }
        }
        if want_parse_failure == got_parse_failure {
            t.parse_agree += 1;
        } else {
            t.parse_mismatches.push(format!("{id}: expected {}, got {}", brief(want), brief(&got)));
        }
        match compare_results(want, &got, CompareOptions::default()) {
            Ok(()) => t.full += 1,
            Err(why) if t.first_mismatches.len() < 3 => t.first_mismatches.push(format!("{id} ({why})")),
            Err(_) => {}
        }
    }
    t
}

fn brief(r: &Json) -> String {
    if r.get("ok") == Some(&Json::Bool(true)) {
        return "ok".into();
    }
    let summary = r.pointer("/diags/0/summary").and_then(Json::as_str).unwrap_or("");
    format!("{} failure ({summary})", phase(r))
}

#[test]
fn conformance_cases_agree_with_the_reference() {
    let totals = support::with_cli_stack(|| {
        let mut all = Tally::default();
        println!("{:<20} {:>6} {:>13} {:>13} {:>16}", "file", "cases", "parse agree", "full match", "identical parse");
        for (name, cases, expected) in support::conformance_files() {
            let t = run_file(&cases, &expected);
            let identical = format!("{}/{}", t.identical_parse_failures, t.parse_failures);
            println!("{name:<20} {:>6} {:>13} {:>13} {identical:>16}", t.cases, t.parse_agree, t.full);
            for m in &t.first_mismatches {
                println!("    e.g. {m}");
            }
            all.cases += t.cases;
            all.full += t.full;
            all.parse_agree += t.parse_agree;
            all.parse_mismatches.extend(t.parse_mismatches);
            all.parse_failures += t.parse_failures;
            all.identical_parse_failures += t.identical_parse_failures;
            all.parse_failure_diffs.extend(t.parse_failure_diffs);
        }
        let identical = format!("{}/{}", all.identical_parse_failures, all.parse_failures);
        println!("{:<20} {:>6} {:>13} {:>13} {identical:>16}", "total", all.cases, all.parse_agree, all.full);
        all
    });
    assert!(totals.cases > 2000, "expected the whole conformance corpus, ran {}", totals.cases);
    assert!(
        totals.parse_mismatches.is_empty(),
        "{} cases disagree on whether parsing fails:\n{}",
        totals.parse_mismatches.len(),
        totals.parse_mismatches.iter().take(40).cloned().collect::<Vec<_>>().join("\n")
    );
    assert!(
        totals.parse_failure_diffs.is_empty(),
        "{} parse-failure results differ from the reference's:\n{}",
        totals.parse_failure_diffs.len(),
        totals.parse_failure_diffs.iter().take(10).cloned().collect::<Vec<_>>().join("\n")
    );
    assert!(totals.full >= FULL_MATCH_FLOOR, "only {} cases match fully, the floor is {FULL_MATCH_FLOOR}", totals.full);
}
