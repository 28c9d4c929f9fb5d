//! Implied-type decoding straight from JSON text, without building a
//! `serde_json::Value` first.
//!
//! Hosts that evaluate one program per JSON request (`hclvm batch`,
//! `Compiled::evaluate_json_str`) spent about as long decoding variables as
//! evaluating: the text became a `serde_json::Value` (an ordered map per
//! object, a string per number) and only then values. This decoder reads
//! the text once into values, with the result of
//! [`crate::json::value_from_json_implied_with`] on the parsed text.
//!
//! It is a fast path, not a second definition of JSON: it accepts only
//! plain input and gives up (`None`) on anything that needs the full
//! decoder's judgement: a syntax error (whose message is the full
//! decoder's), a duplicate key, a lone surrogate escape, an attribute name
//! that is not NFC, deep nesting, or a variable written in the
//! `{"type": T, "value": V}` form. The caller then decodes the text the
//! slow way, which gives the same values or the exact error.

mod cursor;
mod shapes;

pub use cursor::JsonCursor;

use crate::names::AttrNames;
use crate::number::Number;
use crate::types::Type;
use crate::value::Value;
use shapes::Shapes;
use std::sync::Arc;

/// Nesting this decoder handles; deeper input takes the full decoder
/// (whose limits and messages apply).
const MAX_DEPTH: usize = 256;

/// What [`decode_object`] does with a top-level member.
#[derive(Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Member {
    /// Decode its value.
    Decode,
    /// Check its syntax only; its value is a null of dynamic type (a
    /// variable the program does not read).
    Skip,
}

/// Decodes JSON text that must be an object into its members (in text
/// order) with implied types, object attribute names taken from `names`
/// when it has them. `member` says which members to decode. With
/// `typed_form`, a member whose value is an object of exactly the keys
/// `type` and `value` makes it give up, so that the caller reads it as a
/// typed value. `None`: give up, see the module documentation.
pub fn decode_object(
    text: &str,
    names: Option<&AttrNames>,
    typed_form: bool,
    member: &dyn Fn(&str) -> Member,
) -> Option<Vec<(String, Value)>> {
    shapes::with_shapes(|shapes| decode_object_with(text, names, typed_form, member, shapes))
}

fn decode_object_with(
    text: &str,
    names: Option<&AttrNames>,
    typed_form: bool,
    member: &dyn Fn(&str) -> Member,
    shapes: &mut Shapes,
) -> Option<Vec<(String, Value)>> {
    let mut d = Decoder { c: JsonCursor::new(text), names, key: String::new(), shapes };
    d.c.skip_ws();
    if d.c.peek()? != b'{' {
        return None;
    }
    d.c.bump();
    let mut out: Vec<(String, Value)> = Vec::new();
    d.c.skip_ws();
    if d.c.peek()? == b'}' {
        d.c.bump();
    } else {
        loop {
            d.c.skip_ws();
            let name = d.c.string_text(&mut d.key)?.to_string();
            d.c.skip_ws();
            d.c.expect(b':')?;
            d.c.skip_ws();
            let value = match member(&name) {
                Member::Decode => {
                    let v = d.value(1)?;
                    if typed_form && is_typed_form(&v) {
                        return None;
                    }
                    v
                }
                Member::Skip => {
                    d.value(1)?;
                    Value::Null(Type::Dynamic)
                }
            };
            out.push((name, value));
            d.c.skip_ws();
            match d.c.next_byte()? {
                b',' => continue,
                b'}' => break,
                _ => return None,
            }
        }
    }
    d.c.skip_ws();
    if !d.c.at_end() {
        return None;
    }
    // Duplicate names: the full decoder says which one counts.
    let mut sorted: Vec<&str> = out.iter().map(|(n, _)| n.as_str()).collect();
    sorted.sort_unstable();
    if sorted.windows(2).any(|w| w[0] == w[1]) {
        return None;
    }
    Some(out)
}

/// `{"type": T, "value": V}`: an object of exactly those attributes.
fn is_typed_form(v: &Value) -> bool {
    match v {
        Value::Object(o) => {
            let names = o.object_type().names();
            names.len() == 2 && names.iter().any(|n| &**n == "type") && names.iter().any(|n| &**n == "value")
        }
        _ => false,
    }
}

struct Decoder<'t, 's> {
    c: JsonCursor<'t>,
    names: Option<&'t AttrNames>,
    /// The buffer of a string with escapes ([`JsonCursor::string_text`]).
    key: String,
    /// This thread's types of decoded values ([`shapes`]).
    shapes: &'s mut Shapes,
}

