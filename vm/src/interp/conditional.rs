//! Conditional expressions.

use super::*;

impl<'a> Machine<'a> {
    pub(super) fn conditional(&mut self, c: &CondSite) -> Value {
        let mark = self.s.diags.len();
        let t = self.block(&c.true_result);
        let t_diags = self.s.diags.split_off(mark);
        let f = self.block(&c.false_result);
        let f_diags = self.s.diags.split_off(mark);
        // Both branches' diagnostics are set aside (their size given back);
        // the taken branch's are reported again below.
        self.discard(&t_diags);
        self.discard(&f_diags);
        let plan = match crate::ops::conditional_plan(&t, &f) {
            Ok(p) => p,
            Err(d) => {
                self.push(d.to_diagnostic(cond_span_of(c)));
                return dynamic();
            }
        };
        let chosen = match self.condition_choice(c) {
            Ok(Some(b)) => b,
            Ok(None) => {
                // Bounds of the two results compared (numbers of high
                // precision: work).
                let v = plan.unknown_result(&t, &f);
                self.charge_noted_work();
                return v;
            }
            Err(()) => return Value::unknown(plan.result_type),
        };
        let (pick, diags) = if chosen { (t, t_diags) } else { (f, f_diags) };
        for d in diags {
            self.push(d);
        }
        let finished = plan.finish(chosen, pick);
        // The chosen result converted to the unified type.
        self.charge_noted_work();
        match finished {
            Ok(v) => v,
            Err((d, v)) => {
                self.push(d.to_diagnostic(cond_span_of(c)));
                v
            }
        }
    }

    /// Evaluates a conditional's condition: the branch it selects,
    /// `Ok(None)` when it is unknown, `Err` when it is invalid (reported).
    pub(super) fn condition_choice(&mut self, c: &CondSite) -> Result<Option<bool>, ()> {
        let cond = self.block(&c.condition);
        crate::ops::condition_choice(&cond).map_err(|d| {
            self.push(d.to_diagnostic(cond_span_of(c)));
        })
    }
}
