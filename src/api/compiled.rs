//! Compiling a source once and evaluating it many times.

use super::error::{Diagnostics, Error, SourceInfo};
use super::outcome::{AttrInfo, BlockInfo, Evaluated, Evaluation, Outcome, OutcomeDiagnostics};
use super::result_format::{self, write_lent, write_value_result, ResultWriter};
use super::variables::Variables;
use super::{CancelToken, Options};
use crate::diagnostic_text::block_headers;
use compiler::analysis::{for_each_variable, render_traversal_into, variables};
use compiler::lower::{lower_all_noting, CompileEnv, Lowered, StaticProblems};
use compiler::{ast, Interner};
use runtime::diag::DiagnosticsExt;
use runtime::strings::write_json_string;
use runtime::{Diagnostic, Value};
use std::borrow::Cow;
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use vm::{Interrupts, Limits, Program, Scratch, Vars};

/// How a source is read.
///
/// ```
/// use hclvm::{Compiled, Options, SourceKind};
/// // The same text means different things in each kind.
/// let src = b"a";
/// assert!(Compiled::compile(SourceKind::Body, src, &Options::new()).is_err());
/// assert_eq!(Compiled::compile(SourceKind::Expression, src, &Options::new())?.variable_names().collect::<Vec<_>>(), ["a"]);
/// assert_eq!(Compiled::compile(SourceKind::Template, src, &Options::new())?.variable_names().count(), 0);
/// # Ok::<(), hclvm::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SourceKind {
    /// A configuration file: attributes and blocks (`hclsyntax.ParseConfig`).
    Body,
    /// A standalone template such as a `.tftpl` file (`hclsyntax.ParseTemplate`).
    Template,
    /// One expression (`hclsyntax.ParseExpression`).
    Expression,
}

/// A compiled body, template or expression: immutable, `Send + Sync`, cheap
/// to evaluate many times, from many threads at once.
///
/// Evaluating never changes it: each thread evaluates on scratch state of
/// its own, and diagnostics that depend on the evaluation's variables
/// ("Unknown variable" and its "Did you mean") are worded when they are
/// reported.
///
/// ```
/// use hclvm::{Compiled, Options, Variables};
///
/// let policy = Compiled::expression("user.role == \"admin\" || contains(user.groups, \"ops\")", &Options::new())?;
/// let shared = std::sync::Arc::new(policy);
/// let handles: Vec<_> = ["admin", "dev"].into_iter().map(|role| {
///     let policy = shared.clone();
///     std::thread::spawn(move || {
///         let vars = Variables::from_json(&serde_json::json!({"user": {"role": role, "groups": ["web"]}})).unwrap();
///         policy.evaluate(&vars).value().and_then(|v| v.as_bool())
///     })
/// }).collect();
/// let allowed: Vec<_> = handles.into_iter().map(|h| h.join().unwrap()).collect();
/// assert_eq!(allowed, [Some(true), Some(false)]);
/// # Ok::<(), hclvm::Error>(())
/// ```
pub struct Compiled {
    kind: SourceKind,
    code: Code,
    /// Variable names in slot order, sorted.
    var_names: Vec<String>,
    limits: Limits,
    /// [`Options::deadline`] and [`Options::cancel_token`], when either
    /// is set (one test tells evaluations without them apart).
    watch: Option<Box<Watch>>,
    /// Parser warnings.
    warnings: Vec<Diagnostic>,
    source: Arc<SourceInfo>,
    /// Whether the variable names were given ([`Options::variables`],
    /// [`Options::declare`]), not taken from the source.
    declared: bool,
    /// The variables declared with types ([`Options::declare`]).
    typed: Option<Arc<[DeclaredVar]>>,
    /// What compiling found wrong whatever the inputs (see
    /// [`Compiled::validate`]).
    static_diags: StaticProblems,
    /// Tells the variables [`Compiled::bind`] took for it from others'.
    id: u64,
}

const _: () = {
    const fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Compiled>();
};

/// What else ends an evaluation early ([`Options::deadline`],
/// [`Options::cancel_token`]).
struct Watch {
    deadline: Option<Duration>,
    cancel: Option<CancelToken>,
}

enum Code {
    Single(Program),
    Body(BodyPlan),
}

/// A variable declared with a type constraint.
struct DeclaredVar {
    name: String,
    slot: u32,
    ty: runtime::Type,
    defaults: Option<runtime::Defaults>,
    /// The value it has when not given: an unknown of its type.
    unknown: Value,
}

impl DeclaredVar {
    /// The given value with the constraint's defaults applied, converted
    /// to the type; or the error diagnostic hcl's host reports.
    fn accept(&self, v: &Value) -> Result<Value, Diagnostic> {
        let applied = match &self.defaults {
            Some(d) => d.apply(v),
            None => v.clone(),
        };
        runtime::convert(&applied, &self.ty).map_err(|e| {
            let detail =
                format!("The value for variable {} is not suitable: {}.", runtime::strings::go_quote(&self.name), e.format_with_path());
            Diagnostic::error("Invalid value for variable", detail, None)
        })
    }
}

/// Reads the declarations' type constraints, in name order.
fn read_declarations(options: &Options) -> Result<Vec<(String, runtime::Type, Option<runtime::Defaults>)>, Error> {
    let mut read = Vec::with_capacity(options.declarations.len());
    let mut errors = Vec::new();
    for d in &options.declarations {
        let c = compiler::typeexpr::type_constraint_with_defaults(d.constraint.as_bytes(), &d.filename);
        if c.has_errors() {
            let source = Arc::new(SourceInfo {
                filename: Arc::from(d.filename.as_str()),
                src: Arc::from(d.constraint.as_bytes()),
                block_headers: Vec::new(),
                template: false,
                breaks: Default::default(),
            });
            errors.push(Diagnostics::new(c.diagnostics, source));
            continue;
        }
        read.push((d.name.clone(), c.ty, c.defaults));
    }
    if errors.is_empty() {
        Ok(read)
    } else {
        Err(Error::Declaration(errors))
    }
}

impl Compiled {
    /// The attribute names the program's steps look up: variables decoded
    /// from JSON name their objects' attributes with these strings, which
    /// the steps then recognize by pointer (the decoder shares object
    /// types per thread, so decoding clones these names only for a new
    /// shape: see `runtime::json_text`).
    fn attr_names(&self) -> &runtime::AttrNames {
        static NONE: std::sync::OnceLock<runtime::AttrNames> = std::sync::OnceLock::new();
        match &self.code {
            Code::Single(p) => p.chunk().attr_names(),
            Code::Body(b) => match b.first_program() {
                Some(p) => p.chunk().attr_names(),
                None => NONE.get_or_init(runtime::AttrNames::new),
            },
        }
    }
}

impl std::fmt::Debug for BodyPlan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BodyPlan")
            .field("attrs", &self.attrs.iter().map(|info| info.name()).collect::<Vec<_>>())
            .field("blocks", &self.blocks)
            .finish()
    }
}

impl BodyPlan {
    /// Any program of the body: all share the file's chunk.
    fn first_program(&self) -> Option<&Program> {
        self.programs.first().or_else(|| self.blocks.iter().find_map(|(_, b)| b.first_program()))
    }
}