impl Decoder<'_, '_> {
    fn value(&mut self, depth: usize) -> Option<Value> {
        if depth > MAX_DEPTH {
            return None;
        }
        match self.c.peek()? {
            // Within `MAX_DEPTH`, and still on any thread's stack: a frame
            // here (larger in a debug build) times 256 levels may not fit
            // in a small thread's stack, so the stack is checked as the
            // other recursions over values check it.
            b'{' => crate::stack::deeper(depth, || self.object(depth)),
            b'[' => crate::stack::deeper(depth, || self.array(depth)),
            b'"' => self.c.string_text(&mut self.key).map(Value::string),
            b't' => self.c.literal(b"true").map(|_| Value::Bool(true)),
            b'f' => self.c.literal(b"false").map(|_| Value::Bool(false)),
            b'n' => self.c.literal(b"null").map(|_| Value::Null(Type::Dynamic)),
            _ => self.number(),
        }
    }

    fn array(&mut self, depth: usize) -> Option<Value> {
        self.c.bump();
        let mut elems = Vec::new();
        self.c.skip_ws();
        if self.c.peek()? == b']' {
            self.c.bump();
            return Some(Value::tuple(elems));
        }
        loop {
            self.c.skip_ws();
            elems.push(self.value(depth + 1)?);
            self.c.skip_ws();
            match self.c.next_byte()? {
                b',' => continue,
                b']' => break,
                _ => return None,
            }
        }
        Some(match self.shapes.tuple_type(&elems) {
            Some(ty) => Value::tuple_of_type(ty, elems),
            None => Value::tuple(elems),
        })
    }

    fn object(&mut self, depth: usize) -> Option<Value> {
        self.c.bump();
        let mut attrs: Vec<(Arc<str>, Value)> = Vec::new();
        self.c.skip_ws();
        if self.c.peek()? == b'}' {
            self.c.bump();
            return Some(Value::object_from_pairs(Vec::new()));
        }
        loop {
            self.c.skip_ws();
            let name = self.shapes.name(self.c.string_text(&mut self.key)?)?;
            self.c.skip_ws();
            self.c.expect(b':')?;
            self.c.skip_ws();
            attrs.push((name, self.value(depth + 1)?));
            self.c.skip_ws();
            match self.c.next_byte()? {
                b',' => continue,
                b'}' => break,
                _ => return None,
            }
        }
        if !self.shapes.sort_attrs(&mut attrs) {
            return None;
        }
        let ty = self.shapes.object_type(self.names, &attrs);
        Some(Value::object_of_type(ty, attrs.into_iter().map(|(_, v)| v)))
    }

    /// A number in JSON's grammar, exactly as written.
    fn number(&mut self) -> Option<Value> {
        let start = self.c.position();
        if self.c.peek() == Some(b'-') {
            self.c.bump();
        }
        match self.c.next_byte()? {
            b'0' => {}
            b'1'..=b'9' => self.digits(),
            _ => return None,
        }
        if self.c.peek() == Some(b'.') {
            self.c.bump();
            self.digit()?;
            self.digits();
        }
        if let Some(b'e' | b'E') = self.c.peek() {
            self.c.bump();
            if let Some(b'+' | b'-') = self.c.peek() {
                self.c.bump();
            }
            self.digit()?;
            self.digits();
        }
        let text = self.c.since(start)?;
        Number::parse(text).ok().map(Value::Number)
    }

    fn digit(&mut self) -> Option<()> {
        self.c.next_byte()?.is_ascii_digit().then_some(())
    }

