//! jsonencode jsondecode csvdecode

use super::{str_arg, CallCtx, FnError, ELEMENT_COST};
use crate::types::Type;
use crate::value::Value;
use std::collections::BTreeSet;

pub fn jsonencode(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let v = &args[0];
    if !v.is_wholly_known() {
        return Ok(Value::Unknown(Type::String));
    }
    if v.is_null() {
        return Ok(Value::string("null"));
    }
    let s = crate::json::marshal(v, &v.ty()).map_err(|e| FnError::new(e.to_string()))?;
    ctx.charge(s.len() as u64)?;
    Ok(Value::from_string(s))
}

/// Decodes one JSON value as Go's decoder would for cty: the first value,
/// then only whitespace may follow.
fn decode_json(s: &str) -> Result<serde_json::Value, FnError> {
    let mut stream = serde_json::Deserializer::from_str(s).into_iter::<serde_json::Value>();
    let v = match stream.next() {
        None => return Err(FnError::new("EOF")),
        Some(Ok(v)) => v,
        Some(Err(e)) => {
            // Go's decoder reads a complete value before looking at what
            // follows it ("1x" is a number followed by extra data).
            let at = error_offset(s, &e);
            if at > 0 && !e.is_eof() {
                let prefix = &s[..at];
                if serde_json::from_str::<serde_json::Value>(prefix).is_ok() {
                    return Err(FnError::new("extraneous data after JSON object"));
                }
            }
            return Err(FnError::new(go_json_error(s, &e)));
        }
    };
    let rest = &s[stream.byte_offset()..];
    if !rest.trim_start_matches([' ', '\t', '\r', '\n']).is_empty() {
        return Err(FnError::new("extraneous data after JSON object"));
    }
    Ok(v)
}

/// The byte offset serde reports an error at (clamped to a char boundary).
fn error_offset(s: &str, e: &serde_json::Error) -> usize {
    let line_start: usize = s.split_inclusive('\n').take(e.line().saturating_sub(1)).map(str::len).sum();
    let mut at = (line_start + e.column().saturating_sub(1)).min(s.len());
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// An approximation of encoding/json's syntax error text.
fn go_json_error(s: &str, e: &serde_json::Error) -> String {
    if e.is_eof() {
        let trimmed = s.trim_start_matches([' ', '\t', '\r', '\n']);
        return if trimmed.is_empty() || trimmed.starts_with(['{', '[']) {
            "EOF".to_string()
        } else {
            "unexpected EOF".to_string()
        };
    }
    let at = error_offset(s, e);
    // encoding/json names the offending byte, read as a code point (so the
    // first byte of "é" shows as 'Ã').
    match s.as_bytes().get(at) {
        Some(&b) => {
            format!("invalid character {} looking for beginning of value", crate::strings::go_quote_rune(char::from(b)))
        }
        None => "unexpected EOF".to_string(),
    }
}

pub fn jsondecode_type(args: &[Value]) -> Result<Type, FnError> {
    let Some(s) = args[0].as_str() else {
        return Ok(Type::Dynamic);
    };
    let j = decode_json(s)?;
    crate::json::value_from_json_implied(&j).map(|v| v.ty()).map_err(|e| FnError::new(e.to_string()))
}

pub fn jsondecode(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let s = str_arg(&args[0]);
    ctx.charge(s.len() as u64)?;
    let j = decode_json(s)?;
    crate::json::value_from_json_implied(&j).map_err(|e| FnError::new(e.to_string()))
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
        let mut pos: &str;
        let mut owned;
        'fields: loop {
            owned = std::mem::take(&mut line);
            pos = &owned;
            if !pos.starts_with('"') {
                let (field, more) = match pos.find(',') {
                    Some(i) => (&pos[..i], Some(i + 1)),
                    None => (pos.strip_suffix('\n').unwrap_or(pos), None),
                };
                if field.contains('"') {
                    return Err(CsvError { line: self.num_line, message: ERR_BARE_QUOTE });
                }
                fields.push(field.to_string());
                match more {
                    Some(i) => {
                        line = pos[i..].to_string();
                        continue 'fields;
                    }
                    None => break 'fields,
                }
            }
            let mut field = String::new();
            let mut cur = pos[1..].to_string();
            loop {
                if let Some(i) = cur.find('"') {
                    field.push_str(&cur[..i]);
                    let after = &cur[i + 1..];
                    if let Some(a) = after.strip_prefix('"') {
                        field.push('"');
                        cur = a.to_string();
                    } else if let Some(a) = after.strip_prefix(',') {
                        fields.push(field);
                        line = a.to_string();
                        continue 'fields;
                    } else if after.is_empty() || after == "\n" {
                        fields.push(field);
                        break 'fields;
                    } else {
                        return Err(CsvError { line: self.num_line, message: ERR_QUOTE });
                    }
                } else if !cur.is_empty() {
                    field.push_str(&cur);
                    match self.read_line() {
                        Some(l) => cur = l,
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
            return Err(FnError::new(format!("duplicate column name {}", crate::strings::go_quote(h))));
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
        let attrs: Vec<(&str, Value)> =
            headers.iter().map(String::as_str).zip(cols.iter().map(|c| Value::string(c))).collect();
        rows.push(Value::object(attrs));
    }
    Value::list_of(ety, rows).map_err(|e| FnError::new(format!("panic in function implementation: {e}")))
}