/// A body's attributes (in source order) with their programs, and its
/// nested blocks; evaluated (and reported) attributes first, then each
/// block's, depth first.
#[derive(Default)]
pub(crate) struct BodyPlan {
    /// Parallel to `programs` (two vectors, not one of pairs: the
    /// programs of a large body's top level are the very vector code
    /// generation returned, not a copy of it).
    pub(crate) attrs: Vec<AttrInfo>,
    pub(crate) programs: Vec<Program>,
    pub(crate) blocks: Vec<(BlockInfo, BodyPlan)>,
    /// Attributes in this body and its blocks, at any depth.
    pub(crate) attribute_count: usize,
}

thread_local! {
    /// Per-thread evaluation state, reused across evaluations: taken out
    /// while one runs (a host function evaluating from inside an
    /// evaluation finds the slot empty and uses a fresh state, or the one
    /// an earlier nested evaluation put back).
    static SCRATCH: Cell<Option<Box<Scratch>>> = const { Cell::new(None) };
}

/// Runs `f` with this thread's scratch state.
///
/// The state is taken out of the thread-local slot and put back, rather
/// than lent inside `LocalKey::with`: what `f` returns then reaches the
/// caller without passing through `with`'s `Result`, whose unwrapping
/// copies an evaluation at an odd offset (a copy that stalls on the
/// stores that just built it; micro spent about 5 ns there).
#[inline(always)]
fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    let mut scratch = SCRATCH.try_with(Cell::take).ok().flatten().unwrap_or_else(|| Box::new(Scratch::new()));
    let r = f(&mut scratch);
    put_scratch_back(scratch);
    r
}

/// Puts a scratch state back in this thread's slot (dropping it while
/// the thread is exiting).
///
/// `extern "C"`, so that it cannot unwind (since Rust 1.81, the
/// `rust-version`, a panic in it aborts; none can happen: it moves a
/// pointer and, after a nested evaluation, drops the state that one put
/// back, plain vectors and values). Were it able to, the result
/// of `with_scratch` would be kept aside to be dropped on unwinding and
/// copied to its place after, a copy that stalls on the stores that just
/// built it.
extern "C" fn put_scratch_back(scratch: Box<Scratch>) {
    let _ = SCRATCH.try_with(|slot| slot.set(Some(scratch)));
}

/// Variables taken for one program by [`Compiled::bind`]: a value (or
/// nothing) per variable the program reads.
#[derive(Clone)]
pub struct BoundVariables {
    slots: Vars,
    /// Which program they were bound for.
    program: u64,
    /// Values of declared variables that do not fit their types: one
    /// error each (nothing is evaluated then).
    rejected: Vec<Diagnostic>,
}

impl BoundVariables {
    /// The errors of values given for declared variables that do not fit
    /// their types (empty when all fit).
    pub(crate) fn rejected(&self) -> &[Diagnostic] {
        &self.rejected
    }
}

impl std::fmt::Debug for BoundVariables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BoundVariables").finish_non_exhaustive()
    }
}

/// Stack a compilation may need at the parser's nesting limit (debug
/// builds use several times what release builds do).
const COMPILE_STACK_RED_ZONE: usize = 16 << 20;
const COMPILE_STACK: usize = 64 << 20;

impl Compiled {
    /// Compiles a configuration body.
    ///
    /// ```
    /// let config = hclvm::Compiled::body("replicas = 3\n", &hclvm::Options::new())?;
    /// assert_eq!(config.kind(), hclvm::SourceKind::Body);
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn body(src: &str, options: &Options) -> Result<Compiled, Error> {
        Compiled::compile(SourceKind::Body, src.as_bytes(), options)
    }

    /// Compiles a standalone template.
    ///
    /// ```
    /// let t = hclvm::Compiled::template("Hello, ${name}!", &hclvm::Options::new())?;
    /// let out = t.evaluate(&hclvm::Variables::new().with("name", "HCL"));
    /// assert_eq!(out.value().and_then(|v| v.as_str()), Some("Hello, HCL!"));
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn template(src: &str, options: &Options) -> Result<Compiled, Error> {
        Compiled::compile(SourceKind::Template, src.as_bytes(), options)
    }

    /// Compiles one expression.
    ///
    /// ```
    /// let e = hclvm::Compiled::expression("[for n in [1, 2, 3] : n * n]", &hclvm::Options::new())?;
    /// let squares: Vec<u32> = e.evaluate(&hclvm::Variables::new()).deserialize()?;
    /// assert_eq!(squares, [1, 4, 9]);
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn expression(src: &str, options: &Options) -> Result<Compiled, Error> {
        Compiled::compile(SourceKind::Expression, src.as_bytes(), options)
    }

    /// Parses and compiles `src` (any bytes; invalid UTF-8 is reported as
    /// the reference reports it). Syntax errors are
    /// [`Error::Compile`]; warnings are kept ([`Compiled::warnings`]).
    ///
    /// ```
    /// use hclvm::{Compiled, Error, Options, SourceKind};
    ///
    /// let err = Compiled::compile(SourceKind::Expression, b"1 +", &Options::new()).unwrap_err();
    /// let Error::Compile(diags) = err else { panic!("not a syntax error") };
    /// assert_eq!(diags.as_slice()[0].summary, "Missing expression");
    /// ```
    pub fn compile(kind: SourceKind, src: &[u8], options: &Options) -> Result<Compiled, Error> {
        Compiled::compile_noting_crash(kind, src, options).0
    }

    /// [`Compiled::compile`] of a source the caller already shares: the
    /// program keeps this very copy (for diagnostics) instead of one of
    /// its own, so that a large source is in memory once.
    ///
    /// ```
    /// let src: std::sync::Arc<[u8]> = std::sync::Arc::from(&b"a = 1\n"[..]);
    /// let c = hclvm::Compiled::compile_shared(hclvm::SourceKind::Body, src.clone(), &hclvm::Options::new())?;
    /// // The program holds this very allocation (no copy of its own).
    /// assert!(std::sync::Arc::strong_count(&src) > 1);
    /// # drop(c);
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn compile_shared(kind: SourceKind, src: Arc<[u8]>, options: &Options) -> Result<Compiled, Error> {
        stacker::maybe_grow(COMPILE_STACK_RED_ZONE, COMPILE_STACK, || Compiled::compile_here(kind, &src, Some(&src), options)).0
    }

    /// [`Compiled::compile`], also telling whether the reference parser
    /// crashes on this source (it dereferences the missing expression of
    /// some malformed function selectors; hclvm reports them as errors
    /// instead). The conformance runner reports those sources as the
    /// oracle does.
    pub(crate) fn compile_noting_crash(kind: SourceKind, src: &[u8], options: &Options) -> (Result<Compiled, Error>, bool) {
        // Parsing, lowering and code generation recurse along the source's
        // nesting (bounded by the parser): give them a stack deep enough
        // for the bound on any thread (a fresh one, committed lazily, when
        // the caller's has less left).
        stacker::maybe_grow(COMPILE_STACK_RED_ZONE, COMPILE_STACK, || Compiled::compile_here(kind, src, None, options))
    }

