//! textencodebase64 textdecodebase64 (Packer v1.11.2's own, with
//! golang.org/x/text's `ianaindex` and encodings, 0.7.0 as the oracle
//! builds with).
//!
//! Names resolve as `ianaindex.IANA.Encoding` resolves them: the name with
//! Unicode white space trimmed, as given or lowercased rune by rune, among
//! ianaindex's alias keys ([`tables`](super::textencoding_tables), made
//! from x/text itself); a registered name x/text has no encoding for is
//! refused like an unknown one. Errors name the canonical IANA name.
//!
//! The encodings:
//!
//! - the single-byte charsets (IBM code pages, ISO-8859-x, KOI8, Macintosh,
//!   Windows-125x/874, US-ASCII) are x/text's `charmap` tables, decoding and
//!   encoding, generated into `textencoding_tables.rs` (encoding_rs lacks
//!   most IBM pages and Macintosh, and decodes the C1 bytes of ISO-8859-x,
//!   which x/text leaves undefined);
//! - UTF-8 and the three UTF-16s (`UTF-16`: big endian, a byte order mark
//!   written and, when present, obeyed; `UTF-16BE`/`LE`: none, a U+FEFF is
//!   a character) are written here after x/text's `unicode` package;
//! - the CJK encodings (EUC-JP, ISO-2022-JP, Shift_JIS, EUC-KR, GBK,
//!   GB18030, HZ-GB-2312, Big5) are x/text's, ported with its tables
//!   ([`textencoding_cjk`](super::textencoding_cjk)): encoding_rs follows
//!   the WHATWG standard, from which x/text 0.7 departs in thousands of
//!   code points (JIS X 0212 in EUC-JP, the Shift_JIS extensions, GBK's
//!   euro sign...), and has no HZ-GB-2312.
//!
//! Decoding fails, as in Packer, when the decoder reports an error or its
//! result contains U+FFFD (x/text decoders substitute it for malformed
//! input, so that covers those too).

use super::super::{str_arg, CallCtx, FnError};
use super::encoding::go_base64_decode;
use super::textencoding_cjk as cjk;
use super::textencoding_tables::{ALIASES, ENCODINGS};
use crate::types::Type;
use crate::value::Value;
use base64::Engine as _;

/// How an encoding is implemented.
#[derive(Clone, Copy, Debug)]
pub(super) enum Kind {
    /// A single-byte charset: each byte's character (U+FFFD: undefined).
    Single(&'static [u16; 256]),
    Utf8,
    /// `UTF-16`: big endian, with a byte order mark.
    Utf16Bom,
    Utf16Be,
    Utf16Le,
    EucJp,
    Iso2022Jp,
    ShiftJis,
    EucKr,
    Gb18030,
    Gbk,
    HzGb2312,
    Big5,
}

/// Go's `strings.ToLower` (`unicode.ToLower` per rune).
fn go_lower(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            // The one rune whose full lowercase is two runes.
            '\u{130}' => 'i',
            c => {
                let mut l = c.to_lowercase();
                match (l.next(), l.next()) {
                    (Some(x), None) => x,
                    _ => c,
                }
            }
        })
        .collect()
}

fn find(key: &str) -> Option<usize> {
    ALIASES.binary_search_by(|(k, _)| k.cmp(&key)).ok().map(|i| ALIASES[i].1 as usize)
}

/// `ianaindex.IANA.Encoding(name)` and the encoding's canonical name.
fn lookup(name: &str) -> Option<(&'static str, Kind)> {
    let n = name.trim();
    let i = find(n).or_else(|| find(&go_lower(n)))?;
    Some(ENCODINGS[i])
}

fn not_supported(name: &str) -> FnError {
    FnError::arg(1, format!("{} is not a supported IANA encoding name or alias", crate::strings::go_quote(name)))
}

