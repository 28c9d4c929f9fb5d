//! cty numbers: arbitrary-precision binary floats with per-value precision,
//! digit-for-digit identical to go-cty v1.13.0 on Go's `math/big.Float`.
//!
//! # API overview (for other modules)
//!
//! Construction:
//! - [`Number::from_i64`] / [`Number::from_u64`] (cty.NumberIntVal / NumberUIntVal, 64-bit precision)
//! - [`Number::from_f64`] (cty.NumberFloatVal, 53-bit precision; `None` for NaN)
//! - [`Number::parse`] (cty.ParseNumberVal: HCL literals, JSON numbers, string → number; 512 bits)
//! - [`Number::from_ibig`] (Go `SetInt`: stdlib `parseint`, precision max(bits, 64))
//! - [`Number::pos_inf`], [`Number::neg_inf`], [`Number::zero`] (cty's constants)
//!
//! Arithmetic, each exactly as the cty operation (and the HCL operator built on it):
//! [`Number::add`], [`Number::sub`], [`Number::mul`], [`Number::div`], [`Number::rem`],
//! [`Number::neg`], [`Number::abs`], [`Number::floor`], [`Number::ceil`], [`Number::trunc`].
//! The fallible ones return [`NumberError`] whose `Display` is cty's error message.
//!
//! Comparison: [`Number::cmp`] (numeric, -0 == 0; use for `<`, `>`, sorting sets),
//! [`Number::equals`] (cty `Equals`: equal printed text), [`Number::hash_text`]
//! (the text cty hashes for set membership: `Text('g', 10)`).
//!
//! Output: [`Number::to_text`] / [`Number::append_text`] (`Text('f', -1)`; errors beyond the text limit, see
//! [`NumberError::TooLongToPrint`]), [`Number::to_text_general`] (`Text('g', -1)`, for
//! `format("%v")`), [`Number::go_format`] (`fmt.Sprintf` with one Go verb and its flags,
//! for `format`/`formatlist`), `Display` (same as `to_text`, or an approximate marker
//! beyond the limit — for messages only).
//!
//! Queries: [`Number::is_integer`], [`Number::to_i64`], [`Number::to_u64`] (exact, as gocty's
//! int conversions: `None` ⇒ "value must be a whole number, between ..."), [`Number::to_f64`],
//! [`Number::to_f64_in_range`] (gocty float64), [`Number::to_ibig_trunc`],
//! [`Number::is_infinite`], [`Number::is_zero`], [`Number::is_neg_zero`], [`Number::sign`],
//! [`Number::precision`].
//!
//! # Limits (hostile input)
//!
//! Values themselves are cheap at any magnitude (Go's int32 binary exponent
//! range; beyond it ±Inf / ±0, as Go): parsing `1e-400400` or `1e999999999`
//! takes microseconds, and arithmetic costs depend on precision only. What the
//! reference makes slow is *printing*: the decimal text of `1e-400400` has
//! 400,000 digits (37 s in Go). So text output (`to_text`, `to_text_general`,
//! `go_format`) refuses magnitudes beyond about 1e±100000 (binary exponent
//! ±332,200) with [`NumberError::TooLongToPrint`]; `go_format` builds any
//! width or precision Go's fmt can read (below 10,000,010; larger ones give
//! its `%!(NOVERB)` text), which `format` charges to the size budget
//! first. Beyond the magnitude limit `equals`
//! compares exact values (instead of texts) and `hash_text` returns a
//! non-numeric marker, so only cty's bucket order of sets holding such
//! numbers can differ from the reference.
//!
//! # Representation
//!
//! Integers that print as themselves (|v| < 2^precision) live inline as an
//! `i64` plus their precision; everything else (fractions, -0, ±Inf, big
//! magnitudes) is a boxed `BigFloat` (Go's big.Float model). The inline form is a cache of
//! the boxed one, never a different value: every operation gives the result
//! Go would give, the fast path only skips work.

mod float;
mod format;
mod parse;
mod text;
mod work;

#[cfg(test)]
mod tests;

use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;

use dashu::integer::{IBig, UBig};

use float::{BigFloat, Form, NaN};
pub use format::GoFormatSpec;
pub use parse::NumberParseError;

