//! JSON interop.
//!
//! * The **result encoding** of the conformance oracle (see the oracle's
//!   README): compact, byte-identical to the oracle's Go output — numbers as
//!   `Text('f', -1)`, `{"$number":"+Inf"}`, `{"$unknown":true}` at any depth,
//!   sets in cty order, keys sorted, Go `encoding/json` string escaping.
//! * **Implied-type decoding** (`ctyjson.ImpliedType` + `Unmarshal`):
//!   objects become objects, arrays tuples, numbers exact, `null` a null of
//!   dynamic type.
//! * **Typed decoding** (`ctyjson.Unmarshal` against a type), including the
//!   `{"type": T, "value": V}` form, and decoding of result-encoded values.

use crate::names::AttrNames;
use crate::number::{Number, NumberError};
use crate::strings::normalize_nfc;
use crate::strings::{write_json_string, JsonText};
use crate::types::Type;
use crate::value::{Value, MAX_NESTING};
use std::sync::Arc;

pub use crate::json_in::{parse_json, MAX_JSON_DEPTH};
use serde_json::Value as J;
use std::fmt;

/// Appends the oracle's encoding of a value. Fails only for a number too
/// large or small to be written out (see `NumberError::TooLongToPrint`,
/// and [`numbers_print`] to know beforehand).
pub fn write_value<T: JsonText + ?Sized>(out: &mut T, v: &Value) -> Result<(), NumberError> {
    // (One stack check per collection: values nest as deeply as their input.)
    if v.is_collection() {
        return crate::stack::guarded(|| write_value_here(out, v));
    }
    write_value_here(out, v)
}

/// Whether [`write_value`] writes `v` without failing: every number in
/// it, refinements' bounds included, has a text.
pub fn numbers_print(v: &Value) -> bool {
    match v {
        Value::Number(n) => n.has_text(),
        Value::Unknown(u) => match u.refinement().map(|r| &r.facts) {
            Some(crate::value::Facts::Number { lower, upper }) => [lower, upper].into_iter().flatten().all(|b| b.value.has_text()),
            _ => true,
        },
        Value::List(_) | Value::Set(_) | Value::Tuple(_) => crate::stack::guarded(|| v.elements_slice().iter().all(numbers_print)),
        Value::Map(m) => crate::stack::guarded(|| m.vals().iter().all(numbers_print)),
        Value::Object(o) => crate::stack::guarded(|| o.vals().iter().all(numbers_print)),
        Value::Null(_) | Value::Bool(_) | Value::String(_) => true,
    }
}

fn write_value_here<T: JsonText + ?Sized>(out: &mut T, v: &Value) -> Result<(), NumberError> {
    match v {
        Value::Unknown(u) => {
            out.push_str("{\"$unknown\":true");
            if let Some(r) = u.refinement() {
                write_refinement(out, r)?;
            }
            out.push('}');
        }
        Value::Null(_) => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::String(s) => write_json_string(out, s),
        Value::Number(n) => {
            let text = n.to_text()?;
            if n.is_infinite() {
                out.push_str("{\"$number\":");
                write_json_string(out, &text);
                out.push('}');
            } else {
                out.push_str(&text);
            }
        }
        Value::List(_) | Value::Set(_) | Value::Tuple(_) => {
            out.push('[');
            for (i, e) in v.elements_slice().iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(out, e)?;
            }
            out.push(']');
        }
        Value::Map(m) => {
            out.push('{');
            for (i, (k, e)) in m.keys().iter().zip(m.vals()).enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json_string(out, k);
                out.push(':');
                write_value(out, e)?;
            }
            out.push('}');
        }
        Value::Object(o) => {
            out.push('{');
            for (i, (k, e)) in o.object_type().names().iter().zip(o.vals()).enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json_string(out, k);
                out.push(':');
                write_value(out, e)?;
            }
            out.push('}');
        }
    }
    Ok(())
}

