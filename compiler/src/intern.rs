//! A small string interner for identifiers.
//!
//! Identifiers repeat a lot in configuration files (`name`, `type`, `var`),
//! so each distinct name is stored once and referred to by a 4-byte
//! [`Symbol`]. Lookup hashes with ahash; the common case (name already
//! present) allocates nothing.

use ahash::RandomState;
use std::collections::HashMap;

/// An interned name; resolve it with [`Interner::resolve`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Symbol(u32);

impl Symbol {
    pub fn index(self) -> u32 {
        self.0
    }
}

#[derive(Debug, Default)]
pub struct Interner {
    names: Vec<Box<str>>,
    ids: HashMap<Box<str>, Symbol, RandomState>,
}

impl Interner {
    pub fn new() -> Interner {
        Interner { names: Vec::new(), ids: HashMap::with_hasher(RandomState::with_seeds(1, 2, 3, 4)) }
    }

    pub fn intern(&mut self, name: &str) -> Symbol {
        if let Some(&sym) = self.ids.get(name) {
            return sym;
        }
        let sym = Symbol(self.names.len() as u32);
        self.names.push(name.into());
        self.ids.insert(name.into(), sym);
        sym
    }

    /// The symbol of `name` if it was ever interned.
    pub fn get(&self, name: &str) -> Option<Symbol> {
        self.ids.get(name).copied()
    }

    /// The text of a symbol made by this interner ("" for a foreign symbol).
    pub fn resolve(&self, sym: Symbol) -> &str {
        self.names.get(sym.0 as usize).map(|s| &**s).unwrap_or("")
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interning_is_stable_and_resolvable() {
        let mut i = Interner::new();
        let a = i.intern("alpha");
        let b = i.intern("beta");
        assert_ne!(a, b);
        assert_eq!(i.intern("alpha"), a);
        assert_eq!(i.resolve(b), "beta");
        assert_eq!(i.get("gamma"), None);
    }
}
