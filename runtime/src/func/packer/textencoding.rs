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
//! - HZ-GB-2312, which encoding_rs does not have, is x/text's
//!   `hzgb2312.go` ported, on the GBK two-byte table of encoding_rs;
//! - the other CJK encodings (EUC-JP, ISO-2022-JP, Shift_JIS, EUC-KR, GBK,
//!   GB18030, Big5) are encoding_rs's, which implement the same WHATWG
//!   tables as x/text.
//!
//! Decoding fails, as in Packer, when the decoder reports an error or its
//! result contains U+FFFD (x/text decoders substitute it for malformed
//! input, so that covers those too).

use super::super::{str_arg, CallCtx, FnError};
use super::encoding::go_base64_decode;
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
    // Encodings produce at most four bytes per byte of UTF-8 (UTF-16 of
    // ASCII is two, HZ's escapes add a few), base64 adds a third.
    ctx.charge((s.len() as u64).saturating_mul(6).saturating_add(8))?;
    let bytes = encode(kind, s)
        .ok_or_else(|| FnError::arg(0, format!("the given string contains characters that cannot be represented in {canon}")))?;
    Ok(Value::from_string(base64::engine::general_purpose::STANDARD.encode(bytes)))
}

/// `textdecodebase64(source, encoding)`.
pub fn textdecodebase64(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let name = str_arg(&args[1]);
    let (canon, kind) = lookup(name).ok_or_else(|| not_supported(name))?;
    let s = str_arg(&args[0]);
    let bytes = go_base64_decode(s.as_bytes())
        .map_err(|at| FnError::arg(0, format!("the given value is has an invalid base64 symbol at offset {at}")))?;
    ctx.charge((bytes.len() as u64).saturating_mul(3))?;
    let undefined = || FnError::arg(0, format!("the given string contains symbols that are not defined for {canon}"));
    let text = decode(kind, &bytes).ok_or_else(undefined)?;
    if text.contains('\u{fffd}') {
        return Err(undefined());
    }
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
        Kind::HzGb2312 => Some(hz_encode(s)?),
        _ => {
            let enc = rs_encoding(kind);
            let mut encoder = enc.new_encoder();
            let cap = encoder.max_buffer_length_from_utf8_without_replacement(s.len())?;
            let mut out = Vec::with_capacity(cap);
            let (result, _) = encoder.encode_from_utf8_to_vec_without_replacement(s, &mut out, true);
            match result {
                encoding_rs::EncoderResult::InputEmpty => Some(out),
                _ => None,
            }
        }
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
        Kind::HzGb2312 => hz_decode(b),
        _ => {
            let (text, malformed) = rs_encoding(kind).decode_without_bom_handling(b);
            (!malformed).then(|| text.into_owned())
        }
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

fn rs_encoding(kind: Kind) -> &'static encoding_rs::Encoding {
    match kind {
        Kind::EucJp => encoding_rs::EUC_JP,
        Kind::Iso2022Jp => encoding_rs::ISO_2022_JP,
        Kind::ShiftJis => encoding_rs::SHIFT_JIS,
        Kind::EucKr => encoding_rs::EUC_KR,
        Kind::Gb18030 => encoding_rs::GB18030,
        Kind::Big5 => encoding_rs::BIG5,
        _ => encoding_rs::GBK,
    }
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

/// The GBK two-byte character of `c0 c1` (both with the high bit set).
fn gbk_pair(c0: u8, c1: u8) -> Option<char> {
    let pair = [c0, c1];
    let (text, malformed) = encoding_rs::GBK.decode_without_bom_handling(&pair);
    let mut chars = text.chars();
    match (malformed, chars.next(), chars.next()) {
        (false, Some(c), None) => Some(c),
        _ => None,
    }
}

/// x/text's HZ-GB-2312 decoder; `None` where it writes U+FFFD.
fn hz_decode(src: &[u8]) -> Option<String> {
    let mut out = String::new();
    let mut gb = false;
    let mut i = 0;
    while i < src.len() {
        let c0 = src[i];
        if c0 >= 0x80 {
            return None;
        }
        if c0 == b'~' {
            match src.get(i + 1) {
                None => return None,
                Some(b'{') => gb = true,
                Some(b'}') => gb = false,
                Some(b'~') => out.push('~'),
                Some(b'\n') => {}
                Some(_) => return None,
            }
            i += 2;
            continue;
        }
        if !gb {
            out.push(c0 as char);
            i += 1;
            continue;
        }
        let c1 = *src.get(i + 1)?;
        if !(0x21..0x7e).contains(&c0) || !(0x21..0x7f).contains(&c1) {
            return None;
        }
        out.push(gbk_pair(c0 | 0x80, c1 | 0x80)?);
        i += 2;
    }
    Some(out)
}

/// x/text's HZ-GB-2312 encoder (which leaves a final GB run open).
fn hz_encode(s: &str) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut gb = false;
    let mut encoder = encoding_rs::GBK.new_encoder();
    for c in s.chars() {
        if c.is_ascii() {
            if c == '~' {
                out.extend_from_slice(b"~~");
                continue;
            }
            if gb {
                gb = false;
                out.extend_from_slice(b"~}");
            }
            out.push(c as u8);
            continue;
        }
        let mut buf = [0u8; 4];
        let mut pair = Vec::with_capacity(4);
        let (result, _) = encoder.encode_from_utf8_to_vec_without_replacement(c.encode_utf8(&mut buf), &mut pair, false);
        let (c0, c1) = match (result, pair.as_slice()) {
            (encoding_rs::EncoderResult::InputEmpty, &[a, b]) => (a.wrapping_sub(0x80), b.wrapping_sub(0x80)),
            _ => return None,
        };
        if !(0x21..0x7e).contains(&c0) || !(0x21..0x7f).contains(&c1) {
            return None;
        }
        if !gb {
            gb = true;
            out.extend_from_slice(b"~{");
        }
        out.push(c0);
        out.push(c1);
    }
    Some(out)
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
        assert_eq!(hz_encode("a~中b").unwrap(), b"a~~~{VP~}b");
        assert_eq!(hz_decode(b"a~~~{VP~}b").unwrap(), "a~中b");
    }
}

/// Compares with a dump of x/text's CJK encoders and decoders (every BMP
/// character, every one- and two-byte input), made by a Go program:
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
            let (got, want) = if f[0] == "E" {
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