    /// The source text, as compiled (for printing diagnostics).
    pub(crate) fn source_bytes(&self) -> &[u8] {
        &self.source.src
    }

    /// `shared`: `src` itself, when the caller shares it.
    fn compile_here(kind: SourceKind, src: &[u8], shared: Option<&Arc<[u8]>>, options: &Options) -> (Result<Compiled, Error>, bool) {
        // Declarations first, as a host reads its variable declarations
        // before the configuration.
        let declared = match read_declarations(options) {
            Ok(d) => d,
            Err(e) => return (Err(e), false),
        };
        // The syntax tree lives in this block: code generation, after it,
        // needs none of it.
        let (lowered, crash) = {
            let arena = bumpalo::Bump::new();
            let mut interner = Interner::for_source(src.len());
            let (parsed, diags, crash) = parse(&arena, kind, src, options, &mut interner);
            (parsed.with_tree(|tree| Compiled::lower(kind, src, shared, options, tree, diags, &interner, declared)), crash)
        };
        (lowered.map(LoweredSource::compile), crash)
    }

    /// Compiles `src`, evaluates it once with `vars` and appends the
    /// result to `out` as [`Compiled::write_result`] writes it, for hosts
    /// that run many sources once each (`hclvm conformance`): nothing is
    /// kept for evaluations to come. A body's attribute names, block
    /// labels and references are written from its syntax tree while it is
    /// at hand, instead of being encoded into a plan of the body first,
    /// and the block headers only text diagnostics show are not built.
    ///
    /// `Some(true)`, with nothing written, when the reference parser
    /// crashes on this source ([`Compiled::compile_noting_crash`]); `None`,
    /// with nothing done, for options with declarations, a deadline or a
    /// cancel token (compile and [`Compiled::write_result`] then).
    pub(crate) fn write_once(kind: SourceKind, src: &[u8], options: &Options, vars: &Variables, out: &mut String) -> Option<bool> {
        if !options.declarations.is_empty() || options.deadline.is_some() || options.cancel.is_some() {
            return None;
        }
        Some(stacker::maybe_grow(COMPILE_STACK_RED_ZONE, COMPILE_STACK, || Compiled::write_once_here(kind, src, options, vars, out)))
    }

    fn write_once_here(kind: SourceKind, src: &[u8], options: &Options, vars: &Variables, out: &mut String) -> bool {
        let arena = bumpalo::Bump::new();
        let mut interner = Interner::for_source(src.len());
        let (parsed, warnings, crash) = parse(&arena, kind, src, options, &mut interner);
        if crash {
            return true;
        }
        // Result lines place diagnostics by position alone: no block
        // headers.
        let source = source_info(kind, src, None, options, Vec::new());
        if warnings.has_errors() {
            Diagnostics::new(warnings, source).write_failure("parse", out);
            return false;
        }
        parsed.with_tree(|tree| {
            let (var_names, code, _) = lower_code(tree, &interner, options, &source, &[]);
            let programs = code.compile();
            let (slots, _) = bind_slots(&var_names, None, options.variables.is_some(), vars);
            with_scratch(|scratch| {
                scratch.limits = options.limits;
                // Evaluated once, here: no per-thread copies of its constants
                // (a panic in between drops this scratch: the next
                // evaluation starts with a fresh one).
                scratch.share_constants(true);
                write_lent(
                    out,
                    |buf| source.result_writer(buf),
                    |w| match tree {
                        Tree::Expr(_) => {
                            let program = programs.first().expect("one program per expression");
                            let value = vm::evaluate(program, &slots, scratch);
                            write_single_outcome(w, &value, &warnings, scratch);
                        }
                        Tree::Body(body) => {
                            let mut run = vm::BodyEvaluation::new(scratch, &slots);
                            write_body_outcome(w, &warnings, |w| {
                                write_body_once(body, &mut programs.as_slice(), &mut run, w, &interner);
                                false
                            });
                        }
                    },
                );
                scratch.share_constants(false);
            });
        });
        false
    }

    /// Lowers a parsed tree (`diags` are the parser's), for code
    /// generation once the tree is dropped.
    #[allow(clippy::too_many_arguments)]
    fn lower(
        kind: SourceKind,
        src: &[u8],
        shared: Option<&Arc<[u8]>>,
        options: &Options,
        tree: Tree<'_>,
        diags: Vec<Diagnostic>,
        interner: &Interner,
        declared: Vec<(String, runtime::Type, Option<runtime::Defaults>)>,
    ) -> Result<LoweredSource, Error> {
        let block_headers = match tree {
            Tree::Body(body) => block_headers(body, interner),
            Tree::Expr(_) => Vec::new(),
        };
        let source = source_info(kind, src, shared, options, block_headers);
        if diags.has_errors() {
            return Err(Error::Compile(Diagnostics::new(diags, source)));
        }
        let (var_names, code, static_diags) = lower_code(tree, interner, options, &source, &declared);
        let plan = match tree {
            Tree::Body(b) => Some(plan_body(b, interner)),
            Tree::Expr(_) => None,
        };
        let typed = (!declared.is_empty()).then(|| {
            declared
                .into_iter()
                .filter_map(|(name, ty, defaults)| {
                    let slot = var_names.binary_search(&name).ok()? as u32;
                    Some(DeclaredVar { unknown: Value::unknown(ty.clone()), name, slot, ty, defaults })
                })
                .collect()
        });
        let compiled = Compiled {
            kind,
            code: Code::Body(BodyPlan::default()),
            var_names,
            limits: options.limits,
            watch: (options.deadline.is_some() || options.cancel.is_some())
                .then(|| Box::new(Watch { deadline: options.deadline, cancel: options.cancel.clone() })),
            warnings: diags,
            source,
            declared: options.variables.is_some() || typed.is_some(),
            typed,
            static_diags,
            id: {
                static NEXT_ID: AtomicU64 = AtomicU64::new(0);
                NEXT_ID.fetch_add(1, Ordering::Relaxed)
            },
        };
        Ok(LoweredSource { compiled, code, plan })
    }

    /// What was compiled.
    ///
    /// ```
    /// let t = hclvm::Compiled::template("x", &hclvm::Options::new())?;
    /// assert_eq!(t.kind(), hclvm::SourceKind::Template);
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn kind(&self) -> SourceKind {
        self.kind
    }

    /// The variable names evaluations can supply (sorted): those given to
    /// [`Options::variables`], or else every root name the source uses.
    ///
    /// ```
    /// let t = hclvm::Compiled::template("${a.b} ${[for x in c : x]}", &hclvm::Options::new())?;
    /// assert_eq!(t.variable_names().collect::<Vec<_>>(), ["a", "c"]);
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn variable_names(&self) -> impl ExactSizeIterator<Item = &str> {
        self.var_names.iter().map(String::as_str)
    }

