//! `hclvm check` renders diagnostics exactly as hcl's text diagnostic writer
//! does. The expected outputs in tests/data/diagnostic_text/*.expected were
//! made by the reference itself (regen.sh there); hclvm adds caret lines
//! under the subject when not colouring, which are dropped before comparing.

mod support;

use std::path::Path;
use std::process::Command;

/// Removes hclvm's caret lines (blanks, then carets only).
fn without_caret_lines(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for line in text.split_inclusive(|&b| b == b'\n') {
        let body = line.strip_suffix(b"\n").unwrap_or(line);
        let is_caret_line =
            body.starts_with(b"      ") && body.contains(&b'^') && body.iter().all(|&b| b == b' ' || b == b'\t' || b == b'^');
        if !is_caret_line {
            out.extend_from_slice(line);
        }
    }
    out
}

/// Removes ANSI colour sequences (`ESC [ ... m`).
fn without_colour(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        if text[i] == 0x1b && text.get(i + 1) == Some(&b'[') {
            match text[i..].iter().position(|&b| b == b'm') {
                Some(end) => i += end + 1,
                None => break,
            }
        } else {
            out.push(text[i]);
            i += 1;
        }
    }
    out
}

fn check(dir: &Path, name: &str, color: &str) -> (Option<i32>, Vec<u8>) {
    let out =
        Command::new(env!("CARGO_BIN_EXE_hclvm")).args(["check", "--color", color, name]).current_dir(dir).output().expect("run hclvm");
    (out.status.code(), out.stderr)
}

#[test]
fn check_output_matches_the_reference_text_writer() {
    let dir = support::data_dir().join("diagnostic_text");
    let mut inputs: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/data/diagnostic_text")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".hcl") || n.ends_with(".tmpl"))
        .collect();
    inputs.sort();
    assert!(inputs.len() >= 30, "expected the diagnostic text inputs, found {}", inputs.len());
    let mut mismatches = Vec::new();
    for name in &inputs {
        let expected = std::fs::read(dir.join(format!("{name}.expected"))).expect("expected output");
        let (code, plain) = check(&dir, name, "never");
        let want_code = if expected.starts_with(b"Error: ") { 1 } else { 0 };
        if code != Some(want_code) {
            mismatches.push(format!("{name}: exit {code:?}, expected {want_code}"));
        }
        if without_caret_lines(&plain) != expected {
            mismatches.push(format!(
                "{name}:\n--- expected\n{}--- got\n{}",
                String::from_utf8_lossy(&expected),
                String::from_utf8_lossy(&plain)
            ));
        }
        let (_, coloured) = check(&dir, name, "always");
        if without_colour(&coloured) != expected {
            mismatches.push(format!("{name}: coloured output differs once the colour is removed:\n{}", String::from_utf8_lossy(&coloured)));
        }
    }
    assert!(mismatches.is_empty(), "{} mismatches:\n{}", mismatches.len(), mismatches.join("\n"));
}