/// Appends `,"refined":{...}` for a refinement, with the facts that narrow
/// the value in the oracle's order: `not_null`, `prefix`, `min` and
/// `min_inclusive`, `max` and `max_inclusive`, `len_min`, `len_max`.
fn write_refinement<T: JsonText + ?Sized>(out: &mut T, r: &crate::value::Refinement) -> Result<(), NumberError> {
    use crate::value::{Facts, UNBOUNDED_LEN};
    let mut facts = String::new();
    let key = |facts: &mut String, k: &str| {
        if !facts.is_empty() {
            facts.push(',');
        }
        facts.push('"');
        facts.push_str(k);
        facts.push_str("\":");
    };
    if r.not_null {
        key(&mut facts, "not_null");
        facts.push_str("true");
    }
    match &r.facts {
        Facts::String { prefix } if !prefix.is_empty() => {
            key(&mut facts, "prefix");
            write_json_string(&mut facts, prefix);
        }
        Facts::Number { lower, upper } => {
            for (b, name) in [(lower, "min"), (upper, "max")] {
                if let Some(b) = b {
                    key(&mut facts, name);
                    write_value(&mut facts, &Value::Number(b.value.clone()))?;
                    key(&mut facts, &format!("{name}_inclusive"));
                    facts.push_str(if b.inclusive { "true" } else { "false" });
                }
            }
        }
        Facts::Collection { min_len, max_len } => {
            if *min_len > 0 {
                key(&mut facts, "len_min");
                facts.push_str(&min_len.to_string());
            }
            if *max_len != UNBOUNDED_LEN {
                key(&mut facts, "len_max");
                facts.push_str(&max_len.to_string());
            }
        }
        _ => {}
    }
    if !facts.is_empty() {
        out.push_str(",\"refined\":{");
        out.push_str(&facts);
        out.push('}');
    }
    Ok(())
}

/// The bytes of JSON text outside its strings (a string shows as its
/// opening quote), for the checks that look at its structure before it
/// is parsed (nesting depth, how many values).
pub fn structural_bytes(bytes: &[u8]) -> impl Iterator<Item = u8> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        let b = *bytes.get(i)?;
        i += 1;
        if b == b'"' {
            // Skip the string to its closing quote (or the end of the
            // text), stepping over each escaped byte.
            while let Some(j) = memchr::memchr2(b'"', b'\\', &bytes[i..]) {
                let at = i + j;
                if bytes[at] == b'"' {
                    i = at + 1;
                    return Some(b);
                }
                i = (at + 2).min(bytes.len());
            }
            i = bytes.len();
        }
        Some(b)
    })
}

/// The longest JSON text of one value that results are written with
/// (values share their parts, so a short expression can build one whose
/// text is exponentially long).
pub const MAX_VALUE_TEXT: usize = 256 << 20;

/// Whether the oracle encoding of `v` takes more than about `limit` bytes
/// (numbers are estimated); stops counting past the limit, so it takes
/// time proportional to `min(text, limit)` whatever the value. Checked
/// before writing rather than by a cap in the writer: a result line writes
/// the value's type first, whose text grows as the value's does, and a cap
/// would still allocate up to the limit before failing (tried: an
/// exponential value then took 2.4 s and 660 MB instead of 0.5 s and 6 MB).
/// Scalars other than strings are never too long, so results that are
/// scalars skip the walk.
pub fn encoding_exceeds(v: &Value, limit: usize) -> bool {
    encoded_len_within(v, limit).is_none()
}

/// About how many bytes the oracle encoding of `v` takes (escapes not
/// counted, numbers estimated), or `None` when that is over `limit`
/// ([`encoding_exceeds`]): what a writer reserves so that its buffer does
/// not grow by doubling past the text.
pub fn encoded_len_within(v: &Value, limit: usize) -> Option<usize> {
    match v {
        Value::List(_) | Value::Set(_) | Value::Tuple(_) | Value::Map(_) | Value::Object(_) => {
            let mut left = limit;
            (!len_walk(v, &mut left)).then_some(limit - left)
        }
        Value::String(s) => (s.len() + 2 <= limit).then_some(s.len() + 2),
        _ => Some(0),
    }
}

/// What [`encoded_len_within`] counts for one member of an object (its
/// name `key_len` bytes long), taken from `left`: whether that goes past
/// it. With 2 more for the braces, an object's members counted one by one
/// make its count, for writers that write an object without building it.
pub fn member_len_exceeds(key_len: usize, v: &Value, left: &mut usize) -> bool {
    len_exceeds(left, key_len + 4) || len_walk(v, left)
}

/// Takes `n` bytes from `left`: whether that goes past it (the step of
/// every count against [`MAX_VALUE_TEXT`]).
pub fn len_exceeds(left: &mut usize, n: usize) -> bool {
    match left.checked_sub(n) {
        Some(l) => {
            *left = l;
            false
        }
        None => true,
    }
}

