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
        self.for_condition(f, steps, &include)
    }

    /// Whether the element whose `if` clause gave `include` is kept (the
    /// clause's problem, if any, reported).
    #[inline(always)]
    fn for_condition(&mut self, f: &ForSite, steps: &mut crate::ops::ForCollector, include: &Value) -> bool {
        let (include, diag) = steps.condition(include);
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
    #[inline(always)]
    fn for_value_of(&mut self, f: &ForSite) -> Value {
        if f.value.start == f.value.end && f.value.out.kind() == OpndKind::Local(f.val_local) {
            return take_reg(&mut self.s.regs, f.val_local);
        }
        self.block(&f.value)
    }

    /// A `for` expression of a tuple whose `if` clause (if any) and value
    /// are paths from the value variable ([`Machine::local_path`]): each
    /// element whose paths resolve plainly is read in place; the others
    /// take the general way ([`Machine::for_step`]), which reports why.
    #[inline(never)]
    fn for_direct(
        &mut self,
        f: &ForSite,
        coll: Value,
        mut result: crate::ops::ForCollector,
        cond_path: Option<&PathRef>,
        value_path: &PathRef,
    ) -> Value {
        for i in 0..coll.elements_slice().len() {
            if self.s.aborted.is_some() {
                return dynamic();
            }
            if let Some((cond, value)) = direct_reads(&coll, i, cond_path, value_path) {
                // The step `for_step` charges.
                if self.tick() && cond.map_or(true, |c| self.for_condition(f, &mut result, c)) {
                    result.push_element(value.clone());
                }
                continue;
            }
            if self.for_step(f, &coll, i, &mut result) {
                let val = self.for_value_of(f);
                result.push_element(val);
            }
        }
        if self.s.aborted.is_some() {
            return dynamic();
        }
        result.finish()
    }

    pub(super) fn for_expr(&mut self, f: &ForSite) -> Value {
        let Some(coll) = self.for_collection(f) else { return dynamic() };
        let kind = if f.key.is_some() { crate::ops::ForKind::Object { group: f.group } } else { crate::ops::ForKind::Tuple };
        // Without an `if` clause every element is kept; with one, often
        // few are (room made for all would then be made for nothing).
        let room = if f.cond.is_none() { coll.elements_slice().len() } else { 0 };
        let mut result = crate::ops::ForCollector::for_elements(kind, room);
        // `[for u in users : u.name]`, `[for u in users : u.name if
        // u.active]`: nothing but paths from the value variable reads the
        // iterators, so an element whose paths resolve plainly needs no
        // binding.
        if let Some(value_path) = if f.key.is_none() { self.local_path(&f.value, f.val_local) } else { None } {
            let cond_path = f.cond.as_ref().and_then(|(c, _)| self.local_path(c, f.val_local));
            if f.cond.is_none() || cond_path.is_some() {
                return self.for_direct(f, coll, result, cond_path, value_path);
            }
        }
        for i in 0..coll.elements_slice().len() {
            if self.s.aborted.is_some() {
                return dynamic();
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

/// Element `i`'s `if` value (when there is an `if` clause, by `cond`) and
/// value by `value`, read in place; `None` when a path does not resolve
/// plainly (the element then takes the general way, which reports why).
#[inline]
fn direct_reads<'v>(coll: &'v Value, i: usize, cond: Option<&PathRef>, value: &PathRef) -> Option<(Option<&'v Value>, &'v Value)> {
    let e = crate::ops::for_value(coll, i)?;
    let c = match cond {
        Some(p) => Some(steps_ref(e, &p.steps)?),
        None => None,
    };
    Some((c, steps_ref(e, &value.steps)?))
}
