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
//! Only the reading of the mantissa differs: one of over a thousand
//! digits is first bounded from its leading digits ([`parse_bounded`]),
//! which decides the same result in linear time unless the value lies at
//! a rounding boundary.

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
    match text {
        "Inf" | "inf" | "+Inf" | "+inf" => return Ok(BigFloat::inf(false, PARSE_PREC)),
        "-Inf" | "-inf" => return Ok(BigFloat::inf(true, PARSE_PREC)),
        _ => {}
    }
    let s = scan(text)?;
    if let Some(result) = parse_bounded(&s) {
        return result;
    }
    let mut x = parse_exact(&s)?;
    if !s.binary_exp && x.form == super::float::Form::Finite {
        x.literal = super::text::LiteralDigits::of(s.digits, s.exp);
    }
    Ok(x)
}

/// Go's algorithm on the whole mantissa.
fn parse_exact(s: &Scanned<'_>) -> Result<BigFloat, NumberParseError> {
    let mant = if s.digits.len() > 4000 {
        // Long inputs: dashu's parser is subquadratic.
        let clean: String = s.digits.iter().filter(|&&c| c != b'.').map(|&c| c as char).collect();
        UBig::from_str_radix(&clean, 10).unwrap_or(UBig::ZERO)
    } else {
        digits_to_ubig(s.digits)
    };
    if mant.is_zero() {
        return Ok(BigFloat::zero(s.neg, PARSE_PREC));
    }
    let scale = Scale::of(s, bit_len(&mant))?;
    Ok(scale.apply(s.neg, mant, 0))
}

/// What Go does to the mantissa once it has read it: with `bits` its
/// length, `mant * 2^lsb_exp` times or over `5^|exp5|`.
struct Scale {
    lsb_exp: i64,
    exp5: i64,
}

impl Scale {
    /// The scale of `s`'s mantissa of `bits` bits, or Go's "exponent
    /// overflow".
    fn of(s: &Scanned<'_>, bits: i64) -> Result<Scale, NumberParseError> {
        // Go: exp2 = bitlen + (-frac) + exp (decimal) or bitlen + (-frac)... for
        // binary exponents the fraction still counts in powers of ten.
        let mut exp2: i64 = bits.checked_sub(s.frac_digits).ok_or(NumberParseError::ExponentOverflow)?;
        let mut exp5: i64 = -s.frac_digits;
        if !s.binary_exp {
            exp5 = exp5.checked_add(s.exp).ok_or(NumberParseError::ExponentOverflow)?;
        }
        exp2 = exp2.checked_add(s.exp).ok_or(NumberParseError::ExponentOverflow)?;
        if !(MIN_EXP..=MAX_EXP).contains(&exp2) {
            return Err(NumberParseError::ExponentOverflow);
        }
        Ok(Scale { lsb_exp: exp2 - bits, exp5 })
    }

    /// The parsed number of mantissa `mant * 2^shift` (not yet rounded),
    /// rounded as Go rounds it.
    fn apply(&self, neg: bool, mant: UBig, shift: i64) -> BigFloat {
        let prec = PARSE_PREC;
        let exp = self.lsb_exp + shift;
        if self.exp5 == 0 {
            return BigFloat::round_from(neg, mant, exp, false, prec);
        }
        let p = pow5(self.exp5.unsigned_abs(), prec + 64);
        let z = BigFloat { prec, neg, form: super::float::Form::Finite, mant, exp, literal: None };
        let result = if self.exp5 < 0 { z.quo(&p, prec) } else { z.mul(&p, prec) };
        // z is finite and nonzero and p is finite or +Inf: no NaN case.
        result.unwrap_or_else(|_| BigFloat::zero(neg, prec))
    }
}

/// Mantissas of more significant digits than this are first bounded from
/// their leading digits ([`parse_bounded`]).
const BOUNDED_ABOVE: usize = 1000;
/// The leading digits kept: at least 10^399, so the bounds are within a
/// part in 2^1325 of each other...
const LEADING_DIGITS: usize = 400;
/// ...and 10^k, for the k digits dropped, is bounded at this precision
/// (bits), each of its products rounded outward.
const BOUND_PREC: usize = 1344;

