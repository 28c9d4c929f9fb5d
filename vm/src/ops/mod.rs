//! What HCL's expressions do to values: the pure functions the VM's
//! instructions call, with the reference's (hcl v2.20.0 + go-cty v1.13.0)
//! operand conversions, unknown and null rules, and diagnostic wording.
//!
//! Nothing here knows about source text. A failure is an [`OpError`]: one
//! or more [`OpDiag`]s, each saying which part of the expression to blame
//! ([`Blame`]), plus the value the expression has despite the error (hcl
//! keeps evaluating after errors, so enclosing expressions see it).
//!
//! # API
//!
//! Operators (`binary_op.go` / stdlib operator functions):
//! - [`binary`]`(BinaryOp, &lhs, &rhs) -> OpResult` — operands converted to
//!   number/bool (`==`/`!=` take any values), nulls rejected, any unknown
//!   operand gives an unknown result.
//! - [`unary`]`(UnaryOp, &v) -> OpResult`.
//! - [`binary_checked`] / [`unary_checked`]: the same when an operand's
//!   evaluation already reported errors (only conversion errors are added).
//! - [`binary_fast`]`(op, &lhs, &rhs) -> Option<Value>`: the plain-success
//!   cases on known primitive operands, by reference and without
//!   allocating (the evaluator's hot path; `binary` starts with it too).
//! - [`compare_fast`]`(op, &lhs, &rhs) -> Option<bool>`: the same for the
//!   comparison and logic operators, giving the bool.
//!
//! Accessors (`hcl.Index`, `hcl.GetAttr`; blame [`Blame::Step`]):
//! - [`index`]`(&collection, &key) -> OpResult` (`c[k]`, `c.0` too: see
//!   [`legacy_index`]), [`get_attr`]`(&v, name) -> OpResult`.
//! - [`index_ref`]`(&collection, &key) -> Option<&Value>`: plain lookups by
//!   reference (what `index` tries first).
//!
//! Templates:
//! - [`template_part`]`(&v) -> Result<TemplatePart, OpDiag>` — one
//!   interpolation of a template with several parts;
//!   [`push_template_part`] appends it to a buffer instead.
//! - [`template_join`]`(&tuple) -> OpResult` — the `%{for}` directive's join.
//!
//! Conditionals: [`conditional`]`(&cond, &t, &f) -> Conditional` (both
//! results are evaluated first, as hcl does; only the chosen one's
//! diagnostics survive, see [`Conditional`]). The same in hcl's order of
//! evaluation (the condition only after the results' types unify):
//! [`conditional_plan`]`(&t, &f)`, [`condition_choice`]`(&cond)`,
//! [`CondPlan::finish`].
//!
//! Constructors: [`make_tuple`], [`ObjectBuilder`] (`{k = v}`).
//!
//! `for` expressions: [`for_source`]`(coll) -> Result<ForSource, OpError>`,
//! [`for_element`] (key/value of element i; [`for_value`] and [`for_key`],
//! each alone), [`ForCollector`] (the `if`
//! clause, keys, grouping, duplicates, the result).
//!
//! Splats: [`splat_source`]`(&v) -> SplatSource` and [`SplatPlan`].

mod access;
mod conditional;
mod construct;
mod for_expr;
mod operator;
mod splat;
mod template;

pub use access::{get_attr, index, index_ref, legacy_index};
pub use conditional::{condition_choice, conditional, conditional_plan, CondBranch, CondPlan, Conditional};
pub use construct::{make_tuple, ObjectBuilder};
pub use for_expr::{for_element, for_key, for_source, for_value, ForCollector, ForKind, ForSource};
pub use operator::{
    binary, binary_checked, binary_fast, compare_fast, is_operand_conversion, left_decides, logical_short_circuit, unary, unary_checked,
    BinaryOp, Keep, Logic, UnaryOp,
};
pub use splat::{splat_source, SplatFinish, SplatPlan, SplatSource};
pub use template::{push_template_part, template_join, template_part, TemplatePart};

use runtime::diag::{Diagnostic, Span};
use runtime::Value;

/// Which part of the expression a diagnostic is about. The numbering of
/// operands is given by each function:
///
/// | expression | `Operand(0)` | `Operand(1)` | `Operand(2)` | `Operand(3)` |
/// |---|---|---|---|---|
/// | binary op | lhs | rhs | | |
/// | unary op | operand | | | |
/// | conditional | condition | true result | false result | |
/// | template part | the interpolated expression | | | |
/// | object constructor item | key expr | value expr | | |
/// | `for` | collection | key expr | value expr | `if` expr |
/// | splat | source | the `[*]`/`.*` marker | | |
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blame {
    /// The whole expression.
    Expr,
    /// One sub-expression (see the table).
    Operand(u8),
    /// From the start of one operand to the end of another
    /// (hcl's `RangeBetween`).
    Between(u8, u8),
    /// A traversal step: the brackets of `c[k]` (hcl's `BracketRange`) or
    /// the `.name` / `[k]` traverser's own range.
    Step,
}

/// One diagnostic (always an error) without source positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpDiag {
    pub summary: &'static str,
    pub detail: String,
    pub subject: Blame,
    pub context: Option<Blame>,
}

impl OpDiag {
    pub fn new(summary: &'static str, detail: impl Into<String>, subject: Blame) -> OpDiag {
        OpDiag { summary, detail: detail.into(), subject, context: None }
    }
    /// Sets the context to the whole expression, as most hcl expression
    /// diagnostics do.
    pub fn in_expr(mut self) -> OpDiag {
        self.context = Some(Blame::Expr);
        self
    }
    /// The diagnostic with source spans, given how to find each part.
    pub fn to_diagnostic(&self, span_of: impl Fn(Blame) -> Option<Span>) -> Diagnostic {
        let mut d = Diagnostic::error(self.summary, self.detail.clone(), span_of(self.subject));
        d.context = self.context.and_then(&span_of);
        d
    }
}

/// A failed operation: its diagnostics (in hcl's order) and the value the
/// expression evaluates to anyway.
#[derive(Clone, Debug)]
pub struct OpError {
    pub diags: Vec<OpDiag>,
    pub fallback: Value,
}

impl OpError {
    pub fn one(diag: OpDiag, fallback: Value) -> Box<OpError> {
        Box::new(OpError { diags: vec![diag], fallback })
    }
}

/// The result of an operation; the error is boxed to keep the success path
/// small.
pub type OpResult = Result<Value, Box<OpError>>;

const _: () = assert!(std::mem::size_of::<OpResult>() <= 24);
