//! Cross-checks the runner and the Rust matching rules against the corpus's
//! own checker, `compare.py`, when the shared folder is present (it is not
//! part of this repository; the test skips with a message without it).

mod support;

use hclvm::conformance::{compare_results, run_line, CompareOptions};
use std::path::Path;
use std::process::Command;

#[test]
fn compare_py_agrees_with_the_rust_rules() {
    let compare = match support::shared("conformance/compare.py") {
        Ok(path) => path,
        Err(why) => return support::skip("compare_py_agrees_with_the_rust_rules", &why),
    };
    if Command::new("python3").arg("--version").output().is_err() {
        return support::skip("compare_py_agrees_with_the_rust_rules", "python3 is not available");
    }
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("compare-py");
    let _ = std::fs::remove_dir_all(&out_dir);
    std::fs::create_dir_all(&out_dir).expect("output dir");

    let mut rust_passed = 0usize;
    let mut total = 0usize;
    for (name, cases, expected) in support::conformance_files() {
        let expected = support::results(&expected);
        let results = support::with_cli_stack(move || support::lines(&cases).iter().map(|(n, l)| run_line(l, *n)).collect::<Vec<String>>());
        for ((_, want), got) in expected.iter().zip(&results) {
            let got = hclvm::runtime::json::parse_json(got).expect("result JSON");
            total += 1;
            rust_passed += usize::from(compare_results(want, &got, CompareOptions::default()).is_ok());
        }
        std::fs::write(out_dir.join(format!("{name}.actual.jsonl")), results.join("\n") + "\n").expect("write results");
    }

    let expected_dir = support::data_dir().join("conformance/expected");
    let out =
        Command::new("python3").arg(&compare).arg(&expected_dir).arg(&out_dir).args(["--show", "0"]).output().expect("run compare.py");
    let report = String::from_utf8_lossy(&out.stdout);
    println!("{report}");
    let last = report.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("");
    let (passed, failed) = parse_summary(last).unwrap_or_else(|| panic!("unexpected last line from compare.py: {last:?}"));
    assert_eq!(passed + failed, total, "compare.py saw a different number of cases");
    assert_eq!(passed, rust_passed, "compare.py and the Rust rules disagree on how many cases match");
}

/// Reads compare.py's closing line "N passed, M failed".
fn parse_summary(line: &str) -> Option<(usize, usize)> {
    let (p, f) = line.split_once(" passed, ")?;
    Some((p.trim().parse().ok()?, f.strip_suffix(" failed")?.trim().parse().ok()?))
}
