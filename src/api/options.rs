//! What a source is compiled against: functions, variable names, budgets.

use runtime::func::FunctionTable;
use runtime::Value;
use std::fmt;
use std::sync::{Arc, OnceLock};
use vm::{Limits, NamesOnly};

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
    pub(crate) functions: Functions,
    pub(crate) variables: Option<Vec<String>>,
    pub(crate) limits: Limits,
    pub(crate) filename: String,
}

/// Which functions calls resolve against.
#[derive(Clone)]
pub(crate) enum Functions {
    Table(Arc<dyn vm::FunctionTable>),
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
            Functions::Table(t) => format!("{} functions", t.names().len()),
            Functions::NotAllowed => "not allowed".to_string(),
        };
        f.debug_struct("Options")
            .field("functions", &functions)
            .field("variables", &self.variables)
            .field("limits", &self.limits)
            .field("filename", &self.filename)
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
            functions: Functions::Table(stdlib_table()),
            variables: None,
            limits: Limits::default(),
            filename: compiler::DEFAULT_FILENAME.to_string(),
        }
    }

    /// Calls resolve against `table`, and only against it, as in an hcl
    /// `EvalContext` whose `Functions` are that table. Start from
    /// [`FunctionTable::stdlib`] to keep the standard functions (with `try`
    /// and `can`), or from [`FunctionTable::empty`] for only your own (no
    /// `try` or `can` either unless you add them with
    /// [`FunctionTable::add_try_can`]); add host functions with
    /// [`FunctionTable::register`].
    ///
    /// ```
    /// use hclvm::{Compiled, FunctionTable, Options, Variables};
    ///
    /// let options = Options::new().functions(FunctionTable::empty());
    /// let call = Compiled::expression("upper(\"x\")", &options)?;
    /// let out = call.evaluate(&Variables::new());
    /// assert_eq!(out.diagnostics()[0].summary, "Call to unknown function");
    ///
    /// // An empty table has no `try` either, as in hcl; add it explicitly.
    /// let mut table = FunctionTable::empty();
    /// table.add_try_can().expect("not there yet");
    /// let guarded = Compiled::expression("try(nope, 7)", &Options::new().functions(table))?;
    /// assert_eq!(guarded.evaluate(&Variables::new()).value().and_then(|v| v.as_number()?.to_i64()), Some(7));
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn functions(mut self, table: FunctionTable) -> Options {
        let try_can = table.has_try_can();
        self.functions = Functions::Table(Arc::new(Library::new(table, try_can)));
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
        self.functions = Functions::NotAllowed;
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

    /// At most `units` of output per evaluation (string bytes and collection
    /// elements built).
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

    pub(crate) fn function_table(&self) -> Option<Arc<dyn vm::FunctionTable>> {
        match &self.functions {
            Functions::Table(t) => Some(t.clone()),
            Functions::NotAllowed => None,
        }
    }
}

/// The runtime's function library seen through the VM's [`FunctionTable`]
/// seam, plus `try` and `can`, which the compiler turns into special forms.
pub(crate) struct Library {
    table: runtime::func::FunctionTable,
    sigs: Vec<vm::Signature>,
    names: Vec<String>,
    with_try_can: bool,
}

impl Library {
    pub(crate) fn new(table: runtime::func::FunctionTable, with_try_can: bool) -> Library {
        let mut names: Vec<String> = table.names().map(str::to_string).collect();
        let sigs = (0..names.len())
            .map(|i| {
                let sig = table.signature(runtime::func::FuncId(i as u32));
                let conv = |p: &runtime::func::Param| vm::Param { name: p.name.clone(), ty: p.ty.clone() };
                vm::Signature { params: sig.params.iter().map(conv).collect(), var_param: sig.var_param.as_ref().map(conv) }
            })
            .collect();
        if with_try_can {
            names.push("try".into());
            names.push("can".into());
        }
        Library { table, sigs, names, with_try_can }
    }
}

impl vm::FunctionTable for Library {
    fn lookup(&self, name: &str) -> Option<u32> {
        if let Some(id) = self.table.lookup(name) {
            return Some(id.0);
        }
        match name {
            "try" | "can" if self.with_try_can => self.names.iter().position(|n| n == name).map(|i| i as u32),
            _ => None,
        }
    }
    fn names(&self) -> Vec<String> {
        self.names.clone()
    }
    fn signature(&self, id: u32) -> &vm::Signature {
        static NONE: OnceLock<vm::Signature> = OnceLock::new();
        self.sigs.get(id as usize).unwrap_or_else(|| NONE.get_or_init(vm::Signature::default))
    }
    fn is_builtin_try_can(&self, id: u32) -> bool {
        // The runtime table's own functions come first; `try` and `can`
        // are listed after them when the table has them.
        id as usize >= self.sigs.len()
    }
    fn is_pure(&self, id: u32) -> bool {
        (id as usize) < self.sigs.len() && self.table.is_pure(runtime::func::FuncId(id))
    }
    fn call(&self, id: u32, args: &[Value], size_budget: &mut u64) -> Result<Value, Box<vm::CallError>> {
        if id as usize >= self.sigs.len() {
            return Err(Box::new(vm::CallError {
                site: vm::ErrorSite::CallStart,
                summary: "Error in function call".into(),
                detail: "This function can only be called directly.".into(),
            }));
        }
        let mut budget = runtime::func::Budget::new(*size_budget);
        let r = self.table.call_converted(runtime::func::FuncId(id), args, &mut budget);
        *size_budget = budget.remaining();
        r.map_err(|e| Box::new(vm::CallError {
            site: match e.site {
                runtime::func::ErrorSite::Argument(i) => vm::ErrorSite::Argument(i),
                runtime::func::ErrorSite::WholeCall => vm::ErrorSite::WholeCall,
                runtime::func::ErrorSite::CallStart => vm::ErrorSite::CallStart,
                runtime::func::ErrorSite::CloseParen => vm::ErrorSite::CloseParen,
            },
            summary: e.summary,
            detail: e.detail,
        }))
    }
}

/// The table behind `"funcs": "stdlib"`: the runtime's standard library
/// plus `try` and `can`.
pub(crate) fn stdlib_table() -> Arc<dyn vm::FunctionTable> {
    static T: OnceLock<Arc<dyn vm::FunctionTable>> = OnceLock::new();
    T.get_or_init(|| Arc::new(Library::new(runtime::func::FunctionTable::stdlib(), true))).clone()
}

/// An empty table (every call is "Call to unknown function").
#[allow(dead_code)]
pub(crate) fn empty_table() -> Arc<dyn vm::FunctionTable> {
    static T: OnceLock<Arc<dyn vm::FunctionTable>> = OnceLock::new();
    T.get_or_init(|| Arc::new(NamesOnly::new(Vec::new()))).clone()
}

