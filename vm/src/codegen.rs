//! Code generation: the lowered tree ([`crate::ir`]) → register bytecode
//! ([`crate::opcodes`]).
//!
//! Registers are allocated like a stack: locals first, then temporaries
//! above them, released when the instruction consuming them is emitted.
//! Structured instructions take each sub-block's value as soon as the
//! block has run, so sibling blocks reuse the same registers.
//!
//! Operands read constants, variables and locals in place. A variable is
//! read when its consuming instruction runs; if a later operand has code
//! of its own (which may report diagnostics), the variable is first moved
//! to a register so that "Unknown variable" keeps the reference's order.

use crate::ir::*;
use crate::opcodes::{Block, Instr, Op, Opnd, OpndKind};
use crate::program::*;
use runtime::func::{FuncId, FunctionTable};
use runtime::{AttrNames, Diagnostic, Span, Value};
use std::sync::{Arc, OnceLock};

const NO_SITE: u32 = u32::MAX;

/// Registers addressable by the `A` field.
const MAX_REGS: u32 = u16::MAX as u32;

/// Compiles the programs of one file into one shared [`Chunk`]. Dropping
/// (or [`FileCode::finish`]ing) it seals the chunk; the programs it made
/// can be evaluated from then on.
pub struct FileCode {
    b: ChunkBuilder,
    cell: Arc<OnceLock<Chunk>>,
    /// The shared part of the last program compiled, for the next one
    /// compiled with the same names, functions and source.
    last_file: Option<Arc<ProgramFile>>,
}

#[derive(Default)]
struct ChunkBuilder {
    code: Vec<Instr>,
    site_of: Vec<u32>,
    sites: Vec<Site>,
    consts: Vec<Value>,
    paths: Vec<PathRef>,
    /// String constants already in the pool (templates repeat their
    /// literal parts: `""`, `"\n"`, ...).
    strings: ahash::AHashMap<runtime::value::Str, u32>,
    /// Attribute names of the steps, each stored once per file.
    names: AttrNames,
    /// `for` conditions checked at compile time so far (see
    /// `Gen::precheck_passes`).
    prechecks: u32,
    /// Fingerprints of the subexpressions that occur more than once in
    /// the file ([`crate::shared`]), and the shared memo slots given out.
    sharing: Option<(crate::shared::Fingerprinter, ahash::AHashSet<crate::shared::Fingerprint>)>,
    shared_slots: ahash::AHashMap<crate::shared::Fingerprint, u16>,
    /// The storage of `Gen::open` and emptied block buffers, kept from one
    /// program to the next (see [`Gen::recycle`]): most expressions are
    /// a few instructions, and fresh vectors growing for each cost more
    /// than generating the code.
    open: Vec<Vec<(Instr, u32)>>,
    /// The fast forms of the programs that run in the fast lane
    /// (`Program::fast_at`).
    fast: Vec<crate::fast_lane::FastInstr>,
    spare: Vec<Vec<(Instr, u32)>>,
}

/// Budget of one compile-time check of a `for` condition.
const PRECHECK_LIMITS: crate::Limits = crate::Limits { max_steps: 10_000, max_size: 64 << 10 };
/// Compile-time checks of `for` conditions per file, at most.
const MAX_PRECHECKS_PER_FILE: u32 = 1024;

impl ChunkBuilder {
    /// Pre-decodes the entry block `entry` (the last code added) for the
    /// fast lane when all its instructions are simple: its forms' start in
    /// `fast` ([`crate::program::Program::fast_at`]), else `NOT_FAST`.
    fn decode_fast(&mut self, entry: Block) -> u32 {
        let Ok(at) = u32::try_from(self.fast.len()) else { return NOT_FAST };
        let code = self.code.get(entry.start as usize..entry.end as usize).unwrap_or(&[]);
        if crate::fast_lane::decode_block(code, &self.paths, &mut self.fast) {
            at
        } else {
            NOT_FAST
        }
    }

    /// `steps` with their attribute names replaced by the file's shared
    /// copies (see [`AttrNames`]).
    fn shared_steps(&mut self, steps: &[Step]) -> Box<[Step]> {
        steps
            .iter()
            .map(|s| match s {
                Step::Attr(name, span, hint) => Step::Attr(self.names.intern(name), *span, hint.clone()),
                other => other.clone(),
            })
            .collect()
    }
}

impl Default for FileCode {
    fn default() -> FileCode {
        FileCode::new()
    }
}

impl FileCode {
    pub fn new() -> FileCode {
        FileCode { b: ChunkBuilder::default(), cell: Arc::new(OnceLock::new()), last_file: None }
    }

    /// Declares the subexpressions of the file's expressions (all of them,
    /// counted before any is compiled): those occurring more than once
    /// are computed once per evaluation of a body ([`crate::shared`]).
    pub fn share(&mut self, occurrences: crate::shared::Occurrences) {
        let (fingerprinter, repeated) = occurrences.into_repeated();
        self.b.sharing = (!repeated.is_empty()).then_some((fingerprinter, repeated));
    }

    /// Ends what [`FileCode::share`] declared, once the expressions it
    /// counted are compiled (the fingerprinter remembers their constants
    /// by address, which the trees' drop frees).
    pub fn end_sharing(&mut self) {
        self.b.sharing = None;
    }

