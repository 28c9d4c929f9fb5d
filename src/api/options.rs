//! What a source is compiled against: functions, variable names, budgets.

use super::CancelToken;
use runtime::func::{FunctionTable, Functions};
use std::fmt;
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use vm::Limits;

/// Compilation settings: the function table, the names of the variables the
/// host will supply, evaluation budgets and the file name diagnostics use.
///
/// The defaults suit most hosts: the standard library (the 64 go-cty stdlib
/// functions plus `try` and `can`), variable names taken from the source
/// itself, [`Limits::default`] budgets and the file name `input.hcl`.
///
/// ```
/// use hclvm::{Compiled, Options, Variables};
///
/// let options = Options::new().variables(["name"]).max_steps(10_000).filename("greeting.hcl");
/// let greeting = Compiled::expression(r#""hello, ${name}""#, &options)?;
/// let out = greeting.evaluate(&Variables::new().with("name", "world"));
/// assert_eq!(out.value().and_then(|v| v.as_str()), Some("hello, world"));
/// # Ok::<(), hclvm::Error>(())
/// ```
#[derive(Clone)]
pub struct Options {
    pub(crate) functions: Calls,
    pub(crate) variables: Option<Vec<String>>,
    pub(crate) limits: Limits,
    pub(crate) filename: String,
    /// Declared variable types, in the order declared (a later
    /// declaration of a name replaces the earlier: [`Options::declared`]).
    pub(crate) declarations: Vec<Declaration>,
    /// The length of `declarations` at which repeated names are dropped.
    compact_declarations_at: usize,
    pub(crate) short_circuit: bool,
    pub(crate) deadline: Option<Duration>,
    pub(crate) cancel: Option<CancelToken>,
}

/// One variable declared with a type constraint ([`Options::declare`]).
#[derive(Clone, Debug)]
pub(crate) struct Declaration {
    pub(crate) name: String,
    /// The type constraint's source: its own text, or a file's text
    /// shared by the file's declarations.
    pub(crate) source: Arc<str>,
    /// Where the constraint is in `source`.
    pub(crate) range: std::ops::Range<usize>,
    /// The file name its diagnostics mention.
    pub(crate) filename: String,
}

/// Which of `declarations` is the last of its name (the one in effect).
fn last_of_each(declarations: &[Declaration]) -> Vec<bool> {
    let mut seen = std::collections::HashSet::new();
    let mut keep: Vec<bool> = declarations.iter().rev().map(|d| seen.insert(d.name.as_str())).collect();
    keep.reverse();
    keep
}

impl Declaration {
    /// The type constraint's text.
    pub(crate) fn constraint(&self) -> &str {
        self.source.get(self.range.clone()).unwrap_or("")
    }
}

/// Which functions calls resolve against.
#[derive(Clone)]
pub(crate) enum Calls {
    Table(Arc<dyn FunctionTable>),
    /// No table at all: every call is "Function calls not allowed".
    NotAllowed,
}

impl Default for Options {
    fn default() -> Options {
        Options::new()
    }
}

impl fmt::Debug for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let functions = match &self.functions {
            Calls::Table(t) => format!("{} functions", t.names().len() + if t.has_try_can() { 2 } else { 0 }),
            Calls::NotAllowed => "not allowed".to_string(),
        };
        f.debug_struct("Options")
            .field("functions", &functions)
            .field("variables", &self.variables)
            .field("limits", &self.limits)
            .field("filename", &self.filename)
            .field("declarations", &self.declared().iter().map(|d| (&d.name, d.constraint())).collect::<Vec<_>>())
            .field("short_circuit", &self.short_circuit)
            .field("deadline", &self.deadline)
            .field("cancel", &self.cancel.as_ref().map(CancelToken::is_cancelled))
            .finish()
    }
}

impl Options {
    /// The defaults: standard library, variables from the source, default
    /// limits, file name `input.hcl`.
    ///
    /// ```
    /// let options = hclvm::Options::new();
    /// let sum = hclvm::Compiled::expression("max(1, 5, 3)", &options)?;
    /// assert_eq!(sum.evaluate(&hclvm::Variables::new()).value().and_then(|v| v.as_number()?.to_i64()), Some(5));
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn new() -> Options {
        super::templatefile::install();
        Options {
            functions: Calls::Table(stdlib_table()),
            variables: None,
            limits: Limits::default(),
            filename: compiler::DEFAULT_FILENAME.to_string(),
            declarations: Vec::new(),
            compact_declarations_at: 64,
            short_circuit: false,
            deadline: None,
            cancel: None,
        }
    }

