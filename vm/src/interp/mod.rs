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

mod calls;
mod conditional;
mod dispatch;
mod entry;
mod for_expr;
mod machine;
mod scratch;
mod splat;
mod templates;
mod try_can;

pub use entry::{evaluate, run, BodyEvaluation, Ran};
pub use scratch::Scratch;

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

/// Whether an object's attribute name is a step's: the same allocation
/// (variables decoded from JSON for this program name their attributes
/// with the program's names, `Chunk::attr_names`), else the same text.
#[inline(always)]
fn same_name(n: &std::sync::Arc<str>, name: &std::sync::Arc<str>) -> bool {
    let (a, b) = (n.as_bytes(), name.as_bytes());
    std::ptr::eq(a, b) || a == b
}

/// What a reported diagnostic costs of the size budget: about the memory
/// it holds.
fn diagnostic_cost(d: &Diagnostic) -> u64 {
    (std::mem::size_of::<Diagnostic>() + d.summary.len() + d.detail.len()) as u64
}

/// Whether `v` is a number whose text, as a key, may be work: one of high
/// precision ([`runtime::Number::is_costly`]) or of any magnitude beyond
/// a machine word's integers (`1e99999` writes 100,000 digits).
#[inline]
fn key_text_is_work(v: &Value) -> bool {
    matches!(v, Value::Number(n) if n.as_small().is_none() || n.is_costly())
}

/// Literal steps by reference, when none needs `hcl.Index`'s or
/// `hcl.GetAttr`'s special cases (unknowns, nulls, conversions, errors):
/// `None` then, for the caller to take the general way, which reports.
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
