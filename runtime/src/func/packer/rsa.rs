//! rsadecrypt's key reading and decryption, as Go 1.19 does them for
//! go-cty-funcs: `x509.ParsePKCS1PrivateKey` (the subset of
//! `encoding/asn1` its structure needs, with asn1's error texts, then
//! x509's checks and `rsa.PrivateKey.Validate`) and
//! `rsa.DecryptPKCS1v15` without blinding (`c^d mod n`, then the PKCS#1
//! v1.5 padding check), on dashu's big integers.
//!
//! Written here rather than with the `rsa` crate: that crate refuses keys
//! Go accepts (moduli over 4096 bits) and has errors of its own where Go's
//! texts are the result.

use dashu::base::BitTest;
use dashu::integer::fast_div::ConstDivisor;
use dashu::integer::{IBig, UBig};

/// Go's `asn1.SyntaxError` / `asn1.StructuralError` texts.
fn syntax(msg: &str) -> String {
    format!("asn1: syntax error: {msg}")
}
fn structural(msg: &str) -> String {
    format!("asn1: structure error: {msg}")
}

const NO_PARAMS: &str =
    "{optional:false explicit:false application:false private:false defaultValue:<nil> tag:<nil> stringType:0 timeType:0 set:false omitEmpty:false}";

/// asn1's `tagAndLength`.
#[derive(Clone, Copy)]
struct TagLen {
    class: u8,
    tag: u32,
    length: usize,
    compound: bool,
}

/// asn1's `parseBase128Int`.
fn base128(b: &[u8], mut off: usize) -> Result<(u32, usize), String> {
    let mut v: i64 = 0;
    let mut shifted = 0;
    while off < b.len() {
        if shifted == 5 {
            return Err(structural("base 128 integer too large"));
        }
        v <<= 7;
        let c = b[off];
        if shifted == 0 && c == 0x80 {
            return Err(syntax("integer is not minimally encoded"));
        }
        off += 1;
        v |= (c & 0x7f) as i64;
        if c & 0x80 == 0 {
            if v > i32::MAX as i64 {
                return Err(structural("base 128 integer too large"));
            }
            return Ok((v as u32, off));
        }
        shifted += 1;
    }
    Err(syntax("truncated base 128 integer"))
}

/// asn1's `parseTagAndLength`.
fn tag_and_length(b: &[u8], mut off: usize) -> Result<(TagLen, usize), String> {
    let Some(&c) = b.get(off) else { return Err("asn1: internal error in parseTagAndLength".into()) };
    off += 1;
    let mut t = TagLen { class: c >> 6, tag: (c & 0x1f) as u32, length: 0, compound: c & 0x20 != 0 };
    if t.tag == 0x1f {
        (t.tag, off) = base128(b, off)?;
        if t.tag < 0x1f {
            return Err(syntax("non-minimal tag"));
        }
    }
    let Some(&c) = b.get(off) else { return Err(syntax("truncated tag or length")) };
    off += 1;
    if c & 0x80 == 0 {
        t.length = (c & 0x7f) as usize;
    } else {
        let n = (c & 0x7f) as usize;
        if n == 0 {
            return Err(syntax("indefinite length found (not DER)"));
        }
        for _ in 0..n {
            let Some(&c) = b.get(off) else { return Err(syntax("truncated tag or length")) };
            off += 1;
            if t.length >= 1 << 23 {
                return Err(structural("length too large"));
            }
            t.length = (t.length << 8) | c as usize;
            if t.length == 0 {
                return Err(structural("superfluous leading zeros in length"));
            }
        }
        if t.length < 0x80 {
            return Err(structural("non-minimal length"));
        }
    }
    Ok((t, off))
}

/// What a field of Go's `pkcs1PrivateKey` is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `int` (asn1 reads it as an `int64`).
    Int,
    /// `*big.Int`.
    Big,
    /// `[]pkcs1AdditionalRSAPrime`.
    Primes,
}

/// One parsed field: `None` when an optional field took its default.
enum Parsed {
    Int(i64),
    Big(IBig),
    Primes(Vec<[IBig; 3]>),
}

