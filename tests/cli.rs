//! End-to-end tests of the `hclvm` binary: exit codes, diagnostic text and
//! result lines.

mod support;

use support::{example, hclvm, scratch, text};

#[test]
fn check_accepts_good_files() {
    let out = hclvm(&["check", &example("service.hcl"), &example("motd.tmpl")], b"");
    assert_eq!(out.status.code(), Some(0), "stderr: {}", text(&out.stderr));
    assert_eq!(text(&out.stderr), "");
}

#[test]
fn check_reports_errors_like_hcl_and_exits_1() {
    let bad = scratch("bad.hcl", "a = 1\nblock \"x\" {\n  b = 2 3\n}\n");
    let bad = bad.to_string_lossy();
    let out = hclvm(&["check", "--color", "never", &bad], b"");
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.starts_with("Error: "), "{err}");
    assert!(err.contains(&format!("  on {bad} line 3, in block \"x\":\n")), "{err}");
    assert!(err.contains("   3:   b = 2 3\n"), "{err}");
    assert!(err.contains("^"), "{err}");
    assert!(!err.contains('\x1b'), "no colour when not asked: {err}");
}

#[test]
fn check_colours_only_on_request_or_terminal() {
    let bad = scratch("bad_color.hcl", "a = \n");
    let out = hclvm(&["check", "--color", "always", &bad.to_string_lossy()], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).starts_with("\x1b[31mError\x1b[0m: "), "{}", text(&out.stderr));
    // stderr is a pipe here, so `auto` means no colour.
    let out = hclvm(&["check", &bad.to_string_lossy()], b"");
    assert!(text(&out.stderr).starts_with("Error: "), "{}", text(&out.stderr));
}

#[test]
fn check_parses_templates_by_extension_and_reads_stdin() {
    // Valid as a template, not as a body.
    let tmpl = scratch("page.tftpl", "Hello ${name}!\n");
    let out = hclvm(&["check", &tmpl.to_string_lossy()], b"");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = hclvm(&["check", "--mode", "body", &tmpl.to_string_lossy()], b"");
    assert_eq!(out.status.code(), Some(1));
    let out = hclvm(&["check", "-"], b"x = [1, 2\n");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("on <stdin> line "), "{}", text(&out.stderr));
}

