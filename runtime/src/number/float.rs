//! A binary floating-point number with per-value precision, modelled on Go's
//! `math/big.Float` in rounding mode ToNearestEven: that is what go-cty
//! stores for every number, and results must match it bit for bit.
//!
//! Representation: a finite value is `mant * 2^exp` with `mant` odd (trailing
//! zero bits are folded into `exp`), so equal values have equal fields.
//! Go's own exponent (value = 0.mant * 2^goexp, 0.5 <= 0.mant < 1) is
//! `exp + bit_len(mant)`; it must stay within Go's int32 range, beyond which
//! Go overflows to infinity or underflows to zero, and so do we.

use std::cmp::Ordering;

use dashu::base::{BitTest, DivRem};
use dashu::integer::{IBig, Sign, UBig};

/// Go's `big.MinExp` / `big.MaxExp`: the bounds of the normalized exponent.
pub(crate) const MIN_EXP: i64 = i32::MIN as i64;
pub(crate) const MAX_EXP: i64 = i32::MAX as i64;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Form {
    Zero,
    Finite,
    Inf,
}

#[derive(Clone, Debug)]
pub(crate) struct BigFloat {
    pub prec: u32,
    pub neg: bool,
    pub form: Form,
    /// Odd when finite, zero otherwise.
    pub mant: UBig,
    /// Exponent of the least significant mantissa bit.
    pub exp: i64,
    /// The shortest decimal of this value's magnitude when it is known
    /// without the walk: the literal it was parsed from
    /// ([`super::text::LiteralDigits`]); `None` for everything computed
    /// (a negation or an absolute value keeps it: same magnitude).
    pub literal: Option<super::text::LiteralDigits>,
}

/// Go panics with `big.ErrNaN` for 0*Inf, Inf-Inf, 0/0 and Inf/Inf; cty turns
/// that panic into an error whose wording depends on the operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct NaN;

pub(crate) fn bit_len(m: &UBig) -> i64 {
    m.bit_len() as i64
}

impl BigFloat {
    pub fn zero(neg: bool, prec: u32) -> BigFloat {
        BigFloat { prec, neg, form: Form::Zero, mant: UBig::ZERO, exp: 0, literal: None }
    }

    /// The integer `v` exactly (an integer needs no rounding: this is
    /// `round_from` without its work, for comparisons).
    pub fn from_exact_i64(v: i64, prec: u32) -> BigFloat {
        if v == 0 {
            return BigFloat::zero(false, prec);
        }
        let mag = v.unsigned_abs();
        let tz = mag.trailing_zeros();
        BigFloat { prec, neg: v < 0, form: Form::Finite, mant: UBig::from(mag >> tz), exp: i64::from(tz), literal: None }
    }

    pub fn inf(neg: bool, prec: u32) -> BigFloat {
        BigFloat { prec, neg, form: Form::Inf, mant: UBig::ZERO, exp: 0, literal: None }
    }

    /// Go's normalized exponent (only meaningful when finite).
    pub fn go_exp(&self) -> i64 {
        self.exp + bit_len(&self.mant)
    }

    /// Rounds the exact value `(-1)^neg * (mant + sticky) * 2^exp` to `prec`
    /// bits, where `sticky` stands for "some nonzero amount below the lowest
    /// bit of `mant`" (callers only set it when `mant` already has more than
    /// `prec + 1` bits, so it can only break ties). Handles Go's exponent
    /// overflow (to infinity) and underflow (to zero).
    pub fn round_from(neg: bool, mant: UBig, exp: i64, sticky: bool, prec: u32) -> BigFloat {
        if mant.is_zero() {
            return BigFloat::zero(neg, prec);
        }
        let bits = bit_len(&mant);
        let go_exp = exp + bits;
        if go_exp < MIN_EXP {
            return BigFloat::zero(neg, prec);
        }
        if go_exp > MAX_EXP {
            return BigFloat::inf(neg, prec);
        }
        let prec_i = prec as i64;
        let (mut mant, mut exp) = (mant, exp);
        if bits > prec_i {
            let cut = (bits - prec_i) as usize;
            let round_bit = mant.bit(cut - 1);
            let below_round_bit = sticky || mant.trailing_zeros().is_some_and(|tz| tz < cut - 1);
            mant >>= cut;
            exp += cut as i64;
            if round_bit && (below_round_bit || mant.bit(0)) {
                mant += UBig::ONE;
                if bit_len(&mant) > prec_i {
                    // Carried into a new top bit: 2^prec, which is 2^(prec-1) * 2.
                    mant >>= 1;
                    exp += 1;
                    if exp + bit_len(&mant) > MAX_EXP {
                        return BigFloat::inf(neg, prec);
                    }
                }
            }
        }
        if let Some(tz) = mant.trailing_zeros() {
            if tz > 0 {
                mant >>= tz;
                exp += tz as i64;
            }
        }
        BigFloat { prec, neg, form: Form::Finite, mant, exp, literal: None }
    }

