//! Every real-world file of `tests/data/corpus` evaluated without
//! variables (config files in body mode, templates in template mode, the
//! standard library) gives exactly the reference's result line: its
//! values, types, "Unknown variable" diagnostics with their suggestions,
//! function errors. And every file that reads variables, evaluated with
//! those roots unknown (objects of the attributes its traversals use), as
//! a validator or planner evaluates a configuration, gives the reference's
//! line too, refinements included. The reference's lines are kept as
//! hashes (`tests/data/corpus_eval.tsv`, `corpus_eval_unknown.tsv`, made by
//! `tests/data/corpus_eval.py` with the oracle); to see a difference in
//! full, run that script's cases through `hclvm conformance` and the oracle
//! and diff.

mod support;

use hclvm::conformance::run_line;
use support::Corpus;

fn fnv1a(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3))
}

#[test]
fn corpus_files_evaluate_as_the_reference_evaluates_them() {
    let corpus = Corpus::vendored();
    let table = std::fs::read_to_string(support::vendored("corpus_eval.tsv")).expect("tests/data/corpus_eval.tsv");
    let (mut checked, mut differ) = (0, Vec::new());
    for row in table.lines().filter(|l| !l.starts_with('#')) {
        let (path, want) = row.split_once('\t').expect("path<TAB>hash");
        let file = corpus.get(path).unwrap_or_else(|| panic!("{path} is not a file of tests/data/corpus"));
        let src = String::from_utf8(file.read()).unwrap_or_else(|e| panic!("{path}: {e}"));
        let mode = if file.is_template() { "template" } else { "body" };
        let case = serde_json::json!({"id": path, "mode": mode, "src": src, "funcs": "stdlib"}).to_string();
        let got = run_line(case.as_bytes(), checked + 1);
        if format!("{:016x}", fnv1a(got.as_bytes())) != want {
            differ.push(path.to_string());
        }
        checked += 1;
    }
    assert!(checked > 2000, "expected the corpus's permissively licensed files, found {checked}");
    assert!(differ.is_empty(), "{} of {checked} files evaluate otherwise than the reference:\n{}", differ.len(), differ.join("\n"));
}

#[test]
fn corpus_files_with_unknown_roots_evaluate_as_the_reference_evaluates_them() {
    let corpus = Corpus::vendored();
    let table = std::fs::read_to_string(support::vendored("corpus_eval_unknown.tsv")).expect("tests/data/corpus_eval_unknown.tsv");
    let (mut checked, mut refined, mut differ) = (0, 0, Vec::new());
    for row in table.lines().filter(|l| !l.starts_with('#')) {
        let mut cols = row.split('\t');
        let (Some(path), Some(unknowns), Some(want)) = (cols.next(), cols.next(), cols.next()) else {
            panic!("path<TAB>unknowns<TAB>hash: {row}");
        };
        let file = corpus.get(path).unwrap_or_else(|| panic!("{path} is not a file of tests/data/corpus"));
        let src = String::from_utf8(file.read()).unwrap_or_else(|e| panic!("{path}: {e}"));
        let mode = if file.is_template() { "template" } else { "body" };
        let unknowns: serde_json::Value = serde_json::from_str(unknowns).expect("unknowns JSON");
        let case = serde_json::json!({"id": path, "mode": mode, "src": src, "funcs": "stdlib", "unknowns": unknowns}).to_string();
        let got = run_line(case.as_bytes(), checked + 1);
        refined += usize::from(got.contains("\"refined\""));
        if format!("{:016x}", fnv1a(got.as_bytes())) != want {
            differ.push(path.to_string());
        }
        checked += 1;
    }
    assert!(checked > 1500, "expected the corpus files that read variables, found {checked}");
    assert!(refined > 500, "the cases should exercise refinements; {refined} of {checked} results have any");
    assert!(differ.is_empty(), "{} of {checked} files evaluate otherwise than the reference:\n{}", differ.len(), differ.join("\n"));
}
