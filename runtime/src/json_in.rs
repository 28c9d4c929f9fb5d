//! Reading JSON of any reasonable nesting. serde_json stops at 128 levels by
//! default, but conformance cases and results nest deeper (a 200-deep
//! variable, a 400-deep result type). The limit here is Go's
//! `encoding/json` limit, checked before parsing so that a hostile line
//! cannot exhaust the stack.

use serde_json::Value as Json;

/// The deepest nesting accepted, as Go's `encoding/json` (`maxNestingDepth`),
/// which is also the deepest value ([`crate::value::MAX_NESTING`]).
pub const MAX_JSON_DEPTH: usize = crate::value::MAX_NESTING;

/// Parses one JSON text, accepting up to [`MAX_JSON_DEPTH`] levels of arrays
/// and objects. Errors are serde_json's, or Go's text for too deep nesting.
///
/// Parsing recurses once per level; it grows the stack as it goes
/// (serde_stacker), so any thread can read deep input. Drop a deep result
/// with [`crate::stack::drop_json`], which does not recurse.
pub fn parse_json(text: &str) -> Result<Json, String> {
    if let Some(bracket) = first_too_deep(text.as_bytes()) {
        return Err(format!("invalid character '{}' exceeded max depth", bracket as char));
    }
    let text = lone_surrogates_replaced(text);
    let mut de = serde_json::Deserializer::from_str(&text);
    de.disable_recursion_limit();
    let mut values = de.into_iter::<Deep>();
    let value = match values.next() {
        Some(v) => v.map_err(|e| e.to_string())?.0,
        None => return Err("EOF while parsing a value at line 1 column 0".into()),
    };
    match values.next() {
        None => Ok(value),
        Some(Err(e)) => Err(e.to_string()),
        Some(Ok(_)) => Err(format!("trailing characters at byte {}", values.byte_offset())),
    }
}

/// `text` with each `\u` escape of a surrogate that is not half of a pair
/// (a high one followed by a low one) written `\uFFFD`: Go's
/// encoding/json reads such an escape as U+FFFD, where serde_json refuses
/// the text. Escapes keep their length, so positions in errors stay.
fn lone_surrogates_replaced(text: &str) -> std::borrow::Cow<'_, str> {
    let b = text.as_bytes();
    let escape_at = |i: usize| -> Option<u32> {
        let hex = b.get(i..i + 6).filter(|e| e.starts_with(b"\\u"))?;
        u32::from_str_radix(std::str::from_utf8(&hex[2..]).ok()?, 16).ok()
    };
    let mut lone: Vec<usize> = Vec::new();
    let mut i = 0;
    while let Some(at) = memchr::memchr(b'\\', b.get(i..).unwrap_or_default()) {
        let at = i + at;
        match escape_at(at) {
            Some(0xD800..=0xDBFF) => {
                if escape_at(at + 6).is_some_and(|lo| (0xDC00..=0xDFFF).contains(&lo)) {
                    i = at + 12;
                } else {
                    lone.push(at);
                    i = at + 6;
                }
            }
            Some(0xDC00..=0xDFFF) => {
                lone.push(at);
                i = at + 6;
            }
            Some(_) => i = at + 6,
            // Any other escape: the byte after the backslash is not one.
            None => i = at + 2,
        }
    }
    if lone.is_empty() {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    for at in lone {
        out.push_str(&text[from..at]);
        out.push_str("\\uFFFD");
        from = at + 6;
    }
    out.push_str(&text[from..]);
    std::borrow::Cow::Owned(out)
}

/// A JSON value deserialized on a stack that grows as deep as it nests.
struct Deep(Json);

impl<'de> serde::Deserialize<'de> for Deep {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Deep, D::Error> {
        let mut stacked = serde_stacker::Deserializer::new(d);
        stacked.red_zone = crate::stack::RED_ZONE;
        stacked.stack_size = crate::stack::SEGMENT;
        serde::Deserialize::deserialize(stacked).map(Deep)
    }
}

/// The first bracket (outside strings) that opens a level past
/// [`MAX_JSON_DEPTH`], if any. Syntax is left to the parser: this only
/// bounds its recursion.
fn first_too_deep(bytes: &[u8]) -> Option<u8> {
    let mut depth = 0usize;
    for b in crate::json::structural_bytes(bytes) {
        match b {
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_JSON_DEPTH {
                    return Some(b);
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deep_but_bounded_nesting() {
        let deep = format!("{}1{}", "[".repeat(500), "]".repeat(500));
        assert!(parse_json(&deep).is_ok());
        let too_deep = format!("{}1{}", "[".repeat(MAX_JSON_DEPTH + 1), "]".repeat(MAX_JSON_DEPTH + 1));
        assert_eq!(parse_json(&too_deep), Err("invalid character '[' exceeded max depth".to_string()));
        // Brackets inside strings do not count.
        let quoted = format!("\"{}\\\"{}\"", "[".repeat(MAX_JSON_DEPTH + 1), "{");
        assert!(parse_json(&quoted).is_ok());
    }

    #[test]
    fn trailing_garbage_is_an_error() {
        assert!(parse_json("{} x").is_err());
        assert!(parse_json("1").is_ok());
    }
}
