//! Subexpressions shared between the expressions of one file.
//!
//! Configurations repeat themselves: a rule's message often recomputes
//! its condition's `for` expression, several attributes call
//! `lookup(var.tags, "env", "dev")`. A `for` expression or call that
//! reads only host variables, constants and pure functions has one value
//! per set of variables, so when it occurs more than once in a file, the
//! code generator wraps each occurrence in a `MEMO` with a *shared* slot:
//! within one evaluation of a body ([`crate::BodyEvaluation`]) the first
//! occurrence to run computes it and the others reuse it.
//!
//! A value is kept only when computing it reported nothing (as for the
//! loop memos of pure calls), because diagnostics name the occurrence's
//! own source range: an occurrence whose computation reports runs it
//! again and reports at its own place, exactly as the reference does.
//! (Budgets: a reused value is charged its size again, not its steps.)
//!
//! Occurrences are recognized by a fingerprint: a 128-bit hash of the
//! subtree without source ranges, with its own iterators numbered by
//! binding order (two loops over the same collection with iterators in
//! different registers are the same expression). Constants are hashed
//! exactly (numbers by sign, mantissa, exponent and precision, never by
//! their text) and once each, however many enclosing subtrees hold them.
//! The hash is keyed at random per file, so no input can be crafted to
//! make two different subexpressions collide.

use crate::ir::{Node, ObjectKey, Step};
use runtime::func::FuncId;
use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hash, Hasher};

/// Subtrees larger than this are not fingerprinted (the cost of
/// fingerprinting stays linear in the size of the file).
const MAX_NODES: usize = 256;
/// Bytes of names a fingerprint may hash (names are source text; a
/// subtree naming longer ones is not shared).
const MAX_NAME_BYTES: usize = 64 << 10;

/// The fingerprint of a shareable subexpression.
pub(crate) type Fingerprint = u128;

/// Fingerprints the subexpressions of one file's expressions.
pub struct Fingerprinter {
    keys: (RandomState, RandomState),
    /// Hashes of the constants met so far, by address: each is hashed
    /// once. Valid while the file's lowered trees are (see
    /// [`Occurrences`]).
    consts: ahash::AHashMap<usize, Fingerprint>,
}

impl Default for Fingerprinter {
    fn default() -> Fingerprinter {
        Fingerprinter { keys: (RandomState::new(), RandomState::new()), consts: Default::default() }
    }
}

/// Two keyed SipHashes side by side: 128 bits.
struct Fp<H> {
    a: H,
    b: H,
}

impl<H: Hasher> Hasher for Fp<H> {
    fn write(&mut self, bytes: &[u8]) {
        self.a.write(bytes);
        self.b.write(bytes);
    }
    fn finish(&self) -> u64 {
        self.a.finish()
    }
}

impl<H: Hasher> Fp<H> {
    fn finish128(&self) -> Fingerprint {
        (u128::from(self.a.finish()) << 64) | u128::from(self.b.finish())
    }
}

/// How often each shareable subexpression occurs in a file.
#[derive(Default)]
pub struct Occurrences {
    fp: Fingerprinter,
    counts: ahash::AHashMap<Fingerprint, u32>,
}

impl Occurrences {
    /// Counts the shareable subexpressions of `root` (one expression of
    /// the file). The trees of a file must all stay alive until its code
    /// is generated (constants are remembered by address).
    pub fn add(&mut self, root: &Node, pure: &dyn Fn(FuncId) -> bool) {
        visit(root, &mut |n| {
            if let Some(key) = self.fp.fingerprint(n, pure) {
                *self.counts.entry(key).or_insert(0) += 1;
            }
        });
    }

    /// The fingerprinter (for the code generator, which fingerprints the
    /// same trees again) and the fingerprints that occur more than once.
    pub(crate) fn into_repeated(self) -> (Fingerprinter, ahash::AHashSet<Fingerprint>) {
        (self.fp, self.counts.into_iter().filter(|(_, n)| *n > 1).map(|(k, _)| k).collect())
    }
}

impl Fingerprinter {
    /// The fingerprint of `n` if it is shareable: a `for` expression or a
    /// call, of at most [`MAX_NODES`] nodes, that reads only host
    /// variables, constants, pure functions and its own iterators.
    pub(crate) fn fingerprint(&mut self, n: &Node, pure: &dyn Fn(FuncId) -> bool) -> Option<Fingerprint> {
        if !matches!(n, Node::For(_) | Node::Call(_)) {
            return None;
        }
        let mut w = Walk { fp: self, pure, bound: Vec::new(), nodes: MAX_NODES, name_bytes: MAX_NAME_BYTES };
        let mut h = Fp { a: w.fp.keys.0.build_hasher(), b: w.fp.keys.1.build_hasher() };
        w.node(n, &mut h)?;
        Some(h.finish128())
    }

    /// The exact hash of a constant, computed once per constant.
    fn constant(&mut self, v: &runtime::Value) -> Fingerprint {
        let key = v as *const runtime::Value as usize;
        if let Some(&h) = self.consts.get(&key) {
            return h;
        }
        let mut h = Fp { a: self.keys.0.build_hasher(), b: self.keys.1.build_hasher() };
        v.hash_exact(&mut h);
        let h = h.finish128();
        self.consts.insert(key, h);
        h
    }
}

/// Calls `f` on every node of the tree, parents first.
fn visit(n: &Node, f: &mut dyn FnMut(&Node)) {
    f(n);
    n.for_each_child(&mut |c| visit(c, f));
}

