//! The reusable per-thread state of evaluations, and its copies of the
//! constants.

use super::*;

/// Unknown names, by the address and length of the program's text of the
/// name (which lives as long as the evaluation), and the variables
/// suggested for them.
pub(super) type Suggestions = ahash::AHashMap<(usize, usize), Option<Box<str>>>;

/// Reusable per-thread evaluation state.
pub struct Scratch {
    pub(super) regs: Vec<Value>,
    pub(super) marks: Vec<u32>,
    /// Results of memoized calls (see [`runtime::func::Signature::pure`]).
    /// With the size budget the first call used, charged again on reuse.
    pub(super) memos: Vec<Option<(Value, u64)>>,
    /// Values of the file's shared subexpressions ([`crate::shared`]), kept
    /// across the programs of one [`BodyEvaluation`]; like `memos`.
    pub(super) shared: Vec<Option<(Value, u64)>>,
    /// Reusable template output buffers (a stack: templates nest through
    /// function arguments).
    pub(super) text_bufs: Vec<String>,
    pub(super) diags: Vec<Diagnostic>,
    /// This thread's copies of program constants ([`ConstCopies`]).
    pub(super) consts: ConstCopies,
    pub(super) steps: u64,
    /// The step count past which [`Machine::checkpoint`] runs:
    /// [`Limits::max_steps`], or sooner when [`Interrupts`] are to be
    /// checked.
    pub(super) check_at: u64,
    /// With [`Interrupts`]: the steps left before the next check when the
    /// last program ended (the checks' rhythm goes on across the programs
    /// of a body).
    pub(super) until_check: u64,
    /// The evaluation's size budget (limit [`Limits::max_size`]), which
    /// function calls charge too.
    pub(super) size: SizeBudget,
    pub(super) aborted: Option<Abort>,
    /// The error an abort reports when it says more than
    /// [`Abort::diagnostic`] about the whole expression (a call that ran
    /// out of budget: its range and what it was building).
    pub(super) abort_report: Option<Diagnostic>,
    /// The value of the last program [`run`], when it is neither in a
    /// register nor a constant.
    pub(super) held: Option<Value>,
    /// The variable each unknown name reported in this evaluation was
    /// measured closest to ([`Machine::unknown_variable`]): a loop reports
    /// the same name at every turn, and each search measures it against
    /// every variable.
    pub(super) suggestions: Option<Box<Suggestions>>,
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
            suggestions: None,
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
    pub(super) fn spent_budget(&self) -> Option<Abort> {
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
pub(super) struct ConstCopies {
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
    pub(super) fn enter(&mut self, chunk: &Chunk) {
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
    pub(super) fn get(&self, k: usize) -> Option<&Value> {
        self.current.1.get(k)
    }

    /// The current chunk's constants.
    #[inline]
    pub(super) fn all(&self) -> &[Value] {
        &self.current.1
    }
}
