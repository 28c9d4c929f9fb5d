//! The value model of hclvm: types, values, numbers, conversion, unification
//! and the function table. Semantics follow go-cty, the value system behind
//! the reference HCL implementation.

#![forbid(unsafe_code)]

pub mod diag;
pub mod number;
pub mod graphemes;
pub mod known_prefix;
pub mod strings;
mod nfc;
pub mod types;
pub mod value;
pub mod convert;
pub mod unify;
pub mod json;
mod json_in;
pub mod json_text;
pub mod stack;
pub mod names;
pub mod func;

pub use diag::{Diagnostic, LineIndex, Pos, Severity, Span};
pub use names::AttrNames;
pub use number::Number;
pub use types::{ObjectType, TupleType, Type};
pub use value::{OpError, Str, TraversalError, Tri, Value, ValueError};
pub use convert::{convert, ConvError, Conversion};
pub use unify::{unify, unify_unsafe};
pub use func::{CallError, ErrorSite, FuncId, FunctionDef, FunctionTable, Functions, SizeBudget};
