//! hclvm: a fast, exact engine for HCL, the HashiCorp Configuration Language
//! (native syntax v2).
//!
//! The work is split over three crates, re-exported here: [`runtime`]
//! (values, types, numbers, diagnostics), [`vm`] (bytecode and interpreter)
//! and [`compiler`] (lexer, parser, analysis, lowering). This facade adds the
//! conformance runner, text rendering of diagnostics and the `hclvm` CLI.

pub use compiler;
pub use runtime;
pub use vm;

pub mod cli;
pub mod conformance;
pub mod diagnostic_text;
pub mod engine;
