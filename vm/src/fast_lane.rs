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

use crate::interp::{binary_op, path_value, set_bool_reg, set_reg, Vars};
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
/// - `MARK`: `M[A] := number of diagnostics so far` (0: see [`run`]);
/// - `COMPARE + 4*b + c`: `R[A] := O[B] op O[C]`, `op` a comparison,
///   `&&` or `||` (a bool result), `b` and `c` the operands' tags;
/// - `ARITH + 4*b + c`: the same for arithmetic;
/// - `MOVE + b`: `R[A] := O[B]`.
type Form = u8;

const MARK: Form = 0;
const COMPARE: Form = 1;
const ARITH: Form = COMPARE + 16;
const MOVE: Form = ARITH + 16;

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

/// One pre-decoded instruction: the form of the entry block's instruction
/// at `pc` is at `Program::fast_at + (pc - entry.start)`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FastInstr {
    form: Form,
    op: BinaryOp,
    a: u16,
    b: u16,
    c: u16,
}

const _: () = assert!(std::mem::size_of::<FastInstr>() == 8);

const NO_OPERANDS: FastInstr = FastInstr { form: MARK, op: BinaryOp::Eq, a: 0, b: 0, c: 0 };

impl FastInstr {
    fn decode(ins: &Instr, paths: &[PathRef]) -> Option<FastInstr> {
        let op = match ins.op {
            Op::Mark => return Some(FastInstr { form: MARK, a: ins.a, ..NO_OPERANDS }),
            Op::Move => {
                let (tb, b) = decode_operand(ins.ob(), paths)?;
                return Some(FastInstr { form: MOVE + tb as u8, a: ins.a, b, ..NO_OPERANDS });
            }
            op => binary_op(op)?,
        };
        let base = if op.is_arithmetic() { ARITH } else { COMPARE };
        let (tb, b) = decode_operand(ins.ob(), paths)?;
        let (tc, c) = decode_operand(ins.oc(), paths)?;
        Some(FastInstr { form: base + (tb * 4 + tc) as u8, op, a: ins.a, b, c })
    }
}

/// Appends to `out` the fast forms of the entry block `code` of a program
/// when every instruction is simple and there are two or more (such a
/// program runs in the fast lane); else appends nothing. Returns whether
/// it appended. (Entered for a block's first simple instructions, to go
/// on in the general loop after, the fast lane cost the policy workload
/// more than it saved: 50.5k -> 52.7k instructions per request.)
pub(crate) fn decode_block(code: &[Instr], paths: &[PathRef], out: &mut Vec<FastInstr>) -> bool {
    if code.len() < 2 {
        return false;
    }
    let before = out.len();
    for ins in code {
        match FastInstr::decode(ins, paths) {
            Some(f) => out.push(f),
            None => {
                out.truncate(before);
                return false;
            }
        }
    }
    true
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
            _ => path_value(self.paths.get(usize::from(i))?, self.vars, regs),
        }
    }

    /// Operands `f.b` and `f.c` of tags `B` and `C`, when both are at hand.
    #[inline(always)]
    fn both<'v, const B: u16, const C: u16>(&'v self, f: &FastInstr, regs: &'v [Value]) -> Option<(&'v Value, &'v Value)> {
        Some((self.get::<B>(regs, f.b)?, self.get::<C>(regs, f.c)?))
    }
}

/// A comparison with operands of tags `B` and `C`; `false`: not finished.
#[inline(always)]
fn compare<const B: u16, const C: u16>(f: &FastInstr, regs: &mut [Value], from: &Operands<'_>) -> bool {
    let Some(b) = from.both::<B, C>(f, regs).and_then(|(l, r)| compare_fast(f.op, l, r)) else { return false };
    set_bool_reg(regs, f.a, b);
    true
}

/// Arithmetic with operands of tags `B` and `C`; `false`: not finished.
#[inline(always)]
fn arith<const B: u16, const C: u16>(f: &FastInstr, regs: &mut [Value], from: &Operands<'_>) -> bool {
    let Some(v) = from.both::<B, C>(f, regs).and_then(|(l, r)| binary_fast(f.op, l, r)) else { return false };
    set_reg(regs, f.a, v);
    true
}

/// A move from an operand of tag `B`; `false`: not finished.
#[inline(always)]
fn move_from<const B: u16>(f: &FastInstr, regs: &mut [Value], from: &Operands<'_>) -> bool {
    let Some(v) = from.get::<B>(regs, f.b).cloned() else { return false };
    set_reg(regs, f.a, v);
    true
}

/// Runs the fast forms `fast` (an entry block's) while they finish the
/// common way; returns how many ran. Only while no diagnostic has been
/// reported: so no operand has failed, and a mark is 0.
#[inline(never)]
pub(crate) fn run(fast: &[FastInstr], regs: &mut [Value], marks: &mut [u32], from: &Operands<'_>) -> usize {
    for (done, f) in fast.iter().enumerate() {
        let finished = match f.form {
            MARK => {
                if let Some(m) = marks.get_mut(usize::from(f.a)) {
                    *m = 0;
                }
                true
            }
            // COMPARE + 4 * b + c
            1 => compare::<REG, REG>(f, regs, from),
            2 => compare::<REG, CONST>(f, regs, from),
            3 => compare::<REG, SLOT>(f, regs, from),
            4 => compare::<REG, PATH>(f, regs, from),
            5 => compare::<CONST, REG>(f, regs, from),
            6 => compare::<CONST, CONST>(f, regs, from),
            7 => compare::<CONST, SLOT>(f, regs, from),
            8 => compare::<CONST, PATH>(f, regs, from),
            9 => compare::<SLOT, REG>(f, regs, from),
            10 => compare::<SLOT, CONST>(f, regs, from),
            11 => compare::<SLOT, SLOT>(f, regs, from),
            12 => compare::<SLOT, PATH>(f, regs, from),
            13 => compare::<PATH, REG>(f, regs, from),
            14 => compare::<PATH, CONST>(f, regs, from),
            15 => compare::<PATH, SLOT>(f, regs, from),
            16 => compare::<PATH, PATH>(f, regs, from),
            // ARITH + 4 * b + c
            17 => arith::<REG, REG>(f, regs, from),
            18 => arith::<REG, CONST>(f, regs, from),
            19 => arith::<REG, SLOT>(f, regs, from),
            20 => arith::<REG, PATH>(f, regs, from),
            21 => arith::<CONST, REG>(f, regs, from),
            22 => arith::<CONST, CONST>(f, regs, from),
            23 => arith::<CONST, SLOT>(f, regs, from),
            24 => arith::<CONST, PATH>(f, regs, from),
            25 => arith::<SLOT, REG>(f, regs, from),
            26 => arith::<SLOT, CONST>(f, regs, from),
            27 => arith::<SLOT, SLOT>(f, regs, from),
            28 => arith::<SLOT, PATH>(f, regs, from),
            29 => arith::<PATH, REG>(f, regs, from),
            30 => arith::<PATH, CONST>(f, regs, from),
            31 => arith::<PATH, SLOT>(f, regs, from),
            32 => arith::<PATH, PATH>(f, regs, from),
            // MOVE + b
            33 => move_from::<REG>(f, regs, from),
            34 => move_from::<CONST>(f, regs, from),
            35 => move_from::<SLOT>(f, regs, from),
            36 => move_from::<PATH>(f, regs, from),
            _ => false,
        };
        if !finished {
            return done;
        }
    }
    fast.len()
}

const _: () = assert!(COMPARE == 1 && ARITH == 17 && MOVE == 33);
