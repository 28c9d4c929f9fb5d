//! The size budget: how much one evaluation may build.
//!
//! There is one budget per evaluation, a [`SizeBudget`]. The VM keeps it in
//! its `Scratch` (initialized from `Limits::max_size`) and charges it for
//! the collections and strings it builds; a function call gets the same
//! budget (`FunctionTable::call`, [`super::CallCtx::charge`]) and charges
//! it before building a large result.
//!
//! # The unit
//!
//! A unit is about a byte of memory held by results:
//!
//! - a string costs its length in bytes;
//! - a collection element (of a tuple, list, set, map or object, as the VM
//!   or a function builds it) costs [`ELEMENT_COST`] units, the same for
//!   both: about what a value takes in its collection (a `Value` is at
//!   most 24 bytes, plus its share of the collection's allocation and of
//!   the types and reference counts it brings);
//! - a few functions charge estimates in the same unit where memory is not
//!   a plain sum of elements (`jsondecode` per JSON value it reads).
//!
//! The default limit (`Limits::default`) is 256 MiB of these units.

/// Units one collection element costs (see the [module docs](self)).
pub const ELEMENT_COST: u64 = 32;

/// The size budget of one evaluation: a limit and the units used so far.
/// [`SizeBudget::default`] is an exhausted budget (limit 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SizeBudget {
    limit: u64,
    used: u64,
    /// A charge failed: whatever needed it was not built.
    exceeded: bool,
}

impl SizeBudget {
    /// A budget of `limit` units, none used.
    #[inline]
    pub const fn new(limit: u64) -> SizeBudget {
        SizeBudget { limit, used: 0, exceeded: false }
    }

    /// No limit (for trusted callers and tests).
    pub const fn unlimited() -> SizeBudget {
        SizeBudget::new(u64::MAX)
    }

    /// The units the budget started with.
    #[inline]
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// The units charged so far.
    #[inline]
    pub fn used(&self) -> u64 {
        self.used
    }

    /// The units left.
    #[inline]
    pub fn remaining(&self) -> u64 {
        self.limit - self.used
    }

    /// Takes `units` from the budget. When fewer remain, takes all that
    /// remain and returns false: whatever needed them must not be built,
    /// and any later charge fails too.
    #[inline]
    pub fn charge(&mut self, units: u64) -> bool {
        if units <= self.remaining() {
            self.used += units;
            true
        } else {
            self.used = self.limit;
            self.exceeded = true;
            false
        }
    }

    /// Gives back `units` charged for something that is gone again (a
    /// diagnostic that `try` or an untaken branch discards).
    #[inline]
    pub fn refund(&mut self, units: u64) {
        self.used = self.used.saturating_sub(units);
    }

    /// Whether a charge failed: the budget ran out, and what needed more
    /// was not built.
    #[inline]
    pub fn exceeded(&self) -> bool {
        self.exceeded
    }

    /// Charges `n` collection elements ([`ELEMENT_COST`] each).
    #[inline]
    pub fn charge_elements(&mut self, n: u64) -> bool {
        self.charge(n.saturating_mul(ELEMENT_COST))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charges_until_exhausted() {
        let mut b = SizeBudget::new(100);
        assert!(b.charge(60));
        assert!(b.charge(40));
        assert_eq!((b.used(), b.remaining()), (100, 0));
        assert!(b.charge(0));
        assert!(!b.exceeded(), "exhausted, but nothing was refused yet");
        assert!(!b.charge(1));
        assert!(b.exceeded());
        let mut b = SizeBudget::new(100);
        assert!(!b.charge_elements(4));
        assert_eq!(b.used(), 100, "a failed charge exhausts the budget");
        assert!(SizeBudget::unlimited().charge_elements(u64::MAX));
    }
}
