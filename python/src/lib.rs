//! Python bindings of hclvm: the module `hclvm._hclvm`, which the Python
//! package `hclvm` (python/hclvm/__init__.py) re-exports.
//!
//! Everything goes through the embedding API (`hclvm::Compiled`): compile
//! once, evaluate many times. Values cross the boundary converted (see
//! `convert.rs`); evaluation runs without the GIL, and `evaluate_many` /
//! `evaluate_jsonl` run on threads of their own.

#![forbid(unsafe_code)]

mod convert;
mod functions;
mod program;

use pyo3::prelude::*;

#[pymodule]
fn _hclvm(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<program::Program>()?;
    m.add_class::<program::Evaluation>()?;
    m.add_class::<program::Diagnostic>()?;
    m.add_class::<convert::Unknown>()?;
    m.add_class::<functions::Function>()?;
    m.add_function(wrap_pyfunction!(program::program_from_state, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
