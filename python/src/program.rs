//! Compiled programs, evaluations and diagnostics.

use crate::convert::{to_py, variables, Numbers};
use hclvm::{Compiled, Options, Severity, SourceKind, Value, Variables};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use std::sync::Arc;

/// One diagnostic: an error or a warning, worded as hcl words it, with the
/// source range it is about (`start` and `end` are `(line, column, byte)`,
/// lines and columns from 1 as hcl counts them; `None` when it has no
/// range).
#[pyclass(frozen, module = "hclvm")]
#[derive(Clone)]
pub struct Diagnostic {
    #[pyo3(get)]
    severity: &'static str,
    #[pyo3(get)]
    summary: String,
    #[pyo3(get)]
    detail: String,
    #[pyo3(get)]
    filename: String,
    #[pyo3(get)]
    start: Option<(u32, u32, u32)>,
    #[pyo3(get)]
    end: Option<(u32, u32, u32)>,
}

#[pymethods]
impl Diagnostic {
    /// `file:line,col-col: summary; detail`, as hcl prints a diagnostic on
    /// one line.
    fn __str__(&self) -> String {
        let place = match (self.start, self.end) {
            (Some(a), Some(b)) if a.0 == b.0 => format!("{}:{},{}-{}: ", self.filename, a.0, a.1, b.1),
            (Some(a), Some(b)) => format!("{}:{},{}-{},{}: ", self.filename, a.0, a.1, b.0, b.1),
            _ => String::new(),
        };
        if self.detail.is_empty() {
            format!("{place}{}", self.summary)
        } else {
            format!("{place}{}; {}", self.summary, self.detail)
        }
    }

    fn __repr__(&self) -> String {
        format!("<hclvm.Diagnostic {} {:?} at {:?}>", self.severity, self.summary, self.start)
    }
}

fn diagnostic(d: &hclvm::Diagnostic, filename: &str, range: impl Fn(hclvm::Span) -> (hclvm::Pos, hclvm::Pos)) -> Diagnostic {
    let (start, end) = match d.subject.map(range) {
        Some((a, b)) => (Some((a.line, a.column, a.byte)), Some((b.line, b.column, b.byte))),
        None => (None, None),
    };
    Diagnostic {
        severity: if d.severity == Severity::Error { "error" } else { "warning" },
        summary: d.summary.to_string(),
        detail: d.detail.clone(),
        filename: filename.to_string(),
        start,
        end,
    }
}

/// What one evaluation produced, owned (an `hclvm::Evaluation` borrows its
/// program; this outlives the call).
struct Result_ {
    /// The value (an expression's or template's; a body's in the shape of
    /// Terraform's JSON syntax, attributes with errors unknown), or why a
    /// body has no single value.
    value: Result<Value, String>,
    diagnostics: Vec<Diagnostic>,
    has_errors: bool,
    /// hcl's text rendering of the diagnostics.
    rendered: String,
    /// The one-line text of the errors (`EvaluationError`'s message).
    message: String,
}

fn own(compiled: &Compiled, e: &hclvm::Evaluation<'_>) -> Result_ {
    let diagnostics: Vec<Diagnostic> = e.diagnostics().into_iter().map(|d| diagnostic(d, compiled.filename(), |s| e.range(s))).collect();
    let value = match (e.outcome(), e.body()) {
        (Some(o), _) => Ok(o.value_unchecked().clone()),
        (None, Some(b)) => b.to_value().map_err(|err| err.to_string()),
        (None, None) => Err("nothing was evaluated".to_string()),
    };
    let has_errors = e.has_errors();
    Result_ {
        value,
        rendered: if diagnostics.is_empty() { String::new() } else { e.render_diagnostics(false) },
        message: e.check().err().map(|err| err.to_string()).unwrap_or_default(),
        diagnostics,
        has_errors,
    }
}

/// A failure before evaluating (variables that do not decode).
fn failed(compiled: &Compiled, summary: &str, detail: String) -> Result_ {
    let d = Diagnostic {
        severity: "error",
        summary: summary.to_string(),
        detail: detail.clone(),
        filename: compiled.filename().to_string(),
        start: None,
        end: None,
    };
    Result_ {
        value: Ok(Value::dynamic_unknown()),
        rendered: format!("Error: {summary}\n\n{detail}\n"),
        message: format!("{summary}; {detail}"),
        diagnostics: vec![d],
        has_errors: true,
    }
}

/// The outcome of one evaluation: `value`, `diagnostics`, `has_errors`,
/// and `check()`, which raises `hclvm.EvaluationError` when anything
/// failed.
#[pyclass(frozen, module = "hclvm")]
pub struct Evaluation {
    result: Result_,
    numbers: Numbers,
}

