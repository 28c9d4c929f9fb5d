//! jsonencode jsondecode csvdecode

use super::{str_arg, CallCtx, FnError, ELEMENT_COST};
use crate::strings::{go_quote, go_quote_rune};
use crate::types::Type;
use crate::value::Value;
use std::collections::BTreeSet;

pub fn jsonencode(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let v = &args[0];
    if !v.is_wholly_known() {
        // The text is unknown, but a value that cannot be null starts with
        // the character of its kind.
        if v.could_be_null() {
            return Ok(Value::unknown(Type::String));
        }
        let mut b = Value::unknown(Type::String).refine();
        match v.ty() {
            Type::String => {
                b.string_prefix_full("\"");
            }
            Type::Object(_) | Type::Map(_) => {
                b.string_prefix_full("{");
            }
            Type::Tuple(_) | Type::List(_) | Type::Set(_) => {
                b.string_prefix_full("[");
            }
            _ => {}
        }
        return Ok(b.into_value());
    }
    if v.is_null() {
        return Ok(Value::string("null"));
    }
    let max_len = usize::try_from(ctx.remaining()).unwrap_or(usize::MAX);
    let s = match crate::json::marshal_within(v, &v.ty(), max_len) {
        Ok(s) => s,
        Err(crate::json::MarshalStop::Invalid(e)) => return Err(FnError::new(e.to_string())),
        Err(crate::json::MarshalStop::TooLong) => return Err(ctx.too_large()),
    };
    ctx.charge(s.len() as u64)?;
    Ok(Value::from_string(s))
}

/// Decodes one JSON document as cty's `ImpliedType` does: with the token
/// API of Go's `encoding/json` Decoder (see [`GoJsonTokens`]), then
/// `More()` — so only a further value is "extraneous data", and a stray `]`
/// or `}` after the document is ignored.
fn decode_json(s: &str) -> Result<serde_json::Value, FnError> {
    let mut dec = GoJsonTokens::new(s.as_bytes());
    let (doc, repeated_keys) = implied_json(&mut dec).map_err(FnError::new)?;
    if dec.more() {
        return Err(FnError::new("extraneous data after JSON object"));
    }
    let j = doc.to_json();
    if repeated_keys {
        // cty decodes the document a second time against the type it
        // implied, in which a repeated key has the type of its last value:
        // an earlier value must decode to that type too.
        let ty = crate::json::value_from_json_implied(&j).map_err(|e| FnError::new(e.message))?.ty();
        // (`j` is dropped by the caller's `drop_json` on success; on an
        // error here it is dropped as it goes out of scope.)
        doc.check_against(&ty).map_err(FnError::new)?;
    }
    Ok(j)
}

/// The deepest document jsondecode reads (the reference has no bound but
/// its memory: Go grows a goroutine's stack to 1 GB). Ten times the JSON
/// input limit; every algorithm over values keeps to the stack at any
/// depth, and the size budget bounds the rest.
const JSONDECODE_MAX_DEPTH: usize = 100_000;

/// A JSON document as read, objects keeping repeated keys.
enum Doc {
    Scalar(serde_json::Value),
    Array(Vec<Doc>),
    Object(Vec<(String, Doc)>),
}

impl Drop for Doc {
    /// Without recursion: documents nest as deeply as values.
    fn drop(&mut self) {
        let mut work: Vec<Doc> = match self {
            Doc::Scalar(_) => return,
            Doc::Array(items) => std::mem::take(items),
            Doc::Object(entries) => std::mem::take(entries).into_iter().map(|(_, d)| d).collect(),
        };
        while let Some(mut d) = work.pop() {
            match &mut d {
                Doc::Scalar(_) => {}
                Doc::Array(items) => work.append(items),
                Doc::Object(entries) => work.extend(std::mem::take(entries).into_iter().map(|(_, d)| d)),
            }
        }
    }
}