    pub fn from_ibig(v: &IBig, prec: u32) -> BigFloat {
        let (sign, mag) = v.clone().into_parts();
        BigFloat::round_from(sign == Sign::Negative, mag, 0, false, prec)
    }

    /// Go's `SetFloat64` (precision 53). NaN is the caller's problem.
    pub fn from_f64(v: f64) -> Option<BigFloat> {
        if v.is_nan() {
            return None;
        }
        let neg = v.is_sign_negative();
        if v.is_infinite() {
            return Some(BigFloat::inf(neg, 53));
        }
        if v == 0.0 {
            return Some(BigFloat::zero(neg, 53));
        }
        let bits = v.to_bits();
        let biased = ((bits >> 52) & 0x7ff) as i64;
        let frac = bits & ((1u64 << 52) - 1);
        let (mant, exp) = if biased == 0 { (frac, -1074) } else { (frac | (1u64 << 52), biased - 1075) };
        Some(BigFloat::round_from(neg, UBig::from(mant), exp, false, 53))
    }

    /// Rounds to a new precision (Go's `SetPrec` for a nonzero precision).
    pub fn with_prec(&self, prec: u32) -> BigFloat {
        match self.form {
            Form::Finite if prec < self.prec => BigFloat::round_from(self.neg, self.mant.clone(), self.exp, false, prec),
            // (The literal decides the text at the parsed precision only:
            // dropped here, which is conservative at the same one.)
            _ => BigFloat { prec, literal: None, ..self.clone() },
        }
    }

    /// Go's `MinPrec`: the number of bits needed to represent the value exactly.
    pub fn min_prec(&self) -> u32 {
        match self.form {
            Form::Finite => bit_len(&self.mant) as u32,
            _ => 0,
        }
    }

    /// (The magnitude, and so its literal, is kept.)
    pub fn neg(&self) -> BigFloat {
        BigFloat { neg: !self.neg, ..self.clone() }
    }

    pub fn abs(&self) -> BigFloat {
        BigFloat { neg: false, ..self.clone() }
    }

    /// Go's `Sign`: -1, 0 (for either zero) or +1.
    pub fn sign(&self) -> i32 {
        match (self.form, self.neg) {
            (Form::Zero, _) => 0,
            (_, true) => -1,
            (_, false) => 1,
        }
    }

    /// Magnitude comparison of two finite values.
    fn cmp_abs_finite(&self, other: &BigFloat) -> Ordering {
        let (ea, eb) = (self.go_exp(), other.go_exp());
        if ea != eb {
            return ea.cmp(&eb);
        }
        // Same top bit position: align the lowest bits and compare integers.
        if self.exp >= other.exp {
            let shifted = &self.mant << (self.exp - other.exp) as usize;
            shifted.cmp(&other.mant)
        } else {
            let shifted = &other.mant << (other.exp - self.exp) as usize;
            self.mant.cmp(&shifted)
        }
    }

    /// Go's `Cmp`: numeric order, with -0 == +0.
    pub fn cmp(&self, other: &BigFloat) -> Ordering {
        let rank = |x: &BigFloat| -> i32 {
            let r = match x.form {
                Form::Zero => 0,
                Form::Finite => 1,
                Form::Inf => 2,
            };
            if x.neg {
                -r
            } else {
                r
            }
        };
        let (ra, rb) = (rank(self), rank(other));
        if ra != rb {
            return ra.cmp(&rb);
        }
        match ra {
            1 => self.cmp_abs_finite(other),
            -1 => other.cmp_abs_finite(self),
            _ => Ordering::Equal,
        }
    }