#[pymethods]
impl Evaluation {
    /// The value: an expression's or template's, or a body as a dict in
    /// the shape of Terraform's JSON syntax (`rule "a" { x = 1 }` is
    /// `{"rule": {"a": [{"x": 1}]}}`). With errors, the failed parts are
    /// `hclvm.Unknown`. A body whose shape is ambiguous (an attribute and a
    /// block type of one name) raises `ValueError`.
    #[getter]
    fn value(&self, py: Python<'_>) -> PyResult<PyObject> {
        match &self.result.value {
            Ok(v) => to_py(py, v, self.numbers),
            Err(e) => Err(PyValueError::new_err(e.clone())),
        }
    }

    /// Errors and warnings, in the order they were reported.
    #[getter]
    fn diagnostics(&self) -> Vec<Diagnostic> {
        self.result.diagnostics.clone()
    }

    /// Whether any diagnostic is an error.
    #[getter]
    fn has_errors(&self) -> bool {
        self.result.has_errors
    }

    /// Raises `hclvm.EvaluationError` (with the diagnostics) when anything
    /// failed; returns the evaluation otherwise.
    fn check(slf: Py<Self>, py: Python<'_>) -> PyResult<Py<Self>> {
        let this = slf.get();
        if this.result.has_errors {
            return Err(hclvm_error(py, "EvaluationError", &this.result.message, &this.result.diagnostics, &this.result.rendered));
        }
        Ok(slf)
    }

    /// The diagnostics as hcl's text writer prints them (source lines and
    /// markers included).
    fn render_diagnostics(&self) -> String {
        self.result.rendered.clone()
    }

    fn __repr__(&self) -> String {
        match (&self.result.has_errors, self.result.diagnostics.len()) {
            (true, n) => format!("<hclvm.Evaluation with errors ({n} diagnostics)>"),
            (false, 0) => "<hclvm.Evaluation>".to_string(),
            (false, n) => format!("<hclvm.Evaluation ({n} warnings)>"),
        }
    }
}

/// `hclvm.CompileError` or `hclvm.EvaluationError` with `diagnostics` and
/// `rendered` (hcl's text of them).
fn hclvm_error(py: Python<'_>, class: &str, message: &str, diagnostics: &[Diagnostic], rendered: &str) -> PyErr {
    let made = (|| -> PyResult<PyErr> {
        let list = PyList::new(py, diagnostics.iter().cloned().map(|d| Py::new(py, d)).collect::<PyResult<Vec<_>>>()?)?;
        let exc = py.import("hclvm")?.getattr(class)?.call1((message, list, rendered))?;
        Ok(PyErr::from_value(exc))
    })();
    made.unwrap_or_else(|e| e)
}

/// The options a program was compiled with, kept to pickle it.
struct State {
    kind: SourceKind,
    src: String,
    filename: Option<String>,
    declared: Option<Declared>,
    functions: Option<Py<PyDict>>,
    max_steps: Option<u64>,
    max_size: Option<u64>,
}

/// `declared=`: the variables' names, or a mapping of names to type
/// constraints in HCL's type syntax (`Options::declare`).
#[derive(Clone, FromPyObject, IntoPyObject)]
pub enum Declared {
    Types(std::collections::BTreeMap<String, String>),
    Names(Vec<String>),
}

impl State {
    fn options(&self, py: Python<'_>) -> PyResult<Options> {
        let mut options = Options::new();
        if let Some(f) = &self.filename {
            options = options.filename(f.clone());
        }
        match &self.declared {
            Some(Declared::Names(names)) => options = options.variables(names.iter().cloned()),
            Some(Declared::Types(types)) => options = options.declarations(types.iter().map(|(n, t)| (n.as_str(), t.as_str()))),
            None => {}
        }
        if let Some(n) = self.max_steps {
            options = options.max_steps(n);
        }
        if let Some(n) = self.max_size {
            options = options.max_size(n);
        }
        if let Some(functions) = &self.functions {
            options = options.functions(crate::functions::table(py, functions.bind(py))?);
        }
        Ok(options)
    }

    fn kind_name(&self) -> &'static str {
        match self.kind {
            SourceKind::Body => "body",
            SourceKind::Template => "template",
            _ => "expression",
        }
    }
}

/// A compiled body, template or expression: evaluate it as often as you
/// like, from any thread. Pickling it keeps its source and options; the
/// receiving process compiles it again (once per process for the same
/// program: see `hclvm._rebuild_program`).
#[pyclass(frozen, module = "hclvm")]
pub struct Program {
    compiled: Arc<Compiled>,
    state: State,
}