impl Doc {
    /// The document with the last of each repeated key, as cty's implied
    /// type and value see it.
    fn to_json(&self) -> serde_json::Value {
        match self {
            Doc::Scalar(j) => j.clone(),
            Doc::Array(items) => serde_json::Value::Array(crate::stack::guarded(|| items.iter().map(Doc::to_json).collect())),
            Doc::Object(entries) => {
                let mut m = serde_json::Map::new();
                for (k, v) in entries {
                    m.insert(k.clone(), crate::stack::guarded(|| v.to_json()));
                }
                serde_json::Value::Object(m)
            }
        }
    }

    /// cty's `Unmarshal` against `ty`, for its errors only: objects and
    /// arrays are walked member by member in document order, anything
    /// else is decoded as the typed decoder does.
    fn check_against(&self, ty: &Type) -> Result<(), String> {
        match (self, ty) {
            (Doc::Object(entries), Type::Object(ot)) => {
                for (k, v) in entries {
                    let Some(aty) = ot.attr_type(k) else {
                        return Err(format!("unsupported attribute {}", go_quote(k)));
                    };
                    crate::stack::guarded(|| v.check_against(aty))?;
                }
                Ok(())
            }
            (Doc::Array(items), Type::Tuple(tt)) => {
                let etys = tt.elems();
                for (i, item) in items.iter().enumerate() {
                    let Some(ety) = etys.get(i) else {
                        return Err(format!("too many tuple elements (need {})", etys.len()));
                    };
                    crate::stack::guarded(|| item.check_against(ety))?;
                }
                if items.len() != etys.len() {
                    return Err(format!("not enough tuple elements (need {})", etys.len()));
                }
                Ok(())
            }
            _ => crate::json::value_from_json_typed(&self.to_json(), ty).map(|_| ()).map_err(|e| e.message),
        }
    }
}

/// Where Go's `Decoder.Token` is in the document (its `tokenState`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum TokState {
    TopValue,
    ArrayStart,
    ArrayValue,
    ArrayComma,
    ObjectStart,
    ObjectKey,
    ObjectColon,
    ObjectValue,
    ObjectComma,
}

enum GoTok {
    Delim(u8),
    Null,
    Bool(bool),
    /// The number's text as written.
    Number(String),
    Str(String),
}

/// The token stream of Go's `json.Decoder` over a complete buffer: brackets,
/// commas and colons are checked by a small state machine (`Token`), scalars
/// by the scanner (`Decode` → `readValue`), each with encoding/json's error
/// text.
struct GoJsonTokens<'a> {
    b: &'a [u8],
    pos: usize,
    state: TokState,
    stack: Vec<TokState>,
}

impl<'a> GoJsonTokens<'a> {
    fn new(b: &'a [u8]) -> Self {
        GoJsonTokens { b, pos: 0, state: TokState::TopValue, stack: Vec::new() }
    }

    /// The next byte that is not JSON whitespace (the decoder's `peek`).
    fn peek(&mut self) -> Option<u8> {
        while let Some(&c) = self.b.get(self.pos) {
            if !matches!(c, b' ' | b'\t' | b'\r' | b'\n') {
                return Some(c);
            }
            self.pos += 1;
        }
        None
    }

    /// `Decoder.More`.
    fn more(&mut self) -> bool {
        matches!(self.peek(), Some(c) if c != b']' && c != b'}')
    }

    fn value_allowed(&self) -> bool {
        matches!(self.state, TokState::TopValue | TokState::ArrayStart | TokState::ArrayValue | TokState::ObjectValue)
    }

    fn value_end(&mut self) {
        self.state = match self.state {
            TokState::ArrayStart | TokState::ArrayValue => TokState::ArrayComma,
            TokState::ObjectValue => TokState::ObjectComma,
            s => s,
        };
    }