/// Why a value's text is not written: longer than [`MAX_VALUE_TEXT`].
pub fn too_long_detail() -> String {
    format!("the value's JSON text would be over {} MiB", MAX_VALUE_TEXT >> 20)
}

fn len_walk(v: &Value, left: &mut usize) -> bool {
    if v.is_collection() {
        return crate::stack::guarded(|| len_walk_here(v, left));
    }
    len_walk_here(v, left)
}
fn len_walk_here(v: &Value, left: &mut usize) -> bool {
    let size = match v {
        Value::Unknown(_) => 17,
        Value::Null(_) | Value::Bool(_) => 5,
        // Whole numbers by their digits; others as a typical fraction
        // (any prints within about 100,000 digits, beyond: an error).
        Value::Number(n) => n.to_i64().map_or(24, |i| i.unsigned_abs().checked_ilog10().map_or(1, |d| d as usize + 1) + usize::from(i < 0)),
        Value::String(s) => s.len() + 2,
        Value::List(_) | Value::Set(_) | Value::Tuple(_) => {
            for e in v.elements_slice() {
                if len_walk(e, left) {
                    return true;
                }
            }
            v.elements_slice().len() + 2
        }
        Value::Map(m) => {
            if m.keys().iter().zip(m.vals()).any(|(k, e)| member_len_exceeds(k.len(), e, left)) {
                return true;
            }
            2
        }
        Value::Object(o) => {
            if o.object_type().names().iter().zip(o.vals()).any(|(k, e)| member_len_exceeds(k.len(), e, left)) {
                return true;
            }
            2
        }
    };
    len_exceeds(left, size)
}

/// Appends `"type":T,"value":V` and, when the value is not wholly known,
/// `,"known":false` — the body of an oracle success line after `"ok":true,`.
pub fn write_typed_value(out: &mut String, v: &Value) -> Result<(), NumberError> {
    out.push_str("\"type\":");
    v.ty().write_json(out);
    out.push_str(",\"value\":");
    write_value(out, v)?;
    if !v.is_wholly_known() {
        out.push_str(",\"known\":false");
    }
    Ok(())
}

/// The oracle's encoding of a value as a string.
pub fn value_to_result_string(v: &Value) -> Result<String, NumberError> {
    let mut s = String::new();
    write_value(&mut s, v)?;
    Ok(s)
}

/// The oracle's encoding of a value as a `serde_json::Value` (numbers keep
/// their exact text).
pub fn value_to_result_json(v: &Value) -> Result<J, NumberError> {
    let s = value_to_result_string(v)?;
    // The encoder only produces valid JSON; the fallback is never taken.
    Ok(serde_json::from_str(&s).unwrap_or(J::Null))
}

/// cty `json.Marshal(v, ty)`, the encoding behind `jsonencode`: compact,
/// Go's HTML-escaped strings, numbers as `Text('f', -1)`, sets in cty
/// order, object keys sorted. Where `ty` is dynamic but the value's type is
/// not, the value is wrapped as `{"value":V,"type":T}`. Unknown values and
/// infinities are errors.
pub fn marshal(v: &Value, ty: &Type) -> Result<String, JsonError> {
    marshal_within(v, ty, usize::MAX).map_err(|stop| match stop {
        MarshalStop::Invalid(e) => e,
        MarshalStop::TooLong => err("", "the encoding is too long"),
    })
}

/// Why [`marshal_within`] stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MarshalStop {
    /// The value cannot be encoded (unknown, infinite).
    Invalid(JsonError),
    /// The encoding grew past the length allowed.
    TooLong,
}

/// [`marshal`] that stops once the text is longer than `max_len` bytes: a
/// value whose parts are shared (one long string in every element of a
/// long list) can take far more text than memory, and is refused before
/// that text is written (the text written at most exceeds `max_len` by
/// the last string or number).
pub fn marshal_within(v: &Value, ty: &Type, max_len: usize) -> Result<String, MarshalStop> {
    let mut out = String::new();
    match (Marshal { out: &mut out, max_len, writing: true }.value(v, ty, &mut String::new())) {
        Ok(()) => Ok(out),
        Err(MarshalStop::TooLong) => {
            // The reference would have written it all, or stopped at a part
            // that cannot be encoded: that error, if there is one, found by
            // the same walk writing nothing.
            out = String::new();
            match (Marshal { out: &mut out, max_len, writing: false }.value(v, ty, &mut String::new())) {
                Err(MarshalStop::Invalid(e)) => Err(MarshalStop::Invalid(e)),
                _ => Err(MarshalStop::TooLong),
            }
        }
        Err(e) => Err(e),
    }
}