fn compile(py: Python<'_>, state: State) -> PyResult<Program> {
    let options = state.options(py)?;
    let src = state.src.clone();
    let kind = state.kind;
    let compiled = py.allow_threads(|| Compiled::compile(kind, src.as_bytes(), &options));
    match compiled {
        Ok(c) => Ok(Program { compiled: Arc::new(c), state }),
        Err(hclvm::Error::Compile(diags)) => {
            let list: Vec<Diagnostic> = diags.as_slice().iter().map(|d| diagnostic(d, diags.filename(), |s| diags.range(s))).collect();
            Err(hclvm_error(py, "CompileError", &diags.to_string(), &list, &diags.render(false)))
        }
        Err(hclvm::Error::Declaration(each)) => {
            let list: Vec<Diagnostic> = each
                .iter()
                .flat_map(|diags| diags.as_slice().iter().map(|d| diagnostic(d, diags.filename(), |s| diags.range(s))))
                .collect();
            let text = each.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n");
            let rendered = each.iter().map(|d| d.render(false)).collect::<Vec<_>>().join("");
            Err(hclvm_error(py, "CompileError", &text, &list, &rendered))
        }
        Err(e) => Err(PyValueError::new_err(e.to_string())),
    }
}

/// Compiles `src` as a `kind` ("body", "template" or "expression"): what
/// `hclvm.compile_body`, `compile_template` and `compile_expression` call,
/// and unpickling (`Program.__reduce__` gives these arguments).
#[pyfunction]
#[pyo3(signature = (kind, src, filename = None, declared = None, functions = None, max_steps = None, max_size = None))]
#[allow(clippy::too_many_arguments)]
pub fn program_from_state(
    py: Python<'_>,
    kind: &str,
    src: String,
    filename: Option<String>,
    declared: Option<Declared>,
    functions: Option<Bound<'_, PyDict>>,
    max_steps: Option<u64>,
    max_size: Option<u64>,
) -> PyResult<Program> {
    let kind = match kind {
        "body" => SourceKind::Body,
        "template" => SourceKind::Template,
        "expression" => SourceKind::Expression,
        other => return Err(PyValueError::new_err(format!("unknown program kind {other:?}"))),
    };
    compile(py, State { kind, src, filename, declared, functions: functions.map(Bound::unbind), max_steps, max_size })
}

/// Evaluations of `inputs` on `jobs` threads (at least one), in order.
fn run_parallel<T: Sync>(inputs: &[T], jobs: usize, eval: impl Fn(&T) -> Result_ + Sync) -> Vec<Result_> {
    let jobs = jobs.clamp(1, inputs.len().max(1));
    if jobs == 1 {
        return inputs.iter().map(&eval).collect();
    }
    let chunk = inputs.len().div_ceil(jobs);
    std::thread::scope(|scope| {
        let handles: Vec<_> = inputs.chunks(chunk).map(|part| scope.spawn(|| part.iter().map(&eval).collect::<Vec<_>>())).collect();
        // A job that panicked leaves a failure per input of its part.
        let mut out = Vec::with_capacity(inputs.len());
        for (h, part) in handles.into_iter().zip(inputs.chunks(chunk)) {
            match h.join() {
                Ok(results) => out.extend(results),
                Err(_) => out.extend(part.iter().map(|_| Result_ {
                    value: Ok(Value::dynamic_unknown()),
                    diagnostics: Vec::new(),
                    has_errors: true,
                    rendered: String::new(),
                    message: "internal error: an evaluation thread failed".into(),
                })),
            }
        }
        out
    })
}

