//! Static analysis of expressions without evaluating them (spec section
//! "Static Analysis"): the variables an expression references, static
//! lists, maps, calls and traversals, and the text form of traversals.
//!
//! All walks use explicit stacks: expression trees can be deep (a long
//! `a + b + ...` chain is a left-deep tree) and must not exhaust the stack.

use crate::ast::*;
use crate::intern::{Interner, Symbol};
use runtime::strings::write_json_string;
use runtime::{Diagnostic, Span};

/// Every root traversal `expr` references, in the reference's order
/// (`hclsyntax.Variables`): a depth-first walk in source order, skipping
/// references to `for` iterator names inside the `for`'s key, value and
/// condition expressions.
pub fn variables<'a>(expr: &Expr<'a>) -> Vec<Traversal<'a>> {
    let mut out = Vec::new();
    for_each_variable(expr, |t| out.push(*t));
    out
}

/// Calls `f` on each traversal [`variables`] gives, in its order, without
/// collecting them (a result line writes them as it finds them).
pub fn for_each_variable<'a>(expr: &Expr<'a>, mut f: impl FnMut(&Traversal<'a>)) {
    enum Work<'r, 'a> {
        Visit(&'r Expr<'a>),
        /// Visit the first element, then the rest: a long tuple's or
        /// object's elements are not all pushed at once.
        Elements(&'r [&'r Expr<'a>]),
        Items(&'r [crate::ast::ObjectItem<'a>]),
        /// Enter a `for` scope (its names), then visit the expression.
        Scoped(&'r ForExpr<'a>, &'r Expr<'a>),
        PopScope,
    }
    // Most attributes are a literal or one traversal: no work list for
    // them.
    match expr.kind {
        ExprKind::Literal(_) | ExprKind::Quoted(_) | ExprKind::LiteralTuple(_) | ExprKind::LiteralObject(_) => return,
        ExprKind::ScopeTraversal(t) => return f(t),
        ExprKind::Name(_) => return f(&expr.scope_traversal().expect("a name")),
        _ => {}
    }
    let mut scopes: Vec<&ForExpr<'a>> = Vec::new();
    // On the stack: an attribute's work list is short, and this runs for
    // every attribute of every result written.
    let mut stack: smallvec::SmallVec<[Work<'_, 'a>; 16]> = smallvec::SmallVec::new();
    stack.push(Work::Visit(expr));
    let local =
        |scopes: &[&ForExpr<'_>], name: Symbol| scopes.iter().any(|f| f.val_var.name == name || f.key_var.is_some_and(|k| k.name == name));
    while let Some(work) = stack.pop() {
        let e = match work {
            Work::Visit(e) => e,
            Work::Elements(items) => match items.split_first() {
                Some((first, rest)) => {
                    stack.push(Work::Elements(rest));
                    first
                }
                None => continue,
            },
            Work::Items(items) => {
                let Some((item, rest)) = items.split_first() else { continue };
                stack.push(Work::Items(rest));
                stack.push(Work::Visit(item.value));
                // A key that reads as a bare word is a name, not a reference.
                if item.key_keyword().is_some() {
                    continue;
                }
                item.key
            }
            Work::Scoped(f, e) => {
                scopes.push(f);
                stack.push(Work::PopScope);
                e
            }
            Work::PopScope => {
                scopes.pop();
                continue;
            }
        };
        // Children are pushed in reverse so they are visited in order.
        match e.kind {
            ExprKind::Literal(_)
            | ExprKind::Quoted(_)
            | ExprKind::LiteralTuple(_)
            | ExprKind::LiteralObject(_)
            | ExprKind::AnonSymbol(_) => {}
            ExprKind::ScopeTraversal(t) => {
                if !local(&scopes, t.root.name) {
                    f(t);
                }
            }
            ExprKind::Name(name) => {
                if !local(&scopes, name) {
                    f(&e.scope_traversal().expect("a name"));
                }
            }
            ExprKind::RelativeTraversal(r) => stack.push(Work::Visit(r.source)),
            ExprKind::Call(c) => stack.extend(c.args.iter().rev().map(Work::Visit)),
            ExprKind::Conditional(c) => {
                stack.push(Work::Visit(c.false_result));
                stack.push(Work::Visit(c.true_result));
                stack.push(Work::Visit(c.condition));
            }
            ExprKind::Index(ix) => {
                stack.push(Work::Visit(ix.key));
                stack.push(Work::Visit(ix.collection));
            }
            ExprKind::Tuple(items) => stack.push(Work::Elements(items)),
            ExprKind::Template(items) => stack.extend(items.iter().rev().map(Work::Visit)),
            ExprKind::Object(items) => stack.push(Work::Items(items)),
            ExprKind::For(f) => {
                if let Some(c) = f.cond_expr {
                    stack.push(Work::Scoped(f, c));
                }
                stack.push(Work::Scoped(f, f.val_expr));
                if let Some(k) = f.key_expr {
                    stack.push(Work::Scoped(f, k));
                }
                stack.push(Work::Visit(f.collection));
            }
            ExprKind::Splat(s) => {
                stack.push(Work::Visit(s.each));
                stack.push(Work::Visit(s.source));
            }
            ExprKind::Binary(b) => {
                stack.push(Work::Visit(b.rhs));
                stack.push(Work::Visit(b.lhs));
            }
            ExprKind::Unary(u) => stack.push(Work::Visit(u.operand)),
            ExprKind::TemplateJoin(inner) | ExprKind::TemplateWrap(inner) | ExprKind::Parens(inner) => stack.push(Work::Visit(inner)),
        }
    }
}

/// Renders a traversal as the oracle does: `root.attr[0]["key"]`. Number
/// keys print in their canonical decimal form, string keys JSON-quoted.
pub fn render_traversal(t: &Traversal<'_>, interner: &Interner) -> String {
    let root = interner.resolve(t.root.name);
    // Sized for names and short keys at once.
    let mut out = String::with_capacity(root.len() + t.steps.len() * 12);
    render_traversal_into(&mut out, t, interner);
    out
}

/// [`render_traversal`], appended to `out` (to render many through one
/// buffer).
pub fn render_traversal_into(out: &mut String, t: &Traversal<'_>, interner: &Interner) {
    out.push_str(interner.resolve(t.root.name));
    render_steps(out, t.steps, interner);
}

fn render_steps(out: &mut String, steps: &[Traverser<'_>], interner: &Interner) {
    for step in steps {
        match step {
            Traverser::Attr { name, .. } => {
                out.push('.');
                out.push_str(interner.resolve(name.name));
            }
            Traverser::Index { key, .. } => {
                out.push('[');
                match key {
                    Literal::Dynamic => out.push('?'),
                    Literal::Null => out.push_str("null"),
                    Literal::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
                    Literal::Number(text) => match runtime::Number::parse(text) {
                        Ok(n) => out.push_str(&n.to_string()),
                        Err(_) => out.push_str(text),
                    },
                    Literal::String(s) => write_json_string(out, s),
                }
                out.push(']');
            }
        }
    }
}

/// Where the reference's `StartRange()` of an expression is: the part of
/// it that introduces it (an operator's symbol, a call's name and
/// parenthesis, a collection's opening bracket).
pub fn start_span(expr: &Expr<'_>) -> Span {
    let mut e = expr;
    loop {
        match e.kind {
            ExprKind::Call(c) => return Span::new(c.name.span.start, c.open_paren_span.end),
            ExprKind::Conditional(c) => e = c.condition,
            ExprKind::Index(ix) => return ix.open_span,
            ExprKind::Tuple(_) | ExprKind::LiteralTuple(_) | ExprKind::Object(_) | ExprKind::LiteralObject(_) => {
                return Span::new(e.span.start, e.span.start + 1)
            }
            ExprKind::For(f) => return f.open_span,
            ExprKind::Splat(s) => return s.marker_span,
            ExprKind::Binary(b) => e = b.lhs,
            ExprKind::Unary(u) => return u.symbol_span,
            ExprKind::Template(parts) => match parts.first() {
                Some(p) => e = p,
                None => return e.span,
            },
            ExprKind::Quoted(_) => return e.quoted_part().expect("a quoted template").span,
            ExprKind::TemplateJoin(inner) | ExprKind::Parens(inner) => e = inner,
            _ => return e.span,
        }
    }
}

/// The root of a static traversal: a name, or one of the keywords the
/// parser turned into literals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RootName {
    Name(Symbol),
    Null,
    True,
    False,
}

impl RootName {
    pub fn as_str<'i>(&self, interner: &'i Interner) -> &'i str {
        match self {
            RootName::Name(s) => interner.resolve(*s),
            RootName::Null => "null",
            RootName::True => "true",
            RootName::False => "false",
        }
    }
}

