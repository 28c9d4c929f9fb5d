//! Compiling a source once and evaluating it many times.

use super::error::{Diagnostics, Error, SourceInfo};
use super::outcome::{AttrInfo, AttributeOutcome, BlockInfo, BlockOutcome, BodyOutcome, Evaluated, Evaluation, Outcome};
use super::variables::Variables;
use super::replicas::{on_this_thread, Home};
use super::Options;
use crate::conformance::ResultWriter;
use crate::diagnostic_text::SourceFile;
use crate::engine::write_value_result;
use compiler::analysis::{render_traversal, variables};
use compiler::lower::{compile_all_into, compile_with_lines, CompileEnv};
use compiler::{ast, Interner};
use runtime::diag::DiagnosticsExt;
use runtime::{Diagnostic, Value};
use std::cell::RefCell;
use std::sync::{Arc, Mutex};
use vm::{Limits, Program, Scratch, Vars};

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
/// An evaluation that leaves a declared variable unset runs a program
/// compiled for exactly the variables it supplies (compiled once per such
/// name set and remembered), so that its "Unknown variable" diagnostics and
/// their suggestions are the ones hcl gives for that context.
///
/// Evaluating shares reference-counted data with the program (constants,
/// attribute names), which threads evaluating at once would contend on.
/// So a thread other than the first to evaluate it, once it has spent
/// eight times the compile time evaluating it, compiles a copy of its own
/// from the same source and options and evaluates that: the same results,
/// for one more compilation and its memory per such thread (a thread keeps
/// at most eight copies).
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
    /// Parser warnings.
    warnings: Vec<Diagnostic>,
    source: Arc<SourceInfo>,
    /// What it was compiled with, for [`Compiled::exact_context`].
    options: Options,
    /// Programs compiled for evaluations that leave a declared variable
    /// unset, by the variable names those evaluations supply.
    exact: Mutex<Vec<(Vec<String>, Arc<Compiled>)>>,
    /// Which thread evaluates it, which make their own copies
    /// ([`replicas`](super::replicas)).
    home: Home,
}

/// Variable sets remembered by [`Compiled::exact_context`].
const EXACT_CONTEXTS: usize = 16;

const _: () = {
    const fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Compiled>();
};

enum Code {
    Single(Program),
    Body(BodyPlan),
}

