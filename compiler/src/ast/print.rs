//! A compact S-expression rendering of trees, for tests and debugging.

use super::*;
use crate::intern::Interner;
use std::fmt::Write;

/// Renders `expr` as an S-expression, e.g. `(+ a (call f 1))`. Deep trees
/// are cut off at 200 levels.
pub fn sexpr(expr: &Expr<'_>, interner: &Interner) -> String {
    let mut out = String::new();
    write_expr(&mut out, expr, interner, 0);
    out
}

fn lit(out: &mut String, l: &Literal<'_>) {
    match l {
        Literal::Null => out.push_str("null"),
        Literal::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Literal::Number(n) => out.push_str(n),
        Literal::String(s) => {
            let _ = write!(out, "{s:?}");
        }
        Literal::Dynamic => out.push('?'),
    }
}

fn steps(out: &mut String, steps: &[Traverser<'_>], interner: &Interner) {
    for s in steps {
        match s {
            Traverser::Attr { name, .. } => {
                out.push('.');
                out.push_str(interner.resolve(name.name));
            }
            Traverser::Index { key, .. } => {
                out.push('[');
                lit(out, key);
                out.push(']');
            }
        }
    }
}

fn list<'e, 'a: 'e>(out: &mut String, head: &str, items: impl IntoIterator<Item = &'e Expr<'a>>, interner: &Interner, depth: usize) {
    out.push('(');
    out.push_str(head);
    for e in items {
        out.push(' ');
        write_expr(out, e, interner, depth + 1);
    }
    out.push(')');
}

fn write_expr(out: &mut String, e: &Expr<'_>, interner: &Interner, depth: usize) {
    if depth > 200 {
        out.push_str("...");
        return;
    }
    let sub = |out: &mut String, e: &Expr<'_>| write_expr(out, e, interner, depth + 1);
    match e.kind {
        ExprKind::Literal(l) => lit(out, &l),
        ExprKind::Name(name) => out.push_str(interner.resolve(name)),
        ExprKind::ScopeTraversal(t) => {
            out.push_str(interner.resolve(t.root.name));
            steps(out, t.steps, interner);
        }
        ExprKind::RelativeTraversal(r) => {
            out.push_str("(rel ");
            sub(out, r.source);
            out.push(' ');
            steps(out, r.steps, interner);
            out.push(')');
        }
        ExprKind::Call(c) => {
            let head = format!("call {}{}", interner.resolve(c.name.name), if c.expand_final { "..." } else { "" });
            list(out, &head, c.args, interner, depth);
        }
        ExprKind::Conditional(c) => {
            out.push_str("(? ");
            sub(out, c.condition);
            out.push(' ');
            sub(out, c.true_result);
            out.push(' ');
            sub(out, c.false_result);
            out.push(')');
        }
        ExprKind::Index(ix) => {
            out.push_str("(index ");
            sub(out, ix.collection);
            out.push(' ');
            sub(out, ix.key);
            out.push(')');
        }
        ExprKind::Tuple(items) => list(out, "tuple", items.iter().copied(), interner, depth),
        ExprKind::LiteralTuple(t) => {
            let elements: Vec<LiteralElement<'_>> = t.elements().collect();
            list(out, "tuple", &elements.iter().map(|e| e.expr()).collect::<Vec<_>>(), interner, depth)
        }
        ExprKind::Object(items) => {
            out.push_str("(object");
            for item in items {
                out.push_str(if item.force_non_literal { " (key! " } else { " (" });
                sub(out, item.key);
                out.push(' ');
                sub(out, item.value);
                out.push(')');
            }
            out.push(')');
        }
        ExprKind::LiteralObject(o) => {
            // As the items' nodes print (a name key as its name).
            out.push_str("(object");
            for entry in o.entries() {
                out.push_str(" (");
                match entry.key {
                    LiteralKey::Name(name, _) => out.push_str(name),
                    LiteralKey::Quoted(text, span) => sub(out, &Expr::new(ExprKind::Quoted(text), span)),
                }
                out.push(' ');
                sub(out, &entry.value);
                out.push(')');
            }
            out.push(')');
        }
        ExprKind::For(f) => {
            out.push_str("(for ");
            if let Some(k) = f.key_var {
                out.push_str(interner.resolve(k.name));
                out.push(',');
            }
            out.push_str(interner.resolve(f.val_var.name));
            out.push(' ');
            sub(out, f.collection);
            if let Some(k) = f.key_expr {
                out.push_str(" key=");
                sub(out, k);
            }
            out.push_str(" val=");
            sub(out, f.val_expr);
            if f.group {
                out.push_str("...");
            }
            if let Some(c) = f.cond_expr {
                out.push_str(" if=");
                sub(out, c);
            }
            out.push(')');
        }
        ExprKind::Splat(s) => {
            out.push_str("(splat ");
            sub(out, s.source);
            out.push(' ');
            sub(out, s.each);
            out.push(')');
        }
        ExprKind::AnonSymbol(_) => out.push('@'),
        ExprKind::Binary(b) => {
            out.push('(');
            out.push_str(b.op.symbol());
            out.push(' ');
            sub(out, b.lhs);
            out.push(' ');
            sub(out, b.rhs);
            out.push(')');
        }
        ExprKind::Unary(u) => {
            out.push_str(if u.op == UnaryOp::Negate { "(neg " } else { "(not " });
            sub(out, u.operand);
            out.push(')');
        }
        ExprKind::Template(parts) => list(out, "tpl", parts, interner, depth),
        ExprKind::Quoted(_) => list(out, "tpl", e.quoted_part().as_ref(), interner, depth),
        ExprKind::TemplateJoin(inner) => {
            out.push_str("(join ");
            sub(out, inner);
            out.push(')');
        }
        ExprKind::TemplateWrap(inner) => {
            out.push_str("(wrap ");
            sub(out, inner);
            out.push(')');
        }
        ExprKind::Parens(inner) => {
            out.push_str("(paren ");
            sub(out, inner);
            out.push(')');
        }
    }
}