    /// Compiles the lowered tree `root` into this file's chunk; `span` is
    /// the source range of its expression (the subject of "Expression too
    /// complex").
    #[allow(clippy::too_many_arguments)]
    pub fn compile(
        &mut self,
        root: &Node,
        span: Span,
        n_locals: u32,
        var_names: &Arc<[Arc<str>]>,
        funcs: &Option<Arc<dyn FunctionTable>>,
        filename: &Arc<str>,
        src_lines: &Arc<SourceLines>,
    ) -> Program {
        // Constants are pooled per program, so that a program's constants
        // are all within its extent of the chunk (listings show them).
        self.b.strings.clear();
        let mut g = Gen::new(&mut self.b, funcs);
        g.next_reg = n_locals;
        g.max_reg = n_locals;
        g.too_complex = n_locals > Opnd::MAX_INDEX;
        g.begin();
        let out = g.expr(root);
        let mut entry = g.finish(out);
        let mut n_locals = n_locals;
        if g.too_complex {
            // Reported when evaluated, like any other error of the expression.
            g.recycle();
            g = Gen::new(&mut self.b, funcs);
            g.begin();
            let r = g.alloc();
            g.fail(r, too_complex_diag(span));
            entry = g.finish(Opnd::temp(r));
            n_locals = 0;
        }
        let (max_reg, max_mark, n_memos) = (g.max_reg, g.max_mark, g.n_memos);
        g.recycle();
        // The shared parts are borrowed, and counted only for a new
        // `ProgramFile`: the function table is shared by every thread, and
        // counting it for each program made the threads contend for its
        // count.
        let file = match &self.last_file {
            Some(f) if f.same(var_names, funcs, filename, src_lines) => f.clone(),
            _ => {
                let f = Arc::new(ProgramFile {
                    chunk: self.cell.clone(),
                    var_names: var_names.clone(),
                    funcs: funcs.clone(),
                    filename: filename.clone(),
                    src_lines: src_lines.clone(),
                });
                self.last_file = Some(f.clone());
                f
            }
        };
        // The entry block is the program's last code (`Program::extent`).
        debug_assert_eq!(entry.end, self.b.code.len() as u32);
        // Registers, locals, marks and memos are bounded by their operand
        // ranges (`alloc`, `alloc_mark`, the memo count): these fit.
        Program {
            file,
            entry,
            consts_end: self.b.consts.len() as u32,
            paths_end: self.b.paths.len() as u32,
            n_regs: u16_of(max_reg),
            n_locals: u16_of(n_locals),
            n_marks: u16_of(max_mark),
            n_memos: u16_of(n_memos),
            fast_at: self.b.decode_fast(entry),
            span,
        }
    }

    /// Seals the chunk (also done on drop).
    pub fn finish(self) {}
}

impl Drop for FileCode {
    fn drop(&mut self) {
        let b = std::mem::take(&mut self.b);
        let _ = self.cell.set(Chunk {
            fast: b.fast.into(),
            code: b.code.into(),
            site_of: b.site_of.into(),
            sites: b.sites.into(),
            consts: b.consts.into(),
            paths: b.paths.into(),
            names: b.names,
            n_shared: b.shared_slots.len() as u32,
            id: {
                static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
                NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            },
        });
    }
}

/// The value of `n` when evaluating it (without variables or functions)
/// reports nothing: what constant folding replaces `n` by. `Err`: `n`
/// itself, not folded.
pub fn fold(n: Node) -> Result<Value, Node> {
    if let Node::Tuple(items) = &n {
        if items.iter().all(|i| matches!(i, Node::Const(_))) {
            return if fits_budget(items.len()) { Ok(constant_tuple(n)) } else { Err(n) };
        }
    }
    if let Some(folded) = fold_constructor(&n) {
        return folded.ok_or(n);
    }
    let empty: Arc<[Arc<str>]> = Arc::from(Vec::new());
    let mut file = FileCode::new();
    let prog = file.compile(&n, Span::default(), 0, &empty, &None, &Arc::from(""), &Arc::new(SourceLines::default()));
    drop(file);
    let mut scratch = crate::Scratch::new();
    let v = crate::evaluate(&prog, &crate::Vars::default(), &mut scratch);
    if scratch.diags().is_empty() {
        Ok(v)
    } else {
        Err(n)
    }
}

/// Whether a collection of `elements` fits the default size budget, as
/// the interpreter would charge building it: a tuple of constants is
/// folded only then.
pub fn fits_budget(elements: usize) -> bool {
    runtime::func::SizeBudget::new(crate::Limits::DEFAULT.max_size).charge_elements(elements as u64)
}

/// The tuple of a tuple node's constants, taken out of the node: the
/// nodes are freed before the tuple's type is built (a literal list of
/// two million numbers held 64 MB of nodes beside its value).
fn constant_tuple(n: Node) -> Value {
    let Node::Tuple(items) = n else { return Value::empty_tuple() };
    let mut values = Vec::with_capacity(items.len());
    values.extend(items.into_vec().into_iter().filter_map(|i| match i {
        Node::Const(v) => Some(v),
        _ => None,
    }));
    crate::ops::make_tuple(values)
}

/// [`fold`] of an object of constants (most of what a file folds besides
/// literal lists: maps, tags) built as the interpreter builds it, with the
/// same `ops` and size budget, without compiling and running a program
/// for it; `None` for any other node. (Tuples of constants: see
/// [`constant_tuple`].)
fn fold_constructor(n: &Node) -> Option<Option<Value>> {
    let konst = |n: &Node| match n {
        Node::Const(v) => Some(v.clone()),
        _ => None,
    };
    match n {
        Node::Object(items) => {
            if !items
                .iter()
                .all(|i| matches!(i.value, Node::Const(_)) && matches!(i.key, ObjectKey::Name(_) | ObjectKey::Expr(Node::Const(_), _)))
            {
                return None;
            }
            if !fits_budget(items.len()) {
                return Some(None);
            }
            let mut object = crate::ops::ObjectBuilder::with_capacity(items.len());
            for item in items.iter() {
                let key = match &item.key {
                    ObjectKey::Name(key) | ObjectKey::Expr(Node::Const(key), _) => key,
                    ObjectKey::Expr(..) => return None,
                };
                if object.push(key, false, konst(&item.value)?).is_some() {
                    // A diagnostic: not folded.
                    return Some(None);
                }
            }
            Some(Some(share_folded_type(object.finish())))
        }
        _ => None,
    }
}

