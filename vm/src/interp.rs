//! The interpreter: runs a [`Program`]'s bytecode with the host's [`Vars`]
//! and a reusable [`Scratch`] (registers, marks, buffers, diagnostics),
//! producing the value and diagnostics the reference (`hclsyntax`
//! `Value(ctx)`) produces. Structured instructions run their sub-blocks
//! the way hcl evaluates subexpressions (see [`crate::opcodes`]).

use crate::fast_lane;
use crate::ir::Step;
use crate::opcodes::{Block, Instr, Op, Opnd, OpndKind};
use crate::ops::Blame;
use crate::program::*;
use runtime::func::{CallError, Param, SizeBudget};
use runtime::strings::go_quote;
use runtime::{Diagnostic, Span, Type, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The host's variable values, by slot (see [`Program::var_slot`]). A slot
/// left unset is a variable this evaluation does not define: referencing it
/// is "Unknown variable", as in an `EvalContext` without that name.
#[derive(Clone, Debug, Default)]
pub struct Vars {
    values: Vec<Option<Value>>,
    /// The variable names in scope when some slot is unset (hcl's
    /// "Unknown variable" suggests among them); `None`: the program's
    /// variable names that are set.
    names_in_scope: Option<Box<[Box<str>]>>,
}

impl Vars {
    /// `n` unset slots.
    pub fn with_slots(n: usize) -> Vars {
        Vars { values: vec![None; n], names_in_scope: None }
    }

    /// The names an "Unknown variable" diagnostic may suggest: the
    /// variables the host supplies, which may include names the program
    /// does not read (hcl suggests among everything its context holds).
    pub fn set_names_in_scope(&mut self, names: impl IntoIterator<Item = impl Into<Box<str>>>) {
        self.names_in_scope = Some(names.into_iter().map(Into::into).collect());
    }

    /// Binds every variable of `program` from `(name, value)` pairs; names
    /// the program does not use are ignored.
    pub fn bind<'a, S: AsRef<str> + 'a>(program: &Program, pairs: impl IntoIterator<Item = (S, Value)>) -> Vars {
        let mut vars = Vars::with_slots(program.var_names().len());
        for (name, v) in pairs {
            if let Some(slot) = program.var_slot(name.as_ref()) {
                vars.set(slot, v);
            }
        }
        vars
    }

    pub fn set(&mut self, slot: u32, v: Value) {
        if let Some(s) = self.values.get_mut(slot as usize) {
            *s = Some(v);
        }
    }

    pub fn unset(&mut self, slot: u32) {
        if let Some(s) = self.values.get_mut(slot as usize) {
            *s = None;
        }
    }

    #[inline]
    pub fn get(&self, slot: u32) -> Option<&Value> {
        self.values.get(slot as usize).and_then(Option::as_ref)
    }
}

/// Per-evaluation limits: of one expression or template, or of a whole
/// body (its attributes share them, as they share a deadline). Exceeding
/// one ends the evaluation with an error diagnostic instead of running
/// away; in a body, the attribute running then and each later one that
/// has code to run fail.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Instructions executed (each loop iteration counts its body's).
    pub max_steps: u64,
    /// The size budget's limit: output built, by the VM (collections,
    /// strings) and by functions alike, in the units
    /// [`runtime::func::budget`] defines.
    pub max_size: u64,
}

impl Limits {
    /// The default budgets ([`Limits::default`]).
    pub const DEFAULT: Limits = Limits { max_steps: 50_000_000, max_size: 256 * 1024 * 1024 };
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::DEFAULT
    }
}

/// What else may end an evaluation early: a deadline, and flags another
/// thread sets to cancel it. They are checked where the step budget is
/// charged (each block run, each loop iteration, each template part that
/// has code), every [`Interrupts::CHECK_INTERVAL`] steps and at the
/// start, not per instruction, so a check costs nothing in between; one
/// long function call is not interrupted. An evaluation they end fails
/// with an error diagnostic, as one that exceeds a [`Limits`] budget
/// does. The flags are borrowed: setting one another thread shares costs
/// the evaluation one relaxed load per check, and the evaluation writes
/// nothing they share.
#[derive(Clone, Copy, Debug, Default)]
pub struct Interrupts<'a> {
    /// The evaluation fails once this instant has passed.
    pub deadline: Option<Instant>,
    /// The evaluation fails once any of these is set (for instance one
    /// flag per evaluation and one for everything a host runs).
    pub cancel: [Option<&'a AtomicBool>; 2],
}

impl Interrupts<'_> {
    /// Steps between two checks (a few microseconds of evaluation).
    pub const CHECK_INTERVAL: u64 = 1024;

    /// Why the evaluation must end now, if it must.
    fn triggered(&self) -> Option<Abort> {
        if self.cancel.iter().flatten().any(|flag| flag.load(Ordering::Relaxed)) {
            return Some(Abort::Cancelled);
        }
        match self.deadline {
            Some(deadline) if Instant::now() >= deadline => Some(Abort::Time),
            _ => None,
        }
    }
}

/// Why an evaluation ended before its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Abort {
    /// [`Limits::max_steps`].
    Steps,
    /// [`Limits::max_size`].
    Memory,
    /// [`Interrupts::deadline`].
    Time,
    /// [`Interrupts::cancel`].
    Cancelled,
}

/// The summary of the error that ends an evaluation over its budget.
const LIMIT_EXCEEDED: &str = "Evaluation limit exceeded";

impl Abort {
    /// The error, about `subject`: where the evaluation was when it
    /// stopped, or the whole expression.
    fn diagnostic(self, subject: Span) -> Diagnostic {
        let (summary, detail) = match self {
            Abort::Steps => (LIMIT_EXCEEDED, "The expression needs more steps than this evaluation allows."),
            Abort::Memory => (LIMIT_EXCEEDED, "The expression needs more memory than this evaluation allows."),
            Abort::Time => (LIMIT_EXCEEDED, "The expression needs more time than this evaluation allows."),
            Abort::Cancelled => ("Evaluation cancelled", "The evaluation was cancelled before the expression was evaluated."),
        };
        Diagnostic::error(summary, detail, Some(subject))
    }
}

/// Reusable per-thread evaluation state.
pub struct Scratch {
    regs: Vec<Value>,
    marks: Vec<u32>,
    /// Results of memoized calls (see [`runtime::func::Signature::pure`]).
    /// With the size budget the first call used, charged again on reuse.
    memos: Vec<Option<(Value, u64)>>,
    /// Values of the file's shared subexpressions ([`crate::shared`]), kept
    /// across the programs of one [`BodyEvaluation`]; like `memos`.
    shared: Vec<Option<(Value, u64)>>,
    /// Reusable template output buffers (a stack: templates nest through
    /// function arguments).
    text_bufs: Vec<String>,
    diags: Vec<Diagnostic>,
    /// This thread's copies of program constants ([`ConstCopies`]).
    consts: ConstCopies,
    steps: u64,
    /// The step count past which [`Machine::checkpoint`] runs:
    /// [`Limits::max_steps`], or sooner when [`Interrupts`] are to be
    /// checked.
    check_at: u64,
    /// With [`Interrupts`]: the steps left before the next check when the
    /// last program ended (the checks' rhythm goes on across the programs
    /// of a body).
    until_check: u64,
    /// The evaluation's size budget (limit [`Limits::max_size`]), which
    /// function calls charge too.
    size: SizeBudget,
    aborted: Option<Abort>,
    /// The error an abort reports when it says more than
    /// [`Abort::diagnostic`] about the whole expression (a call that ran
    /// out of budget: its range and what it was building).
    abort_report: Option<Diagnostic>,
    /// The value of the last program [`run`], when it is not in a
    /// register.
    held: Option<Value>,
    pub limits: Limits,
}

impl Default for Scratch {
    fn default() -> Scratch {
        Scratch::new()
    }
}

impl Scratch {
    /// Empty state with the default limits (usable to initialize a
    /// `const` thread-local: nothing is allocated until it is used).
    pub const fn new() -> Scratch {
        Scratch {
            regs: Vec::new(),
            marks: Vec::new(),
            memos: Vec::new(),
            shared: Vec::new(),
            text_bufs: Vec::new(),
            diags: Vec::new(),
            consts: ConstCopies { current: (0, Vec::new()), recent: Vec::new(), shallow: false },
            steps: 0,
            check_at: Limits::DEFAULT.max_steps,
            until_check: 0,
            size: SizeBudget::new(Limits::DEFAULT.max_size),
            aborted: None,
            abort_report: None,
            held: None,
            limits: Limits::DEFAULT,
        }
    }

    pub fn with_limits(limits: Limits) -> Scratch {
        Scratch { limits, ..Scratch::default() }
    }

    /// Whether the last program evaluated ran out of its step or size
    /// budget (and failed with "Evaluation limit exceeded").
    pub fn ran_out_of_budget(&self) -> bool {
        matches!(self.aborted, Some(Abort::Steps | Abort::Memory))
    }

    /// Which budget of the evaluation running is spent, if one is.
    fn spent_budget(&self) -> Option<Abort> {
        if self.size.exceeded() {
            Some(Abort::Memory)
        } else if self.steps > self.limits.max_steps {
            Some(Abort::Steps)
        } else {
            None
        }
    }

    /// The steps the last evaluation took (a body's: all its programs so
    /// far).
    pub fn steps_used(&self) -> u64 {
        self.steps
    }

    /// The size budget units the last evaluation used (a body's: all its
    /// programs so far).
    pub fn size_used(&self) -> u64 {
        self.size.used()
    }

    /// The diagnostics of the last evaluation.
    pub fn diags(&self) -> &[Diagnostic] {
        &self.diags
    }

    pub fn take_diags(&mut self) -> Vec<Diagnostic> {
        std::mem::take(&mut self.diags)
    }

