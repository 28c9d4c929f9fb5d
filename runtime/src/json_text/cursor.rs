//! The JSON tokens both hand-written JSON readers need: whitespace, fixed
//! words, and strings with their escapes resolved. [`super::Decoder`]
//! reads variables with it; the conformance runner reads the plainest
//! case lines (`hclvm::conformance`). Each gives up (`None`) on anything
//! that is not plain, valid JSON, and leaves it to a full decoder.

use crate::strings::swar;

/// A reading position in JSON text.
pub struct JsonCursor<'t> {
    text: &'t str,
    bytes: &'t [u8],
    at: usize,
}

impl<'t> JsonCursor<'t> {
    /// At the start of `text`.
    pub fn new(text: &'t str) -> JsonCursor<'t> {
        JsonCursor { text, bytes: text.as_bytes(), at: 0 }
    }

    /// The byte at the position, if any.
    #[inline]
    pub fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    /// The byte at the position, stepping over it.
    #[inline]
    pub fn next_byte(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.at += 1;
        Some(b)
    }

    /// Steps over the byte at the position (one the caller has peeked).
    #[inline]
    pub fn bump(&mut self) {
        self.at = (self.at + 1).min(self.bytes.len());
    }

    /// Steps over `b`, which must be next.
    #[inline]
    pub fn expect(&mut self, b: u8) -> Option<()> {
        (self.next_byte()? == b).then_some(())
    }

    /// Steps over JSON's whitespace.
    #[inline]
    pub fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    /// Steps over `word`, which must be next.
    pub fn literal(&mut self, word: &[u8]) -> Option<()> {
        let end = self.at.checked_add(word.len())?;
        (self.bytes.get(self.at..end)? == word).then(|| self.at = end)
    }

    /// The text from `start` to the position (`None` when `start` is not
    /// where a character starts).
    pub fn since(&self, start: usize) -> Option<&'t str> {
        self.text.get(start..self.at)
    }

    pub fn position(&self) -> usize {
        self.at
    }

    /// Bytes left after the position.
    pub fn remaining(&self) -> usize {
        self.bytes.len() - self.at
    }

    /// Whether the whole text has been read.
    pub fn at_end(&self) -> bool {
        self.at == self.bytes.len()
    }

    /// Reads a string (from its opening quote) that has no escape: its text
    /// as it stands in the JSON, not copied. `None`, with the position
    /// left where it was, for any other string (read it with
    /// [`JsonCursor::string_into`]) or for no string at all.
    #[inline]
    pub fn plain_string(&mut self) -> Option<&'t str> {
        if self.peek()? != b'"' {
            return None;
        }
        let end = plain_run_end(self.bytes, self.at + 1);
        if self.bytes.get(end) != Some(&b'"') {
            return None;
        }
        // Both ends are ASCII quotes, so the slice is whole characters.
        let text = self.text.get(self.at + 1..end)?;
        self.at = end + 1;
        Some(text)
    }

    /// Reads a string (from its opening quote): its text in place when it
    /// has no escape ([`JsonCursor::plain_string`]), else resolved into
    /// `buf` (cleared first, [`JsonCursor::string_into`]).
    pub fn string_text<'b>(&mut self, buf: &'b mut String) -> Option<&'b str>
    where
        't: 'b,
    {
        if let Some(text) = self.plain_string() {
            return Some(text);
        }
        buf.clear();
        self.string_into(buf)?;
        Some(buf)
    }

    /// Reads a string (from its opening quote) and appends its text, escapes
    /// resolved, to `out`. `None` for a raw control character, an unknown
    /// escape or a lone surrogate.
    pub fn string_into(&mut self, out: &mut String) -> Option<()> {
        let mut bytes = std::mem::take(out).into_bytes();
        let read = self.string_bytes_into(&mut bytes);
        // Valid: runs of the text end before ASCII bytes, and escapes
        // append whole characters.
        *out = String::from_utf8(bytes).ok()?;
        read
    }

    /// [`JsonCursor::string_into`] for a caller that wants the bytes (UTF-8).
    pub fn string_bytes_into(&mut self, out: &mut Vec<u8>) -> Option<()> {
        self.expect(b'"')?;
        loop {
            let start = self.at;
            self.at = plain_run_end(self.bytes, self.at);
            out.extend_from_slice(&self.bytes[start..self.at]);
            match self.next_byte()? {
                b'"' => return Some(()),
                b'\\' => {
                    let c = match self.next_byte()? {
                        b'"' => b'"',
                        b'\\' => b'\\',
                        b'/' => b'/',
                        b'b' => 0x08,
                        b'f' => 0x0c,
                        b'n' => b'\n',
                        b'r' => b'\r',
                        b't' => b'\t',
                        b'u' => {
                            let c = self.unicode_escape()?;
                            out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                            continue;
                        }
                        _ => return None,
                    };
                    out.push(c);
                }
                // A raw control character.
                _ => return None,
            }
        }
    }

    /// The character of a `\u` escape (after `\u`); a surrogate must be
    /// the first half of a pair.
    fn unicode_escape(&mut self) -> Option<char> {
        let hi = self.hex4()?;
        if !(0xD800..0xE000).contains(&hi) {
            return char::from_u32(hi);
        }
        if hi >= 0xDC00 {
            return None;
        }
        self.literal(b"\\u")?;
        let lo = self.hex4()?;
        if !(0xDC00..0xE000).contains(&lo) {
            return None;
        }
        char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))
    }

    fn hex4(&mut self) -> Option<u32> {
        let end = self.at.checked_add(4)?;
        let digits = self.bytes.get(self.at..end)?;
        let mut v = 0;
        for &d in digits {
            v = v * 16 + char::from(d).to_digit(16)?;
        }
        self.at = end;
        Some(v)
    }
}

