//! Values between Python and hclvm.
//!
//! Python to HCL: `None` is a null, `bool` a bool, `int`, `float` and
//! `decimal.Decimal` numbers (exactly: an int's digits, a float's shortest
//! repr, a Decimal's text), `str` a string, `list`/`tuple` a tuple, `dict`
//! (string keys) an object, `set`/`frozenset` a set (its elements must
//! unify to one type), [`Unknown`] an unknown of its type. Anything else is
//! a `TypeError` naming where it is (`variables["request"]["when"]`).
//!
//! HCL to Python: nulls are `None`, bools `bool`, whole numbers `int`,
//! other numbers `decimal.Decimal` (exact; `float` on request), strings
//! `str`, lists and tuples `list`, maps and objects `dict`, sets
//! `frozenset` (a `list` in cty's order when an element is not hashable:
//! a list, a dict), unknowns [`Unknown`].

use hclvm::{Number, Type, Value};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyFrozenSet, PyInt, PyList, PySet, PyString, PyTuple};

/// Nesting accepted in either direction (Go's JSON limit, as hclvm's).
const MAX_DEPTH: usize = 10_000;

/// An unknown value: a value hclvm knows the type of but not the value
/// (a variable given as `Unknown("string")`, or a result that depends on
/// one). `type` is the type in go-cty's JSON type syntax.
#[pyclass(frozen, eq, hash, module = "hclvm")]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Unknown {
    #[pyo3(get, name = "type")]
    ty: String,
}

#[pymethods]
impl Unknown {
    /// An unknown of `type` (default: any type). Types are written as in
    /// hclvm's function signatures: `"string"`, `"list(number)"`,
    /// `'["object",{"a":"string"}]'`.
    #[new]
    #[pyo3(signature = (r#type = "dynamic"))]
    fn new(r#type: &str) -> PyResult<Unknown> {
        let ty = parse_type(r#type)?;
        Ok(Unknown { ty: ty.to_json_string() })
    }

    fn __repr__(&self) -> String {
        format!("hclvm.Unknown({:?})", self.ty)
    }

    fn __reduce__(&self, py: Python<'_>) -> PyResult<(PyObject, (String,))> {
        Ok((py.get_type::<Unknown>().into_any().unbind(), (self.ty.clone(),)))
    }
}

impl Unknown {
    fn of(ty: &Type) -> Unknown {
        Unknown { ty: ty.to_json_string() }
    }
}

/// A type written as a keyword (`string`, `number`, `bool`, `any`), a
/// collection of one (`list(string)`, `map(number)`, `set(bool)`), or
/// go-cty's JSON type syntax (`"string"`, `["list","string"]`).
pub fn parse_type(text: &str) -> PyResult<Type> {
    let t = text.trim();
    let keyword = match t {
        "string" => Some(Type::String),
        "number" => Some(Type::Number),
        "bool" => Some(Type::Bool),
        "any" | "dynamic" => Some(Type::Dynamic),
        _ => None,
    };
    if let Some(ty) = keyword {
        return Ok(ty);
    }
    for (kind, make) in [("list(", Type::list as fn(Type) -> Type), ("set(", Type::set), ("map(", Type::map)] {
        if let Some(inner) = t.strip_prefix(kind).and_then(|r| r.strip_suffix(')')) {
            return Ok(make(parse_type(inner)?));
        }
    }
    let json: serde_json::Value = serde_json::from_str(t).map_err(|_| PyValueError::new_err(format!("not a type: {text:?}")))?;
    Type::from_json(&json).map_err(|e| PyValueError::new_err(format!("not a type: {text:?}: {e}")))
}

/// How numbers that are not whole come out.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Numbers {
    Decimal,
    Float,
}

impl Numbers {
    pub fn parse(s: &str) -> PyResult<Numbers> {
        match s {
            "decimal" => Ok(Numbers::Decimal),
            "float" => Ok(Numbers::Float),
            _ => Err(PyValueError::new_err(format!("numbers must be \"decimal\" or \"float\", not {s:?}"))),
        }
    }
}

/// `value` as a Python object.
pub fn to_py(py: Python<'_>, value: &Value, numbers: Numbers) -> PyResult<PyObject> {
    to_py_at(py, value, numbers, 0)
}

