//! Evaluating a compiled source, and writing its results.

use super::compile::{lower_code, parse, source_info, write_references, Tree, COMPILE_STACK, COMPILE_STACK_RED_ZONE};
use super::*;

impl Compiled {
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

    pub(super) fn write_once_here(kind: SourceKind, src: &[u8], options: &Options, vars: &Variables, out: &mut String) -> bool {
        let arena = bumpalo::Bump::new();
        let mut interner = Interner::for_source(src.len());
        let (parsed, warnings, crash) = parse(&arena, kind, src, options, &mut interner);
        if crash {
            return true;
        }
        // Result lines place diagnostics by position alone: no block
        // headers.
        let source = source_info(kind, src, None, options, Default::default());
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
        // Conversions here are not an evaluation's: no call's allowance
        // (one a caught panic left) limits them.
        runtime::work::reset();
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
    pub(super) fn evaluate_bound_watching(&self, vars: &BoundVariables, cancel: Option<&AtomicBool>) -> Evaluation<'_> {
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
    pub(super) fn interrupts<'s>(&'s self, extra: Option<&'s AtomicBool>) -> Option<Interrupts<'s>> {
        if self.watch.is_none() && extra.is_none() {
            return None;
        }
        Some(self.watch_interrupts(extra))
    }

    #[cold]
    pub(super) fn watch_interrupts<'s>(&'s self, extra: Option<&'s AtomicBool>) -> Interrupts<'s> {
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
    pub(super) fn slots<'v>(&self, vars: &'v BoundVariables) -> Cow<'v, Vars> {
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
    pub(super) fn write_slots_result(&self, slots: &Vars, scratch: &mut Scratch, out: &mut String) -> bool {
        scratch.limits = self.limits;
        write_lent(out, |buf| self.source.result_writer(buf), |w| self.write_code_result(slots, scratch, w))
    }

    /// The result of the program (or body) on `slots`, written by `w`.
    pub(super) fn write_code_result(&self, slots: &Vars, scratch: &mut Scratch, w: &mut ResultWriter<'_>) -> bool {
        let stop = self.interrupts(None);
        match &self.code {
            Code::Single(program) => {
                let value = vm::run(program, slots, scratch, stop.as_ref()).value(scratch);
                write_single_outcome(w, &value, &self.warnings, scratch)
            }
            Code::Body(plan) => {
                let mut run = vm::BodyEvaluation::with_interrupts(scratch, slots, stop.as_ref());
                write_body_outcome(w, &self.warnings, |w| write_body_result(plan.body(), &mut run, w))
            }
        }
    }

    // Inlined into its callers: one frame less, and the result built in
    // place, for the per-evaluation cost of small programs.
    #[inline]
    pub(super) fn evaluate_slots(&self, slots: &Vars, scratch: &mut Scratch, cancel: Option<&AtomicBool>) -> Evaluation<'_> {
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
                let mut outcomes = Vec::with_capacity(plan.attribute_count());
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

/// [`write_body_result`] straight from the syntax tree, for
/// [`Compiled::write_once`]: the programs of `body`'s attributes come first
/// in `programs` (in the order of [`ast::Body::all_attribute_exprs`]), and
/// each body takes its own off the front.
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
        result_format::write_block_head(w.text(), interner.resolve(b.block_type.name), b.labels);
        write_body_once(&b.body, programs, run, w, interner);
        w.raw("}");
    };
    let mut cx = (run, programs);
    result_format::write_body(w, &mut cx, body.attributes.iter().zip(own), body.blocks, attr, block);
}

/// Evaluates a body as [`evaluate_body`] does and writes its result (the
/// `BODY` of a result line) as it goes; returns whether any attribute has
/// an error.
fn write_body_result(plan: BodyPlan<'_>, run: &mut vm::BodyEvaluation<'_>, w: &mut ResultWriter<'_>) -> bool {
    let mut cx = (run, false);
    result_format::write_body(
        w,
        &mut cx,
        plan.attrs().zip(plan.programs()),
        plan.blocks(),
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

/// Evaluates every attribute of `plan` in its order into `out`: a body's
/// own attributes, then each block's, depth first (the programs' order).
fn evaluate_body(plan: &FilePlan, run: &mut vm::BodyEvaluation<'_>, out: &mut Vec<Outcome>) {
    for program in plan.programs() {
        let ran = run.run(program);
        let scratch = run.scratch();
        let diagnostics: OutcomeDiagnostics = with_warnings(&[], scratch).into();
        // The value taken last, into its place in `out` (see `vm::run`).
        out.extend(std::iter::once_with(|| Outcome { value: ran.value(scratch), diagnostics }));
    }
}