    /// Exact value equality (ignores precision; -0 == +0).
    pub fn same_value(&self, other: &BigFloat) -> bool {
        self.cmp(other) == Ordering::Equal
    }

    /// Go's `Add` into a result of precision `prec`.
    pub fn add(&self, y: &BigFloat, prec: u32) -> Result<BigFloat, NaN> {
        let x = self;
        match (x.form, y.form) {
            (Form::Finite, Form::Finite) => Ok(add_finite(x, y, prec)),
            (Form::Inf, Form::Inf) if x.neg != y.neg => Err(NaN),
            (Form::Zero, Form::Zero) => Ok(BigFloat::zero(x.neg && y.neg, prec)),
            (Form::Inf, _) | (_, Form::Zero) => Ok(x.with_prec(prec)),
            _ => Ok(y.with_prec(prec)),
        }
    }

    /// Go's `Sub`, which is `Add` of the negation.
    pub fn sub(&self, y: &BigFloat, prec: u32) -> Result<BigFloat, NaN> {
        self.add(&y.neg(), prec)
    }

    /// Go's `Mul` into a result of precision `prec`.
    pub fn mul(&self, y: &BigFloat, prec: u32) -> Result<BigFloat, NaN> {
        let neg = self.neg != y.neg;
        match (self.form, y.form) {
            (Form::Finite, Form::Finite) => {
                let mant = &self.mant * &y.mant;
                Ok(BigFloat::round_from(neg, mant, self.exp + y.exp, false, prec))
            }
            (Form::Zero, Form::Inf) | (Form::Inf, Form::Zero) => Err(NaN),
            (Form::Inf, _) | (_, Form::Inf) => Ok(BigFloat::inf(neg, prec)),
            _ => Ok(BigFloat::zero(neg, prec)),
        }
    }

    /// Go's `Quo` into a result of precision `prec`.
    pub fn quo(&self, y: &BigFloat, prec: u32) -> Result<BigFloat, NaN> {
        let neg = self.neg != y.neg;
        match (self.form, y.form) {
            (Form::Finite, Form::Finite) => Ok(quo_finite(neg, &self.mant, self.exp, &y.mant, y.exp, prec)),
            (Form::Zero, Form::Zero) | (Form::Inf, Form::Inf) => Err(NaN),
            (Form::Zero, _) | (_, Form::Inf) => Ok(BigFloat::zero(neg, prec)),
            _ => Ok(BigFloat::inf(neg, prec)),
        }
    }

    /// Go's `Int`: the value truncated toward zero, and whether the truncation
    /// moved it down (`Less`), up (`Greater`) or not at all. `None` for ±Inf.
    pub fn trunc_int(&self) -> Option<(IBig, Ordering)> {
        match self.form {
            Form::Inf => None,
            Form::Zero => Some((IBig::ZERO, Ordering::Equal)),
            Form::Finite => {
                let (mag, exact) = if self.exp >= 0 {
                    (&self.mant << self.exp as usize, true)
                } else {
                    let drop = (-self.exp) as u64;
                    if drop >= bit_len(&self.mant) as u64 {
                        (UBig::ZERO, false)
                    } else {
                        // mant is odd, so dropping any bit loses something.
                        (&self.mant >> drop as usize, false)
                    }
                };
                let moved = match (exact, self.neg) {
                    (true, _) => Ordering::Equal,
                    (false, false) => Ordering::Less,
                    (false, true) => Ordering::Greater,
                };
                let sign = if self.neg { Sign::Negative } else { Sign::Positive };
                Some((IBig::from_parts(sign, mag), moved))
            }
        }
    }

    pub fn is_integer(&self) -> bool {
        match self.form {
            Form::Zero => true,
            Form::Finite => self.exp >= 0,
            Form::Inf => false,
        }
    }