/// `textencodebase64(string, encoding)`.
pub fn textencodebase64(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let name = str_arg(&args[1]);
    let (canon, kind) = lookup(name).ok_or_else(|| not_supported(name))?;
    let s = str_arg(&args[0]);
    let bytes = encode(kind, s)
        .ok_or_else(|| FnError::arg(0, format!("the given string contains characters that cannot be represented in {canon}")))?;
    // The encoded bytes (at most about twice the text: UTF-16 of ASCII,
    // HZ's escapes) are transient; the base64 text is the result.
    ctx.charge((bytes.len() as u64).div_ceil(3) * 4)?;
    Ok(Value::from_string(base64::engine::general_purpose::STANDARD.encode(bytes)))
}

/// `textdecodebase64(source, encoding)`.
pub fn textdecodebase64(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let name = str_arg(&args[1]);
    let (canon, kind) = lookup(name).ok_or_else(|| not_supported(name))?;
    let s = str_arg(&args[0]);
    let bytes = go_base64_decode(s.as_bytes())
        .map_err(|at| FnError::arg(0, format!("the given value is has an invalid base64 symbol at offset {at}")))?;
    let undefined = || FnError::arg(0, format!("the given string contains symbols that are not defined for {canon}"));
    let text = decode(kind, &bytes).ok_or_else(undefined)?;
    if text.contains('\u{fffd}') {
        return Err(undefined());
    }
    ctx.charge(text.len() as u64)?;
    Ok(Value::from_string(text))
}

fn encode(kind: Kind, s: &str) -> Option<Vec<u8>> {
    match kind {
        Kind::Single(table) => {
            let inverse = inverse(table);
            s.chars().map(|c| inverse.get(&(c as u32)).copied()).collect()
        }
        Kind::Utf8 => Some(s.as_bytes().to_vec()),
        Kind::Utf16Bom => {
            let mut out = vec![0xfe, 0xff];
            out.extend(s.encode_utf16().flat_map(u16::to_be_bytes));
            Some(out)
        }
        Kind::Utf16Be => Some(s.encode_utf16().flat_map(u16::to_be_bytes).collect()),
        Kind::Utf16Le => Some(s.encode_utf16().flat_map(u16::to_le_bytes).collect()),
        Kind::EucJp => cjk::euc_jp_encode(s),
        Kind::Iso2022Jp => cjk::iso2022jp_encode(s),
        Kind::ShiftJis => cjk::shift_jis_encode(s),
        Kind::EucKr => cjk::euc_kr_encode(s),
        Kind::Gbk => cjk::gbk_encode(s, false),
        Kind::Gb18030 => cjk::gbk_encode(s, true),
        Kind::HzGb2312 => cjk::hz_encode(s),
        Kind::Big5 => cjk::big5_encode(s),
    }
}

fn decode(kind: Kind, b: &[u8]) -> Option<String> {
    match kind {
        Kind::Single(table) => Some(b.iter().map(|&x| char::from_u32(table[x as usize] as u32).unwrap_or('\u{fffd}')).collect()),
        Kind::Utf8 => std::str::from_utf8(b).ok().map(str::to_string),
        Kind::Utf16Bom => match b {
            [0xfe, 0xff, rest @ ..] => utf16(rest, true),
            [0xff, 0xfe, rest @ ..] => utf16(rest, false),
            // x/text asks for two bytes to look for the mark: one alone
            // is a short source.
            [_] => None,
            _ => utf16(b, true),
        },
        Kind::Utf16Be => utf16(b, true),
        Kind::Utf16Le => utf16(b, false),
        Kind::EucJp => cjk::euc_jp_decode(b),
        Kind::Iso2022Jp => cjk::iso2022jp_decode(b),
        Kind::ShiftJis => cjk::shift_jis_decode(b),
        Kind::EucKr => cjk::euc_kr_decode(b),
        Kind::Gbk => cjk::gbk_decode(b, false),
        Kind::Gb18030 => cjk::gbk_decode(b, true),
        Kind::HzGb2312 => cjk::hz_decode(b),
        Kind::Big5 => cjk::big5_decode(b),
    }
}

