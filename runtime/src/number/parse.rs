//! Number parsing with the exact semantics of Go's
//! `big.ParseFloat(s, 10, 512, big.ToNearestEven)`, which is what
//! `cty.ParseNumberVal` uses for HCL number literals, JSON numbers and
//! string-to-number conversion.
//!
//! Accepted: `Inf`/`inf` with an optional sign; otherwise an optional sign,
//! decimal digits with at most one `.` (at least one digit overall), and an
//! optional exponent `e`/`E` (power of ten) or `p`/`P` (power of two) with
//! an optional sign and at least one digit that fits in an i64.
//!
//! Go does not round correctly in every case: it multiplies (or divides) the
//! exact decimal mantissa by a power of five that was itself computed with
//! 576-bit rounding. We reproduce that algorithm step for step so results
//! match bit for bit, including overflow to ±Inf and underflow to ±0 for huge
//! exponents (cheap: the power is computed by squaring at fixed precision).

use dashu::integer::UBig;

use super::float::{bit_len, BigFloat, MAX_EXP, MIN_EXP};

/// Precision of parsed numbers (cty.ParseNumberVal).
pub(crate) const PARSE_PREC: u32 = 512;

#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NumberParseError {
    /// Not a number in the accepted syntax; the text says what was wrong.
    Syntax(&'static str),
    /// The binary exponent does not fit Go's int32 exponent range, which Go
    /// reports as an error ("exponent overflow") rather than ±Inf.
    ExponentOverflow,
}

impl std::fmt::Display for NumberParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NumberParseError::Syntax(what) => write!(f, "invalid number: {what}"),
            NumberParseError::ExponentOverflow => f.write_str("invalid number: exponent overflow"),
        }
    }
}

impl std::error::Error for NumberParseError {}

/// Digits parsed from a literal: value = mant * 10^(-frac_digits) * ebase^exp.
struct Scanned<'a> {
    neg: bool,
    digits: &'a [u8],
    frac_digits: i64,
    exp: i64,
    binary_exp: bool,
}

fn scan(text: &str) -> Result<Scanned<'_>, NumberParseError> {
    let b = text.as_bytes();
    let mut i = 0;
    let mut neg = false;
    if let Some(&c) = b.first() {
        if c == b'+' || c == b'-' {
            neg = c == b'-';
            i = 1;
        }
    }
    let start = i;
    let mut dot: Option<usize> = None;
    let mut ndigits = 0usize;
    while i < b.len() {
        match b[i] {
            b'0'..=b'9' => ndigits += 1,
            b'.' if dot.is_none() => dot = Some(i),
            _ => break,
        }
        i += 1;
    }
    if ndigits == 0 {
        return Err(NumberParseError::Syntax("number has no digits"));
    }
    let digits = &b[start..i];
    let frac_digits = dot.map_or(0, |d| (i - d - 1) as i64);

    let mut exp: i64 = 0;
    let mut binary_exp = false;
    if i < b.len() && matches!(b[i], b'e' | b'E' | b'p' | b'P') {
        binary_exp = matches!(b[i], b'p' | b'P');
        i += 1;
        let mut eneg = false;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            eneg = b[i] == b'-';
            i += 1;
        }
        let estart = i;
        let mut acc: Option<i64> = Some(0);
        while i < b.len() && b[i].is_ascii_digit() {
            let d = (b[i] - b'0') as i64;
            // Accumulate negatively so that i64::MIN is representable, as with ParseInt.
            acc = acc.and_then(|a| a.checked_mul(10)).and_then(|a| a.checked_sub(d));
            i += 1;
        }
        if i == estart {
            return Err(NumberParseError::Syntax("number has no digits"));
        }
        exp = match acc {
            Some(a) if eneg => a,
            Some(a) => a.checked_neg().ok_or(NumberParseError::Syntax("exponent out of range"))?,
            None => return Err(NumberParseError::Syntax("exponent out of range")),
        };
    }
    if i != b.len() {
        return Err(NumberParseError::Syntax("unexpected character"));
    }
    Ok(Scanned { neg, digits, frac_digits, exp, binary_exp })
}