/// asn1's `checkInteger`.
fn check_integer(b: &[u8]) -> Result<(), String> {
    if b.is_empty() {
        return Err(structural("empty integer"));
    }
    if b.len() > 1 && ((b[0] == 0 && b[1] & 0x80 == 0) || (b[0] == 0xff && b[1] & 0x80 == 0x80)) {
        return Err(structural("integer not minimally-encoded"));
    }
    Ok(())
}

fn parse_big(b: &[u8]) -> Result<IBig, String> {
    check_integer(b)?;
    let magnitude = IBig::from(UBig::from_be_bytes(b));
    Ok(if b[0] & 0x80 != 0 { magnitude - (IBig::from(1u8) << (b.len() * 8)) } else { magnitude })
}

fn parse_int64(b: &[u8]) -> Result<i64, String> {
    check_integer(b)?;
    if b.len() > 8 {
        return Err(structural("integer too large"));
    }
    let mut v: i64 = 0;
    for &c in b {
        v = (v << 8) | c as i64;
    }
    // Sign-extend.
    let shift = 64 - 8 * b.len() as u32;
    Ok(if shift == 64 { 0 } else { (v << shift) >> shift })
}

fn invalid_length(off: usize, len: usize, total: usize) -> bool {
    off.checked_add(len).map_or(true, |end| end > total)
}

/// asn1's `parseField` for one field of these kinds; `Ok((None, off))`
/// for an optional field left at its default.
fn parse_field(b: &[u8], off: usize, kind: Kind, optional: bool) -> Result<(Option<Parsed>, usize), String> {
    if off == b.len() {
        return if optional { Ok((None, off)) } else { Err(syntax("sequence truncated")) };
    }
    let (t, mut o) = tag_and_length(b, off)?;
    let (tag, compound, name) = match kind {
        Kind::Int => (2, false, "int"),
        Kind::Big => (2, false, ""),
        Kind::Primes => (16, true, ""),
    };
    if t.class != 0 || t.tag != tag || t.compound != compound {
        if optional {
            return Ok((None, off));
        }
        return Err(structural(&format!(
            "tags don't match ({tag} vs {{class:{} tag:{} length:{} isCompound:{}}}) {NO_PARAMS} {name} @{o}",
            t.class, t.tag, t.length, t.compound
        )));
    }
    if invalid_length(o, t.length, b.len()) {
        return Err(syntax("data truncated"));
    }
    let inner = &b[o..o + t.length];
    o += t.length;
    let v = match kind {
        Kind::Int => Parsed::Int(parse_int64(inner)?),
        Kind::Big => Parsed::Big(parse_big(inner)?),
        Kind::Primes => Parsed::Primes(parse_primes(inner)?),
    };
    Ok((Some(v), o))
}

/// asn1's `parseSequenceOf` for `[]pkcs1AdditionalRSAPrime`.
fn parse_primes(b: &[u8]) -> Result<Vec<[IBig; 3]>, String> {
    let mut n = 0;
    let mut off = 0;
    while off < b.len() {
        let (t, o) = tag_and_length(b, off)?;
        if t.class != 0 || !t.compound || t.tag != 16 {
            return Err(structural("sequence tag mismatch"));
        }
        if invalid_length(o, t.length, b.len()) {
            return Err(syntax("truncated sequence"));
        }
        off = o + t.length;
        n += 1;
    }
    let mut out = Vec::with_capacity(n);
    let mut off = 0;
    for _ in 0..n {
        let (t, o) = tag_and_length(b, off)?;
        let inner = &b[o..o + t.length];
        off = o + t.length;
        let mut vals = Vec::with_capacity(3);
        let mut io = 0;
        for _ in 0..3 {
            let (v, next) = parse_field(inner, io, Kind::Big, false)?;
            io = next;
            if let Some(Parsed::Big(v)) = v {
                vals.push(v);
            }
        }
        let [a, b, c]: [IBig; 3] = vals.try_into().map_err(|_| syntax("sequence truncated"))?;
        out.push([a, b, c]);
    }
    Ok(out)
}

