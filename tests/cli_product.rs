//! End-to-end tests of `hclvm eval`, `hclvm render` and `hclvm batch`:
//! results, exit codes and error messages, on good and bad input.

mod support;

use std::io::Write;
use std::process::{Command, Stdio};
use support::{assert_exit, example, hclvm, scratch_arg as scratch, text};

// ---- eval ----

#[test]
fn eval_prints_a_body_as_natural_json() {
    let vars =
        scratch("service-vars.json", r#"{"version": "1.2.3", "regions": ["eu", "us", "test"], "debug": false, "interval_seconds": 15}"#);
    let out = hclvm(&["eval", &example("service.hcl"), "--vars", &vars], b"");
    assert_exit(&out, 0);
    assert_eq!(
        text(&out.stdout),
        concat!(
            r#"{"service":{"api":[{"env":{"LOG_LEVEL":"info","REGIONS":"EU,US"},"health_check":[{"interval":"15s","path":"/healthz"}],"#,
            r#""image":"registry.example.com/api:1.2.3","ports":[8080,8443],"replicas":3}],"#,
            r#""worker":[{"image":"registry.example.com/worker:1.2.3","queues":{"high":0,"low":1},"replicas":6}]}}"#,
            "\n"
        )
    );
    assert_eq!(text(&out.stderr), "");
}

#[test]
fn eval_var_flags_are_json_or_strings_and_win_over_the_vars_file() {
    let vars = scratch("x-vars.json", r#"{"x": 1, "s": "from file"}"#);
    let out = hclvm(&["eval", "-e", "[x + 1, s, t]", "--vars", &vars, "--var", "x=41", "--var", "s=not json", "--var", "t=[true]"], b"");
    assert_exit(&out, 0);
    assert_eq!(text(&out.stdout), "[42,\"not json\",[true]]\n");
}

#[test]
fn eval_typed_is_the_reference_result_format() {
    let out = hclvm(&["eval", "--typed", "-e", "{a = 1/3 > 0.3, b = [for s in toset([\"y\", \"x\"]) : s]}"], b"");
    assert_exit(&out, 0);
    assert_eq!(
        text(&out.stdout),
        "{\"ok\":true,\"type\":[\"object\",{\"a\":\"bool\",\"b\":[\"tuple\",[\"string\",\"string\"]]}],\"value\":{\"a\":true,\"b\":[\"x\",\"y\"]}}\n"
    );
    let vars = scratch("typed-vars.json", r#"{"ids": {"type": ["set", "number"], "value": [3, 1, 3]}}"#);
    let out = hclvm(&["eval", "--typed", "-e", "ids", "--vars", &vars], b"");
    assert_exit(&out, 0);
    assert_eq!(text(&out.stdout), "{\"ok\":true,\"type\":[\"set\",\"number\"],\"value\":[1,3]}\n");
}

#[test]
fn eval_body_typed_lists_attributes_and_blocks() {
    let file = scratch("typed-body.hcl", "a = 1\nb \"l\" {\n  c = x\n}\n");
    let out = hclvm(&["eval", "--typed", &file, "--var", "x=true"], b"");
    assert_exit(&out, 0);
    assert_eq!(
        text(&out.stdout),
        concat!(
            r#"{"ok":true,"body":{"attrs":{"a":{"ok":true,"type":"number","value":1,"vars":[]}},"#,
            r#""blocks":[{"type":"b","labels":["l"],"body":{"attrs":{"c":{"ok":true,"type":"bool","value":true,"vars":["x"]}},"blocks":[]}}]}}"#,
            "\n"
        )
    );
}

#[test]
fn eval_missing_variable_is_a_clear_error() {
    let out = hclvm(&["eval", "--color", "never", "-e", "name == \"x\""], b"");
    assert_exit(&out, 1);
    assert_eq!(text(&out.stdout), "");
    let err = text(&out.stderr);
    assert!(err.starts_with("Error: Unknown variable\n\n  on <expr> line 1:\n   1: name == \"x\"\n      ^^^^\n"), "{err}");
    assert!(err.contains("There is no variable named \"name\"."), "{err}");
}

#[test]
fn eval_syntax_errors_are_rendered_like_hcl_and_exit_1() {
    let file = scratch("bad-syntax.hcl", "a = 1\nblock \"x\" {\n  b = 2 3\n}\n");
    let out = hclvm(&["eval", "--color", "never", &file], b"");
    assert_exit(&out, 1);
    let err = text(&out.stderr);
    assert!(err.starts_with("Error: Missing newline after argument\n"), "{err}");
    assert!(err.contains(&format!("  on {file} line 3, in block \"x\":\n")), "{err}");
}

#[test]
fn eval_json_diagnostics_for_machines() {
    let out = hclvm(&["eval", "--format", "json", "-e", "1 + true"], b"");
    assert_exit(&out, 1);
    let err = text(&out.stderr);
    assert_eq!(
        err,
        "[{\"severity\":\"error\",\"summary\":\"Invalid operand\",\"detail\":\"Unsuitable value for right operand: number required.\",\"subject\":{\"start\":{\"line\":1,\"column\":5,\"byte\":4},\"end\":{\"line\":1,\"column\":9,\"byte\":8}}}]\n"
    );
}

#[test]
fn eval_typed_failure_still_prints_the_result_line() {
    let out = hclvm(&["eval", "--typed", "--color", "never", "-e", "nope"], b"");
    assert_exit(&out, 1);
    assert!(
        text(&out.stdout)
            .starts_with("{\"ok\":false,\"phase\":\"eval\",\"diags\":[{\"severity\":\"error\",\"summary\":\"Unknown variable\""),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn eval_bad_inputs_exit_nonzero_with_a_message() {
    // A file that does not exist: I/O error.
    let out = hclvm(&["eval", "/nonexistent/file.hcl"], b"");
    assert_exit(&out, 2);
    assert!(text(&out.stderr).starts_with("hclvm eval: cannot read /nonexistent/file.hcl: "), "{}", text(&out.stderr));
    // A vars file that is not JSON, or not an object.
    let bad = scratch("bad-vars.json", "{\"a\": ");
    let out = hclvm(&["eval", "-e", "a", "--vars", &bad], b"");
    assert_exit(&out, 1);
    assert!(text(&out.stderr).starts_with(&format!("hclvm eval: {bad}: invalid JSON: ")), "{}", text(&out.stderr));
    let list = scratch("list-vars.json", "[1, 2]");
    let out = hclvm(&["eval", "-e", "a", "--vars", &list], b"");
    assert_exit(&out, 1);
    assert!(text(&out.stderr).contains("variables must be a JSON object, not an array"), "{}", text(&out.stderr));
    // A --var without '='.
    let out = hclvm(&["eval", "-e", "a", "--var", "a"], b"");
    assert_exit(&out, 2);
    assert!(text(&out.stderr).contains("expected NAME=VALUE"), "{}", text(&out.stderr));
    // A typed value that does not fit its type.
    let out = hclvm(&["eval", "-e", "a", "--var", r#"a={"type":"number","value":"x"}"#], b"");
    assert_exit(&out, 1);
    // Neither a file nor -e: usage error.
    let out = hclvm(&["eval"], b"");
    assert_exit(&out, 2);
}

#[test]
fn eval_reads_standard_input() {
    let out = hclvm(&["eval", "--mode", "expr", "-"], b"upper(\"stdin\")");
    assert_exit(&out, 0);
    assert_eq!(text(&out.stdout), "\"STDIN\"\n");
}

#[test]
fn eval_hostile_input_fails_cleanly() {
    let deep = format!("{}1{}", "[".repeat(5000), "]".repeat(5000));
    let out = hclvm(&["eval", "--color", "never", "-e", &deep], b"");
    assert_exit(&out, 1);
    let bytes: Vec<u8> = (0u8..=255).cycle().take(4096).collect();
    let file = support::scratch("random.hcl", &bytes);
    let out = hclvm(&["eval", "--color", "never", &file.to_string_lossy()], b"");
    assert_exit(&out, 1);
}

// ---- render ----

#[test]
fn render_prints_the_text_exactly() {
    let vars = scratch("motd-vars.json", r#"{"host": "box", "users": [{"name": "ann", "admin": true}, {"name": "bob", "admin": false}]}"#);
    let out = hclvm(&["render", &example("motd.tmpl"), "--vars", &vars], b"");
    assert_exit(&out, 0);
    assert_eq!(text(&out.stdout), "Welcome to BOX!\n- ann (admin)\n- bob\n");
}

#[test]
fn render_converts_a_single_interpolation_to_text() {
    let file = scratch("number.tmpl", "${n * 2}");
    let out = hclvm(&["render", &file, "--var", "n=21"], b"");
    assert_exit(&out, 0);
    assert_eq!(text(&out.stdout), "42");
    let out = hclvm(&["render", &file, "--var", "n=[1]"], b"");
    assert_exit(&out, 1);
    let list = scratch("list.tmpl", "${[n]}");
    let out = hclvm(&["render", &list, "--var", "n=1"], b"");
    assert_exit(&out, 1);
    assert!(text(&out.stderr).contains("has type tuple, not string"), "{}", text(&out.stderr));
}

#[test]
fn render_missing_variable_and_bad_template() {
    let out = hclvm(&["render", "--color", "never", &example("motd.tmpl"), "--var", "host=x"], b"");
    assert_exit(&out, 1);
    assert!(text(&out.stderr).contains("There is no variable named \"users\"."), "{}", text(&out.stderr));
    let bad = scratch("bad.tmpl", "%{ if x }unclosed");
    let out = hclvm(&["render", "--color", "never", &bad, "--var", "x=true"], b"");
    assert_exit(&out, 1);
    assert!(text(&out.stderr).starts_with("Error: "), "{}", text(&out.stderr));
    let out = hclvm(&["render", "/nonexistent.tmpl"], b"");
    assert_exit(&out, 2);
}

// ---- batch ----

#[test]
fn batch_writes_one_line_per_input_line_in_order() {
    let file = scratch("batch-rule.hcl", "rule \"limit\" {\n  ok  = amount <= 100\n  msg = \"amount ${amount}\"\n}\n");
    let input = "{\"amount\": 5}\n\n{\"amount\": 500}\nnot json\n{\"other\": 1}\n[1]\n{\"amount\": 1e400}\n";
    for jobs in ["1", "2", "3"] {
        let out = hclvm(&["batch", &file, "--vars-jsonl", "-", "--jobs", jobs], input.as_bytes());
        assert_exit(&out, 1);
        let stdout = text(&out.stdout);
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(lines.len(), 6, "{stdout}");
        assert_eq!(
            lines[0],
            r#"{"id":1,"ok":true,"body":{"attrs":{},"blocks":[{"type":"rule","labels":["limit"],"body":{"attrs":{"ok":{"ok":true,"type":"bool","value":true,"vars":["amount"]},"msg":{"ok":true,"type":"string","value":"amount 5","vars":["amount"]}},"blocks":[]}}]}}"#
        );
        assert!(lines[1].starts_with(r#"{"id":3,"ok":true,"body":"#), "{}", lines[1]);
        assert!(
            lines[2].starts_with(
                r#"{"id":4,"ok":false,"phase":"case","line":4,"diags":[{"severity":"error","summary":"invalid variables: invalid JSON: "#
            ),
            "{}",
            lines[2]
        );
        assert!(lines[3].starts_with(r#"{"id":5,"ok":true,"body":{"attrs":{},"blocks":[{"type":"rule","labels":["limit"],"body":{"attrs":{"ok":{"ok":false,"diags":[{"severity":"error","summary":"Unknown variable""#), "{}", lines[3]);
        assert!(lines[4].contains("variables must be a JSON object, not an array"), "{}", lines[4]);
        assert!(lines[5].starts_with(r#"{"id":7,"ok":true,"#), "{}", lines[5]);
        let err = text(&out.stderr);
        assert!(err.contains("hclvm batch: 6 lines, 3 with errors"), "{err}");
    }
}

#[test]
fn batch_answers_each_line_as_it_comes() {
    use std::io::BufRead;
    // A program feeding variable sets one at a time, waiting for each answer.
    let file = scratch("batch-answer.hcl", "n * 2");
    for jobs in ["1", "2"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hclvm"))
            .args(["batch", &file, "--mode", "expr", "--vars-jsonl", "-", "--jobs", jobs])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("hclvm runs");
        let mut input = child.stdin.take().expect("stdin");
        let mut output = std::io::BufReader::new(child.stdout.take().expect("stdout"));
        for i in 1..=3 {
            writeln!(input, "{{\"n\": {i}}}").expect("write a line");
            input.flush().expect("flush");
            let mut line = String::new();
            output.read_line(&mut line).expect("read its result");
            assert_eq!(line, format!("{{\"id\":{i},\"ok\":true,\"type\":\"number\",\"value\":{}}}\n", 2 * i), "--jobs {jobs}");
        }
        drop(input);
        assert!(child.wait().expect("hclvm ends").success());
    }
}

#[test]
fn batch_checksum_matches_hclvm_bench() {
    let file = scratch("batch-expr.hcl", "\"${x * 2}${upper(s)}\"");
    let vars = scratch("batch-expr.jsonl", "{\"x\": 1, \"s\": \"ab\"}\n{\"x\": 0.5, \"s\": \"\"}\n{\"x\": -3, \"s\": \"héllo\"}\n");
    let out = hclvm(&["batch", &file, "--mode", "expr", "--vars-jsonl", &vars, "--checksum"], b"");
    assert_exit(&out, 0);
    let err = text(&out.stderr);
    let ours = err.rsplit("result_checksum ").next().expect("checksum in summary").trim().to_string();
    let bench = hclvm(&["bench", "--mode", "expr", "--src", &file, "--vars-jsonl", &vars], b"");
    assert_exit(&bench, 0);
    let line = text(&bench.stdout);
    assert!(line.contains(&format!("\"result_checksum\":\"{ours}\"")), "batch {ours}, bench {line}");
    // Three timed runs: three figures and their median, the same results.
    let runs = hclvm(&["bench", "--mode", "expr", "--src", &file, "--vars-jsonl", &vars, "--runs", "3"], b"");
    assert_exit(&runs, 0);
    let json: serde_json::Value = serde_json::from_str(text(&runs.stdout).trim()).expect("one JSON line");
    let figures = json["runs_ns_per_eval"].as_array().expect("runs_ns_per_eval");
    assert_eq!(figures.len(), 3, "{json}");
    let mut sorted: Vec<f64> = figures.iter().map(|f| f.as_f64().expect("a number")).collect();
    sorted.sort_by(f64::total_cmp);
    assert_eq!(json["median_ns_per_eval"].as_f64(), Some(sorted[1]), "{json}");
    assert_eq!(json["result_checksum"].as_str(), Some(ours.as_str()), "{json}");
    assert_exit(&hclvm(&["bench", "--mode", "expr", "--src", &file, "--vars-jsonl", &vars, "--runs", "0"], b""), 2);
}

#[test]
fn batch_template_mode_and_output_file() {
    let file = scratch("batch.txt", "hello ${name}");
    let out_path = scratch("batch-out.jsonl", "");
    let out = hclvm(&["batch", &file, "--template", "--vars-jsonl", "-", "--out", &out_path], b"{\"name\": \"a\"}\n{\"name\": \"b\"}\n");
    assert_exit(&out, 0);
    assert_eq!(text(&out.stdout), "");
    let written = std::fs::read_to_string(&out_path).expect("output file");
    assert_eq!(written, "{\"id\":1,\"ok\":true,\"type\":\"string\",\"value\":\"hello a\"}\n{\"id\":2,\"ok\":true,\"type\":\"string\",\"value\":\"hello b\"}\n");
}

#[test]
fn batch_bad_arguments() {
    let out = hclvm(&["batch", "/nonexistent.hcl", "--vars-jsonl", "-"], b"");
    assert_exit(&out, 2);
    let file = scratch("batch-ok.hcl", "a = 1\n");
    let out = hclvm(&["batch", &file, "--vars-jsonl", "/nonexistent.jsonl"], b"");
    assert_exit(&out, 2);
    assert!(text(&out.stderr).contains("cannot read /nonexistent.jsonl"), "{}", text(&out.stderr));
    let bad = scratch("batch-bad.hcl", "a = \n");
    let out = hclvm(&["batch", "--color", "never", &bad, "--vars-jsonl", "-"], b"{}\n");
    assert_exit(&out, 1);
    assert!(text(&out.stderr).starts_with("Error: "), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "");
    let out = hclvm(&["batch", &file, "--vars-jsonl", "-", "--template", "--mode", "body"], b"");
    assert_exit(&out, 2);
}

/// `hclvm batch` against the reference on the shared bench workloads (the
/// first lines of each), line by line, when the shared folder and a built
/// oracle are present; skipped with a message otherwise.
#[test]
fn batch_matches_the_reference_line_by_line() {
    const TEST: &str = "batch_matches_the_reference_line_by_line";
    let oracle = match support::shared("oracle/bin/hcl-oracle") {
        Ok(path) => path,
        Err(why) => return support::skip(TEST, &format!("{why} (the oracle is built by its build.sh)")),
    };
    let bench = support::bench_dir();
    let workloads = [
        ("policy/policy.hcl", "body", "policy/requests.jsonl"),
        ("render/site.tmpl", "template", "render/sites.jsonl"),
        ("collections/collections.hcl", "body", "collections/vars.jsonl"),
        ("micro/expr.hcl", "expr", "micro/vars.jsonl"),
    ];
    for (src, mode, vars) in workloads {
        let (Ok(source), Ok(all_vars)) = (std::fs::read_to_string(bench.join(src)), std::fs::read_to_string(bench.join(vars))) else {
            support::skip(&format!("{TEST} on {src}"), &format!("the workload files are not under {}", bench.display()));
            continue;
        };
        let lines: Vec<&str> = all_vars.lines().take(300).collect();
        let vars_path = scratch(&format!("workload-{mode}-{}.jsonl", lines.len()), &(lines.join("\n") + "\n"));
        let ours = hclvm(&["batch", &bench.join(src).to_string_lossy(), "--mode", mode, "--vars-jsonl", &vars_path], b"");
        assert_exit(&ours, 0);
        let mut cases = String::new();
        for (i, line) in lines.iter().enumerate() {
            let mut case = format!("{{\"id\":\"{}\",\"mode\":\"{mode}\",\"src\":", i + 1);
            hclvm::runtime::strings::write_json_string(&mut case, &source);
            cases.push_str(&case);
            cases.push_str(",\"vars\":");
            cases.push_str(line);
            cases.push_str("}\n");
        }
        let mut child = Command::new(&oracle)
            .args(["--in-process", "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start the oracle");
        let mut stdin = child.stdin.take().expect("oracle stdin");
        let writer = std::thread::spawn(move || stdin.write_all(cases.as_bytes()));
        let theirs = child.wait_with_output().expect("oracle output");
        writer.join().expect("writer thread").expect("write cases");
        let (ours, theirs) = (text(&ours.stdout), text(&theirs.stdout));
        assert_eq!(ours.lines().count(), lines.len(), "{src}");
        for (o, t) in ours.lines().zip(theirs.lines()) {
            // Same line apart from the id: a number here, a string there.
            let (o_id, o_rest) = o.split_once(',').expect("id member");
            let (t_id, t_rest) = t.split_once(',').expect("id member");
            assert_eq!(o_id.replace('"', ""), t_id.replace('"', ""), "{src}");
            assert_eq!(o_rest, t_rest, "{src} line {o_id}");
        }
    }
}

#[test]
fn render_bad_variables_exit_nonzero_with_a_message() {
    let bad = scratch("render-bad-vars.json", "{\"host\": ");
    let out = hclvm(&["render", &example("motd.tmpl"), "--vars", &bad], b"");
    assert_exit(&out, 1);
    assert!(text(&out.stderr).starts_with(&format!("hclvm render: {bad}: invalid JSON: ")), "{}", text(&out.stderr));
    let out = hclvm(&["render", &example("motd.tmpl"), "--vars", "/nonexistent/vars.json"], b"");
    assert_exit(&out, 2);
    assert!(text(&out.stderr).contains("cannot read /nonexistent/vars.json"), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "");
}

#[test]
fn batch_lines_that_are_not_utf8_are_case_errors() {
    let file = scratch("batch-utf8.hcl", "a = x\n");
    let mut input = b"{\"x\": 1}\n{\"x\": \"".to_vec();
    input.extend_from_slice(&[0xff, 0xfe]);
    input.extend_from_slice(b"\"}\n{\"x\": 3}\n");
    for jobs in ["1", "2"] {
        let out = hclvm(&["batch", &file, "--vars-jsonl", "-", "--jobs", jobs], &input);
        assert_exit(&out, 1);
        let stdout = text(&out.stdout);
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(lines.len(), 3, "{stdout}");
        assert!(lines[1].starts_with(r#"{"id":2,"ok":false,"phase":"case","line":2,"diags":[{"severity":"error","summary":"invalid variables: the line is not UTF-8"#), "{}", lines[1]);
        assert!(lines[2].starts_with(r#"{"id":3,"ok":true,"#), "{}", lines[2]);
    }
}

// ---- disasm ----

#[test]
fn disasm_prints_the_program_of_every_attribute() {
    let file = scratch("disasm.hcl", "a = x + 1\nblk \"l\" {\n  b = upper(y)\n}\n");
    let out = hclvm(&["disasm", &file], b"");
    assert_exit(&out, 0);
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("a:\n"), "{stdout}");
    assert!(stdout.contains("\nblk \"l\" / b:\n"), "{stdout}");
    let out = hclvm(&["disasm", "--mode", "expr", &scratch("disasm-expr.txt", "x ? 1 : 2")], b"");
    assert_exit(&out, 0);
    assert!(text(&out.stdout).starts_with("expr:\n"), "{}", text(&out.stdout));
}

#[test]
fn disasm_bad_inputs_exit_nonzero_with_a_message() {
    let out = hclvm(&["disasm", "/nonexistent/file.hcl"], b"");
    assert_exit(&out, 2);
    assert!(text(&out.stderr).starts_with("hclvm disasm: cannot read /nonexistent/file.hcl: "), "{}", text(&out.stderr));
    // Syntax errors are rendered like `hclvm check` renders them.
    let bad = scratch("disasm-bad.hcl", "a = 1\nblock \"x\" {\n  b = 2 3\n}\n");
    let out = hclvm(&["disasm", "--color", "never", &bad], b"");
    assert_exit(&out, 1);
    let err = text(&out.stderr);
    assert!(err.starts_with("Error: Missing newline after argument\n"), "{err}");
    assert!(err.contains(&format!("  on {bad} line 3, in block \"x\":\n")), "{err}");
    assert!(err.contains("   3:   b = 2 3\n"), "{err}");
    assert_eq!(text(&out.stdout), "");
    let out = hclvm(&["disasm", "--mode", "yaml", &bad], b"");
    assert_exit(&out, 2);
    assert!(text(&out.stderr).contains("invalid value 'yaml' for '--mode <MODE>'"), "{}", text(&out.stderr));
    // Random bytes: errors, no panic.
    let bytes: Vec<u8> = (0u8..=255).rev().cycle().take(2048).collect();
    let path = support::scratch("disasm-random.hcl", &bytes);
    let out = hclvm(&["disasm", "--color", "never", &path.to_string_lossy()], b"");
    assert_exit(&out, 1);
}

// ---- bench ----

#[test]
fn bench_prints_the_reference_bench_line() {
    let file = scratch("bench-expr.hcl", "x * 2 > limit");
    let vars = scratch("bench-vars.jsonl", "{\"x\": 1, \"limit\": 1}\n\n{\"x\": 5, \"limit\": 3}\n");
    let out = hclvm(&["bench", "--mode", "expr", "--src", &file, "--vars-jsonl", &vars, "--iters", "10"], b"");
    assert_exit(&out, 0);
    let line: serde_json::Value = serde_json::from_str(text(&out.stdout).trim()).expect("one JSON line");
    assert_eq!(line["mode"], "expr");
    assert_eq!(line["vars_lines"], 2);
    assert_eq!(line["evals"], 10);
    assert_eq!(line["first_pass_errors"], 0);
    assert_eq!(line["result_checksum"].as_str().map(str::len), Some(16), "{line}");
    // A variable missing from the lines: evaluation errors, counted.
    let missing = scratch("bench-missing.jsonl", "{\"x\": 1}\n");
    let out = hclvm(&["bench", "--mode", "expr", "--src", &file, "--vars-jsonl", &missing], b"");
    assert_exit(&out, 0);
    let line: serde_json::Value = serde_json::from_str(text(&out.stdout).trim()).expect("one JSON line");
    assert_eq!(line["first_pass_errors"], 1, "{line}");
}

#[test]
fn bench_bad_inputs_exit_nonzero_with_a_message() {
    let file = scratch("bench-ok.hcl", "x");
    let vars = scratch("bench-ok.jsonl", "{\"x\": 1}\n");
    let err_of = |args: &[&str], code: i32| {
        let out = hclvm(args, b"");
        assert_exit(&out, code);
        assert_eq!(text(&out.stdout), "", "{args:?}");
        text(&out.stderr)
    };
    let err = err_of(&["bench", "--src", "/nonexistent/src.hcl", "--vars-jsonl", &vars], 2);
    assert!(err.starts_with("hclvm bench: cannot read /nonexistent/src.hcl: "), "{err}");
    let err = err_of(&["bench", "--src", &file, "--vars-jsonl", "/nonexistent/vars.jsonl"], 2);
    assert!(err.starts_with("hclvm bench: cannot read /nonexistent/vars.jsonl: "), "{err}");
    let err = err_of(&["bench", "--mode", "yaml", "--src", &file, "--vars-jsonl", &vars], 2);
    assert!(err.contains("--mode must be expr, template or body"), "{err}");
    let err = err_of(&["bench", "--funcs", "some", "--src", &file, "--vars-jsonl", &vars], 2);
    assert!(err.contains("invalid value 'some' for '--funcs <FUNCS>'") && err.contains("stdlib, packer, none"), "{err}");
    let bad_json = scratch("bench-bad.jsonl", "{\"x\": 1}\n{\"x\": \n");
    let err = err_of(&["bench", "--src", &file, "--vars-jsonl", &bad_json], 1);
    assert!(err.starts_with(&format!("hclvm bench: {bad_json}:2: ")), "{err}");
    let not_object = scratch("bench-array.jsonl", "[1]\n");
    let err = err_of(&["bench", "--src", &file, "--vars-jsonl", &not_object], 1);
    assert!(err.contains(&format!("{not_object}:1: not a JSON object")), "{err}");
    let empty = scratch("bench-empty.jsonl", "\n\n");
    let err = err_of(&["bench", "--src", &file, "--vars-jsonl", &empty], 1);
    assert!(err.contains("vars file has no lines"), "{err}");
    let bad_src = scratch("bench-bad.hcl", "x +");
    let err = err_of(&["bench", "--src", &bad_src, "--vars-jsonl", &vars], 1);
    assert!(err.contains("parse failed"), "{err}");
}

#[test]
fn disasm_reads_templates_by_extension_and_lists_one_chunk_per_file() {
    let tmpl = scratch("disasm-auto.tmpl", "Hello ${name}!");
    let out = hclvm(&["disasm", &tmpl], b"");
    assert_exit(&out, 0);
    assert!(text(&out.stdout).contains("TEMPLATE"), "{}", text(&out.stdout));
    // Instruction numbers continue from one attribute to the next: the
    // file's programs share one chunk.
    let body = scratch("disasm-chunk.hcl", "a = x + 1\nb = y * 2\n");
    let out = hclvm(&["disasm", &body], b"");
    assert_exit(&out, 0);
    let listing = text(&out.stdout);
    assert!(listing.contains("0000  ADD        R0 V0 K0"), "{listing}");
    assert!(listing.contains("0001  MUL        R0 V1 K1"), "{listing}");
}

#[test]
fn eval_shows_what_is_known_of_unknown_variables() {
    let out = hclvm(
        &[
            "eval",
            "-e",
            r#"["https://${host}", length(ports) > -1, p ? 1 : 5, host == null]"#,
            "--unknown",
            "host=string",
            "--unknown",
            r#"ports=["list","number"]"#,
            "--unknown",
            "p=bool",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout).trim(),
        r#"[{"$unknown":true,"refined":{"not_null":true,"prefix":"https://"}},true,{"$unknown":true,"refined":{"not_null":true,"min":1,"min_inclusive":true,"max":5,"max_inclusive":true}},{"$unknown":true,"refined":{"not_null":true}}]"#
    );
    let bad = hclvm(&["eval", "-e", "x", "--unknown", "x=nope"], b"");
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("--unknown x: invalid primitive type name \"nope\""), "{}", text(&bad.stderr));
}

#[test]
fn version_names_the_reference_reproduced() {
    let out = hclvm(&["--version"], b"");
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).contains("reproduces hashicorp/hcl v2.20.0 with go-cty v1.13.0"), "{}", text(&out.stdout));
}

/// An input that needs more memory than the process may have ends with a
/// message and exit status 3, not an abort (a core dump). Linux only: the
/// limit is set with `ulimit -v` by the shell that starts hclvm.
#[cfg(target_os = "linux")]
#[test]
fn running_out_of_memory_is_an_error_not_an_abort() {
    // A string literal of 300 MB: far more than the 600 MB address space
    // leaves once hclvm's own threads and heap are reserved.
    let mut text = String::from("s = \"");
    text.push_str(&"x".repeat(300 << 20));
    text.push_str("\"\n");
    let src = support::scratch("oom.hcl", text);
    let script = format!("ulimit -v 614400; exec {} eval {}", env!("CARGO_BIN_EXE_hclvm"), src.display());
    let out = std::process::Command::new("sh").args(["-c", &script]).output().expect("run sh");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "stderr: {stderr}");
    assert!(stderr.starts_with("hclvm: out of memory"), "{stderr}");
    let _ = std::fs::remove_file(&src);
}

// ---- --short-circuit ----

#[test]
fn short_circuit_flag_on_eval_render_batch_bench_and_disasm() {
    let guard = "v != null && v.x > 0";
    // The reference's semantics by default: both operands are evaluated.
    let out = hclvm(&["eval", "-e", guard, "--var", "v=null"], b"");
    assert_exit(&out, 1);
    assert!(text(&out.stderr).contains("Attempt to get attribute from null value"), "{}", text(&out.stderr));
    let out = hclvm(&["eval", "--short-circuit", "-e", guard, "--var", "v=null"], b"");
    assert_exit(&out, 0);
    assert_eq!(text(&out.stdout), "false\n");
    assert_eq!(text(&out.stderr), "");

    let template = scratch("sc.tmpl", "%{ if v == null || v.admin }all%{ else }some%{ endif }");
    let out = hclvm(&["render", &template, "--var", "v=null"], b"");
    assert_exit(&out, 1);
    let out = hclvm(&["render", "--short-circuit", &template, "--var", "v=null"], b"");
    assert_exit(&out, 0);
    assert_eq!(text(&out.stdout), "all");

    let body = scratch("sc.hcl", &format!("allow = {guard}\n"));
    let lines = b"{\"v\": null}\n{\"v\": {\"x\": 2}}\n";
    let out = hclvm(&["batch", &body, "--vars-jsonl", "-", "--short-circuit"], lines);
    assert_exit(&out, 0);
    let results = text(&out.stdout);
    assert!(results.lines().next().is_some_and(|l| l.contains(r#""allow":{"ok":true,"type":"bool","value":false"#)), "{results}");
    assert!(results.lines().nth(1).is_some_and(|l| l.contains(r#""allow":{"ok":true,"type":"bool","value":true"#)), "{results}");
    let out = hclvm(&["batch", &body, "--vars-jsonl", "-"], lines);
    assert_exit(&out, 1);

    let vars = scratch("sc-vars.jsonl", "{\"v\": null}\n");
    let out = hclvm(&["bench", "--mode", "body", "--src", &body, "--vars-jsonl", &vars, "--short-circuit"], b"");
    assert_exit(&out, 0);
    assert!(text(&out.stdout).contains(r#""first_pass_errors":0"#), "{}", text(&out.stdout));

    let out = hclvm(&["disasm", "--short-circuit", &body], b"");
    assert_exit(&out, 0);
    assert!(text(&out.stdout).contains("ANDTHEN"), "{}", text(&out.stdout));
    let out = hclvm(&["disasm", &body], b"");
    assert!(text(&out.stdout).contains("AND "), "{}", text(&out.stdout));
}

// ---- --timeout ----

#[test]
fn batch_timeout_ends_the_slow_lines_only() {
    let body = scratch("slow.hcl", "r = length([for x in xs : x if length([for y in xs : y if y < 0]) > 0])\n");
    // The second line would take hours (its default budgets run out only
    // after millions of iterations); the others take microseconds.
    let large: Vec<String> = (0..100_000).map(|i| i.to_string()).collect();
    let lines = format!("{{\"xs\": [1, 2]}}\n{{\"xs\": [{}]}}\n{{\"xs\": []}}\n", large.join(","));
    let started = std::time::Instant::now();
    let out = hclvm(&["batch", &body, "--vars-jsonl", "-", "--timeout", "50ms", "--jobs", "1"], lines.as_bytes());
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
    assert_exit(&out, 1);
    let results = text(&out.stdout);
    let results: Vec<&str> = results.lines().collect();
    assert_eq!(results.len(), 3, "{results:?}");
    assert!(results[0].contains(r#""r":{"ok":true,"type":"number","value":0"#), "{}", results[0]);
    assert!(results[1].contains("The expression needs more time than this evaluation allows."), "{}", results[1]);
    assert!(results[2].contains(r#""r":{"ok":true,"type":"number","value":0"#), "{}", results[2]);
    assert!(text(&out.stderr).contains("3 lines, 1 with errors"), "{}", text(&out.stderr));

    let out = hclvm(&["eval", "-e", "1", "--timeout", "50"], b"");
    assert_exit(&out, 2);
    assert!(text(&out.stderr).contains("has no unit"), "{}", text(&out.stderr));
    let out = hclvm(&["eval", "-e", "[for x in [1] : x]", "--timeout", "2s"], b"");
    assert_exit(&out, 0);
    assert_eq!(text(&out.stdout), "[1]\n");
}