/// The object of `len` items of string keys and constant values, built as
/// [`fold`] builds one (a later item of a key replaces an earlier one).
/// An object of the names of a recently folded one takes its type without
/// building one, key strings and all: a literal list of records is many
/// objects of one type.
pub fn constant_object<'k>(items: impl Iterator<Item = (&'k str, Value)>, len: usize) -> Value {
    let mut pairs: Vec<(&str, Value)> = Vec::with_capacity(len);
    pairs.extend(items);
    // (ASCII names are their own NFC form, which the builder would make.)
    if pairs.len() <= LARGEST_SHARED_TYPE && pairs.iter().all(|(name, _)| name.is_ascii()) {
        runtime::types::sort_dedup_last_wins(&mut pairs);
        let kept = FOLDED_TYPES.with_borrow(|(_, kept)| {
            let same_names =
                |t: &&Arc<runtime::ObjectType>| t.len() == pairs.len() && t.names().iter().zip(&pairs).all(|(n, (name, _))| **n == **name);
            kept.iter().flatten().find(same_names).cloned()
        });
        if let Some(shape) = kept {
            // Of the shape's type when the values' types are its types.
            if let Ok(v) = Value::object_like(&shape, pairs.iter().map(|(_, v)| v.clone()).collect()) {
                return share_folded_type(v);
            }
        }
    }
    let mut object = crate::ops::ObjectBuilder::with_capacity(pairs.len());
    for (key, value) in pairs {
        // (A string key reports nothing.)
        let _ = object.push(&Value::string(key), false, value);
    }
    share_folded_type(object.finish())
}

/// The most attributes of a folded object type that [`share_folded_type`]
/// keeps: small ones are the ones many objects share.
const LARGEST_SHARED_TYPE: usize = 32;

thread_local! {
    /// Recently folded small object types (see [`share_folded_type`]),
    /// and where the next one goes.
    static FOLDED_TYPES: std::cell::RefCell<(usize, [Option<Arc<runtime::ObjectType>>; 4])> =
        const { std::cell::RefCell::new((0, [None, None, None, None])) };
}

/// A folded object whose type equals a recently folded object's, given
/// that type: a literal list of 100,000 objects of one shape held as many
/// equal types, names and all, where one will do (25 MB of its 85). A few
/// types are kept, for lists of objects with objects in them; small ones
/// only, which are the ones many objects share.
fn share_folded_type(v: Value) -> Value {
    let Value::Object(o) = &v else { return v };
    let ty = o.object_type();
    let kept_equal = FOLDED_TYPES.with_borrow_mut(|(next, kept)| {
        if let Some(t) = kept.iter().flatten().find(|t| Arc::ptr_eq(t, ty) || ***t == **ty) {
            return Some(t.clone());
        }
        if ty.len() <= LARGEST_SHARED_TYPE {
            kept[*next] = Some(ty.clone());
            *next = (*next + 1) % kept.len();
        }
        None
    });
    match kept_equal {
        Some(t) => v.with_equal_object_type(&t),
        None => v,
    }
}

/// Lets go of the types [`share_folded_type`] kept: the end of a file's
/// folding, so that a thread does not hold them after its compilation.
pub fn forget_folded_types() {
    FOLDED_TYPES.with_borrow_mut(|(next, kept)| {
        *next = 0;
        kept.iter_mut().for_each(|t| *t = None);
    });
}

fn too_complex_diag(span: Span) -> Diagnostic {
    Diagnostic::error(
        "Expression too complex",
        "The expression needs more registers or constants than one hclvm program can address; split it into smaller expressions.",
        Some(span),
    )
}

/// Code generation state for one program; the tables it appends to are
/// the file's.
struct Gen<'b> {
    b: &'b mut ChunkBuilder,
    /// Blocks under construction, innermost last.
    open: Vec<Vec<(Instr, u32)>>,
    next_reg: u32,
    max_reg: u32,
    next_mark: u32,
    max_mark: u32,
    funcs: &'b Option<Arc<dyn FunctionTable>>,
    too_complex: bool,
    /// How many loop bodies (`for`, splat) enclose the code being compiled.
    loop_depth: u32,
    n_memos: u32,
}

/// Nodes that compile to an operand without any code.
fn is_direct(n: &Node) -> bool {
    match n {
        Node::Const(_) | Node::Global(..) | Node::Local(_) => true,
        Node::Traverse(src, _) => matches!(**src, Node::Global(..) | Node::Local(_)),
        _ => false,
    }
}