/// Go's `pkcs1PrivateKey` as read from DER.
struct Pkcs1 {
    version: i64,
    n: IBig,
    e: i64,
    d: IBig,
    p: IBig,
    q: IBig,
    additional: Vec<IBig>,
}

/// `asn1.Unmarshal(der, &pkcs1PrivateKey{})`: the key and the bytes after it.
fn unmarshal_pkcs1(der: &[u8]) -> Result<(Pkcs1, usize), String> {
    if der.is_empty() {
        return Err(syntax("sequence truncated"));
    }
    let (t, o) = tag_and_length(der, 0)?;
    if t.class != 0 || t.tag != 16 || !t.compound {
        return Err(structural(&format!(
            "tags don't match (16 vs {{class:{} tag:{} length:{} isCompound:{}}}) {NO_PARAMS} pkcs1PrivateKey @{o}",
            t.class, t.tag, t.length, t.compound
        )));
    }
    if invalid_length(o, t.length, der.len()) {
        return Err(syntax("data truncated"));
    }
    let inner = &der[o..o + t.length];
    let fields = [
        (Kind::Int, false),
        (Kind::Big, false),
        (Kind::Int, false),
        (Kind::Big, false),
        (Kind::Big, false),
        (Kind::Big, false),
        (Kind::Big, true),
        (Kind::Big, true),
        (Kind::Big, true),
        (Kind::Primes, true),
    ];
    let mut got = Vec::with_capacity(fields.len());
    let mut off = 0;
    for (kind, optional) in fields {
        let (v, next) = parse_field(inner, off, kind, optional)?;
        off = next;
        got.push(v);
    }
    let int = |v: &Option<Parsed>| match v {
        Some(Parsed::Int(i)) => *i,
        _ => 0,
    };
    let big = |v: &Option<Parsed>| match v {
        Some(Parsed::Big(b)) => b.clone(),
        _ => IBig::ZERO,
    };
    let additional = match got.pop().flatten() {
        Some(Parsed::Primes(p)) => p.into_iter().map(|[prime, ..]| prime).collect(),
        _ => Vec::new(),
    };
    let key =
        Pkcs1 { version: int(&got[0]), n: big(&got[1]), e: int(&got[2]), d: big(&got[3]), p: big(&got[4]), q: big(&got[5]), additional };
    Ok((key, o + t.length))
}

/// A DER element: tag byte, content, and the rest.
fn der_next(b: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let (t, o) = tag_and_length(b, 0).ok()?;
    if invalid_length(o, t.length, b.len()) {
        return None;
    }
    Some((b[0], &b[o..o + t.length], &b[o + t.length..]))
}

/// Whether `der` reads as Go's `ecPrivateKey` (version, private key, ...).
fn looks_ec(der: &[u8]) -> bool {
    let Some((0x30, body, _)) = der_next(der) else { return false };
    let Some((0x02, v, body)) = der_next(body) else { return false };
    check_integer(v).is_ok() && v.len() <= 8 && matches!(der_next(body), Some((0x04, ..)))
}

/// Whether `der` reads as Go's `pkcs8` (version, algorithm, private key).
fn looks_pkcs8(der: &[u8]) -> bool {
    let Some((0x30, body, _)) = der_next(der) else { return false };
    let Some((0x02, v, body)) = der_next(body) else { return false };
    let Some((0x30, algo, body)) = der_next(body) else { return false };
    check_integer(v).is_ok() && v.len() <= 8 && matches!(der_next(algo), Some((0x06, ..))) && matches!(der_next(body), Some((0x04, ..)))
}

/// A key as `rsa.PrivateKey` holds it, validated.
pub(super) struct PrivateKey {
    n: UBig,
    d: UBig,
}

