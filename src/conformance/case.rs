//! Decoding one conformance case line, with the checks (and the check order)
//! of the oracle, so that a malformed line fails the same way in both.

use base64::Engine as _;
use runtime::json_text::JsonCursor;
use runtime::strings::{go_lossy_utf8, go_quote};
use serde_json::{Map, Value as Json};

/// How a case's source is parsed and evaluated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// One expression (`hclsyntax.ParseExpression`).
    Expr,
    /// A standalone template (`hclsyntax.ParseTemplate`).
    Template,
    /// A whole config file; every attribute of every block is evaluated.
    Body,
}

/// The function table a case evaluates with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FuncTable {
    /// The oracle's `stdlib` table (the default).
    Stdlib,
    /// Packer's table, file functions unrestricted (relative to the working
    /// directory), as the oracle builds it.
    Packer,
    /// An empty table: every call is "Call to unknown function".
    None,
    /// No table at all: every call is "Function calls not allowed".
    Nil,
}

/// One decoded case. Variables stay raw JSON here: converting them needs the
/// value model (see [`super::bind_values`]).
#[derive(Clone, Debug)]
pub struct Case {
    pub id: String,
    pub mode: Mode,
    pub src: Vec<u8>,
    /// `vars`, sorted by name: each a TYPED value (`{"type": T, "value": V}`
    /// or a plain JSON value whose type is implied).
    pub vars: Vec<(String, Json)>,
    /// `unknowns`, sorted by name: each a go-cty JSON type.
    pub unknowns: Vec<(String, Json)>,
    /// `declare`, sorted by name: variable names and their type
    /// constraints' source text.
    pub declare: Vec<(String, String)>,
    pub funcs: FuncTable,
}

/// A malformed case line (result phase `case`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaseError {
    /// The case id when it could be read.
    pub id: Option<String>,
    pub message: String,
}

const KNOWN_KEYS: [&str; 8] = ["id", "mode", "src", "src_base64", "vars", "unknowns", "funcs", "declare"];

/// Decodes one (non-blank) case line.
///
/// JSON `null` for a string field reads as `""`, and a `null` line as an
/// empty object, as Go's `encoding/json` does; invalid UTF-8 inside strings
/// becomes U+FFFD for the same reason (one per byte that starts no valid
/// sequence).
pub fn decode_case(line: &[u8]) -> Result<Case, CaseError> {
    if let Some(case) = std::str::from_utf8(line).ok().and_then(decode_plain) {
        return Ok(case);
    }
    decode_any(&go_lossy_utf8(line))
}

