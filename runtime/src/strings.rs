//! String helpers shared by every crate of the workspace, each the one
//! definition of its rule: NFC normalization (every cty string is NFC, see
//! `nfc.rs`), Go `encoding/json` string escaping (for byte-identical result
//! encoding; [`write_json_string`], [`write_json_string_html`]), Go `%q`
//! quoting of a string, of bytes that may not be UTF-8 and of a rune
//! ([`go_quote`], [`go_quote_bytes`], [`go_quote_rune`]; cty's set hashing
//! uses it too, and set iteration order of structured elements depends on
//! those bytes), and Go's reading of invalid UTF-8 ([`go_lossy_utf8`]).

use std::borrow::Cow;

/// Returns `s` in Unicode Normalization Form C as the reference writes it
/// (golang.org/x/text v0.11.0 with Unicode 13.0.0 data; see `nfc.rs`),
/// borrowing when it already is. ASCII text is always NFC, so the common
/// case is a single byte scan.
pub fn normalize_nfc(s: &str) -> Cow<'_, str> {
    crate::nfc::normalize_nfc(s)
}

const HEX_LOWER: &[u8; 16] = b"0123456789abcdef";

/// Appends `s` as a JSON string exactly as Go's `encoding/json` writes it
/// with HTML escaping disabled: `\"`, `\\`, `\n`, `\r`, `\t`, other control
/// bytes as `\u00XX` (lower-case hex), and U+2028/U+2029 as `\u2028`/`\u2029`.
/// Everything else, including DEL and `<>&`, is written verbatim.
pub fn write_json_string<T: JsonText + ?Sized>(out: &mut T, s: &str) {
    write_json_string_impl(out, s, false)
}

/// Where JSON text is written: a `String`, or a sink that passes the text
/// on as it grows (a large result need not be held whole).
pub trait JsonText {
    /// Whether text may leave as it is written, so that a writer that
    /// could fail half-way checks first that it will not.
    const PASSES_ON: bool = false;
    fn push_str(&mut self, s: &str);
    fn push(&mut self, c: char) {
        self.push_str(c.encode_utf8(&mut [0; 4]));
    }
    /// Room for `additional` more bytes, where that helps.
    fn reserve(&mut self, additional: usize) {
        let _ = additional;
    }
}

impl JsonText for String {
    #[inline]
    fn push_str(&mut self, s: &str) {
        String::push_str(self, s)
    }
    #[inline]
    fn push(&mut self, c: char) {
        String::push(self, c)
    }
    #[inline]
    fn reserve(&mut self, additional: usize) {
        String::reserve(self, additional)
    }
}

/// Like [`write_json_string`] but with Go's default HTML escaping (as
/// `json.Marshal` does): `<`, `>` and `&` become `\u003c`, `\u003e`,
/// `\u0026`. This is what cty's JSON marshalling (`jsonencode`) writes.
pub fn write_json_string_html(out: &mut String, s: &str) {
    write_json_string_impl(out, s, true)
}

/// Bytes [`write_json_string_impl`] must look at: controls, `"`, `\\`, the
/// HTML characters (`1` plain, `2` HTML only), and 0xE2 (which starts
/// U+2028 and U+2029). Every other byte is copied as it is.
const JSON_SPECIAL: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 0x20 {
        t[b] = 1;
        b += 1;
    }
    t[b'"' as usize] = 1;
    t[b'\\' as usize] = 1;
    t[0xE2] = 1;
    t[b'<' as usize] = 2;
    t[b'>' as usize] = 2;
    t[b'&' as usize] = 2;
    t
};

/// Byte searches eight bytes at a time: a little-endian word of the text,
/// and masks with the high bit of each byte that matches. A mask may also
/// flag bytes after the first match (borrows between bytes), but its
/// lowest flag is exact, so [`first`] is the first match.
pub(crate) mod swar {
    const ONES: u64 = u64::from_le_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_le_bytes([0x80; 8]);

    /// The eight bytes of `bytes` from `i`, when there are eight.
    #[inline]
    pub(crate) fn load(bytes: &[u8], i: usize) -> Option<u64> {
        let w = bytes.get(i..i.checked_add(8)?)?;
        Some(u64::from_le_bytes(w.try_into().ok()?))
    }

