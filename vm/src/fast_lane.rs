//! The fast lane: programs of simple instructions, pre-decoded.
//!
//! Most of what a comparison costs in the general dispatch loop
//! ([`crate::interp`]) is finding its operands: the operand's kind, then
//! the path, its root and the variable's slot, each read through the
//! machine's pointers again after every call. A program whose entry block
//! is only *simple* instructions (comparisons, `&&`, `||`, arithmetic,
//! `MOVE`, `MARK`), two or more, on registers, constants or variable paths
//! has that block decoded once more when it is compiled, into
//! [`FastInstr`]s that name the register, constant or variable slot
//! directly ([`decode_block`], kept in the chunk); [`run`] executes them
//! with the registers, constants and variables borrowed once.
//!
//! It finishes an instruction only the way the general loop finishes it
//! when nothing goes wrong, and only while no diagnostic has been
//! reported (so no operand has failed, and a mark is the count so far):
//! the operands are set, plain strings, numbers or bools, and the
//! operator's fast path ([`compare_fast`], [`binary_fast`]) decides.
//! Anything else (an unset variable, an unknown or null operand, a
//! conversion, a missing attribute) hands the instruction back to the
//! general loop, which runs it and the rest of the block, and reports
//! what the reference reports. Results are therefore the general loop's.

use crate::interp::{set_bool_reg, set_reg, steps_ref, Vars};
use crate::opcodes::{Instr, Op, Opnd, OpndKind};
use crate::ops::{binary_fast, compare_fast, BinaryOp};
use crate::program::{PathRef, PathRoot};
use runtime::Value;

/// What a pre-decoded instruction does, and how its operands are read:
/// the form numbers one `match` arm of [`run`] each, so that the arm reads
/// its operands without branching on their kinds (one jump per
/// instruction, the dispatch: a jump shared by several kinds of operand
/// is mispredicted).
///
/// - `STOP`: not simple, the general loop runs it;
/// - `MARK`: `M[A] := number of diagnostics so far`;
/// - `COMPARE + 4*b + c`: `R[A] := O[B] op O[C]`, `op` a comparison,
///   `b` and `c` the operands' tags;
/// - `ARITH + 4*b + c`: the same for arithmetic;
/// - `MOVE + b`: `R[A] := O[B]`;
/// - `LOGIC`: `R[A] := R[B] op R[C]`, `op` `&&` or `||` (operands in
///   registers, as comparisons leave them).
type Form = u8;

const STOP: Form = 0;
const MARK: Form = 1;
const COMPARE: Form = 2;
const ARITH: Form = COMPARE + 16;
const MOVE: Form = ARITH + 16;
const LOGIC: Form = MOVE + 4;

/// Operand tags: register, constant, variable slot (a bare host
/// variable), path.
const REG: u16 = 0;
const CONST: u16 = 1;
const SLOT: u16 = 2;
const PATH: u16 = 3;

/// A pre-decoded operand's tag and index.
fn decode_operand(o: Opnd, paths: &[PathRef]) -> Option<(u16, u16)> {
    Some(match o.kind() {
        OpndKind::Temp(r) | OpndKind::Local(r) => (REG, r),
        OpndKind::Const(k) => (CONST, k),
        OpndKind::Var(i) => match paths.get(usize::from(i))? {
            PathRef { root: PathRoot::Var(slot), steps, .. } if steps.is_empty() && *slot <= u32::from(u16::MAX) => (SLOT, *slot as u16),
            _ => (PATH, i),
        },
    })
}

/// One pre-decoded instruction (of the same pc as its [`Instr`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct FastInstr {
    form: Form,
    op: BinaryOp,
    a: u16,
    b: u16,
    c: u16,
}

const _: () = assert!(std::mem::size_of::<FastInstr>() == 8);

const NOT_SIMPLE: FastInstr = FastInstr { form: STOP, op: BinaryOp::Eq, a: 0, b: 0, c: 0 };

