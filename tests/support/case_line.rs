//! Reading the oracle's case lines without the `hclvm` crate, for the tests
//! and examples of `compiler/` (which sits below it); they include it by
//! path:
//!
//! ```ignore
//! #[path = "../../tests/support/case_line.rs"]
//! mod case_line;
//! ```
//!
//! The root crate's tests decode cases with `hclvm::conformance::decode_case`,
//! the full decoder with the oracle's checks and messages; this reads only
//! what a parser test needs. Needs `serde`, `serde_json` (feature
//! `unbounded_depth`) and `base64`.
#![allow(dead_code)]

use base64::Engine as _;
use serde::Deserialize as _;
use serde_json::Value;

/// A JSON line, however deeply it nests (case lines can nest `vars` deeper
/// than serde_json's default limit); `None` if it is not JSON.
pub fn parse_json_deep(line: &str) -> Option<Value> {
    let mut de = serde_json::Deserializer::from_str(line);
    de.disable_recursion_limit();
    Value::deserialize(&mut de).ok()
}

/// The source of a case: its `src`, or its `src_base64` decoded as the
/// oracle's Go decoder does (line breaks skipped); `None` when it has
/// neither as a string. Panics on `src_base64` that is not base64.
pub fn case_source(case: &Value) -> Option<Vec<u8>> {
    match (&case["src"], &case["src_base64"]) {
        (Value::String(s), _) => Some(s.as_bytes().to_vec()),
        (_, Value::String(b)) => {
            let cleaned: Vec<u8> = b.bytes().filter(|&c| c != b'\r' && c != b'\n').collect();
            let src = base64::engine::general_purpose::STANDARD.decode(cleaned);
            Some(src.unwrap_or_else(|e| panic!("case {}: src_base64: {e}", case["id"])))
        }
        _ => None,
    }
}