    /// The bytes equal to `b`.
    #[inline]
    pub(crate) fn equal(word: u64, b: u8) -> u64 {
        zero(word ^ (ONES * u64::from(b)))
    }

    /// The bytes below `n` (at most 0x80).
    #[inline]
    pub(crate) fn below(word: u64, n: u8) -> u64 {
        word.wrapping_sub(ONES * u64::from(n)) & !word & HIGH
    }

    /// The bytes that are not ASCII.
    #[inline]
    pub(crate) fn non_ascii(word: u64) -> u64 {
        word & HIGH
    }

    /// The index in the word of the first flagged byte (`found != 0`).
    #[inline]
    pub(crate) fn first(found: u64) -> usize {
        (found.trailing_zeros() / 8) as usize
    }

    #[inline]
    fn zero(v: u64) -> u64 {
        v.wrapping_sub(ONES) & !v & HIGH
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        /// Every byte value at every position, against a plain comparison,
        /// with every other byte of the word each possible neighbour class.
        #[test]
        fn the_first_flag_is_the_first_match() {
            for pos in 0..8 {
                for b in 0..=255u8 {
                    for fill in [0u8, b'a', 0x1f, 0x20, b'"', 0x7f, 0x80, 0xff] {
                        let mut bytes = [fill; 8];
                        bytes[pos] = b;
                        let w = load(&bytes, 0).expect("eight bytes");
                        let check = |mask: u64, pred: &dyn Fn(u8) -> bool| {
                            let want = bytes.iter().position(|&x| pred(x));
                            let got = (mask != 0).then(|| first(mask));
                            assert_eq!(got, want, "{bytes:?}");
                        };
                        check(equal(w, b'"'), &|x| x == b'"');
                        check(equal(w, 0), &|x| x == 0);
                        check(below(w, 0x20), &|x| x < 0x20);
                        check(non_ascii(w), &|x| x >= 0x80);
                    }
                }
            }
        }
    }
}

/// The bytes of `word` that may need escaping ([`swar`] masks): a control
/// byte, `"`, `\\`, a non-ASCII byte (U+2028 and U+2029 start with one),
/// or with `escape_html` one of `<>&`.
#[inline]
fn bytes_to_look_at(word: u64, escape_html: bool) -> u64 {
    let mut found = swar::below(word, 0x20) | swar::non_ascii(word) | swar::equal(word, b'"') | swar::equal(word, b'\\');
    if escape_html {
        found |= swar::equal(word, b'<') | swar::equal(word, b'>') | swar::equal(word, b'&');
    }
    found
}

/// The index of the first byte of `bytes` from `i` on that may need
/// escaping (`bytes.len()` when none): eight bytes at a time while eight
/// are left (short strings with a quote or two, such as diagnostics'
/// details, would otherwise be read byte by byte), then byte by byte
/// (the last few: copying them into a word cost a `memcpy` call per
/// string).
#[inline]
fn next_to_look_at(bytes: &[u8], mut i: usize, escape_html: bool) -> usize {
    while let Some(w) = swar::load(bytes, i) {
        let found = bytes_to_look_at(w, escape_html);
        if found != 0 {
            return i + swar::first(found);
        }
        i += 8;
    }
    let special = if escape_html { 2 } else { 1 };
    while let Some(&b) = bytes.get(i) {
        if (1..=special).contains(&JSON_SPECIAL[b as usize]) {
            return i;
        }
        i += 1;
    }
    bytes.len()
}