    fn digits(&mut self) {
        while self.c.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.c.bump();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{value_from_json_implied_with, write_typed_value};

    /// What the full decoder makes of `text`: each member's typed encoding.
    fn full(text: &str, names: &AttrNames) -> Vec<(String, String)> {
        let j: serde_json::Value = serde_json::from_str(text).expect("valid JSON");
        let serde_json::Value::Object(map) = j else { panic!("not an object") };
        map.iter()
            .map(|(k, v)| {
                let mut out = String::new();
                write_typed_value(&mut out, &value_from_json_implied_with(v, names).expect("decodes")).expect("encodes");
                (k.clone(), out)
            })
            .collect()
    }

    fn fast(text: &str, names: &AttrNames) -> Option<Vec<(String, String)>> {
        let members = decode_object(text, Some(names), false, &|_| Member::Decode)?;
        Some(
            members
                .iter()
                .map(|(k, v)| {
                    let mut out = String::new();
                    write_typed_value(&mut out, v).expect("encodes");
                    (k.clone(), out)
                })
                .collect(),
        )
    }

    /// A deterministic generator of plain JSON (no duplicate keys, NFC
    /// names), spaced and escaped in every way JSON allows.
    struct Gen(u64);

    impl Gen {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }

        fn ws(&mut self, out: &mut String) {
            for _ in 0..self.below(3) {
                out.push([' ', '\t', '\n', '\r'][self.below(4) as usize]);
            }
        }

        fn string(&mut self, out: &mut String) {
            const PIECES: &[&str] = &[
                "a",
                "user",
                "é",
                "e\\u0301",
                // Not NFC, unescaped: read in place, then normalized.
                "e\u{301}",
                "\\u00e9",
                "\\ud83d\\ude00",
                "😀",
                "\\n",
                "\\\"",
                "\\\\",
                "\\/",
                "\\b\\f\\r\\t",
                "\\u0000",
                "日本",
                " ",
                "$",
                "%{",
                "Å",
            ];
            out.push('"');
            for _ in 0..self.below(4) {
                out.push_str(PIECES[self.below(PIECES.len() as u64) as usize]);
            }
            out.push('"');
        }

        fn number(&mut self, out: &mut String) {
            const NUMBERS: &[&str] = &[
                "0",
                "-0",
                "1",
                "-1",
                "10",
                "1.5",
                "0.1",
                "1e3",
                "1E3",
                "1e+3",
                "1e-3",
                "-2.50",
                "123456789012345678901234567890",
                "1e308",
                "1e-320",
                "0.000",
                "9007199254740993",
                "3.14159265358979323846264338327950288",
                "0e0",
            ];
            out.push_str(NUMBERS[self.below(NUMBERS.len() as u64) as usize]);
        }

        fn value(&mut self, depth: u32, out: &mut String) {
            let kind = if depth > 3 { self.below(5) } else { self.below(7) };
            match kind {
                0 => out.push_str(["true", "false", "null"][self.below(3) as usize]),
                1 | 2 => self.number(out),
                3 | 4 => self.string(out),
                5 => {
                    out.push('[');
                    for i in 0..self.below(4) {
                        if i > 0 {
                            out.push(',');
                        }
                        self.ws(out);
                        self.value(depth + 1, out);
                        self.ws(out);
                    }
                    out.push(']');
                }
                _ => self.object(depth, out),
            }
        }

        fn object(&mut self, depth: u32, out: &mut String) {
            const KEYS: &[&str] = &["id", "name", "type", "value", "é", "a b", "tags", "\\u0041", "x"];
            out.push('{');
            let mut used = Vec::new();
            for _ in 0..self.below(5) {
                let k = self.below(KEYS.len() as u64) as usize;
                // "\u0041" is "A": distinct from every other key.
                if used.contains(&k) {
                    continue;
                }
                if !used.is_empty() {
                    out.push(',');
                }
                used.push(k);
                self.ws(out);
                out.push('"');
                out.push_str(KEYS[k]);
                out.push('"');
                self.ws(out);
                out.push(':');
                self.ws(out);
                self.value(depth + 1, out);
                self.ws(out);
            }
            out.push('}');
        }
    }

    #[test]
    fn plain_json_decodes_as_the_full_decoder_decodes_it() {
        let mut names = AttrNames::new();
        names.intern("name");
        names.intern("id");
        let mut gen = Gen(0x9e37_79b9_7f4a_7c15);
        let mut decoded = 0;
        for _ in 0..5000 {
            let mut text = String::new();
            gen.object(0, &mut text);
            match fast(&text, &names) {
                Some(got) => {
                    assert_eq!(got, full(&text, &names), "{text}");
                    decoded += 1;
                }
                // Only a name that is not NFC ("e\u0301" is not generated as a
                // key) or the typed form makes it give up on this input.
                None => panic!("gave up on plain input: {text}"),
            }
        }
        assert_eq!(decoded, 5000);
    }