fn jobs_or_default(jobs: Option<usize>) -> usize {
    jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

#[pymethods]
impl Program {
    /// Evaluates with `variables` (a dict of names to values). Values
    /// convert as the package documentation says; `numbers="float"` gives
    /// floats instead of `decimal.Decimal` for numbers that are not whole.
    #[pyo3(signature = (variables = None, *, numbers = "decimal"))]
    fn evaluate(&self, py: Python<'_>, variables: Option<&Bound<'_, PyAny>>, numbers: &str) -> PyResult<Evaluation> {
        let numbers = Numbers::parse(numbers)?;
        let vars = crate::convert::variables(variables)?;
        let compiled = &self.compiled;
        let result = py.allow_threads(|| own(compiled, &compiled.evaluate(&vars)));
        Ok(Evaluation { result, numbers })
    }

    /// Evaluates with each dict of `variables_list`, on `jobs` threads
    /// (default: the machine's cores), without holding the GIL; results
    /// in input order. The same as `[p.evaluate(v) for v in
    /// variables_list]`.
    #[pyo3(signature = (variables_list, *, jobs = None, numbers = "decimal"))]
    fn evaluate_many(
        &self,
        py: Python<'_>,
        variables_list: &Bound<'_, PyAny>,
        jobs: Option<usize>,
        numbers: &str,
    ) -> PyResult<Vec<Evaluation>> {
        let numbers = Numbers::parse(numbers)?;
        let mut inputs: Vec<Variables> = Vec::new();
        for (i, item) in variables_list.try_iter()?.enumerate() {
            let item = item?;
            inputs.push(variables(Some(&item)).map_err(|e| annotate(py, e, i))?);
        }
        let compiled = &self.compiled;
        let jobs = jobs_or_default(jobs);
        let results = py.allow_threads(|| run_parallel(&inputs, jobs, |vars| own(compiled, &compiled.evaluate(vars))));
        Ok(results.into_iter().map(|result| Evaluation { result, numbers }).collect())
    }

    /// Evaluates once per JSON object text in `lines` (variables by name,
    /// `{"type": T, "value": V}` for an exact type), on `jobs` threads,
    /// without holding the GIL; results in input order. A line that is not
    /// a JSON object of variables gives an evaluation with one error
    /// ("Invalid variables").
    #[pyo3(signature = (lines, *, jobs = None, numbers = "decimal"))]
    fn evaluate_jsonl(&self, py: Python<'_>, lines: &Bound<'_, PyAny>, jobs: Option<usize>, numbers: &str) -> PyResult<Vec<Evaluation>> {
        let numbers = Numbers::parse(numbers)?;
        let mut texts: Vec<String> = Vec::new();
        for line in lines.try_iter()? {
            let line = line?;
            let text = match line.downcast::<PyBytes>() {
                Ok(b) => {
                    String::from_utf8(b.as_bytes().to_vec()).map_err(|e| PyValueError::new_err(format!("line {}: {e}", texts.len() + 1)))?
                }
                Err(_) => line.extract::<String>().map_err(|_| PyTypeError::new_err("lines must be str or bytes"))?,
            };
            texts.push(text);
        }
        let compiled = &self.compiled;
        let jobs = jobs_or_default(jobs);
        let results = py.allow_threads(|| {
            run_parallel(&texts, jobs, |text| match compiled.variables_from_json_str(text, true) {
                Ok(vars) => own(compiled, &compiled.evaluate(&vars)),
                Err(e) => failed(compiled, "Invalid variables", e.to_string()),
            })
        });
        Ok(results.into_iter().map(|result| Evaluation { result, numbers }).collect())
    }

    /// The names of the variables the program reads (or those declared).
    #[getter]
    fn variable_names(&self) -> Vec<String> {
        self.compiled.variable_names().map(str::to_string).collect()
    }

    /// The errors that hold for every input, found without any: the
    /// program evaluated with every declared variable an unknown of its
    /// type (see `declared=`), plus what compiling found in parts that
    /// evaluation does not reach (unknown functions, wrong argument
    /// counts, undeclared names).
    fn validate(&self, py: Python<'_>) -> Vec<Diagnostic> {
        let diags = py.allow_threads(|| self.compiled.validate());
        diags.as_slice().iter().map(|d| diagnostic(d, diags.filename(), |s| diags.range(s))).collect()
    }

    /// `"body"`, `"template"` or `"expression"`.
    #[getter]
    fn kind(&self) -> &'static str {
        self.state.kind_name()
    }

    /// The bytecode listing (as `hclvm disasm` prints it).
    fn disassemble(&self) -> String {
        self.compiled.disassemble()
    }

    fn __reduce__(&self, py: Python<'_>) -> PyResult<(PyObject, PyObject)> {
        let s = &self.state;
        let functions = s.functions.as_ref().map(|f| f.clone_ref(py));
        let args =
            (s.kind_name(), s.src.clone(), s.filename.clone(), s.declared.clone(), functions, s.max_steps, s.max_size).into_pyobject(py)?;
        let rebuild = py.import("hclvm")?.getattr("_rebuild_program")?;
        Ok((rebuild.unbind(), args.into_any().unbind()))
    }

    fn __repr__(&self) -> String {
        format!("<hclvm.Program {} {:?}>", self.state.kind_name(), self.compiled.filename())
    }
}

/// `e` with the index of the input it is about.
fn annotate(py: Python<'_>, e: PyErr, i: usize) -> PyErr {
    let message = format!("variables_list[{i}]: {}", e.value(py));
    if e.is_instance_of::<PyTypeError>(py) {
        PyTypeError::new_err(message)
    } else {
        PyValueError::new_err(message)
    }
}