    /// Checks the program without inputs: evaluates it with every declared
    /// variable ([`Options::declare`]) an unknown value of its declared
    /// type (and any other variable an unknown of any type), as a host
    /// validating a configuration does, and reports what fails whatever
    /// the values turn out to be: unsupported attributes, type errors,
    /// wrong calls. Results of such an evaluation are unknown (often
    /// refined: `r.amount * 2 > 10` is a bool known not to be null).
    ///
    /// To that it adds what compiling found wrong in parts the evaluation
    /// does not reach (the body of a `for` over an unknown collection):
    /// calls to functions the table lacks, calls with a wrong number of
    /// arguments and, when the variables are declared, references to
    /// undeclared names; not inside `try` and `can`, which catch errors.
    /// Each diagnostic once: those of the evaluation in its order (parser
    /// warnings, then attributes before blocks), then the others in source
    /// order.
    ///
    /// ```
    /// use hclvm::{Compiled, Options};
    ///
    /// let options = Options::new().declare("request", "object({user = string, amount = number})");
    /// let policy = Compiled::body(r#"
    /// allow  = request.ammount < 1000
    /// owners = [for t in request.tags : uper(t)]
    /// "#, &options)?;
    /// let found = policy.validate();
    /// let details: Vec<&str> = found.as_slice().iter().map(|d| d.detail.as_str()).collect();
    /// assert_eq!(details, [
    ///     "This object does not have an attribute named \"ammount\".",
    ///     "This object does not have an attribute named \"tags\".",
    ///     "There is no function named \"uper\".",
    /// ]);
    /// assert!(Compiled::expression("request.amount * 2", &options)?.validate().as_slice().is_empty());
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn validate(&self) -> Diagnostics {
        let mut slots = Vars::with_slots(self.var_names.len());
        for i in 0..self.var_names.len() {
            slots.set(i as u32, Value::dynamic_unknown());
        }
        for d in self.typed.iter().flat_map(|t| t.iter()) {
            slots.set(d.slot, d.unknown.clone());
        }
        let evaluation = with_scratch(|scratch| self.evaluate_slots(&slots, scratch, None));
        let mut list: Vec<Diagnostic> = evaluation.diagnostics().into_iter().cloned().collect();
        let seen = list.len();
        for d in self.static_diags.to_diagnostics() {
            let same = |x: &Diagnostic| x.summary == d.summary && x.detail == d.detail && x.subject == d.subject;
            if !list.iter().any(same) {
                list.push(d);
            }
        }
        list[seen..].sort_by_key(|d| d.subject.map_or(0, |s| s.start));
        Diagnostics::new(list, self.source.clone())
    }

    /// The bytecode, as `hclvm disasm` lists it: each attribute's program
    /// under its path (`rule "a" / condition:`), or `expr:` for an
    /// expression or template. The listing is for people and tests; its
    /// format may change between versions.
    ///
    /// ```
    /// let e = hclvm::Compiled::expression("a + 1", &hclvm::Options::new())?;
    /// assert!(e.disassemble().starts_with("expr:\n"));
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn disassemble(&self) -> String {
        let mut out = String::new();
        match &self.code {
            Code::Single(program) => {
                out.push_str("expr:\n");
                out.push_str(&vm::disasm::disassemble(program));
            }
            Code::Body(plan) => disassemble_body(plan, "", &mut None, &mut out),
        }
        out
    }

    /// The source and what places diagnostics in it.
    pub(crate) fn source(&self) -> &Arc<SourceInfo> {
        &self.source
    }

    /// The body's plan, when a body was compiled.
    pub(crate) fn plan(&self) -> Option<&BodyPlan> {
        match &self.code {
            Code::Body(plan) => Some(plan),
            Code::Single(_) => None,
        }
    }

    /// The parser's warnings (an evaluation reports them too).
    ///
    /// ```
    /// let e = hclvm::Compiled::expression("1 + 2", &hclvm::Options::new())?;
    /// assert!(e.warnings().is_empty());
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn warnings(&self) -> &[Diagnostic] {
        &self.warnings
    }

    /// The file name diagnostics use.
    ///
    /// ```
    /// let e = hclvm::Compiled::expression("1", &hclvm::Options::new().filename("x.hcl"))?;
    /// assert_eq!(e.filename(), "x.hcl");
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn filename(&self) -> &str {
        &self.source.filename
    }