fn write_json_string_impl<T: JsonText + ?Sized>(out: &mut T, s: &str, escape_html: bool) {
    // Most strings need no escape: room for them at once.
    out.reserve(s.len() + 2);
    out.push('"');
    let bytes = s.as_bytes();
    let special = if escape_html { 2 } else { 1 };
    let mut start = 0;
    let mut i = 0;
    loop {
        i = next_to_look_at(bytes, i, escape_html);
        let Some(&b) = bytes.get(i) else { break };
        let kind = JSON_SPECIAL[b as usize];
        if kind == 0 || kind > special {
            i += 1;
            continue;
        }
        if b == 0xE2 {
            // U+2028 and U+2029 are E2 80 A8 / E2 80 A9 in UTF-8.
            if i + 2 < bytes.len() && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9) {
                out.push_str(&s[start..i]);
                out.push_str(if bytes[i + 2] == 0xA8 { "\\u2028" } else { "\\u2029" });
                i += 3;
                start = i;
            } else {
                i += 1;
            }
            continue;
        }
        out.push_str(&s[start..i]);
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            _ => push_hex(out, "\\u00", u32::from(b), 2),
        }
        i += 1;
        start = i;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// `bytes` as text the way Go turns invalid UTF-8 into runes (`[]rune(s)`,
/// `for range`, encoding/json's string decoding): each byte that does not
/// start a valid sequence becomes one U+FFFD. (`String::from_utf8_lossy`
/// replaces a truncated sequence with a single U+FFFD instead.)
pub fn go_lossy_utf8(bytes: &[u8]) -> Cow<'_, str> {
    if let Ok(s) = std::str::from_utf8(bytes) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(bytes.len() + 8);
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        for _ in chunk.invalid() {
            out.push('\u{FFFD}');
        }
    }
    Cow::Owned(out)
}

/// Whether Go's `unicode.IsPrint` (Go 1.19, Unicode 13) would call `c`
/// printable: letters, marks, numbers, punctuation, symbols and the ASCII
/// space. Exact for controls, spaces, format characters (the whole Cf
/// category), private use and non-characters; code points unassigned in
/// Unicode 13 are not all known here and count as printable. This only
/// influences the relative order of structured set elements whose strings
/// hold such characters.
pub fn go_is_print(c: char) -> bool {
    let cp = c as u32;
    if cp < 0x80 {
        return (0x20..0x7f).contains(&cp);
    }
    if cp < 0xA0 || c.is_whitespace() {
        return false;
    }
    let format_or_private = matches!(cp,
        0xAD | 0x0600..=0x0605 | 0x061C | 0x06DD | 0x070F | 0x0890..=0x0891 | 0x08E2 | 0x180E
        | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x206F
        | 0xFEFF | 0xFFF9..=0xFFFB
        | 0x110BD | 0x110CD | 0x13430..=0x13438 | 0x1BCA0..=0x1BCA3 | 0x1D173..=0x1D17A
        | 0xE0000..=0xE007F
        | 0xE000..=0xF8FF | 0xF0000..=0x10FFFF);
    // Non-characters, and a few unassigned code points seen in practice.
    let unassigned =
        matches!(cp, 0xFDD0..=0xFDEF | 0x0378..=0x0379 | 0x0380..=0x0383 | 0x31E4..=0x31EF | 0xD7FC..=0xD7FF) || (cp & 0xFFFE) == 0xFFFE;
    !format_or_private && !unassigned
}

/// Go's `%q` (`strconv.Quote`) of a byte string that may not be valid
/// UTF-8: valid characters as [`write_go_quoted`] writes them, each byte
/// of an invalid sequence as `\xNN` (Go decodes an invalid byte as a
/// one-byte `RuneError` and quotes the byte, not U+FFFD).
pub fn go_quote_bytes(b: &[u8]) -> String {
    let mut out = String::with_capacity(b.len() + 2);
    out.push('"');
    for chunk in b.utf8_chunks() {
        push_go_escaped(&mut out, chunk.valid());
        for &byte in chunk.invalid() {
            push_hex(&mut out, "\\x", u32::from(byte), 2);
        }
    }
    out.push('"');
    out
}

/// Appends `s` quoted as Go's `%q` verb (`strconv.Quote`) would.
pub fn write_go_quoted(out: &mut String, s: &str) {
    out.push('"');
    push_go_escaped(out, s);
    out.push('"');
}

/// `s` quoted as Go's `%q` verb (`strconv.Quote`) would.
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    write_go_quoted(&mut out, s);
    out
}

