//! Reads cases (`{"id", "mode", "src" | "src_base64"}` JSON lines) on stdin
//! and prints, per case, whether parsing failed and the first error's
//! line: `{"id":..,"failed":bool,"line":N|null,"summary":..}`. Used for
//! differential testing against the reference oracle.
#[path = "../../tests/support/case_line.rs"]
mod case_line;

use case_line::{case_source, parse_json_deep};
use std::io::{BufRead, Write};

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout());
    for line in stdin.lock().lines().map_while(Result::ok) {
        if line.trim().is_empty() {
            continue;
        }
        let Some(case) = parse_json_deep(&line) else { continue };
        let Some(src) = case_source(&case) else { continue };
        let src2 = src.clone();
        let mode = case["mode"].as_str().unwrap_or("expr").to_owned();
        let result = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || {
                let arena = bumpalo::Bump::new();
                let mut interner = compiler::Interner::new();
                match mode.as_str() {
                    "body" => compiler::parse_body(&arena, &src2, &mut interner).1,
                    "template" => compiler::parse_template(&arena, &src2, &mut interner).1,
                    _ => compiler::parse_expression(&arena, &src2, &mut interner).1,
                }
            })
            .unwrap()
            .join()
            .unwrap();
        let first = result.iter().find(|d| d.is_error());
        let index = runtime::LineIndex::new(&src);
        let line_no = first.and_then(|d| d.subject).map(|s| index.line_of(s.start) + 1);
        let all: Vec<serde_json::Value> = result
            .iter()
            .map(|d| {
                let at = d.subject.map(|s| {
                    let p = index.pos(&src, s.start);
                    let e = index.pos(&src, s.end);
                    vec![p.line, p.column, e.line, e.column]
                });
                serde_json::json!([d.summary, at])
            })
            .collect();
        let v = serde_json::json!({
            "id": case["id"],
            "failed": first.is_some(),
            "line": line_no,
            "summary": first.map(|d| d.summary.clone()),
            "diags": all,
        });
        let _ = writeln!(out, "{v}");
    }
}
