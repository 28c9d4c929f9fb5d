//! `for` expressions.

use super::*;

impl<'a> Machine<'a> {
    /// The collection of a `for`, or `None` when the expression's value is
    /// `DynamicVal` without iterating (null, dynamic, non-iterable, unknown,
    /// or a failing `if` pre-check).
    pub(super) fn for_collection(&mut self, f: &ForSite) -> Option<Value> {
        let coll = self.block(&f.collection);
        let coll = match crate::ops::for_source(coll) {
            Ok(crate::ops::ForSource::Known(coll)) => coll,
            Ok(crate::ops::ForSource::Unknown) => return None,
            Err(e) => {
                self.op_result(Err(e), for_span_of(f));
                return None;
            }
        };
        if let Some((cond, _)) = f.cond.as_ref().filter(|_| f.precheck) {
            // The reference checks the condition once with unknown
            // iterators before iterating.
            if let Some(k) = f.key_local {
                self.set(k, dynamic());
            }
            self.set(f.val_local, dynamic());
            let mark = self.s.diags.len();
            let r = self.block(cond);
            if let Some(d) = crate::ops::ForCollector::precheck_condition(&r) {
                self.push(d.to_diagnostic(for_span_of(f)));
                return None;
            }
            if self.errors_since(mark) {
                return None;
            }
        }
        if !self.grow_elems(coll.elements_slice().len()) {
            return None;
        }
        Some(coll)
    }

    /// Binds element `i`'s iterators and evaluates the `if` clause:
    /// whether to include the element.
    pub(super) fn for_step(&mut self, f: &ForSite, coll: &Value, i: usize, steps: &mut crate::ops::ForCollector) -> bool {
        // Every iteration is charged, also when its body needs no code.
        if !self.tick() {
            return false;
        }
        let Some(v) = crate::ops::for_value(coll, i) else { return false };
        // (A `for` that binds no key does not make one.)
        if let Some(ks) = f.key_local {
            self.set(ks, crate::ops::for_key(coll, i, v));
        }
        self.set(f.val_local, v.clone());
        let Some((cond, _)) = &f.cond else { return true };
        let include = self.block(cond);
        let (include, diag) = steps.condition(&include);
        if let Some(d) = diag {
            self.push(d.to_diagnostic(for_span_of(f)));
        }
        include
    }

    /// The value expression's value for the element bound now. When it is
    /// the value variable itself (`[for x in xs : x if ...]`), the
    /// variable's register is read last in the step (the condition and key
    /// came before, and the next step binds it again): its value is moved
    /// out rather than cloned.
    #[inline]
    fn for_value_of(&mut self, f: &ForSite) -> Value {
        if f.value.start == f.value.end && f.value.out.kind() == OpndKind::Local(f.val_local) {
            return take_reg(&mut self.s.regs, f.val_local);
        }
        self.block(&f.value)
    }

    pub(super) fn for_expr(&mut self, f: &ForSite) -> Value {
        let Some(coll) = self.for_collection(f) else { return dynamic() };
        let kind = if f.key.is_some() { crate::ops::ForKind::Object { group: f.group } } else { crate::ops::ForKind::Tuple };
        // Without an `if` clause every element is kept; with one, often
        // few are (room made for all would then be made for nothing).
        let room = if f.cond.is_none() { coll.elements_slice().len() } else { 0 };
        let mut result = crate::ops::ForCollector::for_elements(kind, room);
        // `[for u in users : u.name]`: nothing but the value reads the
        // iterators, so an element whose path resolves plainly needs no
        // binding.
        let direct = if f.cond.is_none() && f.key.is_none() { self.local_path(&f.value, f.val_local) } else { None };
        for i in 0..coll.elements_slice().len() {
            if self.s.aborted.is_some() {
                return dynamic();
            }
            if let Some(v) = direct.and_then(|path| crate::ops::for_value(&coll, i).and_then(|e| steps_ref(e, &path.steps))) {
                // The step `for_step` charges.
                if self.tick() {
                    result.push_element(v.clone());
                }
                continue;
            }
            if !self.for_step(f, &coll, i, &mut result) {
                continue;
            }
            let key = match &f.key {
                None => None,
                Some((key_block, _)) => {
                    let raw = self.block(key_block);
                    let (key, diag) = result.key(raw);
                    // A key that is a number of high precision: its text
                    // is work.
                    self.charge_noted_work();
                    if let Some(d) = diag {
                        self.push(d.to_diagnostic(for_span_of(f)));
                    }
                    match key {
                        Some(k) => Some(k),
                        None => continue,
                    }
                }
            };
            let val = self.for_value_of(f);
            if let Some(d) = result.push(key, val) {
                self.push(d.to_diagnostic(for_span_of(f)));
            }
        }
        if self.s.aborted.is_some() {
            // A budget ran out during the loop: no partial result.
            return dynamic();
        }
        result.finish()
    }
}
