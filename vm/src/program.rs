//! A compiled expression or template: register bytecode ([`crate::opcodes`])
//! with its constant pool, variable references and instruction sites.
//! `Program` is immutable and `Send + Sync`: many threads evaluate one
//! program at once, each with its own [`crate::Scratch`].

use crate::ir::{CallSpans, Step};
use crate::opcodes::{Block, Instr};
use runtime::func::FunctionTable;
use runtime::{Diagnostic, Span, Value};
use std::sync::{Arc, OnceLock};

/// Where a path operand starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathRoot {
    /// A host variable slot.
    Var(u32),
    /// A local register (`for` iterator, splat item).
    Local(u16),
}

/// A path operand `V[i]`: a root and literal steps after it (`a`,
/// `a.b[0]`, `each.value.name`), read in place when every step resolves
/// plainly. `span` is the root name's, where "Unknown variable" points
/// when the evaluation leaves the slot unset.
#[derive(Debug)]
pub struct PathRef {
    pub root: PathRoot,
    pub span: Span,
    pub steps: Box<[Step]>,
    /// The `for` iterator "Unknown variable" suggests for an unset root.
    pub hint: Option<Arc<str>>,
}

/// No diagnostics mark (the operands are read directly and cannot fail
/// except through their own reads).
pub const NO_MARK: u16 = u16::MAX;

/// What an instruction needs beyond its three fields.
#[derive(Debug)]
pub enum Site {
    None,
    /// The subject of the instruction's errors (index bracket, template
    /// `%{for}` tuple).
    Span(Span),
    Steps(Box<[Step]>),
    Fail(Box<Diagnostic>),
    /// The diagnostics of an [`crate::ir::Node::FailByContext`].
    FailByContext(Box<[Diagnostic; 2]>),
    /// The name and span of an [`crate::ir::Node::UnknownVariable`].
    UnknownVariable(Arc<str>, Span),
    Operator(OperatorSite),
    /// A short-circuit `&&` or `||` (`ANDTHEN`, `ORELSE`).
    Logic(Box<LogicSite>),
    Call(Box<CallSite>),
    Object(Box<[ObjectItemSite]>),
    Template(Box<[PartSite]>),
    Cond(Box<CondSite>),
    For(Box<ForSite>),
    Splat(Box<SplatSite>),
    Try(Box<TrySite>),
    /// The code of a memoized call (`MEMO`).
    Block(Block),
}

/// A unary or binary operator's mark and operand spans.
#[derive(Clone, Copy, Debug)]
pub struct OperatorSite {
    /// Diagnostics mark set before the operands were computed, or
    /// [`NO_MARK`].
    pub mark: u16,
    pub lhs: Span,
    /// The right operand's span (unused by unary operators).
    pub rhs: Span,
    pub span: Span,
    /// hcl ≥ v2.21's order of a binary operator's diagnostics: operands'
    /// conversion errors ("Invalid operand") before the operands' own
    /// diagnostics (v2.20 lists them after).
    pub conversion_errors_first: bool,
}

/// A short-circuit `&&` or `||`: the left operand is the instruction's
/// `B`, read when it runs; the right operand is a block.
#[derive(Debug)]
pub struct LogicSite {
    /// Diagnostics mark set before the left operand's code, or
    /// [`NO_MARK`] when it has none (its diagnostics are then those of
    /// reading it).
    pub mark: u16,
    pub rhs: Block,
    /// Whether the right operand's value always converts to bool (it is a
    /// comparison, `!`, `&&`, `||`, `can`, a bool constant, ...), so that
    /// skipping it when the left operand decides changes nothing. Otherwise
    /// it runs even then, as hcl evaluates it, for the error a value that
    /// is not a bool gives (`false && "x"`), its other diagnostics dropped.
    pub rhs_converts: bool,
    pub lhs: Span,
    pub rhs_span: Span,
    pub span: Span,
}

#[derive(Debug)]
pub struct CallArgSite {
    /// The argument's code (run by `CallExpand`; a linear `Call` has
    /// its arguments' code inline before it).
    pub block: Block,
    /// `StartRange()` and full range of the argument.
    pub start: Span,
    pub span: Span,
    /// A constant already converted to its parameter's type at compile time.
    pub preconverted: bool,
}

#[derive(Debug)]
pub struct CallSite {
    pub func: runtime::func::FuncId,
    pub spans: CallSpans,
    pub args: Box<[CallArgSite]>,
    /// Mark set before the arguments (linear calls).
    pub mark: u16,
    /// Memo slot for a pure call with loop-invariant arguments inside a
    /// loop ([`NO_MARK`]: none): its first successful result is reused for
    /// the rest of the evaluation.
    pub memo: u16,
}

#[derive(Debug)]
pub enum ObjectKeySite {
    /// A bare name or keyword key.
    Name(Value),
    /// A computed key and its span.
    Expr(Block, Span),
}