    /// Evaluates with `vars`, on this thread's reusable scratch state.
    /// Variables the program does not use are ignored; a used one that is
    /// missing is an "Unknown variable" error.
    ///
    /// ```
    /// let t = hclvm::Compiled::template("%{ for s in steps }${s};%{ endfor }", &hclvm::Options::new())?;
    /// let vars = hclvm::Variables::from_json_str(r#"{"steps": ["a", "b"], "unused": 1}"#)?;
    /// assert_eq!(t.evaluate(&vars).value().and_then(|v| v.as_str()), Some("a;b;"));
    /// assert_eq!(t.evaluate(&hclvm::Variables::new()).diagnostics()[0].summary, "Unknown variable");
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn evaluate(&self, vars: &Variables) -> Evaluation<'_> {
        self.evaluate_bound(&self.bind(vars))
    }

    /// The variables this program reads, taken from `vars` once, for
    /// evaluating with [`Compiled::evaluate_bound`] as often as wanted
    /// (a benchmark, or the same inputs against a program evaluated with
    /// several budgets). Values are shared, not copied.
    ///
    /// ```
    /// let e = hclvm::Compiled::expression("a + b", &hclvm::Options::new())?;
    /// let bound = e.bind(&hclvm::Variables::new().with("a", hclvm::Value::int(1)).with("b", hclvm::Value::int(2)));
    /// for _ in 0..3 {
    ///     assert_eq!(e.evaluate_bound(&bound).value().and_then(|v| v.as_number()?.to_i64()), Some(3));
    /// }
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn bind(&self, vars: &Variables) -> BoundVariables {
        let (slots, rejected) = bind_slots(&self.var_names, self.typed.as_deref(), self.declared, vars);
        BoundVariables { slots, program: self.id, rejected }
    }

    /// Evaluates with variables taken by [`Compiled::bind`] (from this
    /// program: variables bound for another one are all missing).
    pub fn evaluate_bound(&self, vars: &BoundVariables) -> Evaluation<'_> {
        self.evaluate_bound_watching(vars, None)
    }

    /// Evaluates bound variables, or reports the values a declared type
    /// rejected when they were bound; `cancel` is an evaluation's own token.
    fn evaluate_bound_watching(&self, vars: &BoundVariables, cancel: Option<&AtomicBool>) -> Evaluation<'_> {
        if !vars.rejected.is_empty() && vars.program == self.id {
            return Evaluation { compiled: self, result: Evaluated::Rejected(vars.rejected.clone()) };
        }
        // One call per case: dropping owned slots after the evaluation
        // would keep its result aside (see `put_scratch_back`).
        match self.slots(vars) {
            Cow::Borrowed(slots) => with_scratch(|scratch| self.evaluate_slots(slots, scratch, cancel)),
            Cow::Owned(slots) => with_scratch(|scratch| self.evaluate_slots(&slots, scratch, cancel)),
        }
    }

    /// [`Compiled::evaluate`], ended early (with the error "Evaluation
    /// cancelled") once `token` is cancelled, from any thread: one
    /// evaluation of a program that other evaluations share can be
    /// cancelled alone. See [`CancelToken`] for when the token is checked.
    ///
    /// ```
    /// use hclvm::{CancelToken, Compiled, Options, Variables};
    ///
    /// let e = Compiled::expression("[for x in xs : x + 1]", &Options::new())?;
    /// let vars = Variables::from_json_str(r#"{"xs": [1, 2]}"#)?;
    /// let token = CancelToken::new();
    /// assert_eq!(e.evaluate_cancellable(&vars, &token).deserialize::<Vec<u8>>()?, [2, 3]);
    /// token.cancel();
    /// assert_eq!(e.evaluate_cancellable(&vars, &token).diagnostics()[0].summary, "Evaluation cancelled");
    /// // Other evaluations do not watch this token.
    /// assert!(!e.evaluate(&vars).has_errors());
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn evaluate_cancellable(&self, vars: &Variables, token: &CancelToken) -> Evaluation<'_> {
        self.evaluate_bound_cancellable(&self.bind(vars), token)
    }

    /// [`Compiled::evaluate_bound`], ended early once `token` is cancelled
    /// (see [`Compiled::evaluate_cancellable`]).
    ///
    /// ```
    /// let e = hclvm::Compiled::expression("[for i in range(n) : i * i]", &hclvm::Options::new())?;
    /// let bound = e.bind(&hclvm::Variables::new().with("n", hclvm::Value::int(3)));
    /// let token = hclvm::CancelToken::new();
    /// assert!(!e.evaluate_bound_cancellable(&bound, &token).has_errors());
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn evaluate_bound_cancellable(&self, vars: &BoundVariables, token: &CancelToken) -> Evaluation<'_> {
        self.evaluate_bound_watching(vars, Some(token.flag()))
    }

    /// What may end an evaluation early: the options' deadline (from now)
    /// and token, and `extra` (an evaluation's own token); `None` when
    /// nothing may, so that evaluating checks nothing.
    #[inline]
    fn interrupts<'s>(&'s self, extra: Option<&'s AtomicBool>) -> Option<Interrupts<'s>> {
        if self.watch.is_none() && extra.is_none() {
            return None;
        }
        Some(self.watch_interrupts(extra))
    }

    #[cold]
    fn watch_interrupts<'s>(&'s self, extra: Option<&'s AtomicBool>) -> Interrupts<'s> {
        let watch = self.watch.as_deref();
        Interrupts {
            // A deadline too far to represent is none.
            deadline: watch.and_then(|w| w.deadline).and_then(|d| Instant::now().checked_add(d)),
            cancel: [watch.and_then(|w| w.cancel.as_ref()).map(CancelToken::flag), extra],
        }
    }

    /// The slots of `vars`, or none set when they were bound for another
    /// program.
    #[inline]
    fn slots<'v>(&self, vars: &'v BoundVariables) -> Cow<'v, Vars> {
        if vars.program == self.id {
            return Cow::Borrowed(&vars.slots);
        }
        let mut none = Vars::with_slots(self.var_names.len());
        none.set_names_in_scope(std::iter::empty::<&str>());
        Cow::Owned(none)
    }

    /// Evaluates with variables given as a JSON object of plain JSON
    /// values (see [`Variables::from_json`]); only the members the program
    /// uses are converted.
    ///
    /// ```
    /// let e = hclvm::Compiled::expression("length(items) > limit", &hclvm::Options::new())?;
    /// let out = e.evaluate_json(&serde_json::json!({"items": [1, 2, 3], "limit": 2}))?;
    /// assert_eq!(out.value().and_then(|v| v.as_bool()), Some(true));
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn evaluate_json(&self, vars: &serde_json::Value) -> Result<Evaluation<'_>, Error> {
        Ok(self.evaluate(&Variables::from_json_with(vars, Some((&self.var_names, self.attr_names())), false)?))
    }

    /// Like [`Compiled::evaluate_json`] from JSON text. With `typed`, a
    /// value written `{"type": T, "value": V}` gets type `T`
    /// ([`Variables::from_typed_json`]).
    ///
    /// ```
    /// let e = hclvm::Compiled::expression("ids", &hclvm::Options::new())?;
    /// let typed = e.evaluate_json_str(r#"{"ids": {"type": ["list", "number"], "value": [1]}}"#, true)?;
    /// assert_eq!(typed.value().unwrap().ty().to_json_string(), r#"["list","number"]"#);
    /// assert!(e.evaluate_json_str("not json", false).is_err());
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn evaluate_json_str(&self, vars: &str, typed: bool) -> Result<Evaluation<'_>, Error> {
        Ok(self.evaluate(&self.variables_from_json_str(vars, typed)?))
    }

    /// The members of the JSON object `text` this program reads, decoded
    /// as [`Variables::from_json_str`] (or, with `typed`,
    /// [`Variables::from_typed_json`]) would, for evaluating with this
    /// program: members it does not read are kept as names only, and
    /// objects are named with the program's attribute names, which its
    /// steps find by pointer. [`Compiled::evaluate_json_str`] is this
    /// followed by [`Compiled::evaluate`].
    ///
    /// ```
    /// let e = hclvm::Compiled::expression("user.role == \"admin\"", &hclvm::Options::new())?;
    /// let vars = e.variables_from_json_str(r#"{"user": {"role": "admin"}, "unused": [1, 2]}"#, false)?;
    /// let bound = e.bind(&vars);
    /// assert_eq!(e.evaluate_bound(&bound).value().and_then(|v| v.as_bool()), Some(true));
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn variables_from_json_str(&self, text: &str, typed: bool) -> Result<Variables, Error> {
        Variables::from_json_text(text, Some((&self.var_names, self.attr_names())), typed)
    }

    /// Evaluates and appends the result in the reference's result format
    /// (the fields after `"id":..,`, see [`result_format`]); returns
    /// whether the result has errors. The evaluation streams into `out`:
    /// no outcome tree is built, and nothing shared between threads (the
    /// compiled program's attribute facts, its source) is reference-counted
    /// per evaluation, so that threads evaluating one program at once do
    /// not contend on those counters (`hclvm batch`).
    pub(crate) fn write_result(&self, vars: &BoundVariables, out: &mut String) -> bool {
        if !vars.rejected.is_empty() && vars.program == self.id {
            write_lent(out, |buf| self.source.result_writer(buf), |w| w.failure("vars", &vars.rejected));
            return true;
        }
        let slots = self.slots(vars);
        with_scratch(|scratch| self.write_slots_result(&slots, scratch, out))
    }

    /// The streaming counterpart of [`Compiled::evaluate_slots`] and
    /// [`Evaluation::write_result_json`].
    fn write_slots_result(&self, slots: &Vars, scratch: &mut Scratch, out: &mut String) -> bool {
        scratch.limits = self.limits;
        write_lent(out, |buf| self.source.result_writer(buf), |w| self.write_code_result(slots, scratch, w))
    }

    /// The result of the program (or body) on `slots`, written by `w`.
    fn write_code_result(&self, slots: &Vars, scratch: &mut Scratch, w: &mut ResultWriter<'_>) -> bool {
        let stop = self.interrupts(None);
        match &self.code {
            Code::Single(program) => {
                let value = vm::run(program, slots, scratch, stop.as_ref()).value(scratch);
                write_single_outcome(w, &value, &self.warnings, scratch)
            }
            Code::Body(plan) => {
                let mut run = vm::BodyEvaluation::with_interrupts(scratch, slots, stop.as_ref());
                write_body_outcome(w, &self.warnings, |w| write_body_result(plan, &mut run, w))
            }
        }
    }

    // Inlined into its callers: one frame less, and the result built in
    // place, for the per-evaluation cost of small programs.
    #[inline]
    fn evaluate_slots(&self, slots: &Vars, scratch: &mut Scratch, cancel: Option<&AtomicBool>) -> Evaluation<'_> {
        scratch.limits = self.limits;
        let stop = self.interrupts(cancel);
        let result = match &self.code {
            Code::Single(program) => {
                let ran = vm::run(program, slots, scratch, stop.as_ref());
                // The value is taken last, and returned from here rather
                // than through the match, so that it is written once, in
                // place: a copy of a value just built (a bool is written a
                // byte at a time) stalls on the stores that built it.
                let diagnostics: OutcomeDiagnostics = with_warnings(&self.warnings, scratch).into();
                let value = ran.value(scratch);
                return Evaluation { compiled: self, result: Evaluated::Value(Outcome { value, diagnostics }) };
            }
            Code::Body(plan) => {
                let mut outcomes = Vec::with_capacity(plan.attribute_count);
                let mut run = vm::BodyEvaluation::with_interrupts(scratch, slots, stop.as_ref());
                evaluate_body(plan, &mut run, &mut outcomes);
                Evaluated::Body(outcomes)
            }
        };
        Evaluation { compiled: self, result }
    }
}

