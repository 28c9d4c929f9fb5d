//! golang.org/x/text's CJK encodings (0.7.0, as the oracle builds with),
//! ported from its `japanese`, `korean`, `simplifiedchinese` and
//! `traditionalchinese` packages on their own tables
//! (`textencoding_cjk_tables.rs`, generated from x/text's sources).
//!
//! encoding_rs follows the WHATWG encoding standard, which x/text 0.7
//! departs from in places: x/text's EUC-JP encodes JIS X 0212, its
//! Shift_JIS encodes the NEC and IBM extensions differently and decodes
//! 0x80, its GBK has no euro-sign duplicates, its ISO-2022-JP passes ESC,
//! SO and SI through and writes half-width katakana with `ESC ( I`, and
//! HZ-GB-2312 is missing from encoding_rs altogether.
//!
//! Decoders return `None` where x/text would write U+FFFD (Packer refuses
//! any result with one); encoders return `None` where x/text reports that
//! a character cannot be encoded.

use super::textencoding_cjk_tables::{japanese, korean, simplified, traditional};

/// The first `encodeN` table whose range holds `r`, and its entry (0: none).
fn lookup(tables: &[(u32, u32, &[u16])], r: u32) -> Option<u32> {
    let (lo, _, t) = tables.iter().find(|(lo, hi, _)| *lo <= r && r < *hi)?;
    t.get((r - lo) as usize).map(|&v| v as u32)
}

fn push(out: &mut String, r: u32) -> Option<()> {
    out.push(char::from_u32(r).filter(|&c| c != '\u{fffd}' && r != 0)?);
    Some(())
}

// ----- japanese ---------------------------------------------------------------

const JIS0208: u32 = 1;
const CODE_MASK: u32 = 0x7f;
const CODE_SHIFT: u32 = 7;
const TABLE_SHIFT: u32 = 14;

fn jis0208(i: usize) -> Option<u32> {
    japanese::JIS_0208DECODE.get(i).map(|&v| v as u32)
}

fn jis0212(i: usize) -> Option<u32> {
    japanese::JIS_0212DECODE.get(i).map(|&v| v as u32)
}

pub(super) fn euc_jp_decode(src: &[u8]) -> Option<String> {
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < src.len() {
        let c0 = src[i];
        if c0 < 0x80 {
            out.push(c0 as char);
            i += 1;
        } else if c0 == 0x8e {
            let c1 = *src.get(i + 1)?;
            if !(0xa1..=0xdf).contains(&c1) {
                return None;
            }
            push(&mut out, c1 as u32 + (0xff61 - 0xa1))?;
            i += 2;
        } else if c0 == 0x8f {
            let (c1, c2) = (*src.get(i + 1)?, *src.get(i + 2)?);
            if !(0xa1..=0xfe).contains(&c1) || !(0xa1..=0xfe).contains(&c2) {
                return None;
            }
            push(&mut out, jis0212((c1 - 0xa1) as usize * 94 + (c2 - 0xa1) as usize)?)?;
            i += 3;
        } else if (0xa1..=0xfe).contains(&c0) {
            let c1 = *src.get(i + 1)?;
            if !(0xa1..=0xfe).contains(&c1) {
                return None;
            }
            push(&mut out, jis0208((c0 - 0xa1) as usize * 94 + (c1 - 0xa1) as usize)?)?;
            i += 2;
        } else {
            return None;
        }
    }
    Some(out)
}

pub(super) fn euc_jp_encode(s: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len());
    for c in s.chars() {
        let r = c as u32;
        if r < 0x80 {
            out.push(r as u8);
            continue;
        }
        if (0xff61..0xffa0).contains(&r) {
            out.extend([0x8e, (r - (0xff61 - 0xa1)) as u8]);
            continue;
        }
        let v = lookup(&japanese::ENCODE, r).filter(|&v| v != 0)?;
        if v >> TABLE_SHIFT != JIS0208 {
            out.push(0x8f);
        }
        out.push(0xa1 + ((v >> CODE_SHIFT) & CODE_MASK) as u8);
        out.push(0xa1 + (v & CODE_MASK) as u8);
    }
    Some(out)
}