/// Go's `5^n` at 576 bits (`Float.pow5`): exact table up to 5^27, then
/// binary powering with a 640-bit base, each step rounded.
fn pow5(n: u64, prec: u32) -> BigFloat {
    const TABLE_MAX: u64 = 27;
    let exact = |k: u64| BigFloat::round_from(false, UBig::from(5u64.pow(k as u32)), 0, false, prec);
    if n <= TABLE_MAX {
        return exact(n);
    }
    let mut z = exact(TABLE_MAX);
    let mut n = n - TABLE_MAX;
    let fprec = prec + 64;
    let mut f = BigFloat::round_from(false, UBig::from(5u8), 0, false, fprec);
    while n > 0 {
        if n & 1 != 0 {
            // Finite * finite/Inf never hits 0*Inf here.
            z = z.mul(&f, prec).unwrap_or_else(|_| BigFloat::inf(false, prec));
        }
        n >>= 1;
        if n > 0 {
            // Go squares once more after the last bit; the value is unused.
            f = f.mul(&f, fprec).unwrap_or_else(|_| BigFloat::inf(false, fprec));
        }
    }
    z
}

/// Decimal digits (with an optional '.') as an integer.
fn digits_to_ubig(digits: &[u8]) -> UBig {
    // Go keeps every digit; so do we. Chunks of 19 digits keep this linear-ish.
    let mut acc = UBig::ZERO;
    let mut chunk: u64 = 0;
    let mut chunk_len = 0u32;
    for &c in digits {
        if c == b'.' {
            continue;
        }
        chunk = chunk * 10 + (c - b'0') as u64;
        chunk_len += 1;
        if chunk_len == 19 {
            acc = acc * UBig::from(10u64.pow(19)) + UBig::from(chunk);
            chunk = 0;
            chunk_len = 0;
        }
    }
    if chunk_len > 0 {
        acc = acc * UBig::from(10u64.pow(chunk_len)) + UBig::from(chunk);
    }
    acc
}

pub(crate) fn parse(text: &str) -> Result<BigFloat, NumberParseError> {
    let prec = PARSE_PREC;
    match text {
        "Inf" | "inf" | "+Inf" | "+inf" => return Ok(BigFloat::inf(false, prec)),
        "-Inf" | "-inf" => return Ok(BigFloat::inf(true, prec)),
        _ => {}
    }
    let s = scan(text)?;
    let mant = if s.digits.len() > 4000 {
        // Long inputs: dashu's parser is subquadratic.
        let clean: String = s.digits.iter().filter(|&&c| c != b'.').map(|&c| c as char).collect();
        UBig::from_str_radix(&clean, 10).unwrap_or(UBig::ZERO)
    } else {
        digits_to_ubig(s.digits)
    };
    if mant.is_zero() {
        return Ok(BigFloat::zero(s.neg, prec));
    }
    // Go: exp2 = bitlen + (-frac) + exp (decimal) or bitlen + (-frac)... for
    // binary exponents the fraction still counts in powers of ten.
    let bits = bit_len(&mant);
    let mut exp2: i64 = bits.checked_sub(s.frac_digits).ok_or(NumberParseError::ExponentOverflow)?;
    let mut exp5: i64 = -s.frac_digits;
    if !s.binary_exp {
        exp5 = exp5.checked_add(s.exp).ok_or(NumberParseError::ExponentOverflow)?;
    }
    exp2 = exp2.checked_add(s.exp).ok_or(NumberParseError::ExponentOverflow)?;
    if !(MIN_EXP..=MAX_EXP).contains(&exp2) {
        return Err(NumberParseError::ExponentOverflow);
    }
    // Value so far: mant * 2^(exp2 - bits), not yet rounded.
    let lsb_exp = exp2 - bits;
    if exp5 == 0 {
        return Ok(BigFloat::round_from(s.neg, mant, lsb_exp, false, prec));
    }
    let p = pow5(exp5.unsigned_abs(), prec + 64);
    let z = BigFloat { prec, neg: s.neg, form: super::float::Form::Finite, mant, exp: lsb_exp };
    let result = if exp5 < 0 { z.quo(&p, prec) } else { z.mul(&p, prec) };
    // z is finite and nonzero and p is finite or +Inf: no NaN case.
    Ok(result.unwrap_or_else(|_| BigFloat::zero(s.neg, prec)))
}
