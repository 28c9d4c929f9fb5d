//! Compiling a source once and evaluating it many times: the `Compiled`
//! driver (`compile.rs`: parsing, lowering and planning; `evaluate.rs`:
//! evaluating and writing results).

use super::error::{Diagnostics, Error, SourceInfo};
use super::outcome::{Evaluated, Evaluation, Outcome, OutcomeDiagnostics};
use super::plan::{BodyPlan, FilePlan, PlanBuilder, PlanTooLarge};
use super::result_format::{self, write_lent, write_value_result, ResultWriter};
use super::variables::Variables;
use super::{CancelToken, Options};
use crate::diagnostic_text::BlockHeaders;
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
    Body(FilePlan),
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

/// Reads the declarations' type constraints, in name order. Those read
/// from one file share its text, its line index (the programs of their
/// defaults keep it) and, in diagnostics, its source.
fn read_declarations(options: &Options) -> Result<Vec<(String, runtime::Type, Option<runtime::Defaults>)>, Error> {
    let declared = options.declared();
    let mut read = Vec::with_capacity(declared.len());
    let mut errors = Vec::new();
    type Shared = (compiler::typeexpr::SharedLines, Option<Arc<SourceInfo>>);
    let mut sources: std::collections::HashMap<(*const u8, &str), Shared> = std::collections::HashMap::new();
    for d in declared {
        let (lines, info) = sources.entry((d.source.as_ptr(), d.filename.as_str())).or_default();
        let c = compiler::typeexpr::type_constraint_with_defaults_at(d.source.as_bytes(), d.range.clone(), &d.filename, lines);
        if c.has_errors() {
            let source = info.get_or_insert_with(|| {
                Arc::new(SourceInfo {
                    filename: Arc::from(d.filename.as_str()),
                    src: Arc::<[u8]>::from(d.source.clone()),
                    block_headers: Default::default(),
                    template: false,
                    lines: Default::default(),
                })
            });
            errors.push(Diagnostics::new(c.diagnostics, source.clone()));
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
            Code::Body(b) => match b.programs().first() {
                Some(p) => p.chunk().attr_names(),
                None => NONE.get_or_init(runtime::AttrNames::new),
            },
        }
    }
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

mod compile;
pub(crate) use compile::Tree;
mod evaluate;

impl Compiled {
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
            Code::Body(plan) => disassemble_body(plan.body(), "", &mut None, &mut out),
        }
        out
    }

    /// The source and what places diagnostics in it.
    pub(crate) fn source(&self) -> &Arc<SourceInfo> {
        &self.source
    }

    /// The body's plan, when a body was compiled.
    pub(crate) fn plan(&self) -> Option<BodyPlan<'_>> {
        match &self.code {
            Code::Body(plan) => Some(plan.body()),
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

/// Each attribute's listing under its path, attributes before blocks
/// (the order they were compiled in: `previous` is the program listed
/// last, which tells where the next one's part of the chunk starts).
fn disassemble_body<'p>(plan: BodyPlan<'p>, path: &str, previous: &mut Option<&'p Program>, out: &mut String) {
    for (info, program) in plan.attrs().zip(plan.programs()) {
        out.push_str(path);
        out.push_str(info.name());
        out.push_str(":\n");
        out.push_str(&vm::disasm::disassemble_after(program, *previous));
        *previous = Some(program);
    }
    for (info, body) in plan.blocks() {
        let mut p = format!("{path}{}", info.block_type());
        for l in info.labels() {
            p.push_str(&format!(" {l:?}"));
        }
        p.push_str(" / ");
        disassemble_body(body, &p, previous, out);
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
