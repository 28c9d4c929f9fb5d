//! hclvm: a fast, exact engine for HCL, the HashiCorp Configuration Language
//! (native syntax v2).
//!
//! The work is split over three crates, re-exported here: [`runtime`]
//! (values, types, numbers, diagnostics), [`vm`] (bytecode and interpreter)
//! and [`compiler`] (lexer, parser, analysis, lowering). This facade adds the
//! embedding API ([`api`], re-exported at the top: [`Compiled`], [`Options`],
//! [`Variables`], [`Evaluation`]), the conformance runner, text rendering of
//! diagnostics and the `hclvm` CLI.
//!
//! ```
//! let check = hclvm::Compiled::expression("amount <= limit", &hclvm::Options::new())?;
//! let out = check.evaluate_json(&serde_json::json!({"amount": 120, "limit": 100}))?;
//! assert_eq!(out.value().and_then(|v| v.as_bool()), Some(false));
//! # Ok::<(), hclvm::Error>(())
//! ```

#![forbid(unsafe_code)]

pub use compiler;
pub use runtime;
pub use vm;

pub mod cli;
pub mod conformance;
pub mod diagnostic_text;
pub mod api;

pub use api::{
    from_value, AttributeOutcome, BlockOutcome, BodyOutcome, BoundVariables, CallCtx, CallError, Compiled, DeError, Diagnostic, Diagnostics,
    Error, ErrorSite, Evaluation, FnError, FuncId, FunctionDef, FunctionTable, Functions, Limits, Number, Options, Outcome,
    Param, RegisterError, Severity, Signature, SizeBudget, SourceKind, Span, Type, Value, ValueDeserializer, Variables,
};