pub(super) fn shift_jis_decode(src: &[u8]) -> Option<String> {
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < src.len() {
        let c0 = src[i];
        if c0 < 0x80 {
            out.push(c0 as char);
            i += 1;
        } else if (0xa1..0xe0).contains(&c0) {
            push(&mut out, c0 as u32 + (0xff61 - 0xa1))?;
            i += 1;
        } else if (0x81..0xa0).contains(&c0) || (0xe0..0xfd).contains(&c0) {
            let mut c0 = if c0 <= 0x9f { c0.wrapping_sub(0x70) } else { c0.wrapping_sub(0xb0) };
            c0 = c0.wrapping_mul(2).wrapping_sub(0x21);
            let mut c1 = *src.get(i + 1)?;
            match c1 {
                0..=0x3f | 0x7f | 0xfd..=0xff => return None,
                0x40..=0x7e => {
                    c0 = c0.wrapping_sub(1);
                    c1 -= 0x40;
                }
                0x80..=0x9e => {
                    c0 = c0.wrapping_sub(1);
                    c1 -= 0x41;
                }
                _ => c1 -= 0x9f,
            }
            push(&mut out, jis0208(c0 as usize * 94 + c1 as usize)?)?;
            i += 2;
        } else if c0 == 0x80 {
            out.push('\u{80}');
            i += 1;
        } else {
            return None;
        }
    }
    Some(out)
}

pub(super) fn shift_jis_encode(s: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len());
    for c in s.chars() {
        let r = c as u32;
        if r < 0x80 {
            out.push(r as u8);
            continue;
        }
        if (0xff61..0xffa0).contains(&r) {
            out.push((r - (0xff61 - 0xa1)) as u8);
            continue;
        }
        let v = lookup(&japanese::ENCODE, r).filter(|&v| v >> TABLE_SHIFT == JIS0208)?;
        let j1 = ((v >> CODE_SHIFT) & CODE_MASK) as u8;
        let j2 = (v & CODE_MASK) as u8;
        out.push(if j1 <= 61 { 129 + j1 / 2 } else { 193 + j1 / 2 });
        out.push(if j1 & 1 == 0 { j2 + j2 / 63 + 64 } else { j2 + 159 });
    }
    Some(out)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Jis {
    Ascii,
    Katakana,
    Jis0208,
    Jis0212,
}

pub(super) fn iso2022jp_decode(src: &[u8]) -> Option<String> {
    let mut out = String::with_capacity(src.len());
    let mut state = Jis::Ascii;
    let mut i = 0;
    while i < src.len() {
        let c0 = src[i];
        if c0 >= 0x80 {
            return None;
        }
        if c0 == 0x1b {
            let (c1, c2) = (*src.get(i + 1)?, *src.get(i + 2)?);
            match (c1, c2) {
                (b'$', b'@' | b'B') => state = Jis::Jis0208,
                (b'$', b'(') => {
                    if *src.get(i + 3)? != b'D' {
                        return None;
                    }
                    state = Jis::Jis0212;
                    i += 1;
                }
                (b'(', b'B' | b'J') => state = Jis::Ascii,
                (b'(', b'I') => state = Jis::Katakana,
                _ => return None,
            }
            i += 3;
            continue;
        }
        match state {
            Jis::Ascii => {
                out.push(c0 as char);
                i += 1;
            }
            Jis::Katakana => {
                if !(0x21..0x60).contains(&c0) {
                    return None;
                }
                push(&mut out, c0 as u32 + (0xff61 - 0x21))?;
                i += 1;
            }
            _ => {
                if c0 == 0x0a {
                    state = Jis::Ascii;
                    out.push('\n');
                    i += 1;
                    continue;
                }
                let c1 = *src.get(i + 1)?;
                let k = c0.wrapping_sub(0x21) as usize * 94 + c1.wrapping_sub(0x21) as usize;
                push(&mut out, if state == Jis::Jis0208 { jis0208(k)? } else { jis0212(k)? })?;
                i += 2;
            }
        }
    }
    Some(out)
}

