//! md5 sha1 sha256 sha512 bcrypt rsadecrypt uuidv4 uuidv5
//! (hashicorp/go-cty-funcs `crypto` and `uuid`).
//!
//! The hashes are RustCrypto's (`md-5`, `sha1`, `sha2`); `bcrypt` is the
//! `bcrypt` crate's Blowfish hash, in the `$2a$` form Go's
//! golang.org/x/crypto/bcrypt writes (both use the first 72 bytes of the
//! password with its terminating NUL). UUIDs are made here: the namespace
//! of `uuidv5` is read as google/uuid's `Parse` reads it (with its error
//! texts), and the version 5 UUID is google/uuid's `NewSHA1`.
//! `rsadecrypt` reads the key with Go's `pem.Decode` (ported here) and
//! `x509.ParsePKCS1PrivateKey`, and decrypts as Go's `rsa` package does
//! (both in [`rsa`](super::rsa)).

use super::super::{go_int, str_arg, CallCtx, FnError};
use crate::strings::go_quote_bytes;
use crate::types::Type;
use crate::value::Value;
use sha2::Digest;

fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[(b >> 4) as usize] as char);
        s.push(DIGITS[(b & 15) as usize] as char);
    }
    s
}

/// The bytes a hash function digests, its work noted.
fn hashed<'v>(arg: &'v Value, ctx: &mut CallCtx) -> &'v [u8] {
    let text = str_arg(arg);
    ctx.search(text);
    text.as_bytes()
}

pub fn md5(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let text = hashed(&args[0], ctx);
    Ok(Value::from_string(hex(&md5::Md5::digest(text))))
}

pub fn sha1(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let text = hashed(&args[0], ctx);
    Ok(Value::from_string(hex(&sha1::Sha1::digest(text))))
}

pub fn sha256(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let text = hashed(&args[0], ctx);
    Ok(Value::from_string(hex(&sha2::Sha256::digest(text))))
}

pub fn sha512(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let text = hashed(&args[0], ctx);
    Ok(Value::from_string(hex(&sha2::Sha512::digest(text))))
}

/// Size-budget units one bcrypt cost round (2^cost Blowfish key expansions
/// of 4 KiB state each) is charged: with the default budget (256 MiB of
/// units) costs up to 13 run (about half a second), as a budget for work
/// rather than memory. Go's own limit is cost 31, hours of work.
const BCRYPT_UNITS_PER_ROUND: u64 = 16 * 1024;

pub fn bcrypt(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let mut cost: i64 = 10;
    if args.len() > 1 {
        cost = go_int(&args[1]).map_err(FnError::new)?;
    }
    if args.len() > 2 {
        return Err(FnError::new("bcrypt() takes no more than two arguments"));
    }
    // golang.org/x/crypto/bcrypt: below MinCost the default cost is used.
    if cost < 4 {
        cost = 10;
    }
    if cost > 31 {
        return Err(FnError::new(format!("error occured generating password crypto/bcrypt: cost {cost} is outside allowed range (4,31)")));
    }
    ctx.charge((1u64 << cost).saturating_mul(BCRYPT_UNITS_PER_ROUND))?;
    let parts = bcrypt::hash_with_result(str_arg(&args[0]).as_bytes(), cost as u32)
        .map_err(|e| FnError::new(format!("error occured generating password {e}")))?;
    Ok(Value::from_string(parts.format_for_version(bcrypt::Version::TwoA)))
}

fn uuid_string(u: &[u8; 16]) -> String {
    let h = hex(u);
    format!("{}-{}-{}-{}-{}", &h[0..8], &h[8..12], &h[12..16], &h[16..20], &h[20..32])
}

pub fn uuidv4(_: &[Value], _: &Type, _: &mut CallCtx) -> Result<Value, FnError> {
    let mut u = [0u8; 16];
    getrandom::fill(&mut u).map_err(|e| FnError::new(e.to_string()))?;
    u[6] = (u[6] & 0x0f) | 0x40;
    u[8] = (u[8] & 0x3f) | 0x80;
    Ok(Value::from_string(uuid_string(&u)))
}