/// Where the run of string bytes from `i` ends: at the first `"`, `\` or
/// control byte (`bytes.len()` when there is none). Eight bytes at a time:
/// sources in case lines are long strings whose runs between escapes (a
/// quote, a line break) are too short for a library search's set-up.
#[inline]
fn plain_run_end(bytes: &[u8], i: usize) -> usize {
    let rest = bytes.get(i..).unwrap_or_default();
    let mut words = rest.chunks_exact(8);
    let mut at = i;
    for w in &mut words {
        let w = u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]);
        let found = swar::equal(w, b'"') | swar::equal(w, b'\\') | swar::below(w, 0x20);
        if found != 0 {
            return at + swar::first(found);
        }
        at += 8;
    }
    let tail = words.remainder();
    at + tail.iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20).unwrap_or(tail.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn string(text: &str) -> Option<(String, usize)> {
        let mut c = JsonCursor::new(text);
        let mut out = String::new();
        c.string_into(&mut out)?;
        Some((out, c.position()))
    }

    #[test]
    fn strings_read_as_json_defines_them() {
        for text in [
            r#""""#,
            r#""plain""#,
            r#""a\"b\\c\/d\b\f\n\r\t""#,
            r#""\u00e9\u20ac\ud83d\ude00 é€😀""#,
            r#""a long run of text without escapes, then one \" and more text after it""#,
            r#""12345678\"12345678\\1234567""#,
        ] {
            let want: String = serde_json::from_str(text).expect("valid JSON");
            assert_eq!(string(text), Some((want, text.len())), "{text}");
        }
    }

    #[test]
    fn what_is_not_plain_json_is_refused() {
        // Raw control characters at every offset of the eight-byte words.
        for at in 0..17 {
            let text = format!("\"{}\u{1}{}\"", "x".repeat(at), "y".repeat(20));
            assert_eq!(string(&text), None, "control at {at}");
            let ok = format!("\"{}\u{7f}{}\"", "x".repeat(at), "y".repeat(20));
            assert!(string(&ok).is_some(), "DEL at {at} is not a control");
        }
        for text in [r#""\x""#, r#""\ud800""#, r#""\udc00x""#, r#""\ud800\u0041""#, r#""\u12g4""#, r#""open"#, "\"\t\""] {
            assert_eq!(string(text), None, "{text}");
        }
    }

    #[test]
    fn a_string_without_escapes_is_its_text_in_place() {
        for text in [r#""""#, r#""plain""#, r#""é€😀 and a run longer than a word""#, "\"\u{7f}\""] {
            let mut c = JsonCursor::new(text);
            let plain = c.plain_string().expect("plain");
            assert_eq!(Some((plain.to_string(), c.position())), string(text), "{text}");
            // The text of the JSON itself, not a copy.
            assert_eq!(plain.as_ptr(), text[1..].as_ptr());
        }
        // Followed by more text, the string ends at its closing quote (met
        // within the first eight-byte word, not in the tail).
        let mut c = JsonCursor::new(r#""key": "a value after it""#);
        assert_eq!((c.plain_string(), c.position()), (Some("key"), 5));
        // An escape, a control character, an open string or no string:
        // nothing read, for `string_into` (or the full decoder) to judge;
        // also when what ends the plain run is past the first eight bytes.
        let long_escape = format!(r#""{}\n{}""#, "x".repeat(10), "y".repeat(10));
        let long_control = format!("\"{}\u{1}{}\"", "x".repeat(12), "y".repeat(12));
        for text in [r#""a\"b""#, r#""\u0041""#, "\"\t\"", r#""open"#, "x", "", &long_escape, &long_control] {
            let mut c = JsonCursor::new(text);
            assert_eq!(c.plain_string(), None, "{text}");
            assert_eq!(c.position(), 0, "{text}");
        }
    }

    #[test]
    fn tokens_between_strings() {
        let mut c = JsonCursor::new(" \t\r\n{ \"k\" : true }");
        c.skip_ws();
        assert_eq!(c.next_byte(), Some(b'{'));
        c.skip_ws();
        let mut k = String::new();
        c.string_into(&mut k).expect("a string");
        assert_eq!(k, "k");
        c.skip_ws();
        c.expect(b':').expect("a colon");
        c.skip_ws();
        assert_eq!(c.literal(b"true"), Some(()));
        assert_eq!(c.literal(b"null"), None);
        c.skip_ws();
        assert_eq!(c.next_byte(), Some(b'}'));
        assert!(c.at_end());
    }
}