    pub fn has_errors(&self) -> bool {
        self.diags.iter().any(|d| d.is_error())
    }

    /// Drops the values the last evaluation left in registers (they may
    /// share data with that evaluation's variables; they are otherwise
    /// dropped only when a later evaluation overwrites them).
    pub fn release(&mut self) {
        self.held = None;
        self.regs.clear();
        self.memos.clear();
        self.shared.clear();
        self.consts = ConstCopies { shallow: self.consts.shallow, ..ConstCopies::default() };
    }

    /// Whether the chunks this scratch meets from now on are evaluated from
    /// their own constants (`true`) rather than this thread's deep copies
    /// of them (`false`, the default). For chunks evaluated once, right
    /// after they are compiled on this thread (`hclvm conformance`): the
    /// copies exist so that threads evaluating one chunk many times do
    /// not share reference counts, and cost more than such an evaluation.
    pub fn share_constants(&mut self, shared: bool) {
        self.consts.shallow = shared;
    }
}

/// A thread's own copies ([`Value::deep_copy`]) of the constants of the
/// chunks it evaluated last, made when it first evaluates a chunk. An evaluation reads its chunk's constants
/// from these: cloning one from the program itself (a call argument, a
/// result, an element of a constant collection) would update reference
/// counts that every thread evaluating the program updates too, and
/// their cache lines would travel between the cores at every clone.
#[derive(Default)]
struct ConstCopies {
    /// The chunk being evaluated: its id and its constants, copied.
    current: (u64, Vec<Value>),
    /// Other chunks' copies, the most recently used last.
    recent: Vec<(u64, Vec<Value>)>,
    /// Chunks met from now on get clones of their constants, not deep
    /// copies ([`Scratch::share_constants`]).
    shallow: bool,
}

/// Chunks whose constants a thread keeps copies of, besides the current.
const CONST_COPY_CHUNKS: usize = 16;

impl ConstCopies {
    /// Makes `chunk`'s copies the current ones (copying its constants the
    /// first time).
    #[inline]
    fn enter(&mut self, chunk: &Chunk) {
        if self.current.0 != chunk.id {
            self.switch_to(chunk);
        }
    }

    #[cold]
    fn switch_to(&mut self, chunk: &Chunk) {
        let entry = match self.recent.iter().position(|(id, _)| *id == chunk.id) {
            Some(i) => self.recent.remove(i),
            None if self.shallow => (chunk.id, chunk.consts.to_vec()),
            None => (chunk.id, chunk.consts.iter().map(Value::deep_copy).collect()),
        };
        let previous = std::mem::replace(&mut self.current, entry);
        if previous.0 != 0 {
            if self.recent.len() >= CONST_COPY_CHUNKS {
                self.recent.remove(0);
            }
            self.recent.push(previous);
        }
    }

    /// Constant `k` of the current chunk.
    #[inline]
    fn get(&self, k: usize) -> Option<&Value> {
        self.current.1.get(k)
    }

    /// The current chunk's constants.
    #[inline]
    fn all(&self) -> &[Value] {
        &self.current.1
    }
}

/// Evaluates the expressions of one body (programs of one file) against
/// one set of variables: a subexpression the file repeats is computed by
/// the first program that needs it and reused by the others
/// ([`crate::shared`]). Each program's result and diagnostics are those
/// of [`evaluate`], except that the programs share one step and size
/// budget ([`Limits`]).
pub struct BodyEvaluation<'a> {
    scratch: &'a mut Scratch,
    vars: &'a Vars,
    /// The chunk the shared values belong to (its address).
    chunk: usize,
    stop: Option<&'a Interrupts<'a>>,
}

impl<'a> BodyEvaluation<'a> {
    pub fn new(scratch: &'a mut Scratch, vars: &'a Vars) -> BodyEvaluation<'a> {
        BodyEvaluation::with_interrupts(scratch, vars, None)
    }

    /// [`BodyEvaluation::new`] for an evaluation that `stop` (if any) may
    /// end early: once it does, the program running fails, and so does
    /// each later one that has code to run.
    pub fn with_interrupts(scratch: &'a mut Scratch, vars: &'a Vars, stop: Option<&'a Interrupts<'a>>) -> BodyEvaluation<'a> {
        if stop.is_some() {
            // Checked as soon as the first program runs.
            scratch.until_check = 0;
        }
        // One step and size budget for the whole body, as one deadline.
        start_budgets(scratch);
        // No chunk yet: the first program evaluated resets the values.
        BodyEvaluation { scratch, vars, chunk: 0, stop }
    }

    /// Evaluates `program`; its diagnostics are left in the scratch
    /// ([`BodyEvaluation::scratch`]).
    pub fn evaluate(&mut self, program: &Program) -> Value {
        let ran = self.run(program);
        ran.value(self.scratch)
    }

    /// Runs `program`, its value left to take with [`Ran::value`] (see
    /// [`run`]) and its diagnostics in the scratch.
    #[inline]
    pub fn run(&mut self, program: &Program) -> Ran {
        let chunk = program.chunk();
        let id = chunk as *const Chunk as usize;
        if id != self.chunk {
            // Slots are the chunk's: another file's values do not apply
            // (and a chunk without slots reads none).
            if chunk.n_shared > 0 {
                reset_shared(self.scratch, chunk);
            }
            self.chunk = id;
        }
        // Two copies of the evaluation loop's entry: the one without
        // interrupts checks nothing more than before they existed.
        let spent = self.scratch.spent_budget();
        match self.stop {
            None => run_program(program, chunk, self.vars, self.scratch, None, spent),
            Some(stop) => run_program(program, chunk, self.vars, self.scratch, Some(stop), spent),
        }
    }

    pub fn scratch(&mut self) -> &mut Scratch {
        self.scratch
    }
}

/// Evaluates `program`; the diagnostics are left in `scratch`
/// ([`Scratch::diags`]).
#[inline]
pub fn evaluate(program: &Program, vars: &Vars, scratch: &mut Scratch) -> Value {
    run(program, vars, scratch, None).value(scratch)
}

/// Runs `program` (that `stop` may end early) with `vars`: its
/// diagnostics are then in `scratch`, its value is taken with
/// [`Ran::value`].
///
/// Two steps so that a host can collect the diagnostics first and take
/// the value last, straight into the place it returns it in: a value
/// built a moment before it is copied whole stalls the copy on the
/// stores that built it (a bool is written one byte at a time).
#[inline(always)]
pub fn run(program: &Program, vars: &Vars, scratch: &mut Scratch, stop: Option<&Interrupts<'_>>) -> Ran {
    let chunk = program.chunk();
    // Values left by an earlier evaluation are never read unless the chunk
    // has shared slots.
    if chunk.n_shared > 0 {
        reset_shared(scratch, chunk);
    }
    start_budgets(scratch);
    // Two copies of the evaluation loop's entry: the one without
    // interrupts checks nothing more than before they existed.
    match stop {
        None => run_program(program, chunk, vars, scratch, None, None),
        Some(stop) => {
            scratch.until_check = 0;
            run_program(program, chunk, vars, scratch, Some(stop), None)
        }
    }
}

/// A program that has [`run`]; its value not yet taken (taken once:
/// [`Ran::value`] consumes it).
#[must_use]
#[derive(Debug)]
pub enum Ran {
    /// The value is in this temporary register.
    Register(u16),
    /// The value is in [`Scratch::held`].
    Held,
}

impl Ran {
    /// Takes the program's value out of `scratch`.
    #[inline(always)]
    pub fn value(self, scratch: &mut Scratch) -> Value {
        match self {
            Ran::Register(r) => take_reg(&mut scratch.regs, r),
            Ran::Held => scratch.held.take().unwrap_or_else(dynamic),
        }
    }
}

/// No shared value computed yet, a slot for each of `chunk`'s.
fn reset_shared(scratch: &mut Scratch, chunk: &Chunk) {
    scratch.shared.clear();
    scratch.shared.resize(chunk.n_shared as usize, None);
}

/// Starts an evaluation's budgets: its steps and size count from zero (one
/// program, or every program of a body together).
fn start_budgets(scratch: &mut Scratch) {
    scratch.steps = 0;
    scratch.size = SizeBudget::new(scratch.limits.max_size);
}

#[inline(always)]
fn run_program(
    program: &Program,
    chunk: &Chunk,
    vars: &Vars,
    scratch: &mut Scratch,
    stop: Option<&Interrupts<'_>>,
    spent: Option<Abort>,
) -> Ran {
    scratch.diags.clear();
    scratch.check_at = match stop {
        None => scratch.limits.max_steps,
        Some(_) => scratch.steps.saturating_add(scratch.until_check).min(scratch.limits.max_steps),
    };
    scratch.abort_report = None;
    // `spent`: a body's programs share the budgets, and an earlier one
    // spent them; each later one that has code to run fails at once, as
    // with a deadline.
    scratch.aborted = spent.filter(|_| program.entry.start != program.entry.end);
    scratch.consts.enter(chunk);
    // Registers are written before they are read (code generation's
    // invariant), so they are only grown, never cleared: what the previous
    // evaluation left in them is dropped when overwritten.
    if scratch.regs.len() < program.n_regs as usize {
        scratch.regs.resize(program.n_regs as usize, Value::dynamic_unknown());
    }
    if scratch.marks.len() < program.n_marks as usize {
        scratch.marks.resize(program.n_marks as usize, 0);
    }
    if program.n_memos > 0 || !scratch.memos.is_empty() {
        scratch.memos.clear();
        scratch.memos.resize(program.n_memos as usize, None);
    }
    let entry = program.entry;
    let mut m = Machine { depth: 0, probing: 0, prog: program, chunk, vars, s: scratch, stop };
    if entry.start != entry.end {
        if program.fast_at != NOT_FAST {
            m.run_fast_entry(program.fast_at as usize, entry.start as usize, entry.end as usize);
        } else {
            m.nested(|m| m.run(entry.start as usize, entry.end as usize));
        }
    }
    // The value stays where it is when it is in a register (see [`run`]).
    let ran = match entry.out.kind() {
        OpndKind::Temp(r) if m.s.aborted.is_none() => Ran::Register(r),
        _ => {
            let v = if m.s.aborted.is_none() { m.read(entry.out) } else { dynamic() };
            m.s.held = Some(v);
            Ran::Held
        }
    };
    if stop.is_some() {
        // An interrupted program leaves no steps: the next one checks at
        // once, and fails too.
        scratch.until_check = scratch.check_at.saturating_sub(scratch.steps);
    }
    if let Some(why) = scratch.aborted {
        let report = scratch.abort_report.take().unwrap_or_else(|| why.diagnostic(program.span));
        scratch.diags.push(report);
    }
    ran
}

