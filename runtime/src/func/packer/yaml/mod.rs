//! yamldecode and yamlencode: zclconf/go-cty-yaml v1.0.1's `Standard`
//! converter, as Packer v1.11.2 registers it.
//!
//! go-cty-yaml carries its own copy of go-yaml v2's Go port of libyaml, so
//! its syntax, marks and problem texts are libyaml 0.1's, with go-yaml's
//! changes; [`scanner`], [`parser`] and [`emitter`] reproduce that code's
//! behaviour (no YAML crate has the same quirks or wording). On top of the
//! events, go-cty-yaml's own rules are in this module: implicit typing of
//! plain scalars (YAML 1.1 booleans such as `yes`/`off`, `~` and empty
//! nulls, `.inf`, numbers through `cty.ParseNumberVal` after removing
//! underscores, `0b` binary, timestamps rewritten as RFC 3339), the
//! `!!str !!int !!float !!bool !!null !!binary !!timestamp !!map !!seq`
//! tags (any other is an error), anchors and aliases (no self reference),
//! `<<` merge keys, keys converted to strings, a single document only, and
//! its error texts with its own (partly 0-based) line numbers.
//!
//! Bounds: nesting deeper than [`MAX_DEPTH`] is an error rather than a
//! deep recursion (go-cty-yaml has no limit); each node, and every node an
//! alias repeats, is charged to the size budget, so "billion laughs"
//! documents end with the budget's error instead of a huge value.

mod emitter;
mod parser;
mod scanner;

use super::super::{CallCtx, FnError, ELEMENT_COST};
use crate::number::Number;
use crate::strings::go_quote;
use crate::types::Type;
use crate::value::Value;
use emitter::Ev;
use parser::{Event, EventType, Parser};
use scanner::{ErrorKind, Mark, ScalarStyle};
use std::collections::HashMap;

/// Deepest nesting of collections yamldecode accepts.
pub const MAX_DEPTH: usize = 10_000;

const STR_TAG: &str = "tag:yaml.org,2002:str";
const BOOL_TAG: &str = "tag:yaml.org,2002:bool";
const INT_TAG: &str = "tag:yaml.org,2002:int";
const FLOAT_TAG: &str = "tag:yaml.org,2002:float";
const NULL_TAG: &str = "tag:yaml.org,2002:null";
const TIMESTAMP_TAG: &str = "tag:yaml.org,2002:timestamp";
const BINARY_TAG: &str = "tag:yaml.org,2002:binary";
const SEQ_TAG: &str = "tag:yaml.org,2002:seq";
const MAP_TAG: &str = "tag:yaml.org,2002:map";

// ----- errors ---------------------------------------------------------------

/// The length of the UTF-8 sequence that byte `b` starts (libyaml's
/// `WIDTH`): 0 for a byte that starts none.
pub(super) fn width(b: u8) -> usize {
    if b & 0x80 == 0 {
        1
    } else if b & 0xE0 == 0xC0 {
        2
    } else if b & 0xF0 == 0xE0 {
        3
    } else if b & 0xF8 == 0xF0 {
        4
    } else {
        0
    }
}

/// go-cty-yaml's `Error`: "on line L, column C: cause".
fn at_position(line: usize, column: usize, cause: &str) -> String {
    format!("on line {line}, column {column}: {cause}")
}

/// An error about an event: positioned unless the event is on line 0.
fn event_error(mark: Mark, cause: &str) -> FnError {
    if mark.line == 0 {
        FnError::new(cause)
    } else {
        FnError::new(at_position(mark.line, mark.column + 1, cause))
    }
}