fn to_py_at(py: Python<'_>, value: &Value, numbers: Numbers, depth: usize) -> PyResult<PyObject> {
    if depth > MAX_DEPTH {
        return Err(PyValueError::new_err("the value nests too deeply to convert"));
    }
    hclvm::runtime::stack::deeper(depth, || {
        Ok(match value {
            Value::Null(_) => py.None(),
            Value::Unknown(u) => Py::new(py, Unknown::of(u.ty()))?.into_any(),
            Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any().unbind(),
            Value::Number(n) => number_to_py(py, n, numbers)?,
            Value::String(s) => PyString::new(py, s.as_str()).into_any().unbind(),
            Value::List(_) | Value::Tuple(_) => {
                let items = value.elements_slice().iter().map(|v| to_py_at(py, v, numbers, depth + 1)).collect::<PyResult<Vec<_>>>()?;
                PyList::new(py, items)?.into_any().unbind()
            }
            Value::Set(_) => {
                let items = value.elements_slice().iter().map(|v| to_py_at(py, v, numbers, depth + 1)).collect::<PyResult<Vec<_>>>()?;
                let hashable = items.iter().all(|i| i.bind(py).hash().is_ok());
                if hashable {
                    PyFrozenSet::new(py, &items)?.into_any().unbind()
                } else {
                    PyList::new(py, items)?.into_any().unbind()
                }
            }
            Value::Map(m) => {
                let d = PyDict::new(py);
                for (k, v) in m.keys().iter().zip(m.vals()) {
                    d.set_item(k.as_str(), to_py_at(py, v, numbers, depth + 1)?)?;
                }
                d.into_any().unbind()
            }
            Value::Object(o) => {
                let d = PyDict::new(py);
                for (k, v) in o.object_type().names().iter().zip(o.vals()) {
                    d.set_item(&**k, to_py_at(py, v, numbers, depth + 1)?)?;
                }
                d.into_any().unbind()
            }
        })
    })
}

fn number_to_py(py: Python<'_>, n: &Number, numbers: Numbers) -> PyResult<PyObject> {
    if n.is_infinite() {
        let text = if n.sign() < 0 { "-Infinity" } else { "Infinity" };
        return match numbers {
            Numbers::Float => Ok(PyFloat::new(py, if n.sign() < 0 { f64::NEG_INFINITY } else { f64::INFINITY }).into_any().unbind()),
            Numbers::Decimal => decimal(py, text),
        };
    }
    if let Some(i) = n.to_i64() {
        return Ok(i.into_pyobject(py)?.into_any().unbind());
    }
    // Beyond about 1e±100000 only the exponent form can be written.
    let text = n.to_text().or_else(|_| n.to_text_general()).map_err(|e| PyValueError::new_err(e.to_string()))?;
    if n.is_integer() && !text.contains(['e', 'E']) {
        return Ok(py.get_type::<PyInt>().call1((text,))?.unbind());
    }
    match numbers {
        Numbers::Float => Ok(py.get_type::<PyFloat>().call1((text,))?.unbind()),
        Numbers::Decimal => decimal(py, &text),
    }
}

fn decimal(py: Python<'_>, text: &str) -> PyResult<PyObject> {
    Ok(py.import("decimal")?.getattr("Decimal")?.call1((text,))?.unbind())
}

/// The Python value `obj` as an HCL value; `path` says where it is (for
/// errors), e.g. `variables["request"]`.
pub fn from_py(obj: &Bound<'_, PyAny>, path: &mut String) -> PyResult<Value> {
    from_py_at(obj, path, 0)
}