impl FastInstr {
    fn decode(ins: &Instr, paths: &[PathRef]) -> Option<FastInstr> {
        let (base, op) = match ins.op {
            Op::Mark => return Some(FastInstr { form: MARK, a: ins.a, ..NOT_SIMPLE }),
            Op::Move => {
                let (tb, b) = decode_operand(ins.ob(), paths)?;
                return Some(FastInstr { form: MOVE + tb as u8, a: ins.a, b, ..NOT_SIMPLE });
            }
            Op::And | Op::Or => {
                let op = if ins.op == Op::And { BinaryOp::And } else { BinaryOp::Or };
                return match (decode_operand(ins.ob(), paths)?, decode_operand(ins.oc(), paths)?) {
                    ((REG, b), (REG, c)) => Some(FastInstr { form: LOGIC, op, a: ins.a, b, c }),
                    _ => None,
                };
            }
            Op::Eq => (COMPARE, BinaryOp::Eq),
            Op::Ne => (COMPARE, BinaryOp::NotEq),
            Op::Lt => (COMPARE, BinaryOp::Lt),
            Op::Le => (COMPARE, BinaryOp::Le),
            Op::Gt => (COMPARE, BinaryOp::Gt),
            Op::Ge => (COMPARE, BinaryOp::Ge),
            Op::Add => (ARITH, BinaryOp::Add),
            Op::Sub => (ARITH, BinaryOp::Sub),
            Op::Mul => (ARITH, BinaryOp::Mul),
            Op::Div => (ARITH, BinaryOp::Div),
            Op::Mod => (ARITH, BinaryOp::Mod),
            _ => return None,
        };
        let (tb, b) = decode_operand(ins.ob(), paths)?;
        let (tc, c) = decode_operand(ins.oc(), paths)?;
        Some(FastInstr { form: base + (tb * 4 + tc) as u8, op, a: ins.a, b, c })
    }
}

/// The fast forms of the entry block `code` of a program, when every
/// instruction is simple and there are two or more: such a program runs
/// in the fast lane. (Entered for a block's first simple instructions, to
/// go on in the general loop after, the fast lane cost the policy
/// workload more than it saved: 50.5k -> 52.7k instructions per request.)
pub(crate) fn decode_block(code: &[Instr], paths: &[PathRef]) -> Option<Vec<FastInstr>> {
    if code.len() < 2 {
        return None;
    }
    code.iter().map(|ins| FastInstr::decode(ins, paths)).collect()
}

/// What the fast lane reads operands from.
pub(crate) struct Operands<'a> {
    pub consts: &'a [Value],
    pub vars: &'a Vars,
    pub paths: &'a [PathRef],
}

impl Operands<'_> {
    /// Operand `i` of tag `T`.
    #[inline(always)]
    fn get<'v, const T: u16>(&'v self, regs: &'v [Value], i: u16) -> Option<&'v Value> {
        match T {
            REG => regs.get(usize::from(i)),
            CONST => self.consts.get(usize::from(i)),
            SLOT => self.vars.get(u32::from(i)),
            _ => {
                let path = self.paths.get(usize::from(i))?;
                let root = match path.root {
                    PathRoot::Var(slot) => self.vars.get(slot)?,
                    PathRoot::Local(r) => regs.get(usize::from(r))?,
                };
                steps_ref(root, &path.steps)
            }
        }
    }
}

/// A comparison with operands of tags `B` and `C`; `false`: not finished.
#[inline(always)]
fn compare<const B: u16, const C: u16>(f: &FastInstr, regs: &mut [Value], from: &Operands<'_>) -> bool {
    let decided = match (from.get::<B>(regs, f.b), from.get::<C>(regs, f.c)) {
        (Some(l), Some(r)) => compare_fast(f.op, l, r),
        _ => None,
    };
    match decided {
        Some(b) => {
            set_bool_reg(regs, f.a, b);
            true
        }
        None => false,
    }
}

/// Arithmetic with operands of tags `B` and `C`; `false`: not finished.
#[inline(always)]
fn arith<const B: u16, const C: u16>(f: &FastInstr, regs: &mut [Value], from: &Operands<'_>) -> bool {
    let v = match (from.get::<B>(regs, f.b), from.get::<C>(regs, f.c)) {
        (Some(l), Some(r)) => binary_fast(f.op, l, r),
        _ => None,
    };
    match v {
        Some(v) => {
            set_reg(regs, f.a, v);
            true
        }
        None => false,
    }
}