pub(super) fn iso2022jp_encode(s: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len());
    let mut state = Jis::Ascii;
    for c in s.chars() {
        let r = c as u32;
        if r < 0x80 {
            if state != Jis::Ascii {
                state = Jis::Ascii;
                out.extend(b"\x1b(B");
            }
            out.push(r as u8);
            continue;
        }
        if (0xff61..0xffa0).contains(&r) {
            if state != Jis::Katakana {
                state = Jis::Katakana;
                out.extend(b"\x1b(I");
            }
            out.push((r - (0xff61 - 0x21)) as u8);
            continue;
        }
        let v = lookup(&japanese::ENCODE, r).filter(|&v| v >> TABLE_SHIFT == JIS0208)?;
        if state != Jis::Jis0208 {
            state = Jis::Jis0208;
            out.extend(b"\x1b$B");
        }
        out.push(0x21 + ((v >> CODE_SHIFT) & CODE_MASK) as u8);
        out.push(0x21 + (v & CODE_MASK) as u8);
    }
    if state != Jis::Ascii {
        out.extend(b"\x1b(B");
    }
    Some(out)
}

// ----- korean -------------------------------------------------------------------

pub(super) fn euc_kr_decode(src: &[u8]) -> Option<String> {
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < src.len() {
        let c0 = src[i];
        if c0 < 0x80 {
            out.push(c0 as char);
            i += 1;
            continue;
        }
        if !(0x81..0xff).contains(&c0) {
            return None;
        }
        let c1 = *src.get(i + 1)? as u32;
        let r = if c0 < 0xc7 {
            let base = 178 * (c0 as u32 - 0x81);
            match c1 {
                0x41..=0x5a => base + c1 - 0x41,
                0x61..=0x7a => base + c1 - (0x61 - 26),
                0x81..=0xfe => base + c1 - (0x81 - 2 * 26),
                _ => return None,
            }
        } else if (0xa1..0xff).contains(&c1) {
            178 * (0xc7 - 0x81) + (c0 as u32 - 0xc7) * 94 + (c1 - 0xa1)
        } else {
            return None;
        };
        push(&mut out, *korean::DECODE.get(r as usize)? as u32)?;
        i += 2;
    }
    Some(out)
}

/// Encoders whose two-byte codes are the table entries themselves.
fn two_byte_encode(s: &str, tables: &[(u32, u32, &[u16])]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len());
    for c in s.chars() {
        let r = c as u32;
        if r < 0x80 {
            out.push(r as u8);
            continue;
        }
        let v = lookup(tables, r).filter(|&v| v != 0)?;
        out.extend([(v >> 8) as u8, v as u8]);
    }
    Some(out)
}

pub(super) fn euc_kr_encode(s: &str) -> Option<Vec<u8>> {
    two_byte_encode(s, &korean::ENCODE)
}

// ----- simplified chinese -------------------------------------------------------

pub(super) fn gbk_decode(src: &[u8], gb18030: bool) -> Option<String> {
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < src.len() {
        let c0 = src[i];
        if c0 < 0x80 {
            out.push(c0 as char);
            i += 1;
            continue;
        }
        if c0 == 0x80 {
            out.push('€');
            i += 1;
            continue;
        }
        if c0 == 0xff {
            return None;
        }
        let c1 = *src.get(i + 1)?;
        let c1 = match c1 {
            0x40..=0x7e => c1 - 0x40,
            0x80..=0xfe => c1 - 0x41,
            0x30..=0x3f if gb18030 => {
                let (c2, c3) = (*src.get(i + 2)?, *src.get(i + 3)?);
                if !(0x81..0xff).contains(&c2) || !(0x30..0x3a).contains(&c3) {
                    return None;
                }
                let mut r = (((c0 as u32 - 0x81) * 10 + (c1 as u32 - 0x30)) * 126 + (c2 as u32 - 0x81)) * 10 + (c3 as u32 - 0x30);
                if r < 39420 {
                    let t = &simplified::GB_18030;
                    let k = t.partition_point(|p| r >= p[0] as u32);
                    let dec = t[k.checked_sub(1)?];
                    r = r + dec[1] as u32 - dec[0] as u32;
                } else {
                    r = r.checked_sub(189000).filter(|&r| r < 0x100000)? + 0x10000;
                }
                push(&mut out, r)?;
                i += 4;
                continue;
            }
            _ => return None,
        };
        push(&mut out, *simplified::DECODE.get((c0 - 0x81) as usize * 190 + c1 as usize)? as u32)?;
        i += 2;
    }
    Some(out)
}