    #[test]
    fn recurring_shapes_share_a_type_named_with_the_programs_names() {
        let mut names = AttrNames::new();
        let shared = names.intern("role");
        let user = |text: &str| {
            let members = decode_object(text, Some(&names), false, &|_| Member::Decode).expect("plain");
            let Value::Object(user) = &members[0].1 else { panic!("an object") };
            user.object_type().clone()
        };
        // Seen once: named with this thread's copies, not the program's.
        let first = user(r#"{"user": {"role": "admin"}}"#);
        assert!(!Arc::ptr_eq(&first.names()[0], &shared));
        assert_eq!(&*first.names()[0], "role");
        // Seen again: one type, with the program's names, from then on.
        let second = user(r#"{"user": {"role": "dev"}}"#);
        let third = user(r#"{"user": {"role": "ops"}}"#);
        assert!(Arc::ptr_eq(&second.names()[0], &shared));
        assert!(Arc::ptr_eq(&second, &third));
        // Another shape (a number where the string was) is another type.
        let other = user(r#"{"user": {"role": 1}}"#);
        assert!(!Arc::ptr_eq(&other, &third));
        assert_eq!(other.types()[0], Type::Number);
    }

    /// Objects whose names come in an order seen before are sorted by the
    /// kept permutation; objects of more names than a permutation is kept
    /// for are sorted each time. Either way the result is the full
    /// decoder's, and two members of one name are refused every time.
    #[test]
    fn kept_name_orders_sort_as_sorting_does() {
        let names = AttrNames::new();
        let reversed = |n: usize, dup: bool| {
            let mut text = String::from("{");
            for i in (0..n).rev() {
                let key = if dup && i == 0 { n - 1 } else { i };
                text.push_str(&format!("\"k{key:03}\": {i},"));
            }
            text.pop();
            text.push('}');
            text
        };
        for n in [2, 3, 7, 64, 65, 70] {
            for _ in 0..3 {
                let text = format!("{{\"o\": {}}}", reversed(n, false));
                assert_eq!(fast(&text, &names), Some(full(&text, &names)), "{n} names");
                let dup = format!("{{\"o\": {}}}", reversed(n, true));
                assert_eq!(fast(&dup, &names), None, "{n} names, one twice");
            }
        }
        // One set of names in every order of three.
        for order in [["a", "b", "c"], ["a", "c", "b"], ["b", "a", "c"], ["b", "c", "a"], ["c", "a", "b"], ["c", "b", "a"]] {
            for _ in 0..2 {
                let text = format!("{{\"o\": {{\"{}\": 1, \"{}\": \"x\", \"{}\": true}}}}", order[0], order[1], order[2]);
                assert_eq!(fast(&text, &names), Some(full(&text, &names)), "{order:?}");
            }
        }
    }

    #[test]
    fn what_needs_the_full_decoder_is_left_to_it() {
        let names = AttrNames::new();
        let decode = |text: &str, typed: bool| decode_object(text, Some(&names), typed, &|_| Member::Decode).is_some();
        for text in [
            r#"{"a": 1, "a": 2}"#,
            r#"{"a": {"k": 1, "k": 2}}"#,
            r#"{"a": "\ud800"}"#,
            r#"{"a": "\udc00\ud800"}"#,
            r#"{"a": {"e\u0301": 1}}"#,
            "{\"a\": {\"e\u{301}\": 1}}",
            r#"{"a": 01}"#,
            r#"{"a": 1.}"#,
            r#"{"a": .5}"#,
            r#"{"a": +1}"#,
            r#"{"a": 1e}"#,
            r#"{"a": tru}"#,
            r#"{"a": "x\y"}"#,
            "{\"a\": \"tab\there\"}",
            r#"{"a": [1,]}"#,
            r#"{"a": 1,}"#,
            r#"{"a": 1} x"#,
            r#"[1]"#,
            r#"{"a" 1}"#,
            "",
            "{",
        ] {
            assert!(!decode(text, false), "{text}");
        }
        let deep = format!("{{\"a\": {}{}}}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
        assert!(!decode(&deep, false));
        let typed = r#"{"ids": {"type": ["set", "number"], "value": [1]}}"#;
        assert!(!decode(typed, true));
        assert!(decode(typed, false));
        assert!(decode(r#" {"a": {"type": 1, "value": 2, "x": 3}} "#, true));
        assert!(decode("{}", true));
    }

    #[test]
    fn skipped_members_are_checked_and_left_null() {
        let names = AttrNames::new();
        let only_b = |n: &str| if n == "b" { Member::Decode } else { Member::Skip };
        let members = decode_object(r#"{"a": {"deep": [1, 2]}, "b": "x"}"#, Some(&names), false, &only_b).expect("plain");
        assert!(matches!(&members[0].1, Value::Null(Type::Dynamic)));
        assert!(matches!(&members[1].1, Value::String(_)));
        assert!(decode_object(r#"{"a": [1,, 2], "b": "x"}"#, Some(&names), false, &only_b).is_none());
    }
}
