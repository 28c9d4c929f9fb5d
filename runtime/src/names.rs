//! Attribute names shared between a compiled program and the values it
//! reads.
//!
//! An attribute step (`request.user`) finds its attribute by a cached
//! index that it verifies by name. When the object's name and the step's
//! name are the same allocation the check is a pointer comparison; only
//! otherwise are the bytes compared. Values decoded from JSON for a
//! program take their object attribute names from this table, so in the
//! common case (a host feeding JSON variables) the cheap check holds.

use crate::strings::normalize_nfc;
use std::collections::HashSet;
use std::sync::Arc;

/// A set of NFC attribute names, each stored once.
#[derive(Default, Debug, Clone)]
pub struct AttrNames {
    set: HashSet<Arc<str>, ahash::RandomState>,
}

impl AttrNames {
    pub fn new() -> AttrNames {
        AttrNames::default()
    }

    /// The shared copy of `name`, adding it first if needed. A name that
    /// is not NFC is returned as a fresh copy and not kept: an object
    /// attribute never has it.
    pub fn intern(&mut self, name: &str) -> Arc<str> {
        if let Some(n) = self.set.get(name) {
            return n.clone();
        }
        let n: Arc<str> = Arc::from(name);
        if matches!(normalize_nfc(name), std::borrow::Cow::Borrowed(_)) {
            self.set.insert(n.clone());
        }
        n
    }

    /// The shared copy of `name`, if the table has it.
    #[inline]
    pub fn get(&self, name: &str) -> Option<&Arc<str>> {
        self.set.get(name)
    }

    pub fn len(&self) -> usize {
        self.set.len()
    }

    pub fn is_empty(&self) -> bool {
        self.set.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interned_names_are_one_allocation() {
        let mut t = AttrNames::new();
        let a = t.intern("user");
        let b = t.intern("user");
        assert!(Arc::ptr_eq(&a, &b));
        assert!(Arc::ptr_eq(t.get("user").unwrap(), &a));
        assert!(t.get("role").is_none());
        assert_eq!(t.len(), 1);
    }

    #[test]
    fn names_not_in_nfc_are_not_kept() {
        let mut t = AttrNames::new();
        // "e" + combining acute accent: NFC is "é".
        let n = t.intern("e\u{301}");
        assert_eq!(&*n, "e\u{301}");
        assert!(t.is_empty());
    }
}
