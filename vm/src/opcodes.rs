//! The instruction set, in one place.
//!
//! A program is a flat array of 8-byte [`Instr`]s split into *blocks*: a
//! block is a contiguous run of instructions plus the operand holding its
//! result (see [`Block`]). The entry block computes the program's value;
//! the other blocks belong to the structured instructions (conditional,
//! `for`, splat, template, `try`/`can`, object, expanding call), which run
//! them as the reference evaluates subexpressions: some more than once
//! (loop bodies), some conditionally (a template's selected branch), some
//! with their diagnostics captured (`try`, `can`, the unselected branch of
//! a conditional). HCL v2.20 has no short-circuit operators and no
//! statements, so there are no jumps: control flow is the nesting of
//! blocks; the opt-in short-circuit `&&` and `||` of later hcl releases
//! (`ANDTHEN`, `ORELSE`) run their right operand as a block too.
//!
//! Notation (after Lua's `lopcodes.h`):
//! - `R[x]`: register `x`; registers `0..locals` hold `for` iterators and
//!   splat items, the rest are temporaries allocated like a stack.
//! - `O[x]`: an operand ([`Opnd`]): a register, a constant `K[i]`, or a
//!   path `V[i]`: a host variable or local followed by literal steps
//!   (`a`, `req.user.name`, `each.value[0]`), read in place; reading it
//!   reports what evaluating the traversal reports (an unset variable is
//!   "Unknown variable", a missing attribute "Unsupported attribute").
//! - `S[pc]`: the instruction's site: spans, step lists and sub-blocks in
//!   [`crate::program::Site`], for what does not fit in 8 bytes.
//! - `M[m]`: a diagnostics mark (the count of diagnostics when it was
//!   set); "operands failed" means errors were reported since the mark.
//! - `D`: `DynamicVal`, the unknown value of unknown type.
//!
//! Every instruction writes its result to `R[A]`, reporting the
//! reference's diagnostics and, on error, yielding the value the reference
//! yields (usually `D`).

/// An operand: 2 tag bits and a 14-bit index.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Opnd(pub u16);

/// What an operand designates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpndKind {
    /// A temporary register; a structured instruction consuming it may
    /// move the value out.
    Temp(u16),
    /// A local register (`for` iterator, splat item): always copied.
    Local(u16),
    /// Constant pool entry.
    Const(u16),
    /// Path `i` (the program's `paths[i]`: root, steps, spans).
    Var(u16),
}

impl Opnd {
    /// The largest index an operand can hold.
    pub const MAX_INDEX: u32 = 0x3FFF;

    pub fn temp(r: u16) -> Opnd {
        debug_assert!(u32::from(r) <= Self::MAX_INDEX);
        Opnd(r)
    }
    pub fn local(r: u16) -> Opnd {
        debug_assert!(u32::from(r) <= Self::MAX_INDEX);
        Opnd(0x4000 | r)
    }
    pub fn constant(k: u16) -> Opnd {
        debug_assert!(u32::from(k) <= Self::MAX_INDEX);
        Opnd(0x8000 | k)
    }
    pub fn var(i: u16) -> Opnd {
        debug_assert!(u32::from(i) <= Self::MAX_INDEX);
        Opnd(0xC000 | i)
    }

    #[inline]
    pub fn kind(self) -> OpndKind {
        let i = self.0 & 0x3FFF;
        match self.0 >> 14 {
            0 => OpndKind::Temp(i),
            1 => OpndKind::Local(i),
            2 => OpndKind::Const(i),
            _ => OpndKind::Var(i),
        }
    }
}

impl std::fmt::Debug for Opnd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.kind() {
            OpndKind::Temp(r) | OpndKind::Local(r) => write!(f, "R{r}"),
            OpndKind::Const(k) => write!(f, "K{k}"),
            OpndKind::Var(v) => write!(f, "V{v}"),
        }
    }
}

/// A run of instructions `start..end` whose value is then in `out`. An
/// empty run means the value needs no computation (a constant, a variable,
/// a local).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    pub start: u32,
    pub end: u32,
    pub out: Opnd,
}