impl Compiled {
    /// Evaluates on `scratch`, a fresh one: Packer's `templatefile`
    /// renders its template in the middle of another evaluation
    /// ([`super::templatefile`]). Returns the outcome and the source the
    /// diagnostics are placed in.
    pub(crate) fn evaluate_on(&self, vars: &Variables, scratch: &mut Scratch) -> (Outcome, Arc<SourceInfo>) {
        let bound = self.bind(vars);
        let slots = self.slots(&bound);
        let outcome = match self.evaluate_slots(&slots, scratch, None).result {
            Evaluated::Value(o) => o,
            Evaluated::Rejected(diagnostics) => Outcome { value: Value::dynamic_unknown(), diagnostics: diagnostics.into() },
            Evaluated::Body(_) => Outcome { value: Value::dynamic_unknown(), diagnostics: OutcomeDiagnostics::default() },
        };
        (outcome, self.source.clone())
    }
}

impl std::fmt::Debug for Compiled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Compiled")
            .field("kind", &self.kind)
            .field("filename", &self.source.filename)
            .field("variables", &self.var_names)
            .field("limits", &self.limits)
            .field("deadline", &self.watch.as_ref().and_then(|w| w.deadline))
            .finish_non_exhaustive()
    }
}

/// The slots of `vars` for a program of `var_names` (sorted), with the
/// values of the `typed` ones converted to their types (the errors of
/// those that do not convert second); `declared`: whether the names were
/// given rather than taken from the source ([`Compiled::bind`]).
fn bind_slots(var_names: &[String], typed: Option<&[DeclaredVar]>, declared: bool, vars: &Variables) -> (Vars, Vec<Diagnostic>) {
    let mut slots = Vars::with_slots(var_names.len());
    let mut complete = true;
    let mut rejected = Vec::new();
    match typed {
        None => {
            for (i, name) in var_names.iter().enumerate() {
                match vars.get(name) {
                    Some(v) => slots.set(i as u32, v.clone()),
                    None => complete = false,
                }
            }
        }
        Some(typed) => {
            let mut typed = typed.iter().peekable();
            for (i, name) in var_names.iter().enumerate() {
                let declared = typed.next_if(|d| d.slot == i as u32);
                match (vars.get(name), declared) {
                    (Some(v), None) => slots.set(i as u32, v.clone()),
                    (Some(v), Some(d)) => match d.accept(v) {
                        Ok(v) => slots.set(i as u32, v),
                        Err(diag) => rejected.push(diag),
                    },
                    (None, Some(d)) => slots.set(i as u32, d.unknown.clone()),
                    (None, None) => complete = false,
                }
            }
        }
    }
    if !complete {
        // hcl suggests among everything its context holds.
        slots.set_names_in_scope(vars.names().filter(|n| !declared || var_names.binary_search_by(|d| d.as_str().cmp(n)).is_ok()));
    }
    (slots, rejected)
}

/// The result of a single expression's evaluation: its value with the
/// compilation's `warnings` and the evaluation's diagnostics; whether
/// there were errors.
fn write_single_outcome(w: &mut ResultWriter<'_>, value: &Value, warnings: &[Diagnostic], scratch: &mut Scratch) -> bool {
    let diagnostics = with_warnings(warnings, scratch);
    write_value_result(w, value, &diagnostics, Some("eval"));
    diagnostics.has_errors()
}

/// The result of a body's evaluation: its attributes and blocks as
/// `write_body` writes them (returning whether there were errors), then
/// the compilation's `warnings`.
fn write_body_outcome(w: &mut ResultWriter<'_>, warnings: &[Diagnostic], write_body: impl FnOnce(&mut ResultWriter<'_>) -> bool) -> bool {
    w.raw("\"ok\":true,\"body\":");
    let errors = write_body(w);
    if !warnings.is_empty() {
        w.raw(",\"diags\":");
        w.diags(warnings);
    }
    errors
}

/// The parser's warnings, then the diagnostics the evaluation left in
/// `scratch` (allocating nothing when there are none).
#[inline(always)]
fn with_warnings(warnings: &[Diagnostic], scratch: &mut Scratch) -> Vec<Diagnostic> {
    if warnings.is_empty() {
        return if scratch.diags().is_empty() { Vec::new() } else { scratch.take_diags() };
    }
    let mut diagnostics = warnings.to_vec();
    diagnostics.extend(scratch.take_diags());
    diagnostics
}

/// A parsed source; a file body keeps its attribute and block lists in
/// vectors of its own, not the arena.
enum Parsed<'a> {
    Body(compiler::FileBody<'a>),
    Expr(&'a ast::Expr<'a>),
}

impl Parsed<'_> {
    /// Runs `f` on the tree (a body's view borrows its lists).
    fn with_tree<R>(&self, f: impl FnOnce(Tree<'_>) -> R) -> R {
        match self {
            Parsed::Body(b) => f(Tree::Body(&b.body())),
            Parsed::Expr(e) => f(Tree::Expr(e)),
        }
    }
}

