//! Decimal output exactly as Go's `big.Float.Text`: `'f'` with shortest
//! precision (what cty/json writes and what cty number equality compares)
//! and `'g'` with 10 digits (what cty's set hashing writes).
//!
//! Go first expands the binary value into its exact decimal digits and then
//! rounds; we do the same with big-integer arithmetic (`m * 5^k` instead of
//! Go's repeated halving), so the result is identical digit for digit.

use dashu::integer::UBig;

use super::float::{bit_len, BigFloat, Form};

/// A decimal `0.d1d2d3... * 10^exp` with no leading or trailing zero digits;
/// no digits means zero. Mirrors Go's internal `decimal` type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Decimal {
    pub digits: Vec<u8>,
    pub exp: i64,
}

/// Values whose binary exponent lies beyond this bound are not expanded into
/// decimal: the expansion alone would have about 0.3 digits per exponent
/// unit (Go takes 37 s on `1e-400400`). The bound allows magnitudes down to
/// about 1e-100000 and up to about 1e+100000.
pub(crate) const MAX_TEXT_BINARY_EXPONENT: i64 = 332_200;

/// Whether `mant * 2^shift` is small enough in exponent to expand exactly.
pub(crate) fn within_text_limit(x: &BigFloat) -> bool {
    match x.form {
        Form::Finite => x.go_exp().abs() <= MAX_TEXT_BINARY_EXPONENT && x.exp.abs() <= MAX_TEXT_BINARY_EXPONENT + x.prec as i64 + 64,
        _ => true,
    }
}

impl Decimal {
    /// The exact decimal expansion of `m * 2^shift`.
    pub fn exact(m: &UBig, shift: i64) -> Decimal {
        if m.is_zero() {
            return Decimal { digits: Vec::new(), exp: 0 };
        }
        let tz = m.trailing_zeros().unwrap_or(0);
        let m = m >> tz;
        let shift = shift + tz as i64;
        let (n, frac_digits) = if shift >= 0 {
            (m << shift as usize, 0i64)
        } else {
            // m / 2^k == m * 5^k / 10^k
            let k = (-shift) as usize;
            (m * UBig::from(5u8).pow(k), k as i64)
        };
        let mut digits = n.to_string().into_bytes();
        let int_len = digits.len() as i64;
        while digits.last() == Some(&b'0') {
            digits.pop();
        }
        Decimal { digits, exp: int_len - frac_digits }
    }

    fn at(&self, i: usize) -> u8 {
        self.digits.get(i).copied().unwrap_or(b'0')
    }

    fn should_round_up(&self, n: usize) -> bool {
        match self.digits.get(n) {
            Some(b'5') if n + 1 == self.digits.len() => n > 0 && (self.digits[n - 1] - b'0') & 1 != 0,
            Some(&d) => d >= b'5',
            None => false,
        }
    }

    /// Keep `n` digits, rounding half to even (on the exact digits).
    pub fn round(&mut self, n: i64) {
        if n < 0 || n as usize >= self.digits.len() {
            return;
        }
        if self.should_round_up(n as usize) {
            self.round_up(n as usize);
        } else {
            self.round_down(n as usize);
        }
    }

    fn round_up(&mut self, n: usize) {
        if n >= self.digits.len() {
            return;
        }
        let mut n = n;
        while n > 0 && self.digits[n - 1] >= b'9' {
            n -= 1;
        }
        if n == 0 {
            self.digits.truncate(1);
            self.digits[0] = b'1';
            self.exp += 1;
            return;
        }
        self.digits[n - 1] += 1;
        self.digits.truncate(n);
    }

    fn round_down(&mut self, n: usize) {
        if n >= self.digits.len() {
            return;
        }
        self.digits.truncate(n);
        while self.digits.last() == Some(&b'0') {
            self.digits.pop();
        }
        if self.digits.is_empty() {
            self.exp = 0;
        }
    }
}