struct Marshal<'o> {
    out: &'o mut String,
    max_len: usize,
    /// False: the walk only looks for a part that cannot be encoded,
    /// noting a step per element and giving up (`TooLong`) once its call
    /// is out of steps.
    writing: bool,
}

impl Marshal<'_> {
    fn value(&mut self, v: &Value, ty: &Type, path: &mut String) -> Result<(), MarshalStop> {
        if v.is_collection() {
            return crate::stack::guarded(|| self.here(v, ty, path));
        }
        self.here(v, ty, path)
    }

    fn check_len(&self) -> Result<(), MarshalStop> {
        if self.out.len() > self.max_len {
            return Err(MarshalStop::TooLong);
        }
        Ok(())
    }

    fn put(&mut self, text: &str) {
        if self.writing {
            self.out.push_str(text);
        }
    }

    fn put_string(&mut self, text: &str) {
        if self.writing {
            crate::strings::write_json_string_html(self.out, text);
        }
    }

    /// Before each element: a step when only looking.
    fn element(&self) -> Result<(), MarshalStop> {
        if !self.writing {
            crate::work::note(1);
            if crate::work::exhausted() {
                return Err(MarshalStop::TooLong);
            }
        }
        Ok(())
    }

    fn here(&mut self, v: &Value, ty: &Type, path: &mut String) -> Result<(), MarshalStop> {
        let invalid = |path: &str, m: String| MarshalStop::Invalid(err(path, m));
        if ty.is_dynamic() && !v.ty().is_dynamic() {
            self.put("{\"value\":");
            self.value(v, &v.ty(), path)?;
            if self.writing {
                self.out.push_str(",\"type\":");
                v.ty().write_json(self.out);
                self.out.push('}');
            }
            return self.check_len();
        }
        match v {
            Value::Null(_) => self.put("null"),
            Value::Unknown(_) => return Err(invalid(path, "value is not known".into())),
            Value::String(s) => self.put_string(s),
            Value::Number(n) => {
                if n.is_infinite() {
                    // (cty's error here has no path.)
                    return Err(invalid("", "cannot serialize infinity as JSON".into()));
                }
                let text = n.to_text().map_err(|e| invalid(path, e.to_string()))?;
                self.put(&text);
            }
            Value::Bool(b) => self.put(if *b { "true" } else { "false" }),
            Value::List(_) | Value::Set(_) | Value::Tuple(_) => {
                self.put("[");
                let ety = ty.element_type();
                let tuple_types = ty.tuple_type();
                for (i, e) in v.elements_slice().iter().enumerate() {
                    self.element()?;
                    if i > 0 {
                        self.put(",");
                    }
                    let ety = match (ety, tuple_types) {
                        (Some(t), _) => t.clone(),
                        (None, Some(tt)) => tt.elems().get(i).cloned().unwrap_or(Type::Dynamic),
                        _ => e.ty(),
                    };
                    let len = path.len();
                    path.push_str(&format!("[{i}]"));
                    self.value(e, &ety, path)?;
                    path.truncate(len);
                }
                self.put("]");
            }
            Value::Map(_) | Value::Object(_) => {
                self.put("{");
                let pairs = v.key_value_pairs().unwrap_or_default();
                for (i, (k, e)) in pairs.into_iter().enumerate() {
                    self.element()?;
                    if i > 0 {
                        self.put(",");
                    }
                    let ety = match ty {
                        Type::Map(t) => (**t).clone(),
                        Type::Object(ot) => ot.attr_type(&k).cloned().unwrap_or(Type::Dynamic),
                        _ => e.ty(),
                    };
                    self.put_string(&k);
                    self.put(":");
                    let len = path.len();
                    if v.as_map().is_some() {
                        path.push('[');
                        write_json_string(path, &k);
                        path.push(']');
                    } else {
                        path.push('.');
                        path.push_str(&k);
                    }
                    self.value(e, &ety, path)?;
                    path.truncate(len);
                }
                self.put("}");
            }
        }
        self.check_len()
    }
}

/// A JSON decoding error: the cty path of the offending value and what is
/// wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct JsonError {
    /// Path in cty notation (`.attr[0]["key"]`), empty at the root.
    pub path: String,
    pub message: String,
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for JsonError {}