/// One fingerprint's walk over a subtree.
struct Walk<'f, 'p> {
    fp: &'f mut Fingerprinter,
    pure: &'p dyn Fn(FuncId) -> bool,
    /// The locals bound inside the fingerprinted subtree, in binding order.
    bound: Vec<u32>,
    /// Nodes left to the budget.
    nodes: usize,
    /// Name bytes left to the budget.
    name_bytes: usize,
}

impl Walk<'_, '_> {
    /// A tag per node kind, so that the hash of a subtree is the hash of
    /// an unambiguous (self-delimiting) text.
    fn tag(h: &mut impl Hasher, t: u8) {
        h.write_u8(t);
    }

    fn name(&mut self, h: &mut impl Hasher, name: &str) -> Option<()> {
        self.name_bytes = self.name_bytes.checked_sub(name.len())?;
        name.hash(h);
        Some(())
    }

    fn constant(&mut self, h: &mut impl Hasher, v: &runtime::Value) {
        h.write_u128(self.fp.constant(v));
    }

    /// Hashes `n`; `None` when it is not shareable or too large.
    fn node(&mut self, n: &Node, h: &mut impl Hasher) -> Option<()> {
        self.nodes = self.nodes.checked_sub(1)?;
        match n {
            Node::Const(v) => {
                Self::tag(h, 0);
                self.constant(h, v);
            }
            Node::Global(slot, ..) => {
                Self::tag(h, 1);
                h.write_u32(*slot);
            }
            Node::Local(i) => {
                // Only iterators bound inside the subtree: a reference to an
                // enclosing loop's iterator has a value per iteration.
                let pos = self.bound.iter().rposition(|b| b == i)?;
                Self::tag(h, 2);
                h.write_usize(pos);
            }
            // Reports every time; try/can are left alone.
            Node::Fail(_) | Node::UnknownVariable(..) | Node::FailByContext(_) | Node::Try(_) | Node::Can(_) => return None,
            Node::Traverse(src, steps) => {
                Self::tag(h, 3);
                self.node(src, h)?;
                h.write_usize(steps.len());
                for s in steps.iter() {
                    match s {
                        Step::Attr(name, _, _) => {
                            Self::tag(h, 0);
                            self.name(h, name)?;
                        }
                        Step::Index(k, _) => {
                            Self::tag(h, 1);
                            self.constant(h, k);
                        }
                    }
                }
            }
            Node::Index(ix) => {
                Self::tag(h, 4);
                self.node(&ix.collection, h)?;
                self.node(&ix.key, h)?;
            }
            Node::Tuple(items) => {
                Self::tag(h, 5);
                h.write_usize(items.len());
                for i in items.iter() {
                    self.node(i, h)?;
                }
            }
            Node::Object(items) => {
                Self::tag(h, 6);
                h.write_usize(items.len());
                for it in items.iter() {
                    match &it.key {
                        ObjectKey::Name(v) => {
                            Self::tag(h, 0);
                            self.constant(h, v);
                        }
                        ObjectKey::Expr(k, _) => {
                            Self::tag(h, 1);
                            self.node(k, h)?;
                        }
                    }
                    self.node(&it.value, h)?;
                }
            }
            Node::Template(parts, _) => {
                Self::tag(h, 7);
                h.write_usize(parts.len());
                for p in parts.iter() {
                    self.node(&p.node, h)?;
                }
            }
            Node::TemplateJoin(t, _) => {
                Self::tag(h, 8);
                self.node(t, h)?;
            }
            Node::Cond(c) => {
                Self::tag(h, 9);
                self.node(&c.condition, h)?;
                self.node(&c.true_result, h)?;
                self.node(&c.false_result, h)?;
            }
            Node::Binary(b) => {
                Self::tag(h, 10);
                b.op.hash(h);
                b.short_circuit.hash(h);
                self.node(&b.lhs, h)?;
                self.node(&b.rhs, h)?;
            }
            Node::Unary(u) => {
                Self::tag(h, 11);
                u.op.hash(h);
                self.node(&u.operand, h)?;
            }
            Node::For(f) => {
                Self::tag(h, 12);
                h.write_u8(
                    u8::from(f.key_slot.is_some())
                        | u8::from(f.key.is_some()) << 1
                        | u8::from(f.cond.is_some()) << 2
                        | u8::from(f.group) << 3,
                );
                // The collection is evaluated outside the loop's scope.
                self.node(&f.collection, h)?;
                let depth = self.bound.len();
                self.bound.extend(f.key_slot);
                self.bound.push(f.val_slot);
                if let Some((k, _)) = &f.key {
                    self.node(k, h)?;
                }
                self.node(&f.value, h)?;
                if let Some((c, _)) = &f.cond {
                    self.node(c, h)?;
                }
                self.bound.truncate(depth);
            }
            Node::Splat(s) => {
                Self::tag(h, 13);
                self.node(&s.source, h)?;
                let depth = self.bound.len();
                self.bound.push(s.slot);
                self.node(&s.each, h)?;
                self.bound.truncate(depth);
            }
            Node::Call(c) => {
                if !(self.pure)(c.func) {
                    return None;
                }
                Self::tag(h, 14);
                h.write_u32(c.func.0);
                h.write_u8(u8::from(c.expand_final));
                h.write_usize(c.args.len());
                for a in c.args.iter() {
                    h.write_u8(u8::from(a.preconverted));
                    self.node(&a.node, h)?;
                }
            }
        }
        Some(())
    }
}
