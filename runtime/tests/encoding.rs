//! The result encoding is byte-identical to the reference's: each row is
//! the exact text the oracle wrote after `"ok":true,`; decoding it and
//! encoding again must reproduce every byte (escapes, number text, key and
//! set order, unknown markers, the `known` flag).

use runtime::json::{value_from_result_json, write_typed_value};
use runtime::Type;

mod data {
    include!("data/encoding_table.rs");
}

#[test]
fn result_encoding_is_byte_identical() {
    for (src, body) in data::ENCODED {
        let j: serde_json::Value = serde_json::from_str(&format!("{{{body}}}")).unwrap();
        let ty = Type::from_json(&j["type"]).unwrap();
        let v = value_from_result_json(&j["value"], &ty).unwrap();
        let mut out = String::new();
        write_typed_value(&mut out, &v).unwrap();
        assert_eq!(&out, body, "{src}");
    }
}
