//! Splat expressions.

use super::*;

impl<'a> Machine<'a> {
    pub(super) fn splat(&mut self, s: &SplatSite) -> Value {
        use crate::ops::{SplatFinish, SplatSource};
        let mark = self.s.diags.len();
        let source = self.block(&s.source);
        if self.errors_since(mark) {
            return dynamic();
        }
        let plan = match crate::ops::splat_source(&source) {
            SplatSource::Done(v) => return v,
            SplatSource::Error(e) => return self.op_result(Err(e), splat_span_of(s)),
            SplatSource::Iterate(plan) => plan,
        };
        drop(source);
        if plan.source_unknown() {
            let probed = self.splat_probe(s, &plan, true);
            return plan.unknown_source_result(&probed);
        }
        let items = plan.items();
        if !self.grow_elems(items.len()) {
            return dynamic();
        }
        let mut vals = Vec::with_capacity(items.len());
        let mut rest_failed = false;
        // `users[*].email`: an item whose path resolves plainly needs no
        // binding.
        let direct = self.local_path(&s.each, s.local);
        for item in items {
            if !self.tick() {
                return dynamic();
            }
            if let Some(v) = direct.and_then(|path| steps_ref(item, &path.steps)) {
                vals.push(v.clone());
                continue;
            }
            self.set(s.local, item.clone());
            let mark = self.s.diags.len();
            let v = self.block(&s.each);
            rest_failed |= self.errors_since(mark);
            vals.push(v);
        }
        self.set(s.local, dynamic());
        match plan.finish(vals, rest_failed) {
            Ok(SplatFinish::Value(v)) => v,
            Ok(SplatFinish::UnknownOfProbedType) => {
                let probed = self.splat_probe(s, &plan, false);
                plan.unknown_result(&probed)
            }
            Ok(SplatFinish::EmptyListOfProbedType) => {
                let probed = self.splat_probe(s, &plan, true);
                plan.empty_list(&probed)
            }
            Err(e) => self.op_result(Err(e), splat_span_of(s)),
        }
    }

    /// The types `each` gives for unknowns of the plan's probe types; its
    /// diagnostics are kept only when `keep`.
    pub(super) fn splat_probe(&mut self, s: &SplatSite, plan: &crate::ops::SplatPlan, keep: bool) -> Vec<Type> {
        let mark = self.s.diags.len();
        let saved = self.s.regs.get(usize::from(s.local)).cloned().unwrap_or_else(dynamic);
        self.probing += 1;
        let probed = plan
            .probe_types()
            .into_iter()
            .map(|ty| {
                self.set(s.local, Value::unknown(ty));
                self.block(&s.each).ty()
            })
            .collect();
        self.probing -= 1;
        self.set(s.local, saved);
        if !keep {
            self.discard_since(mark);
        }
        probed
    }
}
