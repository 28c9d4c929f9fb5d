//! A readable listing of a compiled program: one node per line, children
//! indented, variables by slot and name, spans as byte ranges.

use crate::program::*;
use runtime::Value;
use std::fmt::Write as _;

/// The listing of `program`.
pub fn disassemble(program: &Program) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "locals: {}", program.n_locals);
    let names: Vec<&str> = program.var_names().iter().map(|n| &**n).collect();
    write_node(&mut out, program.root(), &names, 0);
    out
}

fn value_text(v: &Value) -> String {
    let mut s = String::new();
    match runtime::json::write_value(&mut s, v) {
        Ok(()) => format!("{s}: {}", v.ty().to_json_string()),
        Err(_) => "<unprintable>".into(),
    }
}

fn steps_text(steps: &[Step]) -> String {
    let mut s = String::new();
    for step in steps {
        match step {
            Step::Attr(name, _, _) => {
                s.push('.');
                s.push_str(name);
            }
            Step::Index(k, _) => {
                s.push('[');
                s.push_str(&value_text(k));
                s.push(']');
            }
        }
    }
    s
}

fn line(out: &mut String, depth: usize, text: &str) {
    for _ in 0..depth {
        out.push_str("  ");
    }
    out.push_str(text);
    out.push('\n');
}

fn write_node(out: &mut String, n: &Node, names: &[&str], depth: usize) {
    if depth > 200 {
        line(out, depth, "...");
        return;
    }
    let d = depth + 1;
    match n {
        Node::Const(v) => line(out, depth, &format!("const {}", value_text(v))),
        Node::Global(i, _) => line(out, depth, &format!("global {i} ({})", names.get(*i as usize).unwrap_or(&"?"))),
        Node::Local(i) => line(out, depth, &format!("local {i}")),
        Node::Fail(diag) => line(out, depth, &format!("fail {:?}: {:?}", diag.summary, diag.detail)),
        Node::Traverse(src, steps) => {
            line(out, depth, &format!("traverse {}", steps_text(steps)));
            write_node(out, src, names, d);
        }
        Node::Index(ix) => {
            line(out, depth, "index");
            write_node(out, &ix.collection, names, d);
            write_node(out, &ix.key, names, d);
        }
        Node::Tuple(items) => {
            line(out, depth, &format!("tuple {}", items.len()));
            for i in items.iter() {
                write_node(out, i, names, d);
            }
        }
        Node::Object(items) => {
            line(out, depth, &format!("object {}", items.len()));
            for i in items.iter() {
                match &i.key {
                    ObjectKey::Name(k) => line(out, d, &format!("key {}", value_text(k))),
                    ObjectKey::Expr(k, _) => {
                        line(out, d, "key");
                        write_node(out, k, names, d + 1);
                    }
                }
                write_node(out, &i.value, names, d + 1);
            }
        }
        Node::Template(parts, _) => {
            line(out, depth, &format!("template {}", parts.len()));
            for p in parts.iter() {
                write_node(out, &p.node, names, d);
            }
        }
        Node::TemplateJoin(t, _) => {
            line(out, depth, "join");
            write_node(out, t, names, d);
        }
        Node::Cond(c) => {
            line(out, depth, "cond");
            write_node(out, &c.condition, names, d);
            write_node(out, &c.true_result, names, d);
            write_node(out, &c.false_result, names, d);
        }
        Node::Binary(b) => {
            line(out, depth, &format!("{:?}", b.op).to_lowercase());
            write_node(out, &b.lhs, names, d);
            write_node(out, &b.rhs, names, d);
        }
        Node::Unary(u) => {
            line(out, depth, &format!("{:?}", u.op).to_lowercase());
            write_node(out, &u.operand, names, d);
        }
        Node::For(f) => {
            let key = f.key_slot.map(|k| format!("local {k}, ")).unwrap_or_default();
            let kind = if f.key.is_some() { if f.group { "object grouped" } else { "object" } } else { "tuple" };
            line(out, depth, &format!("for {key}local {} ({kind})", f.val_slot));
            write_node(out, &f.collection, names, d);
            if let Some((k, _)) = &f.key {
                line(out, d, "key:");
                write_node(out, k, names, d + 1);
            }
            line(out, d, "value:");
            write_node(out, &f.value, names, d + 1);
            if let Some((c, _)) = &f.cond {
                line(out, d, "if:");
                write_node(out, c, names, d + 1);
            }
        }
        Node::Splat(s) => {
            line(out, depth, &format!("splat local {}", s.slot));
            write_node(out, &s.source, names, d);
            write_node(out, &s.each, names, d);
        }
        Node::Call(c) => {
            let expand = if c.expand_final { " ..." } else { "" };
            line(out, depth, &format!("call {} #{}{expand}", c.name, c.func));
            for a in c.args.iter() {
                write_node(out, &a.node, names, d);
            }
        }
        Node::Try(t) | Node::Can(t) => {
            let kind = if matches!(n, Node::Try(_)) { "try" } else { "can" };
            line(out, depth, &format!("{kind} {}", t.args.len()));
            for a in t.args.iter() {
                write_node(out, &a.node, names, d);
            }
        }
    }
}
