//! Runs every conformance case under tests/data/conformance (the shared
//! corpus's copy) and tests/data/rows (hclvm's own oracle rows) through the
//! runner and compares each result line with the reference's, byte for
//! byte: value, type, refinements, every diagnostic's wording and range.
//!
//! While hclvm is catching up with a new reference version, the ids of the
//! cases that still differ are listed in
//! `tests/data/conformance/known_differences.txt`. That list may only
//! shrink: a listed case that now agrees fails the test too, so that it is
//! taken off the list in the same change that fixes it.

mod support;

use hclvm::conformance::{run_line, run_line_with, RunOptions};
use std::collections::BTreeSet;

struct Mismatch {
    id: String,
    expected: String,
    got: String,
}

/// The ids listed in known_differences.txt (one per line, `#` comments).
fn known_differences() -> BTreeSet<String> {
    let path = support::data_dir().join("conformance/known_differences.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).map(String::from).collect()
}

#[test]
fn conformance_results_are_the_references_byte_for_byte() {
    let (cases, mismatches) = support::with_cli_stack(|| {
        let (mut cases, mut mismatches) = (0usize, Vec::new());
        for (name, case_file, expected_file) in support::conformance_files().into_iter().chain(support::row_files()) {
            let expected = support::lines(&expected_file);
            let ids = support::results(&expected_file);
            let lines = support::lines(&case_file);
            assert_eq!(lines.len(), expected.len(), "{name}: case and expectation counts differ");
            let mut differ = 0;
            for (((line_no, line), (_, want)), (id, _)) in lines.iter().zip(&expected).zip(&ids) {
                let got = run_line(line, *line_no);
                cases += 1;
                if got.as_bytes() != want.as_slice() {
                    differ += 1;
                    mismatches.push(Mismatch { id: id.clone(), expected: String::from_utf8_lossy(want).into_owned(), got });
                }
            }
            println!("{name:<20} {:>5} cases {differ:>4} differ", lines.len());
        }
        (cases, mismatches)
    });
    assert!(cases > 2000, "expected the whole conformance corpus, ran {cases}");

    let known = known_differences();
    let differing: BTreeSet<&str> = mismatches.iter().map(|m| m.id.as_str()).collect();
    let new: Vec<&Mismatch> = mismatches.iter().filter(|m| !known.contains(&m.id)).collect();
    let fixed: Vec<&String> = known.iter().filter(|id| !differing.contains(id.as_str())).collect();
    let mut report = String::new();
    for m in new.iter().take(20) {
        report += &format!("{}:\n  expected {}\n  got      {}\n", m.id, m.expected, m.got);
    }
    assert!(new.is_empty(), "{} cases differ from the reference and are not known differences:\n{report}", new.len());
    assert!(
        fixed.is_empty(),
        "{} known differences now agree with the reference; take them off tests/data/conformance/known_differences.txt:\n{}",
        fixed.len(),
        fixed.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n")
    );
    println!("{} cases, {} known differences left", cases, known.len());
}

/// The opt-in short-circuit `&&` and `||` (`Options::short_circuit`, hclvm
/// `conformance --short-circuit`) against an oracle built with hcl
/// v2.24.0's operators (tests/data/short_circuit/regen.sh): every pair of
/// operand kinds (bools, nulls, unknowns, failures, values that do not
/// convert), chains, contexts and random nests, byte for byte. No known
/// differences.
#[test]
fn short_circuit_results_are_those_of_hcl_v2_24s_operators() {
    let run = RunOptions { short_circuit: true };
    let mismatches = support::with_cli_stack(move || {
        let mut mismatches = Vec::new();
        let mut cases = 0;
        for (name, case_file, expected_file) in support::short_circuit_files() {
            let expected = support::lines(&expected_file);
            let lines = support::lines(&case_file);
            assert_eq!(lines.len(), expected.len(), "{name}: case and expectation counts differ");
            for ((line_no, line), (_, want)) in lines.iter().zip(&expected) {
                let got = run_line_with(line, *line_no, run);
                cases += 1;
                if got.as_bytes() != want.as_slice() {
                    mismatches.push(format!("{name}:{line_no}:\n  expected {}\n  got      {got}", String::from_utf8_lossy(want)));
                }
            }
        }
        assert!(cases > 3000, "expected the short-circuit cases, ran {cases}");
        mismatches
    });
    assert!(
        mismatches.is_empty(),
        "{} short-circuit cases differ:\n{}",
        mismatches.len(),
        mismatches.iter().take(20).cloned().collect::<Vec<_>>().join("\n")
    );
}