/// Stack that must be left before a deeper block runs, and the size of a
/// fresh segment when less is.
const STACK_RED_ZONE: usize = 256 << 10;
const STACK_SEGMENT: usize = 8 << 20;

struct Machine<'a> {
    /// Block nesting of the code running now.
    depth: u32,
    /// How many splat type probes are running ([`Node::FailByContext`]).
    ///
    /// [`Node::FailByContext`]: crate::ir::Node::FailByContext
    probing: u32,
    prog: &'a Program,
    chunk: &'a Chunk,
    vars: &'a Vars,
    s: &'a mut Scratch,
    stop: Option<&'a Interrupts<'a>>,
}

fn err(summary: &'static str, detail: impl Into<String>, subject: Span) -> Diagnostic {
    Diagnostic::error(summary, detail, Some(subject))
}

fn dynamic() -> Value {
    Value::dynamic_unknown()
}

/// Where the parts of a conditional are, for `vm::ops` diagnostics (which
/// the evaluator reports without a context range).
fn cond_span_of(c: &CondSite) -> impl Fn(Blame) -> Option<Span> + '_ {
    move |blame| match blame {
        Blame::Operand(0) => Some(c.condition_span),
        Blame::Operand(1) => Some(c.true_span),
        Blame::Operand(2) => Some(c.false_span),
        Blame::Between(1, 2) => Some(c.true_span.to(c.false_span)),
        _ => None,
    }
}

/// Where the parts of a `for` expression are, for `vm::ops` diagnostics.
fn for_span_of(f: &ForSite) -> impl Fn(Blame) -> Option<Span> + '_ {
    move |blame| match blame {
        Blame::Operand(0) => Some(f.collection_span),
        Blame::Operand(1) => f.key.as_ref().map(|(_, s)| *s),
        Blame::Operand(3) => f.cond.as_ref().map(|(_, s)| *s),
        _ => None,
    }
}

/// Where the parts of a splat are (the splat has no range of its own
/// here, so the source's stands for it).
fn splat_span_of(s: &SplatSite) -> impl Fn(Blame) -> Option<Span> + '_ {
    move |blame| match blame {
        Blame::Operand(0) | Blame::Expr => Some(s.source_span),
        _ => None,
    }
}

/// The `vm::ops` operator of an opcode (`None` for the opcodes that are
/// not binary operators).
pub(crate) fn binary_op(op: Op) -> Option<crate::ops::BinaryOp> {
    use crate::ops::BinaryOp as O;
    Some(match op {
        Op::Or => O::Or,
        Op::And => O::And,
        Op::Eq => O::Eq,
        Op::Ne => O::NotEq,
        Op::Gt => O::Gt,
        Op::Ge => O::Ge,
        Op::Lt => O::Lt,
        Op::Le => O::Le,
        Op::Add => O::Add,
        Op::Sub => O::Sub,
        Op::Mul => O::Mul,
        Op::Div => O::Div,
        Op::Mod => O::Mod,
        _ => return None,
    })
}

static NO_OPERATOR: OperatorSite =
    OperatorSite { mark: NO_MARK, lhs: Span::new(0, 0), rhs: Span::new(0, 0), span: Span::new(0, 0), conversion_errors_first: false };

/// A path's root value: a variable, or a local register (`None`: an
/// unset variable).
#[inline]
fn path_root<'v>(path: &PathRef, vars: &'v Vars, regs: &'v [Value]) -> Option<&'v Value> {
    match path.root {
        PathRoot::Var(slot) => vars.get(slot),
        PathRoot::Local(r) => regs.get(usize::from(r)),
    }
}

/// The value a path reads in place (`None`: its root is unset, or a step
/// needs more than a lookup: [`Machine::read_path`] evaluates it then).
#[inline]
pub(crate) fn path_value<'v>(path: &PathRef, vars: &'v Vars, regs: &'v [Value]) -> Option<&'v Value> {
    let root = path_root(path, vars, regs)?;
    // A bare variable (the most frequent path) needs no walk.
    if path.steps.is_empty() {
        Some(root)
    } else {
        steps_ref(root, &path.steps)
    }
}

/// A value moved out of temporary register `r` (`D` left there, except
/// for a bool, which stays: it owns nothing). A bool (most results) is
/// read as a bool: `set_bool_reg` wrote one byte of it,
/// and reading the whole register right after stalls on that store.
#[inline(always)]
fn take_reg(regs: &mut [Value], r: u16) -> Value {
    match regs.get_mut(usize::from(r)) {
        Some(Value::Bool(b)) => Value::Bool(*b),
        Some(slot) => std::mem::replace(slot, dynamic()),
        None => dynamic(),
    }
}

/// `R[r] := v`.
#[inline]
pub(crate) fn set_reg(regs: &mut [Value], r: u16, v: Value) {
    if let Some(slot) = regs.get_mut(usize::from(r)) {
        // Most registers are overwritten holding what `take` left or a
        // boolean: values that own nothing, so the out-of-line drop is
        // skipped for them (forgetting them leaks nothing).
        if matches!(slot, Value::Bool(_)) || matches!(slot, Value::Unknown(u) if u.is_plain_dynamic()) {
            std::mem::forget(std::mem::replace(slot, v));
        } else {
            *slot = v;
        }
    }
}

/// `R[r] := b`.
#[inline(always)]
pub(crate) fn set_bool_reg(regs: &mut [Value], r: u16, b: bool) {
    if let Some(slot) = regs.get_mut(usize::from(r)) {
        match slot {
            Value::Bool(old) => *old = b,
            _ => set_reg(regs, r, Value::Bool(b)),
        }
    }
}

impl<'a> Machine<'a> {
    #[inline]
    fn tick(&mut self) -> bool {
        self.s.steps += 1;
        if self.s.steps > self.s.check_at {
            self.checkpoint();
        }
        self.s.aborted.is_none()
    }

    /// The step count passed [`Scratch::check_at`]: the step budget is
    /// exhausted, or it is time to check the [`Interrupts`].
    #[cold]
    #[inline(never)]
    fn checkpoint(&mut self) {
        if self.s.aborted.is_some() {
            return;
        }
        if self.s.steps > self.s.limits.max_steps {
            self.s.aborted = Some(Abort::Steps);
            return;
        }
        match self.stop.and_then(Interrupts::triggered) {
            Some(why) => self.s.aborted = Some(why),
            None => self.s.check_at = self.s.steps.saturating_add(Interrupts::CHECK_INTERVAL).min(self.s.limits.max_steps),
        }
    }

    #[inline]
    fn grow(&mut self, n: usize) -> bool {
        if !self.s.size.charge(n as u64) {
            self.s.aborted.get_or_insert(Abort::Memory);
        }
        self.s.aborted.is_none()
    }

    /// Whether a template's text of `len` bytes, not charged until the
    /// template is done, no longer fits what is left of the size budget
    /// (or the evaluation has ended otherwise); running out ends the
    /// evaluation as a failed charge does.
    fn text_over_budget(&mut self, len: usize) -> bool {
        if len as u64 > self.s.size.remaining() {
            self.grow(len);
        }
        self.s.aborted.is_some()
    }

    /// Charges `n` collection elements.
    #[inline]
    fn grow_elems(&mut self, n: usize) -> bool {
        if !self.s.size.charge_elements(n as u64) {
            self.s.aborted.get_or_insert(Abort::Memory);
        }
        self.s.aborted.is_none()
    }

    fn errors_since(&self, mark: usize) -> bool {
        self.s.diags.get(mark..).is_some_and(|ds| ds.iter().any(|d| d.is_error()))
    }

    /// Reports `d`. Diagnostics are output too, charged to the size budget
    /// as what the evaluation builds is: a loop that reports an error in
    /// every iteration (`[for a in xs : [for b in ys : b.x]]`, a million
    /// errors from 50 bytes) ends at the budget instead of holding
    /// gigabytes of them. Those that `try`, `can`, a conditional's
    /// branches or a decided `&&`/`||` drop give their size back
    /// ([`Machine::discard`], [`Machine::discard_since`]).
    fn push(&mut self, d: Diagnostic) {
        if !self.s.size.charge(diagnostic_cost(&d)) {
            self.s.aborted.get_or_insert(Abort::Memory);
            return;
        }
        self.s.diags.push(d);
    }

    /// Gives back the size budget `ds` took ([`Machine::push`]), as they
    /// are discarded.
    fn discard(&mut self, ds: &[Diagnostic]) {
        self.s.size.refund(ds.iter().map(diagnostic_cost).sum());
    }

    /// Discards the diagnostics reported since `mark`.
    fn discard_since(&mut self, mark: usize) {
        let dropped = self.s.diags.split_off(mark.min(self.s.diags.len()));
        self.discard(&dropped);
    }

    // ---- operands --------------------------------------------------------