/// Whether `n` reads nothing but the locals in `bound`, constants and
/// functions `pure` accepts, without loops; compile-time errors, host
/// variables and `try`/`can` count as other reads.
fn reads_only(n: &Node, bound: &[u32], pure: &dyn Fn(FuncId) -> bool) -> bool {
    match n {
        Node::Const(_) => true,
        Node::Local(i) => bound.contains(i),
        Node::Global(..) | Node::Fail(_) | Node::UnknownVariable(..) | Node::FailByContext(_) | Node::Try(_) | Node::Can(_) => false,
        // Literal steps are constants.
        Node::Traverse(src, _) => reads_only(src, bound, pure),
        Node::Index(ix) => reads_only(&ix.collection, bound, pure) && reads_only(&ix.key, bound, pure),
        Node::Tuple(items) => all_read_only(items.iter(), bound, pure),
        Node::Object(items) => items.iter().all(|it| {
            let key_ok = match &it.key {
                ObjectKey::Name(_) => true,
                ObjectKey::Expr(k, _) => reads_only(k, bound, pure),
            };
            key_ok && reads_only(&it.value, bound, pure)
        }),
        Node::Template(parts, _) => all_read_only(parts.iter().map(|p| &p.node), bound, pure),
        Node::TemplateJoin(t, _) => reads_only(t, bound, pure),
        Node::Cond(c) => all_read_only([&c.condition, &c.true_result, &c.false_result], bound, pure),
        Node::Binary(b) => reads_only(&b.lhs, bound, pure) && reads_only(&b.rhs, bound, pure),
        Node::Unary(u) => reads_only(&u.operand, bound, pure),
        // A loop in the condition is not checked at compile time: compiling
        // the check compiles the loop, whose own condition would be
        // checked the same way, and so on (twice per level of nesting).
        Node::For(_) | Node::Splat(_) => false,
        Node::Call(c) => pure(c.func) && all_read_only(c.args.iter().map(|a| &a.node), bound, pure),
    }
}

fn all_read_only<'n>(ns: impl IntoIterator<Item = &'n Node>, bound: &[u32], pure: &dyn Fn(FuncId) -> bool) -> bool {
    ns.into_iter().all(|c| reads_only(c, bound, pure))
}

/// Whether `n`'s value converts to bool in every evaluation, errors
/// included: it is a bool, an unknown, or a null of a type that converts
/// (operators that give bools, `can`, constants that convert, a name that
/// did not resolve (`DynamicVal`), and conditionals and `try`s of these).
/// A short-circuit `&&` or `||` skips such a right operand when the left
/// one decides: hcl evaluates it, but nothing of it can show.
fn always_converts_to_bool(n: &Node) -> bool {
    match n {
        Node::Const(v) => runtime::convert(v, &runtime::Type::Bool).is_ok(),
        Node::Fail(_) | Node::UnknownVariable(..) | Node::FailByContext(_) | Node::Can(_) => true,
        Node::Binary(b) => {
            matches!(b.op, BinOp::Eq | BinOp::NotEq | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::And | BinOp::Or)
        }
        Node::Unary(u) => u.op == UnOp::Not,
        // The selected result converted to the results' unified type, an
        // unknown of it, or `DynamicVal`: values of these kinds still.
        Node::Cond(c) => always_converts_to_bool(&c.true_result) && always_converts_to_bool(&c.false_result),
        // The first argument that succeeds, or `DynamicVal`.
        Node::Try(t) => !t.expand_final && t.args.iter().all(|a| always_converts_to_bool(&a.node)),
        _ => false,
    }
}

/// Nodes whose value is always a string or an unknown string.
fn is_string_node(n: &Node) -> bool {
    match n {
        Node::Template(..) | Node::TemplateJoin(..) => true,
        Node::Const(v) => matches!(v, Value::String(_)),
        _ => false,
    }
}

fn u16_of(n: u32) -> u16 {
    u16::try_from(n).unwrap_or(u16::MAX)
}

