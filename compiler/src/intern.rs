//! A small string interner for identifiers.
//!
//! Identifiers repeat a lot in configuration files (`name`, `type`, `var`),
//! so each distinct name is stored once and referred to by a 4-byte
//! [`Symbol`]. The table is open-addressed and keyed by bytes, so the
//! common case (name already present) costs one hash of a short slice and
//! one comparison, with no allocation and no UTF-8 check.

/// An interned name; resolve it with [`Interner::resolve`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Symbol(u32);

impl Symbol {
    pub fn index(self) -> u32 {
        self.0
    }
}

/// A name's place in `text`. Eight bytes: a file may define a million
/// names.
#[derive(Debug, Clone, Copy)]
struct Entry {
    start: u32,
    len: u32,
}

/// One table slot: the symbol (`sym + 1`, 0 = empty). Four bytes, so a
/// table of a million names (two million slots) stays small; a probe
/// reads the slot, then the entry (the length first) and the text.
#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    sym1: u32,
}

#[derive(Debug)]
pub struct Interner {
    /// All names, back to back.
    text: String,
    entries: Vec<Entry>,
    /// Open-addressed table; its length is a power of two.
    slots: Vec<Slot>,
}

impl Default for Interner {
    fn default() -> Self {
        Interner::new()
    }
}

/// Up to 8 bytes packed into a word without a library copy call: with
/// overlapping loads, so for a given length equal words mean equal bytes.
#[inline]
fn load_partial(b: &[u8]) -> u64 {
    let n = b.len();
    if n >= 4 {
        let lo = u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as u64;
        let hi = u32::from_le_bytes([b[n - 4], b[n - 3], b[n - 2], b[n - 1]]) as u64;
        lo | (hi << 32)
    } else if n > 0 {
        b[0] as u64 | (b[n / 2] as u64) << 8 | (b[n - 1] as u64) << 16
    } else {
        0
    }
}

#[inline]
fn word(c: &[u8]) -> u64 {
    u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]])
}

/// A fast multiplicative hash over 8-byte words (names are short).
#[inline]
fn hash_bytes(bytes: &[u8]) -> u32 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h: u64 = bytes.len() as u64;
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        h = (h.rotate_left(5) ^ word(c)).wrapping_mul(K);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        h = (h.rotate_left(5) ^ load_partial(rest)).wrapping_mul(K);
    }
    (h >> 32) as u32
}

/// Equality of two slices, word by word, without a library call for the
/// short names identifiers usually are.
#[inline]
fn short_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut ca = a.chunks_exact(8);
    let mut cb = b.chunks_exact(8);
    for (x, y) in (&mut ca).zip(&mut cb) {
        if word(x) != word(y) {
            return false;
        }
    }
    load_partial(ca.remainder()) == load_partial(cb.remainder())
}

impl Interner {
    pub fn new() -> Interner {
        Interner { text: String::new(), entries: Vec::new(), slots: vec![Slot::default(); 256] }
    }

    /// An interner sized for the names of a source of `src_len` bytes
    /// (about one new name per 32 bytes of configuration, ten bytes
    /// each), so that interning a file rarely regrows or rehashes. The
    /// guess stops at a megabyte of source: a larger one may be mostly
    /// text (a long string literal) and would reserve memory it never
    /// uses, while growing costs it little in proportion.
    pub fn for_source(src_len: usize) -> Interner {
        let names = src_len.min(1 << 20) / 32;
        Interner {
            text: String::with_capacity(names * 10),
            entries: Vec::with_capacity(names),
            slots: vec![Slot::default(); (names * 2 + 1).next_power_of_two().max(256)],
        }
    }

    pub fn intern(&mut self, name: &str) -> Symbol {
        let hash = hash_bytes(name.as_bytes());
        match self.find(name.as_bytes(), hash) {
            Ok(sym) => sym,
            Err(slot) => self.insert(name, slot),
        }
    }

    /// Interns UTF-8 bytes; `None` (and nothing interned) when they are not
    /// valid UTF-8.
    #[inline]
    pub fn intern_bytes(&mut self, name: &[u8]) -> Option<Symbol> {
        let hash = hash_bytes(name);
        match self.find(name, hash) {
            Ok(sym) => Some(sym),
            Err(slot) => {
                let name = std::str::from_utf8(name).ok()?;
                Some(self.insert(name, slot))
            }
        }
    }

    /// The symbol of `name`, or the empty slot where it would go.
    #[inline]
    fn find(&self, name: &[u8], hash: u32) -> Result<Symbol, usize> {
        let mask = self.slots.len() - 1;
        let mut i = hash as usize & mask;
        loop {
            let s = self.slots[i];
            if s.sym1 == 0 {
                return Err(i);
            }
            if let Some(e) = self.entries.get(s.sym1 as usize - 1) {
                if e.len as usize == name.len() {
                    let stored = self.text.as_bytes().get(e.start as usize..e.start as usize + e.len as usize).unwrap_or(&[]);
                    if short_eq(stored, name) {
                        return Ok(Symbol(s.sym1 - 1));
                    }
                }
            }
            i = (i + 1) & mask;
        }
    }

    fn insert(&mut self, name: &str, slot: usize) -> Symbol {
        let sym = Symbol(self.entries.len() as u32);
        let entry = Entry { start: self.text.len() as u32, len: name.len() as u32 };
        self.entries.push(entry);
        self.text.push_str(name);
        self.slots[slot] = Slot { sym1: sym.0 + 1 };
        if self.entries.len() * 2 > self.slots.len() {
            self.grow();
        }
        sym
    }

    fn grow(&mut self) {
        let size = self.slots.len() * 2;
        let mut slots = vec![Slot::default(); size];
        let mask = size - 1;
        for s in self.slots.iter().filter(|s| s.sym1 != 0) {
            let hash = hash_bytes(self.resolve(Symbol(s.sym1 - 1)).as_bytes());
            let mut i = hash as usize & mask;
            while slots[i].sym1 != 0 {
                i = (i + 1) & mask;
            }
            slots[i] = *s;
        }
        self.slots = slots;
    }

    /// The symbol of `name` if it was ever interned.
    pub fn get(&self, name: &str) -> Option<Symbol> {
        self.find(name.as_bytes(), hash_bytes(name.as_bytes())).ok()
    }

    /// The text of a symbol made by this interner ("" for a foreign symbol).
    pub fn resolve(&self, sym: Symbol) -> &str {
        match self.entries.get(sym.0 as usize) {
            Some(e) => self.text.get(e.start as usize..e.start as usize + e.len as usize).unwrap_or(""),
            None => "",
        }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
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
        assert_eq!(i.intern_bytes(b"beta"), Some(b));
        assert_eq!(i.intern_bytes(b"\xff"), None);
    }

    #[test]
    fn survives_growth() {
        let mut i = Interner::new();
        let syms: Vec<Symbol> = (0..5000).map(|n| i.intern(&format!("name_{n}"))).collect();
        for (n, s) in syms.iter().enumerate() {
            assert_eq!(i.resolve(*s), format!("name_{n}"));
            assert_eq!(i.get(&format!("name_{n}")), Some(*s));
        }
        assert_eq!(i.len(), 5000);
    }
}
