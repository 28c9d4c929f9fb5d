//! The JSON variables fast path (`runtime::json_text`, behind
//! `Variables::from_json_str`) against the full decoder (`parse_json`, then
//! `Variables::from_json`): on any text, both give the same variables, or
//! the same error message; text that is not a JSON object is an error.

use hclvm::Variables;

/// Each variable's name with its value's typed encoding, or the error.
fn summary(result: Result<Variables, hclvm::Error>) -> Result<Vec<(String, String)>, String> {
    let vars = result.map_err(|e| e.to_string())?;
    Ok(vars
        .iter()
        .map(|(name, value)| {
            let mut text = String::new();
            // A number too long to print is still a value to compare.
            if runtime::json::write_typed_value(&mut text, value).is_err() {
                text = format!("{value:?}");
            }
            (name.to_string(), text)
        })
        .collect())
}

/// Decodes `data` (as text) both ways and panics when they differ.
pub fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let fast = summary(Variables::from_json_str(text));
    match hclvm::runtime::json::parse_json(text) {
        Ok(json) if json.is_object() => assert_eq!(fast, summary(Variables::from_json(&json)), "{text:?}"),
        // Not JSON, or not an object: an error (whose message is the full
        // decoder's, as the fast path gives up on such text).
        _ => assert!(fast.is_err(), "{text:?} decoded: {fast:?}"),
    }
}