/// `c` quoted as Go's `strconv.QuoteRune` (the `%q` verb on a rune): in
/// single quotes, where `'` is escaped and `"` is not. encoding/json's
/// `quoteChar` of a byte `b` is this of `char::from(b)`.
pub fn go_quote_rune(c: char) -> String {
    match c {
        '\'' => "'\\''".to_string(),
        '"' => "'\"'".to_string(),
        c => {
            let mut out = String::from("'");
            push_go_escaped(&mut out, c.encode_utf8(&mut [0u8; 4]));
            out.push('\'');
            out
        }
    }
}

/// The inside of a `strconv.Quote` of `s` (`"` escaped, `'` not): Go's
/// `appendEscapedRune` for every character.
fn push_go_escaped(out: &mut String, s: &str) {
    let mut rest = s;
    loop {
        // Printable ASCII other than `"` and `\` stands for itself: whole
        // runs of it at once (names, mostly).
        let plain = rest.bytes().position(|b| !(0x20..0x7f).contains(&b) || b == b'"' || b == b'\\').unwrap_or(rest.len());
        out.push_str(&rest[..plain]);
        rest = &rest[plain..];
        let Some(c) = rest.chars().next() else { return };
        rest = &rest[c.len_utf8()..];
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if go_is_print(c) => out.push(c),
            c => {
                let cp = c as u32;
                if cp < 0x20 || cp == 0x7f {
                    push_hex(out, "\\x", cp, 2);
                } else if cp < 0x10000 {
                    push_hex(out, "\\u", cp, 4);
                } else {
                    push_hex(out, "\\U", cp, 8);
                }
            }
        }
    }
}