const NAMESPACE_DNS: [u8; 16] = [0x6b, 0xa7, 0xb8, 0x10, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8];
const NAMESPACE_URL: [u8; 16] = [0x6b, 0xa7, 0xb8, 0x11, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8];
const NAMESPACE_OID: [u8; 16] = [0x6b, 0xa7, 0xb8, 0x12, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8];
const NAMESPACE_X500: [u8; 16] = [0x6b, 0xa7, 0xb8, 0x14, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8];

fn xtob(a: u8, b: u8) -> Option<u8> {
    let v = |c: u8| match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    };
    Some((v(a)? << 4) | v(b)?)
}

/// google/uuid's `Parse`.
fn parse_uuid(s: &[u8]) -> Result<[u8; 16], String> {
    let mut u = [0u8; 16];
    let s = match s.len() {
        36 => s,
        45 => {
            if !s[..9].eq_ignore_ascii_case(b"urn:uuid:") {
                return Err(format!("invalid urn prefix: {}", go_quote_bytes(&s[..9])));
            }
            &s[9..]
        }
        38 => &s[1..],
        32 => {
            for (i, b) in u.iter_mut().enumerate() {
                *b = xtob(s[i * 2], s[i * 2 + 1]).ok_or("invalid UUID format")?;
            }
            return Ok(u);
        }
        n => return Err(format!("invalid UUID length: {n}")),
    };
    if s[8] != b'-' || s[13] != b'-' || s[18] != b'-' || s[23] != b'-' {
        return Err("invalid UUID format".into());
    }
    const AT: [usize; 16] = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];
    for (i, x) in AT.iter().enumerate() {
        u[i] = xtob(s[*x], s[x + 1]).ok_or("invalid UUID format")?;
    }
    Ok(u)
}

pub fn uuidv5(args: &[Value], _: &Type, _: &mut CallCtx) -> Result<Value, FnError> {
    let ns_text = str_arg(&args[0]);
    let namespace = match ns_text {
        "dns" => NAMESPACE_DNS,
        "url" => NAMESPACE_URL,
        "oid" => NAMESPACE_OID,
        "x500" => NAMESPACE_X500,
        _ => parse_uuid(ns_text.as_bytes()).map_err(|e| FnError::new(format!("uuidv5() doesn't support namespace {ns_text} ({e})")))?,
    };
    let mut h = sha1::Sha1::new();
    h.update(namespace);
    h.update(str_arg(&args[1]).as_bytes());
    let sum = h.finalize();
    let mut u = [0u8; 16];
    u.copy_from_slice(&sum[..16]);
    u[6] = (u[6] & 0x0f) | 0x50;
    u[8] = (u[8] & 0x3f) | 0x80;
    Ok(Value::from_string(uuid_string(&u)))
}

// ----- rsadecrypt -----------------------------------------------------------

/// Go's `pem.Decode` (Go 1.19): the first PEM block of `data`, as its type,
/// headers and bytes.
struct PemBlock {
    headers: std::collections::HashMap<Vec<u8>, Vec<u8>>,
    bytes: Vec<u8>,
}

fn go_trim_space(b: &[u8]) -> &[u8] {
    let ws = |c: &u8| matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c);
    let start = b.iter().position(|c| !ws(c)).unwrap_or(b.len());
    let end = b.iter().rposition(|c| !ws(c)).map_or(start, |i| i + 1);
    &b[start..end.max(start)]
}