/// Precision of `from_i64` / `from_u64` (Go's `SetInt64` default).
const INT_PREC: u32 = 64;
/// Precision of `from_f64`.
const FLOAT_PREC: u32 = 53;

#[derive(Clone)]
pub struct Number(Repr);

#[derive(Clone)]
enum Repr {
    /// Invariant: `v.unsigned_abs() < 2^prec`, so the value is exact at `prec`
    /// and its text is `v`'s decimal digits. Zero here is +0.
    Small {
        prec: u32,
        v: i64,
    },
    // Shared: values are immutable, so cloning a fraction (every read of a
    // variable holding one) only bumps a count.
    Big(std::sync::Arc<BigFloat>),
}

const _: () = assert!(std::mem::size_of::<Number>() <= 16);

/// Errors of number operations. `Display` gives cty's wording.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NumberError {
    /// `Inf + -Inf` (cty: "can't compute sum of opposing infinities").
    OpposingInfinities,
    /// `Inf - Inf` (cty: "can't subtract infinity from itself").
    InfinityMinusInfinity,
    /// `0 * Inf` (cty: "can't multiply zero by infinity").
    ZeroTimesInfinity,
    /// `0 / 0` or `Inf / Inf` (cty: "can't divide zero by zero or infinity by infinity").
    Indeterminate,
    /// Modulo with an infinite operand hits a Go nil-pointer panic in cty, or
    /// a NaN panic ("can't use modulo with zero and infinity").
    ModuloZeroInfinity,
    /// Modulo of an infinite dividend: cty dereferences a nil big.Int and the
    /// reference reports a Go runtime panic.
    ModuloInfinitePanic,
    /// An integer format verb (`%d`...) on a number with a fraction or an infinity.
    NotAnInteger,
    /// `go_format` with a verb that is not a number verb.
    UnsupportedVerb,
    /// The number's decimal text would be enormous (magnitude beyond about
    /// 1e±100000); the reference takes minutes to hours to print these.
    TooLongToPrint,
    /// The operation's work is more than the evaluation has steps left
    /// for; it was not done (see `work`).
    OutOfSteps,
}

impl fmt::Display for NumberError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NumberError::OpposingInfinities => "can't compute sum of opposing infinities",
            NumberError::InfinityMinusInfinity => "can't subtract infinity from itself",
            NumberError::ZeroTimesInfinity => "can't multiply zero by infinity",
            NumberError::Indeterminate => "can't divide zero by zero or infinity by infinity",
            NumberError::ModuloZeroInfinity => "can't use modulo with zero and infinity",
            NumberError::ModuloInfinitePanic => {
                "panic in function implementation: runtime error: invalid memory address or nil pointer dereference"
            }
            NumberError::NotAnInteger => "an integer is required",
            NumberError::UnsupportedVerb => "unsupported format verb for a number",
            NumberError::TooLongToPrint => {
                "number is too large or too small to be written out in decimal (magnitude beyond about 1e±100000)"
            }
            NumberError::OutOfSteps => crate::work::OUT_OF_STEPS,
        })
    }
}

impl std::error::Error for NumberError {}

/// Appends the decimal digits of `i`, as `Display` writes them, without
/// going through `core::fmt` (which costs several times more per number):
/// the text of an integral number for [`Number::append_text`] and for the
/// VM's string templates.
pub fn push_i64(out: &mut String, i: i64) {
    let mut buf = [0u8; 20];
    let mut pos = buf.len();
    let mut m = i.unsigned_abs();
    loop {
        pos -= 1;
        buf[pos] = b'0' + (m % 10) as u8;
        m /= 10;
        if m == 0 {
            break;
        }
    }
    out.reserve(buf.len() + 1 - pos);
    if i < 0 {
        out.push('-');
    }
    // ASCII digits: pushing them as chars skips UTF-8 validation.
    for &d in &buf[pos..] {
        out.push(char::from(d));
    }
}

fn small_fits(v: i64, prec: u32) -> bool {
    prec >= 64 || v.unsigned_abs() < (1u64 << prec)
}

impl Number {
    /// An equal number that shares no allocation with this one.
    pub fn deep_copy(&self) -> Number {
        match &self.0 {
            Repr::Small { .. } => self.clone(),
            Repr::Big(b) => Number(Repr::Big(std::sync::Arc::new(BigFloat::clone(b)))),
        }
    }

    // ----- construction -------------------------------------------------