    /// Calls resolve against `table`, and only against it, as in an hcl
    /// `EvalContext` whose `Functions` are that table. Start from
    /// [`Functions::stdlib`](crate::Functions::stdlib) to keep the standard functions (with `try`
    /// and `can`), or from [`Functions::empty`](crate::Functions::empty) for only your own (no
    /// `try` or `can` either unless you add them with
    /// [`Functions::add_try_can`](crate::Functions::add_try_can)); add host functions with
    /// [`Functions::register`](crate::Functions::register). Any other [`FunctionTable`] works too.
    ///
    /// ```
    /// use hclvm::{Compiled, Functions, Options, Variables};
    ///
    /// let options = Options::new().functions(Functions::empty());
    /// let call = Compiled::expression("upper(\"x\")", &options)?;
    /// let out = call.evaluate(&Variables::new());
    /// assert_eq!(out.diagnostics()[0].summary, "Call to unknown function");
    ///
    /// // An empty table has no `try` either, as in hcl; add it explicitly.
    /// let mut table = Functions::empty();
    /// table.add_try_can().expect("not there yet");
    /// let guarded = Compiled::expression("try(nope, 7)", &Options::new().functions(table))?;
    /// assert_eq!(guarded.evaluate(&Variables::new()).value().and_then(|v| v.as_number()?.to_i64()), Some(7));
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn functions(mut self, table: impl FunctionTable + 'static) -> Options {
        self.functions = Calls::Table(Arc::new(table));
        self
    }

    /// No function table at all: any call is an error ("Function calls not
    /// allowed"), as in an hcl `EvalContext` without functions.
    ///
    /// ```
    /// let options = hclvm::Options::new().without_functions();
    /// let call = hclvm::Compiled::expression("max(1, 2)", &options)?;
    /// assert!(call.evaluate(&hclvm::Variables::new()).has_errors());
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn without_functions(mut self) -> Options {
        self.functions = Calls::NotAllowed;
        self
    }