    /// Nearest f64 (ties to even), with subnormals, overflow to ±Inf and
    /// underflow to ±0, like Go's `Float64`.
    pub fn to_f64(&self) -> f64 {
        let sign = if self.neg { -1.0 } else { 1.0 };
        match self.form {
            Form::Zero => sign * 0.0,
            Form::Inf => sign * f64::INFINITY,
            Form::Finite => {
                // Go's exponent e: value = 0.1xxx * 2^e; f64 normal range has e in [-1021, 1024].
                let e = self.go_exp();
                let prec: i64 = if e < -1021 { 53 - (-1021 - e) } else { 53 };
                if prec < 1 {
                    // Below half the smallest subnormal, or exactly half of it (ties to even: 0),
                    // or above half of it (rounds up to the smallest subnormal).
                    let smallest = f64::from_bits(1);
                    if prec == 0 {
                        // value in [2^-1075, 2^-1074)
                        let is_half = self.mant.is_one();
                        return if is_half { sign * 0.0 } else { sign * smallest };
                    }
                    return sign * 0.0;
                }
                if prec == 53 {
                    return sign * self.to_f64_normal();
                }
                let r = BigFloat::round_from(self.neg, self.mant.clone(), self.exp, false, prec as u32);
                if r.form != Form::Finite || r.go_exp() > 1024 {
                    return sign * f64::INFINITY;
                }
                let m = u64::try_from(&r.mant).unwrap_or(0) as f64;
                sign * scale_pow2(m, r.exp)
            }
        }
    }
}

/// `m * 2^exp` for an exactly representable result, done in steps so that
/// intermediate powers of two neither overflow nor underflow.
impl BigFloat {
    /// The magnitude rounded to 53 bits (ties to even) for a finite value
    /// whose Go exponent is in f64's normal range (`-1021..=1024`): the
    /// same result as rounding with [`BigFloat::round_from`], read straight
    /// from the mantissa's words instead of through a rounded copy.
    fn to_f64_normal(&self) -> f64 {
        let words = self.mant.as_words();
        let bits = bit_len(&self.mant);
        if bits <= 53 {
            return scale_pow2(bits_at(words, 0, bits as usize) as f64, self.exp);
        }
        let cut = (bits - 53) as usize;
        let mut q = bits_at(words, cut, 53);
        // The mantissa is odd, so below the round bit (bit cut-1) there is
        // a nonzero remainder exactly when cut >= 2.
        let round = bits_at(words, cut - 1, 1) == 1;
        let sticky = cut >= 2;
        let mut exp = self.exp + cut as i64;
        if round && (sticky || q & 1 == 1) {
            q += 1;
            if q == 1 << 53 {
                q >>= 1;
                exp += 1;
            }
        }
        // Go exponent after rounding: exp + 53 (q has exactly 53 bits).
        if exp + 53 > 1024 {
            return f64::INFINITY;
        }
        scale_pow2(q as f64, exp)
    }
}

/// `n` (at most 64) bits of the little-endian word slice `words` starting
/// at bit `pos`; bits beyond the end read as zero.
fn bits_at(words: &[dashu::integer::Word], pos: usize, n: usize) -> u64 {
    const WB: usize = dashu::integer::Word::BITS as usize;
    let mut acc: u128 = 0;
    let mut filled = 0;
    let mut i = pos / WB;
    let shift = pos % WB;
    while filled < shift + n && i < words.len() {
        acc |= u128::from(words[i]) << filled;
        filled += WB;
        i += 1;
    }
    let v = (acc >> shift) as u64;
    if n >= 64 {
        v
    } else {
        v & ((1u64 << n) - 1)
    }
}

fn scale_pow2(m: f64, exp: i64) -> f64 {
    let mut v = m;
    let mut e = exp;
    while e > 0 {
        let step = e.min(1000);
        v *= f64::powi(2.0, step as i32);
        e -= step;
    }
    while e < 0 {
        let step = (-e).min(1000);
        v /= f64::powi(2.0, step as i32);
        e += step;
    }
    v
}