    fn token_error(&self, c: u8) -> String {
        let context = match self.state {
            TokState::TopValue | TokState::ArrayStart | TokState::ArrayValue | TokState::ObjectValue => " looking for beginning of value",
            TokState::ArrayComma => " after array element",
            TokState::ObjectKey => " looking for beginning of object key string",
            TokState::ObjectColon => " after object key",
            TokState::ObjectComma => " after object key:value pair",
            TokState::ObjectStart => "",
        };
        format!("invalid character {}{}", go_quote_rune(char::from(c)), context)
    }

    fn pop(&mut self) {
        self.state = self.stack.pop().unwrap_or(TokState::TopValue);
        self.value_end();
    }

    /// `Decoder.Token`; `Err("EOF")` at the end of the input.
    fn token(&mut self) -> Result<GoTok, String> {
        loop {
            let Some(c) = self.peek() else {
                return Err("EOF".to_string());
            };
            match c {
                b'[' | b'{' => {
                    if !self.value_allowed() {
                        return Err(self.token_error(c));
                    }
                    self.pos += 1;
                    self.stack.push(self.state);
                    self.state = if c == b'[' { TokState::ArrayStart } else { TokState::ObjectStart };
                    return Ok(GoTok::Delim(c));
                }
                b']' => {
                    if !matches!(self.state, TokState::ArrayStart | TokState::ArrayComma) {
                        return Err(self.token_error(c));
                    }
                    self.pos += 1;
                    self.pop();
                    return Ok(GoTok::Delim(c));
                }
                b'}' => {
                    if !matches!(self.state, TokState::ObjectStart | TokState::ObjectComma) {
                        return Err(self.token_error(c));
                    }
                    self.pos += 1;
                    self.pop();
                    return Ok(GoTok::Delim(c));
                }
                b':' => {
                    if self.state != TokState::ObjectColon {
                        return Err(self.token_error(c));
                    }
                    self.pos += 1;
                    self.state = TokState::ObjectValue;
                }
                b',' => match self.state {
                    TokState::ArrayComma => {
                        self.pos += 1;
                        self.state = TokState::ArrayValue;
                    }
                    TokState::ObjectComma => {
                        self.pos += 1;
                        self.state = TokState::ObjectKey;
                    }
                    _ => return Err(self.token_error(c)),
                },
                b'"' if matches!(self.state, TokState::ObjectStart | TokState::ObjectKey) => {
                    let tok = self.scalar()?;
                    self.state = TokState::ObjectColon;
                    return Ok(tok);
                }
                _ => {
                    if !self.value_allowed() {
                        return Err(self.token_error(c));
                    }
                    let tok = self.scalar()?;
                    self.value_end();
                    return Ok(tok);
                }
            }
        }
    }

