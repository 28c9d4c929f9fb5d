//! Decimal output exactly as Go's `big.Float.Text`: `'f'` with shortest
//! precision (what cty/json writes and what cty number equality compares)
//! and `'g'` with 10 digits (what cty's set hashing writes).
//!
//! Go first expands the binary value into its exact decimal digits and then
//! rounds; we do the same with big-integer arithmetic (`m * 5^k` instead of
//! Go's repeated halving), so the result is identical digit for digit.

use dashu::base::DivRem;
use dashu::integer::UBig;

use super::float::{bit_len, BigFloat, Form};

/// Slightly below log10(2), so that digit-count estimates from bit lengths
/// are never too high despite float rounding.
const LOG10_2_BELOW: f64 = std::f64::consts::LOG10_2 - 1e-9;

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
            (m * &*pow5(k), k as i64)
        };
        let mut digits = to_decimal_digits(&n);
        let int_len = digits.len() as i64;
        while digits.last() == Some(&b'0') {
            digits.pop();
        }
        Decimal { digits, exp: int_len - frac_digits }
    }

    /// The first `keep` (or a few more) digits of the exact expansion of
    /// `m * 2^shift`, followed by a sentinel digit 1 when the expansion goes
    /// on with anything nonzero. Rounding to fewer than `keep - 1` digits
    /// then behaves exactly as on the full expansion (a tie is only a tie if
    /// nothing follows the 5).
    pub fn leading(m: &UBig, shift: i64, keep: i64) -> Decimal {
        if m.is_zero() {
            return Decimal { digits: Vec::new(), exp: 0 };
        }
        let (n, frac_digits) = if shift >= 0 {
            (m << shift as usize, 0i64)
        } else {
            let k = (-shift) as usize;
            (m * &*pow5(k), k as i64)
        };
        let min_digits = ((bit_len(&n) - 1) as f64 * LOG10_2_BELOW) as i64 + 1;
        let skip = (min_digits - keep).max(0);
        let (q, rest_nonzero) = if skip == 0 {
            (n, false)
        } else {
            let (q, r) = n.div_rem(&*pow10(skip as usize));
            (q, !r.is_zero())
        };
        let mut digits = to_decimal_digits(&q);
        let total = digits.len() as i64 + skip;
        if rest_nonzero {
            digits.push(b'1');
        } else {
            while digits.last() == Some(&b'0') {
                digits.pop();
            }
        }
        Decimal { digits, exp: total - frac_digits }
    }

    pub fn at(&self, i: usize) -> u8 {
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

    pub fn round_up(&mut self, n: usize) {
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

    pub fn round_down(&mut self, n: usize) {
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
    super::work::note_digits_work(x);
    if let Some(l) = x.literal {
        return l.decimal();
    }
    short_decimal(x).or_else(|| shortest_windowed(x)).unwrap_or_else(|| shortest_exact(x))
}

/// The digits of a decimal literal of at most 15 significant digits and a
/// magnitude of at least `1e-140` and below `1e140` (within
/// [`SHORT_DECIMAL_RANGE`]; `4534.23`, `0.05`, `1.5e3`):
/// the shortest decimal of the number parsed from it, by
/// [`short_decimal`]'s argument (the parsed value is the literal rounded,
/// and no other decimal of at most 15 digits rounds to it). Kept with the
/// parsed value ([`BigFloat::literal`]), so that writing it (templates,
/// `tostring`, JSON results) takes neither the walk nor the check
/// [`short_decimal`] makes with a second parse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LiteralDigits {
    /// The significant digits as an integer: no leading or trailing zero.
    digits: u64,
    /// The magnitude is `digits * 10^exp10`.
    exp10: i32,
}

impl LiteralDigits {
    /// The literal digits `digits` (ASCII digits and at most one `.`) times
    /// `10^exp`, when they qualify.
    pub(crate) fn of(digits: &[u8], exp: i64) -> Option<LiteralDigits> {
        let mut value: u64 = 0;
        let (mut significant, mut frac, mut seen_dot, mut trailing_zeros) = (0u32, 0i64, false, 0i64);
        for &c in digits {
            if c == b'.' {
                seen_dot = true;
                continue;
            }
            let d = u64::from(c.wrapping_sub(b'0'));
            if d > 9 {
                return None;
            }
            if seen_dot {
                frac += 1;
            }
            if value == 0 && d == 0 {
                // A leading zero.
                continue;
            }
            significant += 1;
            if significant > SHORT_DECIMAL_DIGITS {
                return None;
            }
            value = value * 10 + d;
            trailing_zeros = if d == 0 { trailing_zeros + 1 } else { 0 };
        }
        if value == 0 {
            return None;
        }
        let z = u32::try_from(trailing_zeros).ok()?;
        let value = value / 10u64.pow(z);
        let exp10 = exp.checked_sub(frac)?.checked_add(trailing_zeros)?;
        let ndigits = i64::from(value.ilog10()) + 1;
        // Within the range at both ends: `10^exp10 <= |x| < 10^(exp10 + ndigits)`.
        if exp10 < -SHORT_DECIMAL_EXP10 || exp10 + ndigits > SHORT_DECIMAL_EXP10 {
            return None;
        }
        Some(LiteralDigits { digits: value, exp10: i32::try_from(exp10).ok()? })
    }

    fn decimal(self) -> Decimal {
        let digits = self.digits.to_string().into_bytes();
        let exp = i64::from(self.exp10) + digits.len() as i64;
        Decimal { digits, exp }
    }
}

/// Magnitudes [`short_decimal`] decides: a decimal of at most 15
/// significant digits whose exponent is within these bounds has an odd
/// part of under 513 bits (`10^15 * 5^140` is about `2^375`), so it never
/// lies halfway between two values of 512 bits.
const SHORT_DECIMAL_RANGE: std::ops::RangeInclusive<f64> = 1e-140..=1e140;

/// [`SHORT_DECIMAL_RANGE`]'s decimal exponent (its bounds are
/// `10^-SHORT_DECIMAL_EXP10` and `10^SHORT_DECIMAL_EXP10`).
const SHORT_DECIMAL_EXP10: i64 = 140;

/// The significant digits [`short_decimal`] and [`LiteralDigits`] allow.
const SHORT_DECIMAL_DIGITS: u32 = 15;

/// The shortest decimal of `x` when it is a parsed number of at most 15
/// significant digits (most numbers a configuration or a request writes),
/// found without expanding `x`: the shortest decimal that reads back as
/// the nearest `f64` is a candidate, and when it reads back (at 512 bits)
/// as `x` itself it is the answer. It lies within half an ulp of `x`, not
/// on the boundary (see [`SHORT_DECIMAL_RANGE`]), and any other decimal
/// of at most 15 digits differs from it by far more than an ulp, so Go's
/// walk, which finds the shortest decimal within its bounds (half an ulp
/// each side, or on the side below a power of two the finer spacing's:
/// bounds that hold the whole rounding interval) and, among those as
/// long, the nearest, stops at it. The read-back is one correct rounding
/// here: Go's parser scales by `5^k` computed at 576 bits, exact for the
/// `k` of at most 154 this range allows. `None`: not such a number (most
/// results of arithmetic), for the walk to decide.
pub(super) fn short_decimal(x: &BigFloat) -> Option<Decimal> {
    if x.prec != super::parse::PARSE_PREC || x.form != Form::Finite {
        return None;
    }
    let f = x.to_f64().abs();
    if !SHORT_DECIMAL_RANGE.contains(&f) {
        return None;
    }
    // Rust writes the fewest digits that read back as `f`.
    let text = format!("{f:e}");
    let (mantissa, exp10) = text.split_once('e')?;
    let digits: Vec<u8> = mantissa.bytes().filter(|&b| b != b'.').collect();
    if digits.len() > SHORT_DECIMAL_DIGITS as usize || digits.first() == Some(&b'0') || digits.last() == Some(&b'0') {
        return None;
    }
    let exp10: i64 = exp10.parse().ok()?;
    let back = super::parse::parse(&text).ok()?;
    if back.form != Form::Finite || back.prec != x.prec || back.exp != x.exp || back.mant != x.mant {
        return None;
    }
    // `d.ddd e E` is `0.dddd * 10^(E + 1)`.
    Some(Decimal { digits, exp: exp10 + 1 })
}

/// Go's algorithm on the full exact expansions of x and of its half-ulp
/// bounds. Reference implementation; the windowed version below must agree.
pub(crate) fn shortest_exact(x: &BigFloat) -> Decimal {
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

/// Go's `x.Text('f', -1)` (what cty/json writes), see `format::append`.
pub(crate) fn format_fixed_shortest(x: &BigFloat) -> String {
    super::format::append(x, b'f', -1)
}

/// Go's `x.Text('g', 10)` (`big.Float.String`), used by cty's set hashing.
pub(crate) fn format_general10(x: &BigFloat) -> String {
    super::format::append(x, b'g', 10)
}

/// Go's digit walk, reading only a window of leading digits.
///
/// With `M` = x's mantissa widened to prec+1 bits (its lowest bit is half an
/// ulp) and `x = M * 2^e`, the exact decimals of x and its bounds are the
/// integers `X = M*5^k` and `X -/+ 5^k` with the decimal point k = -e places
/// from the right (for e < 0), or `X = M*2^e` and `X -/+ 2^e` (e >= 0). The
/// three differ from each other within their first ~0.302*(prec+1) + 2
/// digits, which is all the walk ever inspects, so it is enough to divide
/// them by a power of ten and convert only the top digits. Lengths (after
/// trimming trailing zeros) come from counting factors of two and five.
/// Returns `None` (caller uses the exact walk) if the window would not do.
fn shortest_windowed(x: &BigFloat) -> Option<Decimal> {
    let bits = bit_len(&x.mant);
    let widen = x.prec as i64 + 1 - bits;
    if widen < 1 {
        return None;
    }
    let e = x.exp - widen;
    let m = &x.mant << widen as usize;
    // X, the half-ulp step P, the decimal places, and the trailing decimal
    // zeros of X, X - P and X + P (mant is odd, M -/+ 1 are odd).
    let (big_x, step, frac, tz_x, tz_l, tz_u) = if e < 0 {
        let k = -e;
        let p5 = pow5(k as usize);
        let fives = if widen > k { k + factors_of_five(&x.mant, widen - k) } else { k };
        (&m * &*p5, p5, k, widen.min(fives), 0, 0)
    } else {
        let p2 = std::rc::Rc::new(UBig::ONE << e as usize);
        let tz_x = factors_of_five(&x.mant, x.exp);
        let tz_l = factors_of_five(&(&m - UBig::ONE), e);
        let tz_u = factors_of_five(&(&m + UBig::ONE), e);
        (&m << e as usize, p2, 0, tz_x, tz_l, tz_u)
    };
    let window = ((x.prec as f64 + 1.0) * std::f64::consts::LOG10_2).ceil() as i64 + 8;
    // A lower bound on X's digit count, so each window keeps >= `window` digits.
    let min_digits = ((bit_len(&big_x) - 1) as f64 * LOG10_2_BELOW) as i64 + 1;
    let skip = (min_digits - window).max(0);
    let (xs, ls, us) = if skip == 0 {
        (to_decimal_digits(&big_x), to_decimal_digits(&(&big_x - &*step)), to_decimal_digits(&(&big_x + &*step)))
    } else {
        // floor((X -/+ P) / 10^s) from X = X'*10^s + rx and P = P'*10^s + rp:
        // X' - P' - [rp > rx] and X' + P' + [rx + rp >= 10^s]; P' is small.
        let scale = pow10(skip as usize);
        let (xq, xr) = (&big_x).div_rem(&*scale);
        let (pq, pr) = (&*step).div_rem(&*scale);
        let pq = u64::try_from(&pq).ok()?;
        let down = pq.checked_add(u64::from(pr > xr))?;
        let up = pq.checked_add(u64::from(&xr + &pr >= *scale))?;
        let xs = to_decimal_digits(&xq);
        let ls = decimal_sub_small(&xs, down)?;
        let us = decimal_add_small(&xs, up);
        (xs, ls, us)
    };
    let x_digits = xs.len() as i64 + skip;
    let len_d = x_digits - tz_x;
    let (len_l, len_u) =
        if skip == 0 { (trimmed_len(&ls), trimmed_len(&us)) } else { (ls.len() as i64 + skip - tz_l, us.len() as i64 + skip - tz_u) };
    // Digit i of a number whose expansion has `len` digits and whose
    // window is `w`; None when the window is too short.
    let at = |w: &[u8], len: i64, i: usize| -> Option<u8> {
        if (i as i64) < len {
            w.get(i).copied()
        } else {
            Some(b'0')
        }
    };
    let inclusive = !m.bit_is_set(1);
    let mut d = Decimal { digits: xs[..(len_d.min(xs.len() as i64).max(0) as usize)].to_vec(), exp: x_digits - frac };
    let full_window = len_d <= xs.len() as i64;
    for i in 0..len_d.max(0) as usize {
        // The rounding below may look two digits ahead.
        if !full_window && i + 2 >= d.digits.len() {
            return None;
        }
        let md = at(&xs, len_d, i)?;
        let l = at(&ls, len_l, i)?;
        let u = at(&us, len_u, i)?;
        let ok_down = l != md || inclusive && (i as i64) + 1 == len_l;
        let ok_up = md != u && (inclusive || md + 1 < u || (i as i64) + 1 < len_u);
        match (ok_down, ok_up) {
            (true, true) => {
                d.round(i as i64 + 1);
                return Some(d);
            }
            (true, false) => {
                d.round_down(i + 1);
                return Some(d);
            }
            (false, true) => {
                d.round_up(i + 1);
                return Some(d);
            }
            (false, false) => {}
        }
    }
    if full_window {
        Some(d)
    } else {
        None
    }
}

/// `digits - c` for a decimal digit string, without leading zeros
/// (`None` if the result would be negative).
fn decimal_sub_small(digits: &[u8], c: u64) -> Option<Vec<u8>> {
    let mut out = digits.to_vec();
    let mut borrow = c;
    for slot in out.iter_mut().rev() {
        if borrow == 0 {
            break;
        }
        let sub = (borrow % 10) as u8;
        borrow /= 10;
        let d = *slot - b'0';
        if d >= sub {
            *slot = b'0' + d - sub;
        } else {
            *slot = b'0' + d + 10 - sub;
            borrow += 1;
        }
    }
    if borrow != 0 {
        return None;
    }
    let start = out.iter().position(|&b| b != b'0').unwrap_or(out.len().saturating_sub(1));
    out.drain(..start);
    Some(out)
}

/// `digits + c` for a decimal digit string.
fn decimal_add_small(digits: &[u8], c: u64) -> Vec<u8> {
    let mut out = digits.to_vec();
    let mut carry = c;
    for slot in out.iter_mut().rev() {
        if carry == 0 {
            break;
        }
        let sum = (*slot - b'0') as u64 + carry % 10;
        carry /= 10;
        *slot = b'0' + (sum % 10) as u8;
        carry += sum / 10;
    }
    if carry != 0 {
        let mut head = carry.to_string().into_bytes();
        head.extend_from_slice(&out);
        out = head;
    }
    out
}

/// How many times 5 divides `m` (m > 0), counting at most `cap`.
///
/// Divided by 5^27 (the largest power in a word) while it goes, then by
/// 5: a mantissa of 10^99999 (a `parseint` of 100,000 digits, at its own
/// precision) has 99,999 factors, and dividing by 5 one at a time took
/// 1.2 s per text.
fn factors_of_five(m: &UBig, cap: i64) -> i64 {
    const CHUNK: i64 = 27;
    const FIVE_27: u64 = 7_450_580_596_923_828_125;
    let mut count = 0;
    let mut rest = m.clone();
    while cap - count >= CHUNK {
        let (q, r) = (&rest).div_rem(FIVE_27);
        if r != 0 {
            break;
        }
        rest = q;
        count += CHUNK;
    }
    while count < cap {
        let (q, r) = (&rest).div_rem(5u8);
        if r != 0 {
            break;
        }
        rest = q;
        count += 1;
    }
    count
}

fn trimmed_len(digits: &[u8]) -> i64 {
    let mut n = digits.len();
    while n > 0 && digits[n - 1] == b'0' {
        n -= 1;
    }
    n as i64
}

/// Decimal digits of `n` (no sign, "0" for zero). Schoolbook conversion on
/// 32-bit limbs, nine digits per pass, for the sizes numbers here have;
/// dashu's converter for anything larger.
pub(crate) fn to_decimal_digits(n: &UBig) -> Vec<u8> {
    let words = n.as_words();
    if words.len() > 48 {
        return n.to_string().into_bytes();
    }
    let mut limbs: Vec<u32> = Vec::with_capacity(words.len() * 2);
    for &w in words {
        // dashu's Word is u64 on 64-bit targets and u32 elsewhere.
        #[allow(clippy::unnecessary_cast)]
        let w = w as u64;
        limbs.push(w as u32);
        limbs.push((w >> 32) as u32);
    }
    while limbs.last() == Some(&0) {
        limbs.pop();
    }
    if limbs.is_empty() {
        return vec![b'0'];
    }
    const CHUNK: u64 = 1_000_000_000;
    let mut chunks: Vec<u32> = Vec::with_capacity(limbs.len() * 32 / 29 + 1);
    while !limbs.is_empty() {
        let mut rem: u64 = 0;
        for limb in limbs.iter_mut().rev() {
            let cur = (rem << 32) | *limb as u64;
            *limb = (cur / CHUNK) as u32;
            rem = cur % CHUNK;
        }
        chunks.push(rem as u32);
        while limbs.last() == Some(&0) {
            limbs.pop();
        }
    }
    let mut out = Vec::with_capacity(chunks.len() * 9);
    let mut first = true;
    for &c in chunks.iter().rev() {
        let mut buf = [b'0'; 9];
        let mut v = c;
        for slot in buf.iter_mut().rev() {
            *slot = b'0' + (v % 10) as u8;
            v /= 10;
        }
        if first {
            let start = buf.iter().position(|&b| b != b'0').unwrap_or(8);
            out.extend_from_slice(&buf[start..]);
            first = false;
        } else {
            out.extend_from_slice(&buf);
        }
    }
    out
}

/// Most-recently-used (exponent, power) pairs.
type PowCache = std::cell::RefCell<Vec<(usize, std::rc::Rc<UBig>)>>;

thread_local! {
    static POW5_CACHE: PowCache = const { std::cell::RefCell::new(Vec::new()) };
    static POW10_CACHE: PowCache = const { std::cell::RefCell::new(Vec::new()) };
}

/// Small most-recently-used cache: numbers of one program tend to share a
/// handful of magnitudes and precisions, hence of exponents here.
fn cached_pow(cache: &'static std::thread::LocalKey<PowCache>, base: u8, k: usize) -> std::rc::Rc<UBig> {
    const SLOTS: usize = 16;
    cache.with(|c| {
        let mut c = c.borrow_mut();
        if let Some(pos) = c.iter().position(|(key, _)| *key == k) {
            let hit = c.remove(pos);
            let v = hit.1.clone();
            c.insert(0, hit);
            return v;
        }
        let v = std::rc::Rc::new(UBig::from(base).pow(k));
        c.insert(0, (k, v.clone()));
        c.truncate(SLOTS);
        v
    })
}

fn pow5(k: usize) -> std::rc::Rc<UBig> {
    cached_pow(&POW5_CACHE, 5, k)
}

fn pow10(k: usize) -> std::rc::Rc<UBig> {
    cached_pow(&POW10_CACHE, 10, k)
}

/// Cheap test for "the shortest text of `x` is its exact value": true when
/// x's exact decimal is short and half an ulp is clearly below one unit of
/// its last digit, so Go's walk keeps every digit (the bounds agree with x
/// up to the last digit, where only the lower one differs). False means
/// "unknown", not "no".
pub(crate) fn prints_exactly(x: &BigFloat) -> bool {
    if x.form != Form::Finite || bit_len(&x.mant) > 64 || x.exp < -64 || x.exp > 64 {
        return false;
    }
    let d = Decimal::exact(&x.mant, x.exp);
    let unit_exp10 = d.exp - d.digits.len() as i64;
    let half_ulp_exp2 = x.go_exp() - x.prec as i64 - 1;
    // 2^half_ulp_exp2 < 10^unit_exp10, with a margin for the float log.
    (half_ulp_exp2 as f64) < unit_exp10 as f64 * std::f64::consts::LOG2_10 - 1.0
}
