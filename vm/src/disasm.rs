//! A readable listing of a compiled program, in the manner of `luac -l`:
//! the pools (constants with their types, variable references with their
//! names), then every instruction in code order with its operands decoded
//! and, for structured instructions, the blocks they run (`start..end ->
//! operand`). Blocks precede the instruction that runs them.

use crate::ir::Step;
use crate::opcodes::{Block, Instr, Op};
use crate::program::*;
use runtime::func::FunctionTable;
use runtime::Value;
use std::fmt::Write as _;

/// The listing of `program`, the first compiled into its chunk.
pub fn disassemble(program: &Program) -> String {
    disassemble_after(program, None)
}

/// The listing of `program`, compiled into its chunk right after
/// `previous` (see [`Program::extent`]).
pub fn disassemble_after(program: &Program, previous: Option<&Program>) -> String {
    let mut out = String::new();
    let chunk = program.chunk();
    let ext = program.extent(previous);
    let range = |r: &std::ops::Range<u32>| r.start as usize..r.end as usize;
    let _ = writeln!(
        out,
        "; {} instructions, {} registers ({} locals), {} marks{}",
        ext.code.len(),
        program.n_regs,
        program.n_locals,
        program.n_marks,
        if program.fast_at != crate::program::NOT_FAST { ", fast lane" } else { "" }
    );
    for k in range(&ext.consts) {
        if let Some(v) = chunk.consts.get(k) {
            let _ = writeln!(out, "; K{k} = {}", value_text(v));
        }
    }
    let names = program.var_names();
    for i in range(&ext.paths) {
        let Some(p) = chunk.paths.get(i) else { continue };
        let root = match p.root {
            PathRoot::Var(slot) => {
                format!("{} (slot {slot})", names.get(slot as usize).map(|n| &**n).unwrap_or("?"))
            }
            PathRoot::Local(r) => reg(r),
        };
        let _ = writeln!(out, "; V{i} = {root}{}", steps_text(&p.steps));
    }
    for pc in range(&ext.code) {
        if let Some(ins) = chunk.code.get(pc) {
            let _ = writeln!(out, "{pc:04}  {}", instr_text(chunk, pc, *ins, program.file.funcs.as_deref()));
        }
    }
    let _ = writeln!(out, "entry {}", block_text(&program.entry));
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

fn block_text(b: &Block) -> String {
    if b.start == b.end {
        format!("{:?}", b.out)
    } else {
        format!("{}..{} -> {:?}", b.start, b.end, b.out)
    }
}

fn reg(r: u16) -> String {
    format!("R{r}")
}

fn part_text(p: &PartSite) -> String {
    match &p.kind {
        PartKind::Value(b) => block_text(b),
        PartKind::Nested(parts) => format!("({})", parts.iter().map(part_text).collect::<Vec<_>>().join(", ")),
        PartKind::Cond(c, t, f) => format!("if {} then {} else {}", block_text(&c.condition), part_text(t), part_text(f)),
        PartKind::For(f, body) => format!("for {} each {}", for_head(f), part_text(body)),
    }
}

fn for_head(f: &ForSite) -> String {
    let mut s = String::new();
    if let Some(k) = f.key_local {
        let _ = write!(s, "{}, ", reg(k));
    }
    let _ = write!(s, "{} in {}", reg(f.val_local), block_text(&f.collection));
    if let Some((c, _)) = &f.cond {
        let _ = write!(s, " if {}", block_text(c));
        if !f.precheck {
            s.push_str(" (checked when compiled)");
        }
    }
    s
}

/// A call's function: its name in the source and its id, or for a
/// composition (`runtime::func::compose`) the table's name for it.
fn func_text(cs: &CallSite, funcs: Option<&dyn FunctionTable>) -> String {
    match (cs.func.composition(), funcs) {
        (Some(n), Some(t)) => format!("{}#c{n}", t.name(cs.func)),
        _ => format!("{}#{}", cs.spans.name, cs.func.0),
    }
}

fn instr_text(p: &Chunk, pc: usize, ins: Instr, funcs: Option<&dyn FunctionTable>) -> String {
    let name = format!("{:?}", ins.op).to_uppercase();
    let a = reg(ins.a);
    let (b, c) = (ins.ob(), ins.oc());
    let site = p.site(pc);
    let detail = match (ins.op, site) {
        (Op::Move, _) => format!("{a} {b:?}"),
        (Op::LoadK, _) => format!("{a} K{}", ins.bx()),
        (Op::LoadV, _) => format!("{a} V{}", ins.bx()),
        (Op::Fail, Site::Fail(d)) => format!("{a} {:?}: {:?}", d.summary, d.detail),
        (Op::Fail, Site::UnknownVariable(name, _)) => format!("{a} \"Unknown variable\": {:?} (suggestion chosen when reported)", &**name),
        (Op::Fail, Site::FailByContext(ds)) => {
            format!("{a} {:?}: {:?} (probing a splat: {:?})", ds[0].summary, ds[0].detail, ds[1].detail)
        }
        (Op::Mark, _) => format!("M{}", ins.a),
        (Op::Get, Site::Steps(steps)) => format!("{a} {b:?}{}", steps_text(steps)),
        (Op::Neg | Op::Not, Site::Operator(s)) => format!("{a} {b:?}{}", mark_text(s.mark)),
        (Op::Tuple, _) => format!("{a} R{}..R{}", ins.b, u32::from(ins.b) + u32::from(ins.c)),
        (Op::ArgConv, Site::Call(cs)) => format!("{} param {} of {}", reg(ins.b), ins.c, cs.spans.name),
        (Op::Call, Site::Call(cs)) => format!(
            "{a} {} R{}..R{}{}{}",
            func_text(cs, funcs),
            ins.b,
            u32::from(ins.b) + u32::from(ins.c),
            mark_text(cs.mark),
            if cs.memo == NO_MARK { String::new() } else { format!(" memo {}", cs.memo) }
        ),
        (Op::Memo, Site::Block(b)) if ins.c == 1 => format!("{a} shared {} else {}", ins.b, block_text(b)),
        (Op::Memo, Site::Block(b)) => format!("{a} memo {} else {}", ins.b, block_text(b)),
        (Op::CallExpand, Site::Call(cs)) => {
            format!("{a} {} ({})...", func_text(cs, funcs), cs.args.iter().map(|x| block_text(&x.block)).collect::<Vec<_>>().join(", "))
        }
        (Op::Object, Site::Object(items)) => {
            let items: Vec<String> = items
                .iter()
                .map(|i| {
                    let k = match &i.key {
                        ObjectKeySite::Name(v) => value_text(v),
                        ObjectKeySite::Expr(b, _) => block_text(b),
                    };
                    format!("{k} = {}", block_text(&i.value))
                })
                .collect();
            format!("{a} {{{}}}", items.join(", "))
        }
        (Op::Template, Site::Template(parts)) => {
            format!("{a} ({})", parts.iter().map(part_text).collect::<Vec<_>>().join(", "))
        }
        (Op::Join, _) => format!("{a} {b:?}"),
        (Op::Cond, Site::Cond(cs)) => {
            format!("{a} {} ? {} : {}", block_text(&cs.condition), block_text(&cs.true_result), block_text(&cs.false_result))
        }
        (Op::For, Site::For(f)) => {
            let mut s = format!("{a} {}", for_head(f));
            if let Some((k, _)) = &f.key {
                let _ = write!(s, " key {}", block_text(k));
            }
            let _ = write!(s, " value {}", block_text(&f.value));
            if f.group {
                s.push_str(" grouped");
            }
            s
        }
        (Op::Splat, Site::Splat(sp)) => {
            format!("{a} {} in {} each {}", reg(sp.local), block_text(&sp.source), block_text(&sp.each))
        }
        (Op::Try | Op::Can, Site::Try(t)) => {
            let args: Vec<String> = t.args.iter().map(|x| block_text(&x.block)).collect();
            let expand = if t.expand_final { "..." } else { "" };
            format!("{a} ({}){expand}", args.join(", "))
        }
        (Op::AndThen | Op::OrElse, Site::Logic(l)) => {
            // When the right operand's block may be skipped: when the left
            // operand decides and the right one surely converts to bool.
            let skip = if l.rhs_converts { "skipped when decided" } else { "run for its type when decided" };
            format!("{a} {b:?} then {} ({skip}){}", block_text(&l.rhs), mark_text(l.mark))
        }
        (_, Site::Operator(s)) => format!("{a} {b:?} {c:?}{}", mark_text(s.mark)),
        _ => format!("{a} {b:?} {c:?}"),
    };
    format!("{name:<10} {detail}")
}

fn mark_text(m: u16) -> String {
    if m == NO_MARK {
        String::new()
    } else {
        format!(" since M{m}")
    }
}