/// Go 1.19's `x509.ParsePKCS1PrivateKey`.
pub(super) fn parse_pkcs1(der: &[u8]) -> Result<PrivateKey, String> {
    let priv_key = match unmarshal_pkcs1(der) {
        Ok((_, end)) if end < der.len() => return Err(syntax("trailing data")),
        Ok((k, _)) => k,
        Err(e) => {
            if looks_ec(der) {
                return Err("x509: failed to parse private key (use ParseECPrivateKey instead for this key format)".into());
            }
            if looks_pkcs8(der) {
                return Err("x509: failed to parse private key (use ParsePKCS8PrivateKey instead for this key format)".into());
            }
            return Err(e);
        }
    };
    if priv_key.version > 1 {
        return Err("x509: unsupported private key version".into());
    }
    let positive = |b: &IBig| *b > IBig::ZERO;
    if !positive(&priv_key.n) || !positive(&priv_key.d) || !positive(&priv_key.p) || !positive(&priv_key.q) {
        return Err("x509: private key contains zero or negative value".into());
    }
    if priv_key.additional.iter().any(|p| !positive(p)) {
        return Err("x509: private key contains zero or negative prime".into());
    }
    let ubig = |b: &IBig| UBig::try_from(b.clone()).unwrap_or(UBig::ZERO);
    let primes: Vec<UBig> = [&priv_key.p, &priv_key.q].into_iter().chain(priv_key.additional.iter()).map(ubig).collect();
    let (n, d) = (ubig(&priv_key.n), ubig(&priv_key.d));
    // rsa.PrivateKey.Validate: checkPub, then the primes.
    check_pub(priv_key.e)?;
    let one = UBig::ONE;
    let mut modulus = UBig::ONE;
    for p in &primes {
        if *p <= one {
            return Err("crypto/rsa: invalid prime value".into());
        }
        modulus *= p;
    }
    if modulus != n {
        return Err("crypto/rsa: invalid modulus".into());
    }
    let de = UBig::from(priv_key.e as u64) * &d;
    for p in &primes {
        let pm1 = p - &one;
        if &de % &pm1 != one {
            return Err("crypto/rsa: invalid exponents".into());
        }
    }
    Ok(PrivateKey { n, d })
}

/// rsa's `checkPub` (the modulus is known to be there).
fn check_pub(e: i64) -> Result<(), String> {
    if e < 2 {
        return Err("crypto/rsa: public exponent too small".into());
    }
    if e > (1 << 31) - 1 {
        return Err("crypto/rsa: public exponent too large".into());
    }
    Ok(())
}

impl PrivateKey {
    /// The size of the modulus in bytes.
    pub(super) fn size(&self) -> usize {
        self.n.bit_len().div_ceil(8)
    }

    /// Go 1.19's `rsa.DecryptPKCS1v15(nil, key, ciphertext)`; the error
    /// is `rsa.ErrDecryption`.
    pub(super) fn decrypt_pkcs1v15(&self, ciphertext: &[u8]) -> Result<Vec<u8>, ()> {
        let k = self.size();
        if k < 11 {
            return Err(());
        }
        let c = UBig::from_be_bytes(ciphertext);
        if c > self.n {
            return Err(());
        }
        let ring = ConstDivisor::new(self.n.clone());
        let m = ring.reduce(c).pow(&self.d).residue();
        let bytes = m.to_be_bytes();
        let mut em = vec![0u8; k.saturating_sub(bytes.len())];
        em.extend_from_slice(&bytes);
        if em.len() != k || em[0] != 0 || em[1] != 2 {
            return Err(());
        }
        let index = em[2..].iter().position(|&b| b == 0).map(|i| i + 2).ok_or(())?;
        if index < 10 {
            return Err(());
        }
        Ok(em[index + 1..].to_vec())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_as_asn1() {
        assert_eq!(parse_int64(&[0x01]), Ok(1));
        assert_eq!(parse_int64(&[0xff]), Ok(-1));
        assert_eq!(parse_int64(&[0x00, 0x80]), Ok(128));
        assert!(parse_int64(&[0x00, 0x01]).is_err());
        assert_eq!(parse_big(&[0xff, 0x00]).unwrap(), IBig::from(-256));
        assert_eq!(tag_and_length(&[0x30, 0x81, 0x05], 0).err().as_deref(), Some("asn1: structure error: non-minimal length"));
    }
}