fn from_py_at(obj: &Bound<'_, PyAny>, path: &mut String, depth: usize) -> PyResult<Value> {
    if depth > MAX_DEPTH {
        return Err(PyValueError::new_err(format!("{path} nests more than {MAX_DEPTH} levels deep")));
    }
    hclvm::runtime::stack::deeper(depth, || {
        if obj.is_none() {
            return Ok(Value::Null(Type::Dynamic));
        }
        if let Ok(b) = obj.downcast::<PyBool>() {
            return Ok(Value::Bool(b.is_true()));
        }
        if obj.is_instance_of::<PyInt>() {
            let text = obj.str()?.to_string();
            return number(&text, path);
        }
        if let Ok(f) = obj.downcast::<PyFloat>() {
            let v = f.value();
            if v.is_nan() {
                return Err(PyValueError::new_err(format!("{path} is NaN, which HCL numbers cannot be")));
            }
            if v.is_infinite() {
                return Ok(Value::Number(if v > 0.0 { Number::pos_inf() } else { Number::neg_inf() }));
            }
            // The shortest text that reads back as this float.
            let text = obj.repr()?.to_string();
            return number(&text, path);
        }
        if let Ok(s) = obj.downcast::<PyString>() {
            return Ok(Value::string(&s.to_cow()?));
        }
        if let Ok(u) = obj.downcast::<Unknown>() {
            let ty = parse_type(&u.get().ty)?;
            return Ok(Value::unknown(ty));
        }
        if let Ok(d) = obj.downcast::<PyDict>() {
            let mut attrs = Vec::with_capacity(d.len());
            for (k, v) in d.iter() {
                let Ok(key) = k.downcast::<PyString>() else {
                    return Err(PyTypeError::new_err(format!(
                        "{path} has a key of type {}: object keys must be strings",
                        k.get_type().name()?
                    )));
                };
                let key = key.to_cow()?.into_owned();
                let mark = path.len();
                path.push_str(&format!("[{key:?}]"));
                let value = from_py_at(&v, path, depth + 1)?;
                path.truncate(mark);
                attrs.push((key, value));
            }
            return Ok(Value::object(attrs));
        }
        if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
            return Ok(Value::tuple(elements(obj, path, depth)?));
        }
        if obj.is_instance_of::<PySet>() || obj.is_instance_of::<PyFrozenSet>() {
            let tuple = Value::tuple(elements(obj, path, depth)?);
            return hclvm::convert(&tuple, &Type::set(Type::Dynamic))
                .map_err(|e| PyTypeError::new_err(format!("{path} is a set whose elements have no common type: {e}")));
        }
        if obj.get_type().name()? == "Decimal" && obj.get_type().module()? == "decimal" {
            if obj.call_method0("is_nan")?.is_truthy()? {
                return Err(PyValueError::new_err(format!("{path} is NaN, which HCL numbers cannot be")));
            }
            if obj.call_method0("is_infinite")?.is_truthy()? {
                let negative = obj.call_method0("is_signed")?.is_truthy()?;
                return Ok(Value::Number(if negative { Number::neg_inf() } else { Number::pos_inf() }));
            }
            return number(&obj.str()?.to_string(), path);
        }
        Err(PyTypeError::new_err(format!(
            "{path} is a {}, which has no HCL value (use str, int, float, Decimal, bool, None, list, tuple, dict, set or hclvm.Unknown)",
            obj.get_type().name()?
        )))
    })
}

fn elements(obj: &Bound<'_, PyAny>, path: &mut String, depth: usize) -> PyResult<Vec<Value>> {
    let mut out = Vec::new();
    for (i, item) in obj.try_iter()?.enumerate() {
        let mark = path.len();
        path.push_str(&format!("[{i}]"));
        out.push(from_py_at(&item?, path, depth + 1)?);
        path.truncate(mark);
    }
    Ok(out)
}

fn number(text: &str, path: &str) -> PyResult<Value> {
    Number::parse(text).map(Value::Number).map_err(|e| PyValueError::new_err(format!("{path}: {text} is not a number HCL can hold: {e}")))
}

/// A dict of variables (string keys) as hclvm variables.
pub fn variables(vars: Option<&Bound<'_, PyAny>>) -> PyResult<hclvm::Variables> {
    let mut out = hclvm::Variables::new();
    let Some(vars) = vars else { return Ok(out) };
    if vars.is_none() {
        return Ok(out);
    }
    let d = vars.downcast::<PyDict>().map_err(|_| PyTypeError::new_err("variables must be a dict of names to values"))?;
    for (k, v) in d.iter() {
        let Ok(name) = k.downcast::<PyString>() else {
            return Err(PyTypeError::new_err("variable names must be strings"));
        };
        let name = name.to_cow()?;
        let name: &str = &name;
        let mut path = format!("variables[{name:?}]");
        out.set(name, from_py(&v, &mut path)?);
    }
    Ok(out)
}
