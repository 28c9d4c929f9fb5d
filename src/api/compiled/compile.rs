//! Compiling: parsing, lowering and planning a source, once.

use super::*;
use std::collections::HashMap;

/// Stack a compilation may need at the parser's nesting limit (debug
/// builds use several times what release builds do).
pub(super) const COMPILE_STACK_RED_ZONE: usize = 16 << 20;
pub(super) const COMPILE_STACK: usize = 64 << 20;

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
    pub(super) fn compile_here(
        kind: SourceKind,
        src: &[u8],
        shared: Option<&Arc<[u8]>>,
        options: &Options,
    ) -> (Result<Compiled, Error>, bool) {
        let (compiled, crash) = Compiled::compile_inspecting(kind, src, shared, options, |_, _, _| Ok::<(), std::convert::Infallible>(()));
        (compiled.unwrap_or_else(|never| match never {}), crash)
    }

    /// [`Compiled::compile`] with a look at the parsed tree before it is
    /// lowered: `inspect` sees the tree, its interner and the parser's
    /// diagnostics, and its error ends the compilation. (Packer's
    /// `templatefile` checks a template's variables against its
    /// arguments first, on the one parse.) The source is shared, not
    /// copied.
    pub(crate) fn compile_inspected<E>(
        kind: SourceKind,
        src: &Arc<[u8]>,
        options: &Options,
        inspect: impl FnOnce(Tree<'_>, &Interner, &[Diagnostic]) -> Result<(), E>,
    ) -> Result<Result<Compiled, Error>, E> {
        stacker::maybe_grow(COMPILE_STACK_RED_ZONE, COMPILE_STACK, || {
            Compiled::compile_inspecting(kind, src, Some(src), options, inspect).0
        })
    }

    /// [`Compiled::compile_here`] with [`Compiled::compile_inspected`]'s look.
    fn compile_inspecting<E>(
        kind: SourceKind,
        src: &[u8],
        shared: Option<&Arc<[u8]>>,
        options: &Options,
        inspect: impl FnOnce(Tree<'_>, &Interner, &[Diagnostic]) -> Result<(), E>,
    ) -> (Result<Result<Compiled, Error>, E>, bool) {
        // Declarations first, as a host reads its variable declarations
        // before the configuration.
        let declared = match read_declarations(options) {
            Ok(d) => d,
            Err(e) => return (Ok(Err(e)), false),
        };
        // The syntax tree lives in this block: code generation, after it,
        // needs none of it.
        let (lowered, crash) = {
            let arena = bumpalo::Bump::new();
            let mut interner = Interner::for_source(src.len());
            let (parsed, diags, crash) = parse(&arena, kind, src, options, &mut interner);
            let lowered = parsed.with_tree(|tree| {
                inspect(tree, &interner, &diags)?;
                Ok(Compiled::lower(kind, src, shared, options, tree, diags, &interner, declared))
            });
            (lowered, crash)
        };
        (lowered.map(|l| l.map(LoweredSource::compile)), crash)
    }

    /// Lowers a parsed tree (`diags` are the parser's), for code
    /// generation once the tree is dropped.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn lower(
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
            Tree::Body(body) => BlockHeaders::of(body, interner),
            Tree::Expr(_) => BlockHeaders::default(),
        };
        let source = source_info(kind, src, shared, options, block_headers);
        if diags.has_errors() {
            return Err(Error::Compile(Diagnostics::new(diags, source)));
        }
        let (var_names, code, static_diags) = lower_code(tree, interner, options, &source, &declared);
        let plan = match tree {
            Tree::Body(b) => match plan_body(b, interner) {
                Ok(plan) => Some(plan),
                Err(PlanTooLarge) => {
                    let d = Diagnostic::error(
                        "Source too large",
                        "The names of this body's attributes, or the names and labels of its blocks, are too long to compile together.",
                        None,
                    );
                    return Err(Error::Compile(Diagnostics::new(vec![d], source)));
                }
            },
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
            code: Code::Body(FilePlan::default()),
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
}

/// A parsed source; a file body keeps its attribute and block lists in
/// vectors of its own, not the arena.
pub(super) enum Parsed<'a> {
    Body(compiler::FileBody<'a>),
    Expr(&'a ast::Expr<'a>),
}

impl Parsed<'_> {
    /// Runs `f` on the tree (a body's view borrows its lists).
    pub(super) fn with_tree<R>(&self, f: impl FnOnce(Tree<'_>) -> R) -> R {
        match self {
            Parsed::Body(b) => f(Tree::Body(&b.body())),
            Parsed::Expr(e) => f(Tree::Expr(e)),
        }
    }
}

/// Parses `src` as `kind`: the tree, the parser's diagnostics, and whether
/// the reference parser crashes on it (see `compiler::Parse`).
pub(super) fn parse<'a>(
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
pub(super) fn source_info(
    kind: SourceKind,
    src: &[u8],
    shared: Option<&Arc<[u8]>>,
    options: &Options,
    block_headers: BlockHeaders,
) -> Arc<SourceInfo> {
    Arc::new(SourceInfo {
        filename: Arc::from(options.filename.as_str()),
        src: shared.cloned().unwrap_or_else(|| Arc::from(src)),
        block_headers,
        template: kind == SourceKind::Template,
        lines: Default::default(),
    })
}

/// The variable names (in slot order) of a tree without syntax errors,
/// its expression or its body's attributes lowered (in the order of
/// [`ast::Body::all_attribute_exprs`]), and the static problems lowering
/// found.
pub(super) fn lower_code(
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
    let lines = source.source_lines().clone();
    let (lowered, found) = match tree {
        Tree::Expr(e) => lower_all_noting(std::iter::once(e), interner, &env, &lines),
        Tree::Body(b) => lower_all_noting(b.all_attribute_exprs(), interner, &env, &lines),
    };
    (var_names, LoweredCode { lowered, env, lines }, found)
}

/// Lowered expressions, owning all code generation needs (the syntax tree
/// may be gone).
pub(super) struct LoweredCode {
    lowered: Lowered,
    env: CompileEnv,
    lines: Arc<vm::program::SourceLines>,
}

impl LoweredCode {
    /// One program per expression, in one chunk of bytecode for the whole
    /// file (sealed when `file` drops).
    pub(super) fn compile(self) -> Vec<Program> {
        let mut file = vm::codegen::FileCode::new();
        let programs = self.lowered.compile(&mut file, &self.env, &self.lines);
        drop(file);
        programs
    }
}

#[derive(Clone, Copy)]
pub(crate) enum Tree<'a> {
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
pub(super) struct LoweredSource {
    /// Everything but the code.
    compiled: Compiled,
    code: LoweredCode,
    /// A body's plan, without its programs yet (`None`: an expression).
    plan: Option<FilePlan>,
}

impl LoweredSource {
    pub(super) fn compile(self) -> Compiled {
        let LoweredSource { mut compiled, code, plan } = self;
        let mut programs = code.compile();
        compiled.code = match plan {
            None => Code::Single(programs.pop().expect("one program per expression")),
            Some(mut plan) => {
                plan.attach_programs(programs);
                Code::Body(plan)
            }
        };
        compiled
    }
}

/// The plan of every attribute and block of a file's body, without
/// programs ([`FilePlan::attach_programs`] adds them).
fn plan_body(body: &ast::Body<'_>, interner: &Interner) -> Result<FilePlan, PlanTooLarge> {
    // Sized at once: one walk counts both lists.
    let (mut attrs, mut bodies) = (0, 1);
    let mut stack = vec![body];
    while let Some(b) = stack.pop() {
        attrs += b.attributes.len();
        bodies += b.blocks.len();
        stack.extend(b.blocks.iter().map(|blk| &blk.body));
    }
    let mut plan = PlanBuilder::with_capacity(attrs, bodies);
    let top = plan.open(None, body.attributes.len(), body.blocks.len())?;
    plan_body_into(&mut plan, top, body, interner, &mut HashMap::new())?;
    Ok(plan.finish())
}

/// Adds body `at`'s attributes and blocks to `plan` and closes it; the
/// blocks of one type share its name (`types`).
fn plan_body_into(
    plan: &mut PlanBuilder,
    at: u32,
    body: &ast::Body<'_>,
    interner: &Interner,
    types: &mut HashMap<compiler::Symbol, u32>,
) -> Result<(), PlanTooLarge> {
    for a in body.attributes {
        plan.attr(interner.resolve(a.name.name), references_json(a.expr, interner))?;
    }
    for b in body.blocks {
        let block_type = *types.entry(b.block_type.name).or_insert_with(|| plan.add_type(interner.resolve(b.block_type.name)));
        let inner = plan.open(Some((block_type, b.labels)), b.body.attributes.len(), b.body.blocks.len())?;
        plan_body_into(plan, inner, &b.body, interner, types)?;
    }
    plan.close(at);
    Ok(())
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
pub(super) fn write_references(out: &mut String, expr: &ast::Expr<'_>, interner: &Interner) -> bool {
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
