//! `variables()` against the reference: for every body-mode conformance
//! case the reference parsed, each attribute's rendered variable list must
//! equal the oracle's `vars`. Reads the repository's copy of the suite,
//! `tests/data/conformance` (the same files as the shared folder's); a
//! missing file fails the test.

#[path = "../../tests/support/case_line.rs"]
mod case_line;
#[path = "../../tests/support/data.rs"]
mod data;

use case_line::{case_source, parse_json_deep};
use serde_json::Value;

fn compare(body: &compiler::ast::Body<'_>, expected: &Value, interner: &compiler::Interner, id: &str, problems: &mut Vec<String>) {
    let Some(attrs) = expected["attrs"].as_object() else { return };
    for (name, want) in attrs {
        let Some(attr) = body.attributes.iter().find(|a| interner.resolve(a.name.name) == name) else {
            problems.push(format!("{id}: attribute {name} missing"));
            continue;
        };
        let ours: Vec<Value> = compiler::analysis::variables(attr.expr)
            .iter()
            .map(|t| Value::String(compiler::analysis::render_traversal(t, interner)))
            .collect();
        if Value::Array(ours.clone()) != want["vars"] {
            problems.push(format!("{id}: {name}: ours {ours:?}, reference {}", want["vars"]));
        }
    }
    let blocks = expected["blocks"].as_array().cloned().unwrap_or_default();
    if blocks.len() != body.blocks.len() {
        problems.push(format!("{id}: {} blocks, reference {}", body.blocks.len(), blocks.len()));
        return;
    }
    for (b, want) in body.blocks.iter().zip(&blocks) {
        if interner.resolve(b.block_type.name) != want["type"].as_str().unwrap_or("") {
            problems.push(format!("{id}: block type differs"));
        }
        let labels: Vec<Value> = b.labels.iter().map(|l| Value::String(l.to_string())).collect();
        if Value::Array(labels) != want["labels"] {
            problems.push(format!("{id}: block labels differ"));
        }
        compare(&b.body, &want["body"], interner, id, problems);
    }
}

fn check() {
    let dir = data::vendored("conformance");
    let mut checked = 0;
    let mut problems = Vec::new();
    for entry in std::fs::read_dir(dir.join("cases")).unwrap().flatten() {
        let path = entry.path();
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let expected_file = dir.join("expected").join(format!("{stem}.expected.jsonl"));
        let expected_text = std::fs::read_to_string(&expected_file)
            .unwrap_or_else(|e| panic!("{stem} has no expectations ({}): {e}", expected_file.display()));
        let expected: std::collections::HashMap<String, Value> = expected_text
            .lines()
            .filter_map(parse_json_deep)
            .filter(|v| v.get("body").is_some())
            .map(|v| (v["id"].as_str().unwrap_or("").to_owned(), v))
            .collect();
        for line in std::fs::read_to_string(&path).unwrap().lines() {
            let Some(case) = parse_json_deep(line) else { continue };
            let id = case["id"].as_str().unwrap_or("");
            let Some(exp) = expected.get(id) else { continue };
            let Some(src) = case_source(&case) else { continue };
            let arena = bumpalo::Bump::new();
            let mut interner = compiler::Interner::new();
            let (body, diags) = compiler::parse_body(&arena, &src, &mut interner);
            assert!(diags.is_empty(), "{id}");
            checked += 1;
            compare(&body, &exp["body"], &interner, id, &mut problems);
        }
    }
    println!("{checked} bodies checked, {} disagreements", problems.len());
    for p in &problems {
        println!("  {p}");
    }
    assert!(checked >= 100, "expected the suite's body results, checked {checked}");
    assert!(problems.is_empty(), "{} disagreements", problems.len());
}

#[test]
fn variables_agree_with_reference() {
    let worker = std::thread::Builder::new().stack_size(64 << 20).spawn(check).expect("spawn");
    worker.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
}