/// [`decode_case`] of a case of any form (the text read as Go reads it).
fn decode_any(text: &str) -> Result<Case, CaseError> {
    let fail = |id: &Option<String>, message: String| CaseError { id: id.clone(), message };
    let mut raw: Map<String, Json> = match runtime::json::parse_json(text) {
        Ok(Json::Object(m)) => m,
        Ok(Json::Null) => Map::new(),
        Ok(other) => {
            let msg =
                format!("invalid JSON: json: cannot unmarshal {} into Go value of type map[string]json.RawMessage", json_kind(&other));
            return Err(fail(&None, msg));
        }
        Err(e) => return Err(fail(&None, format!("invalid JSON: {e}"))),
    };

    let id = match raw.get("id") {
        None => None,
        Some(v) => match string_or_null(v) {
            Some(s) => Some(s),
            None => return Err(fail(&None, "\"id\" must be a string".into())),
        },
    };

    let mut keys: Vec<&String> = raw.keys().collect();
    keys.sort();
    if let Some(k) = keys.iter().find(|k| !KNOWN_KEYS.contains(&k.as_str()) && !k.starts_with('_')) {
        return Err(fail(&id, format!("unknown case key {} (prefix metadata keys with \"_\")", go_quote(k))));
    }

    let mode_text = raw.get("mode").and_then(string_or_null);
    let mode = match mode_text.as_deref() {
        Some("expr") => Mode::Expr,
        Some("template") => Mode::Template,
        Some("body") => Mode::Body,
        Some(other) => return Err(fail(&id, format!("\"mode\" must be \"expr\", \"template\" or \"body\", not {}", go_quote(other)))),
        None => return Err(fail(&id, "\"mode\" must be \"expr\", \"template\" or \"body\"".into())),
    };

    // The source is taken, not copied: it is most of the line.
    let src = match (raw.remove("src"), raw.get("src_base64")) {
        (Some(_), Some(_)) => return Err(fail(&id, "give only one of \"src\" and \"src_base64\"".into())),
        (Some(Json::String(s)), None) => s.into_bytes(),
        (Some(Json::Null), None) => Vec::new(),
        (Some(_), None) => return Err(fail(&id, "\"src\" must be a string".into())),
        (None, Some(b)) => {
            let Some(b) = string_or_null(b) else {
                return Err(fail(&id, "\"src_base64\" must be a string".into()));
            };
            // Go's base64 decoder skips line breaks.
            let cleaned: Vec<u8> = b.bytes().filter(|&c| c != b'\r' && c != b'\n').collect();
            match base64::engine::general_purpose::STANDARD.decode(cleaned) {
                Ok(bytes) => bytes,
                Err(e) => return Err(fail(&id, format!("\"src_base64\": illegal base64 data at input byte {}", base64_error_offset(&e)))),
            }
        }
        (None, None) => return Err(fail(&id, "missing \"src\"".into())),
    };

    let vars = match raw.get("vars") {
        None | Some(Json::Null) => Vec::new(),
        Some(Json::Object(m)) => sorted_entries(m),
        Some(_) => return Err(fail(&id, "\"vars\" must be an object".into())),
    };
    let unknowns = match raw.get("unknowns") {
        None | Some(Json::Null) => Vec::new(),
        Some(Json::Object(m)) => sorted_entries(m),
        Some(_) => return Err(fail(&id, "\"unknowns\" must be an object".into())),
    };
    if let Some((name, _)) = unknowns.iter().find(|(name, _)| vars.iter().any(|(v, _)| v == name)) {
        return Err(fail(&id, format!("{} is in both vars and unknowns", go_quote(name))));
    }

    // Go's `json.Unmarshal` into a `map[string]string`: a null member
    // reads as "".
    let declare = match raw.get("declare") {
        None | Some(Json::Null) => Vec::new(),
        Some(Json::Object(m)) => {
            let mut out = Vec::with_capacity(m.len());
            for (name, t) in m {
                match string_or_null(t) {
                    Some(t) => out.push((name.clone(), t)),
                    None => return Err(fail(&id, "\"declare\" must be an object of type constraint strings".into())),
                }
            }
            out.sort_by(|a, b| a.0.cmp(&b.0));
            out
        }
        Some(_) => return Err(fail(&id, "\"declare\" must be an object of type constraint strings".into())),
    };

    let funcs_text = match raw.get("funcs") {
        None | Some(Json::Null) => "stdlib".to_string(),
        Some(Json::String(s)) => s.clone(),
        Some(_) => return Err(fail(&id, "\"funcs\" must be a string".into())),
    };
    let funcs = match funcs_text.as_str() {
        "stdlib" => FuncTable::Stdlib,
        "packer" => FuncTable::Packer,
        "none" => FuncTable::None,
        "nil" => FuncTable::Nil,
        other => return Err(fail(&id, format!("\"funcs\" must be \"stdlib\", \"packer\", \"none\" or \"nil\", not {}", go_quote(other)))),
    };

    Ok(Case { id: id.unwrap_or_default(), mode, src, vars, unknowns, declare, funcs })
}

/// A case of the plainest form, read without building a JSON tree: an
/// object of `id`, `mode`, `src` and optionally `funcs`, all strings with
/// valid values, each once (as a file's case, sources being most of the
/// line). Anything else (other members, nulls, unknown names, duplicates,
/// trailing text, raw control characters in strings, escapes of lone
/// surrogates) is `None` here, and the line is decoded by
/// [`decode_case`]'s general path, which reads every form and words the
/// errors as the oracle does.
///
/// Hand-written rather than serde's: a case line is mostly its source, one
/// long string full of escapes (every line break, every quote), which
/// [`JsonCursor`] copies run by run into a buffer sized for it at once.
fn decode_plain(text: &str) -> Option<Case> {
    let mut r = JsonCursor::new(text);
    let (mut id, mut mode, mut src, mut funcs) = (None, None, None, None);
    let mut key = Vec::with_capacity(16);
    r.skip_ws();
    r.expect(b'{')?;
    r.skip_ws();
    if r.peek() != Some(b'}') {
        loop {
            key.clear();
            r.string_bytes_into(&mut key)?;
            r.skip_ws();
            r.expect(b':')?;
            r.skip_ws();
            // The source is most of what is left: room for it at once.
            let (slot, room) = match &key[..] {
                b"id" => (&mut id, 64),
                b"mode" => (&mut mode, 16),
                b"src" => (&mut src, r.remaining()),
                b"funcs" => (&mut funcs, 16),
                _ => return None,
            };
            let mut value = Vec::with_capacity(room);
            r.string_bytes_into(&mut value)?;
            if slot.replace(value).is_some() {
                return None;
            }
            r.skip_ws();
            if r.peek() != Some(b',') {
                break;
            }
            r.bump();
            r.skip_ws();
        }
    }
    r.expect(b'}')?;
    r.skip_ws();
    if !r.at_end() {
        return None;
    }
    let mode = match mode.as_deref() {
        Some(b"expr") => Mode::Expr,
        Some(b"template") => Mode::Template,
        Some(b"body") => Mode::Body,
        _ => return None,
    };
    let funcs = match funcs.as_deref() {
        None | Some(b"stdlib") => FuncTable::Stdlib,
        Some(b"packer") => FuncTable::Packer,
        Some(b"none") => FuncTable::None,
        Some(b"nil") => FuncTable::Nil,
        Some(_) => return None,
    };
    let id = String::from_utf8(id?).ok()?;
    Some(Case { id, mode, src: src?, vars: Vec::new(), unknowns: Vec::new(), declare: Vec::new(), funcs })
}