    /// A small integer at `prec`, or the rounded big form when it does not fit.
    fn int_with_prec(v: i64, prec: u32) -> Number {
        if small_fits(v, prec) {
            Number(Repr::Small { prec, v })
        } else {
            Number::from_big(BigFloat::from_ibig(&IBig::from(v), prec))
        }
    }

    fn from_big(b: BigFloat) -> Number {
        if b.form == Form::Finite && b.exp >= 0 && b.exp < 64 {
            if let Ok(m) = i64::try_from(&b.mant) {
                if let Some(v) = m.checked_shl(b.exp as u32).filter(|s| s >> b.exp == m) {
                    let v = if b.neg { -v } else { v };
                    if small_fits(v, b.prec) {
                        return Number(Repr::Small { prec: b.prec, v });
                    }
                }
            }
        }
        if b.form == Form::Zero && !b.neg {
            return Number(Repr::Small { prec: b.prec, v: 0 });
        }
        Number(Repr::Big(std::sync::Arc::new(b)))
    }

    fn to_big(&self) -> BigFloat {
        self.as_big().into_owned()
    }

    /// The big form, borrowed when there is one.
    fn as_big(&self) -> Cow<'_, BigFloat> {
        match &self.0 {
            // A small number fits its precision: exact, nothing to round.
            Repr::Small { prec, v } => Cow::Owned(BigFloat::from_exact_i64(*v, *prec)),
            Repr::Big(b) => Cow::Borrowed(&**b),
        }
    }

    /// Like cty.NumberIntVal (precision 64).
    pub fn from_i64(v: i64) -> Number {
        Number(Repr::Small { prec: INT_PREC, v })
    }

    /// Like cty.NumberUIntVal (precision 64).
    pub fn from_u64(v: u64) -> Number {
        match i64::try_from(v) {
            Ok(s) => Number::from_i64(s),
            Err(_) => Number::from_big(BigFloat::round_from(false, UBig::from(v), 0, false, INT_PREC)),
        }
    }

    /// Like cty.NumberFloatVal (precision 53). `None` for NaN, which cty
    /// cannot represent (Go panics).
    pub fn from_f64(v: f64) -> Option<Number> {
        if v.fract() == 0.0 && v.abs() < 9.007_199_254_740_992e15 && !(v == 0.0 && v.is_sign_negative()) {
            return Some(Number(Repr::Small { prec: FLOAT_PREC, v: v as i64 }));
        }
        BigFloat::from_f64(v).map(Number::from_big)
    }

    /// Like cty.ParseNumberVal: Go's `big.ParseFloat(text, 10, 512, ToNearestEven)`.
    /// See the `parse` module for the accepted syntax.
    pub fn parse(text: &str) -> Result<Number, NumberParseError> {
        // Fast path: short plain decimal integers are exact at 512 bits.
        let b = text.as_bytes();
        if !b.is_empty() && b.len() <= 18 && b.iter().all(u8::is_ascii_digit) {
            let mut v: i64 = 0;
            for &c in b {
                v = v * 10 + (c - b'0') as i64;
            }
            return Ok(Number(Repr::Small { prec: parse::PARSE_PREC, v }));
        }
        parse::parse(text).map(Number::from_big)
    }

    /// cty.Zero (`big.NewFloat(0)`, precision 53).
    pub fn zero() -> Number {
        Number(Repr::Small { prec: FLOAT_PREC, v: 0 })
    }

    /// cty.PositiveInfinity (`SetInf` on a zero Float: precision 0, which
    /// any arithmetic partner's precision overrides).
    pub fn pos_inf() -> Number {
        Number(Repr::Big(std::sync::Arc::new(BigFloat::inf(false, 0))))
    }

    /// cty.NegativeInfinity.
    pub fn neg_inf() -> Number {
        Number(Repr::Big(std::sync::Arc::new(BigFloat::inf(true, 0))))
    }

    /// Go's `new(big.Float).SetInt(v)`: exact, with precision
    /// max(bit length, 64). This is what stdlib `parseint` returns.
    pub fn from_ibig(v: &IBig) -> Number {
        let prec = (float::bit_len(&dashu::base::UnsignedAbs::unsigned_abs(v)) as u64).clamp(64, u32::MAX as u64) as u32;
        if let Ok(small) = i64::try_from(v) {
            return Number::int_with_prec(small, prec);
        }
        Number::from_big(BigFloat::from_ibig(v, prec))
    }

    /// The value truncated toward zero as a big integer (Go's `Float.Int`);
    /// `None` for ±Inf. The flag is true when no fraction was dropped.
    pub fn to_ibig_trunc(&self) -> Option<(IBig, bool)> {
        match &self.0 {
            Repr::Small { v, .. } => Some((IBig::from(*v), true)),
            Repr::Big(b) => b.trunc_int().map(|(i, moved)| (i, moved == Ordering::Equal)),
        }
    }

    // ----- arithmetic ---------------------------------------------------

    fn prec(&self) -> u32 {
        match &self.0 {
            Repr::Small { prec, .. } => *prec,
            Repr::Big(b) => b.prec,
        }
    }

    /// The binary precision (mantissa bits) this number carries.
    pub fn precision(&self) -> u32 {
        self.prec()
    }

    /// Whether arithmetic and comparisons on this number note work
    /// ([`crate::work`]): it carries more than cty's usual precisions.
    /// Callers that do not take noted work (an operator's fast path) leave
    /// such numbers to the way that does.
    #[inline]
    pub fn is_costly(&self) -> bool {
        // (Also an integer held small: it keeps the precision of the
        // numbers it was made from, so `n - n + 1` of a long `n` divides
        // at that precision.)
        work::costly(self.prec(), 0)
    }

    /// cty `Add` (HCL `+`): exact sum rounded to the larger precision.
    pub fn add(&self, o: &Number) -> Result<Number, NumberError> {
        if let (Repr::Small { prec: pa, v: a }, Repr::Small { prec: pb, v: b }) = (&self.0, &o.0) {
            if let Some(s) = a.checked_add(*b) {
                return Ok(Number::int_with_prec(s, (*pa).max(*pb)));
            }
        }
        let (x, y) = (self.as_big(), o.as_big());
        work::charge(work::pass(x.prec, y.prec))?;
        x.add(&y, x.prec.max(y.prec)).map(Number::from_big).map_err(|NaN| NumberError::OpposingInfinities)
    }

    /// cty `Subtract` (HCL `-`): `self + (-o)`.
    pub fn sub(&self, o: &Number) -> Result<Number, NumberError> {
        if let (Repr::Small { prec: pa, v: a }, Repr::Small { prec: pb, v: b }) = (&self.0, &o.0) {
            if let Some(s) = a.checked_sub(*b) {
                // A zero difference is +0, as Go gives for x + (-x).
                return Ok(Number::int_with_prec(s, (*pa).max(*pb)));
            }
        }
        let (x, y) = (self.as_big(), o.as_big());
        work::charge(work::pass(x.prec, y.prec))?;
        x.sub(&y, x.prec.max(y.prec)).map(Number::from_big).map_err(|NaN| NumberError::InfinityMinusInfinity)
    }

    /// cty `Multiply` (HCL `*`): the product rounded to 512 bits, then carried
    /// at max(precisions, bits needed by the product).
    pub fn mul(&self, o: &Number) -> Result<Number, NumberError> {
        if let (Repr::Small { prec: pa, v: a }, Repr::Small { prec: pb, v: b }) = (&self.0, &o.0) {
            if let Some(p) = a.checked_mul(*b) {
                if p != 0 {
                    let min_prec = 64 - p.unsigned_abs().leading_zeros() - p.unsigned_abs().trailing_zeros();
                    return Ok(Number::int_with_prec(p, (*pa).max(*pb).max(min_prec)));
                }
                if (*a < 0) == (*b < 0) {
                    // Zero times a nonnegative-signed number: +0. (0 * -5 is -0: big path.)
                    return Ok(Number::int_with_prec(0, (*pa).max(*pb)));
                }
            }
        }
        let (x, y) = (self.as_big(), o.as_big());
        work::charge(work::product(x.prec, y.prec))?;
        let res_prec = x.prec.max(y.prec);
        let product = x.mul(&y, 512).map_err(|NaN| NumberError::ZeroTimesInfinity)?;
        let res_prec = res_prec.max(product.min_prec());
        Ok(Number::from_big(product.with_prec(res_prec)))
    }

    /// cty `Divide` (HCL `/`): correctly rounded quotient at the larger
    /// precision; `x/0` is ±Inf, `0/0` and `Inf/Inf` are errors.
    pub fn div(&self, o: &Number) -> Result<Number, NumberError> {
        if let (Repr::Small { prec: pa, v: a }, Repr::Small { prec: pb, v: b }) = (&self.0, &o.0) {
            if *b != 0 && *a != 0 && a.checked_rem(*b) == Some(0) {
                if let Some(q) = a.checked_div(*b) {
                    return Ok(Number::int_with_prec(q, (*pa).max(*pb)));
                }
            }
        }
        let (x, y) = (self.as_big(), o.as_big());
        work::charge(work::quotient(x.prec.max(y.prec), y.prec))?;
        x.quo(&y, x.prec.max(y.prec)).map(Number::from_big).map_err(|NaN| NumberError::Indeterminate)
    }

    /// cty `Modulo` (HCL `%`): `x - y * trunc(x / y)` with cty's roundings,
    /// so the result has the dividend's sign; `x % 0` is `x`; any infinite
    /// operand is an error (a panic inside cty) except `Inf % 0`.
    pub fn rem(&self, o: &Number) -> Result<Number, NumberError> {
        if o.is_zero() {
            return Ok(self.clone());
        }
        if let (Repr::Small { prec: pa, v: a }, Repr::Small { v: b, .. }) = (&self.0, &o.0) {
            // Exact integers: the quotient truncation and products are exact
            // at any precision >= 64, and the result has the dividend's precision.
            if let Some(r) = a.checked_rem(*b) {
                if *pa >= 64 {
                    return Ok(Number::int_with_prec(r, *pa));
                }
            }
        }
        let (x, y) = (self.as_big(), o.as_big());
        if x.form == Form::Inf {
            return Err(if y.form == Form::Inf { NumberError::ModuloZeroInfinity } else { NumberError::ModuloInfinitePanic });
        }
        if y.form == Form::Inf {
            // x/Inf = 0, trunc 0, then Inf * 0 panics with NaN.
            return Err(NumberError::ModuloZeroInfinity);
        }
        // The quotient, its integer part times the divisor, the difference.
        let q = x.prec.max(y.prec);
        work::charge(work::quotient(q, y.prec) + work::product(y.prec, x.prec) + 2 * work::pass(x.prec, q))?;
        let ratio = x.quo(&y, q).map_err(|NaN| NumberError::ModuloZeroInfinity)?;
        let p = x.prec;
        let work = match ratio.form {
            Form::Inf => return Err(NumberError::ModuloInfinitePanic),
            // Already an integer: Go's `Int` then `SetInt` round the same
            // value, which can have two billion bits (`1e600000000 % 3`);
            // rounded from the mantissa, it is never written out.
            Form::Finite if ratio.exp >= 0 => BigFloat::round_from(ratio.neg, ratio.mant.clone(), ratio.exp, false, p),
            _ => match ratio.trunc_int() {
                Some((int, _)) => BigFloat::from_ibig(&int, p),
                None => return Err(NumberError::ModuloInfinitePanic),
            },
        };
        let work = y.mul(&work, p).map_err(|NaN| NumberError::ModuloZeroInfinity)?;
        let res = x.sub(&work, p).map_err(|NaN| NumberError::ModuloZeroInfinity)?;
        Ok(Number::from_big(res))
    }

    /// cty `Negate` (HCL unary `-`): `-0` is negative zero.
    pub fn neg(&self) -> Number {
        match &self.0 {
            Repr::Small { prec, v } if *v != 0 && *v != i64::MIN => Number(Repr::Small { prec: *prec, v: -v }),
            _ => {
                work::note_pass(self.prec(), 0);
                Number::from_big(self.to_big().neg())
            }
        }
    }

    /// cty `Absolute` (stdlib `abs`).
    pub fn abs(&self) -> Number {
        match &self.0 {
            Repr::Small { prec, v } if *v != i64::MIN => Number(Repr::Small { prec: *prec, v: v.abs() }),
            _ => {
                work::note_pass(self.prec(), 0);
                Number::from_big(self.to_big().abs())
            }
        }
    }

    /// stdlib `floor`: ±Inf unchanged; otherwise the integer, rounded to
    /// this number's precision (as Go's `SetInt` on the argument does).
    pub fn floor(&self) -> Number {
        self.round_to_int(Ordering::Greater)
    }

    /// stdlib `ceil`.
    pub fn ceil(&self) -> Number {
        self.round_to_int(Ordering::Less)
    }

    /// Truncation toward zero at this number's precision; ±Inf unchanged.
    pub fn trunc(&self) -> Number {
        self.round_to_int(Ordering::Equal)
    }

    /// `adjust_when`: the truncation direction that calls for a ±1 step
    /// (floor steps down after rounding up, i.e. after truncating a negative).
    fn round_to_int(&self, adjust_when: Ordering) -> Number {
        if let Repr::Small { .. } = self.0 {
            return self.clone();
        }
        let x = self.as_big();
        if x.form == Form::Finite && x.exp >= 64 {
            // Already an integer, at its precision and too large to be
            // held small (its integer part can have two billion bits:
            // `floor(1e600000000)`).
            return self.clone();
        }
        work::note_pass(x.prec, x.prec);
        let (mut int, moved) = match x.trunc_int() {
            Some(t) => t,
            None => return self.clone(),
        };
        if moved != Ordering::Equal && moved == adjust_when {
            if adjust_when == Ordering::Greater {
                int -= IBig::ONE;
            } else {
                int += IBig::ONE;
            }
        }
        Number::from_big(BigFloat::from_ibig(&int, x.prec))
    }

    // ----- comparison ---------------------------------------------------

    /// The value when it is an integer held in a machine word (the
    /// representation most numbers have): two such compare as their
    /// values, whatever their precisions ([`Number::cmp`],
    /// [`Number::equals`]).
    #[inline]
    pub fn as_small(&self) -> Option<i64> {
        match self.0 {
            Repr::Small { v, .. } => Some(v),
            Repr::Big(_) => None,
        }
    }

    /// Numeric order (-0 == +0; -Inf < everything < +Inf). This is Go's
    /// `Cmp`, used by cty for `<`, `>`, and for ordering set elements.
    #[allow(clippy::should_implement_trait)]
    pub fn cmp(&self, o: &Number) -> Ordering {
        match (&self.0, &o.0) {
            (Repr::Small { v: a, .. }, Repr::Small { v: b, .. }) => a.cmp(b),
            _ => {
                let (x, y) = (self.as_big(), o.as_big());
                work::note_pass(x.prec, y.prec);
                x.cmp(&y)
            }
        }
    }

    /// cty's `LessThanOrEqualTo` (`want` less) or `GreaterThanOrEqualTo`
    /// (`want` greater): ordered so, or equal as [`Number::equals`] says.
    pub fn ordered_or_equal(&self, o: &Number, want: Ordering) -> bool {
        let c = self.cmp(o);
        if c == want {
            return true;
        }
        // At one precision two numbers print alike exactly when they are
        // equal, as the comparison just said (when the texts would be
        // compared, or the pass noted as work, `equals` decides).
        let (p, q) = (self.prec(), o.prec());
        if p == q && !work::costly(p, q) {
            return c.is_eq();
        }
        self.equals(o)
    }

    /// cty number equality: same sign and same `Text('f', -1)` (with -0 == 0).
    /// Values at the same precision are equal exactly when their values are;
    /// with different precisions two different values can print the same
    /// (e.g. float64 0.1 and 512-bit 0.1) and are then equal.
    ///
    /// Beyond the text limit (see [`NumberError::TooLongToPrint`]) the texts
    /// are not computed and exact value equality is used instead.
    pub fn equals(&self, o: &Number) -> bool {
        self.equals_by_value(o).unwrap_or_else(|| text::shortest_decimal(&self.as_big()) == text::shortest_decimal(&o.as_big()))
    }

    /// [`Number::equals`] when it compares signs, forms or values; `None`
    /// when it compares the two numbers' texts (finite, of one sign, at
    /// different precisions, not both printing exactly, both within the
    /// text limit), which costs work with their magnitude and precision
    /// ([`crate::work`]).
    pub fn equals_by_value(&self, o: &Number) -> Option<bool> {
        if let (Repr::Small { v: a, .. }, Repr::Small { v: b, .. }) = (&self.0, &o.0) {
            return Some(a == b);
        }
        let (x, y) = (self.as_big(), o.as_big());
        if x.sign() != y.sign() {
            return Some(false);
        }
        work::note_pass(x.prec, y.prec);
        if x.form != Form::Finite || y.form != Form::Finite {
            return Some(x.form == y.form); // same sign: both zero or both the same infinity
        }
        let by_texts = x.prec != y.prec
            && !(text::prints_exactly(&x) && text::prints_exactly(&y))
            && text::within_text_limit(&x)
            && text::within_text_limit(&y);
        (!by_texts).then(|| x.same_value(&y))
    }

    /// Feeds `h` with this number exactly: its precision and its value
    /// (sign, mantissa and exponent), never its text, which is approximate
    /// for huge magnitudes. Numbers hashed alike are identical.
    pub fn hash_exact<H: std::hash::Hasher>(&self, h: &mut H) {
        use std::hash::Hash;
        match &self.0 {
            Repr::Small { prec, v } => (0u8, prec, v).hash(h),
            Repr::Big(b) => (1u8, b.prec, b.neg, b.form, &b.mant, b.exp).hash(h),
        }
    }

    /// The string cty hashes numbers by in sets (`big.Float.String()`, i.e.
    /// `Text('g', 10)`), e.g. "1", "0.3333333333", "1e+20", "-Inf".
    /// Beyond the text limit a non-numeric marker with the exact binary value
    /// is returned instead (cty's bucket order for such sets is not matched).
    pub fn hash_text(&self) -> String {
        match &self.0 {
            Repr::Small { v, .. } if v.unsigned_abs() < 10_000_000_000 => v.to_string(),
            _ => {
                let x = self.to_big();
                if text::within_text_limit(&x) {
                    text::format_general10(&x)
                } else {
                    format!("{}huge:{}p{}", if x.neg { "-" } else { "" }, x.mant, x.exp)
                }
            }
        }
    }

    /// Appends the text [`Number::equals`] compares by: the shortest
    /// decimal (`Text('f', -1)`, `-0` as `0`). Equal numbers have the same
    /// text; beyond the text limit (where `equals` compares exact values)
    /// every number has the sign and `huge`.
    pub fn append_equality_text(&self, out: &mut String) {
        if self.is_zero() {
            out.push('0');
        } else if self.append_text(out).is_err() {
            out.push_str(if self.sign() < 0 { "-huge" } else { "huge" });
        }
    }

    // ----- output -------------------------------------------------------

    /// Go's `Text('f', -1)`: the shortest decimal that rounds back to this
    /// value at its precision, without exponent ("-0", "+Inf", "-Inf" too).
    /// Errors for magnitudes beyond about 1e±100000.
    pub fn to_text(&self) -> Result<String, NumberError> {
        match &self.0 {
            Repr::Small { v, .. } => {
                let mut out = String::with_capacity(20);
                push_i64(&mut out, *v);
                Ok(out)
            }
            Repr::Big(b) => {
                if !text::within_text_limit(b) {
                    return Err(NumberError::TooLongToPrint);
                }
                Ok(text::format_fixed_shortest(b))
            }
        }
    }

    /// Whether [`Number::to_text`] succeeds.
    pub fn has_text(&self) -> bool {
        match &self.0 {
            Repr::Small { .. } => true,
            Repr::Big(b) => text::within_text_limit(b),
        }
    }

    /// [`Number::to_text`] appended to `out` (no allocation for small integers).
    pub fn append_text(&self, out: &mut String) -> Result<(), NumberError> {
        match &self.0 {
            Repr::Small { v, .. } => {
                push_i64(out, *v);
                Ok(())
            }
            Repr::Big(_) => {
                out.push_str(&self.to_text()?);
                Ok(())
            }
        }
    }

    /// Go's `Text('g', -1)`: shortest digits, exponent form for exponents
    /// below -4 or from 21 on ("1e+21", "1e-05"). cty's `format("%v", n)`.
    pub fn to_text_general(&self) -> Result<String, NumberError> {
        let x = self.as_big();
        if !text::within_text_limit(&x) {
            return Err(NumberError::TooLongToPrint);
        }
        Ok(format::append(&x, b'g', -1))
    }

    /// `fmt.Sprintf` of this number with one Go verb, as cty's `format`
    /// does: float verbs (e E f F g G v) format the big.Float, integer verbs
    /// (b d o O x X) the exact integer, which must exist.
    ///
    /// A width or precision of `format::GO_FMT_UNREADABLE_NUMBER` or more
    /// is one Go's fmt stops reading (it gives up once the digits so far pass
    /// 1e6), so the verb is left without a letter: the result is Go's
    /// `%!(NOVERB)%!(EXTRA *big.Float=...)` text, as in the reference.
    pub fn go_format(&self, spec: &GoFormatSpec) -> Result<String, NumberError> {
        let x = self.as_big();
        let int = match spec.verb {
            'b' | 'd' | 'o' | 'O' | 'x' | 'X' => match x.trunc_int() {
                Some((int, Ordering::Equal)) => Some(int),
                _ => return Err(NumberError::NotAnInteger),
            },
            'e' | 'E' | 'f' | 'F' | 'g' | 'G' | 'v' => None,
            _ => return Err(NumberError::UnsupportedVerb),
        };
        if !text::within_text_limit(&x) {
            return Err(NumberError::TooLongToPrint);
        }
        if !spec.readable() {
            return Ok(format::no_verb(&x, int.as_ref()));
        }
        Ok(match int {
            Some(int) => format::format_int(&int, spec),
            None => format::format_float(&x, spec),
        })
    }

    // ----- queries ------------------------------------------------------

    /// True for zero (either sign) and finite values without a fraction.
    pub fn is_integer(&self) -> bool {
        match &self.0 {
            Repr::Small { .. } => true,
            Repr::Big(b) => b.is_integer(),
        }
    }

    /// The exact value as i64, if it is an integer in range.
    pub fn to_i64(&self) -> Option<i64> {
        match &self.0 {
            Repr::Small { v, .. } => Some(*v),
            Repr::Big(b) => {
                // (Beyond 64 bits without writing out the integer, which
                // can have two billion.)
                if !b.is_integer() || b.exp > 64 {
                    return None;
                }
                let (int, _) = b.trunc_int()?;
                i64::try_from(&int).ok()
            }
        }
    }

    /// The exact value as u64, if it is a nonnegative integer in range.
    pub fn to_u64(&self) -> Option<u64> {
        match &self.0 {
            Repr::Small { v, .. } => u64::try_from(*v).ok(),
            Repr::Big(b) => {
                // (Beyond 64 bits without writing out the integer, which
                // can have two billion.)
                if !b.is_integer() || b.exp > 64 {
                    return None;
                }
                let (int, _) = b.trunc_int()?;
                u64::try_from(&int).ok()
            }
        }
    }

    /// The f64 that gocty gives a Go float64 parameter (stdlib `pow`, `log`):
    /// the nearest f64, or `None` when a finite number is beyond the f64
    /// range (gocty: "value must be between -1.79...e+308 and ... inclusive").
    /// Infinities convert to infinities.
    pub fn to_f64_in_range(&self) -> Option<f64> {
        let v = self.to_f64();
        if v.is_infinite() && !self.is_infinite() {
            None
        } else {
            Some(v)
        }
    }

    /// The nearest f64 (ties to even), like Go's `Float64`.
    pub fn to_f64(&self) -> f64 {
        match &self.0 {
            Repr::Small { v, .. } => *v as f64,
            Repr::Big(b) => b.to_f64(),
        }
    }

    pub fn is_infinite(&self) -> bool {
        matches!(&self.0, Repr::Big(b) if b.form == Form::Inf)
    }

    pub fn is_zero(&self) -> bool {
        match &self.0 {
            Repr::Small { v, .. } => *v == 0,
            Repr::Big(b) => b.form == Form::Zero,
        }
    }

    pub fn is_neg_zero(&self) -> bool {
        matches!(&self.0, Repr::Big(b) if b.form == Form::Zero && b.neg)
    }

    /// -1, 0 (either zero) or +1.
    pub fn sign(&self) -> i32 {
        match &self.0 {
            Repr::Small { v, .. } => v.signum() as i32,
            Repr::Big(b) => b.sign(),
        }
    }
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.to_text() {
            Ok(t) => f.write_str(&t),
            Err(_) => {
                let x = self.to_big();
                write!(f, "{}(about 2^{})", if x.neg { "-" } else { "" }, x.go_exp())
            }
        }
    }
}

impl fmt::Debug for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Number({}, prec {})", self, self.prec())
    }
}