/// A move from an operand of tag `B`; `false`: not finished.
#[inline(always)]
fn move_from<const B: u16>(f: &FastInstr, regs: &mut [Value], from: &Operands<'_>) -> bool {
    match from.get::<B>(regs, f.b).cloned() {
        Some(v) => {
            set_reg(regs, f.a, v);
            true
        }
        None => false,
    }
}

/// Runs the fast forms `fast` (an entry block's) while they finish the
/// common way; returns how many ran. `diagnostics`
/// is the count reported so far, which must be 0: with none, no operand
/// has failed.
#[inline(never)]
pub(crate) fn run(fast: &[FastInstr], regs: &mut [Value], marks: &mut [u32], from: &Operands<'_>, diagnostics: u32) -> usize {
    debug_assert_eq!(diagnostics, 0);
    for (done, f) in fast.iter().enumerate() {
        let finished = match f.form {
            MARK => {
                if let Some(m) = marks.get_mut(usize::from(f.a)) {
                    *m = diagnostics;
                }
                true
            }
            LOGIC => match (regs.get(usize::from(f.b)), regs.get(usize::from(f.c))) {
                (Some(l), Some(r)) => match compare_fast(f.op, l, r) {
                    Some(b) => {
                        set_bool_reg(regs, f.a, b);
                        true
                    }
                    None => false,
                },
                _ => false,
            },
            // COMPARE + 4 * b + c
            2 => compare::<REG, REG>(f, regs, from),
            3 => compare::<REG, CONST>(f, regs, from),
            4 => compare::<REG, SLOT>(f, regs, from),
            5 => compare::<REG, PATH>(f, regs, from),
            6 => compare::<CONST, REG>(f, regs, from),
            7 => compare::<CONST, CONST>(f, regs, from),
            8 => compare::<CONST, SLOT>(f, regs, from),
            9 => compare::<CONST, PATH>(f, regs, from),
            10 => compare::<SLOT, REG>(f, regs, from),
            11 => compare::<SLOT, CONST>(f, regs, from),
            12 => compare::<SLOT, SLOT>(f, regs, from),
            13 => compare::<SLOT, PATH>(f, regs, from),
            14 => compare::<PATH, REG>(f, regs, from),
            15 => compare::<PATH, CONST>(f, regs, from),
            16 => compare::<PATH, SLOT>(f, regs, from),
            17 => compare::<PATH, PATH>(f, regs, from),
            // ARITH + 4 * b + c
            18 => arith::<REG, REG>(f, regs, from),
            19 => arith::<REG, CONST>(f, regs, from),
            20 => arith::<REG, SLOT>(f, regs, from),
            21 => arith::<REG, PATH>(f, regs, from),
            22 => arith::<CONST, REG>(f, regs, from),
            23 => arith::<CONST, CONST>(f, regs, from),
            24 => arith::<CONST, SLOT>(f, regs, from),
            25 => arith::<CONST, PATH>(f, regs, from),
            26 => arith::<SLOT, REG>(f, regs, from),
            27 => arith::<SLOT, CONST>(f, regs, from),
            28 => arith::<SLOT, SLOT>(f, regs, from),
            29 => arith::<SLOT, PATH>(f, regs, from),
            30 => arith::<PATH, REG>(f, regs, from),
            31 => arith::<PATH, CONST>(f, regs, from),
            32 => arith::<PATH, SLOT>(f, regs, from),
            33 => arith::<PATH, PATH>(f, regs, from),
            // MOVE + b
            34 => move_from::<REG>(f, regs, from),
            35 => move_from::<CONST>(f, regs, from),
            36 => move_from::<SLOT>(f, regs, from),
            37 => move_from::<PATH>(f, regs, from),
            _ => false,
        };
        if !finished {
            return done;
        }
    }
    fast.len()
}

const _: () = assert!(COMPARE == 2 && ARITH == 18 && MOVE == 34 && LOGIC == 38);