/// The error of a failed parse, with go-cty-yaml's choice of mark.
fn parser_error(p: &Parser) -> FnError {
    let s = &p.s;
    let cause = if s.problem.is_empty() { "invalid YAML syntax" } else { s.problem.as_str() };
    if s.problem_mark.line != 0 {
        if s.error == ErrorKind::Scanner {
            FnError::new(at_position(s.problem_mark.line + 1, 1, cause))
        } else {
            FnError::new(at_position(s.problem_mark.line, s.problem_mark.column + 1, cause))
        }
    } else if s.context_mark.line != 0 {
        FnError::new(at_position(s.context_mark.line, s.context_mark.column + 1, cause))
    } else {
        FnError::new(cause)
    }
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

// ----- scalar resolution ------------------------------------------------------

enum Resolved {
    Val(Value),
    /// The `<<` merge key.
    Merge,
}

fn resolve_map(src: &str) -> Option<(Value, &'static str)> {
    Some(match src {
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => (Value::bool(true), BOOL_TAG),
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => (Value::bool(false), BOOL_TAG),
        "" | "~" | "null" | "Null" | "NULL" => (Value::null(Type::Dynamic), NULL_TAG),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => (Value::number(Number::pos_inf()), FLOAT_TAG),
        "-.inf" | "-.Inf" | "-.INF" => (Value::number(Number::neg_inf()), FLOAT_TAG),
        _ => return None,
    })
}

fn hint(src: &str) -> u8 {
    match src.as_bytes().first() {
        None => b'N',
        Some(b'+' | b'-') => b'S',
        Some(b'0'..=b'9') => b'D',
        Some(b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~') => b'M',
        Some(b'.') => b'.',
        Some(_) => 0,
    }
}

fn parse_number(s: &str) -> Option<Value> {
    Number::parse(s).ok().map(Value::number)
}

/// Go's `strconv.ParseUint(s, base, 64)` for `s` without underscores;
/// base 0 takes a `0x`/`0o`/`0b`/`0` prefix.
fn go_parse_uint(s: &str, base: u32) -> Option<u64> {
    if s.is_empty() {
        return None;
    }
    let b = s.as_bytes();
    let (base, digits) = if base == 0 {
        if b[0] == b'0' {
            if b.len() >= 3 && b[1].eq_ignore_ascii_case(&b'b') {
                (2, &s[2..])
            } else if b.len() >= 3 && b[1].eq_ignore_ascii_case(&b'o') {
                (8, &s[2..])
            } else if b.len() >= 3 && b[1].eq_ignore_ascii_case(&b'x') {
                (16, &s[2..])
            } else {
                (8, &s[1..])
            }
        } else {
            (10, s)
        }
    } else {
        (base, s)
    };
    let mut n: u64 = 0;
    for c in digits.chars() {
        let d = c.to_digit(36)?;
        if d >= base {
            return None;
        }
        n = n.checked_mul(base as u64)?.checked_add(d as u64)?;
    }
    Some(n)
}

/// Go's `strconv.ParseInt(s, base, 64)`.
fn go_parse_int(s: &str, base: u32) -> Option<i64> {
    let (neg, rest) = match s.as_bytes().first() {
        Some(b'+') => (false, &s[1..]),
        Some(b'-') => (true, &s[1..]),
        _ => (false, s),
    };
    let un = go_parse_uint(rest, base)?;
    const CUTOFF: u64 = 1 << 63;
    if !neg && un >= CUTOFF {
        return None;
    }
    if neg && un > CUTOFF {
        return None;
    }
    Some(if neg { (un as i64).wrapping_neg() } else { un as i64 })
}

fn resolve_scalar(tag: &str, src: &str, style: ScalarStyle) -> Result<Resolved, String> {
    if !matches!(tag, "" | STR_TAG | BOOL_TAG | INT_TAG | FLOAT_TAG | NULL_TAG | TIMESTAMP_TAG | BINARY_TAG) {
        return Err(format!("unsupported tag {}", go_quote(tag)));
    }
    let mut tag = tag;
    let h = hint(src);
    if h != 0 && tag != STR_TAG && tag != BINARY_TAG {
        if matches!(style, ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted) {
            return Ok(Resolved::Val(Value::string(src)));
        }
        if let Some((v, _)) = resolve_map(src) {
            return Ok(Resolved::Val(v));
        }
        if tag.is_empty() && matches!(src, ".nan" | ".NaN" | ".NAN") {
            return Err("floating point NaN is not supported".to_string());
        }
        match h {
            b'.' => {
                if let Some(v) = parse_number(src) {
                    return Ok(Resolved::Val(v));
                }
            }
            b'D' | b'S' => {
                if tag.is_empty() || tag == TIMESTAMP_TAG {
                    if let Some(t) = parse_timestamp(src) {
                        return Ok(Resolved::Val(Value::from_string(t)));
                    }
                }
                let plain = src.replace('_', "");
                if let Some(v) = parse_number(&plain) {
                    return Ok(Resolved::Val(v));
                }
                if plain.starts_with("0b") || plain.starts_with("-0b") {
                    tag = INT_TAG;
                }
            }
            _ => {}
        }
    }
    if tag.is_empty() && src == "<<" {
        return Ok(Resolved::Merge);
    }
    match tag {
        STR_TAG | BINARY_TAG => {
            if tag == BINARY_TAG && super::encoding::go_base64_decode(src.as_bytes()).is_err() {
                return Err(format!("cannot parse {} as {}: not valid base64", go_quote(src), tag));
            }
            Ok(Resolved::Val(Value::string(src)))
        }
        BOOL_TAG => match resolve_map(src) {
            Some((v, BOOL_TAG)) => Ok(Resolved::Val(v)),
            _ => Err(format!("cannot parse {} as {}", go_quote(src), tag)),
        },
        FLOAT_TAG | INT_TAG => {
            let plain = src.replace('_', "");
            if let Some(v) = parse_number(&plain) {
                return Ok(Resolved::Val(v));
            }
            if let Some(i) = go_parse_int(&plain, 0) {
                return Ok(Resolved::Val(Value::int(i)));
            }
            if let Some(u) = go_parse_uint(&plain, 0) {
                return Ok(Resolved::Val(Value::number(Number::from_u64(u))));
            }
            if let Some(rest) = plain.strip_prefix("0b") {
                if let Some(i) = go_parse_int(rest, 2) {
                    return Ok(Resolved::Val(Value::int(i)));
                }
                if let Some(u) = go_parse_uint(rest, 2) {
                    return Ok(Resolved::Val(Value::number(Number::from_u64(u))));
                }
            } else if let Some(rest) = plain.strip_prefix("-0b") {
                if let Some(i) = go_parse_int(&format!("-{rest}"), 2) {
                    return Ok(Resolved::Val(Value::int(i)));
                }
            }
            Err(format!("cannot parse {} as {}", go_quote(src), tag))
        }
        TIMESTAMP_TAG => match parse_timestamp(src) {
            Some(t) => Ok(Resolved::Val(Value::from_string(t))),
            None => Err(format!("cannot parse {} as {}", go_quote(src), tag)),
        },
        NULL_TAG => Ok(Resolved::Val(Value::null(Type::Dynamic))),
        _ => Ok(Resolved::Val(Value::string(src))),
    }
}

// ----- timestamps (Go's time.Parse with go-cty-yaml's layouts) ---------------

/// Go's `getnum`: one or two digits (exactly two when `fixed`).
fn getnum(s: &[u8], fixed: bool) -> Option<(u32, &[u8])> {
    let d0 = *s.first().filter(|c| c.is_ascii_digit())?;
    match s.get(1).filter(|c| c.is_ascii_digit()) {
        None if fixed => None,
        None => Some(((d0 - b'0') as u32, &s[1..])),
        Some(d1) => Some((((d0 - b'0') * 10 + (d1 - b'0')) as u32, &s[2..])),
    }
}

/// Go's `skip` of a literal layout chunk (a space matches any run of spaces).
fn skip_literal<'s>(mut value: &'s [u8], mut prefix: &[u8]) -> Option<&'s [u8]> {
    while let Some(&p) = prefix.first() {
        if p == b' ' {
            if !value.is_empty() && value[0] != b' ' {
                return None;
            }
            while prefix.first() == Some(&b' ') {
                prefix = &prefix[1..];
            }
            while value.first() == Some(&b' ') {
                value = &value[1..];
            }
            continue;
        }
        if value.first() != Some(&p) {
            return None;
        }
        prefix = &prefix[1..];
        value = &value[1..];
    }
    Some(value)
}