/// Where decoding failed, for Go's error text.
fn base64_error_offset(e: &base64::DecodeError) -> usize {
    match *e {
        base64::DecodeError::InvalidByte(i, _) | base64::DecodeError::InvalidLastSymbol(i, _) => i,
        base64::DecodeError::InvalidLength(len) => len,
        base64::DecodeError::InvalidPadding => 0,
    }
}

/// A JSON string, or `""` for `null` (Go leaves the target untouched).
fn string_or_null(v: &Json) -> Option<String> {
    match v {
        Json::String(s) => Some(s.clone()),
        Json::Null => Some(String::new()),
        _ => None,
    }
}

fn sorted_entries(m: &Map<String, Json>) -> Vec<(String, Json)> {
    let mut out: Vec<(String, Json)> = m.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn json_kind(v: &Json) -> &'static str {
    match v {
        Json::Null => "null",
        Json::Bool(_) => "bool",
        Json::Number(_) => "number",
        Json::String(_) => "string",
        Json::Array(_) => "array",
        Json::Object(_) => "object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(line: &str) -> CaseError {
        decode_case(line.as_bytes()).expect_err("line should be rejected")
    }

    #[test]
    fn plain_cases_read_as_the_general_path_reads_them() {
        let lines = [
            r#"{"id":"a","mode":"body","src":"x = \"\\n\u00e9\"\n"}"#,
            r#"{"src":"1","mode":"expr","id":"b","funcs":"packer"}"#,
            r#"{"id":"c","mode":"template","src":"${x}","funcs":"nil"}"#,
            r#"{"\u0069d":"d","mode":"expr","src":"1"}"#,
            " { \"id\" : \"e\\ud83d\\ude00\\u00e9\\/\\b\\f\\u0000\" ,  \"mode\":\"body\",\"src\":\"x = \\\"\\\\\\\"\\n\"} ",
            r#"{"id":"long","mode":"expr","src":"\"0123456789abcdef0123456789abcdef\" + \"\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\""}"#,
            "{\t\"id\":\"c\",\r\n\"mode\":\"expr\",\"src\":\"1\"}",
            // Not plain: the general path decides.
            r#"{"id":"ls","mode":"expr","src":"\"\ud83d\""}"#,
            r#"{"id":"ls","mode":"expr","src":"\"\ude00\""}"#,
            "{\"id\":\"c\",\"mode\":\"expr\",\"src\":\"\t1\"}",
            r#"{"id":"x","mode":"expr","src":"\x"}"#,
            r#"{"id":"x","mode":"expr","src":"\u12"}"#,
            r#"{"id":"x","mode":"expr","src":"1",}"#,
            r#"{"id":"x","mode":"expr","src":"1""#,
            r#"{"id":"x","mode":"expr","src":"#,
            "{}",
            r#"{"id":"e","mode":"expr","src":"1","funcs":"all"}"#,
            r#"{"id":"f","mode":"expr","src":"1","id":"g"}"#,
            r#"{"id":"h","mode":"expr","src":null}"#,
            r#"{"mode":"expr","src":"1"}"#,
            r#"{"id":"i","mode":"expr","src":"1","_note":[1]}"#,
            r#"{"id":"j","mode":"expr","src":"1"} x"#,
            r#"{"id":"k","mode":"Expr","src":"1"}"#,
            "null",
        ];
        for line in lines {
            let plain = decode_plain(line).map(|p| format!("{p:?}"));
            let general = format!("{:?}", decode_any(line));
            if let Some(plain) = &plain {
                assert_eq!(format!("Ok({plain})"), general, "{line}");
            }
            assert_eq!(format!("{:?}", decode_case(line.as_bytes())), general, "{line}");
        }
        // The plain lines above are read without the general path.
        assert_eq!(lines.iter().filter(|l| decode_plain(l).is_some()).count(), 7);
    }

    #[test]
    fn decodes_a_full_case() {
        let c = decode_case(br#"{"id":"a","mode":"body","src":"x = 1","vars":{"b":1,"a":{"type":"string","value":"s"}},"unknowns":{"u":"number"},"funcs":"none","_note":"n"}"#).unwrap();
        assert_eq!(c.id, "a");
        assert_eq!(c.mode, Mode::Body);
        assert_eq!(c.src, b"x = 1");
        assert_eq!(c.vars.iter().map(|v| v.0.as_str()).collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(c.unknowns.len(), 1);
        assert_eq!(c.funcs, FuncTable::None);
    }

    #[test]
    fn base64_source_and_defaults() {
        let c = decode_case(br#"{"id":"b","mode":"expr","src_base64":"IsO/Ig=="}"#).unwrap();
        assert_eq!(c.src, "\"\u{ff}\"".as_bytes());
        assert_eq!(c.funcs, FuncTable::Stdlib);
        assert!(c.vars.is_empty() && c.unknowns.is_empty());
    }

    #[test]
    fn invalid_utf8_reads_as_go_reads_it() {
        // encoding/json: one U+FFFD per byte of a truncated sequence.
        let c = decode_case(b"{\"id\":\"u\",\"mode\":\"expr\",\"src\":\"\\\"\xe2\x80A\\\"\"}").unwrap();
        assert_eq!(c.src, "\"\u{fffd}\u{fffd}A\"".as_bytes());
    }

    #[test]
    fn numbers_in_vars_keep_their_text() {
        let c = decode_case(br#"{"id":"n","mode":"expr","src":"x","vars":{"x":0.1000000000000000000000000001}}"#).unwrap();
        assert_eq!(c.vars[0].1.to_string(), "0.1000000000000000000000000001");
    }

    #[test]
    fn malformed_lines_fail_like_the_oracle() {
        let table: &[(&str, Option<&str>, &str)] = &[
            (r#"{"id":1,"mode":"expr","src":"1"}"#, None, "\"id\" must be a string"),
            (r#"{"id":"k","mode":"expr","src":"1","extra":1}"#, Some("k"), "unknown case key \"extra\" (prefix metadata keys with \"_\")"),
            (r#"{"id":"m","src":"1"}"#, Some("m"), "\"mode\" must be \"expr\", \"template\" or \"body\""),
            (r#"{"id":"m","mode":"x","src":"1"}"#, Some("m"), "\"mode\" must be \"expr\", \"template\" or \"body\", not \"x\""),
            (r#"{"id":"s","mode":"expr"}"#, Some("s"), "missing \"src\""),
            (r#"{"id":"s","mode":"expr","src":"1","src_base64":"MQ=="}"#, Some("s"), "give only one of \"src\" and \"src_base64\""),
            (r#"{"id":"s","mode":"expr","src":1}"#, Some("s"), "\"src\" must be a string"),
            (r#"{"id":"v","mode":"expr","src":"1","vars":[]}"#, Some("v"), "\"vars\" must be an object"),
            (r#"{"id":"u","mode":"expr","src":"1","unknowns":3}"#, Some("u"), "\"unknowns\" must be an object"),
            (
                r#"{"id":"d","mode":"expr","src":"1","vars":{"a":1},"unknowns":{"a":"number"}}"#,
                Some("d"),
                "\"a\" is in both vars and unknowns",
            ),
            (
                r#"{"id":"f","mode":"expr","src":"1","funcs":"all"}"#,
                Some("f"),
                "\"funcs\" must be \"stdlib\", \"packer\", \"none\" or \"nil\", not \"all\"",
            ),
            (r#"{"id":"f","mode":"expr","src":"1","funcs":1}"#, Some("f"), "\"funcs\" must be a string"),
            // Quoted as Go's %q quotes them (the oracle's messages).
            (
                r#"{"id":"c","mode":"\u0007\u0001\u007f","src":"1"}"#,
                Some("c"),
                "\"mode\" must be \"expr\", \"template\" or \"body\", not \"\\a\\x01\\x7f\"",
            ),
            (
                r#"{"id":"d","mode":"expr","src":"1","vars":{"\u00a0\u2028":1},"unknowns":{"\u00a0\u2028":"number"}}"#,
                Some("d"),
                "\"\\u00a0\\u2028\" is in both vars and unknowns",
            ),
        ];
        for (line, id, msg) in table {
            let e = err(line);
            assert_eq!(e.id.as_deref(), *id, "{line}");
            assert_eq!(e.message, *msg, "{line}");
        }
    }

    #[test]
    fn invalid_json_has_no_id() {
        let e = err("{\"id\":\"x\",");
        assert_eq!(e.id, None);
        assert!(e.message.starts_with("invalid JSON: "), "{}", e.message);
        assert!(err("[1]").message.contains("cannot unmarshal array"));
    }

    #[test]
    fn null_fields_read_as_empty_strings() {
        let e = err(r#"{"id":null,"mode":null,"src":"1"}"#);
        assert_eq!(e.id.as_deref(), Some(""));
        assert_eq!(e.message, "\"mode\" must be \"expr\", \"template\" or \"body\", not \"\"");
    }
}
