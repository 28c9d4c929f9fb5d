//! Entering an evaluation: one program, or a body's programs together.

use super::*;

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
    /// The value is constant `k` of the program's chunk.
    Const(u16),
}

impl Ran {
    /// Takes the program's value out of `scratch`.
    #[inline(always)]
    pub fn value(self, scratch: &mut Scratch) -> Value {
        match self {
            Ran::Register(r) => take_reg(&mut scratch.regs, r),
            Ran::Held => scratch.held.take().unwrap_or_else(dynamic),
            Ran::Const(k) => scratch.consts.get(usize::from(k)).cloned().unwrap_or_else(dynamic),
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
    // Suggestions are measured against this evaluation's variables.
    // (Checked first: dropping in place costs a call per evaluation.)
    if scratch.suggestions.is_some() {
        scratch.suggestions = None;
    }
    scratch.size = SizeBudget::new(scratch.limits.max_size);
    // Work noted outside an evaluation (a host calling functions itself,
    // binding variables) is not this evaluation's.
    runtime::work::take();
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
    scratch.consts.enter(chunk);
    // A constant (most attributes of a configuration) is its value: nothing
    // to set up, run or report. Like every program without code, it never
    // fails, not even after the budgets are spent.
    if program.entry.start == program.entry.end {
        if let OpndKind::Const(k) = program.entry.out.kind() {
            scratch.aborted = None;
            return Ran::Const(k);
        }
    }
    scratch.check_at = match stop {
        None => scratch.limits.max_steps,
        Some(_) => scratch.steps.saturating_add(scratch.until_check).min(scratch.limits.max_steps),
    };
    scratch.abort_report = None;
    // `spent`: a body's programs share the budgets, and an earlier one
    // spent them; each later one that has code to run fails at once, as
    // with a deadline.
    scratch.aborted = spent.filter(|_| program.entry.start != program.entry.end);
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