/// Parses `src` as `kind`: the tree, the parser's diagnostics, and whether
/// the reference parser crashes on it (see `compiler::Parse`).
fn parse<'a>(
    arena: &'a bumpalo::Bump,
    kind: SourceKind,
    src: &'a [u8],
    options: &'a Options,
    interner: &mut Interner,
) -> (Parsed<'a>, Vec<Diagnostic>, bool) {
    let filename = options.filename.as_str();
    match kind {
        SourceKind::Body => {
            let p = compiler::parse_file_full(arena, src, filename, interner);
            (Parsed::Body(p.tree), p.diags, p.reference_crash.is_some())
        }
        SourceKind::Template => {
            let p = compiler::parse_template_full(arena, src, filename, interner);
            (Parsed::Expr(p.tree), p.diags, p.reference_crash.is_some())
        }
        SourceKind::Expression => {
            let p = compiler::parse_expression_full(arena, src, filename, interner);
            (Parsed::Expr(p.tree), p.diags, p.reference_crash.is_some())
        }
    }
}

/// The source of a compilation, kept to place its diagnostics.
/// `shared`: `src` itself, when the caller shares it.
fn source_info(
    kind: SourceKind,
    src: &[u8],
    shared: Option<&Arc<[u8]>>,
    options: &Options,
    block_headers: Vec<(runtime::Span, String)>,
) -> Arc<SourceInfo> {
    Arc::new(SourceInfo {
        filename: Arc::from(options.filename.as_str()),
        src: shared.cloned().unwrap_or_else(|| Arc::from(src)),
        block_headers,
        template: kind == SourceKind::Template,
        breaks: Default::default(),
    })
}

/// The variable names (in slot order) of a tree without syntax errors,
/// its expression or its body's attributes lowered (in the order of
/// [`ast::Body::all_attribute_exprs`]), and the static problems lowering
/// found.
fn lower_code(
    tree: Tree<'_>,
    interner: &Interner,
    options: &Options,
    source: &SourceInfo,
    declared: &[(String, runtime::Type, Option<runtime::Defaults>)],
) -> (Vec<String>, LoweredCode, StaticProblems) {
    let var_names = match (&options.variables, declared.is_empty()) {
        (Some(names), true) => names.clone(),
        (None, true) => referenced_roots(tree, interner),
        (names, false) => {
            let mut all: Vec<String> = names.iter().flatten().cloned().chain(declared.iter().map(|(n, ..)| n.clone())).collect();
            all.sort_unstable();
            all.dedup();
            all
        }
    };
    let mut env = CompileEnv::new(var_names.iter(), options.function_table());
    env.filename = source.filename.clone();
    env.short_circuit = options.short_circuit;
    let lines = Arc::new(compiler::lower::source_lines(source.src.clone(), source.lex_mode()));
    // Set once, here, before any result is written.
    let _ = source.breaks.set(lines.breaks.clone());
    let (lowered, found) = match tree {
        Tree::Expr(e) => lower_all_noting(std::iter::once(e), interner, &env, &lines),
        Tree::Body(b) => lower_all_noting(b.all_attribute_exprs(), interner, &env, &lines),
    };
    (var_names, LoweredCode { lowered, env, lines }, found)
}

/// Lowered expressions, owning all code generation needs (the syntax tree
/// may be gone).
struct LoweredCode {
    lowered: Lowered,
    env: CompileEnv,
    lines: Arc<vm::program::SourceLines>,
}

impl LoweredCode {
    /// One program per expression, in one chunk of bytecode for the whole
    /// file (sealed when `file` drops).
    fn compile(self) -> Vec<Program> {
        let mut file = vm::codegen::FileCode::new();
        let programs = self.lowered.compile(&mut file, &self.env, &self.lines);
        drop(file);
        programs
    }
}

#[derive(Clone, Copy)]
enum Tree<'a> {
    Expr(&'a ast::Expr<'a>),
    Body(&'a ast::Body<'a>),
}

/// Every root name the source references, sorted and unique. Blocks are
/// walked with an explicit stack (the parser bounds their nesting, but a
/// stack keeps this independent of that bound).
fn referenced_roots(tree: Tree<'_>, interner: &Interner) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut add = |e: &ast::Expr<'_>| names.extend(variables(e).iter().map(|t| interner.resolve(t.root.name).to_string()));
    match tree {
        Tree::Expr(e) => add(e),
        Tree::Body(body) => {
            let mut stack = vec![body];
            while let Some(b) = stack.pop() {
                for a in b.attributes {
                    add(a.expr);
                }
                stack.extend(b.blocks.iter().map(|blk| &blk.body));
            }
        }
    }
    names.sort_unstable();
    names.dedup();
    names
}

/// A source lowered, its syntax tree no longer needed: code generation
/// makes the [`Compiled`] of it.
struct LoweredSource {
    /// Everything but the code.
    compiled: Compiled,
    code: LoweredCode,
    /// A body's plan, without its programs yet (`None`: an expression).
    plan: Option<BodyPlan>,
}

impl LoweredSource {
    fn compile(self) -> Compiled {
        let LoweredSource { mut compiled, code, plan } = self;
        let mut programs = code.compile();
        compiled.code = match plan {
            None => Code::Single(programs.pop().expect("one program per expression")),
            Some(mut plan) => {
                attach_file_programs(&mut plan, programs);
                Code::Body(plan)
            }
        };
        compiled
    }
}

/// The plan of every attribute (in source order) and every nested block,
/// without programs ([`attach_file_programs`] adds them).
fn plan_body(body: &ast::Body<'_>, interner: &Interner) -> BodyPlan {
    // Sized at once: this is the largest part of a large body's program.
    let mut attrs: Vec<AttrInfo> = Vec::with_capacity(body.attributes.len());
    let info = |a: &ast::Attribute<'_>| AttrInfo::new(interner.resolve(a.name.name), references_json(a.expr, interner));
    attrs.extend(body.attributes.iter().map(info));
    let blocks: Vec<(BlockInfo, BodyPlan)> = body
        .blocks
        .iter()
        .map(|b| {
            let info = BlockInfo::new(interner.resolve(b.block_type.name), b.labels.iter().map(|l| Arc::from(&**l)).collect());
            (info, plan_body(&b.body, interner))
        })
        .collect();
    let attribute_count = attrs.len() + blocks.iter().map(|(_, b)| b.attribute_count).sum::<usize>();
    BodyPlan { attrs, programs: Vec::new(), blocks, attribute_count }
}

/// Gives a file's plan its programs (in the order of
/// `all_attribute_exprs`): the top level keeps the vector itself.
fn attach_file_programs(plan: &mut BodyPlan, mut programs: Vec<Program>) {
    let own = plan.attrs.len().min(programs.len());
    let mut rest = programs.split_off(own).into_iter();
    plan.programs = programs;
    for (_, block) in &mut plan.blocks {
        attach_programs(block, &mut rest);
    }
}

fn attach_programs(plan: &mut BodyPlan, programs: &mut std::vec::IntoIter<Program>) {
    plan.programs = programs.by_ref().take(plan.attrs.len()).collect();
    for (_, block) in &mut plan.blocks {
        attach_programs(block, programs);
    }
}

/// `Variables()` of `expr` as the JSON array of its result lines (`None`:
/// none), encoded into the thread's scratch buffer by [`write_references`]
/// and copied out at its size: no string per reference, no regrowing.
fn references_json(expr: &ast::Expr<'_>, interner: &Interner) -> Option<Box<str>> {
    thread_local! {
        static JSON: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
    }
    JSON.with_borrow_mut(|json| {
        json.clear();
        write_references(json, expr, interner).then(|| Box::from(json.as_str()))
    })
}

