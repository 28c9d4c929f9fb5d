//! hclvm: a fast, exact engine for HCL, the HashiCorp Configuration Language
//! (native syntax v2).
//!
//! The embedding API is what this crate exports by name: compile a body, a
//! template or an expression once into a [`Compiled`] (with [`Options`]),
//! evaluate it many times with [`Variables`], read the [`Evaluation`]:
//! values ([`Value`], [`Type`], [`Number`]), diagnostics ([`Diagnostic`],
//! [`Diagnostics`]) or a Rust type through serde. Host functions are
//! [`FunctionDef`]s registered in [`Functions`].
//!
//! ```
//! let check = hclvm::Compiled::expression("amount <= limit", &hclvm::Options::new())?;
//! let out = check.evaluate_json(&serde_json::json!({"amount": 120, "limit": 100}))?;
//! assert_eq!(out.value().and_then(|v| v.as_bool()), Some(false));
//! # Ok::<(), hclvm::Error>(())
//! ```
//!
//! The internal crates (`compiler`, `vm`, `runtime`), the `hclvm` CLI and
//! the conformance runner are reachable for the binary and the tests, but
//! are not part of the API: they are hidden from the documentation and may
//! change in any release.

#![forbid(unsafe_code)]

#[doc(hidden)]
pub use compiler;
#[doc(hidden)]
pub use runtime;
#[doc(hidden)]
pub use vm;

mod api;
#[doc(hidden)]
pub mod cli;
#[doc(hidden)]
pub mod conformance;
#[doc(hidden)]
pub mod diagnostic_text;

pub use api::{
    convert, from_value, refine_not_null, AttributeOutcome, BlockOutcome, BodyOutcome, BoundVariables, CallCtx, CallError, CancelToken,
    Compiled, ConvError, DeError, Diagnostic, Diagnostics, Error, ErrorSite, Evaluation, Facts, FileAccess, FnError, FuncId, FunctionDef,
    FunctionTable, Functions, ImplFn, Limits, Number, ObjectType, Options, Outcome, Param, Pos, RangeBound, RefineFn, Refinement,
    RefinementBuilder, RegisterError, Severity, Signature, SizeBudget, SourceKind, Span, Str, TupleType, Type, TypeFn, Unknown, Value,
    ValueDeserializer, Variables,
};