impl Compiled {
    /// The attribute names the program's steps look up; variables decoded
    /// from JSON name their objects' attributes with these strings, which
    /// the steps then recognize by pointer.
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

impl BodyPlan {
    /// Any program of the body: all share the file's chunk.
    fn first_program(&self) -> Option<&Program> {
        self.attrs.first().map(|(_, p)| p).or_else(|| self.blocks.iter().find_map(|(_, b)| b.first_program()))
    }
}

struct BodyPlan {
    attrs: Vec<(Arc<AttrInfo>, Program)>,
    blocks: Vec<(Arc<BlockInfo>, BodyPlan)>,
}

thread_local! {
    /// Per-thread evaluation state, reused across evaluations.
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::new());
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
        // Parsing, lowering and code generation recurse along the source's
        // nesting (bounded by the parser): give them a stack deep enough
        // for the bound on any thread (a fresh one, committed lazily, when
        // the caller's has less left).
        let started = std::time::Instant::now();
        let mut compiled = stacker::maybe_grow(COMPILE_STACK_RED_ZONE, COMPILE_STACK, || Compiled::compile_here(kind, src, options))?;
        compiled.home = Home::new(started.elapsed());
        Ok(compiled)
    }

    /// A copy compiled again from the same source and options, for one
    /// thread to evaluate on its own (see [`replicas`](super::replicas)).
    pub(crate) fn copy_for_this_thread(&self) -> Option<Compiled> {
        let mut copy = Compiled::compile(self.kind, &self.source.src, &self.options).ok()?;
        copy.home = Home::for_copy();
        Some(copy)
    }

    pub(crate) fn home(&self) -> &Home {
        &self.home
    }

    fn compile_here(kind: SourceKind, src: &[u8], options: &Options) -> Result<Compiled, Error> {
        let arena = bumpalo::Bump::new();
        let mut interner = Interner::new();
        let filename = options.filename.as_str();
        let (tree, diags) = match kind {
            SourceKind::Body => {
                let (body, diags) = compiler::parse_body_named(&arena, src, filename, &mut interner);
                (Tree::Body(arena.alloc(body)), diags)
            }
            SourceKind::Template => {
                let (e, diags) = compiler::parse_template_named(&arena, src, filename, &mut interner);
                (Tree::Expr(e), diags)
            }
            SourceKind::Expression => {
                let (e, diags) = compiler::parse_expression_named(&arena, src, filename, &mut interner);
                (Tree::Expr(e), diags)
            }
        };
        let block_headers = match tree {
            Tree::Body(body) => SourceFile::new(filename, src).with_blocks(body, &interner).block_headers().to_vec(),
            Tree::Expr(_) => Vec::new(),
        };
        let source = Arc::new(SourceInfo { filename: Arc::from(filename), src: Arc::from(src), block_headers, template: kind == SourceKind::Template });
        if diags.has_errors() {
            return Err(Error::Compile(Diagnostics::new(diags, source)));
        }
        let var_names = match &options.variables {
            Some(names) => names.clone(),
            None => referenced_roots(tree, &interner),
        };
        let mut env = CompileEnv::new(var_names.iter(), options.function_table());
        env.filename = source.filename.clone();
        let lines = Arc::new(compiler::lower::source_lines(src, source.lex_mode()));
        let code = match tree {
            Tree::Expr(e) => Code::Single(compile_with_lines(e, &interner, &env, lines)),
            Tree::Body(b) => {
                // One chunk of bytecode for the whole file, sealed when
                // `file` drops.
                let mut file = vm::codegen::FileCode::new();
                let exprs = b.all_attribute_exprs();
                let mut programs = compile_all_into(&mut file, &exprs, &interner, &env, &lines).into_iter();
                Code::Body(plan_body(&mut programs, b, &interner))
            }
        };
        Ok(Compiled {
            kind,
            code,
            var_names,
            limits: options.limits,
            warnings: diags,
            source,
            options: options.clone(),
            exact: Mutex::new(Vec::new()),
            home: Home::new(std::time::Duration::ZERO),
        })
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
    pub fn evaluate(&self, vars: &Variables) -> Evaluation {
        on_this_thread(self, |c| c.evaluate_here(vars))
    }

    fn evaluate_here(&self, vars: &Variables) -> Evaluation {
        let (slots, complete) = self.bind(vars);
        if !complete {
            if let Some(exact) = self.exact_context(vars) {
                return exact.evaluate_here(vars);
            }
        }
        SCRATCH.with(|cell| match cell.try_borrow_mut() {
            Ok(mut scratch) => self.evaluate_slots(&slots, &mut scratch),
            // A host function evaluating from inside an evaluation.
            Err(_) => self.evaluate_slots(&slots, &mut Scratch::new()),
        })
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
    pub fn evaluate_json(&self, vars: &serde_json::Value) -> Result<Evaluation, Error> {
        on_this_thread(self, |c| Ok(c.evaluate_here(&Variables::from_json_with(vars, Some((&c.var_names, c.attr_names())), false)?)))
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
    pub fn evaluate_json_str(&self, vars: &str, typed: bool) -> Result<Evaluation, Error> {
        on_this_thread(self, |c| Ok(c.evaluate_here(&Variables::from_json_text(vars, Some((&c.var_names, c.attr_names())), typed)?)))
    }

    /// [`Compiled::evaluate_json_str`] followed by the result encoding of
    /// `hclvm conformance` (the fields after `"id":..,`), appended to `out`;
    /// returns whether the result has errors. The evaluation streams into
    /// `out`: no outcome tree is built, and nothing shared between threads
    /// (the compiled program's attribute facts, its source) is
    /// reference-counted per evaluation, so that threads evaluating one
    /// program at once do not contend on those counters (`hclvm batch`).
    pub(crate) fn write_json_str_result(&self, vars: &str, typed: bool, out: &mut String) -> Result<bool, Error> {
        on_this_thread(self, |c| c.write_json_str_result_here(vars, typed, out))
    }

    fn write_json_str_result_here(&self, vars: &str, typed: bool, out: &mut String) -> Result<bool, Error> {
        let vars = Variables::from_json_text(vars, Some((&self.var_names, self.attr_names())), typed)?;
        let (slots, complete) = self.bind(&vars);
        if !complete {
            if let Some(exact) = self.exact_context(&vars) {
                let evaluation = exact.evaluate_here(&vars);
                out.push_str(&evaluation.result_fields());
                return Ok(evaluation.has_errors());
            }
        }
        Ok(SCRATCH.with(|cell| match cell.try_borrow_mut() {
            Ok(mut scratch) => self.write_slots_result(&slots, &mut scratch, out),
            Err(_) => self.write_slots_result(&slots, &mut Scratch::new(), out),
        }))
    }

    /// The streaming counterpart of [`Compiled::evaluate_slots`] and
    /// [`Evaluation::result_fields`](super::outcome::Evaluation).
    fn write_slots_result(&self, slots: &Vars, scratch: &mut Scratch, out: &mut String) -> bool {
        scratch.limits = self.limits;
        let mut lent = Lent { w: ResultWriter::with_buffer(&self.source.src, std::mem::take(out)).template(self.source.template), out };
        let w = &mut lent.w;
        match &self.code {
            Code::Single(program) => {
                let value = vm::evaluate(program, slots, scratch);
                let mut diagnostics = self.warnings.clone();
                diagnostics.extend(scratch.take_diags());
                write_value_result(w, &value, &diagnostics, Some("eval"));
                diagnostics.has_errors()
            }
            Code::Body(plan) => {
                w.raw("\"ok\":true,\"body\":");
                let errors = write_body_result(plan, &mut vm::BodyEvaluation::new(scratch, slots), w);
                if !self.warnings.is_empty() {
                    w.raw(",\"diags\":");
                    w.diags(&self.warnings);
                }
                errors
            }
        }
    }

    /// The slots for `vars`, and whether every declared variable is set.
    fn bind(&self, vars: &Variables) -> (Vars, bool) {
        let mut slots = Vars::with_slots(self.var_names.len());
        let mut complete = true;
        for (i, name) in self.var_names.iter().enumerate() {
            match vars.get(name) {
                Some(v) => slots.set(i as u32, v.clone()),
                None => complete = false,
            }
        }
        (slots, complete)
    }

    /// The program for an evaluation that leaves a declared variable unset.
    ///
    /// Results only depend on the declared names while every one of them
    /// is set. When one is missing, hcl's "Unknown variable" diagnostic
    /// suggests a name from everything in scope: the variables actually
    /// supplied and the `for` iterators around the reference. So such an
    /// evaluation runs a program compiled for exactly the names it
    /// supplies (all of them when the names were inferred from the source,
    /// those also declared otherwise). Only failing evaluations take this
    /// path; the programs are remembered per name set.
    fn exact_context(&self, vars: &Variables) -> Option<Arc<Compiled>> {
        let names: Vec<String> = match &self.options.variables {
            None => vars.names().map(str::to_string).collect(),
            Some(declared) => vars.names().filter(|n| declared.binary_search_by(|d| d.as_str().cmp(n)).is_ok()).map(str::to_string).collect(),
        };
        if let Ok(cache) = self.exact.lock() {
            if let Some((_, c)) = cache.iter().find(|(n, _)| *n == names) {
                return Some(c.clone());
            }
        }
        let options = self.options.clone().variables(names.iter().cloned());
        let compiled = Arc::new(Compiled::compile(self.kind, &self.source.src, &options).ok()?);
        if let Ok(mut cache) = self.exact.lock() {
            if cache.len() >= EXACT_CONTEXTS {
                cache.clear();
            }
            cache.push((names, compiled.clone()));
        }
        Some(compiled)
    }

    fn evaluate_slots(&self, slots: &Vars, scratch: &mut Scratch) -> Evaluation {
        scratch.limits = self.limits;
        let result = match &self.code {
            Code::Single(program) => {
                let value = vm::evaluate(program, slots, scratch);
                let mut diagnostics = self.warnings.clone();
                diagnostics.extend(scratch.take_diags());
                Evaluated::Value(Outcome { value, diagnostics })
            }
            Code::Body(plan) => Evaluated::Body(evaluate_body(plan, &mut vm::BodyEvaluation::new(scratch, slots))),
        };
        let warnings = match self.kind {
            SourceKind::Body => self.warnings.clone(),
            _ => Vec::new(),
        };
        Evaluation { result, warnings, source: self.source.clone() }
    }
}

impl std::fmt::Debug for Compiled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Compiled")
            .field("kind", &self.kind)
            .field("filename", &self.source.filename)
            .field("variables", &self.var_names)
            .field("limits", &self.limits)
            .finish_non_exhaustive()
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

/// A buffer lent to a result writer, given back however the writing ends
/// (a panic included, so that `hclvm batch` keeps the lines written before
/// into the same buffer).
struct Lent<'o, 's> {
    w: ResultWriter<'s>,
    out: &'o mut String,
}

impl Drop for Lent<'_, '_> {
    fn drop(&mut self) {
        *self.out = std::mem::replace(&mut self.w, ResultWriter::new(&[])).into_string();
    }
}

/// The plan of every attribute (in source order) and every nested block,
/// taking the attributes' programs from `programs` in the order of
/// [`ast::Body::all_attribute_exprs`].
fn plan_body(programs: &mut impl Iterator<Item = Program>, body: &ast::Body<'_>, interner: &Interner) -> BodyPlan {
    BodyPlan {
        attrs: body
            .attributes_in_order()
            .into_iter()
            .filter_map(|a| {
                let references = variables(a.expr).iter().map(|t| render_traversal(t, interner)).collect();
                let info = AttrInfo::new(interner.resolve(a.name.name), references);
                Some((Arc::new(info), programs.next()?))
            })
            .collect(),
        blocks: body
            .blocks
            .iter()
            .map(|b| {
                let info = BlockInfo::new(interner.resolve(b.block_type.name), b.labels.iter().map(|l| Arc::from(&**l)).collect());
                (Arc::new(info), plan_body(programs, &b.body, interner))
            })
            .collect(),
    }
}

/// Evaluates a body as [`evaluate_body`] does and writes its result (the
/// `BODY` of a result line) as it goes; returns whether any attribute has
/// an error.
fn write_body_result(plan: &BodyPlan, run: &mut vm::BodyEvaluation<'_>, w: &mut ResultWriter<'_>) -> bool {
    let mut errors = false;
    w.raw("{\"attrs\":{");
    for (i, (info, program)) in plan.attrs.iter().enumerate() {
        if i > 0 {
            w.raw(",");
        }
        let value: Value = run.evaluate(program);
        let diagnostics = run.scratch().take_diags();
        errors |= diagnostics.has_errors();
        info.write_result(w, &value, &diagnostics);
    }
    w.raw("},\"blocks\":[");
    for (i, (info, body)) in plan.blocks.iter().enumerate() {
        if i > 0 {
            w.raw(",");
        }
        w.raw(info.json_head());
        errors |= write_body_result(body, run, w);
        w.raw("}");
    }
    w.raw("]}");
    errors
}

fn evaluate_body(plan: &BodyPlan, run: &mut vm::BodyEvaluation<'_>) -> BodyOutcome {
    BodyOutcome {
        attributes: plan
            .attrs
            .iter()
            .map(|(info, program)| {
                let value: Value = run.evaluate(program);
                AttributeOutcome { info: info.clone(), outcome: Outcome { value, diagnostics: run.scratch().take_diags() } }
            })
            .collect(),
        blocks: plan
            .blocks
            .iter()
            .map(|(info, body)| BlockOutcome { info: info.clone(), body: evaluate_body(body, run) })
            .collect(),
    }
}