fn err(path: &str, message: impl Into<String>) -> JsonError {
    JsonError { path: path.to_string(), message: message.into() }
}

/// cty's error for an object member its type has no attribute for (the
/// member's name as written).
fn unsupported_attribute(path: &str, key: &str) -> JsonError {
    err(path, format!("unsupported attribute {}", crate::strings::go_quote(key)))
}

fn json_number_text(n: &serde_json::Number) -> String {
    // With serde_json's `arbitrary_precision` feature the number keeps the
    // exact text it was read from.
    n.to_string()
}

fn parse_number(text: &str, path: &str) -> Result<Number, JsonError> {
    Number::parse(text).map_err(|_| err(path, "a number is required"))
}

/// `ctyjson.ImpliedType` + `Unmarshal`: decodes plain JSON with implied
/// types (objects → object, arrays → tuple, `null` → null of dynamic type).
pub fn value_from_json_implied(j: &J) -> Result<Value, JsonError> {
    implied(j, 0, &mut String::new(), None)
}

/// [`value_from_json_implied`] for a document of up to `max_depth` levels
/// (jsondecode's bound, deeper than the input limit).
pub fn value_from_json_implied_deep(j: &J, max_depth: usize) -> Result<Value, JsonError> {
    let mut path = String::new();
    implied_to(j, 0, &mut path, None, max_depth)
}

/// [`value_from_json_implied`] whose object attribute names are taken from
/// `names` when it has them (a program's names: its attribute steps then
/// find them by pointer, see [`AttrNames`]).
pub fn value_from_json_implied_with(j: &J, names: &AttrNames) -> Result<Value, JsonError> {
    implied(j, 0, &mut String::new(), Some(names))
}

fn implied(j: &J, depth: usize, path: &mut String, names: Option<&AttrNames>) -> Result<Value, JsonError> {
    implied_to(j, depth, path, names, MAX_NESTING)
}

fn implied_to(j: &J, depth: usize, path: &mut String, names: Option<&AttrNames>, max_depth: usize) -> Result<Value, JsonError> {
    if depth > max_depth {
        return Err(err(path, "value is nested too deeply"));
    }
    Ok(match j {
        J::Null => Value::Null(Type::Dynamic),
        J::Bool(b) => Value::Bool(*b),
        J::Number(n) => Value::Number(parse_number(&json_number_text(n), path)?),
        J::String(s) => Value::string(s),
        J::Array(items) => {
            let mut elems = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                elems.push(crate::stack::deeper(depth, || implied_to(item, depth + 1, path, names, max_depth))?);
                path.truncate(len);
            }
            Value::tuple(elems)
        }
        J::Object(map) => {
            let mut attrs: Vec<(Arc<str>, Value)> = Vec::with_capacity(map.len());
            for (k, item) in map {
                let len = path.len();
                path.push('.');
                path.push_str(k);
                let name = match names.and_then(|n| n.get(k)) {
                    Some(shared) => shared.clone(),
                    None => match normalize_nfc(k) {
                        std::borrow::Cow::Borrowed(k) => Arc::from(k),
                        // cty names attributes in NFC and finds no
                        // attribute under another spelling.
                        std::borrow::Cow::Owned(_) => return Err(unsupported_attribute(path, k)),
                    },
                };
                attrs.push((name, crate::stack::deeper(depth, || implied_to(item, depth + 1, path, names, max_depth))?));
                path.truncate(len);
            }
            Value::object_from_pairs(attrs)
        }
    })
}

/// `ctyjson.Unmarshal(j, ty)`. For type `dynamic` the JSON must be
/// `{"type": T, "value": V}`; missing object attributes become nulls.
pub fn value_from_json_typed(j: &J, ty: &Type) -> Result<Value, JsonError> {
    typed(j, ty, 0, &mut String::new(), false)
}

/// Decodes a value in the oracle's result encoding against its type: like
/// [`value_from_json_typed`] but also accepts `{"$unknown":true}` and
/// `{"$number":"+Inf"}` anywhere, and a dynamic type only for unknowns and
/// nulls.
pub fn value_from_result_json(j: &J, ty: &Type) -> Result<Value, JsonError> {
    typed(j, ty, 0, &mut String::new(), true)
}

/// The case-file shorthand: `{"type": T, "value": V}` (exactly those two
/// keys) is typed, anything else is decoded with implied types.
pub fn value_from_case_var(j: &J) -> Result<Value, JsonError> {
    case_var(j, None)
}

