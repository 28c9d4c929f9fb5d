//! The work of numbers of high precision or extreme magnitude
//! ([`crate::work`]): their arithmetic, and writing their digits.
//!
//! cty carries a number's precision into every result, and `parseint`
//! gives a number as many bits as its digits need: a 100,000-digit integer
//! has 332,000. Arithmetic on it costs with its length (a sum tens of
//! microseconds, a product or quotient milliseconds), where the VM counts
//! one step per operator. So a loop of a million products ran for an hour.
//!
//! Numbers of cty's usual precisions (up to the 512 bits of parsed
//! numbers) cost the operator's step and nothing more. Above that an
//! operation notes steps by the machine words of its operands' precisions
//! (a precision bounds the mantissa): one per word for a pass over them,
//! and for a product of `n` and `m` words `min(n·m, n·√n)` plus `n` (`n`
//! the longer), an estimate of dashu's multiplications from schoolbook to
//! NTT that came to 7–12 ns a step when measured. A quotient is counted
//! as two products of its quotient and divisor. A sum, difference,
//! remainder, product or quotient checks its work before doing it
//! ([`charge`]): one product of two 50-million-digit integers would
//! otherwise run for many seconds on its own.

use super::float::BigFloat;
use super::NumberError;

/// Precision up to which an operation costs nothing more than its step.
const FREE_PREC: u32 = 512;

/// Whether an operation on numbers of these precisions notes work.
#[inline]
pub(super) fn costly(a: u32, b: u32) -> bool {
    a.max(b) > FREE_PREC
}

fn words(prec: u32) -> u64 {
    u64::from(prec).div_ceil(64)
}

/// Steps of a pass over mantissas of precisions `a` and `b` (a sum,
/// comparison or copy).
pub(super) fn pass(a: u32, b: u32) -> u64 {
    if costly(a, b) {
        words(a) + words(b)
    } else {
        0
    }
}

/// Steps of a product of mantissas of precisions `a` and `b`.
pub(super) fn product(a: u32, b: u32) -> u64 {
    if !costly(a, b) {
        return 0;
    }
    let (short, long) = if a < b { (words(a), words(b)) } else { (words(b), words(a)) };
    // (An estimate: f64's square root is close enough.)
    (short * long).min(long * (long as f64).sqrt() as u64) + long
}

/// Steps of a quotient at precision `prec` by a divisor of precision
/// `divisor` (the dividend is shifted to `prec` plus the divisor's bits).
pub(super) fn quotient(prec: u32, divisor: u32) -> u64 {
    if !costly(prec, divisor) {
        return 0;
    }
    2 * product(prec, divisor) + words(prec) + words(divisor)
}

/// Notes `steps` of work an operation is about to do; when that is more
/// than the evaluation has left, the operation is not done:
/// [`NumberError::OutOfSteps`], which the evaluation's end stands for.
#[inline]
pub(super) fn charge(steps: u64) -> Result<(), NumberError> {
    if steps == 0 {
        return Ok(());
    }
    crate::work::note(steps);
    if crate::work::exhausted() {
        return Err(NumberError::OutOfSteps);
    }
    Ok(())
}

/// Notes the steps of a pass over mantissas of precisions `a` and `b`
/// that cannot fail (bounded by the operands' size: a copy, a comparison).
/// Out of line, as numbers of usual precisions never note it.
#[inline]
pub(super) fn note_pass(a: u32, b: u32) {
    if costly(a, b) {
        note_pass_costly(a, b);
    }
}

#[cold]
#[inline(never)]
fn note_pass_costly(a: u32, b: u32) {
    crate::work::note(pass(a, b));
}

// ----- writing digits -------------------------------------------------

/// Weight of a bit of precision against a bit of exponent in
/// [`note_digits_work`].
const PRECISION_WEIGHT: u64 = 64;

/// Weighted bits (exponent plus [`PRECISION_WEIGHT`] per bit of precision)
/// that make digits at no noted cost: 512-bit precision with an exponent
/// well beyond f64's range.
const FREE_DIGIT_BITS: u64 = 4096 + 512 * PRECISION_WEIGHT;

/// Notes the work of finding `x`'s digits ([`crate::work`]), so that a
/// loop or a set writing or comparing many numbers of extreme magnitude or
/// precision ends at the step budget instead of running for minutes. The
/// digits take bignums as long as the exponent (powers of five or two,
/// divided down to the digits wanted: about a millisecond at 1e-99999, a
/// step per 16 bits) and as long as the precision (the whole mantissa
/// converted: about 60 ms for a `parseint` of 100,000 digits, 4 steps a
/// bit). Only the weighted bits past [`FREE_DIGIT_BITS`] count, so the
/// charge grows from nothing instead of jumping there. At 10 ns a step
/// the default budget bounds either to seconds.
pub(crate) fn note_digits_work(x: &BigFloat) {
    let weighted = x.exp.unsigned_abs().saturating_add(u64::from(x.prec).saturating_mul(PRECISION_WEIGHT));
    if weighted > FREE_DIGIT_BITS {
        crate::work::note((weighted - FREE_DIGIT_BITS) / 16);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usual_precisions_cost_nothing() {
        for (a, b) in [(53, 64), (64, 512), (512, 512)] {
            assert_eq!((pass(a, b), product(a, b), quotient(a, b)), (0, 0, 0));
        }
    }

    #[test]
    fn long_operands_cost_with_their_words() {
        // 332,000 bits: 5,188 words.
        let n = 332_000;
        assert_eq!(pass(n, 64), 5_188 + 1);
        // By one word: a pass; by itself: n·√n.
        assert_eq!(product(n, 64), 5_188 + 5_188);
        assert_eq!(product(n, n), 5_188 * 72 + 5_188);
        // Two products of the quotient and the divisor, and a pass.
        assert_eq!(quotient(n, n), 2 * product(n, n) + 2 * 5_188);
        assert_eq!(quotient(n, 64), 2 * product(n, 64) + 5_189);
    }
}