    /// The value of an operand by reference; `None` for a variable this
    /// evaluation leaves unset.
    #[inline]
    fn peek(&self, o: Opnd) -> Option<&Value> {
        match o.kind() {
            OpndKind::Temp(r) | OpndKind::Local(r) => self.s.regs.get(usize::from(r)),
            OpndKind::Const(k) => self.s.consts.get(usize::from(k)),
            OpndKind::Var(i) => path_value(self.chunk.paths.get(usize::from(i))?, self.vars, &self.s.regs),
        }
    }

    /// A path's root value (`None`: an unset variable).
    #[inline]
    fn path_root(&self, path: &PathRef) -> Option<&Value> {
        path_root(path, self.vars, &self.s.regs)
    }

    /// The value of an operand, reporting an unset variable.
    #[inline]
    fn read(&mut self, o: Opnd) -> Value {
        match self.peek(o) {
            Some(v) => v.clone(),
            None => self.unset_operand(o),
        }
    }

    /// A block's value, moved out of its register when it is a temporary.
    #[inline(always)]
    fn take(&mut self, o: Opnd) -> Value {
        match o.kind() {
            OpndKind::Temp(r) => take_reg(&mut self.s.regs, r),
            _ => self.read(o),
        }
    }

    #[cold]
    fn unset_operand(&mut self, o: Opnd) -> Value {
        match o.kind() {
            OpndKind::Var(i) => self.read_path(u32::from(i)),
            _ => dynamic(),
        }
    }

    /// Evaluates path `i` as the reference evaluates the traversal: the
    /// root (an unset variable is "Unknown variable"), then each step with
    /// its special cases and errors.
    fn read_path(&mut self, i: u32) -> Value {
        let chunk: &'a Chunk = self.chunk;
        let Some(path) = chunk.paths.get(i as usize) else { return dynamic() };
        let root = match self.path_root(path) {
            Some(v) => v.clone(),
            None => return self.unset_var(path),
        };
        self.traverse(root, &path.steps)
    }

    /// A variable the program was compiled with but this evaluation does
    /// not define.
    #[cold]
    fn unset_var(&mut self, path: &PathRef) -> Value {
        let PathRoot::Var(slot) = path.root else { return dynamic() };
        let names = self.prog.var_names();
        let name = names.get(slot as usize).map(|n| &**n).unwrap_or("");
        let d = self.unknown_variable(name, path.hint.as_deref(), path.span);
        self.push(d);
        dynamic()
    }

    /// `FAIL`: the site's diagnostic reported, `DynamicVal` in `R[a]`. Kept
    /// out of the evaluation loop: building diagnostics there cost the
    /// loop's other paths (policy 5.19 -> 4.84 µs with it apart, in one
    /// interleaved run).
    #[inline(never)]
    fn fail(&mut self, a: u16, site: &Site) {
        match site {
            Site::Fail(d) => self.push((**d).clone()),
            Site::UnknownVariable(name, span) => {
                let d = self.unknown_variable(name, None, *span);
                self.push(d)
            }
            Site::FailByContext(ds) => self.push(ds[usize::from(self.probing > 0)].clone()),
            _ => {}
        }
        self.set(a, dynamic());
    }

    /// hcl's "Unknown variable" for `name`: suggesting the `for` iterator
    /// `iterator` when there is one (iterators are looked up first), else
    /// the closest name among the variables of this evaluation.
    #[cold]
    fn unknown_variable(&self, name: &str, iterator: Option<&str>, span: Span) -> Diagnostic {
        let suggestion = iterator.or_else(|| match &self.vars.names_in_scope {
            Some(names) => crate::suggest::closest(name, names.iter().map(|n| &**n)),
            None => {
                let names = self.prog.var_names();
                crate::suggest::closest(
                    name,
                    names.iter().enumerate().filter(|(i, _)| self.vars.get(*i as u32).is_some()).map(|(_, n)| &**n),
                )
            }
        });
        err("Unknown variable", crate::suggest::unknown_variable_detail(name, suggestion), span)
    }

    #[inline]
    fn set(&mut self, r: u16, v: Value) {
        set_reg(&mut self.s.regs, r, v)
    }

    /// [`Machine::set`] for a bool.
    #[inline(always)]
    fn set_bool(&mut self, r: u16, b: bool) {
        set_bool_reg(&mut self.s.regs, r, b)
    }

    /// Runs a block and takes its value. (Inlined everywhere: it is small,
    /// and a frame of its own costs as much as it does.)
    #[inline(always)]
    fn block(&mut self, b: &Block) -> Value {
        if b.start != b.end {
            self.nested(|m| m.run(b.start as usize, b.end as usize));
            // Once a limit is hit, blocks no longer run, so their output
            // register holds whatever an earlier block or evaluation left
            // there: the block's value is `D` instead (the evaluation's
            // value is discarded anyway; this keeps its diagnostics from
            // depending on stale registers).
            if self.s.aborted.is_some() {
                return dynamic();
            }
        }
        self.take(b.out)
    }

