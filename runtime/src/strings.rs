//! String helpers shared by the value model: NFC normalization (every cty
//! string is NFC, see `nfc.rs`), Go `encoding/json` string escaping (for byte-identical
//! result encoding) and Go `%q` quoting (cty's set hashing uses it, and set
//! iteration order of structured elements depends on those bytes).

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
pub fn write_json_string(out: &mut String, s: &str) {
    write_json_string_impl(out, s, false)
}

/// Like [`write_json_string`] but with Go's default HTML escaping (as
/// `json.Marshal` does): `<`, `>` and `&` become `\u003c`, `\u003e`,
/// `\u0026`. This is what cty's JSON marshalling (`jsonencode`) writes.
pub fn write_json_string_html(out: &mut String, s: &str) {
    write_json_string_impl(out, s, true)
}

fn write_json_string_impl(out: &mut String, s: &str, escape_html: bool) {
    out.push('"');
    let bytes = s.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b < 0x80 {
            if b >= 0x20
                && b != b'"'
                && b != b'\\'
                && !(escape_html && (b == b'<' || b == b'>' || b == b'&'))
            {
                i += 1;
                continue;
            }
            out.push_str(&s[start..i]);
            match b {
                b'"' => out.push_str("\\\""),
                b'\\' => out.push_str("\\\\"),
                b'\n' => out.push_str("\\n"),
                b'\r' => out.push_str("\\r"),
                b'\t' => out.push_str("\\t"),
                _ => {
                    out.push_str("\\u00");
                    out.push(HEX_LOWER[(b >> 4) as usize] as char);
                    out.push(HEX_LOWER[(b & 0xf) as usize] as char);
                }
            }
            i += 1;
            start = i;
            continue;
        }
        // U+2028 and U+2029 are E2 80 A8 / E2 80 A9 in UTF-8.
        if b == 0xE2
            && i + 2 < bytes.len()
            && bytes[i + 1] == 0x80
            && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9)
        {
            out.push_str(&s[start..i]);
            out.push_str(if bytes[i + 2] == 0xA8 {
                "\\u2028"
            } else {
                "\\u2029"
            });
            i += 3;
            start = i;
            continue;
        }
        i += 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
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
    let unassigned = matches!(cp, 0xFDD0..=0xFDEF | 0x0378..=0x0379 | 0x0380..=0x0383 | 0x31E4..=0x31EF | 0xD7FC..=0xD7FF)
        || (cp & 0xFFFE) == 0xFFFE;
    !format_or_private && !unassigned
}

/// Go's `%q` of a byte string that may not be valid UTF-8: valid
/// characters as [`write_go_quoted`] writes them, other bytes as `\xNN`.
pub fn go_quote_bytes(b: &[u8]) -> String {
    let mut out = String::from("\"");
    for chunk in b.utf8_chunks() {
        let mut q = String::new();
        write_go_quoted(&mut q, chunk.valid());
        out.push_str(&q[1..q.len() - 1]);
        for byte in chunk.invalid() {
            out.push_str("\\x");
            out.push(HEX_LOWER[(byte >> 4) as usize] as char);
            out.push(HEX_LOWER[(byte & 0xf) as usize] as char);
        }
    }
    out.push('"');
    out
}

/// Appends `s` quoted as Go's `%q` verb (strconv.Quote) would.
pub fn write_go_quoted(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
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
                    out.push_str("\\x");
                    out.push(HEX_LOWER[(cp >> 4) as usize] as char);
                    out.push(HEX_LOWER[(cp & 0xf) as usize] as char);
                } else if cp < 0x10000 {
                    out.push_str("\\u");
                    for shift in [12, 8, 4, 0] {
                        out.push(HEX_LOWER[((cp >> shift) & 0xf) as usize] as char);
                    }
                } else {
                    out.push_str("\\U");
                    for shift in [28, 24, 20, 16, 12, 8, 4, 0] {
                        out.push(HEX_LOWER[((cp >> shift) & 0xf) as usize] as char);
                    }
                }
            }
        }
    }
    out.push('"');
}

/// `s` quoted as Go's `%q` verb would.
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    write_go_quoted(&mut out, s);
    out
}

/// `c` quoted as Go's `strconv.QuoteRune` (the `%q` verb on a rune): in
/// single quotes, where `'` is escaped and `"` is not.
pub fn go_quote_rune(c: char) -> String {
    match c {
        '\'' => "'\\''".to_string(),
        '"' => "'\"'".to_string(),
        c => {
            let q = go_quote(c.encode_utf8(&mut [0u8; 4]));
            format!("'{}'", q.get(1..q.len() - 1).unwrap_or_default())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            (
                "\u{e0100}\u{1f600}\u{fffd}",
                "\"\u{e0100}\u{1f600}\u{fffd}\"",
            ),
        ];
        for (input, want) in cases {
            let mut out = String::new();
            write_go_quoted(&mut out, input);
            assert_eq!(&out, want);
        }
    }

    #[test]
    fn nfc() {
        assert_eq!(normalize_nfc("e\u{301}"), "é");
        assert!(matches!(normalize_nfc("abc"), Cow::Borrowed(_)));
        assert!(matches!(normalize_nfc("é"), Cow::Borrowed(_)));
    }
}
