//! Reads body-mode cases (JSON lines: `id`, `src`) on stdin and prints each
//! body's blocks and every attribute's `variables()` rendered as the oracle
//! does: `{"id":..,"body":{"attrs":{NAME:[VARS]},"blocks":[{"type","labels","body"}]}}`.
//! Used to compare static analysis with the reference on real files.
use serde::Deserialize;
use serde_json::{json, Map, Value};
use std::io::{BufRead, Write};

fn body_json(body: &compiler::ast::Body<'_>, interner: &compiler::Interner) -> Value {
    let mut attrs = Map::new();
    for a in body.attributes {
        let vars: Vec<Value> = compiler::analysis::variables(a.expr)
            .iter()
            .map(|t| Value::String(compiler::analysis::render_traversal(t, interner)))
            .collect();
        attrs.insert(interner.resolve(a.name.name).to_owned(), Value::Array(vars));
    }
    let blocks: Vec<Value> = body
        .blocks
        .iter()
        .map(|b| json!({"type": interner.resolve(b.block_type.name), "labels": b.labels, "body": body_json(&b.body, interner)}))
        .collect();
    json!({"attrs": attrs, "blocks": blocks})
}

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout());
    for line in stdin.lock().lines().map_while(Result::ok) {
        let mut de = serde_json::Deserializer::from_str(&line);
        de.disable_recursion_limit();
        let Ok(case) = Value::deserialize(&mut de) else { continue };
        let Some(src) = case["src"].as_str() else { continue };
        let arena = bumpalo::Bump::new();
        let mut interner = compiler::Interner::new();
        let (body, diags) = compiler::parse_body(&arena, src.as_bytes(), &mut interner);
        let v = json!({"id": case["id"], "ok": diags.is_empty(), "body": body_json(&body, &interner)});
        let _ = writeln!(out, "{v}");
    }
}