impl<'b> Gen<'b> {
    fn new(b: &'b mut ChunkBuilder, funcs: &'b Option<Arc<dyn FunctionTable>>) -> Gen<'b> {
        let open = std::mem::take(&mut b.open);
        Gen { b, open, next_reg: 0, max_reg: 0, next_mark: 0, max_mark: 0, funcs, too_complex: false, loop_depth: 0, n_memos: 0 }
    }

    // ---- blocks, registers, pools -------------------------------------

    fn begin(&mut self) {
        let body = self.b.spare.pop().unwrap_or_default();
        self.open.push(body);
    }

    fn finish(&mut self, out: Opnd) -> Block {
        let mut body = self.open.pop().unwrap_or_default();
        let start = self.b.code.len() as u32;
        self.b.code.extend(body.iter().map(|&(instr, _)| instr));
        self.b.site_of.extend(body.iter().map(|&(_, site)| site));
        body.clear();
        self.b.spare.push(body);
        Block { start, end: self.b.code.len() as u32, out }
    }

    /// Gives the block stack's storage back to the builder for the next
    /// program (every block is finished by now; any left over is emptied
    /// into the spares).
    fn recycle(&mut self) {
        for mut body in self.open.drain(..) {
            body.clear();
            self.b.spare.push(body);
        }
        self.b.open = std::mem::take(&mut self.open);
    }

    /// Compiles `n` as a block of its own; its registers are free again
    /// afterwards (the consumer takes the value as soon as the block ran).
    fn block(&mut self, n: &Node) -> Block {
        let saved = self.next_reg;
        self.begin();
        let out = self.expr(n);
        let b = self.finish(out);
        self.next_reg = saved;
        b
    }

    fn add_site(&mut self, site: Site) -> u32 {
        if matches!(site, Site::None) {
            return NO_SITE;
        }
        self.b.sites.push(site);
        (self.b.sites.len() - 1) as u32
    }

    fn emit_at(&mut self, instr: Instr, site: u32) {
        if let Some(b) = self.open.last_mut() {
            b.push((instr, site));
        }
    }

    fn emit(&mut self, op: Op, a: u16, b: u16, c: u16, site: Site) {
        let s = self.add_site(site);
        self.emit_at(Instr::new(op, a, b, c), s);
    }

    fn alloc(&mut self) -> u16 {
        let r = self.next_reg;
        if r >= MAX_REGS || r > Opnd::MAX_INDEX {
            self.too_complex = true;
            return 0;
        }
        self.next_reg += 1;
        self.max_reg = self.max_reg.max(self.next_reg);
        r as u16
    }

    fn alloc_mark(&mut self) -> u16 {
        let m = self.next_mark;
        if m >= u32::from(NO_MARK) {
            self.too_complex = true;
            return 0;
        }
        self.next_mark += 1;
        self.max_mark = self.max_mark.max(self.next_mark);
        m as u16
    }

    fn konst(&mut self, v: &Value) -> Opnd {
        if let Value::String(text) = v {
            if let Some(&k) = self.b.strings.get(&**text) {
                return self.pool_operand(k, Opnd::constant, Op::LoadK);
            }
            let k = self.b.consts.len() as u32;
            self.b.strings.insert(text.clone(), k);
        }
        let k = self.b.consts.len() as u32;
        self.b.consts.push(v.clone());
        self.pool_operand(k, Opnd::constant, Op::LoadK)
    }

    fn var(&mut self, slot: u32, span: Span, hint: &Option<Arc<str>>) -> Opnd {
        self.path(PathRoot::Var(slot), span, Box::new([]), hint.clone())
    }

    fn path(&mut self, root: PathRoot, span: Span, steps: Box<[Step]>, hint: Option<Arc<str>>) -> Opnd {
        let i = self.b.paths.len() as u32;
        let steps = self.b.shared_steps(&steps);
        self.b.paths.push(PathRef { root, span, steps, hint });
        self.pool_operand(i, Opnd::var, Op::LoadV)
    }

    /// The operand for pool entry `i`; entries beyond operand range are
    /// loaded into a register by `wide` (`LoadK`/`LoadV`).
    fn pool_operand(&mut self, i: u32, operand: fn(u16) -> Opnd, wide: Op) -> Opnd {
        if i <= Opnd::MAX_INDEX {
            return operand(i as u16);
        }
        let r = self.alloc();
        self.emit(wide, r, i as u16, (i >> 16) as u16, Site::None);
        Opnd::temp(r)
    }

    /// The path operand for literal steps from a variable or local.
    fn traversal_path(&mut self, src: &Node, steps: &[Step]) -> Option<Opnd> {
        let (root, span, hint) = match src {
            Node::Global(slot, span, hint) => (PathRoot::Var(*slot), *span, hint.clone()),
            Node::Local(i) => {
                let l = self.local(*i);
                (PathRoot::Local(l.0 & 0x3FFF), Span::default(), None)
            }
            _ => return None,
        };
        Some(self.path(root, span, steps.into(), hint))
    }

    fn local(&mut self, i: u32) -> Opnd {
        if i > Opnd::MAX_INDEX {
            self.too_complex = true;
            return Opnd::local(0);
        }
        Opnd::local(i as u16)
    }

    fn fail(&mut self, a: u16, d: Diagnostic) {
        self.emit(Op::Fail, a, 0, 0, Site::Fail(Box::new(d)));
    }

    // ---- expressions ---------------------------------------------------

    /// Compiles `n` and returns where its value is.
    fn expr(&mut self, n: &Node) -> Opnd {
        match n {
            Node::Const(v) => self.konst(v),
            Node::Global(slot, span, hint) => self.var(*slot, *span, hint),
            Node::Local(i) => self.local(*i),
            Node::Traverse(src, steps) if is_direct(n) => match self.traversal_path(src, steps) {
                Some(o) => o,
                None => self.konst(&Value::dynamic_unknown()),
            },
            _ => {
                let r = self.alloc();
                self.expr_to(n, r);
                Opnd::temp(r)
            }
        }
    }

    /// Compiles two operands evaluated in order; a path in the first is
    /// moved to a register when the second has code of its own (reading a
    /// path may report diagnostics, which must come first).
    fn operands2(&mut self, l: &Node, r: &Node) -> (Opnd, Opnd) {
        let mut lo = self.expr(l);
        if matches!(lo.kind(), OpndKind::Var(_)) && !is_direct(r) {
            let t = self.alloc();
            self.emit(Op::Move, t, lo.0, 0, Site::None);
            lo = Opnd::temp(t);
        }
        let ro = self.expr(r);
        (lo, ro)
    }

    /// Compiles `n` so that its value ends up in register `a`.
    fn expr_to(&mut self, n: &Node, a: u16) {
        if let Some(slot) = self.shared_slot(n) {
            // The subexpression's code, skipped once another occurrence
            // has computed it in this evaluation of the body.
            let saved = self.next_reg;
            self.begin();
            let r = self.alloc();
            self.expr_to_here(n, r);
            let code = self.finish(Opnd::temp(r));
            self.next_reg = saved;
            self.emit(Op::Memo, a, slot, 1, Site::Block(code));
            return;
        }
        self.expr_to_here(n, a);
    }

    /// The shared memo slot of `n`, when it occurs more than once in the
    /// file.
    fn shared_slot(&mut self, n: &Node) -> Option<u16> {
        if !matches!(n, Node::For(_) | Node::Call(_)) {
            return None;
        }
        let (fingerprinter, repeated) = self.b.sharing.as_mut()?;
        let funcs = self.funcs;
        let pure = |id: FuncId| funcs.as_deref().is_some_and(|t| t.signature(id).pure);
        let key = fingerprinter.fingerprint(n, &pure)?;
        if !repeated.contains(&key) {
            return None;
        }
        if let Some(&slot) = self.b.shared_slots.get(&key) {
            return Some(slot);
        }
        let slot = u16::try_from(self.b.shared_slots.len()).ok().filter(|s| *s < NO_MARK)?;
        self.b.shared_slots.insert(key, slot);
        Some(slot)
    }

    /// [`Gen::expr_to`] without the shared memo.
    fn expr_to_here(&mut self, n: &Node, a: u16) {
        let saved = self.next_reg;
        let saved_mark = self.next_mark;
        match n {
            Node::Const(_) | Node::Global(..) | Node::Local(_) => {
                let o = self.expr(n);
                self.emit(Op::Move, a, o.0, 0, Site::None);
            }
            Node::Fail(d) => self.fail(a, (**d).clone()),
            Node::UnknownVariable(name, span) => {
                self.emit(Op::Fail, a, 0, 0, Site::UnknownVariable(name.clone(), *span));
            }
            Node::FailByContext(ds) => {
                self.emit(Op::Fail, a, 0, 0, Site::FailByContext(ds.clone()));
            }
            Node::Traverse(..) if is_direct(n) => {
                let o = self.expr(n);
                self.emit(Op::Move, a, o.0, 0, Site::None);
            }
            Node::Traverse(src, steps) => {
                let o = self.expr(src);
                let steps = self.b.shared_steps(steps);
                self.emit(Op::Get, a, o.0, 0, Site::Steps(steps));
            }
            Node::Index(ix) => {
                let (l, k) = self.operands2(&ix.collection, &ix.key);
                self.emit(Op::Index, a, l.0, k.0, Site::Span(ix.bracket));
            }
            Node::Binary(b) if b.short_circuit && matches!(b.op, BinOp::And | BinOp::Or) => {
                // The left operand as usual (read when the instruction
                // runs, its diagnostics since the mark), the right one a
                // block the instruction may skip.
                let mark = self.mark_unless(is_direct(&b.lhs));
                let l = self.expr(&b.lhs);
                let rhs = self.block(&b.rhs);
                let op = if b.op == BinOp::And { Op::AndThen } else { Op::OrElse };
                let site = LogicSite {
                    mark,
                    rhs,
                    rhs_converts: always_converts_to_bool(&b.rhs),
                    lhs: b.lhs_span,
                    rhs_span: b.rhs_span,
                    span: b.span,
                };
                self.emit(op, a, l.0, 0, Site::Logic(Box::new(site)));
            }
            Node::Binary(b) => {
                let mark = self.mark_unless(is_direct(&b.lhs) && is_direct(&b.rhs));
                let (l, r) = self.operands2(&b.lhs, &b.rhs);
                let op = match b.op {
                    BinOp::Or => Op::Or,
                    BinOp::And => Op::And,
                    BinOp::Eq => Op::Eq,
                    BinOp::NotEq => Op::Ne,
                    BinOp::Gt => Op::Gt,
                    BinOp::Ge => Op::Ge,
                    BinOp::Lt => Op::Lt,
                    BinOp::Le => Op::Le,
                    BinOp::Add => Op::Add,
                    BinOp::Sub => Op::Sub,
                    BinOp::Mul => Op::Mul,
                    BinOp::Div => Op::Div,
                    BinOp::Mod => Op::Mod,
                };
                let site = OperatorSite { mark, lhs: b.lhs_span, rhs: b.rhs_span, span: b.span, conversion_errors_first: b.short_circuit };
                self.emit(op, a, l.0, r.0, Site::Operator(site));
            }
            Node::Unary(u) => {
                let mark = self.mark_unless(is_direct(&u.operand));
                let o = self.expr(&u.operand);
                let op = match u.op {
                    UnOp::Neg => Op::Neg,
                    UnOp::Not => Op::Not,
                };
                let site = OperatorSite { mark, lhs: u.operand_span, rhs: Span::default(), span: u.span, conversion_errors_first: false };
                self.emit(op, a, o.0, 0, Site::Operator(site));
            }
            // No program can address this many elements: no code for them.
            Node::Tuple(items) if items.len() > usize::from(u16::MAX) => self.too_complex = true,
            Node::Tuple(items) => {
                let base = self.next_reg;
                for item in items.iter() {
                    let r = self.alloc();
                    self.expr_to(item, r);
                    self.next_reg = u32::from(r) + 1;
                }
                self.emit(Op::Tuple, a, u16_of(base), u16_of(items.len() as u32), Site::None);
            }
            Node::Object(items) => {
                let sites = items
                    .iter()
                    .map(|item| {
                        let key = match &item.key {
                            ObjectKey::Name(v) => ObjectKeySite::Name(v.clone()),
                            ObjectKey::Expr(k, span) => ObjectKeySite::Expr(self.block(k), *span),
                        };
                        ObjectItemSite { key, value: self.block(&item.value), value_span: item.value_span }
                    })
                    .collect();
                self.emit(Op::Object, a, 0, 0, Site::Object(sites));
            }
            Node::Template(parts, _) => {
                let parts = self.parts(parts);
                self.emit(Op::Template, a, 0, 0, Site::Template(parts));
            }
            Node::TemplateJoin(tuple, span) => {
                let o = self.expr(tuple);
                self.emit(Op::Join, a, o.0, 0, Site::Span(*span));
            }
            Node::Cond(c) => {
                let site = self.cond_site(c, true);
                self.emit(Op::Cond, a, 0, 0, Site::Cond(Box::new(site)));
            }
            Node::For(f) => {
                let site = self.for_site(f, true);
                self.emit(Op::For, a, 0, 0, Site::For(Box::new(site)));
            }
            Node::Splat(s) => {
                let local = self.local(s.slot);
                let source = self.block(&s.source);
                self.loop_depth += 1;
                let each = self.block(&s.each);
                self.loop_depth -= 1;
                let site = SplatSite { source, each, local: local.0 & 0x3FFF, source_span: s.source_span };
                self.emit(Op::Splat, a, 0, 0, Site::Splat(Box::new(site)));
            }
            Node::Call(c) => self.call(c, a),
            Node::Try(t) => {
                let site = self.try_site(t);
                self.emit(Op::Try, a, 0, 0, Site::Try(Box::new(site)));
            }
            Node::Can(t) => {
                let site = self.try_site(t);
                self.emit(Op::Can, a, 0, 0, Site::Try(Box::new(site)));
            }
        }
        self.next_reg = saved;
        self.next_mark = saved_mark;
    }

    /// A diagnostics mark for an operator whose operands have code, so it
    /// can tell whether they failed.
    fn mark_unless(&mut self, direct: bool) -> u16 {
        if direct {
            return NO_MARK;
        }
        self.mark()
    }

    /// A diagnostics mark set here: the one just set when the block's last
    /// instruction is a `MARK` (both would record the same count, and
    /// marks are allocated like a stack, so the code between here and the
    /// reader never sets that one again), else a new one.
    fn mark(&mut self) -> u16 {
        if let Some(&(last, _)) = self.open.last().and_then(|b| b.last()) {
            if last.op == Op::Mark {
                return last.a;
            }
        }
        let m = self.alloc_mark();
        self.emit(Op::Mark, m, 0, 0, Site::None);
        m
    }

    /// A template's parts; empty literal parts append nothing and are left
    /// out.
    fn parts(&mut self, parts: &[TemplatePart]) -> Box<[PartSite]> {
        parts
            .iter()
            .filter(|p| !matches!(&p.node, Node::Const(Value::String(s)) if s.is_empty()))
            .map(|p| self.part(&p.node, p.span))
            .collect()
    }

    fn part(&mut self, n: &Node, span: Span) -> PartSite {
        let kind = match n {
            Node::Template(inner, _) => PartKind::Nested(self.parts(inner)),
            Node::Cond(c) if is_string_node(&c.true_result) && is_string_node(&c.false_result) => {
                let site = self.cond_site(c, false);
                let t = self.part(&c.true_result, c.true_span);
                let f = self.part(&c.false_result, c.false_span);
                PartKind::Cond(Box::new(site), Box::new(t), Box::new(f))
            }
            Node::TemplateJoin(t, _) if matches!(&**t, Node::For(f) if f.key.is_none() && is_string_node(&f.value)) => {
                let Node::For(f) = &**t else { unreachable!("matched above") };
                let site = self.for_site(f, false);
                self.loop_depth += 1;
                let body = self.part(&f.value, Span::default());
                self.loop_depth -= 1;
                PartKind::For(Box::new(site), Box::new(body))
            }
            _ => PartKind::Value(self.block(n)),
        };
        PartSite { kind, span }
    }

    /// Whether the reference's check of `for` clause `cond` with unknown
    /// iterators can be made now, and passes: `cond` reads only the
    /// iterators, constants and pure functions, so the check gives the
    /// same outcome in every evaluation; it passes when it reports nothing
    /// and yields a value usable as a condition.
    fn precheck_passes(&mut self, f: &ForNode, cond: &Node) -> bool {
        let bound: Vec<u32> = f.key_slot.into_iter().chain([f.val_slot]).collect();
        let pure = |id: FuncId| self.funcs.as_deref().is_some_and(|t| t.signature(id).pure);
        if !reads_only(cond, &bound, &pure) {
            return false;
        }
        let n_locals = bound.iter().max().map_or(0, |m| m + 1);
        if n_locals > Opnd::MAX_INDEX {
            return false;
        }
        let empty: Arc<[Arc<str>]> = Arc::from(Vec::new());
        let mut file = FileCode::new();
        let prog = file.compile(cond, Span::default(), n_locals, &empty, self.funcs, &Arc::from(""), &Arc::new(SourceLines::default()));
        drop(file);
        // A fresh scratch's registers hold `DynamicVal`: the iterators'
        // values in the reference's check. Compiling must stay cheap
        // whatever the source: the check gets a small budget, and a file a
        // bounded number of checks; a check that runs out falls back to the
        // one at evaluation time.
        if self.b.prechecks >= MAX_PRECHECKS_PER_FILE {
            return false;
        }
        self.b.prechecks += 1;
        let mut scratch = crate::Scratch::with_limits(PRECHECK_LIMITS);
        let v = crate::evaluate(&prog, &crate::Vars::default(), &mut scratch);
        scratch.diags().is_empty() && crate::ops::ForCollector::precheck_condition(&v).is_none()
    }

    /// A block that is never run (the branches of a streamed template
    /// conditional, the body of a streamed `%{for}`, which are parts).
    fn empty_block(&mut self) -> Block {
        let start = self.b.code.len() as u32;
        Block { start, end: start, out: Opnd::temp(0) }
    }

    fn cond_site(&mut self, c: &CondNode, with_branches: bool) -> CondSite {
        let (true_result, false_result) = if with_branches {
            (self.block(&c.true_result), self.block(&c.false_result))
        } else {
            (self.empty_block(), self.empty_block())
        };
        CondSite {
            condition: self.block(&c.condition),
            true_result,
            false_result,
            condition_span: c.condition_span,
            true_span: c.true_span,
            false_span: c.false_span,
        }
    }

    fn for_site(&mut self, f: &ForNode, with_value: bool) -> ForSite {
        let key_local = f.key_slot.map(|k| self.local(k).0 & 0x3FFF);
        let val_local = self.local(f.val_slot).0 & 0x3FFF;
        let collection = self.block(&f.collection);
        self.loop_depth += 1;
        let key = f.key.as_ref().map(|(k, s)| (self.block(k), *s));
        let value = if with_value { self.block(&f.value) } else { self.empty_block() };
        let cond = f.cond.as_ref().map(|(c, s)| (self.block(c), *s));
        self.loop_depth -= 1;
        let precheck = match &f.cond {
            Some((c, _)) => !self.precheck_passes(f, c),
            None => false,
        };
        ForSite { key_local, val_local, collection, collection_span: f.collection_span, key, value, cond, precheck, group: f.group }
    }

    fn try_site(&mut self, t: &TryNode) -> TrySite {
        let args = t.args.iter().map(|arg| TryArgSite { block: self.block(&arg.node), start: arg.start, span: arg.span }).collect();
        TrySite { args, spans: t.spans.clone(), arity_error: t.arity_error.clone(), expand_final: t.expand_final }
    }

    fn call(&mut self, c: &CallNode, a: u16) {
        let table = self.funcs;
        let Some(funcs) = table.as_deref() else {
            // Without a function table a call is `DynamicVal` (the host
            // chose to allow no calls; lowering reports them).
            let d = self.konst(&Value::dynamic_unknown());
            self.emit(Op::Move, a, d.0, 0, Site::None);
            return;
        };
        // `length(regexall(p, s))`: one call of the composition, made as
        // the inner call is (its arguments, ranges and diagnostics), see
        // `runtime::func::compose`.
        if let [CallArg { node: Node::Call(inner), .. }] = &c.args[..] {
            if !c.expand_final && !inner.expand_final {
                if let Some(id) = funcs.composed(c.func, inner.func) {
                    return self.call_as(funcs, id, inner, a);
                }
            }
        }
        self.call_as(funcs, c.func, c, a);
    }

    /// Call `c` of function `func` of `funcs` (its own function, or a
    /// composition with it as the inner call) into `a`.
    fn call_as(&mut self, funcs: &dyn FunctionTable, func: FuncId, c: &CallNode, a: u16) {
        if c.expand_final {
            let args = c
                .args
                .iter()
                .map(|arg| CallArgSite { block: self.block(&arg.node), start: arg.start, span: arg.span, preconverted: arg.preconverted })
                .collect();
            let site = self.call_site(func, c, args, NO_MARK);
            self.emit(Op::CallExpand, a, 0, 0, Site::Call(Box::new(site)));
            return;
        }
        let sig = funcs.signature(func);
        if let Err(e) = sig.check_arity(&c.spans.name, c.args.len()) {
            let subject = c.spans.subject(e.site, |i| c.args.get(i).map(|a| a.start).unwrap_or_default());
            self.fail(a, Diagnostic::error(e.summary, e.detail, Some(subject)));
            return;
        }
        let params: Vec<bool> = (0..c.args.len()).map(|i| sig.param_for(i).is_some_and(|p| !p.ty.is_dynamic())).collect();
        let invariant = |n: &Node| match n {
            Node::Const(_) | Node::Global(..) => true,
            Node::Traverse(src, _) => matches!(**src, Node::Global(..)),
            _ => false,
        };
        let memo = if self.loop_depth > 0 && sig.pure && c.args.iter().all(|a| invariant(&a.node)) && self.n_memos < u32::from(NO_MARK) {
            self.n_memos += 1;
            (self.n_memos - 1) as u16
        } else {
            NO_MARK
        };
        if memo == NO_MARK {
            self.call_code(func, c, a, &params, NO_MARK);
            return;
        }
        // Once the memo is set, its call and the code of its arguments
        // are skipped: they read only constants and host variables, and
        // the memo is set only by a call whose arguments reported nothing.
        let saved = self.next_reg;
        self.begin();
        let r = self.alloc();
        self.call_code(func, c, r, &params, memo);
        let code = self.finish(Opnd::temp(r));
        self.next_reg = saved;
        self.emit(Op::Memo, a, memo, 0, Site::Block(code));
    }

    /// A call's marks, argument code and `CALL` (into `a`), its result
    /// kept in memo `memo` (or [`NO_MARK`]).
    fn call_code(&mut self, func: FuncId, c: &CallNode, a: u16, params: &[bool], memo: u16) {
        let mark = self.mark();
        let args = c
            .args
            .iter()
            .map(|arg| CallArgSite {
                block: Block { start: 0, end: 0, out: Opnd::temp(0) },
                start: arg.start,
                span: arg.span,
                preconverted: arg.preconverted,
            })
            .collect();
        let mut site = self.call_site(func, c, args, mark);
        site.memo = memo;
        let site = self.add_site(Site::Call(Box::new(site)));
        let base = self.next_reg;
        for (i, arg) in c.args.iter().enumerate() {
            let r = self.alloc();
            self.expr_to(&arg.node, r);
            let preconverted = arg.preconverted && matches!(arg.node, Node::Const(_));
            if params[i] && !preconverted {
                self.emit_at(Instr::new(Op::ArgConv, 0, r, u16_of(i as u32)), site);
            }
            self.next_reg = u32::from(r) + 1;
        }
        if c.args.len() > usize::from(u16::MAX) {
            self.too_complex = true;
        }
        self.emit_at(Instr::new(Op::Call, a, u16_of(base), u16_of(c.args.len() as u32)), site);
    }

    fn call_site(&self, func: FuncId, c: &CallNode, args: Box<[CallArgSite]>, mark: u16) -> CallSite {
        CallSite { func, spans: c.spans.clone(), args, mark, memo: NO_MARK }
    }
}
