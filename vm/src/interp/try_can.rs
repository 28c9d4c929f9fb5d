//! `try` and `can`.

use super::*;

impl<'a> Machine<'a> {
    /// `try`'s and `can`'s start: the arity error, then the `...`
    /// expansion of the last argument (its elements), or the value to
    /// give at once.
    fn try_start(&mut self, t: &TrySite) -> Result<Option<Vec<Value>>, Value> {
        if let Some(d) = &t.arity_error {
            self.push((**d).clone());
            return Err(dynamic());
        }
        self.try_expand(t)
    }

    /// The elements of `try`/`can`'s expanded last argument (`Ok(None)`
    /// without `...`), or the call's value when expansion ends it, with
    /// hcl's checks.
    pub(super) fn try_expand(&mut self, t: &TrySite) -> Result<Option<Vec<Value>>, Value> {
        if !t.expand_final {
            return Ok(None);
        }
        let Some(last) = t.args.last() else { return Err(dynamic()) };
        self.expand(&last.block, last.span).map(Some)
    }

    /// The elements of an expanded last argument (`f(xs...)`) with hcl's
    /// checks, or the call's value when expansion ends it.
    pub(super) fn expand(&mut self, block: &Block, span: Span) -> Result<Vec<Value>, Value> {
        let mark = self.s.diags.len();
        let v = self.block(block);
        if self.errors_since(mark) {
            return Err(dynamic());
        }
        let ty = v.ty();
        if !(ty.is_dynamic() || ty.is_tuple() || ty.is_list() || ty.is_set()) {
            self.push(err(
                "Invalid expanding argument value",
                "The expanding argument (indicated by ...) must be of a tuple, list, or set type.",
                span,
            ));
            return Err(dynamic());
        }
        if v.is_null() {
            self.push(err("Invalid expanding argument value", "The expanding argument (indicated by ...) must not be null.", span));
            return Err(dynamic());
        }
        if ty.is_dynamic() || !v.is_known() {
            return Err(dynamic());
        }
        Ok(v.elements_slice().to_vec())
    }

    pub(super) fn try_(&mut self, t: &TrySite) -> Value {
        let mut failures: Vec<Diagnostic> = Vec::new();
        let v = self.try_args(t, &mut failures);
        // Summed up in the error, or moot after a success.
        self.discard(&failures);
        v
    }

    /// `try`'s arguments in turn; the diagnostics of those that failed are
    /// left in `failures`.
    pub(super) fn try_args(&mut self, t: &TrySite, failures: &mut Vec<Diagnostic>) -> Value {
        let expanded = match self.try_start(t) {
            Ok(e) => e,
            Err(v) => return v,
        };
        let fixed = if expanded.is_some() { &t.args[..t.args.len().saturating_sub(1)] } else { &t.args[..] };
        if fixed.is_empty() && expanded.as_ref().is_some_and(|e| e.is_empty()) {
            self.push(err("Error in function call", "Call to function \"try\" failed: at least one argument is required.", t.spans.start));
            return dynamic();
        }
        for arg in fixed.iter() {
            let mark = self.s.diags.len();
            let v = self.block(&arg.block);
            let failed = self.errors_since(mark);
            let ds = self.s.diags.split_off(mark);
            if failed {
                failures.extend(ds);
                continue;
            }
            self.discard(&ds);
            // A value with unknowns in it might still fail, or take
            // another type, once known.
            return if v.is_wholly_known() { v } else { dynamic() };
        }
        // Expanded elements are literal values: the first one succeeds.
        if let Some(first) = expanded.as_ref().and_then(|e| e.first()) {
            return if first.is_wholly_known() { first.clone() } else { dynamic() };
        }
        if self.s.aborted.is_some() {
            return dynamic();
        }
        let mut msg = String::from("no expression succeeded:\n");
        let lines = self.prog.file.src_lines.line_index();
        for d in failures.iter() {
            match d.subject {
                Some(span) => {
                    let range = lines.range_text(&self.prog.file.src_lines.src, &self.prog.file.filename, span);
                    msg.push_str(&format!("- {} (at {})\n  {}\n", d.summary, range, d.detail));
                }
                None => msg.push_str(&format!("- {}\n  {}\n", d.summary, d.detail)),
            }
        }
        msg.push_str("\nAt least one expression must produce a successful result");
        self.push(err("Error in function call", format!("Call to function {} failed: {msg}.", go_quote(&t.spans.name)), t.spans.start));
        dynamic()
    }

    pub(super) fn can(&mut self, t: &TrySite) -> Value {
        let expanded = match self.try_start(t) {
            Ok(e) => e,
            Err(v) => return v,
        };
        if let Some(e) = &expanded {
            let fixed = &t.args[..t.args.len().saturating_sub(1)];
            let count = fixed.len() + e.len();
            if count == 0 {
                self.push(err(
                    "Not enough function arguments",
                    "Function \"can\" expects 1 argument(s). Missing value for \"expression\".",
                    t.spans.close_paren,
                ));
                return dynamic();
            }
            if count > 1 {
                let subject = match fixed.get(1) {
                    Some(a) => a.start,
                    None => t.args.last().map(|a| a.span).unwrap_or(t.spans.span),
                };
                self.push(err("Too many function arguments", "Function \"can\" expects only 1 argument(s).", subject));
                return dynamic();
            }
            if fixed.is_empty() {
                // A literal value always evaluates; with unknowns in it,
                // whether it will is not known.
                let known = e.first().is_some_and(Value::is_wholly_known);
                return if known { Value::bool(true) } else { Value::unknown(Type::Bool) };
            }
        }
        let Some(arg) = t.args.first() else { return dynamic() };
        let mark = self.s.diags.len();
        let v = self.block(&arg.block);
        let failed = self.errors_since(mark);
        self.discard_since(mark);
        if failed {
            Value::bool(false)
        } else if !v.is_wholly_known() {
            // It may still fail once known.
            Value::unknown(Type::Bool)
        } else {
            Value::bool(true)
        }
    }
}