/// Go converts every digit of the mantissa, which for millions of digits
/// takes seconds (it takes far longer itself). Almost always the leading
/// digits decide the result: with `H` the first [`LEADING_DIGITS`]
/// significant digits and `k` the number of digits after them, the
/// mantissa lies in `[H * 10^k, (H + 1) * 10^k)`; bounding `10^k` from
/// below and above and rounding both ends Go's way gives the result when
/// they agree (rounding is monotonic). `None`: a short mantissa, or ends
/// that round apart (the value lies at or very near a rounding boundary,
/// a tie most likely), which the whole mantissa must decide.
fn parse_bounded(s: &Scanned<'_>) -> Option<Result<BigFloat, NumberParseError>> {
    if s.digits.len() <= BOUNDED_ABOVE {
        // (Most numbers: nothing to count.)
        return None;
    }
    let mut significant = s.digits.iter().filter(|&&c| c != b'.').skip_while(|&&c| c == b'0');
    let leading: Vec<u8> = significant.by_ref().take(LEADING_DIGITS).copied().collect();
    let dropped = significant.count();
    if leading.is_empty() {
        // Zero whatever its exponent, as in Go (and without converting a
        // long run of zeros).
        return Some(Ok(BigFloat::zero(s.neg, PARSE_PREC)));
    }
    if leading.len() + dropped <= BOUNDED_ABOVE {
        return None;
    }
    let high = digits_to_ubig(&leading);
    let (low5, high5) = pow5_bounds(dropped as u64);
    // 10^k = 5^k * 2^k: the ends as mantissas times powers of two.
    let low = (&high * &low5.0, low5.1 + dropped as i64);
    let high = ((high + UBig::ONE) * &high5.0, high5.1 + dropped as i64);
    // The mantissa's length lies between the ends' lengths (one apart at
    // most: a power of two between them), and Go's exponent check is of a
    // range, so it decides when it decides alike at both; the scaling does
    // not depend on the length.
    let (scale, at_high_bits) = (Scale::of(s, bit_len(&low.0) + low.1), Scale::of(s, bit_len(&high.0) + high.1));
    let scale = match (scale, at_high_bits) {
        (Ok(scale), Ok(_)) => scale,
        (Err(e), Err(_)) => return Some(Err(e)),
        _ => return None,
    };
    let (at_low, at_high) = (scale.apply(s.neg, low.0, low.1), scale.apply(s.neg, high.0, high.1));
    at_low.same_value(&at_high).then_some(Ok(at_low))
}

/// `5^k` bounded below and above, each as `(mantissa, exponent of two)`.
fn pow5_bounds(mut k: u64) -> ((UBig, i64), (UBig, i64)) {
    let one = || (UBig::ONE, 0i64);
    let (mut low, mut high) = (one(), one());
    let (mut base_low, mut base_high) = ((UBig::from(5u8), 0i64), (UBig::from(5u8), 0i64));
    while k > 0 {
        if k & 1 != 0 {
            low = outward(&low.0 * &base_low.0, low.1 + base_low.1, false);
            high = outward(&high.0 * &base_high.0, high.1 + base_high.1, true);
        }
        k >>= 1;
        if k > 0 {
            base_low = outward(&base_low.0 * &base_low.0, 2 * base_low.1, false);
            base_high = outward(&base_high.0 * &base_high.0, 2 * base_high.1, true);
        }
    }
    (low, high)
}

/// `mant * 2^exp` cut to [`BOUND_PREC`] bits, rounded down or (`up`) up.
fn outward(mant: UBig, exp: i64, up: bool) -> (UBig, i64) {
    let bits = bit_len(&mant) as usize;
    if bits <= BOUND_PREC {
        return (mant, exp);
    }
    let cut = bits - BOUND_PREC;
    let inexact = mant.trailing_zeros().is_some_and(|tz| tz < cut);
    let mut kept = mant >> cut;
    if up && inexact {
        kept += UBig::ONE;
    }
    (kept, exp + cut as i64)
}

#[cfg(test)]
mod bounded_tests {
    use super::*;

    fn xorshift(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    /// Random long literals: the bounds decide nearly all of them, always
    /// as Go's algorithm on the whole mantissa does.
    #[test]
    fn bounds_agree_with_the_whole_mantissa() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let exponents = [
            "",
            "e5",
            "e-5",
            "E300",
            "e-300",
            "e+2000",
            "e-2000",
            "e400000000",
            "e-400000000",
            "p10",
            "p-77",
            "e-1100",
            "e1100",
            "e3000000000",
        ];
        let (mut decided, mut cases) = (0, 0);
        for round in 0..240 {
            let len = 1001 + (xorshift(&mut seed) % 1500) as usize;
            let mut text = String::new();
            if round % 3 == 0 {
                text.push('-');
            }
            if round % 7 == 0 {
                text.push_str("000");
            }
            for i in 0..len {
                let d = xorshift(&mut seed) % 10;
                // Some with long runs of 9s or 0s after the leading digits,
                // near where the bounds are cut.
                let d = match (round % 5, i) {
                    (1, 300..=900) => 9,
                    (2, 300..=1000) => 0,
                    _ => d,
                };
                text.push(char::from(b'0' + d as u8));
            }
            if round % 4 == 1 {
                let at = 1 + (xorshift(&mut seed) as usize % (len - 1));
                text.insert(at, '.');
            }
            text.push_str(exponents[round % exponents.len()]);
            let s = scan(&text).unwrap();
            let exact = parse_exact(&s);
            cases += 1;
            if let Some(bounded) = parse_bounded(&s) {
                decided += 1;
                match (&bounded, &exact) {
                    (Ok(b), Ok(e)) => assert!(b.same_value(e) && b.neg == e.neg && b.form == e.form, "{text}"),
                    _ => assert_eq!(bounded.is_err(), exact.is_err(), "{text}"),
                }
            }
        }
        assert_eq!(cases, 240);
        assert!(decided >= 235, "only {decided} of {cases} decided by the bounds");
    }

