//! base64encode base64decode urlencode (hashicorp/go-cty-funcs `encoding`).
//!
//! Encoding is the `base64` crate's standard alphabet with padding. Decoding
//! is Go's `base64.StdEncoding.DecodeString`, ported here: the crate refuses
//! what Go accepts (non-zero trailing bits, line breaks anywhere) and has no
//! notion of Go's error offsets, which `textdecodebase64` reports.

use super::super::{str_arg, CallCtx, FnError};
use crate::types::Type;
use crate::value::Value;
use base64::Engine as _;

pub fn base64encode(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let s = str_arg(&args[0]);
    ctx.charge((s.len() as u64 / 3 + 1) * 4)?;
    Ok(Value::from_string(base64::engine::general_purpose::STANDARD.encode(s.as_bytes())))
}

pub fn base64decode(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let s = str_arg(&args[0]);
    ctx.scan(s);
    ctx.charge(s.len() as u64 / 4 * 3)?;
    let bytes = go_base64_decode(s.as_bytes()).map_err(|_| FnError::new(format!("failed to decode base64 data '{s}'")))?;
    match String::from_utf8(bytes) {
        Ok(text) => Ok(Value::from_string(text)),
        Err(_) => Err(FnError::new("the result of decoding the the provided string is not valid UTF-8")),
    }
}

const fn decode_map() -> [u8; 256] {
    let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut m = [0xffu8; 256];
    let mut i = 0;
    while i < 64 {
        m[alphabet[i] as usize] = i as u8;
        i += 1;
    }
    m
}

static DECODE_MAP: [u8; 256] = decode_map();

/// Go's `base64.StdEncoding.DecodeString`; the error is Go's
/// `CorruptInputError` offset.
pub fn go_base64_decode(src: &[u8]) -> Result<Vec<u8>, usize> {
    let mut out = Vec::with_capacity(src.len() / 4 * 3 + 3);
    let mut si = 0;
    while si < src.len() {
        let (nsi, dbuf, n, err) = decode_quantum(src, si);
        out.extend_from_slice(&dbuf[..n]);
        if let Some(e) = err {
            return Err(e);
        }
        si = nsi;
    }
    Ok(out)
}

/// One quantum of Go's `(*Encoding).decodeQuantum` (non-strict, padding
/// `=`): the next source index, the decoded bytes and how many there are,
/// and an error offset.
fn decode_quantum(src: &[u8], mut si: usize) -> (usize, [u8; 3], usize, Option<usize>) {
    let mut dbuf = [0u8; 4];
    let mut dlen = 4;
    let mut err = None;
    let mut j = 0;
    while j < 4 {
        if src.len() == si {
            if j == 0 {
                return (si, [0; 3], 0, None);
            }
            // j == 1, or any partial quantum (the padding is required).
            return (si, [0; 3], 0, Some(si - j));
        }
        let c = src[si];
        si += 1;
        let out = DECODE_MAP[c as usize];
        if out != 0xff {
            dbuf[j] = out;
            j += 1;
            continue;
        }
        if c == b'\n' || c == b'\r' {
            continue;
        }
        if c != b'=' {
            return (si, [0; 3], 0, Some(si - 1));
        }
        // Padding: the end.
        match j {
            0 | 1 => return (si, [0; 3], 0, Some(si - 1)),
            2 => {
                while si < src.len() && (src[si] == b'\n' || src[si] == b'\r') {
                    si += 1;
                }
                if si == src.len() {
                    return (si, [0; 3], 0, Some(src.len()));
                }
                if src[si] != b'=' {
                    return (si, [0; 3], 0, Some(si - 1));
                }
                si += 1;
            }
            _ => {}
        }
        while si < src.len() && (src[si] == b'\n' || src[si] == b'\r') {
            si += 1;
        }
        if si < src.len() {
            err = Some(si);
        }
        dlen = j;
        break;
    }
    let val = (dbuf[0] as u32) << 18 | (dbuf[1] as u32) << 12 | (dbuf[2] as u32) << 6 | dbuf[3] as u32;
    let bytes = [(val >> 16) as u8, (val >> 8) as u8, val as u8];
    (si, bytes, dlen - 1, err)
}

/// Go's `url.QueryEscape`.
pub fn query_escape(s: &str) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(s.len());
    for &b in s.as_bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => out.push(b as char),
            b' ' => out.push('+'),
            _ => {
                out.push('%');
                out.push(HEX[(b >> 4) as usize] as char);
                out.push(HEX[(b & 15) as usize] as char);
            }
        }
    }
    out
}

pub fn urlencode(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let s = str_arg(&args[0]);
    ctx.charge(s.len() as u64 * 3)?;
    Ok(Value::from_string(query_escape(s)))
}

#[cfg(test)]
mod tests {
    use super::go_base64_decode as d;

    #[test]
    fn decodes_as_go() {
        assert_eq!(d(b"YWJj").unwrap(), b"abc");
        assert_eq!(d(b"YQ==").unwrap(), b"a");
        assert_eq!(d(b"YWI=").unwrap(), b"ab");
        assert_eq!(d(b"YR==").unwrap(), b"a", "trailing bits are ignored");
        assert_eq!(d(b"YW\nJj\r\n").unwrap(), b"abc");
        assert_eq!(d(b"YQ"), Err(0));
        assert_eq!(d(b"YQ="), Err(3));
        assert_eq!(d(b"YQ==YQ=="), Err(4));
        assert_eq!(d(b"Y"), Err(0));
        assert_eq!(d(b"Y!"), Err(1));
        assert_eq!(d(b"="), Err(0));
        assert_eq!(d(b""), Ok(vec![]));
    }
}
