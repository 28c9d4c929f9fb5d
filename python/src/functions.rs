//! Host functions written in Python.

use crate::convert::{from_py, parse_type, to_py, Numbers};
use hclvm::{FnError, FunctionDef, Functions, Param, Signature, Type, Value};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use std::sync::Arc;

/// A Python callable an HCL expression can call, with its parameter and
/// result types.
///
/// `params` is a list of `(name, type)` pairs, `variadic` an optional
/// `(name, type)` for any further arguments, `returns` the result type.
/// Arguments are converted to the parameter types before the call (a
/// failure is hcl's "Invalid function argument"); a null or unknown
/// argument makes the result null or unknown without a call, as go-cty
/// does. The result is converted to `returns`. An exception becomes the
/// call's "Error in function call" diagnostic. `pure` says the same
/// arguments always give the same result and the call has no effect: the
/// compiler may then compute a call once per evaluation, or when
/// compiling.
#[pyclass(frozen, module = "hclvm")]
pub struct Function {
    callable: PyObject,
    params: Vec<(String, String)>,
    variadic: Option<(String, String)>,
    returns: String,
    pure: bool,
}

#[pymethods]
impl Function {
    #[new]
    #[pyo3(signature = (callable, params, returns, *, variadic = None, pure = false))]
    fn new(
        py: Python<'_>,
        callable: PyObject,
        params: Vec<(String, String)>,
        returns: String,
        variadic: Option<(String, String)>,
        pure: bool,
    ) -> PyResult<Function> {
        if !callable.bind(py).is_callable() {
            return Err(PyTypeError::new_err("hclvm.Function needs a callable"));
        }
        // Check the types now rather than at compile time.
        for (_, t) in params.iter().chain(variadic.iter()) {
            parse_type(t)?;
        }
        parse_type(&returns)?;
        Ok(Function { callable, params, variadic, returns, pure })
    }

    #[pyo3(signature = (*args))]
    fn __call__(&self, py: Python<'_>, args: &Bound<'_, PyTuple>) -> PyResult<PyObject> {
        self.callable.call1(py, args.clone())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("hclvm.Function({}, params={:?}, returns={:?})", self.callable.bind(py).repr()?, self.params, self.returns))
    }

    fn __reduce__(&self, py: Python<'_>) -> PyResult<(PyObject, PyObject)> {
        let kwargs = PyDict::new(py);
        kwargs.set_item("variadic", self.variadic.clone())?;
        kwargs.set_item("pure", self.pure)?;
        let args = (self.callable.clone_ref(py), self.params.clone(), self.returns.clone()).into_pyobject(py)?;
        let rebuild = py.import("hclvm")?.getattr("_function_from")?;
        Ok((rebuild.unbind(), (args, kwargs).into_pyobject(py)?.into_any().unbind()))
    }
}

impl Function {
    /// The definition hclvm registers under `name`.
    fn definition(&self, py: Python<'_>, name: &str) -> PyResult<FunctionDef> {
        let param = |(n, t): &(String, String)| -> PyResult<Param> { Ok(Param::new(n, parse_type(t)?)) };
        let params = self.params.iter().map(param).collect::<PyResult<Vec<_>>>()?;
        let var_param = self.variadic.as_ref().map(param).transpose()?;
        let returns: Type = parse_type(&self.returns)?;
        let callable = self.callable.clone_ref(py);
        let ret = returns.clone();
        let imp = Arc::new(move |args: &[Value], _ty: &Type, _ctx: &mut hclvm::CallCtx<'_>| -> Result<Value, FnError> {
            Python::with_gil(|py| {
                let pyargs = args
                    .iter()
                    .map(|a| to_py(py, a, Numbers::Decimal))
                    .collect::<PyResult<Vec<_>>>()
                    .map_err(|e| FnError::new(e.to_string()))?;
                let result = callable
                    .call1(py, PyTuple::new(py, pyargs).map_err(|e| FnError::new(e.to_string()))?)
                    .map_err(|e| FnError::new(exception_text(py, &e)))?;
                let mut path = String::from("the result");
                let value = from_py(result.bind(py), &mut path).map_err(|e| FnError::new(exception_text(py, &e)))?;
                hclvm::convert(&value, &ret).map_err(|e| FnError::new(format!("the result is not a {}: {e}", ret.friendly_name())))
            })
        });
        Ok(FunctionDef::with_static_type(name, Signature { params, var_param, pure: self.pure }, returns, imp))
    }
}

/// "ValueError: bad input" for a Python exception.
fn exception_text(py: Python<'_>, e: &PyErr) -> String {
    let name = e.get_type(py).name().map(|n| n.to_string()).unwrap_or_else(|_| "Exception".into());
    format!("{name}: {}", e.value(py))
}

/// The standard library plus `functions` (a dict of names to
/// [`Function`]s).
pub fn table(py: Python<'_>, functions: &Bound<'_, PyDict>) -> PyResult<Functions> {
    let mut table = Functions::stdlib();
    for (name, f) in functions.iter() {
        let name: String = name.extract().map_err(|_| PyTypeError::new_err("function names must be strings"))?;
        let f = f.downcast::<Function>().map_err(|_| PyTypeError::new_err(format!("functions[{name:?}] must be an hclvm.Function")))?;
        let def = f.get().definition(py, &name)?;
        table.register(def).map_err(|e| PyTypeError::new_err(format!("functions[{name:?}]: {e}")))?;
    }
    Ok(table)
}