    /// Exact ties (a mantissa halfway between two 512-bit numbers, written
    /// out in over a thousand digits): the bounds round apart, and the
    /// whole mantissa decides, to even.
    #[test]
    fn ties_are_left_to_the_whole_mantissa() {
        for (low_bits, rounds_up) in [(2u32, false), (6, true)] {
            // 2^513 + low_bits: 514 bits, of which the last two are cut;
            // the cut bits are 10, a tie.
            let m = (UBig::ONE << 513) + UBig::from(low_bits);
            let text = (&m << 3600).to_string();
            assert!(text.len() > BOUNDED_ABOVE);
            let s = scan(&text).unwrap();
            assert!(parse_bounded(&s).is_none(), "{text}");
            let parsed = parse(&text).unwrap();
            // The 512 bits kept, odd for 6 (so up to even), even for 2.
            let expect = (m >> 2) + UBig::from(u8::from(rounds_up));
            let expect = BigFloat::round_from(false, expect, 3602, false, PARSE_PREC);
            assert!(parsed.same_value(&expect));
        }
    }

    /// Values within a part in 10^390 to 10^410 of a rounding boundary,
    /// after scaling by a power of ten either way: the bounds decide some
    /// (always as the whole mantissa does) and leave the others to it.
    #[test]
    fn near_rounding_boundaries_the_bounds_decide_alike_or_not_at_all() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let (mut decided, mut left) = (0, 0);
        for round in 0..120 {
            // A midpoint between two 512-bit numbers: 513 bits, odd.
            let mut mid = UBig::ONE << 512;
            for w in 0..8 {
                mid |= UBig::from(xorshift(&mut seed)) << (64 * w + 1);
            }
            let mid = (mid & ((UBig::ONE << 513) - UBig::ONE)) | (UBig::ONE << 512) | UBig::ONE;
            // Go's quotient or product by its 5^1100 (576 bits) is exactly
            // `mid` times a power of two for the divided literal, and
            // within a part in 10^1000 of it for the multiplied one.
            let p = pow5(1100, PARSE_PREC + 64);
            let (mant, exponent) = if round % 2 == 0 { ((&mid * &p.mant) << 2500, "e-1100") } else { ((&mid << 3500) / &p.mant, "e1100") };
            let len = mant.to_string().len();
            let nudge = UBig::from(10u8).pow(len - 390 - (round % 21));
            let (low, high) = (&mant - &nudge, &mant + &nudge);
            for m in [mant.clone(), low, high] {
                let text = format!("{m}{exponent}");
                let s = scan(&text).unwrap();
                let exact = parse_exact(&s).unwrap();
                match parse_bounded(&s) {
                    Some(bounded) => {
                        assert!(bounded.unwrap().same_value(&exact), "{text}");
                        decided += 1;
                    }
                    None => left += 1,
                }
            }
        }
        assert!(decided > 30 && left > 30, "{decided} decided, {left} left to the whole mantissa");
    }

    /// A mantissa that is a power of two: its bounds have lengths one
    /// apart, and still decide.
    #[test]
    fn a_power_of_two_is_decided_across_the_ends_lengths() {
        for n in [4000usize, 4001, 7777] {
            let text = (UBig::ONE << n).to_string();
            let s = scan(&text).unwrap();
            let bounded = parse_bounded(&s).expect("decided").unwrap();
            assert!(bounded.same_value(&parse_exact(&s).unwrap()), "2^{n}");
        }
    }

    /// A long run of zeros is zero, whatever the exponent, without
    /// converting it.
    #[test]
    fn long_zeros_are_zero() {
        let text = format!("-{}.{}e99999999999", "0".repeat(3000), "0".repeat(3000));
        let parsed = parse(&text).unwrap();
        assert!(parsed.form == super::super::float::Form::Zero && parsed.neg);
    }

    #[test]
    fn five_to_the_k_is_bounded_both_ways() {
        for k in [0u64, 1, 27, 28, 100, 1000, 4321] {
            let exact = UBig::from(5u8).pow(k as usize);
            let ((lm, le), (hm, he)) = pow5_bounds(k);
            assert!((lm << le as usize) <= exact && exact <= (hm << he as usize), "5^{k}");
        }
    }
}