#[derive(Debug)]
pub struct ObjectItemSite {
    pub key: ObjectKeySite,
    pub value: Block,
    pub value_span: Span,
}

/// One part of a template: how it is appended to the output buffer.
#[derive(Debug)]
pub enum PartKind {
    /// A value converted to string.
    Value(Block),
    /// A nested template streamed into the same buffer.
    Nested(Box<[PartSite]>),
    /// `%{if}` (or a conditional) whose branches both build strings: only
    /// the selected branch runs.
    Cond(Box<CondSite>, Box<PartSite>, Box<PartSite>),
    /// `%{for}` whose body builds strings, appended element by element.
    For(Box<ForSite>, Box<PartSite>),
}

#[derive(Debug)]
pub struct PartSite {
    pub kind: PartKind,
    pub span: Span,
}

#[derive(Debug)]
pub struct CondSite {
    pub condition: Block,
    /// Branch blocks (empty for a streamed template conditional, whose
    /// branches are parts).
    pub true_result: Block,
    pub false_result: Block,
    pub condition_span: Span,
    pub true_span: Span,
    pub false_span: Span,
}

#[derive(Debug)]
pub struct ForSite {
    pub key_local: Option<u16>,
    pub val_local: u16,
    pub collection: Block,
    pub collection_span: Span,
    pub key: Option<(Block, Span)>,
    /// The element's value (unused for a streamed template `%{for}`).
    pub value: Block,
    pub cond: Option<(Block, Span)>,
    /// Whether the `if` clause is checked once with unknown iterators
    /// before iterating, as the reference does. `false` when that check
    /// was made at compile time and passed: the clause reads nothing but
    /// the iterators, constants and pure functions, so it cannot turn out
    /// differently when evaluated.
    pub precheck: bool,
    pub group: bool,
}

#[derive(Debug)]
pub struct SplatSite {
    pub source: Block,
    pub each: Block,
    pub local: u16,
    pub source_span: Span,
}

#[derive(Debug)]
pub struct TryArgSite {
    pub block: Block,
    pub start: Span,
    pub span: Span,
}

#[derive(Debug)]
pub struct TrySite {
    pub args: Box<[TryArgSite]>,
    pub spans: CallSpans,
    pub arity_error: Option<Box<Diagnostic>>,
    pub expand_final: bool,
}

/// The bytecode of one file: every program compiled from it (each
/// attribute of a body) shares these tables, allocated once per file.
#[derive(Default)]
pub struct Chunk {
    pub(crate) code: Box<[Instr]>,
    /// Per instruction: its index in `sites`.
    pub(crate) site_of: Box<[u32]>,
    pub(crate) sites: Box<[Site]>,
    pub(crate) consts: Box<[Value]>,
    pub(crate) paths: Box<[PathRef]>,
    /// The fast forms of the entry blocks of the programs that run in the
    /// fast lane ([`crate::fast_lane`]), one after another.
    pub(crate) fast: Box<[crate::fast_lane::FastInstr]>,
    /// The attribute names of the steps (one copy of each).
    pub(crate) names: runtime::AttrNames,
    /// Shared memo slots ([`crate::shared`]).
    pub(crate) n_shared: u32,
    /// Unique in the process (0: the empty chunk): tells the chunks whose
    /// constants a thread has copied apart ([`crate::Scratch`]).
    pub(crate) id: u64,
}

impl Chunk {
    /// The instructions of all programs of the file.
    pub fn code(&self) -> &[Instr] {
        &self.code
    }

    /// The constant pool.
    pub fn constants(&self) -> &[Value] {
        &self.consts
    }

    /// The attribute names the file's steps look up. Objects whose
    /// attribute names are these very strings (decode variables with
    /// them: `runtime::json::value_from_json_implied_with`) are read with
    /// pointer comparisons instead of string comparisons.
    pub fn attr_names(&self) -> &runtime::AttrNames {
        &self.names
    }

    pub(crate) fn site(&self, pc: usize) -> &Site {
        match self.site_of.get(pc) {
            Some(&i) => self.sites.get(i as usize).unwrap_or(&Site::None),
            None => &Site::None,
        }
    }
}

/// A compiled expression or template: an entry block in its file's
/// [`Chunk`] plus what evaluating it needs.
///
/// 40 bytes: a body of a million attributes has a million programs.
pub struct Program {
    /// What the programs of a file have in common (one allocation for all
    /// of them).
    pub(crate) file: Arc<ProgramFile>,
    pub(crate) entry: Block,
    /// Where this program's constants and paths end in the chunk (its
    /// code ends with its entry block): what it added to the chunk starts
    /// where the program compiled before it ends ([`Program::extent`]).
    pub(crate) consts_end: u32,
    pub(crate) paths_end: u32,
    // Code generation bounds these by the operand and mark ranges.
    pub(crate) n_regs: u16,
    pub(crate) n_locals: u16,
    pub(crate) n_marks: u16,
    pub(crate) n_memos: u16,
    /// Where the fast forms of the entry block start in the chunk's, when
    /// it is all simple instructions, two or more: the program runs in
    /// the fast lane ([`crate::fast_lane`]); [`NOT_FAST`] otherwise.
    pub(crate) fast_at: u32,
    /// The source range of the program's expression (the subject of an
    /// evaluation limit's error).
    pub(crate) span: Span,
}