    /// One scalar value from the current position, scanned as encoding/json's
    /// scanner does at the top level: it ends at the first byte that cannot
    /// continue it; the end of the input ends it only in a state that could
    /// end there ("unexpected EOF" otherwise).
    fn scalar(&mut self) -> Result<GoTok, String> {
        #[derive(Clone, Copy)]
        enum St {
            Begin,
            Str,
            Esc,
            EscU(u8),
            Neg,
            Zero,
            One,
            Dot,
            Dot0,
            E,
            ESign,
            E0,
            Lit(&'static str, usize),
            Done,
        }
        let start = self.pos;
        let mut st = St::Begin;
        let mut end = None;
        let err = |c: u8, context: &str| Err(format!("invalid character {} {}", go_quote_rune(char::from(c)), context));
        for (i, &c) in self.b[start..].iter().enumerate() {
            let hex = c.is_ascii_hexdigit();
            st = match st {
                St::Begin => match c {
                    b'"' => St::Str,
                    b'-' => St::Neg,
                    b'0' => St::Zero,
                    b'1'..=b'9' => St::One,
                    b't' => St::Lit("true", 1),
                    b'f' => St::Lit("false", 1),
                    b'n' => St::Lit("null", 1),
                    _ => return err(c, "looking for beginning of value"),
                },
                St::Str => match c {
                    b'"' => St::Done,
                    b'\\' => St::Esc,
                    c if c < 0x20 => return err(c, "in string literal"),
                    _ => St::Str,
                },
                St::Esc => match c {
                    b'b' | b'f' | b'n' | b'r' | b't' | b'\\' | b'/' | b'"' => St::Str,
                    b'u' => St::EscU(0),
                    _ => return err(c, "in string escape code"),
                },
                St::EscU(n) if hex => {
                    if n == 3 {
                        St::Str
                    } else {
                        St::EscU(n + 1)
                    }
                }
                St::EscU(_) => return err(c, "in \\u hexadecimal character escape"),
                St::Neg => match c {
                    b'0' => St::Zero,
                    b'1'..=b'9' => St::One,
                    _ => return err(c, "in numeric literal"),
                },
                St::One if c.is_ascii_digit() => St::One,
                St::One | St::Zero => match c {
                    b'.' => St::Dot,
                    b'e' | b'E' => St::E,
                    _ => St::Done,
                },
                St::Dot if c.is_ascii_digit() => St::Dot0,
                St::Dot => return err(c, "after decimal point in numeric literal"),
                St::Dot0 => match c {
                    b'0'..=b'9' => St::Dot0,
                    b'e' | b'E' => St::E,
                    _ => St::Done,
                },
                St::E if c == b'+' || c == b'-' => St::ESign,
                St::E | St::ESign if c.is_ascii_digit() => St::E0,
                St::E | St::ESign => return err(c, "in exponent of numeric literal"),
                St::E0 if c.is_ascii_digit() => St::E0,
                St::E0 => St::Done,
                St::Lit(word, k) => {
                    let want = word.as_bytes()[k];
                    if c != want {
                        return Err(format!(
                            "invalid character {} in literal {} (expecting {})",
                            go_quote_rune(char::from(c)),
                            word,
                            go_quote_rune(char::from(want))
                        ));
                    }
                    if k + 1 == word.len() {
                        St::Done
                    } else {
                        St::Lit(word, k + 1)
                    }
                }
                St::Done => St::Done,
            };
            if let St::Done = st {
                // Strings and literals end after their last byte; numbers
                // at the byte that does not continue them.
                let number = self.b[start] == b'-' || self.b[start].is_ascii_digit();
                end = Some(start + i + usize::from(!number));
                break;
            }
        }
        let end = match (end, st) {
            (Some(e), _) => e,
            (None, St::Zero | St::One | St::Dot0 | St::E0) => self.b.len(),
            (None, _) => return Err("unexpected EOF".to_string()),
        };
        let text = &self.b[start..end];
        self.pos = end;
        Ok(match text[0] {
            b'"' => GoTok::Str(go_unquote(&text[1..text.len() - 1])),
            b't' => GoTok::Bool(true),
            b'f' => GoTok::Bool(false),
            b'n' => GoTok::Null,
            _ => GoTok::Number(String::from_utf8_lossy(text).into_owned()),
        })
    }
}

/// The contents of a scanned JSON string literal, unescaped as encoding/json
/// does: a `\u` surrogate that does not form a pair with a following `\u`
/// escape becomes U+FFFD (and the following escape stands alone).
fn go_unquote(raw: &[u8]) -> String {
    fn u4(b: &[u8]) -> Option<u32> {
        if b.len() < 6 || b[0] != b'\\' || b[1] != b'u' {
            return None;
        }
        u32::from_str_radix(std::str::from_utf8(&b[2..6]).ok()?, 16).ok()
    }
    let mut out: Vec<u8> = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        if raw[i] != b'\\' {
            out.push(raw[i]);
            i += 1;
            continue;
        }
        let Some(&e) = raw.get(i + 1) else { break };
        let simple = match e {
            b'b' => Some(b'\x08'),
            b'f' => Some(b'\x0c'),
            b'n' => Some(b'\n'),
            b'r' => Some(b'\r'),
            b't' => Some(b'\t'),
            b'u' => None,
            other => Some(other),
        };
        if let Some(b) = simple {
            out.push(b);
            i += 2;
            continue;
        }
        let Some(r) = u4(&raw[i..]) else { break };
        i += 6;
        let mut ch = char::from_u32(r);
        if (0xD800..0xE000).contains(&r) {
            ch = None;
            if (0xD800..0xDC00).contains(&r) {
                if let Some(r2) = u4(&raw[i..]).filter(|r2| (0xDC00..0xE000).contains(r2)) {
                    ch = char::from_u32(0x10000 + ((r - 0xD800) << 10) + (r2 - 0xDC00));
                    i += 6;
                }
            }
        }
        let mut buf = [0u8; 4];
        out.extend_from_slice(ch.unwrap_or('\u{FFFD}').encode_utf8(&mut buf).as_bytes());
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// cty's `impliedType` walk over the tokens, building the document (and
/// whether an object repeats a key). Iterative, with nesting bounded as for
/// every value.
fn implied_json(dec: &mut GoJsonTokens) -> Result<(Doc, bool), String> {
    use serde_json::Value as J;
    enum Frame {
        Array(Vec<Doc>),
        Object(Vec<(String, Doc)>, Option<String>),
    }
    let mut stack: Vec<Frame> = Vec::new();
    let mut repeated = false;
    loop {
        let tok = dec.token()?;
        let done = match (stack.last_mut(), tok) {
            (Some(Frame::Object(_, key @ None)), tok) => match tok {
                GoTok::Delim(b'}') => match stack.pop() {
                    Some(Frame::Object(entries, _)) => {
                        if entries.len() > 1 && !repeated {
                            let mut keys: Vec<&str> = entries.iter().map(|(k, _)| k.as_str()).collect();
                            keys.sort_unstable();
                            repeated = keys.windows(2).any(|w| w[0] == w[1]);
                        }
                        Doc::Object(entries)
                    }
                    _ => Doc::Scalar(J::Null),
                },
                // `%q` of a json.Delim quotes its String(): `"["`, not `'['`.
                GoTok::Delim(d) => return Err(format!("unexpected delimiter {}", go_quote(char::from(d).encode_utf8(&mut [0; 4])))),
                GoTok::Str(k) => {
                    *key = Some(k);
                    continue;
                }
                GoTok::Number(_) => return Err("expected string but found json.Number".to_string()),
                GoTok::Bool(_) => return Err("expected string but found bool".to_string()),
                GoTok::Null => return Err("expected string but found <nil>".to_string()),
            },
            (Some(Frame::Array(_)), GoTok::Delim(b']')) => match stack.pop() {
                Some(Frame::Array(items)) => Doc::Array(items),
                _ => Doc::Scalar(J::Null),
            },
            (_, GoTok::Delim(d @ (b'[' | b'{'))) => {
                stack.push(if d == b'[' { Frame::Array(Vec::new()) } else { Frame::Object(Vec::new(), None) });
                if stack.len() > JSONDECODE_MAX_DEPTH {
                    return Err("value is nested too deeply".to_string());
                }
                continue;
            }
            (_, GoTok::Delim(d)) => return Err(format!("unexpected token {}", go_quote(char::from(d).encode_utf8(&mut [0; 4])))),
            (_, GoTok::Null) => Doc::Scalar(J::Null),
            (_, GoTok::Bool(b)) => Doc::Scalar(J::Bool(b)),
            (_, GoTok::Number(n)) => Doc::Scalar(serde_json::from_str::<J>(&n).map_err(|e| e.to_string())?),
            (_, GoTok::Str(s)) => Doc::Scalar(J::String(s)),
        };
        // A finished value goes into its container, or is the document.
        match stack.last_mut() {
            None => return Ok((done, repeated)),
            Some(Frame::Array(items)) => items.push(done),
            Some(Frame::Object(entries, key)) => {
                entries.push((key.take().unwrap_or_default(), done));
            }
        }
    }
}

/// Size units charged per JSON value `jsondecode` reads: about what one
/// takes in memory while it is decoded (its document node, JSON form and
/// value: 250-700 bytes measured), so that the size budget bounds
/// `jsondecode`'s memory as it bounds the rest of an evaluation.
const JSON_VALUE_UNITS: u64 = 256;

/// An upper bound of the values in JSON text `s`: its arrays, objects and
/// commas outside strings, plus one.
fn json_value_bound(s: &str) -> u64 {
    1 + crate::json::structural_bytes(s.as_bytes()).filter(|b| matches!(b, b'[' | b'{' | b',')).count() as u64
}

/// jsondecode's result type: what the first character of an unknown
/// document's known prefix allows (a string, a bool, a number, or an
/// error when no JSON value starts so); dynamic otherwise, including for a
/// known document, whose decoded value has its type anyway.
pub fn jsondecode_type(args: &[Value]) -> Result<Type, FnError> {
    if args[0].is_known() {
        return Ok(Type::Dynamic);
    }
    let prefix = args[0].string_prefix().trim();
    Ok(match prefix.chars().next() {
        None | Some('{' | '[' | 'n') => Type::Dynamic,
        Some('"') => Type::String,
        Some('t' | 'f') => Type::Bool,
        Some('-' | '0'..='9' | '.') => Type::Number,
        Some(c) => return Err(FnError::arg(0, format!("a JSON document cannot begin with the character {}", go_quote_rune(c)))),
    })
}

pub fn jsondecode(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let s = str_arg(&args[0]);
    ctx.charge((s.len() as u64).saturating_add(JSON_VALUE_UNITS.saturating_mul(json_value_bound(s))))?;
    let j = decode_json(s)?;
    let v = crate::json::value_from_json_implied_deep(&j, JSONDECODE_MAX_DEPTH).map_err(|e| FnError::new(e.message));
    crate::stack::drop_json(j);
    v
}

// ----- CSV (Go's encoding/csv with default settings) ------------------------------

struct CsvError {
    line: usize,
    message: &'static str,
}

const ERR_BARE_QUOTE: &str = "bare \" in non-quoted-field";
const ERR_QUOTE: &str = "extraneous or missing \" in quoted-field";
const ERR_FIELD_COUNT: &str = "wrong number of fields";

struct CsvReader<'a> {
    rest: &'a str,
    num_line: usize,
    fields_per_record: Option<usize>,
}

impl<'a> CsvReader<'a> {
    fn new(s: &'a str) -> CsvReader<'a> {
        CsvReader { rest: s, num_line: 0, fields_per_record: None }
    }

    /// The next physical line with "\r\n" normalized to "\n"; `None` at EOF.
    fn read_line(&mut self) -> Option<String> {
        if self.rest.is_empty() {
            return None;
        }
        let (line, rest) = match self.rest.find('\n') {
            Some(i) => (&self.rest[..=i], &self.rest[i + 1..]),
            None => {
                let l = self.rest.strip_suffix('\r').unwrap_or(self.rest);
                (l, "")
            }
        };
        self.rest = rest;
        self.num_line += 1;
        let mut l = line.to_string();
        if l.ends_with("\r\n") {
            l.truncate(l.len() - 2);
            l.push('\n');
        }
        Some(l)
    }

    fn read(&mut self) -> Result<Option<Vec<String>>, CsvError> {
        let mut line = loop {
            match self.read_line() {
                None => return Ok(None),
                Some(l) if l == "\n" => continue,
                Some(l) => break l,
            }
        };
        let rec_line = self.num_line;
        let mut fields: Vec<String> = Vec::new();
        // Fields are read in place, by offset into the current line (a
        // copy of the line's rest per field took the square of its length).
        let mut at = 0;
        'fields: loop {
            let pos = &line[at..];
            if !pos.starts_with('"') {
                let (field, more) = match pos.find(',') {
                    Some(i) => (&pos[..i], Some(at + i + 1)),
                    None => (pos.strip_suffix('\n').unwrap_or(pos), None),
                };
                if field.contains('"') {
                    return Err(CsvError { line: self.num_line, message: ERR_BARE_QUOTE });
                }
                fields.push(field.to_string());
                match more {
                    Some(next) => {
                        at = next;
                        continue 'fields;
                    }
                    None => break 'fields,
                }
            }
            let mut field = String::new();
            let mut cur = at + 1;
            loop {
                let rest = &line[cur..];
                if let Some(i) = rest.find('"') {
                    field.push_str(&rest[..i]);
                    let after = &rest[i + 1..];
                    let after_at = cur + i + 1;
                    if after.starts_with('"') {
                        field.push('"');
                        cur = after_at + 1;
                    } else if after.starts_with(',') {
                        fields.push(field);
                        at = after_at + 1;
                        continue 'fields;
                    } else if after.is_empty() || after == "\n" {
                        fields.push(field);
                        break 'fields;
                    } else {
                        return Err(CsvError { line: self.num_line, message: ERR_QUOTE });
                    }
                } else if !rest.is_empty() {
                    field.push_str(rest);
                    match self.read_line() {
                        Some(l) => {
                            line = l;
                            cur = 0;
                        }
                        None => return Err(CsvError { line: self.num_line, message: ERR_QUOTE }),
                    }
                } else {
                    // End of input inside a quoted field.
                    return Err(CsvError { line: self.num_line, message: ERR_QUOTE });
                }
            }
        }
        match self.fields_per_record {
            Some(n) if n != fields.len() => {
                return Err(CsvError { line: rec_line, message: ERR_FIELD_COUNT });
            }
            None => self.fields_per_record = Some(fields.len()),
            _ => {}
        }
        Ok(Some(fields))
    }
}

fn csv_error(e: CsvError) -> FnError {
    FnError::new(format!("CSV parse error on line {}: {}", e.line, e.message))
}

fn csv_headers(r: &mut CsvReader) -> Result<Vec<String>, FnError> {
    let headers = match r.read() {
        Ok(Some(h)) => h,
        Ok(None) => return Err(FnError::new("missing header line")),
        Err(e) => return Err(csv_error(e)),
    };
    let mut seen = BTreeSet::new();
    for h in &headers {
        if !seen.insert(h.as_str()) {
            return Err(FnError::new(format!("duplicate column name {}", go_quote(h))));
        }
    }
    Ok(headers)
}

pub fn csvdecode_type(args: &[Value]) -> Result<Type, FnError> {
    let Some(s) = args[0].as_str() else {
        return Ok(Type::Dynamic);
    };
    let headers = csv_headers(&mut CsvReader::new(s))?;
    Ok(Type::list(Type::object(headers.iter().map(|h| (h.as_str(), Type::String)))))
}

pub fn csvdecode(args: &[Value], ret: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let s = str_arg(&args[0]);
    ctx.charge(s.len() as u64)?;
    let ety = ret.element_type().cloned().unwrap_or(Type::Dynamic);
    let mut r = CsvReader::new(s);
    let headers = csv_headers(&mut r)?;
    let mut rows = Vec::new();
    while let Some(cols) = r.read().map_err(csv_error)? {
        ctx.charge(ELEMENT_COST * (cols.len() as u64 + 1))?;
        let attrs: Vec<(&str, Value)> = headers.iter().map(String::as_str).zip(cols.iter().map(|c| Value::string(c))).collect();
        rows.push(Value::object(attrs));
    }
    Value::list_of(ety, rows).map_err(|e| FnError::new(format!("panic in function implementation: {e}")))
}