pub(super) fn gbk_encode(s: &str, gb18030: bool) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len());
    for c in s.chars() {
        let mut r = c as u32;
        if r < 0x80 {
            out.push(r as u8);
            continue;
        }
        let in_range = simplified::ENCODE.iter().position(|(lo, hi, _)| *lo <= r && r < *hi);
        if in_range == Some(1) && !gb18030 && c == '€' {
            out.push(0x80);
            continue;
        }
        if let Some(v) = lookup(&simplified::ENCODE, r).filter(|&v| v != 0) {
            out.extend([(v >> 8) as u8, v as u8]);
            continue;
        }
        if !gb18030 {
            return None;
        }
        if r < 0x10000 {
            let t = &simplified::GB_18030;
            let k = t.partition_point(|p| r >= p[1] as u32);
            let dec = t[k.checked_sub(1)?];
            r = r + dec[0] as u32 - dec[1] as u32;
        } else {
            r += 189000 - 0x10000;
        }
        let b3 = (r % 10) as u8 + 0x30;
        r /= 10;
        let b2 = (r % 126) as u8 + 0x81;
        r /= 126;
        let b1 = (r % 10) as u8 + 0x30;
        r /= 10;
        out.extend([(r as u8).wrapping_add(0x81), b1, b2, b3]);
    }
    Some(out)
}

/// x/text's HZ-GB-2312 decoder.
pub(super) fn hz_decode(src: &[u8]) -> Option<String> {
    let mut out = String::with_capacity(src.len());
    let mut gb = false;
    let mut i = 0;
    while i < src.len() {
        let c0 = src[i];
        if c0 >= 0x80 {
            return None;
        }
        if c0 == b'~' {
            match src.get(i + 1)? {
                b'{' => gb = true,
                b'}' => gb = false,
                b'~' => out.push('~'),
                b'\n' => {}
                _ => return None,
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
        push(&mut out, *simplified::DECODE.get((c0 - 0x01) as usize * 190 + (c1 + 0x3f) as usize)? as u32)?;
        i += 2;
    }
    Some(out)
}

/// x/text's HZ-GB-2312 encoder (which leaves a final GB run open).
pub(super) fn hz_encode(s: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len());
    let mut gb = false;
    for c in s.chars() {
        let r = c as u32;
        if r < 0x80 {
            if r == u32::from(b'~') {
                out.extend(b"~~");
                continue;
            }
            if gb {
                gb = false;
                out.extend(b"~}");
            }
            out.push(r as u8);
            continue;
        }
        let v = lookup(&simplified::ENCODE, r).filter(|&v| v != 0)?;
        let (c0, c1) = (((v >> 8) as u8).wrapping_sub(0x80), (v as u8).wrapping_sub(0x80));
        if !(0x21..0x7e).contains(&c0) || !(0x21..0x7f).contains(&c1) {
            return None;
        }
        if !gb {
            gb = true;
            out.extend(b"~{");
        }
        out.extend([c0, c1]);
    }
    Some(out)
}

// ----- traditional chinese --------------------------------------------------------

pub(super) fn big5_decode(src: &[u8]) -> Option<String> {
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < src.len() {
        let c0 = src[i];
        if c0 < 0x80 {
            out.push(c0 as char);
            i += 1;
            continue;
        }
        if !(0x81..0xff).contains(&c0) {
            return None;
        }
        let c1 = *src.get(i + 1)?;
        let c1 = match c1 {
            0x40..=0x7e => c1 - 0x40,
            0xa1..=0xfe => c1 - 0x62,
            _ => return None,
        };
        let k = (c0 - 0x81) as usize * 157 + c1 as usize;
        if k >= traditional::DECODE.len() {
            return None;
        }
        match k {
            1133 => out.push_str("\u{CA}\u{304}"),
            1135 => out.push_str("\u{CA}\u{30C}"),
            1164 => out.push_str("\u{EA}\u{304}"),
            1166 => out.push_str("\u{EA}\u{30C}"),
            _ => push(&mut out, traditional::DECODE[k])?,
        }
        i += 2;
    }
    Some(out)
}

pub(super) fn big5_encode(s: &str) -> Option<Vec<u8>> {
    two_byte_encode(s, &traditional::ENCODE)
}