/// UTF-16 without a byte order mark; `None` when malformed (x/text
/// decodes U+FFFD there).
fn utf16(b: &[u8], big_endian: bool) -> Option<String> {
    if b.len() % 2 != 0 {
        return None;
    }
    let units = b.chunks_exact(2).map(|p| if big_endian { u16::from_be_bytes([p[0], p[1]]) } else { u16::from_le_bytes([p[0], p[1]]) });
    char::decode_utf16(units).collect::<Result<String, _>>().ok()
}

/// The encoding of a single-byte table, built once per table.
fn inverse(table: &'static [u16; 256]) -> &'static std::collections::HashMap<u32, u8> {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static CACHE: OnceLock<Mutex<HashMap<usize, &'static HashMap<u32, u8>>>> = OnceLock::new();
    let mut cache = CACHE.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    cache.entry(table.as_ptr() as usize).or_insert_with(|| {
        let map: HashMap<u32, u8> = table.iter().enumerate().filter(|(_, &c)| c != 0xfffd).map(|(b, &c)| (c as u32, b as u8)).collect();
        Box::leak(Box::new(map))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_resolve_as_ianaindex() {
        assert_eq!(lookup(" utf-8\n").map(|e| e.0), Some("UTF-8"));
        assert_eq!(lookup("LATIN1").map(|e| e.0), Some("ISO_8859-1:1987"));
        assert_eq!(lookup("\u{130}so-8859-1").map(|e| e.0), Some("ISO_8859-1:1987"));
        assert!(lookup("utf-32").is_none());
    }

    #[test]
    fn hz_as_x_text() {
        assert_eq!(cjk::hz_encode("a~中b").unwrap(), b"a~~~{VP~}b");
        assert_eq!(cjk::hz_decode(b"a~~~{VP~}b").unwrap(), "a~中b");
    }
}

/// Compares with a dump of x/text's CJK encoders and decoders (every BMP
/// character, every one- and two-byte input; or astral characters, the
/// three- and four-byte forms and random runs of stateful ones), made by a Go program:
/// `HCLVM_XTEXT_DUMP=dump.txt cargo test -p hclvm-runtime xtext_dump -- --ignored`.
#[cfg(test)]
mod dump {
    use super::*;

    fn unhex(s: &str) -> Vec<u8> {
        (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
    }

    #[test]
    #[ignore]
    fn xtext_dump() {
        let Ok(path) = std::env::var("HCLVM_XTEXT_DUMP") else { return };
        let text = std::fs::read_to_string(path).unwrap();
        let mut bad: std::collections::BTreeMap<String, (usize, Vec<String>)> = Default::default();
        for line in text.lines() {
            let f: Vec<&str> = line.split(' ').collect();
            let (_, kind) = lookup(f[1]).unwrap();
            let (got, want) = if f[0] == "S" {
                let text = String::from_utf8(unhex(f[2])).unwrap();
                (encode(kind, &text), (f[3] != "-").then(|| unhex(f[3])))
            } else if f[0] == "E" {
                let c = char::from_u32(u32::from_str_radix(f[2], 16).unwrap()).unwrap();
                (encode(kind, &c.to_string()), (f[3] != "-").then(|| unhex(f[3])))
            } else {
                let d = decode(kind, &unhex(f[2])).filter(|t| !t.contains('\u{fffd}'));
                (d.map(String::into_bytes), (f[3] != "-").then(|| unhex(f[3])))
            };
            if got != want {
                let e = bad.entry(format!("{} {}", f[0], f[1])).or_default();
                e.0 += 1;
                if e.1.len() < 8 {
                    e.1.push(format!("{line} got {:x?}", got));
                }
            }
        }
        for (k, (n, ex)) in &bad {
            eprintln!("{k}: {n} differ, e.g.\n  {}", ex.join("\n  "));
        }
        assert!(bad.is_empty());
    }
}