fn days_in(month: u32, year: i64) -> u32 {
    match month {
        2 if (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// One layout: `sep` between date and time (None: date only), `zone`
/// whether a `Z07:00` zone follows.
fn parse_layout(s: &[u8], sep: Option<&[u8]>, zone: bool) -> Option<String> {
    let year: i64 = std::str::from_utf8(s.get(..4)?).ok()?.parse().ok()?;
    let v = skip_literal(&s[4..], b"-")?;
    let (month, v) = getnum(v, false)?;
    if !(1..=12).contains(&month) {
        return None;
    }
    let v = skip_literal(v, b"-")?;
    let (day, mut v) = getnum(v, false)?;
    let (mut hour, mut min, mut sec) = (0, 0, 0);
    let mut offset: Option<i64> = None;
    if let Some(sep) = sep {
        v = skip_literal(v, sep)?;
        let (h, rest) = getnum(v, false)?;
        if h >= 24 {
            return None;
        }
        let rest = skip_literal(rest, b":")?;
        let (m, rest) = getnum(rest, false)?;
        if m >= 60 {
            return None;
        }
        let rest = skip_literal(rest, b":")?;
        let (sc, mut rest) = getnum(rest, false)?;
        if sc >= 60 {
            return None;
        }
        (hour, min, sec) = (h, m, sc);
        // Optional fractional seconds: up to nine digits (Go's `.999999999`).
        if rest.len() >= 2 && (rest[0] == b'.' || rest[0] == b',') && rest[1].is_ascii_digit() {
            let mut i = 1;
            while i < rest.len() && i <= 9 && rest[i].is_ascii_digit() {
                i += 1;
            }
            rest = &rest[i..];
        }
        if zone {
            if rest.first() == Some(&b'Z') {
                rest = &rest[1..];
                offset = Some(0);
            } else {
                if rest.len() < 6 || rest[3] != b':' {
                    return None;
                }
                let (hh, _) = getnum(&rest[1..3], true)?;
                let (mm, _) = getnum(&rest[4..6], true)?;
                let o = (hh as i64 * 60 + mm as i64) * 60;
                offset = Some(match rest[0] {
                    b'+' => o,
                    b'-' => -o,
                    _ => return None,
                });
                rest = &rest[6..];
            }
        }
        v = rest;
    }
    if !v.is_empty() {
        return None;
    }
    if day < 1 || day > days_in(month, year) {
        return None;
    }
    let zone_text = match offset {
        None | Some(0) => "Z".to_string(),
        Some(o) => {
            let (sign, a) = if o < 0 { ('-', -o / 60) } else { ('+', o / 60) };
            format!("{sign}{:02}:{:02}", a / 60, a % 60)
        }
    };
    Some(format!("{year:04}-{month:02}-{day:02}T{hour:02}:{min:02}:{sec:02}{zone_text}"))
}

/// go-cty-yaml's `parseTimestamp`, formatted as RFC 3339.
fn parse_timestamp(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    if digits != 4 || digits == b.len() || b[digits] != b'-' {
        return None;
    }
    parse_layout(b, Some(b"T"), true)
        .or_else(|| parse_layout(b, Some(b"t"), true))
        .or_else(|| parse_layout(b, Some(b" "), false))
        .or_else(|| parse_layout(b, None, false))
}

// ----- yamldecode -------------------------------------------------------------

#[derive(Default)]
struct Anchors {
    pending: HashMap<Vec<u8>, usize>,
    /// The value of each anchor and how many nodes it stands for.
    vals: HashMap<Vec<u8>, (Value, u64)>,
}

impl Anchors {
    fn begin(&mut self, name: &[u8]) {
        *self.pending.entry(name.to_vec()).or_insert(0) += 1;
    }
    fn complete(&mut self, name: &[u8], v: &Value, nodes: u64) {
        if let Some(n) = self.pending.get_mut(name) {
            *n -= 1;
            if *n == 0 {
                self.pending.remove(name);
            }
        }
        self.vals.insert(name.to_vec(), (v.clone(), nodes));
    }
    fn get(&self, name: &[u8]) -> Result<(Value, u64), String> {
        let quoted = go_quote(&lossy(name));
        if self.pending.contains_key(name) {
            return Err(format!("cannot refer to anchor {quoted} from inside its own definition"));
        }
        self.vals.get(name).cloned().ok_or_else(|| format!("reference to undefined anchor {quoted}"))
    }
}

enum Slot {
    Key,
    Value(String),
    Merge(Mark),
}

enum Frame {
    Seq { anchor: Vec<u8>, vals: Vec<Value>, nodes: u64 },
    Map { anchor: Vec<u8>, vals: Vec<(String, Value)>, nodes: u64, slot: Slot },
}

struct Decoder<'p, 'c, 'a> {
    p: Parser<'p>,
    ctx: &'c mut CallCtx<'a>,
    anchors: Anchors,
    /// The first error only go-cty-yaml's value step would find.
    deferred: Option<FnError>,
}

/// A missing event (after the end of the stream) is Go's zero event.
fn none_event() -> Event {
    Event {
        typ: EventType::StreamStart,
        start: Mark::default(),
        anchor: Vec::new(),
        tag: Vec::new(),
        value: Vec::new(),
        implicit: false,
        style: ScalarStyle::Plain,
    }
}

impl Decoder<'_, '_, '_> {
    fn next(&mut self) -> Result<Option<Event>, FnError> {
        match self.p.parse() {
            Ok(e) => Ok(e),
            Err(()) => Err(parser_error(&self.p)),
        }
    }

    fn charge(&mut self, nodes: u64) -> Result<(), FnError> {
        self.ctx.charge(nodes.saturating_mul(ELEMENT_COST))
    }

    fn decode(&mut self) -> Result<Value, FnError> {
        match self.next()? {
            Some(e) if e.typ == EventType::StreamStart => {}
            e => return Err(event_error(e.map(|e| e.start).unwrap_or_default(), "missing stream start token")),
        }
        match self.next()? {
            Some(e) if e.typ == EventType::DocumentStart => {}
            e => return Err(event_error(e.map(|e| e.start).unwrap_or_default(), "missing start of document")),
        }
        let v = self.value()?;
        match self.next()? {
            Some(e) if e.typ == EventType::DocumentEnd => {}
            Some(e) if e.typ == EventType::DocumentStart => return Err(event_error(e.start, "only a single document is allowed")),
            Some(e) => return Err(event_error(e.start, &format!("unexpected extra content ({}) after value", e.typ.name()))),
            None => return Err(FnError::new("unexpected extra content (none) after value")),
        }
        match self.next()? {
            Some(e) if e.typ == EventType::StreamEnd => Ok(v),
            e => Err(event_error(e.map(|e| e.start).unwrap_or_default(), "unexpected extra content after value")),
        }
    }

    /// One node from the next event on, iteratively.
    fn value(&mut self) -> Result<Value, FnError> {
        let mut stack: Vec<Frame> = Vec::new();
        let mut ev = self.next()?;
        loop {
            // `ev` starts a node.
            let mut done = self.node(ev, &mut stack)?;
            loop {
                if let Some((v, n)) = done.take() {
                    match stack.last_mut() {
                        None => return Ok(v),
                        Some(Frame::Seq { vals, nodes, .. }) => {
                            vals.push(v);
                            *nodes = nodes.saturating_add(n);
                        }
                        Some(Frame::Map { vals, nodes, slot, .. }) => {
                            *nodes = nodes.saturating_add(n);
                            match std::mem::replace(slot, Slot::Key) {
                                Slot::Value(k) => vals.push((k, v)),
                                Slot::Merge(mark) => match &v {
                                    Value::Object(o) => {
                                        for (i, name) in o.object_type().names().iter().enumerate() {
                                            vals.push((name.to_string(), o.vals()[i].clone()));
                                        }
                                    }
                                    _ => {
                                        return Err(event_error(mark, &format!("cannot merge {} into mapping", v.ty().friendly_name())));
                                    }
                                },
                                Slot::Key => {}
                            }
                        }
                    }
                }
                let e = self.next()?;
                match stack.last_mut() {
                    Some(Frame::Seq { .. }) => {
                        if matches!(&e, Some(e) if e.typ == EventType::SequenceEnd) {
                            if let Some(Frame::Seq { anchor, vals, nodes }) = stack.pop() {
                                let v = Value::tuple(vals);
                                if !anchor.is_empty() {
                                    self.anchors.complete(&anchor, &v, nodes);
                                }
                                done = Some((v, nodes));
                            }
                            continue;
                        }
                        ev = e;
                        break;
                    }
                    Some(Frame::Map { slot, .. }) => {
                        let e = e.unwrap_or_else(none_event);
                        if e.typ == EventType::MappingEnd {
                            if let Some(Frame::Map { anchor, vals, nodes, .. }) = stack.pop() {
                                let v = Value::object(vals);
                                if !anchor.is_empty() {
                                    self.anchors.complete(&anchor, &v, nodes);
                                }
                                done = Some((v, nodes));
                            }
                            continue;
                        }
                        if e.typ != EventType::Scalar {
                            return Err(event_error(e.start, "only strings are allowed as mapping keys"));
                        }
                        let src = lossy(&e.value);
                        let key = match resolve_scalar(&lossy(&e.tag), &src, e.style).map_err(FnError::new)? {
                            Resolved::Merge => {
                                *slot = Slot::Merge(e.start);
                                ev = self.next()?;
                                break;
                            }
                            Resolved::Val(k) => k,
                        };
                        let key = match key {
                            Value::String(s) => s.as_str().to_string(),
                            Value::Bool(b) => (if b { "true" } else { "false" }).to_string(),
                            Value::Number(n) => n.to_text().map_err(|e| FnError::new(e.to_string()))?,
                            Value::Null(_) => return Err(event_error(e.start, "mapping key cannot be null")),
                            _ => return Err(event_error(e.start, "only strings are allowed as mapping keys")),
                        };
                        *slot = Slot::Value(key);
                        ev = self.next()?;
                        break;
                    }
                    None => return Err(FnError::new("unexpected parser event none")),
                }
            }
        }
    }

    /// Handles the event that starts a node: a finished value (with its
    /// node count), or `None` after pushing a collection frame.
    fn node(&mut self, ev: Option<Event>, stack: &mut Vec<Frame>) -> Result<Option<(Value, u64)>, FnError> {
        let Some(ev) = ev else {
            return Err(FnError::new("unexpected parser event none"));
        };
        match ev.typ {
            EventType::Scalar => {
                self.charge(1)?;
                if !ev.anchor.is_empty() {
                    self.anchors.begin(&ev.anchor);
                }
                let src = lossy(&ev.value);
                // An untagged scalar that is not plain has type string in
                // go-cty-yaml's type step, whatever its value step resolves
                // it to (a block scalar `|-` of `1` is a number there):
                // the value is converted to string, and an error of the
                // value step comes only after the whole type step.
                let typed_string = ev.tag.is_empty() && !ev.implicit;
                let v = match resolve_scalar(&lossy(&ev.tag), &src, ev.style) {
                    Ok(Resolved::Val(v)) if typed_string => match v {
                        Value::Bool(b) => Value::string(if b { "true" } else { "false" }),
                        Value::Number(n) => Value::from_string(n.to_text().map_err(|e| FnError::new(e.to_string()))?),
                        Value::Null(_) => Value::null(Type::String),
                        v => v,
                    },
                    Ok(Resolved::Val(v)) => v,
                    Ok(Resolved::Merge) => Value::string("<<"),
                    Err(e) if typed_string => {
                        if self.deferred.is_none() {
                            self.deferred = Some(event_error(ev.start, &e));
                        }
                        Value::null(Type::String)
                    }
                    Err(e) => return Err(event_error(ev.start, &e)),
                };
                if !ev.anchor.is_empty() {
                    self.anchors.complete(&ev.anchor, &v, 1);
                }
                Ok(Some((v, 1)))
            }
            EventType::Alias => {
                let (v, n) = self.anchors.get(&ev.anchor).map_err(|e| event_error(ev.start, &e))?;
                self.charge(n)?;
                Ok(Some((v, n)))
            }
            EventType::MappingStart | EventType::SequenceStart => {
                let mapping = ev.typ == EventType::MappingStart;
                let tag = lossy(&ev.tag);
                let (want, what) = if mapping { (MAP_TAG, "mapping") } else { (SEQ_TAG, "sequence") };
                if !tag.is_empty() && tag != want {
                    return Err(event_error(ev.start, &format!("can't interpret {what} as {tag}")));
                }
                if stack.len() >= MAX_DEPTH {
                    return Err(event_error(ev.start, &format!("YAML value nested too deeply (more than {MAX_DEPTH} levels)")));
                }
                self.charge(1)?;
                if !ev.anchor.is_empty() {
                    self.anchors.begin(&ev.anchor);
                }
                stack.push(if mapping {
                    Frame::Map { anchor: ev.anchor, vals: Vec::new(), nodes: 1, slot: Slot::Key }
                } else {
                    Frame::Seq { anchor: ev.anchor, vals: Vec::new(), nodes: 1 }
                });
                Ok(None)
            }
            EventType::DocumentStart => Err(event_error(ev.start, "only a single document is allowed")),
            EventType::StreamEnd => Err(event_error(ev.start, "expecting value but found end of stream")),
            other => Err(event_error(ev.start, &format!("unexpected parser event {}", other.name()))),
        }
    }
}

/// yamldecode(src): the value of a single-document YAML stream.
pub fn yamldecode(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let src = super::super::str_arg(&args[0]);
    ctx.charge(src.len() as u64)?;
    let input: &[u8] = if src.is_empty() { b"\n" } else { src.as_bytes() };
    let mut d = Decoder { p: Parser::new(input), ctx, anchors: Anchors::default(), deferred: None };
    let v = crate::stack::guarded(|| d.decode())?;
    if let Some(e) = d.deferred.take() {
        return Err(e);
    }
    drop(d);
    // The type step's result for a null document is the dynamic
    // pseudo-type, for which go-cty-yaml's implementation gives an unknown.
    if matches!(v, Value::Null(Type::Dynamic)) {
        return Ok(Value::dynamic_unknown());
    }
    Ok(v)
}

// ----- yamlencode -------------------------------------------------------------

/// The events of `v` into `out`, each element charged; the bytes of the
/// strings copied into events are charged too and added to `copied`.
fn encode_events(v: &Value, out: &mut Vec<Ev>, ctx: &mut CallCtx, copied: &mut u64, depth: usize) -> Result<(), FnError> {
    ctx.charge(ELEMENT_COST)?;
    match v {
        Value::Null(_) => out.push(Ev::Scalar(b"null".to_vec(), ScalarStyle::Plain)),
        Value::Unknown(_) => return Err(FnError::new("cannot serialize unknown value as YAML")),
        Value::Bool(b) => out.push(Ev::Scalar(if *b { b"true".to_vec() } else { b"false".to_vec() }, ScalarStyle::Plain)),
        Value::Number(n) => {
            let text = n.to_text().map_err(|e| FnError::new(e.to_string()))?;
            out.push(Ev::Scalar(text.into_bytes(), ScalarStyle::Plain));
        }
        Value::String(s) => {
            // Its bytes are copied into the event (a string shared by many
            // elements is copied for each).
            ctx.charge(s.len() as u64)?;
            *copied += s.len() as u64;
            out.push(string_event(s.as_str()));
        }
        Value::List(_) | Value::Set(_) | Value::Tuple(_) => {
            out.push(Ev::SequenceStart);
            for e in v.elements_slice() {
                crate::stack::deeper(depth, || encode_events(e, out, ctx, copied, depth + 1))?;
            }
            out.push(Ev::SequenceEnd);
        }
        Value::Map(m) => {
            out.push(Ev::MappingStart);
            for (k, e) in m.keys().iter().zip(m.vals()) {
                ctx.charge(k.len() as u64)?;
                *copied += k.len() as u64;
                out.push(string_event(k.as_str()));
                crate::stack::deeper(depth, || encode_events(e, out, ctx, copied, depth + 1))?;
            }
            out.push(Ev::MappingEnd);
        }
        Value::Object(o) => {
            out.push(Ev::MappingStart);
            for (k, e) in o.object_type().names().iter().zip(o.vals()) {
                ctx.charge(k.len() as u64)?;
                *copied += k.len() as u64;
                out.push(string_event(k));
                crate::stack::deeper(depth, || encode_events(e, out, ctx, copied, depth + 1))?;
            }
            out.push(Ev::MappingEnd);
        }
    }
    Ok(())
}

fn string_event(s: &str) -> Ev {
    let style = if s.contains('\n') { ScalarStyle::Literal } else { ScalarStyle::DoubleQuoted };
    Ev::Scalar(s.as_bytes().to_vec(), style)
}

/// yamlencode(value): the value as a YAML document.
pub fn yamlencode(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let v = &args[0];
    if !v.is_wholly_known() {
        return Ok(Value::unknown(Type::String));
    }
    let mut events = vec![Ev::StreamStart, Ev::DocumentStart];
    let mut copied = 0;
    encode_events(v, &mut events, ctx, &mut copied, 0)?;
    events.extend([Ev::DocumentEnd, Ev::StreamEnd]);
    let out = emitter::emit(&events);
    // The events' copies of the strings are gone with them; the output
    // holds the text now (charged below).
    drop(events);
    ctx.budget.refund(copied);
    ctx.charge(out.len() as u64)?;
    Ok(Value::from_string(String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())))
}