/// [`Program::fast_at`] of a program that does not run in the fast lane.
pub const NOT_FAST: u32 = u32::MAX;

const _: () = assert!(std::mem::size_of::<Program>() == 48);

/// The parts of [`Program`] that every program of a file shares.
pub(crate) struct ProgramFile {
    /// Set when the file's compilation ends ([`crate::codegen::FileCode`]).
    pub(crate) chunk: Arc<OnceLock<Chunk>>,
    pub(crate) var_names: Arc<[Arc<str>]>,
    pub(crate) funcs: Option<Arc<dyn FunctionTable>>,
    /// File name used in `try` error texts (`input.hcl:1,2-3`).
    pub(crate) filename: Arc<str>,
    pub(crate) src_lines: Arc<SourceLines>,
}

impl ProgramFile {
    /// Whether programs compiled with these parts can share this one.
    pub(crate) fn same(
        &self,
        var_names: &Arc<[Arc<str>]>,
        funcs: &Option<Arc<dyn FunctionTable>>,
        filename: &Arc<str>,
        src_lines: &Arc<SourceLines>,
    ) -> bool {
        let same_funcs = match (&self.funcs, funcs) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        };
        same_funcs
            && Arc::ptr_eq(&self.var_names, var_names)
            && Arc::ptr_eq(&self.filename, filename)
            && Arc::ptr_eq(&self.src_lines, src_lines)
    }
}

/// The ranges of a chunk's tables one program added.
#[derive(Clone, Debug, Default)]
pub struct Extent {
    pub code: std::ops::Range<u32>,
    pub consts: std::ops::Range<u32>,
    pub paths: std::ops::Range<u32>,
}

static EMPTY_CHUNK: OnceLock<Chunk> = OnceLock::new();

/// The source, for the positions `try` prints.
#[derive(Debug, Default)]
pub struct SourceLines {
    /// Shared with whatever else keeps the source (the API's diagnostics).
    pub src: Arc<[u8]>,
    /// Where columns count grapheme clusters anew.
    pub breaks: runtime::ClusterBreaks,
    /// Made when a position is first asked for (a `try` that fails in a
    /// loop would otherwise scan the whole source each time).
    pub lines: OnceLock<runtime::LineIndex>,
}

impl SourceLines {
    /// Positions in the source, columns counted as hcl counts them.
    pub fn line_index(&self) -> &runtime::LineIndex {
        self.lines.get_or_init(|| runtime::LineIndex::with_breaks(&self.src, self.breaks.clone()))
    }
}

impl Program {
    /// The file's bytecode this program runs in.
    pub fn chunk(&self) -> &Chunk {
        // Always set once the file's compilation ended; an empty chunk
        // (every read yields `DynamicVal`) otherwise.
        self.file.chunk.get().unwrap_or_else(|| EMPTY_CHUNK.get_or_init(Chunk::default))
    }

    /// The variable names, in slot order.
    pub fn var_names(&self) -> &[Arc<str>] {
        &self.file.var_names
    }

    /// The slot of variable `name`.
    pub fn var_slot(&self, name: &str) -> Option<u32> {
        self.file.var_names.iter().position(|n| &**n == name).map(|i| i as u32)
    }

    /// The folded value when the whole program is a constant.
    pub fn as_const(&self) -> Option<&Value> {
        if self.entry.start != self.entry.end {
            return None;
        }
        match self.entry.out.kind() {
            crate::opcodes::OpndKind::Const(k) => self.chunk().consts.get(usize::from(k)),
            _ => None,
        }
    }

    /// The ranges of the chunk's code, constants and paths this program
    /// added, given the program compiled into the chunk just before it
    /// (`None`: it was the first).
    pub fn extent(&self, previous: Option<&Program>) -> Extent {
        let (code, consts, paths) = previous.map_or((0, 0, 0), |p| (p.entry.end, p.consts_end, p.paths_end));
        Extent { code: code..self.entry.end, consts: consts..self.consts_end, paths: paths..self.paths_end }
    }

    pub fn entry(&self) -> Block {
        self.entry
    }

    /// Registers an evaluation uses (locals first).
    pub fn register_count(&self) -> u32 {
        u32::from(self.n_regs)
    }
}

#[allow(dead_code)]
fn assert_send_sync() {
    fn is<T: Send + Sync>() {}
    is::<Program>();
}