/// [`value_from_case_var`] with implied-type objects named from `names`
/// (see [`value_from_json_implied_with`]).
pub fn value_from_case_var_with(j: &J, names: &AttrNames) -> Result<Value, JsonError> {
    case_var(j, Some(names))
}

/// The type and value of the case-file shorthand `{"type": T, "value": V}`
/// (exactly those two keys), if `j` is one.
pub fn typed_case_var(j: &J) -> Option<(&J, &J)> {
    match j {
        J::Object(map) if map.len() == 2 => Some((map.get("type")?, map.get("value")?)),
        _ => None,
    }
}

fn case_var(j: &J, names: Option<&AttrNames>) -> Result<Value, JsonError> {
    if let Some((t, v)) = typed_case_var(j) {
        let ty = Type::from_json(t).map_err(|m| err("", m))?;
        return value_from_json_typed(v, &ty);
    }
    implied(j, 0, &mut String::new(), names)
}

fn typed(j: &J, ty: &Type, depth: usize, path: &mut String, result_form: bool) -> Result<Value, JsonError> {
    if depth > MAX_NESTING {
        return Err(err(path, "value is nested too deeply"));
    }
    if j.is_null() {
        return Ok(Value::Null(ty.clone()));
    }
    if result_form {
        if let J::Object(map) = j {
            if map.len() == 1 && map.get("$unknown") == Some(&J::Bool(true)) {
                return Ok(Value::unknown(ty.clone()));
            }
            if *ty == Type::Number && map.len() == 1 {
                if let Some(J::String(s)) = map.get("$number") {
                    return Ok(Value::Number(parse_number(s, path)?));
                }
            }
        }
    }
    match ty {
        Type::Dynamic => {
            if result_form {
                return Err(err(path, "a known value needs a type other than dynamic"));
            }
            let J::Object(map) = j else {
                return Err(err(path, "missing expected {"));
            };
            let mut t = None;
            let mut body = None;
            for (k, v) in map {
                match k.as_str() {
                    "type" => t = Some(Type::from_json(v).map_err(|m| err(path, format!("failed to decode type for dynamic value: {m}")))?),
                    "value" => body = Some(v),
                    other => return Err(err(path, format!("invalid key {other:?} in dynamically-typed value"))),
                }
            }
            let t = t.ok_or_else(|| err(path, "missing type in dynamically-typed value"))?;
            let body = body.ok_or_else(|| err(path, "missing value in dynamically-typed value"))?;
            crate::stack::deeper(depth, || typed(body, &t, depth + 1, path, false))
        }
        Type::Bool => match j {
            J::Bool(b) => Ok(Value::Bool(*b)),
            J::String(s) => match s.as_str() {
                "true" | "1" => Ok(Value::Bool(true)),
                "false" | "0" => Ok(Value::Bool(false)),
                other => Err(err(path, crate::convert::string_to_bool_error(other))),
            },
            _ => Err(err(path, "bool is required")),
        },
        Type::Number => match j {
            J::Number(n) => Ok(Value::Number(parse_number(&json_number_text(n), path)?)),
            J::String(s) => Ok(Value::Number(parse_number(s, path)?)),
            _ => Err(err(path, "number is required")),
        },
        Type::String => match j {
            J::String(s) => Ok(Value::string(s)),
            J::Number(n) => Ok(Value::from_string(json_number_text(n))),
            J::Bool(b) => Ok(Value::string(if *b { "true" } else { "false" })),
            _ => Err(err(path, "string is required")),
        },
        Type::List(ety) | Type::Set(ety) => {
            let J::Array(items) = j else {
                return Err(err(path, "missing expected ["));
            };
            let mut elems = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                elems.push(crate::stack::deeper(depth, || typed(item, ety, depth + 1, path, result_form))?);
                path.truncate(len);
            }
            // As cty: a non-empty collection takes its element type from its
            // elements (so `["list","dynamic"]` holding typed values becomes
            // a list of their type).
            let built = match (elems.is_empty(), ty.is_list()) {
                (true, true) => Ok(Value::list_empty((**ety).clone())),
                (true, false) => Ok(Value::set_empty((**ety).clone())),
                (false, true) => Value::list(elems),
                (false, false) => Value::set(elems),
            };
            built.map_err(|e| err(path, e.to_string()))
        }
        Type::Map(ety) => {
            let J::Object(map) = j else {
                return Err(err(path, "missing expected {"));
            };
            let mut entries = Vec::with_capacity(map.len());
            for (k, item) in map {
                let len = path.len();
                path.push('[');
                write_json_string(path, k);
                path.push(']');
                entries.push((k.as_str(), crate::stack::deeper(depth, || typed(item, ety, depth + 1, path, result_form))?));
                path.truncate(len);
            }
            if entries.is_empty() {
                return Ok(Value::map_empty((**ety).clone()));
            }
            Value::map(entries).map_err(|e| err(path, e.to_string()))
        }
        Type::Tuple(tt) => {
            let J::Array(items) = j else {
                return Err(err(path, "missing expected ["));
            };
            if items.len() > tt.len() {
                return Err(err(path, format!("too many tuple elements (need {})", tt.len())));
            }
            if items.len() < tt.len() {
                return Err(err(path, format!("not enough tuple elements (need {})", tt.len())));
            }
            let mut elems = Vec::with_capacity(items.len());
            for (i, (item, ety)) in items.iter().zip(tt.elems()).enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                elems.push(crate::stack::deeper(depth, || typed(item, ety, depth + 1, path, result_form))?);
                path.truncate(len);
            }
            Ok(Value::tuple(elems))
        }
        Type::Object(ot) => {
            let J::Object(map) = j else {
                return Err(err(path, "missing expected {"));
            };
            let mut vals: Vec<Option<Value>> = vec![None; ot.len()];
            for (k, item) in map {
                let Some(i) = ot.attr_index(k) else {
                    return Err(unsupported_attribute(path, k));
                };
                let len = path.len();
                path.push('.');
                path.push_str(k);
                vals[i] = Some(crate::stack::deeper(depth, || typed(item, &ot.types()[i], depth + 1, path, result_form))?);
                path.truncate(len);
            }
            let vals = vals.into_iter().zip(ot.types()).map(|(v, t)| v.unwrap_or_else(|| Value::Null(t.clone()))).collect();
            Value::object_of(ot.clone(), vals).map_err(|e| err(path, e.to_string()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn structural_bytes_skip_strings_and_their_escapes() {
        let structure = |s: &str| String::from_utf8(structural_bytes(s.as_bytes()).collect()).unwrap();
        assert_eq!(structure(r#"{"a": [1, "]\"{"], "b\\": {}}"#), r#"{": [1, "], ": {}}"#);
        // An escape at the end, an unterminated string.
        assert_eq!(structure(r#"["a\"#), r#"[""#);
        assert_eq!(structure(r#"["abc"#), r#"[""#);
        assert_eq!(structure("\"\"\"\"\"\""), "\"\"\"");
    }

    fn parse(s: &str) -> J {
        serde_json::from_str(s).unwrap()
    }

    #[test]
    fn implied_objects_take_the_shared_names() {
        let mut names = AttrNames::new();
        let user = names.intern("user");
        let role = names.intern("role");
        let j = parse(r#"{"user":{"role":"admin","other":1},"tags":[{"role":"x"}]}"#);
        let shared = value_from_json_implied_with(&j, &names).unwrap();
        let plain = value_from_json_implied(&j).unwrap();
        assert_eq!(shared.ty(), plain.ty());
        assert!(shared.raw_equals(&plain));
        let Value::Object(o) = &shared else { panic!("not an object: {shared:?}") };
        let ns = o.object_type().names();
        let user_at = ns.iter().position(|n| &**n == "user").unwrap();
        assert!(Arc::ptr_eq(&ns[user_at], &user));
        assert!(!Arc::ptr_eq(&ns[1 - user_at], &user));
        let Value::Object(inner) = &o.vals()[user_at] else { panic!("user is not an object") };
        let role_at = inner.object_type().names().iter().position(|n| &**n == "role").unwrap();
        assert!(Arc::ptr_eq(&inner.object_type().names()[role_at], &role));
        // The typed shorthand keeps its own names; plain values still share.
        let case = value_from_case_var_with(&parse(r#"{"role":"y"}"#), &names).unwrap();
        let Value::Object(c) = &case else { panic!("not an object") };
        assert!(Arc::ptr_eq(&c.object_type().names()[0], &role));
    }

    #[test]
    fn implied_round_trip() {
        let cases = [
            (
                r#"{"b":[1,"x",true,null],"a":{}}"#,
                r#"["object",{"a":["object",{}],"b":["tuple",["number","string","bool","dynamic"]]}]"#,
                r#"{"a":{},"b":[1,"x",true,null]}"#,
            ),
            ("0.1000000000000000000000001", r#""number""#, "0.1000000000000000000000001"),
            ("-0", r#""number""#, "-0"),
            ("1E+3", r#""number""#, "1000"),
            (r#""<a&b>\u2028""#, r#""string""#, "\"<a&b>\\u2028\""),
        ];
        for (input, ty, enc) in cases {
            let v = value_from_json_implied(&parse(input)).unwrap();
            assert_eq!(v.ty().to_json_string(), ty, "{input}");
            assert_eq!(value_to_result_string(&v).unwrap(), enc, "{input}");
        }
    }

    #[test]
    fn typed_decoding() {
        let cases = [
            (r#"["list","string"]"#, r#"[1,true,"x"]"#, r#"["1","true","x"]"#),
            (r#"["object",{"a":"number","b":"string"}]"#, r#"{"a":"5"}"#, r#"{"a":5,"b":null}"#),
            (r#"["map","bool"]"#, r#"{"y":"1","x":false}"#, r#"{"x":false,"y":true}"#),
            (r#"["set","number"]"#, r#"[3,1,3,2]"#, "[1,2,3]"),
            (r#""dynamic""#, r#"{"type":"number","value":"12"}"#, "12"),
            (r#"["list","dynamic"]"#, r#"[{"type":"string","value":"a"}]"#, r#"["a"]"#),
            (r#"["tuple",["number","dynamic"]]"#, r#"[1,null]"#, "[1,null]"),
        ];
        for (ty, input, enc) in cases {
            let t = Type::from_json(&parse(ty)).unwrap();
            let v = value_from_json_typed(&parse(input), &t).unwrap();
            assert_eq!(value_to_result_string(&v).unwrap(), enc, "{ty} {input}");
        }
        let errors = [
            (r#""bool""#, r#""True""#, "a bool is required; to convert from string, use lowercase \"true\""),
            (r#"["tuple",["number"]]"#, "[1,2]", "too many tuple elements (need 1)"),
            (r#"["object",{"a":"number"}]"#, r#"{"b":1}"#, "unsupported attribute \"b\""),
            (r#"["list","number"]"#, r#"["x"]"#, "[0]: a number is required"),
        ];
        for (ty, input, msg) in errors {
            let t = Type::from_json(&parse(ty)).unwrap();
            let e = value_from_json_typed(&parse(input), &t).unwrap_err();
            assert_eq!(e.to_string(), msg, "{ty} {input}");
        }
    }

    #[test]
    fn marshal_like_cty() {
        let v = value_from_json_implied(&parse(r#"[null,"<&>",{"b":[1,true]}]"#)).unwrap();
        // Expected text from the reference: jsonencode([null, "<&>", {b=[1,true]}]).
        assert_eq!(marshal(&v, &v.ty()).unwrap(), r#"[null,"\u003c\u0026\u003e",{"b":[1,true]}]"#);
        let t = Type::from_json(&parse(r#"["tuple",["dynamic"]]"#)).unwrap();
        let v = Value::tuple(vec![Value::string("x")]);
        assert_eq!(marshal(&v, &t).unwrap(), r#"[{"value":"x","type":"string"}]"#);
        // (The reference's error for an infinity has no path:
        // jsonencode([1/0]) says "cannot serialize infinity as JSON".)
        let inf = Value::Number(Number::pos_inf());
        assert_eq!(
            marshal(&Value::tuple(vec![inf.clone()]), &Type::tuple(vec![Type::Number])).unwrap_err().to_string(),
            "cannot serialize infinity as JSON"
        );
        assert!(marshal(&Value::unknown(Type::String), &Type::String).is_err());
    }

    #[test]
    fn result_form_round_trip() {
        let ty = Type::from_json(&parse(r#"["tuple",["number","string",["list","number"]]]"#)).unwrap();
        let j = parse(r#"[{"$number":"-Inf"},{"$unknown":true},[1,{"$unknown":true}]]"#);
        let v = value_from_result_json(&j, &ty).unwrap();
        let mut out = String::new();
        write_typed_value(&mut out, &v).unwrap();
        assert_eq!(
            out,
            r#""type":["tuple",["number","string",["list","number"]]],"value":[{"$number":"-Inf"},{"$unknown":true},[1,{"$unknown":true}]],"known":false"#
        );
    }
}
