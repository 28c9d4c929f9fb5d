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
//!
//! Occurrences are recognized by a fingerprint: the subtree written out
//! without source ranges, with its own iterators numbered by binding
//! order (two loops over the same collection with iterators in different
//! registers are the same expression).

use crate::ir::{Node, ObjectKey, Step};
use std::fmt::Write as _;

/// Subtrees larger than this are not fingerprinted (the cost of
/// fingerprinting stays linear in the size of the file).
const MAX_NODES: usize = 256;

/// How often each shareable subexpression occurs in a file.
#[derive(Default)]
pub struct Occurrences {
    counts: ahash::AHashMap<String, u32>,
}

impl Occurrences {
    /// Counts the shareable subexpressions of `root` (one expression of
    /// the file).
    pub fn add(&mut self, root: &Node, pure: &dyn Fn(u32) -> bool) {
        visit(root, &mut |n| {
            if let Some(key) = fingerprint(n, pure) {
                *self.counts.entry(key).or_insert(0) += 1;
            }
        });
    }

    /// The fingerprints that occur more than once.
    pub(crate) fn repeated(self) -> ahash::AHashSet<String> {
        self.counts.into_iter().filter(|(_, n)| *n > 1).map(|(k, _)| k).collect()
    }
}

/// The fingerprint of `n` if it is shareable: a `for` expression or a
/// call, of at most [`MAX_NODES`] nodes, that reads only host variables,
/// constants, pure functions and its own iterators.
pub(crate) fn fingerprint(n: &Node, pure: &dyn Fn(u32) -> bool) -> Option<String> {
    if !matches!(n, Node::For(_) | Node::Call(_)) {
        return None;
    }
    let mut budget = MAX_NODES;
    let mut out = String::new();
    let mut bound = Vec::new();
    write_node(n, pure, &mut bound, &mut budget, &mut out)?;
    Some(out)
}

/// Calls `f` on every node of the tree, parents first.
fn visit(n: &Node, f: &mut dyn FnMut(&Node)) {
    f(n);
    match n {
        Node::Const(_) | Node::Global(..) | Node::Local(_) | Node::Fail(_) => {}
        Node::Traverse(src, _) => visit(src, f),
        Node::Index(ix) => {
            visit(&ix.collection, f);
            visit(&ix.key, f);
        }
        Node::Tuple(items) => items.iter().for_each(|i| visit(i, f)),
        Node::Object(items) => {
            for it in items.iter() {
                if let ObjectKey::Expr(k, _) = &it.key {
                    visit(k, f);
                }
                visit(&it.value, f);
            }
        }
        Node::Template(parts, _) => parts.iter().for_each(|p| visit(&p.node, f)),
        Node::TemplateJoin(t, _) => visit(t, f),
        Node::Cond(c) => {
            visit(&c.condition, f);
            visit(&c.true_result, f);
            visit(&c.false_result, f);
        }
        Node::Binary(b) => {
            visit(&b.lhs, f);
            visit(&b.rhs, f);
        }
        Node::Unary(u) => visit(&u.operand, f),
        Node::For(fr) => {
            visit(&fr.collection, f);
            if let Some((k, _)) = &fr.key {
                visit(k, f);
            }
            visit(&fr.value, f);
            if let Some((c, _)) = &fr.cond {
                visit(c, f);
            }
        }
        Node::Splat(s) => {
            visit(&s.source, f);
            visit(&s.each, f);
        }
        Node::Call(c) => c.args.iter().for_each(|a| visit(&a.node, f)),
        Node::Try(t) | Node::Can(t) => t.args.iter().for_each(|a| visit(&a.node, f)),
    }
}