/// Opcodes. One line of semantics each; `B`/`C` are operands unless said.
/// Structured instructions (`CallExpand`, `Object`, `Template`, `Cond`,
/// `For`, `Splat`, `Try`, `Can`, `Memo`, `AndThen`, `OrElse`) run the
/// blocks their site lists; the others are straight-line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Op {
    /// `R[A] := O[B]`
    Move,
    /// `R[A] := K[B | C << 16]` (constants beyond operand range)
    LoadK,
    /// `R[A] := V[B | C << 16]` (paths beyond operand range)
    LoadV,
    /// report the diagnostic `S[pc]`; `R[A] := D` (a name that did not resolve)
    Fail,
    /// `M[A] := number of diagnostics so far`
    Mark,
    /// `R[A] := O[B]` then the literal steps `S[pc]` (`.name`, `[key]`)
    Get,
    /// `R[A] := O[B][O[C]]`
    Index,
    /// `R[A] := O[B] + O[C]`
    Add,
    /// `R[A] := O[B] - O[C]`
    Sub,
    /// `R[A] := O[B] * O[C]`
    Mul,
    /// `R[A] := O[B] / O[C]`
    Div,
    /// `R[A] := O[B] % O[C]`
    Mod,
    /// `R[A] := O[B] == O[C]`
    Eq,
    /// `R[A] := O[B] != O[C]`
    Ne,
    /// `R[A] := O[B] < O[C]`
    Lt,
    /// `R[A] := O[B] <= O[C]`
    Le,
    /// `R[A] := O[B] > O[C]`
    Gt,
    /// `R[A] := O[B] >= O[C]`
    Ge,
    /// `R[A] := O[B] && O[C]` (both operands always evaluated, as in HCL)
    And,
    /// `R[A] := O[B] || O[C]`
    Or,
    /// `R[A] := O[B] && (block S[pc])`, hcl ≥ v2.21's short-circuit `&&`:
    /// the right operand's block is skipped when `O[B]` is false (or null)
    /// and the block's value always converts to bool; else run, and the
    /// operand that decides keeps its diagnostics (see
    /// [`crate::ops::logical_short_circuit`])
    AndThen,
    /// `R[A] := O[B] || (block S[pc])`, the same for `||` (skipped when
    /// `O[B]` is true)
    OrElse,
    /// `R[A] := -O[B]`
    Neg,
    /// `R[A] := !O[B]`
    Not,
    /// `R[A] := [R[B], ..., R[B+C-1]]` (moves the registers out)
    Tuple,
    /// `R[B] := convert(R[B], type of parameter C of the call S[pc])`
    ArgConv,
    /// `R[A] := f(R[B], ..., R[B+C-1])` with `f` and the failure mark in
    /// `S[pc]`; `D` when an argument failed
    Call,
    /// `R[A] :=` the call `S[pc]` whose last argument is expanded (`f(xs...)`)
    CallExpand,
    /// `R[A] := {k: v, ...}` with the items' key and value blocks in `S[pc]`
    Object,
    /// `R[A] :=` the template `S[pc]` (parts streamed into one buffer)
    Template,
    /// `R[A] :=` the strings of tuple `O[B]` joined (a template `%{for}`)
    Join,
    /// `R[A] :=` the conditional `S[pc]` (both branches, as hcl does)
    Cond,
    /// `R[A] :=` the `for` expression `S[pc]`
    For,
    /// `R[A] :=` the splat `S[pc]`
    Splat,
    /// `R[A] := try(...)` with the argument blocks in `S[pc]`
    Try,
    /// `R[A] := can(...)` with the argument block in `S[pc]`
    Can,
    /// `C = 0`: `R[A] :=` memo `B` when set, else the block `S[pc]` (a pure
    /// call with loop-invariant arguments, which sets memo `B`).
    /// `C = 1`: `R[A] :=` shared value `B` when set in this evaluation of
    /// the body, else the block `S[pc]` (a subexpression the file repeats;
    /// sets shared value `B` when it reports nothing)
    Memo,
}

/// One instruction: an opcode and three 16-bit fields.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(C)]
pub struct Instr {
    pub op: Op,
    pub a: u16,
    pub b: u16,
    pub c: u16,
}

const _: () = assert!(std::mem::size_of::<Instr>() == 8);
const _: () = assert!(std::mem::size_of::<Block>() == 12);

impl Instr {
    pub fn new(op: Op, a: u16, b: u16, c: u16) -> Instr {
        Instr { op, a, b, c }
    }
    /// The operand in field B.
    #[inline]
    pub fn ob(self) -> Opnd {
        Opnd(self.b)
    }
    /// The operand in field C.
    #[inline]
    pub fn oc(self) -> Opnd {
        Opnd(self.c)
    }
    /// Fields B and C as one 32-bit index.
    #[inline]
    pub fn bx(self) -> u32 {
        u32::from(self.b) | (u32::from(self.c) << 16)
    }
}

impl std::fmt::Debug for Instr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?} {} {} {}", self.op, self.a, self.b, self.c)
    }
}