    /// Runs `f` one level of block nesting deeper. Nesting follows the
    /// source's (bounded by the parser); past a few levels the stack left
    /// is checked, and a fresh segment is used when it runs low, so deep
    /// programs evaluate on any thread.
    #[inline]
    fn nested(&mut self, f: impl FnOnce(&mut Self)) {
        self.depth += 1;
        if self.depth < 16 {
            f(self);
        } else {
            stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, || f(self));
        }
        self.depth -= 1;
    }

    /// The diagnostics count at mark `m` (now when there is none).
    #[inline]
    fn mark_at(&self, m: u16) -> usize {
        if m == NO_MARK {
            return self.s.diags.len();
        }
        self.s.marks.get(usize::from(m)).map_or(self.s.diags.len(), |&n| n as usize)
    }

    // ---- the dispatch loop -----------------------------------------------

    /// Runs a program's entry block `start..end`, whose instructions are
    /// all simple: from their fast forms at `fast_at` ([`Program::fast_at`])
    /// in the fast lane while it finishes them the common way (see
    /// `fast_lane`), the rest in [`Machine::run`]. Steps are charged as
    /// `run` charges them: the fast lane is entered only when the whole
    /// block's steps reach no step check (else `run` runs all of it), and
    /// it charges those it ran.
    #[inline(never)]
    fn run_fast_entry(&mut self, fast_at: usize, start: usize, end: usize) {
        let prog: &'a Chunk = self.chunk;
        let mut first = start;
        if let Some(fast) = prog.fast.get(fast_at..fast_at + (end - start)) {
            // (Nothing is reported yet at a program's start: diagnostics
            // were cleared; steps count on from the body's earlier
            // programs. A program that starts aborted runs nothing.)
            debug_assert!(self.s.diags.is_empty());
            if self.s.aborted.is_none() && self.s.steps + fast.len() as u64 <= self.s.check_at {
                let from = fast_lane::Operands { consts: self.s.consts.all(), vars: self.vars, paths: &prog.paths };
                let done = fast_lane::run(fast, &mut self.s.regs, &mut self.s.marks, &from);
                self.s.steps += done as u64;
                first += done;
            }
        }
        if first < end {
            self.nested(|m| m.run(first, end));
        }
    }

    fn run(&mut self, start: usize, end: usize) {
        let prog: &'a Chunk = self.chunk;
        let code = prog.code.get(start..end).unwrap_or(&[]);
        // A block is straight-line code: its instructions are charged at
        // once (loops charge each run of their body).
        self.s.steps += code.len() as u64;
        if self.s.steps > self.s.check_at {
            self.checkpoint();
        }
        if self.s.aborted.is_some() {
            return;
        }
        for (i, ins) in code.iter().enumerate() {
            let pc = start + i;
            let a = ins.a;
            match ins.op {
                Op::Move => {
                    let v = self.read(ins.ob());
                    self.set(a, v);
                }
                Op::LoadK => {
                    let v = self.s.consts.get(ins.bx() as usize).cloned().unwrap_or_else(dynamic);
                    self.set(a, v);
                }
                Op::LoadV => {
                    let v = self.read_path(ins.bx());
                    self.set(a, v);
                }
                Op::Fail => self.fail(a, prog.site(pc)),
                Op::Mark => {
                    let n = self.s.diags.len() as u32;
                    if let Some(m) = self.s.marks.get_mut(usize::from(a)) {
                        *m = n;
                    }
                }
                Op::Get => {
                    let Site::Steps(steps) = prog.site(pc) else { continue };
                    let fast = self.peek(ins.ob()).and_then(|v| steps_ref(v, steps)).cloned();
                    let v = match fast {
                        Some(v) => v,
                        None => {
                            let v = self.read(ins.ob());
                            self.traverse(v, steps)
                        }
                    };
                    self.set(a, v);
                }
                Op::Index => {
                    let fast = match (self.peek(ins.ob()), self.peek(ins.oc())) {
                        (Some(c), Some(k)) => Some(crate::ops::index(c, k)),
                        _ => None,
                    };
                    let r = match fast {
                        Some(r) => r,
                        None => {
                            let c = self.read(ins.ob());
                            let k = self.read(ins.oc());
                            crate::ops::index(&c, &k)
                        }
                    };
                    let bracket = match prog.site(pc) {
                        Site::Span(s) => *s,
                        _ => Span::default(),
                    };
                    let v = self.op_result(r, |_| Some(bracket));
                    self.set(a, v);
                }
                // One arm per operator, so that each compares with its own
                // code (no second dispatch on the operator, whose jump
                // would be shared by all of them).
                Op::Eq => self.compare(crate::ops::BinaryOp::Eq, *ins, pc),
                Op::Ne => self.compare(crate::ops::BinaryOp::NotEq, *ins, pc),
                Op::Lt => self.compare(crate::ops::BinaryOp::Lt, *ins, pc),
                Op::Le => self.compare(crate::ops::BinaryOp::Le, *ins, pc),
                Op::Gt => self.compare(crate::ops::BinaryOp::Gt, *ins, pc),
                Op::Ge => self.compare(crate::ops::BinaryOp::Ge, *ins, pc),
                Op::And => self.compare(crate::ops::BinaryOp::And, *ins, pc),
                Op::Or => self.compare(crate::ops::BinaryOp::Or, *ins, pc),
                Op::Add | Op::Sub | Op::Mul | Op::Div | Op::Mod => {
                    let op = binary_op(ins.op).unwrap_or(crate::ops::BinaryOp::Mod);
                    let fast = match (self.peek(ins.ob()), self.peek(ins.oc())) {
                        (Some(l), Some(r)) => crate::ops::binary_fast(op, l, r),
                        _ => None,
                    };
                    // hcl's operators give an unknown result when an
                    // operand reported errors, even one with a known value
                    // (a template with a null interpolation): the fast
                    // result stands only if the operands reported nothing
                    // (checked only when there are diagnostics at all).
                    let v = match fast {
                        Some(v) if self.s.diags.is_empty() || self.operands_clean(prog.site(pc)) => v,
                        _ => self.binary_slow(op, ins.ob(), ins.oc(), prog.site(pc)),
                    };
                    self.set(a, v);
                }
                Op::Neg | Op::Not => {
                    let op = if ins.op == Op::Neg { crate::ops::UnaryOp::Neg } else { crate::ops::UnaryOp::Not };
                    let site = match prog.site(pc) {
                        Site::Operator(s) => s,
                        _ => &NO_OPERATOR,
                    };
                    let mark = self.mark_at(site.mark);
                    let v = self.read(ins.ob());
                    let had_errors = self.errors_since(mark);
                    let r = crate::ops::unary_checked(op, &v, had_errors);
                    let v = self.op_result(r, |blame| match blame {
                        Blame::Operand(0) => Some(site.lhs),
                        _ => Some(site.span),
                    });
                    self.set(a, v);
                }
                Op::Tuple => {
                    let base = usize::from(ins.b);
                    let n = usize::from(ins.c);
                    let v = if self.grow_elems(n) {
                        let vals: Vec<Value> = match self.s.regs.get_mut(base..base + n) {
                            Some(rs) => rs.iter_mut().map(|r| std::mem::replace(r, dynamic())).collect(),
                            None => Vec::new(),
                        };
                        crate::ops::make_tuple(vals)
                    } else {
                        dynamic()
                    };
                    self.set(a, v);
                }
                Op::ArgConv => {
                    if let Site::Call(c) = prog.site(pc) {
                        self.convert_arg(c, ins.b, usize::from(ins.c));
                    }
                }
                Op::Call => {
                    let v = self.call_op(*ins, prog.site(pc));
                    self.set(a, v);
                }
                Op::AndThen | Op::OrElse => {
                    let v = self.logic(*ins, prog.site(pc));
                    self.set(a, v);
                }
                Op::CallExpand | Op::Object | Op::Template | Op::Cond | Op::For | Op::Splat | Op::Try | Op::Can | Op::Memo => {
                    let v = self.structured(*ins, prog.site(pc));
                    self.set(a, v);
                }
                Op::Join => {
                    let span = match prog.site(pc) {
                        Site::Span(s) => *s,
                        _ => Span::default(),
                    };
                    let t = self.read(ins.ob());
                    let v = self.template_join(&t, span);
                    self.set(a, v);
                }
            }
        }
    }

    /// A comparison or logic operator (`EQ` .. `GE`, `AND`, `OR`): its bool
    /// decided inline in the common cases and written to its register
    /// without a `Value` in between.
    #[inline(always)]
    fn compare(&mut self, op: crate::ops::BinaryOp, ins: Instr, pc: usize) {
        let fast = match (self.peek(ins.ob()), self.peek(ins.oc())) {
            (Some(l), Some(r)) => crate::ops::compare_fast(op, l, r),
            _ => None,
        };
        // As for arithmetic: the fast result stands only if the operands
        // reported nothing.
        let chunk: &'a Chunk = self.chunk;
        match fast {
            Some(b) if self.s.diags.is_empty() || self.operands_clean(chunk.site(pc)) => self.set_bool(ins.a, b),
            _ => {
                let v = self.binary_slow(op, ins.ob(), ins.oc(), chunk.site(pc));
                self.set(ins.a, v);
            }
        }
    }

    /// `CALL`, the most frequent instruction with a site, out of line on
    /// its own (a smaller frame than [`Machine::structured`]'s).
    #[inline(never)]
    fn call_op(&mut self, ins: Instr, site: &Site) -> Value {
        match site {
            Site::Call(c) => self.call(c, usize::from(ins.b), usize::from(ins.c)),
            _ => dynamic(),
        }
    }

    /// `ANDTHEN` / `ORELSE`: hcl ≥ v2.21's short-circuit `&&` / `||`
    /// ([`crate::ops::logical_short_circuit`]). The left operand's
    /// diagnostics are those since the site's mark (its code ran before
    /// this instruction) plus those of reading it; the right operand's are
    /// those of its block.
    #[inline(never)]
    fn logic(&mut self, ins: Instr, site: &Site) -> Value {
        let Site::Logic(s) = site else { return dynamic() };
        let or = ins.op == Op::OrElse;
        let mark_l = self.mark_at(s.mark);
        // The common case: a known bool, read in place.
        let lhs = match self.peek(ins.ob()) {
            Some(Value::Bool(l)) => {
                let l = *l;
                if l == or && s.rhs_converts {
                    // Decided by the left operand, with its diagnostics.
                    return Value::Bool(l);
                }
                Value::Bool(l)
            }
            _ => self.read(ins.ob()),
        };
        if s.rhs_converts && crate::ops::left_decides(or, &lhs) {
            return Value::Bool(or);
        }
        let mark_r = self.s.diags.len();
        let rhs = self.block(&s.rhs);
        if mark_l == self.s.diags.len() {
            if let (Value::Bool(l), Value::Bool(r)) = (&lhs, &rhs) {
                return Value::Bool(if or { *l || *r } else { *l && *r });
            }
        }
        let lhs_failed = self.errors_between(mark_l, mark_r);
        let rhs_failed = self.errors_since(mark_r);
        let span_of = |blame| match blame {
            Blame::Operand(0) => Some(s.lhs),
            Blame::Operand(1) => Some(s.rhs_span),
            _ => Some(s.span),
        };
        match crate::ops::logical_short_circuit(or, &lhs, &rhs, lhs_failed, rhs_failed) {
            crate::ops::Logic::Decided(v, crate::ops::Keep::Left) => {
                self.discard_since(mark_r);
                v
            }
            crate::ops::Logic::Decided(v, crate::ops::Keep::Right) => {
                let dropped: Vec<Diagnostic> = self.s.diags.drain(mark_l..mark_r).collect();
                self.discard(&dropped);
                v
            }
            crate::ops::Logic::Invalid(e) => {
                let operands = self.s.diags.split_off(mark_l);
                let v = self.op_result(Err(e), span_of);
                self.s.diags.extend(operands);
                v
            }
            crate::ops::Logic::Applied(r) => self.op_result(r, span_of),
        }
    }

    fn errors_between(&self, from: usize, to: usize) -> bool {
        self.s.diags.get(from..to).is_some_and(|ds| ds.iter().any(|d| d.is_error()))
    }

    /// A structured instruction: its site holds the blocks it runs. Kept
    /// out of line so that the dispatch loop stays small (it runs once per
    /// block, and its frame is set up as often).
    #[inline(never)]
    fn structured(&mut self, ins: Instr, site: &Site) -> Value {
        match (ins.op, site) {
            (Op::CallExpand, Site::Call(c)) => self.call_expand(c),
            (Op::Object, Site::Object(items)) => self.object(items),
            (Op::Template, Site::Template(parts)) => self.template(parts),
            (Op::Cond, Site::Cond(c)) => self.conditional(c),
            (Op::For, Site::For(f)) => self.for_expr(f),
            (Op::Splat, Site::Splat(s)) => self.splat(s),
            (Op::Try, Site::Try(t)) => self.try_(t),
            (Op::Can, Site::Try(t)) => self.can(t),
            (Op::Memo, Site::Block(b)) if ins.c == 1 => self.shared_memo(ins.b, b),
            (Op::Memo, Site::Block(b)) => self.memo(ins.b, b),
            _ => dynamic(),
        }
    }

    /// `MEMO`: the memoized call's value, or the call's code run (which
    /// sets the memo when the call succeeds).
    fn memo(&mut self, slot: u16, code: &Block) -> Value {
        // The same pure function on the same arguments (they read only
        // host variables and constants, which an evaluation does not
        // change) succeeded before.
        let kept = self.s.memos.get(usize::from(slot)).cloned().flatten();
        match self.reuse(kept) {
            Some(v) => v,
            None => self.block(code),
        }
    }

    /// A kept value, charged the size budget it cost when computed; `None`
    /// when nothing is kept, or when less budget is left than that (the
    /// code then runs again and fails as it would have).
    #[inline]
    fn reuse(&mut self, kept: Option<(Value, u64)>) -> Option<Value> {
        let (v, used) = kept?;
        if used > self.s.size.remaining() {
            return None;
        }
        self.s.size.charge(used);
        Some(v)
    }

    /// `MEMO` with a shared slot: the subexpression's value if another
    /// occurrence computed it in this evaluation of the body without
    /// reporting anything, else its code run (keeping the value when it
    /// reports nothing).
    fn shared_memo(&mut self, slot: u16, code: &Block) -> Value {
        let slot = usize::from(slot);
        let kept = self.s.shared.get(slot).cloned().flatten();
        if let Some(v) = self.reuse(kept) {
            return v;
        }
        let (mark, size) = (self.s.diags.len(), self.s.size.used());
        let v = self.block(code);
        if self.s.diags.len() == mark && self.s.aborted.is_none() {
            let used = self.s.size.used().saturating_sub(size);
            if let Some(entry) = self.s.shared.get_mut(slot) {
                *entry = Some((v.clone(), used));
            }
        }
        v
    }

    /// Takes a `vm::ops` result: its value, or its diagnostics placed with
    /// `span_of` and its fallback value.
    fn op_result(&mut self, r: crate::ops::OpResult, span_of: impl Fn(Blame) -> Option<Span>) -> Value {
        match r {
            Ok(v) => v,
            Err(e) => {
                for d in &e.diags {
                    let diag = d.to_diagnostic(&span_of);
                    self.push(diag);
                }
                e.fallback
            }
        }
    }

    /// Whether an operator's operands reported no error (operands without
    /// code report only through their own reads, which the fast path does
    /// not do).
    #[cold]
    fn operands_clean(&self, site: &Site) -> bool {
        match site {
            Site::Operator(s) if s.mark != NO_MARK => !self.errors_since(self.mark_at(s.mark)),
            _ => true,
        }
    }

    /// An operator off its fast path: operands that failed, need
    /// conversion, are unknown or null.
    #[cold]
    fn binary_slow(&mut self, op: crate::ops::BinaryOp, lo: Opnd, ro: Opnd, site: &Site) -> Value {
        let site = match site {
            Site::Operator(s) => s,
            _ => &NO_OPERATOR,
        };
        let mark = self.mark_at(site.mark);
        let l = self.read(lo);
        let r = self.read(ro);
        let had_errors = self.errors_since(mark);
        let res = crate::ops::binary_checked(op, &l, &r, had_errors);
        let span_of = |blame| match blame {
            Blame::Operand(0) => Some(site.lhs),
            Blame::Operand(1) => Some(site.rhs),
            _ => Some(site.span),
        };
        match res {
            Err(e)
                if site.conversion_errors_first && self.s.diags.len() > mark && e.diags.iter().any(crate::ops::is_operand_conversion) =>
            {
                // hcl ≥ v2.21: the conversion errors, then the operands'
                // diagnostics.
                let operands = self.s.diags.split_off(mark);
                let v = self.op_result(Err(e), span_of);
                self.s.diags.extend(operands);
                v
            }
            res => self.op_result(res, span_of),
        }
    }

    fn traverse(&mut self, mut v: Value, steps: &[Step]) -> Value {
        for step in steps {
            let r = match step {
                Step::Attr(name, _, _) => crate::ops::get_attr(&v, name),
                Step::Index(key, _) => crate::ops::index(&v, key),
            };
            match r {
                Ok(next) => v = next,
                Err(e) => {
                    let span = match step {
                        Step::Attr(_, s, _) | Step::Index(_, s) => *s,
                    };
                    return self.op_result(Err(e), |_| Some(span));
                }
            }
        }
        v
    }

    fn object(&mut self, items: &[ObjectItemSite]) -> Value {
        if !self.grow_elems(items.len()) {
            return dynamic();
        }
        let mut object = crate::ops::ObjectBuilder::with_capacity(items.len());
        for item in items {
            let (diag, key_span) = match &item.key {
                ObjectKeySite::Name(key) => {
                    let val = self.block(&item.value);
                    (object.push(key, false, val), Span::default())
                }
                ObjectKeySite::Expr(block, span) => {
                    let mark = self.s.diags.len();
                    let key = self.block(block);
                    let key_failed = self.errors_since(mark);
                    let val = self.block(&item.value);
                    (object.push(&key, key_failed, val), *span)
                }
            };
            if let Some(d) = diag {
                self.push(d.to_diagnostic(|blame| match blame {
                    Blame::Operand(0) => Some(key_span),
                    Blame::Operand(1) => Some(item.value_span),
                    _ => None,
                }));
            }
        }
        object.finish()
    }

    // ---- templates -------------------------------------------------------

    fn template(&mut self, parts: &[PartSite]) -> Value {
        let mut buf = self.s.text_bufs.pop().unwrap_or_default();
        buf.clear();
        let mark = self.s.diags.len();
        let mut known = true;
        // The text before the first unknown part: the unknown result's
        // known prefix.
        let mut prefix_len = None;
        // After an error no more text is kept (the value that goes with
        // the diagnostics is the text before the failing part).
        let mut kept_len = None;
        for part in parts {
            if self.text_over_budget(buf.len()) {
                break;
            }
            let start = buf.len();
            self.stream_part(part, &mut buf, &mut known);
            if !known && prefix_len.is_none() {
                prefix_len = Some(start);
            }
            if kept_len.is_none() && self.s.diags.len() > mark && self.errors_since(mark) {
                kept_len = Some(start);
            }
            if let Some(k) = kept_len {
                buf.truncate(k);
            }
        }
        let v = if self.s.aborted.is_some() {
            dynamic()
        } else if !known {
            self.unknown_template(&buf[..prefix_len.unwrap_or(0)], mark)
        } else {
            self.grow(buf.len());
            Value::string(&buf)
        };
        // Keep buffers of ordinary size for the next template.
        if buf.capacity() <= 1 << 16 {
            self.s.text_bufs.push(buf);
        }
        v
    }

    /// The unknown result of a template: never null, and starting with the
    /// text of the parts before the unknown one, unless a part failed.
    #[cold]
    fn unknown_template(&mut self, prefix: &str, mark: usize) -> Value {
        let mut b = Value::unknown(Type::String).refine();
        if !prefix.is_empty() && !self.errors_since(mark) {
            b.string_prefix_full(&runtime::known_prefix::template_known_prefix(prefix));
        }
        b.not_null();
        b.into_value()
    }

    /// Appends template parts to `buf`. Parts that are themselves string
    /// builders (nested templates, `%{if}` and `%{for}` directives) write
    /// straight into `buf` instead of making intermediate strings and
    /// tuples; the values and diagnostics are the same, because such parts
    /// always produce a string (or an unknown string).
    fn stream_parts(&mut self, parts: &[PartSite], buf: &mut String, known: &mut bool) {
        for part in parts {
            if self.text_over_budget(buf.len()) {
                return;
            }
            self.stream_part(part, buf, known);
        }
    }

    /// Appends one template part to `buf`: a literal or a path holding a
    /// string (most parts) inline, in the caller's loop; the others out of
    /// line.
    #[inline(always)]
    fn stream_part(&mut self, part: &PartSite, buf: &mut String, known: &mut bool) {
        if let PartKind::Value(b) = &part.kind {
            if b.start == b.end {
                if let Some(Value::String(s)) = self.peek(b.out) {
                    buf.push_str(s.as_str());
                    return;
                }
            }
        }
        self.stream_part_other(part, buf, known);
    }

    #[inline(never)]
    fn stream_part_other(&mut self, part: &PartSite, buf: &mut String, known: &mut bool) {
        match &part.kind {
            PartKind::Value(b) => {
                if b.start == b.end {
                    if let Some(v) = self.peek(b.out) {
                        let r = crate::ops::push_template_part(v, buf);
                        self.template_part_done(r, part.span, known);
                        return;
                    }
                }
                let v = self.block(b);
                let r = crate::ops::push_template_part(&v, buf);
                self.template_part_done(r, part.span, known);
            }
            PartKind::Nested(inner) => {
                if self.tick() {
                    self.nested(|m| m.stream_parts(inner, buf, known));
                }
            }
            PartKind::Cond(c, t, f) => {
                // The reference evaluates both branches and keeps only the
                // selected one's value and diagnostics; two strings always
                // unify, so running the selected branch alone (after the
                // condition) is equivalent.
                if !self.tick() {
                    return;
                }
                match self.condition_choice(c) {
                    Ok(Some(true)) => self.nested(|m| m.stream_part(t, buf, known)),
                    Ok(Some(false)) => self.nested(|m| m.stream_part(f, buf, known)),
                    Ok(None) | Err(()) => *known = false,
                }
            }
            PartKind::For(f, body) => {
                if self.tick() && self.tick() {
                    self.nested(|m| m.stream_for(f, body, buf, known));
                }
            }
        }
    }

    /// Takes the outcome of appending one interpolation to a template.
    /// (Always inlined: the common outcome, a string appended, is one test;
    /// out of line, the large result travels through memory.)
    #[inline(always)]
    fn template_part_done(&mut self, r: Result<bool, crate::ops::OpDiag>, span: Span, known: &mut bool) {
        match r {
            Ok(true) => {}
            Ok(false) => *known = false,
            Err(d) => self.template_part_failed(d, span),
        }
    }

    #[cold]
    fn template_part_failed(&mut self, d: crate::ops::OpDiag, span: Span) {
        self.push(d.to_diagnostic(|blame| (blame == Blame::Operand(0)).then_some(span)));
    }

    /// A template `%{for}` whose body is a string builder, appended element
    /// by element (the reference builds the tuple, then joins it).
    fn stream_for(&mut self, f: &ForSite, body: &PartSite, buf: &mut String, known: &mut bool) {
        let Some(coll) = self.for_collection(f) else {
            *known = false;
            return;
        };
        // Only the `if` clause's bookkeeping is used: the body streams.
        let mut steps = crate::ops::ForCollector::new(crate::ops::ForKind::Tuple);
        for i in 0..coll.elements_slice().len() {
            if self.s.aborted.is_some() {
                return;
            }
            if !self.for_step(f, &coll, i, &mut steps) {
                continue;
            }
            self.stream_part(body, buf, known);
            if self.text_over_budget(buf.len()) {
                return;
            }
        }
        if !steps.is_known() {
            *known = false;
        }
    }

    fn template_join(&mut self, t: &Value, span: Span) -> Value {
        let v = self.op_result(crate::ops::template_join(t), |_| Some(span));
        let len = v.as_str().map_or(0, str::len);
        if !self.grow(len) {
            return dynamic();
        }
        v
    }

    // ---- conditionals ----------------------------------------------------

    fn conditional(&mut self, c: &CondSite) -> Value {
        let mark = self.s.diags.len();
        let t = self.block(&c.true_result);
        let t_diags = self.s.diags.split_off(mark);
        let f = self.block(&c.false_result);
        let f_diags = self.s.diags.split_off(mark);
        // Both branches' diagnostics are set aside (their size given back);
        // the taken branch's are reported again below.
        self.discard(&t_diags);
        self.discard(&f_diags);
        let plan = match crate::ops::conditional_plan(&t, &f) {
            Ok(p) => p,
            Err(d) => {
                self.push(d.to_diagnostic(cond_span_of(c)));
                return dynamic();
            }
        };
        let chosen = match self.condition_choice(c) {
            Ok(Some(b)) => b,
            Ok(None) => return plan.unknown_result(&t, &f),
            Err(()) => return Value::unknown(plan.result_type),
        };
        let (pick, diags) = if chosen { (t, t_diags) } else { (f, f_diags) };
        for d in diags {
            self.push(d);
        }
        match plan.finish(chosen, pick) {
            Ok(v) => v,
            Err((d, v)) => {
                self.push(d.to_diagnostic(cond_span_of(c)));
                v
            }
        }
    }

    /// Evaluates a conditional's condition: the branch it selects,
    /// `Ok(None)` when it is unknown, `Err` when it is invalid (reported).
    fn condition_choice(&mut self, c: &CondSite) -> Result<Option<bool>, ()> {
        let cond = self.block(&c.condition);
        crate::ops::condition_choice(&cond).map_err(|d| {
            self.push(d.to_diagnostic(cond_span_of(c)));
        })
    }

    // ---- for expressions ---------------------------------------------------

    /// The collection of a `for`, or `None` when the expression's value is
    /// `DynamicVal` without iterating (null, dynamic, non-iterable, unknown,
    /// or a failing `if` pre-check).
    fn for_collection(&mut self, f: &ForSite) -> Option<Value> {
        let coll = self.block(&f.collection);
        let coll = match crate::ops::for_source(&coll) {
            Ok(crate::ops::ForSource::Known(coll)) => coll,
            Ok(crate::ops::ForSource::Unknown) => return None,
            Err(e) => {
                self.op_result(Err(e), for_span_of(f));
                return None;
            }
        };
        if let Some((cond, _)) = f.cond.as_ref().filter(|_| f.precheck) {
            // The reference checks the condition once with unknown
            // iterators before iterating.
            if let Some(k) = f.key_local {
                self.set(k, dynamic());
            }
            self.set(f.val_local, dynamic());
            let mark = self.s.diags.len();
            let r = self.block(cond);
            if let Some(d) = crate::ops::ForCollector::precheck_condition(&r) {
                self.push(d.to_diagnostic(for_span_of(f)));
                return None;
            }
            if self.errors_since(mark) {
                return None;
            }
        }
        if !self.grow_elems(coll.elements_slice().len()) {
            return None;
        }
        Some(coll)
    }

    /// Binds element `i`'s iterators and evaluates the `if` clause:
    /// whether to include the element.
    fn for_step(&mut self, f: &ForSite, coll: &Value, i: usize, steps: &mut crate::ops::ForCollector) -> bool {
        // Every iteration is charged, also when its body needs no code.
        if !self.tick() {
            return false;
        }
        let Some((k, v)) = crate::ops::for_element(coll, i) else { return false };
        if let Some(ks) = f.key_local {
            self.set(ks, k);
        }
        self.set(f.val_local, v);
        let Some((cond, _)) = &f.cond else { return true };
        let include = self.block(cond);
        let (include, diag) = steps.condition(&include);
        if let Some(d) = diag {
            self.push(d.to_diagnostic(for_span_of(f)));
        }
        include
    }

    fn for_expr(&mut self, f: &ForSite) -> Value {
        let Some(coll) = self.for_collection(f) else { return dynamic() };
        let kind = if f.key.is_some() { crate::ops::ForKind::Object { group: f.group } } else { crate::ops::ForKind::Tuple };
        let mut result = crate::ops::ForCollector::new(kind);
        for i in 0..coll.elements_slice().len() {
            if self.s.aborted.is_some() {
                return dynamic();
            }
            if !self.for_step(f, &coll, i, &mut result) {
                continue;
            }
            let key = match &f.key {
                None => None,
                Some((key_block, _)) => {
                    let raw = self.block(key_block);
                    let (key, diag) = result.key(&raw);
                    if let Some(d) = diag {
                        self.push(d.to_diagnostic(for_span_of(f)));
                    }
                    match key {
                        Some(k) => Some(k),
                        None => continue,
                    }
                }
            };
            let val = self.block(&f.value);
            if let Some(d) = result.push(key, val) {
                self.push(d.to_diagnostic(for_span_of(f)));
            }
        }
        if self.s.aborted.is_some() {
            // A budget ran out during the loop: no partial result.
            return dynamic();
        }
        result.finish()
    }

    // ---- splats -------------------------------------------------------------

    fn splat(&mut self, s: &SplatSite) -> Value {
        use crate::ops::{SplatFinish, SplatSource};
        let mark = self.s.diags.len();
        let source = self.block(&s.source);
        if self.errors_since(mark) {
            return dynamic();
        }
        let plan = match crate::ops::splat_source(&source) {
            SplatSource::Done(v) => return v,
            SplatSource::Error(e) => return self.op_result(Err(e), splat_span_of(s)),
            SplatSource::Iterate(plan) => plan,
        };
        drop(source);
        if plan.source_unknown() {
            let probed = self.splat_probe(s, &plan, true);
            return plan.unknown_source_result(&probed);
        }
        let items = plan.items();
        if !self.grow_elems(items.len()) {
            return dynamic();
        }
        let mut vals = Vec::with_capacity(items.len());
        let mut rest_failed = false;
        for item in items {
            if !self.tick() {
                return dynamic();
            }
            self.set(s.local, item.clone());
            let mark = self.s.diags.len();
            let v = self.block(&s.each);
            rest_failed |= self.errors_since(mark);
            vals.push(v);
        }
        self.set(s.local, dynamic());
        match plan.finish(vals, rest_failed) {
            Ok(SplatFinish::Value(v)) => v,
            Ok(SplatFinish::UnknownOfProbedType) => {
                let probed = self.splat_probe(s, &plan, false);
                plan.unknown_result(&probed)
            }
            Ok(SplatFinish::EmptyListOfProbedType) => {
                let probed = self.splat_probe(s, &plan, true);
                plan.empty_list(&probed)
            }
            Err(e) => self.op_result(Err(e), splat_span_of(s)),
        }
    }

    /// The types `each` gives for unknowns of the plan's probe types; its
    /// diagnostics are kept only when `keep`.
    fn splat_probe(&mut self, s: &SplatSite, plan: &crate::ops::SplatPlan, keep: bool) -> Vec<Type> {
        let mark = self.s.diags.len();
        let saved = self.s.regs.get(usize::from(s.local)).cloned().unwrap_or_else(dynamic);
        self.probing += 1;
        let probed = plan
            .probe_types()
            .into_iter()
            .map(|ty| {
                self.set(s.local, Value::unknown(ty));
                self.block(&s.each).ty()
            })
            .collect();
        self.probing -= 1;
        self.set(s.local, saved);
        if !keep {
            self.discard_since(mark);
        }
        probed
    }

    // ---- calls ----------------------------------------------------------------

    /// Converts argument register `r` (argument `i` of call `c`) to its
    /// parameter's type, reporting a failed conversion at the argument.
    fn convert_arg(&mut self, c: &CallSite, r: u16, i: usize) {
        let Some(funcs) = self.prog.file.funcs.as_deref() else { return };
        let Some(v) = self.s.regs.get(usize::from(r)) else { return };
        match funcs.signature(c.func).convert_arg(i, v) {
            Ok(None) => {}
            Ok(Some(conv)) => self.set(r, conv),
            Err(e) => self.call_error(c, *e, |i| c.args.get(i).map(|a| a.start).unwrap_or_default()),
        }
    }

    /// A call whose converted arguments are in registers `base..base+n`.
    fn call(&mut self, c: &CallSite, base: usize, n: usize) -> Value {
        let prog: &'a Program = self.prog;
        let Some(funcs) = prog.file.funcs.as_deref() else { return dynamic() };
        let mark = self.mark_at(c.mark);
        if self.errors_since(mark) {
            return dynamic();
        }
        let Some(args) = self.s.regs.get(base..base + n) else { return dynamic() };
        let before = self.s.size.used();
        let r = funcs.call(c.func, args, &mut self.s.size);
        let used = self.s.size.used().saturating_sub(before);
        // Kept only when the arguments reported nothing at all: a reuse
        // (`MEMO`) skips their code, so it must not drop a diagnostic.
        let quiet = self.s.diags.len() == mark;
        if let (Ok(v), Some(slot), true) = (&r, self.s.memos.get_mut(usize::from(c.memo)), quiet) {
            *slot = Some((v.clone(), used));
        }
        self.call_result(c, r, |i| c.args.get(i).map(|a| a.start).unwrap_or_default())
    }

    fn call_result(&mut self, c: &CallSite, r: Result<Value, Box<CallError>>, arg_start: impl Fn(usize) -> Span) -> Value {
        match r {
            Ok(v) => v,
            Err(e) => {
                if self.s.size.exceeded() {
                    // Out of budget: the evaluation ends here, as when the
                    // VM's own building runs out (going on, every later
                    // call that builds would fail alike, once per loop
                    // iteration). The function says what it was building.
                    if self.s.aborted.is_none() {
                        self.s.aborted = Some(Abort::Memory);
                        self.s.abort_report = Some(Diagnostic::error(LIMIT_EXCEEDED, e.detail, Some(c.spans.span)));
                    }
                } else {
                    self.call_error(c, *e, arg_start);
                }
                dynamic()
            }
        }
    }

    /// Reports `e` about call `c` where hcl puts it.
    #[cold]
    fn call_error(&mut self, c: &CallSite, e: CallError, arg_start: impl Fn(usize) -> Span) {
        let subject = c.spans.subject(e.site, arg_start);
        self.push(Diagnostic::error(e.summary, e.detail, Some(subject)));
    }

    /// A call whose last argument is expanded (`f(a, xs...)`): the
    /// expanded value is evaluated first, then the arity is checked, then
    /// the other arguments are evaluated and converted in order.
    fn call_expand(&mut self, c: &CallSite) -> Value {
        let prog: &'a Program = self.prog;
        let Some(funcs) = prog.file.funcs.as_deref() else { return dynamic() };
        let sig = funcs.signature(c.func);
        let Some(last) = c.args.last() else { return dynamic() };
        let expanded = match self.expand(&last.block, last.span) {
            Ok(elements) => elements,
            Err(v) => return v,
        };
        let fixed = c.args.len() - 1;
        let arg_count = fixed + expanded.len();
        let arg_start = |i: usize| -> Span {
            if i < fixed {
                c.args[i].start
            } else {
                last.span
            }
        };
        if let Err(e) = sig.check_arity(&c.spans.name, arg_count) {
            self.call_error(c, *e, arg_start);
            return dynamic();
        }
        let mark = self.s.diags.len();
        let mut vals: smallvec::SmallVec<[Value; 4]> = smallvec::SmallVec::with_capacity(arg_count);
        for i in 0..arg_count {
            if sig.param_for(i).is_none() {
                break;
            }
            let v = if i < fixed { self.block(&c.args[i].block) } else { expanded.get(i - fixed).cloned().unwrap_or_else(dynamic) };
            if sig.param_for(i).is_some_and(|p| p.type_constraint) {
                // The compiler read a written argument; an expanded one
                // is a value, which hcl's type reader refuses.
                if i >= fixed {
                    self.call_error(c, Param::not_a_type_constraint(i, &v), arg_start);
                }
                vals.push(v);
                continue;
            }
            match sig.convert_arg(i, &v) {
                Ok(None) => vals.push(v),
                Ok(Some(conv)) => vals.push(conv),
                Err(e) => {
                    self.call_error(c, *e, arg_start);
                    vals.push(v);
                }
            }
        }
        if self.errors_since(mark) {
            return dynamic();
        }
        let r = funcs.call(c.func, &vals, &mut self.s.size);
        self.call_result(c, r, arg_start)
    }

    // ---- try and can ------------------------------------------------------------

    /// The elements of `try`/`can`'s expanded last argument (`Ok(None)`
    /// without `...`), or the call's value when expansion ends it, with
    /// hcl's checks.
    fn try_expand(&mut self, t: &TrySite) -> Result<Option<Vec<Value>>, Value> {
        if !t.expand_final {
            return Ok(None);
        }
        let Some(last) = t.args.last() else { return Err(dynamic()) };
        self.expand(&last.block, last.span).map(Some)
    }

    /// The elements of an expanded last argument (`f(xs...)`) with hcl's
    /// checks, or the call's value when expansion ends it.
    fn expand(&mut self, block: &Block, span: Span) -> Result<Vec<Value>, Value> {
        let mark = self.s.diags.len();
        let v = self.block(block);
        if self.errors_since(mark) {
            return Err(dynamic());
        }
        let ty = v.ty();
        if !(ty.is_dynamic() || ty.is_tuple() || ty.is_list() || ty.is_set()) {
            self.push(err(
                "Invalid expanding argument value",
                "The expanding argument (indicated by ...) must be of a tuple, list, or set type.",
                span,
            ));
            return Err(dynamic());
        }
        if v.is_null() {
            self.push(err("Invalid expanding argument value", "The expanding argument (indicated by ...) must not be null.", span));
            return Err(dynamic());
        }
        if ty.is_dynamic() || !v.is_known() {
            return Err(dynamic());
        }
        Ok(v.elements_slice().to_vec())
    }

    fn try_(&mut self, t: &TrySite) -> Value {
        let mut failures: Vec<Diagnostic> = Vec::new();
        let v = self.try_args(t, &mut failures);
        // Summed up in the error, or moot after a success.
        self.discard(&failures);
        v
    }

    /// `try`'s arguments in turn; the diagnostics of those that failed are
    /// left in `failures`.
    fn try_args(&mut self, t: &TrySite, failures: &mut Vec<Diagnostic>) -> Value {
        if let Some(d) = &t.arity_error {
            self.push((**d).clone());
            return dynamic();
        }
        let expanded = match self.try_expand(t) {
            Ok(e) => e,
            Err(v) => return v,
        };
        let fixed = if expanded.is_some() { &t.args[..t.args.len().saturating_sub(1)] } else { &t.args[..] };
        if fixed.is_empty() && expanded.as_ref().is_some_and(|e| e.is_empty()) {
            self.push(err("Error in function call", "Call to function \"try\" failed: at least one argument is required.", t.spans.start));
            return dynamic();
        }
        for arg in fixed.iter() {
            let mark = self.s.diags.len();
            let v = self.block(&arg.block);
            let failed = self.errors_since(mark);
            let ds = self.s.diags.split_off(mark);
            if failed {
                failures.extend(ds);
                continue;
            }
            self.discard(&ds);
            // A value with unknowns in it might still fail, or take
            // another type, once known.
            return if v.is_wholly_known() { v } else { dynamic() };
        }
        // Expanded elements are literal values: the first one succeeds.
        if let Some(first) = expanded.as_ref().and_then(|e| e.first()) {
            return if first.is_wholly_known() { first.clone() } else { dynamic() };
        }
        if self.s.aborted.is_some() {
            return dynamic();
        }
        let mut msg = String::from("no expression succeeded:\n");
        let lines = self.prog.file.src_lines.line_index();
        for d in failures.iter() {
            match d.subject {
                Some(span) => {
                    let range = lines.range_text(&self.prog.file.src_lines.src, &self.prog.file.filename, span);
                    msg.push_str(&format!("- {} (at {})\n  {}\n", d.summary, range, d.detail));
                }
                None => msg.push_str(&format!("- {}\n  {}\n", d.summary, d.detail)),
            }
        }
        msg.push_str("\nAt least one expression must produce a successful result");
        self.push(err("Error in function call", format!("Call to function {} failed: {msg}.", go_quote(&t.spans.name)), t.spans.start));
        dynamic()
    }

    fn can(&mut self, t: &TrySite) -> Value {
        if let Some(d) = &t.arity_error {
            self.push((**d).clone());
            return dynamic();
        }
        let expanded = match self.try_expand(t) {
            Ok(e) => e,
            Err(v) => return v,
        };
        if let Some(e) = &expanded {
            let fixed = &t.args[..t.args.len().saturating_sub(1)];
            let count = fixed.len() + e.len();
            if count == 0 {
                self.push(err(
                    "Not enough function arguments",
                    "Function \"can\" expects 1 argument(s). Missing value for \"expression\".",
                    t.spans.close_paren,
                ));
                return dynamic();
            }
            if count > 1 {
                let subject = match fixed.get(1) {
                    Some(a) => a.start,
                    None => t.args.last().map(|a| a.span).unwrap_or(t.spans.span),
                };
                self.push(err("Too many function arguments", "Function \"can\" expects only 1 argument(s).", subject));
                return dynamic();
            }
            if fixed.is_empty() {
                // A literal value always evaluates; with unknowns in it,
                // whether it will is not known.
                let known = e.first().is_some_and(Value::is_wholly_known);
                return if known { Value::bool(true) } else { Value::unknown(Type::Bool) };
            }
        }
        let Some(arg) = t.args.first() else { return dynamic() };
        let mark = self.s.diags.len();
        let v = self.block(&arg.block);
        let failed = self.errors_since(mark);
        self.discard_since(mark);
        if failed {
            Value::bool(false)
        } else if !v.is_wholly_known() {
            // It may still fail once known.
            Value::unknown(Type::Bool)
        } else {
            Value::bool(true)
        }
    }
}