/// Writes `n` into `out`; `None` when it is not shareable or too large.
/// `bound` lists the locals bound inside the fingerprinted subtree, in
/// binding order.
fn write_node(n: &Node, pure: &dyn Fn(u32) -> bool, bound: &mut Vec<u32>, budget: &mut usize, out: &mut String) -> Option<()> {
    *budget = budget.checked_sub(1)?;
    match n {
        Node::Const(v) => {
            // The value and its type; numbers with their precision.
            match v {
                runtime::Value::Number(x) => write!(out, "K{x:?};").ok()?,
                _ => write!(out, "K{v:?};").ok()?,
            }
        }
        Node::Global(slot, _) => write!(out, "G{slot};").ok()?,
        Node::Local(i) => {
            // Only iterators bound inside the subtree: a reference to an
            // enclosing loop's iterator has a value per iteration.
            let pos = bound.iter().rposition(|b| b == i)?;
            write!(out, "L{pos};").ok()?;
        }
        // Reports every time; try/can are left alone.
        Node::Fail(_) | Node::Try(_) | Node::Can(_) => return None,
        Node::Traverse(src, steps) => {
            out.push_str("T(");
            write_node(src, pure, bound, budget, out)?;
            for s in steps.iter() {
                match s {
                    Step::Attr(name, _, _) => write!(out, ".{name:?}").ok()?,
                    Step::Index(k, _) => write!(out, "[{k:?}]").ok()?,
                }
            }
            out.push(')');
        }
        Node::Index(ix) => {
            out.push_str("I(");
            write_node(&ix.collection, pure, bound, budget, out)?;
            write_node(&ix.key, pure, bound, budget, out)?;
            out.push(')');
        }
        Node::Tuple(items) => {
            out.push_str("U(");
            for i in items.iter() {
                write_node(i, pure, bound, budget, out)?;
            }
            out.push(')');
        }
        Node::Object(items) => {
            out.push_str("O(");
            for it in items.iter() {
                match &it.key {
                    ObjectKey::Name(v) => write!(out, "N{v:?};").ok()?,
                    ObjectKey::Expr(k, _) => {
                        out.push('E');
                        write_node(k, pure, bound, budget, out)?;
                    }
                }
                write_node(&it.value, pure, bound, budget, out)?;
            }
            out.push(')');
        }
        Node::Template(parts, _) => {
            out.push_str("S(");
            for p in parts.iter() {
                write_node(&p.node, pure, bound, budget, out)?;
            }
            out.push(')');
        }
        Node::TemplateJoin(t, _) => {
            out.push_str("J(");
            write_node(t, pure, bound, budget, out)?;
            out.push(')');
        }
        Node::Cond(c) => {
            out.push_str("C(");
            write_node(&c.condition, pure, bound, budget, out)?;
            write_node(&c.true_result, pure, bound, budget, out)?;
            write_node(&c.false_result, pure, bound, budget, out)?;
            out.push(')');
        }
        Node::Binary(b) => {
            write!(out, "B{:?}(", b.op).ok()?;
            write_node(&b.lhs, pure, bound, budget, out)?;
            write_node(&b.rhs, pure, bound, budget, out)?;
            out.push(')');
        }
        Node::Unary(u) => {
            write!(out, "A{:?}(", u.op).ok()?;
            write_node(&u.operand, pure, bound, budget, out)?;
            out.push(')');
        }
        Node::For(f) => {
            write!(out, "F{}{}{}{}(", f.key_slot.is_some() as u8, f.key.is_some() as u8, f.cond.is_some() as u8, f.group as u8).ok()?;
            // The collection is evaluated outside the loop's scope.
            write_node(&f.collection, pure, bound, budget, out)?;
            let depth = bound.len();
            bound.extend(f.key_slot);
            bound.push(f.val_slot);
            if let Some((k, _)) = &f.key {
                write_node(k, pure, bound, budget, out)?;
            }
            write_node(&f.value, pure, bound, budget, out)?;
            if let Some((c, _)) = &f.cond {
                write_node(c, pure, bound, budget, out)?;
            }
            bound.truncate(depth);
            out.push(')');
        }
        Node::Splat(s) => {
            out.push_str("P(");
            write_node(&s.source, pure, bound, budget, out)?;
            let depth = bound.len();
            bound.push(s.slot);
            write_node(&s.each, pure, bound, budget, out)?;
            bound.truncate(depth);
            out.push(')');
        }
        Node::Call(c) => {
            if !pure(c.func) {
                return None;
            }
            write!(out, "@{}{}(", c.func, c.expand_final as u8).ok()?;
            for a in c.args.iter() {
                out.push(if a.preconverted { '!' } else { ',' });
                write_node(&a.node, pure, bound, budget, out)?;
            }
            out.push(')');
        }
    }
    Some(())
}