/// Addition or subtraction of finite magnitudes, rounded once.
///
/// Go aligns both mantissas exactly. When the exponents are far apart we
/// instead replace the far-smaller operand by a single sticky bit below the
/// rounding position: the rounded result is the same and the work stays
/// bounded by the precision, not by the exponent gap.
fn add_finite(x: &BigFloat, y: &BigFloat, prec: u32) -> BigFloat {
    let order = x.cmp_abs_finite(y);
    let (big, small) = if order == Ordering::Less { (y, x) } else { (x, y) };
    let subtract = x.neg != y.neg;
    let neg = big.neg; // the larger magnitude decides the sign
    if subtract && order == Ordering::Equal {
        return BigFloat::zero(false, prec);
    }
    // Keep at least prec + 3 bits below the top of `big` (and all of big's bits).
    let keep = (prec as i64).max(bit_len(&big.mant)) + 3;
    let floor_exp = big.go_exp() - keep;
    if small.go_exp() < floor_exp {
        // small < 2^floor_exp: below the rounding and guard bits.
        let shift = (big.exp - (floor_exp - 1)) as usize;
        let base = &big.mant << shift;
        let mant = if subtract { base - UBig::ONE } else { base + UBig::ONE };
        return BigFloat::round_from(neg, mant, floor_exp - 1, false, prec);
    }
    let low = big.exp.min(small.exp);
    let a = &big.mant << (big.exp - low) as usize;
    let b = &small.mant << (small.exp - low) as usize;
    let mant = if subtract { a - b } else { a + b };
    BigFloat::round_from(neg, mant, low, false, prec)
}

/// Quotient of finite magnitudes, correctly rounded: compute at least
/// prec + 2 quotient bits and fold the remainder into the sticky bit.
pub(crate) fn quo_finite(neg: bool, xm: &UBig, xe: i64, ym: &UBig, ye: i64, prec: u32) -> BigFloat {
    let want = prec as i64 + 2;
    let shift = (want + bit_len(ym) - bit_len(xm)).max(0);
    let num = xm << shift as usize;
    let (q, r) = num.div_rem(ym);
    let exp = xe - ye - shift;
    // The low bit of q is a guard bit, so OR-ing a nonzero remainder into it
    // (keeping q odd) carries the sticky information exactly.
    let q = if r.is_zero() { q } else { q | UBig::ONE };
    BigFloat::round_from(neg, q, exp, false, prec)
}

#[cfg(test)]
mod to_f64_tests {
    use super::*;

    /// The general path: round a copy to 53 bits, then scale.
    fn reference(b: &BigFloat) -> f64 {
        let r = BigFloat::round_from(b.neg, b.mant.clone(), b.exp, false, 53);
        if r.form != Form::Finite || r.go_exp() > 1024 {
            return f64::INFINITY;
        }
        scale_pow2(u64::try_from(&r.mant).unwrap_or(0) as f64, r.exp)
    }

    #[test]
    fn normal_range_fast_path_matches_rounding() {
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut checked = 0;
        for round in 0..4000 {
            // Mantissas of 1..=600 bits, odd; some with long runs of ones
            // (carry out of the top) or exact halfway tails.
            let nbits = 1 + (next() % 600) as usize;
            let mut m = UBig::ZERO;
            for _ in 0..nbits.div_ceil(64) {
                let w = match round % 4 {
                    0 => u64::MAX,
                    1 => 0,
                    _ => next(),
                };
                m = (m << 64) | UBig::from(w);
            }
            m = (m >> (nbits.div_ceil(64) * 64 - nbits)) | UBig::ONE;
            if round % 5 == 0 && nbits > 54 {
                // top 53 bits, then a single 1 (a tie) or 1 then zeros then 1.
                let top = UBig::from(next() | (1 << 52)) & UBig::from((1u64 << 53) - 1);
                m = (top << (nbits - 53)) | (UBig::ONE << (nbits - 54)) | UBig::ONE;
                if round % 10 == 0 {
                    m = (m >> (nbits - 54)) | UBig::ONE;
                }
            }
            let bits = bit_len(&m);
            // Go exponent in the normal range, including the edges.
            for go_exp in [-1021i64, -1000, -3, 0, 1, 52, 53, 600, 1023, 1024] {
                let b = BigFloat { prec: 512, neg: false, form: Form::Finite, mant: m.clone(), exp: go_exp - bits, literal: None };
                let (fast, slow) = (b.to_f64_normal(), reference(&b));
                assert_eq!(fast.to_bits(), slow.to_bits(), "mant {m:#x} exp {}", b.exp);
                assert_eq!(b.to_f64().to_bits(), slow.to_bits());
                checked += 1;
            }
        }
        assert_eq!(checked, 40_000);
    }
}
