//! The value model of hclvm: types, values, numbers, conversion, unification
//! and the function table. Semantics follow go-cty, the value system behind
//! the reference HCL implementation.

#![forbid(unsafe_code)]

pub mod convert;
pub mod defaults;
pub mod diag;
pub mod func;
pub mod graphemes;
pub mod json;
mod json_in;
pub mod json_text;
pub mod known_prefix;
pub mod names;
mod nfc;
pub mod number;
pub mod stack;
pub mod strings;
pub mod types;
pub mod unify;
pub mod value;
pub mod work;

pub use convert::{convert, ConvError, Conversion};
pub use defaults::Defaults;
pub use diag::{ClusterBreaks, Diagnostic, LineIndex, Pos, Severity, Span};
pub use func::{CallError, ErrorSite, FuncId, FunctionDef, FunctionTable, Functions, SizeBudget};
pub use names::AttrNames;
pub use number::Number;
pub use types::{ObjectType, TupleType, Type};
pub use unify::{unify, unify_unsafe};
pub use value::{OpError, Str, TraversalError, Tri, Value, ValueError};
