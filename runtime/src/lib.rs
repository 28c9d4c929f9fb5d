//! The value model of hclvm: types, values, numbers, conversion, unification
//! and the function table. Semantics follow go-cty, the value system behind
//! the reference HCL implementation.

pub mod diag;
pub mod number;

pub use diag::{Diagnostic, LineIndex, Pos, Severity, Span};
pub use number::Number;
