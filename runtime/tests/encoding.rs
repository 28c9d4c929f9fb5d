//! The result encoding is byte-identical to the reference's: each row of
//! `tests/data/encoding.jsonl` (made by `tests/data/oracle_tables.py`) holds
//! an expression and the exact text the oracle wrote for it after
//! `"ok":true,`; decoding it and encoding again must reproduce every byte
//! (escapes, number text, key and set order, unknown markers, the `known`
//! flag).

use runtime::json::{value_from_result_json, write_typed_value};
use runtime::Type;
use serde_json::Value as Json;

#[test]
fn result_encoding_is_byte_identical() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/encoding.jsonl");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e} (made by tests/data/oracle_tables.py)", path.display()));
    let mut rows = 0;
    for line in text.split('\n').filter(|l| !l.trim().is_empty()) {
        let row: Json = serde_json::from_str(line).unwrap_or_else(|e| panic!("bad row {line}: {e}"));
        let src = row["src"].as_str().expect("src");
        let want = row["want"].as_str().expect("want");
        let body = want.strip_prefix("ok ").unwrap_or_else(|| panic!("{src}: the reference failed: {want}"));
        let j: Json = serde_json::from_str(&format!("{{{body}}}")).unwrap();
        let ty = Type::from_json(&j["type"]).unwrap();
        let v = value_from_result_json(&j["value"], &ty).unwrap_or_else(|e| panic!("{src}: {e:?}"));
        let mut out = String::new();
        write_typed_value(&mut out, &v).unwrap();
        assert_eq!(out, body, "{src}");
        rows += 1;
    }
    assert!(rows > 0, "{} has no rows", path.display());
}