/// Appends `Variables()` of `expr` as the JSON array of its result lines,
/// each reference rendered into the thread's scratch buffer first; `false`,
/// with nothing appended, when there is none.
fn write_references(out: &mut String, expr: &ast::Expr<'_>, interner: &Interner) -> bool {
    thread_local! {
        static RENDERED: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
    }
    // Written as they are found (no list of them is built).
    let mut any = false;
    RENDERED.with_borrow_mut(|rendered| {
        for_each_variable(expr, |t| {
            out.push(if any { ',' } else { '[' });
            any = true;
            rendered.clear();
            render_traversal_into(rendered, t, interner);
            write_json_string(out, rendered);
        });
    });
    if any {
        out.push(']');
    }
    any
}

/// [`write_body_result`] straight from the syntax tree, for
/// [`Compiled::write_once`]: the programs of `body`'s attributes come first
/// in `programs` (in the order of [`ast::Body::all_attribute_exprs`]), and
/// each body takes its own off the front, as [`attach_file_programs`] does.
fn write_body_once(
    body: &ast::Body<'_>,
    programs: &mut &[Program],
    run: &mut vm::BodyEvaluation<'_>,
    w: &mut ResultWriter<'_>,
    interner: &Interner,
) {
    let (own, rest) = programs.split_at(body.attributes.len().min(programs.len()));
    *programs = rest;
    let attr = |(run, _): &mut (&mut vm::BodyEvaluation<'_>, &mut &[Program]),
                w: &mut ResultWriter<'_>,
                (a, program): (&ast::Attribute<'_>, &Program)| {
        let value: Value = run.evaluate(program);
        // Read in place: the scratch's list keeps its room for the next
        // attribute (taking it would grow a new one from empty each time).
        let diagnostics = run.scratch().diags();
        let text = w.text();
        write_json_string(text, interner.resolve(a.name.name));
        text.push_str(":{");
        write_value_result(w, &value, diagnostics, None);
        w.raw(",\"vars\":");
        if !write_references(w.text(), a.expr, interner) {
            w.raw("[]");
        }
        w.raw("}");
    };
    let block = |(run, programs): &mut (&mut vm::BodyEvaluation<'_>, &mut &[Program]), w: &mut ResultWriter<'_>, b: &ast::Block<'_>| {
        let text = w.text();
        text.push_str("{\"type\":");
        write_json_string(text, interner.resolve(b.block_type.name));
        text.push_str(",\"labels\":");
        result_format::write_json_string_array(text, b.labels);
        text.push_str(",\"body\":");
        write_body_once(&b.body, programs, run, w, interner);
        w.raw("}");
    };
    let mut cx = (run, programs);
    result_format::write_body(w, &mut cx, body.attributes.iter().zip(own), body.blocks, attr, block);
}

/// Evaluates a body as [`evaluate_body`] does and writes its result (the
/// `BODY` of a result line) as it goes; returns whether any attribute has
/// an error.
fn write_body_result(plan: &BodyPlan, run: &mut vm::BodyEvaluation<'_>, w: &mut ResultWriter<'_>) -> bool {
    let mut cx = (run, false);
    result_format::write_body(
        w,
        &mut cx,
        plan.attrs.iter().zip(&plan.programs),
        &plan.blocks,
        |(run, errors), w, (info, program)| {
            let value: Value = run.evaluate(program);
            // Read in place, as in `write_body_once`.
            let diagnostics = run.scratch().diags();
            *errors |= diagnostics.has_errors();
            info.write_result(w, &value, diagnostics);
        },
        |(run, errors), w, (info, body)| {
            w.raw(info.json_head());
            *errors |= write_body_result(body, run, w);
            w.raw("}");
        },
    );
    cx.1
}

/// Each attribute's listing under its path, attributes before blocks
/// (the order they were compiled in: `previous` is the program listed
/// last, which tells where the next one's part of the chunk starts).
fn disassemble_body<'p>(plan: &'p BodyPlan, path: &str, previous: &mut Option<&'p Program>, out: &mut String) {
    for (info, program) in plan.attrs.iter().zip(&plan.programs) {
        out.push_str(path);
        out.push_str(info.name());
        out.push_str(":\n");
        out.push_str(&vm::disasm::disassemble_after(program, *previous));
        *previous = Some(program);
    }
    for (info, body) in &plan.blocks {
        let mut p = format!("{path}{}", info.block_type);
        for l in &info.labels {
            p.push_str(&format!(" {:?}", &**l));
        }
        p.push_str(" / ");
        disassemble_body(body, &p, previous, out);
    }
}

/// Evaluates every attribute of `plan` in its order into `out`.
fn evaluate_body(plan: &BodyPlan, run: &mut vm::BodyEvaluation<'_>, out: &mut Vec<Outcome>) {
    for program in &plan.programs {
        let ran = run.run(program);
        let scratch = run.scratch();
        let diagnostics: OutcomeDiagnostics = with_warnings(&[], scratch).into();
        // The value taken last, into its place in `out` (see `vm::run`).
        out.extend(std::iter::once_with(|| Outcome { value: ran.value(scratch), diagnostics }));
    }
    for (_, body) in &plan.blocks {
        evaluate_body(body, run, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writing_once_writes_what_compiling_then_writing_writes() {
        let body = SourceKind::Body;
        let cases: &[(SourceKind, &str)] = &[
            (body, "a = 1\nb = x.y\nc = \"${b}-${nope}\"\nd = [for k, v in {a = 1} : upper(k)]\n"),
            (body, "resource \"r\" \"n\" {\n  count = var.n\n  inner {\n    z = lenght([1])\n  }\n}\ntop = 2\n"),
            (body, "a = 1\na = 2\nb {}\nc \"x\\\"\" {\n  d = c\n}\n"),
            (body, "a = \n"),
            (body, "a = -a::b\n"),
            (body, "x = <<EOT\n  hi ${y}\n  EOT\n"),
            (SourceKind::Template, "hello ${name}%{ if true }!%{ endif }"),
            (SourceKind::Template, "${"),
            (SourceKind::Expression, "x + 1"),
            (SourceKind::Expression, "1 +"),
        ];
        for &(kind, src) in cases {
            for vars in [Variables::new(), Variables::new().with("x", Value::int(1))] {
                let names: Vec<&str> = vars.names().collect();
                for options in [Options::new(), Options::new().variables(names.iter().copied())] {
                    let mut once = String::from("{");
                    let crashed = Compiled::write_once(kind, src.as_bytes(), &options, &vars, &mut once).expect("no declarations");
                    let mut twice = String::from("{");
                    let (compiled, crash) = Compiled::compile_noting_crash(kind, src.as_bytes(), &options);
                    assert_eq!(crashed, crash, "{src}");
                    if !crash {
                        match compiled {
                            Ok(c) => {
                                c.write_result(&c.bind(&vars), &mut twice);
                            }
                            Err(Error::Compile(d)) => d.write_failure("parse", &mut twice),
                            Err(e) => panic!("{e}"),
                        }
                    }
                    assert_eq!(once, twice, "{src}");
                }
            }
        }
    }
}