/// Whether an object's attribute name is a step's: the same allocation
/// (variables decoded from JSON for this program name their attributes
/// with the program's names, `Chunk::attr_names`), else the same text.
#[inline(always)]
fn same_name(n: &std::sync::Arc<str>, name: &std::sync::Arc<str>) -> bool {
    let (a, b) = (n.as_bytes(), name.as_bytes());
    std::ptr::eq(a, b) || a == b
}

/// Literal steps by reference, when none needs `hcl.Index`'s or
/// `hcl.GetAttr`'s special cases (unknowns, nulls, conversions, errors).
/// What a reported diagnostic costs of the size budget: about the memory
/// it holds.
fn diagnostic_cost(d: &Diagnostic) -> u64 {
    (std::mem::size_of::<Diagnostic>() + d.summary.len() + d.detail.len()) as u64
}

#[inline]
pub(crate) fn steps_ref<'v>(mut v: &'v Value, steps: &[Step]) -> Option<&'v Value> {
    for step in steps {
        v = step_ref(v, step)?;
    }
    Some(v)
}

#[inline]
fn step_ref<'v>(v: &'v Value, step: &Step) -> Option<&'v Value> {
    match (step, v) {
        (Step::Attr(name, _, hint), Value::Object(o)) => {
            let names = o.object_type().names();
            let guess = hint.get();
            if names.get(guess).is_some_and(|n| same_name(n, name)) {
                return o.vals().get(guess);
            }
            let i = o.object_type().attr_index(&runtime::strings::normalize_nfc(name))?;
            hint.set(i);
            o.vals().get(i)
        }
        (Step::Index(key, _), _) => crate::ops::index_ref(v, key),
        _ => None,
    }
}
