//! hclvm evaluation: compiled programs ([`Program`]) and their evaluator.
//!
//! # Design
//!
//! A [`Program`] is an immutable tree of [`program::Node`]s made by the
//! compiler's lowering stage (`compiler::lower`): literals are parsed
//! values, host variables are slots ([`Vars`]), `for` iterators and splat
//! items are local slots, calls are function-table indices, `try`/`can`
//! are special forms holding their unevaluated arguments, and constant
//! subexpressions are folded when folding reports nothing. Names that do
//! not resolve become `Fail` nodes carrying the reference's diagnostic,
//! reported only if evaluation reaches them. Programs are `Send + Sync`;
//! attribute steps carry a verified inline cache (relaxed atomics).
//!
//! [`evaluate`] walks the tree with a per-thread [`Scratch`] (locals,
//! diagnostics, template buffers, budgets). Each node yields a value and
//! appends diagnostics; an erroring node yields the value the reference
//! yields (usually `DynamicVal`), so unknowns and errors flow exactly as in
//! `hclsyntax`: a conditional keeps only its selected branch's
//! diagnostics, `try`/`can` cut theirs, operators see "operands failed".
//! Hot paths avoid clones: variables, locals, constants and literal steps
//! into them are read by reference ([`interp`]'s `peek`), operators on
//! known primitives skip conversion, and templates stream nested
//! templates, `%{if}` and `%{for}` straight into one buffer.
//!
//! Budgets ([`Limits`]): a step count and an approximate size; exceeding
//! either ends the evaluation with an "Evaluation limit exceeded" error.
//! Recursion depth follows the program's nesting, which the parser bounds.

pub mod disasm;
pub mod func;
pub mod interp;
pub mod ops;
pub mod program;
pub mod suggest;

pub use func::{CallError, ErrorSite, FunctionTable, NamesOnly, Param, Signature};
pub use interp::{evaluate, Limits, Scratch, Vars};
pub use program::Program;