#[test]
fn check_missing_file_is_an_io_error() {
    let out = hclvm(&["check", "/nonexistent/hclvm/missing.hcl"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("cannot read /nonexistent/hclvm/missing.hcl"), "{}", text(&out.stderr));
}

#[test]
fn usage_errors_exit_2_and_help_exits_0() {
    assert_eq!(hclvm(&[], b"").status.code(), Some(2));
    assert_eq!(hclvm(&["check"], b"").status.code(), Some(2));
    assert_eq!(hclvm(&["frobnicate"], b"").status.code(), Some(2));
    let help = hclvm(&["--help"], b"");
    assert_eq!(help.status.code(), Some(0));
    assert!(text(&help.stdout).contains("conformance"));
}

#[test]
fn conformance_prints_one_result_per_case() {
    let input = concat!(
        r#"{"id":"parse-error","mode":"expr","src":"1 +","vars":{},"unknowns":{},"funcs":"stdlib"}"#,
        "\n\n",
        r#"{"id":"body-error","mode":"body","src":"a = 1\na = 2\n"}"#,
        "\n",
    );
    let out = hclvm(&["conformance", "-"], input.as_bytes());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let lines: Vec<serde_json::Value> = text(&out.stdout).lines().map(|l| serde_json::from_str(l).expect("JSON line")).collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["id"], "parse-error");
    assert_eq!(lines[0]["ok"], false);
    assert_eq!(lines[0]["phase"], "parse");
    let subject = &lines[0]["diags"][0]["subject"];
    assert_eq!(subject["start"]["line"], 1);
    assert!(subject["start"]["column"].is_u64() && subject["start"]["byte"].is_u64());
    assert_eq!(lines[1]["id"], "body-error");
    assert_eq!(lines[1]["phase"], "parse");
    assert_eq!(lines[1]["diags"][0]["summary"], "Attribute redefined");
    // Keys come in the oracle's order.
    assert!(text(&out.stdout).starts_with(r#"{"id":"parse-error","ok":false,"phase":"parse","diags":[{"severity":"error","summary":"#));
}

#[test]
fn conformance_reports_bad_lines_as_case_errors() {
    let input = concat!(
        r#"{"id":"good","mode":"expr","src":"1 +"}"#,
        "\n",
        "{not json\n",
        r#"{"id":"k","mode":"expr","src":"1","extra":true}"#,
        "\n",
    );
    let out = hclvm(&["conformance"], input.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert!(
        lines[1].starts_with(r#"{"id":null,"ok":false,"phase":"case","line":2,"diags":[{"severity":"error","summary":"invalid JSON: "#),
        "{}",
        lines[1]
    );
    assert_eq!(
        lines[2],
        r#"{"id":"k","ok":false,"phase":"case","line":3,"diags":[{"severity":"error","summary":"unknown case key \"extra\" (prefix metadata keys with \"_\")","detail":"","subject":null}]}"#
    );
    assert!(text(&out.stderr).contains("2 of 3 input lines were not valid cases"), "{}", text(&out.stderr));
}

#[test]
fn conformance_missing_case_file_is_an_io_error() {
    let out = hclvm(&["conformance", "/nonexistent/cases.jsonl"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).starts_with("hclvm conformance: cannot read /nonexistent/cases.jsonl: "), "{}", text(&out.stderr));
    // A directory opens but cannot be read: the message still names it.
    let dir = std::env::temp_dir();
    let out = hclvm(&["conformance", &dir.to_string_lossy()], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).starts_with(&format!("hclvm conformance: cannot read {}: ", dir.to_string_lossy())), "{}", text(&out.stderr));
    assert!(!text(&out.stderr).contains("panicked"));
}

#[test]
fn check_directory_is_an_io_error_naming_it() {
    let dir = std::env::temp_dir();
    let out = hclvm(&["check", &dir.to_string_lossy()], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).starts_with(&format!("hclvm check: cannot read {}: ", dir.to_string_lossy())), "{}", text(&out.stderr));
}

#[test]
fn conformance_file_output_matches_the_library_runner() {
    let (_, cases, _) = support::conformance_files().into_iter().find(|(n, _, _)| n == "hclsyntax_body").expect("hclsyntax_body.jsonl");
    let want: Vec<String> = support::lines(&cases).iter().map(|(n, l)| hclvm::conformance::run_line(l, *n)).collect();
    // In input order whatever the number of jobs.
    for jobs in ["1", "2", "3"] {
        let out = hclvm(&["conformance", "--jobs", jobs, &cases.to_string_lossy()], b"");
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let got: Vec<&str> = std::str::from_utf8(&out.stdout).expect("UTF-8 output").lines().collect();
        assert_eq!(got, want, "--jobs {jobs}");
    }
}

#[test]
fn conformance_answers_each_case_as_it_comes() {
    use std::io::{BufRead, Write};
    // A program feeding cases one at a time, waiting for each answer.
    for jobs in ["1", "2"] {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hclvm"))
            .args(["conformance", "--jobs", jobs])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("hclvm runs");
        let mut input = child.stdin.take().expect("stdin");
        let mut output = std::io::BufReader::new(child.stdout.take().expect("stdout"));
        for i in 0..3 {
            writeln!(input, r#"{{"id":"c{i}","mode":"expr","src":"1 + {i}"}}"#).expect("write a case");
            input.flush().expect("flush");
            let mut line = String::new();
            output.read_line(&mut line).expect("read its result");
            assert_eq!(line, format!("{{\"id\":\"c{i}\",\"ok\":true,\"type\":\"number\",\"value\":{}}}\n", 1 + i), "--jobs {jobs}");
        }
        drop(input);
        assert!(child.wait().expect("hclvm ends").success());
    }
}