/// A traversal found statically in an expression (`hcl.AbsTraversalForExpr`).
#[derive(Clone, Debug)]
pub struct StaticTraversal<'a> {
    pub root: RootName,
    pub root_span: Span,
    pub steps: Vec<Traverser<'a>>,
}

impl StaticTraversal<'_> {
    pub fn render(&self, interner: &Interner) -> String {
        let mut out = String::from(self.root.as_str(interner));
        render_steps(&mut out, &self.steps, interner);
        out
    }
}

fn keyword_root(lit: &Literal<'_>) -> Option<RootName> {
    match lit {
        Literal::Null => Some(RootName::Null),
        Literal::Bool(true) => Some(RootName::True),
        Literal::Bool(false) => Some(RootName::False),
        _ => None,
    }
}

fn as_traversal<'a>(expr: &'a Expr<'a>) -> Option<StaticTraversal<'a>> {
    // Relative traversals nest leftwards: collect their steps, then the root.
    let mut pending: Vec<&'a [Traverser<'a>]> = Vec::new();
    let mut e = expr;
    let mut out = loop {
        match e.kind {
            ExprKind::ScopeTraversal(t) => {
                break StaticTraversal { root: RootName::Name(t.root.name), root_span: t.root.span, steps: t.steps.to_vec() }
            }
            ExprKind::Name(name) => break StaticTraversal { root: RootName::Name(name), root_span: e.span, steps: Vec::new() },
            ExprKind::Literal(lit) => break StaticTraversal { root: keyword_root(&lit)?, root_span: e.span, steps: Vec::new() },
            ExprKind::RelativeTraversal(r) => {
                pending.push(r.steps);
                e = r.source;
            }
            _ => return None,
        }
    };
    for steps in pending.into_iter().rev() {
        out.steps.extend_from_slice(steps);
    }
    Some(out)
}

