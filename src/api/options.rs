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
    pub(crate) short_circuit: bool,
    pub(crate) deadline: Option<Duration>,
    pub(crate) cancel: Option<CancelToken>,
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
        Options {
            functions: Calls::Table(stdlib_table()),
            variables: None,
            limits: Limits::default(),
            filename: compiler::DEFAULT_FILENAME.to_string(),
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
    /// once per iteration); past it the evaluation fails with "Evaluation
    /// limit exceeded".
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

    /// At most `units` of output per evaluation, built by expressions and
    /// functions alike (strings cost their length in bytes, collection
    /// elements a fixed cost each: the unit is defined in
    /// [`runtime::func::budget`](crate::runtime::func::budget)). Past it the
    /// evaluation fails ("Evaluation limit exceeded", or "Error in function
    /// call" from a function that would exceed it).
    ///
    /// ```
    /// let options = hclvm::Options::new().max_size(100);
    /// let e = hclvm::Compiled::expression("join(\",\", [for i in range(100) : \"item-${i}\"])", &options)?;
    /// assert!(e.evaluate(&hclvm::Variables::new()).has_errors());
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
