#![warn(missing_docs)]
//! The embedding API: compile once, evaluate many times.
//!
//! A host compiles a configuration body, a standalone template or an
//! expression into a [`Compiled`] (choosing functions, variable names and
//! budgets with [`Options`]), then evaluates it as often as it likes with
//! [`Variables`] — built from [`Value`]s or straight from JSON — and reads
//! the [`Evaluation`]: values, diagnostics, or a Rust type through serde.
//! A `Compiled` is immutable and `Send + Sync`; each thread evaluates on its
//! own reusable scratch state.
//!
//! ```
//! use hclvm::{Compiled, Options, Variables};
//!
//! #[derive(serde::Deserialize)]
//! struct Deployment { image: String, replicas: u32 }
//!
//! let config = Compiled::body(r#"
//! image    = "registry.example.com/api:${version}"
//! replicas = max(2, length(regions))
//! "#, &Options::new())?;
//!
//! let vars = Variables::from_json_str(r#"{"version": "1.4.2", "regions": ["eu", "us", "ap"]}"#)?;
//! let deployment: Deployment = config.evaluate(&vars).deserialize()?;
//! assert_eq!(deployment.image, "registry.example.com/api:1.4.2");
//! assert_eq!(deployment.replicas, 3);
//! # Ok::<(), hclvm::Error>(())
//! ```
//!
//! Host functions are [`FunctionDef`]s registered in a [`Functions`] table
//! (see `examples/host_function.rs`), which [`Options::functions`] takes;
//! so does any other implementation of the [`FunctionTable`] trait, the
//! one seam between function libraries and the compiler and VM:
//!
//! ```
//! use hclvm::{Compiled, FunctionDef, Functions, Options, Param, Signature, Type, Value, Variables};
//! use std::sync::Arc;
//!
//! let mut functions = Functions::stdlib();
//! functions.register(FunctionDef::with_static_type(
//!     "double",
//!     Signature { params: vec![Param::new("n", Type::Number)], var_param: None, pure: true },
//!     Type::Number,
//!     Arc::new(|args, _ty, _ctx| {
//!         let n = args[0].as_number().cloned().unwrap_or_else(hclvm::Number::zero);
//!         Ok(Value::number(n.add(&n).map_err(|e| hclvm::FnError::new(e.to_string()))?))
//!     }),
//! )).expect("a new, valid name");
//! let e = Compiled::expression("double(21)", &Options::new().functions(functions))?;
//! assert_eq!(e.evaluate(&Variables::new()).value().and_then(|v| v.as_number()?.to_i64()), Some(42));
//! # Ok::<(), hclvm::Error>(())
//! ```

mod cancel;
mod compiled;
mod de;
mod error;
mod natural_json;
mod options;
mod outcome;
mod plan;
pub(crate) mod result_format;
pub(crate) mod templatefile;
mod variables;

pub use cancel::CancelToken;
pub use compiled::{BoundVariables, Compiled, SourceKind};
pub use de::{from_value, DeError, ValueDeserializer};
pub use error::{Diagnostics, Error};
pub use options::Options;
pub use outcome::{AttributeOutcome, BlockOutcome, BodyOutcome, Evaluation, Outcome};
pub use variables::Variables;

pub use runtime::func::{
    refine_not_null, CallCtx, CallError, ErrorSite, FileAccess, FnError, FuncId, FunctionDef, FunctionTable, Functions, ImplFn, Param,
    RefineFn, RegisterError, Signature, SizeBudget, TypeFn,
};
pub use runtime::value::{Facts, RangeBound, Refinement, RefinementBuilder, Unknown};
pub use runtime::{convert, ConvError, Diagnostic, Number, ObjectType, Pos, Severity, Span, Str, TupleType, Type, Value};
pub use vm::Limits;
