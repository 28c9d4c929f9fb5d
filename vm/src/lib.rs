//! hclvm evaluation: compiled programs ([`Program`]) and their evaluator.
//!
//! # Design
//!
//! The compiler lowers the AST into a tree of [`ir::Node`]s (names
//! resolved: host variables to slots, iterators to locals, calls to
//! function-table indices; literals parsed; constant subexpressions folded;
//! names that do not resolve become `Fail` nodes carrying the reference's
//! diagnostic). [`codegen`] turns that tree into register bytecode
//! ([`opcodes`]: 8-byte instructions, a constant pool, variable references
//! by slot) and the tree is dropped: a [`Program`] holds only bytecode and
//! its side tables, is immutable and `Send + Sync`.
//!
//! [`evaluate`] runs the bytecode with a per-thread [`Scratch`] (registers,
//! diagnostics marks, template buffers, budgets). Each instruction yields
//! a value and appends diagnostics; an erroring instruction yields the value
//! the reference yields (usually `DynamicVal`), so unknowns and errors flow
//! exactly as in `hclsyntax`: a conditional keeps only its selected
//! branch's diagnostics, `try`/`can` cut theirs, operators see "operands
//! failed" through marks. Hot paths avoid clones: operands read variables,
//! locals and constants in place, literal attribute steps use a verified
//! inline cache, operators on known primitives skip conversion, call
//! arguments are passed to functions straight from their registers, and
//! templates stream nested templates, `%{if}` and `%{for}` into one buffer.
//!
//! Budgets ([`Limits`]): an instruction count and an approximate size;
//! exceeding either ends the evaluation with an "Evaluation limit exceeded"
//! error. Recursion depth follows the program's block nesting, which the
//! parser bounds; past 16 levels the interpreter checks the stack left and
//! continues on a fresh segment when it runs low (`stacker`), so deep
//! programs evaluate on any thread.

#![forbid(unsafe_code)]

pub mod codegen;
pub mod disasm;
mod fast_lane;
pub mod interp;
pub mod ir;
pub mod opcodes;
pub mod ops;
pub mod program;
pub mod shared;
pub mod suggest;

pub use interp::{evaluate, run, BodyEvaluation, Interrupts, Limits, Ran, Scratch, Vars};
pub use program::Program;