    /// The names of the variables the host will supply. A reference to any
    /// other name is an "Unknown variable" error (with hcl's "Did you mean"
    /// suggestion among these names). Without this call, every root name
    /// the source references is declared, and one left out of an
    /// evaluation's [`Variables`](crate::Variables) is reported then.
    ///
    /// ```
    /// let options = hclvm::Options::new().variables(["name"]);
    /// let e = hclvm::Compiled::expression("nmae", &options)?;
    /// let out = e.evaluate(&hclvm::Variables::new().with("name", "x"));
    /// assert_eq!(out.diagnostics()[0].detail, "There is no variable named \"nmae\". Did you mean \"name\"?");
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn variables<I, S>(mut self, names: I) -> Options
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut names: Vec<String> = names.into_iter().map(Into::into).collect();
        names.sort_unstable();
        names.dedup();
        self.variables = Some(names);
        self
    }

    /// Declares variable `name` with a type constraint in HCL's type
    /// syntax, as a Terraform or Packer `variable` block's `type`: `string`,
    /// `number`, `bool`, `any`, `list(T)`, `set(T)`, `map(T)`,
    /// `tuple([T, ...])`, `object({attr = T, ...})`, whose attributes may
    /// be `optional(T)` or `optional(T, DEFAULT)`. The constraint is read
    /// as hcl's `typeexpr.TypeConstraintWithDefaults` reads it, when
    /// compiling: one that does not parse or is not a valid type fails the
    /// compilation with [`Error::Declaration`](crate::Error::Declaration)
    /// (positions within the constraint text, file name `declare.NAME`).
    ///
    /// Then every evaluation gives the variable its declared type: a value
    /// given for it gets the constraint's defaults (missing or null
    /// optional attributes take their default), then is converted to the
    /// type; a value that does not fit is reported, and nothing is
    /// evaluated ([`Error::InvalidVariables`](crate::Error::InvalidVariables)
    /// from [`Evaluation::check`](crate::Evaluation::check)). A declared
    /// variable that is not given is an unknown value of its type, so
    /// evaluating without inputs checks the program against the declared
    /// types ([`Compiled::validate`](crate::Compiled::validate)).
    ///
    /// Declaring variables also declares their names: the variables of
    /// the program are the declared ones (and those given to
    /// [`Options::variables`]), and any other name is an "Unknown
    /// variable". Declaring a name again replaces its type.
    ///
    /// ```
    /// use hclvm::{Compiled, Options, Variables};
    ///
    /// let options = Options::new().declare("request", "object({user = string, amount = number, tags = optional(map(string), {})})");
    /// let rule = Compiled::expression("request.amount <= 100 && length(request.tags) == 0", &options)?;
    ///
    /// // "12" converts to the number 12; the missing tags take their default.
    /// let out = rule.evaluate_json(&serde_json::json!({"request": {"user": "ann", "amount": "12"}}))?;
    /// assert_eq!(out.value().and_then(|v| v.as_bool()), Some(true));
    ///
    /// // A value that does not fit the type is rejected before evaluation.
    /// let out = rule.evaluate_json(&serde_json::json!({"request": {"user": "ann", "amount": "lots"}}))?;
    /// let d = &out.diagnostics()[0];
    /// assert_eq!(d.summary, "Invalid value for variable");
    /// assert_eq!(d.detail, "The value for variable \"request\" is not suitable: .amount: a number is required.");
    /// assert!(matches!(out.check(), Err(hclvm::Error::InvalidVariables(_))));
    ///
    /// // Not given: an unknown of the declared type.
    /// let out = rule.evaluate(&Variables::new());
    /// assert!(!out.value().unwrap().is_known());
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn declare(self, name: impl Into<String>, type_constraint: impl Into<String>) -> Options {
        let name = name.into();
        let filename = format!("declare.{name}");
        self.declare_in(name, type_constraint, filename)
    }

    /// Several [`Options::declare`] at once, from `(name, type constraint)`
    /// pairs.
    ///
    /// ```
    /// let options = hclvm::Options::new().declarations([("region", "string"), ("replicas", "number")]);
    /// let e = hclvm::Compiled::expression("\"${region}-${replicas}\"", &options)?;
    /// let out = e.evaluate_json(&serde_json::json!({"region": "eu", "replicas": "3"}))?;
    /// assert_eq!(out.value().and_then(|v| v.as_str()), Some("eu-3"));
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn declarations<I, N, T>(self, declarations: I) -> Options
    where
        I: IntoIterator<Item = (N, T)>,
        N: Into<String>,
        T: Into<String>,
    {
        declarations.into_iter().fold(self, |o, (n, t)| o.declare(n, t))
    }

    /// [`Options::declare`] with the constraint's diagnostics naming file
    /// `filename` instead of `declare.NAME` (a host that read the
    /// constraint from a file of its own; positions are within the
    /// constraint's text).
    ///
    /// ```
    /// let options = hclvm::Options::new().declare_in("n", "numbr", "vars.hcl");
    /// let Err(hclvm::Error::Declaration(errors)) = hclvm::Compiled::expression("n", &options) else { panic!() };
    /// assert_eq!(errors[0].to_string(), "vars.hcl:1,1-6: Invalid type specification; The keyword \"numbr\" is not a valid type specification.");
    /// ```
    pub fn declare_in(self, name: impl Into<String>, type_constraint: impl Into<String>, filename: impl Into<String>) -> Options {
        let source: Arc<str> = Arc::from(type_constraint.into());
        let range = 0..source.len();
        self.declare_at(name.into(), source, range, filename.into())
    }

    /// [`Options::declare_in`] of the constraint at `range` of `source`, a
    /// file of declarations whose every declaration shares its text (how
    /// `hclvm --declarations` reads a file: in place, with the file's
    /// positions, and in time linear in the file).
    pub(crate) fn declare_at(mut self, name: String, source: Arc<str>, range: std::ops::Range<usize>, filename: String) -> Options {
        self.declarations.push(Declaration { name, source, range, filename });
        // A host declaring the same names again and again keeps only the
        // last of each: compacted once the list is twice what was kept the
        // last time (linear in all).
        if self.declarations.len() >= self.compact_declarations_at {
            let mut last = last_of_each(&self.declarations).into_iter();
            self.declarations.retain(|_| last.next().unwrap_or(true));
            self.compact_declarations_at = (2 * self.declarations.len()).max(64);
        }
        self
    }

    /// The declarations in effect, by name: the last of each name.
    pub(crate) fn declared(&self) -> Vec<&Declaration> {
        let keep = last_of_each(&self.declarations);
        let mut last: Vec<&Declaration> = self.declarations.iter().zip(keep).filter_map(|(d, k)| k.then_some(d)).collect();
        last.sort_unstable_by(|a, b| a.name.cmp(&b.name));
        last
    }

    /// All evaluation budgets at once (see [`Limits`]).
    ///
    /// ```
    /// let strict = hclvm::Limits { max_steps: 100, max_size: 1 << 10 };
    /// let e = hclvm::Compiled::expression("[for i in range(50) : i * i]", &hclvm::Options::new().limits(strict))?;
    /// assert!(e.evaluate(&hclvm::Variables::new()).has_errors());
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn limits(mut self, limits: Limits) -> Options {
        self.limits = limits;
        self
    }

    /// At most `steps` evaluation steps per evaluation (loop bodies count
    /// once per iteration; a body's attributes count together); past it
    /// the evaluation fails with "Evaluation limit exceeded".
    ///
    /// ```
    /// let options = hclvm::Options::new().max_steps(1_000);
    /// let e = hclvm::Compiled::expression("[for i in range(1000) : [for j in range(1000) : i * j]]", &options)?;
    /// assert_eq!(e.evaluate(&hclvm::Variables::new()).diagnostics()[0].summary, "Evaluation limit exceeded");
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn max_steps(mut self, steps: u64) -> Options {
        self.limits.max_steps = steps;
        self
    }

    /// At most `units` of output per evaluation (a body's attributes
    /// together), built by expressions and functions alike, diagnostics
    /// included (strings cost their length in bytes, collection
    /// elements a fixed cost each: the unit is defined in
    /// [`runtime::func::budget`](crate::runtime::func::budget)). Past it the
    /// evaluation ends with the error "Evaluation limit exceeded": about
    /// the call, with the function's own detail, when a function would
    /// exceed it; else about the whole expression.
    ///
    /// ```
    /// let options = hclvm::Options::new().max_size(100);
    /// let e = hclvm::Compiled::expression("join(\",\", [for i in range(100) : \"item-${i}\"])", &options)?;
    /// let out = e.evaluate(&hclvm::Variables::new());
    /// assert_eq!(out.diagnostics().len(), 1);
    /// assert_eq!(out.diagnostics()[0].summary, "Evaluation limit exceeded");
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn max_size(mut self, units: u64) -> Options {
        self.limits.max_size = units;
        self
    }

    /// At most `time` per evaluation: an evaluation still running when it
    /// has passed fails with "Evaluation limit exceeded" ("The expression
    /// needs more time than this evaluation allows."). The clock starts
    /// when the evaluation does (a body's attributes share one deadline)
    /// and is read where the step budget is counted, every thousand or so
    /// steps (block runs, loop iterations), so the evaluation ends within a
    /// few microseconds of the deadline unless one function call takes
    /// longer. Without it (the default) no clock is read.
    ///
    /// ```
    /// use hclvm::{Compiled, Options, Value, Variables};
    /// use std::time::Duration;
    ///
    /// let options = Options::new().deadline(Duration::from_millis(10)).max_steps(u64::MAX).max_size(u64::MAX);
    /// // Ten billion loop iterations: hours, were it not for the deadline.
    /// let e = Compiled::expression("[for x in xs : x if length([for y in xs : y if y < 0]) > 0]", &options)?;
    /// let xs = Value::tuple((0..100_000).map(Value::int).collect());
    /// let out = e.evaluate(&Variables::new().with("xs", xs));
    /// assert_eq!(out.diagnostics()[0].summary, "Evaluation limit exceeded");
    /// assert_eq!(out.diagnostics()[0].detail, "The expression needs more time than this evaluation allows.");
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn deadline(mut self, time: Duration) -> Options {
        self.deadline = Some(time);
        self
    }

    /// Every evaluation of what these options compile watches `token`:
    /// once it is cancelled (from any thread), running evaluations end
    /// with the error "Evaluation cancelled", and so do later ones (to
    /// cancel one evaluation of a shared program, give a token to
    /// [`Compiled::evaluate_cancellable`](crate::Compiled::evaluate_cancellable) instead).
    ///
    /// ```
    /// let shutdown = hclvm::CancelToken::new();
    /// let e = hclvm::Compiled::expression("[for x in xs : x * 2]", &hclvm::Options::new().cancel_token(shutdown.clone()))?;
    /// let vars = hclvm::Variables::from_json_str(r#"{"xs": [1, 2, 3]}"#)?;
    /// assert!(!e.evaluate(&vars).has_errors());
    /// shutdown.cancel();
    /// assert_eq!(e.evaluate(&vars).diagnostics()[0].summary, "Evaluation cancelled");
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn cancel_token(mut self, token: CancelToken) -> Options {
        self.cancel = Some(token);
        self
    }

    /// The file name diagnostics mention (default `input.hcl`).
    ///
    /// ```
    /// let e = hclvm::Compiled::expression("x", &hclvm::Options::new().filename("policy.hcl"))?;
    /// let err = e.evaluate(&hclvm::Variables::new()).check().unwrap_err();
    /// assert!(err.to_string().starts_with("policy.hcl:1,1-2: Unknown variable"));
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn filename(mut self, name: impl Into<String>) -> Options {
        self.filename = name.into();
        self
    }

    /// Short-circuit `&&` and `||`, as hcl evaluates them since v2.21
    /// (hashicorp/hcl #713 and #719) instead of as the reference, hcl
    /// v2.20.0, does (off by default; results are then the reference's).
    ///
    /// With it, the operand that decides the result makes it, and only
    /// that operand's diagnostics are reported: `v != null && v.x > 0`
    /// is `false` when `v` is null, where v2.20 reports "Attempt to get
    /// attribute from null value". In detail, after both operands are
    /// converted to bool (an operand that does not convert is still an
    /// error, `false && "x"` included):
    ///
    /// - a known `false` (for `&&`) or `true` (for `||`) on either side
    ///   decides, left first, with that side's diagnostics; a `null`
    ///   counts as false, so `null && x` is `false`;
    /// - with one side unknown and the other known and not deciding, the
    ///   result is an unknown bool (known not to be null) with the unknown
    ///   side's diagnostics;
    /// - with both sides unknown, the result is an unknown bool with the
    ///   left side's diagnostics, unless the left side reported errors:
    ///   then both sides' diagnostics are reported.
    ///
    /// The right operand is not evaluated when the left one decides and
    /// the right one is sure to give a bool (a comparison, `!`, `&&`,
    /// `||`, `can(...)`, a bool constant, or a conditional of these);
    /// other right operands are evaluated for their type, as hcl does,
    /// and their diagnostics dropped. Every other binary operator then also
    /// lists an operand's conversion error ("Invalid operand") before the
    /// operands' own diagnostics, as hcl's later `BinaryOpExpr` does.
    ///
    /// ```
    /// use hclvm::{Compiled, Options, Value, Variables};
    ///
    /// let guard = "v != null && v.x > 0";
    /// let vars = Variables::new().with("v", Value::null(hclvm::Type::Dynamic));
    ///
    /// // hcl v2.20.0 (the default) evaluates both sides.
    /// let both = Compiled::expression(guard, &Options::new())?;
    /// assert_eq!(both.evaluate(&vars).diagnostics()[0].summary, "Attempt to get attribute from null value");
    ///
    /// let short = Compiled::expression(guard, &Options::new().short_circuit(true))?;
    /// assert_eq!(short.evaluate(&vars).value().and_then(|v| v.as_bool()), Some(false));
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn short_circuit(mut self, on: bool) -> Options {
        self.short_circuit = on;
        self
    }

    pub(crate) fn function_table(&self) -> Option<Arc<dyn FunctionTable>> {
        match &self.functions {
            Calls::Table(t) => Some(t.clone()),
            Calls::NotAllowed => None,
        }
    }
}

/// The standard library (with `try` and `can`), built once per process.
fn stdlib_table() -> Arc<dyn FunctionTable> {
    static T: OnceLock<Arc<dyn FunctionTable>> = OnceLock::new();
    T.get_or_init(|| Arc::new(Functions::stdlib())).clone()
}