/// Go's `pem.getLine`.
fn pem_line(data: &[u8]) -> (&[u8], &[u8]) {
    let (mut i, j) = match data.iter().position(|&c| c == b'\n') {
        None => (data.len(), data.len()),
        Some(i) => (i, i + 1),
    };
    if j != i && i > 0 && data[i - 1] == b'\r' {
        i -= 1;
    }
    let mut line = &data[..i];
    while let [rest @ .., b' ' | b'\t'] = line {
        line = rest;
    }
    (line, &data[j..])
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn pem_decode(data: &[u8]) -> Option<PemBlock> {
    let mut rest = data;
    // Where the first "\n-----END " at or after a position is, found once
    // for every block that searches from before it (a search per BEGIN
    // line took the square of the key's length).
    let mut next_end: Option<(usize, Option<usize>)> = None;
    loop {
        if rest.starts_with(b"-----BEGIN ") {
            rest = &rest[11..];
        } else if let Some(i) = find(rest, b"\n-----BEGIN ") {
            rest = &rest[i + 12..];
        } else {
            return None;
        }
        let (type_line, after) = pem_line(rest);
        rest = after;
        let Some(type_line) = type_line.strip_suffix(b"-----") else { continue };
        let mut headers = std::collections::HashMap::new();
        loop {
            if rest.is_empty() {
                return None;
            }
            let (line, next) = pem_line(rest);
            let Some(colon) = line.iter().position(|&c| c == b':') else { break };
            let (key, val) = (go_trim_space(&line[..colon]).to_vec(), go_trim_space(&line[colon + 1..]).to_vec());
            headers.insert(key, val);
            rest = next;
        }
        let (end_index, trailer_index) = if headers.is_empty() && rest.starts_with(b"-----END ") {
            (0, 9)
        } else {
            let at = data.len() - rest.len();
            let end = match next_end {
                Some((from, found)) if from <= at && found.map_or(true, |e| e >= at) => found,
                _ => {
                    let found = find(rest, b"\n-----END ").map(|i| at + i);
                    next_end = Some((at, found));
                    found
                }
            };
            match end {
                Some(e) => (e - at, e - at + 10),
                None => continue,
            }
        };
        let trailer = &rest[trailer_index..];
        let trailer_len = type_line.len() + 5;
        if trailer.len() < trailer_len {
            continue;
        }
        let (end_line, rest_of_end_line) = trailer.split_at(trailer_len);
        if !end_line.starts_with(type_line) || !end_line.ends_with(b"-----") {
            continue;
        }
        if !pem_line(rest_of_end_line).0.is_empty() {
            continue;
        }
        let b64: Vec<u8> = rest[..end_index].iter().copied().filter(|&c| c != b' ' && c != b'\t').collect();
        let Ok(bytes) = super::encoding::go_base64_decode(&b64) else { continue };
        return Some(PemBlock { headers, bytes });
    }
}

/// `rsadecrypt(ciphertext, privatekey)`: go-cty-funcs' RsaDecrypt
/// (PKCS#1 v1.5).
pub fn rsadecrypt(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let s = str_arg(&args[0]);
    let key = str_arg(&args[1]);
    let b = super::encoding::go_base64_decode(s.as_bytes())
        .map_err(|_| FnError::new(format!("failed to decode input {}: cipher text must be base64-encoded", crate::strings::go_quote(s))))?;
    let block = pem_decode(key.as_bytes()).ok_or_else(|| FnError::new("failed to parse key: no key found"))?;
    if block.headers.get(b"Proc-Type".as_slice()).is_some_and(|v| v == b"4,ENCRYPTED") {
        return Err(FnError::new("failed to parse key: password protected keys are not supported. Please decrypt the key prior to use"));
    }
    let k = super::rsa::parse_pkcs1(&block.bytes).map_err(FnError::new)?;
    // Modular exponentiation takes time cubic in the key's size: charged
    // (a 2048-bit key costs 256 KiB of units, a 16384-bit one half the
    // default budget).
    ctx.charge((k.size() as u64).pow(3) / 64)?;
    let out = k.decrypt_pkcs1v15(&b).map_err(|_| FnError::new("crypto/rsa: decryption error"))?;
    Ok(Value::from_string(String::from_utf8_lossy(&out).into_owned()))
}

#[cfg(test)]
mod tests {
    #[test]
    fn verifies_a_hash_go_made() {
        // bcrypt("a") from the oracle (golang.org/x/crypto/bcrypt).
        assert!(bcrypt::verify("a", "$2a$10$awV08PSVj7Dwitb5TXpD/OggnBJEYToanlp.HPgcmMFYffPeLNW4S").unwrap());
    }

    #[test]
    fn parses_namespaces_as_google_uuid() {
        use super::parse_uuid;
        assert!(parse_uuid(b"6ba7b810-9dad-11d1-80b4-00c04fd430c8").is_ok());
        assert!(parse_uuid(b"{6ba7b810-9dad-11d1-80b4-00c04fd430c8}").is_ok());
        assert!(parse_uuid(b"URN:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8").is_ok());
        assert!(parse_uuid(b"6ba7b8109dad11d180b400c04fd430c8").is_ok());
        assert_eq!(parse_uuid(b"zz").unwrap_err(), "invalid UUID length: 2");
        assert_eq!(parse_uuid(b"6ba7b810x9dad-11d1-80b4-00c04fd430c8").unwrap_err(), "invalid UUID format");
    }
}