/// `prefix` and the low `digits` hex digits of `v` (lower case).
fn push_hex<T: JsonText + ?Sized>(out: &mut T, prefix: &str, v: u32, digits: u32) {
    out.push_str(prefix);
    for i in (0..digits).rev() {
        out.push(HEX_LOWER[((v >> (4 * i)) & 0xf) as usize] as char);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Escaping one character at a time: what the word-at-a-time scan of
    /// `write_json_string_impl` must agree with.
    fn escaped_char_by_char(s: &str, escape_html: bool) -> String {
        let mut out = String::from("\"");
        for c in s.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                '\u{2028}' => out.push_str("\\u2028"),
                '\u{2029}' => out.push_str("\\u2029"),
                c if (c as u32) < 0x20 || (escape_html && "<>&".contains(c)) => out.push_str(&format!("\\u{:04x}", c as u32)),
                c => out.push(c),
            }
        }
        out.push('"');
        out
    }

    #[test]
    fn json_escaping_agrees_at_every_offset_of_a_word() {
        let pieces = ["a", "\"", "\\", "\n", "\u{1}", "\u{7f}", " ", "<", "&", "é", "\u{2028}", "\u{2029}", "\u{2027}", "€", "😀", "~"];
        for a in pieces {
            for b in pieces {
                for pad in 0..10 {
                    let s = format!("{}{a}{}{b}{}", "x".repeat(pad), "y".repeat(pad % 3), "z".repeat(9 - pad));
                    for html in [false, true] {
                        let mut out = String::new();
                        write_json_string_impl(&mut out, &s, html);
                        assert_eq!(out, escaped_char_by_char(&s, html), "{s:?} html {html}");
                    }
                }
            }
        }
    }

    #[test]
    fn json_escaping_matches_go() {
        let cases: &[(&str, &str)] = &[
            ("plain", r#""plain""#),
            ("a\"b\\c", r#""a\"b\\c""#),
            ("\n\r\t\u{1}\u{1f}\u{7f}", r#""\n\r\t\u0001\u001f""#),
            ("<>&", r#""<>&""#),
            ("x\u{2028}y\u{2029}", r#""x\u2028y\u2029""#),
            ("é€😀", "\"é€😀\""),
            ("\u{8}\u{c}", r#""\u0008\u000c""#),
        ];
        for (input, want) in cases {
            let mut out = String::new();
            write_json_string(&mut out, input);
            let want = want.replace("\\u001f\"", "\\u001f\u{7f}\"");
            assert_eq!(out, want, "input {input:?}");
        }
    }

    #[test]
    fn go_quote_rune_matches_strconv() {
        let cases: &[(char, &str)] = &[
            ('a', "'a'"),
            ('\'', r"'\''"),
            ('"', "'\"'"),
            ('\\', r"'\\'"),
            ('\n', r"'\n'"),
            ('\u{1}', r"'\x01'"),
            ('é', "'é'"),
            ('\u{ad}', r"'\u00ad'"),
            ('\u{7f}', r"'\x7f'"),
            ('\u{a0}', r"'\u00a0'"),
            ('\u{2028}', r"'\u2028'"),
            ('\u{fffd}', "'\u{fffd}'"),
            ('\u{110bd}', r"'\U000110bd'"),
        ];
        for &(c, want) in cases {
            assert_eq!(super::go_quote_rune(c), want, "{c:?}");
        }
    }

    #[test]
    fn go_quote() {
        let cases: &[(&str, &str)] = &[
            ("abc", r#""abc""#),
            ("a\"b", r#""a\"b""#),
            ("\u{7}\u{1}\u{7f}", r#""\a\x01\x7f""#),
            ("é", "\"é\""),
            ("\u{a0}", r#""\u00a0""#),
            ("\u{feff}", r#""\ufeff""#),
            ("\u{110bd}", r#""\U000110bd""#),
            ("\u{e0100}\u{1f600}\u{fffd}", "\"\u{e0100}\u{1f600}\u{fffd}\""),
            // As Go 1.19's strconv.Quote writes them.
            ("a\"b'c\\", r#""a\"b'c\\""#),
            ("\u{7}\u{8}\u{c}\n\r\t\u{b}", r#""\a\b\f\n\r\t\v""#),
            ("\u{1}\u{1f}", r#""\x01\x1f""#),
            ("\u{80}\u{9f}\u{ad}", r#""\u0080\u009f\u00ad""#),
            ("\u{2028}\u{2029}\u{3000}\u{200b}\u{85}\u{1680}", r#""\u2028\u2029\u3000\u200b\u0085\u1680""#),
            ("\u{10ffff}\u{effff}\u{fdd0}\u{378}", r#""\U0010ffff\U000effff\ufdd0\u0378""#),
        ];
        for (input, want) in cases {
            let mut out = String::new();
            write_go_quoted(&mut out, input);
            assert_eq!(&out, want);
            assert_eq!(&super::go_quote(input), want);
            assert_eq!(&go_quote_bytes(input.as_bytes()), want);
        }
    }

    #[test]
    fn go_quote_bytes_writes_invalid_bytes_as_hex() {
        // As Go 1.19's strconv.Quote writes them: every byte of an invalid
        // sequence on its own, surrogates included.
        let cases: &[(&[u8], &str)] = &[
            (b"\xe2\x80A", r#""\xe2\x80A""#),
            (b"\xed\xa0\x80", r#""\xed\xa0\x80""#),
            (b"\xff", r#""\xff""#),
            (b"\xc3", r#""\xc3""#),
            (b"a\xc3\xa9\x01\xc3", "\"a\u{e9}\\x01\\xc3\""),
            (b"\xef\xbf\xbd", "\"\u{fffd}\""),
        ];
        for &(input, want) in cases {
            assert_eq!(go_quote_bytes(input), want, "{input:?}");
        }
    }

    #[test]
    fn lossy_utf8_replaces_each_invalid_byte() {
        // As encoding/json decodes "\xe2\x80A\xff\xed\xa0\x80" (Go 1.19).
        assert_eq!(go_lossy_utf8(b"\xe2\x80A\xff\xed\xa0\x80"), "\u{fffd}\u{fffd}A\u{fffd}\u{fffd}\u{fffd}\u{fffd}");
        assert_eq!(go_lossy_utf8(b"\xc3"), "\u{fffd}");
        assert!(matches!(go_lossy_utf8("é".as_bytes()), Cow::Borrowed("é")));
    }

    #[test]
    fn nfc() {
        assert_eq!(normalize_nfc("e\u{301}"), "é");
        assert!(matches!(normalize_nfc("abc"), Cow::Borrowed(_)));
        assert!(matches!(normalize_nfc("é"), Cow::Borrowed(_)));
    }
}