/// The shortest decimal that Go considers to round back to `x` at `x.prec`
/// (Go's `roundShortest`, including its symmetric half-ulp interval).
/// `x` must be finite and within the text limit.
pub(crate) fn shortest_decimal(x: &BigFloat) -> Decimal {
    let mut d = Decimal::exact(&x.mant, x.exp);
    if d.digits.is_empty() {
        return d;
    }
    // Mantissa with prec + 1 bits, whose lowest bit is half an ulp.
    let bits = bit_len(&x.mant);
    let s = bits - (x.prec as i64 + 1);
    let (mant, exp) = if s < 0 {
        (&x.mant << (-s) as usize, x.exp + s)
    } else {
        // Only reachable when the value carries more bits than its precision,
        // which our rounding never produces; kept for fidelity with Go.
        (&x.mant >> s as usize, x.exp + s)
    };
    let lower = Decimal::exact(&(&mant - UBig::ONE), exp);
    let upper = Decimal::exact(&(&mant + UBig::ONE), exp);
    let inclusive = !mant.bit_is_set(1);

    for i in 0..d.digits.len() {
        let m = d.digits[i];
        let l = lower.at(i);
        let u = upper.at(i);
        let ok_down = l != m || inclusive && i + 1 == lower.digits.len();
        let ok_up = m != u && (inclusive || m + 1 < u || i + 1 < upper.digits.len());
        match (ok_down, ok_up) {
            (true, true) => {
                d.round(i as i64 + 1);
                return d;
            }
            (true, false) => {
                d.round_down(i + 1);
                return d;
            }
            (false, true) => {
                d.round_up(i + 1);
                return d;
            }
            (false, false) => {}
        }
    }
    d
}

trait BitIsSet {
    fn bit_is_set(&self, n: usize) -> bool;
}

impl BitIsSet for UBig {
    fn bit_is_set(&self, n: usize) -> bool {
        use dashu::base::BitTest;
        self.bit(n)
    }
}

/// Appends `d` in Go's `%f` layout with `frac` fraction digits.
fn push_fixed(out: &mut String, frac: i64, d: &Decimal) {
    if d.exp > 0 {
        let m = (d.digits.len() as i64).min(d.exp) as usize;
        out.push_str(std::str::from_utf8(&d.digits[..m]).unwrap_or(""));
        for _ in m as i64..d.exp {
            out.push('0');
        }
    } else {
        out.push('0');
    }
    if frac > 0 {
        out.push('.');
        for i in 0..frac {
            let pos = d.exp + i;
            let digit = if pos >= 0 { d.at(pos as usize) } else { b'0' };
            out.push(digit as char);
        }
    }
}

/// Appends `d` in Go's `%e` layout with `prec` fraction digits.
fn push_sci(out: &mut String, prec: i64, d: &Decimal) {
    out.push(d.digits.first().map_or('0', |&c| c as char));
    if prec > 0 {
        out.push('.');
        let mut i = 1usize;
        let m = (d.digits.len() as i64).min(prec + 1) as usize;
        if i < m {
            out.push_str(std::str::from_utf8(&d.digits[i..m]).unwrap_or(""));
            i = m;
        }
        while (i as i64) <= prec {
            out.push('0');
            i += 1;
        }
    }
    out.push('e');
    let exp = if d.digits.is_empty() { 0 } else { d.exp - 1 };
    out.push(if exp < 0 { '-' } else { '+' });
    let a = exp.unsigned_abs();
    if a < 10 {
        out.push('0');
    }
    out.push_str(&a.to_string());
}

fn push_sign_or_inf(out: &mut String, x: &BigFloat) -> bool {
    if x.neg {
        out.push('-');
    }
    if x.form == Form::Inf {
        if !x.neg {
            out.push('+');
        }
        out.push_str("Inf");
        return true;
    }
    false
}

/// Go's `x.Text('f', -1)` given the shortest decimal of `x`.
pub(crate) fn format_fixed_shortest(x: &BigFloat, d: &Decimal) -> String {
    let mut out = String::new();
    if push_sign_or_inf(&mut out, x) {
        return out;
    }
    let frac = (d.digits.len() as i64 - d.exp).max(0);
    push_fixed(&mut out, frac, d);
    out
}

/// Go's `x.Text('g', 10)` (`big.Float.String`), used by cty's set hashing.
/// `x` must be within the text limit.
pub(crate) fn format_general10(x: &BigFloat) -> String {
    let mut out = String::new();
    if push_sign_or_inf(&mut out, x) {
        return out;
    }
    let mut d = match x.form {
        Form::Finite => Decimal::exact(&x.mant, x.exp),
        _ => Decimal { digits: Vec::new(), exp: 0 },
    };
    let mut prec: i64 = 10;
    d.round(prec);
    let len = d.digits.len() as i64;
    let mut eprec = prec;
    if eprec > len && len >= d.exp {
        eprec = len;
    }
    let exp = d.exp - 1;
    if exp < -4 || exp >= eprec {
        if prec > len {
            prec = len;
        }
        push_sci(&mut out, prec - 1, &d);
        return out;
    }
    if prec > d.exp {
        prec = len;
    }
    push_fixed(&mut out, (prec - d.exp).max(0), &d);
    out
}