fn invalid(detail: &str, subject: Span) -> Diagnostic {
    Diagnostic::error("Invalid expression", detail, Some(subject))
}

/// `hcl.AbsTraversalForExpr`: the expression as a single static variable
/// reference (`a.b[0]`, also `null`/`true`/`false` roots).
pub fn abs_traversal<'a>(expr: &'a Expr<'a>) -> Result<StaticTraversal<'a>, Diagnostic> {
    as_traversal(expr).ok_or_else(|| {
        invalid(
            "A single static variable reference is required: only attribute access and indexing with constant keys. No calculations, function calls, template expressions, etc are allowed here.",
            expr.span,
        )
    })
}

/// `hcl.AbsTraversalForExpr` on an object constructor key, which refuses
/// parenthesised keys.
pub fn abs_traversal_for_key<'a>(item: &ObjectItem<'a>) -> Result<StaticTraversal<'a>, Diagnostic> {
    if item.force_non_literal {
        return Err(invalid(
            "A single static variable reference is required: only attribute access and indexing with constant keys. No calculations, function calls, template expressions, etc are allowed here.",
            item.key.span,
        ));
    }
    abs_traversal(item.key)
}

/// `hcl.RelTraversalForExpr`: like [`abs_traversal`], the root read as a
/// first attribute step (`root_span` then covers that step).
pub fn rel_traversal<'a>(expr: &'a Expr<'a>) -> Result<StaticTraversal<'a>, Diagnostic> {
    abs_traversal(expr)
}

/// `hcl.ExprAsKeyword`: the bare word an expression consists of.
pub fn expr_as_keyword(expr: &Expr<'_>) -> Option<RootName> {
    match expr.kind {
        ExprKind::Name(name) => Some(RootName::Name(name)),
        ExprKind::ScopeTraversal(t) if t.steps.is_empty() => Some(RootName::Name(t.root.name)),
        ExprKind::Literal(lit) => keyword_root(&lit),
        _ => None,
    }
}

/// `hcl.ExprList`: the elements of a tuple constructor (those of a
/// [`LiteralTuple`](crate::ast::LiteralTuple) made in `arena`).
pub fn static_list<'a>(expr: &'a Expr<'a>, arena: &'a bumpalo::Bump) -> Result<&'a [&'a Expr<'a>], Diagnostic> {
    match expr.kind {
        ExprKind::Tuple(items) => Ok(items),
        ExprKind::LiteralTuple(t) => {
            let items: Vec<&'a Expr<'a>> = t.elements().map(|e| &*arena.alloc(e.into_expr_in(arena))).collect();
            Ok(arena.alloc_slice_copy(&items))
        }
        _ => Err(invalid("A static list expression is required.", start_span(expr))),
    }
}

/// `hcl.ExprMap`: the items of an object constructor (keys keep their
/// bare-word and parenthesised status; see [`ObjectItem`]); those of a
/// [`LiteralObject`](crate::ast::LiteralObject) are made in `arena`, their
/// names interned in `interner`.
pub fn static_map<'a>(expr: &'a Expr<'a>, arena: &'a bumpalo::Bump, interner: &mut Interner) -> Result<&'a [ObjectItem<'a>], Diagnostic> {
    match expr.kind {
        ExprKind::Object(items) => Ok(items),
        ExprKind::LiteralObject(o) => {
            let mut items = Vec::with_capacity(o.len());
            for entry in o.entries() {
                let key = &*arena.alloc(entry.key.expr(interner));
                items.push(ObjectItem { key, value: arena.alloc(entry.value), force_non_literal: false });
            }
            Ok(arena.alloc_slice_copy(&items))
        }
        _ => Err(invalid("A static map expression is required.", start_span(expr))),
    }
}

/// A function call found statically (`hcl.StaticCall`).
#[derive(Clone, Copy, Debug)]
pub struct StaticCall<'a> {
    pub name: Ident,
    pub arguments: &'a [Expr<'a>],
    /// From `(` through `)`.
    pub args_span: Span,
}

/// `hcl.ExprCall`: the expression as a function call.
pub fn static_call<'a>(expr: &'a Expr<'a>) -> Result<StaticCall<'a>, Diagnostic> {
    match expr.kind {
        ExprKind::Call(c) => {
            Ok(StaticCall { name: c.name, arguments: c.args, args_span: Span::new(c.open_paren_span.start, c.close_paren_span.end) })
        }
        _ => Err(invalid("A static function call is required.", start_span(expr))),
    }
}

#[cfg(test)]
mod tests;
