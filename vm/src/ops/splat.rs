//! Full splats `src[*].rest` and `src.*.rest` (hcl `SplatExpr`): `rest`
//! (the "each" traversal) is applied to every element of a list, set or
//! tuple; any other value is treated as a one-element tuple, or an empty
//! tuple when null.
//!
//! The VM runs `rest`; this module says what to run it on and what the
//! result is. Some results need the *type* `rest` would give: the VM then
//! evaluates `rest` on an unknown of each [`SplatPlan::probe_types`] type
//! ("probing") and passes the result types back. Blame: `Operand(0)` the
//! source, `Operand(1)` the splat marker.
//!
//! The flow (after evaluating the source; if that had errors, hcl
//! evaluates `rest` once on `DynamicVal` for its diagnostics and the result
//! is `DynamicVal`):
//! 1. [`splat_source`]: `Done(v)` / `Error(e)` end here.
//! 2. `Iterate(plan)`: if [`SplatPlan::source_unknown`], probe (keeping the
//!    probe's diagnostics) and the result is
//!    [`SplatPlan::unknown_source_result`].
//! 3. Otherwise run `rest` on each of [`SplatPlan::items`], noting whether
//!    any run had error diagnostics, and call [`SplatPlan::finish`].

use super::{Blame, OpDiag, OpError};
use runtime::{Type, Value};

/// What to do with a splat's source value.
#[derive(Clone, Debug)]
pub enum SplatSource {
    /// The result, without running `rest`: `[]` for a null that is not a
    /// sequence, `DynamicVal` for a source of unknown type.
    Done(Value),
    /// A null list, set or tuple (fallback `DynamicVal`).
    Error(Box<OpError>),
    Iterate(SplatPlan),
}

/// A sequence to apply `rest` to.
#[derive(Clone, Debug)]
pub struct SplatPlan {
    /// A list, set or tuple, known or not (a non-sequence source is
    /// wrapped in a one-element tuple).
    seq: Value,
    /// The source was an unknown non-sequence: whether it becomes null
    /// decides the length, so the result is `DynamicVal`.
    upgraded_unknown: bool,
}

/// How [`SplatPlan::finish`] ends.
#[derive(Clone, Debug)]
pub enum SplatFinish {
    Value(Value),
    /// Probe, then the result is [`SplatPlan::unknown_result`]; the probe's
    /// diagnostics are dropped (they repeat the element errors).
    UnknownOfProbedType,
    /// Probe (keeping its diagnostics), then the result is
    /// [`SplatPlan::empty_list`].
    EmptyListOfProbedType,
}

/// Classifies a splat's source value.
pub fn splat_source(v: &Value) -> SplatSource {
    let ty = v.ty();
    let sequence = matches!(ty, Type::List(_) | Type::Set(_) | Type::Tuple(_));
    if v.is_null() {
        if !sequence {
            return SplatSource::Done(Value::empty_tuple());
        }
        return SplatSource::Error(OpError::one(
            OpDiag {
                summary: "Splat of null value",
                detail: "Splat expressions (with the * symbol) cannot be applied to null sequences.".to_string(),
                subject: Blame::Operand(0),
                context: Some(Blame::Between(0, 1)),
            },
            Value::dynamic_unknown(),
        ));
    }
    if ty.is_dynamic() {
        return SplatSource::Done(Value::dynamic_unknown());
    }
    if sequence {
        return SplatSource::Iterate(SplatPlan { seq: v.clone(), upgraded_unknown: false });
    }
    // An unknown that may turn out null may give no element at all; one
    // that cannot be null gives one.
    SplatSource::Iterate(SplatPlan { seq: Value::tuple(vec![v.clone()]), upgraded_unknown: !v.is_known() && v.could_be_null() })
}

impl SplatPlan {
    /// The source sequence is unknown (only for list, set and tuple
    /// sources): probe and answer [`SplatPlan::unknown_result`].
    pub fn source_unknown(&self) -> bool {
        !self.seq.is_known()
    }

    /// The elements to run `rest` on, in order (sets in cty order).
    pub fn items(&self) -> &[Value] {
        self.seq.elements_slice()
    }

    /// The element types to probe `rest` with (as unknowns of these types):
    /// one for a list or set, one per element for a tuple.
    pub fn probe_types(&self) -> Vec<Type> {
        match self.seq.ty() {
            Type::List(e) | Type::Set(e) => vec![(*e).clone()],
            Type::Tuple(t) => t.elems().to_vec(),
            _ => Vec::new(),
        }
    }

    /// The result type given the probe's result types, parallel to
    /// [`SplatPlan::probe_types`]: a list of the one type, or a tuple.
    pub fn result_type(&self, probed: &[Type]) -> Type {
        match self.seq.ty() {
            Type::List(_) | Type::Set(_) => Type::list(probed.first().cloned().unwrap_or(Type::Dynamic)),
            Type::Tuple(_) => Type::tuple(probed.to_vec()),
            _ => Type::Dynamic,
        }
    }

    /// An unknown of the result type (after `rest` failed).
    pub fn unknown_result(&self, probed: &[Type]) -> Value {
        Value::unknown(self.result_type(probed))
    }

    /// The result for an unknown source sequence: an unknown of the result
    /// type that is not null (unless the type is dynamic), and for a list
    /// or set source, a list whose length is bounded as the source's is.
    pub fn unknown_source_result(&self, probed: &[Type]) -> Value {
        let ty = self.result_type(probed);
        if ty.is_dynamic() {
            return Value::unknown(ty);
        }
        let list = ty.is_list();
        let mut b = Value::unknown(ty).refine();
        b.not_null();
        if list && self.seq.ty().is_collection() {
            let (lo, hi) = self.seq.length_bounds();
            b.collection_length_lower_bound(lo).collection_length_upper_bound(hi);
        }
        b.into_value()
    }

    /// The empty list a list or set source without elements gives.
    pub fn empty_list(&self, probed: &[Type]) -> Value {
        Value::list_empty(probed.first().cloned().unwrap_or(Type::Dynamic))
    }

    /// The result from `rest`'s value for each item; `rest_failed`: some
    /// run had error diagnostics.
    pub fn finish(&self, vals: Vec<Value>, rest_failed: bool) -> Result<SplatFinish, Box<OpError>> {
        if self.upgraded_unknown {
            return Ok(SplatFinish::Value(Value::dynamic_unknown()));
        }
        if rest_failed {
            return Ok(SplatFinish::UnknownOfProbedType);
        }
        match self.seq {
            Value::List(_) | Value::Set(_) => {
                if vals.is_empty() {
                    return Ok(SplatFinish::EmptyListOfProbedType);
                }
                // `rest` gives every element of one list the same type, bar
                // pathological cases where cty itself would panic.
                Value::list(vals).map(SplatFinish::Value).map_err(|e| {
                    OpError::one(
                        OpDiag::new("Inconsistent splat result types", format!("The splat results can't form a list: {e}."), Blame::Expr),
                        Value::dynamic_unknown(),
                    )
                })
            }
            _ => Ok(SplatFinish::Value(Value::tuple(vals))),
        }
    }
}
