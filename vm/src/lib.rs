//! hclvm evaluation: compiled programs ([`Program`]) and their evaluator.
//!
//! A program is an immutable tree of nodes produced by the compiler's
//! lowering stage (variables bound to slots, functions to indices,
//! literals parsed, constants folded). [`evaluate`] runs it against a
//! [`Vars`] with a reusable [`Scratch`]; programs are `Send + Sync`.

pub mod disasm;
pub mod func;
pub mod interp;
pub mod ops;
pub mod program;
pub mod semantics;
pub mod suggest;

pub use func::{CallError, ErrorSite, FunctionTable, NamesOnly, Param, Signature};
pub use interp::{evaluate, Limits, Scratch, Vars};
pub use program::Program;
