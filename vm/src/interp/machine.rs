//! The machine's bookkeeping (steps, nesting, diagnostics and marks) and
//! its operands.

use super::*;

impl<'a> Machine<'a> {
    #[inline]
    pub(super) fn tick(&mut self) -> bool {
        self.s.steps += 1;
        if self.s.steps > self.s.check_at {
            self.checkpoint();
        }
        self.s.aborted.is_none()
    }

    /// Adds the work noted since ([`runtime::work`]) to the steps: work an
    /// instruction did that its one step does not measure (a call's, a
    /// comparison or conversion of collections). Past the step budget the
    /// evaluation ends.
    #[inline]
    pub(super) fn charge_noted_work(&mut self) {
        let work = runtime::work::take();
        if work > 0 {
            self.s.steps = self.s.steps.saturating_add(work);
            if self.s.steps > self.s.check_at {
                self.checkpoint();
            }
        }
    }

    /// Allows the call or conversion about to run the steps the evaluation
    /// has left ([`runtime::work::allow`]); [`Machine::charge_noted_work`]
    /// after it takes what it noted.
    #[inline]
    pub(super) fn allow_work(&self) {
        runtime::work::allow(self.s.limits.max_steps.saturating_sub(self.s.steps));
    }

    /// The step count passed [`Scratch::check_at`]: the step budget is
    /// exhausted, or it is time to check the [`Interrupts`].
    #[cold]
    #[inline(never)]
    pub(super) fn checkpoint(&mut self) {
        if self.s.aborted.is_some() {
            return;
        }
        if self.s.steps > self.s.limits.max_steps {
            self.s.aborted = Some(Abort::Steps);
            return;
        }
        match self.stop.and_then(Interrupts::triggered) {
            Some(why) => self.s.aborted = Some(why),
            None => self.s.check_at = self.s.steps.saturating_add(Interrupts::CHECK_INTERVAL).min(self.s.limits.max_steps),
        }
    }

    #[inline]
    pub(super) fn grow(&mut self, n: usize) -> bool {
        if !self.s.size.charge(n as u64) {
            self.s.aborted.get_or_insert(Abort::Memory);
        }
        self.s.aborted.is_none()
    }

    /// Whether a template's text of `len` bytes, not charged until the
    /// template is done, no longer fits what is left of the size budget
    /// (or the evaluation has ended otherwise); running out ends the
    /// evaluation as a failed charge does.
    pub(super) fn text_over_budget(&mut self, len: usize) -> bool {
        if len as u64 > self.s.size.remaining() {
            self.grow(len);
        }
        self.s.aborted.is_some()
    }

    /// Charges `n` collection elements.
    #[inline]
    pub(super) fn grow_elems(&mut self, n: usize) -> bool {
        if !self.s.size.charge_elements(n as u64) {
            self.s.aborted.get_or_insert(Abort::Memory);
        }
        self.s.aborted.is_none()
    }

    pub(super) fn errors_since(&self, mark: usize) -> bool {
        self.s.diags.get(mark..).is_some_and(|ds| ds.iter().any(|d| d.is_error()))
    }

    /// Reports `d`. Diagnostics are output too, charged to the size budget
    /// as what the evaluation builds is: a loop that reports an error in
    /// every iteration (`[for a in xs : [for b in ys : b.x]]`, a million
    /// errors from 50 bytes) ends at the budget instead of holding
    /// gigabytes of them. Those that `try`, `can`, a conditional's
    /// branches or a decided `&&`/`||` drop give their size back
    /// ([`Machine::discard`], [`Machine::discard_since`]).
    pub(super) fn push(&mut self, d: Diagnostic) {
        if !self.s.size.charge(diagnostic_cost(&d)) {
            self.s.aborted.get_or_insert(Abort::Memory);
            return;
        }
        self.s.diags.push(d);
    }

    /// Gives back the size budget `ds` took ([`Machine::push`]), as they
    /// are discarded.
    pub(super) fn discard(&mut self, ds: &[Diagnostic]) {
        self.s.size.refund(ds.iter().map(diagnostic_cost).sum());
    }

    /// Discards the diagnostics reported since `mark`.
    pub(super) fn discard_since(&mut self, mark: usize) {
        let dropped = self.s.diags.split_off(mark.min(self.s.diags.len()));
        self.discard(&dropped);
    }

    // ---- operands --------------------------------------------------------

    /// The value of an operand by reference; `None` for a variable this
    /// evaluation leaves unset.
    #[inline]
    pub(super) fn peek(&self, o: Opnd) -> Option<&Value> {
        match o.kind() {
            OpndKind::Temp(r) | OpndKind::Local(r) => self.s.regs.get(usize::from(r)),
            OpndKind::Const(k) => self.s.consts.get(usize::from(k)),
            OpndKind::Var(i) => path_value(self.chunk.paths.get(usize::from(i))?, self.vars, &self.s.regs),
        }
    }

    /// A path's root value (`None`: an unset variable).
    #[inline]
    pub(super) fn path_root(&self, path: &PathRef) -> Option<&Value> {
        path_root(path, self.vars, &self.s.regs)
    }

    /// The value of an operand, reporting an unset variable.
    #[inline]
    pub(super) fn read(&mut self, o: Opnd) -> Value {
        match self.peek(o) {
            Some(v) => v.clone(),
            None => self.unset_operand(o),
        }
    }

    /// A block's value, moved out of its register when it is a temporary.
    #[inline(always)]
    pub(super) fn take(&mut self, o: Opnd) -> Value {
        match o.kind() {
            OpndKind::Temp(r) => take_reg(&mut self.s.regs, r),
            _ => self.read(o),
        }
    }

    #[cold]
    pub(super) fn unset_operand(&mut self, o: Opnd) -> Value {
        match o.kind() {
            OpndKind::Var(i) => self.read_path(u32::from(i)),
            _ => dynamic(),
        }
    }

    /// Evaluates path `i` as the reference evaluates the traversal: the
    /// root (an unset variable is "Unknown variable"), then each step with
    /// its special cases and errors.
    pub(super) fn read_path(&mut self, i: u32) -> Value {
        let chunk: &'a Chunk = self.chunk;
        let Some(path) = chunk.paths.get(i as usize) else { return dynamic() };
        let root = match self.path_root(path) {
            Some(v) => v.clone(),
            None => return self.unset_var(path),
        };
        self.traverse(root, &path.steps)
    }

    /// A variable the program was compiled with but this evaluation does
    /// not define.
    #[cold]
    pub(super) fn unset_var(&mut self, path: &PathRef) -> Value {
        let PathRoot::Var(slot) = path.root else { return dynamic() };
        let names = self.prog.var_names();
        let name = names.get(slot as usize).map(|n| &**n).unwrap_or("");
        let d = self.unknown_variable(name, path.hint.as_deref(), path.span);
        self.push(d);
        dynamic()
    }

    /// `FAIL`: the site's diagnostic reported, `DynamicVal` in `R[a]`. Kept
    /// out of the evaluation loop: building diagnostics there cost the
    /// loop's other paths (policy 5.19 -> 4.84 µs with it apart, in one
    /// interleaved run).
    #[inline(never)]
    pub(super) fn fail(&mut self, a: u16, site: &Site) {
        match site {
            Site::Fail(d) => self.push((**d).clone()),
            Site::UnknownVariable(name, span) => {
                let d = self.unknown_variable(name, None, *span);
                self.push(d)
            }
            Site::FailByContext(ds) => self.push(ds[usize::from(self.probing > 0)].clone()),
            _ => {}
        }
        self.set(a, dynamic());
    }

    /// hcl's "Unknown variable" for `name`: suggesting the `for` iterator
    /// `iterator` when there is one (iterators are looked up first), else
    /// the closest name among the variables of this evaluation.
    ///
    /// A name's suggestion is searched for once per evaluation, each
    /// search charged its steps ([`crate::suggest::closest_within`]: a
    /// step per variable, more per variable close enough to be measured),
    /// so that many different unknown names against many variables end at
    /// the step budget.
    #[cold]
    pub(super) fn unknown_variable(&mut self, name: &str, iterator: Option<&str>, span: Span) -> Diagnostic {
        let report = |suggestion: Option<&str>| err("Unknown variable", crate::suggest::unknown_variable_detail(name, suggestion), span);
        if iterator.is_some() {
            return report(iterator);
        }
        let key = (name.as_ptr() as usize, name.len());
        if let Some(found) = self.s.suggestions.as_ref().and_then(|m| m.get(&key)) {
            return report(found.as_deref());
        }
        // (A search that runs out of steps ends the evaluation.)
        let left = self.s.limits.max_steps.saturating_sub(self.s.steps).saturating_add(1);
        let (suggestion, spent) = match &self.vars.names_in_scope {
            Some(names) => crate::suggest::closest_within(name, names.iter().map(|n| &**n), left),
            None => {
                // Every variable is looked at, set or not: a step each
                // (a program of many variables evaluated with few set).
                let names = self.prog.var_names();
                let scan = names.len() as u64;
                if scan >= left {
                    (None, left)
                } else {
                    let set = names.iter().enumerate().filter(|(i, _)| self.vars.get(*i as u32).is_some()).map(|(_, n)| &**n);
                    let (found, spent) = crate::suggest::closest_within(name, set, left - scan);
                    (found, spent + scan)
                }
            }
        };
        let d = report(suggestion);
        let suggestion = suggestion.map(Box::from);
        runtime::work::note(spent);
        self.charge_noted_work();
        self.s.suggestions.get_or_insert_with(Default::default).insert(key, suggestion);
        d
    }

    #[inline]
    pub(super) fn set(&mut self, r: u16, v: Value) {
        set_reg(&mut self.s.regs, r, v)
    }

    /// [`Machine::set`] for a bool.
    #[inline(always)]
    pub(super) fn set_bool(&mut self, r: u16, b: bool) {
        set_bool_reg(&mut self.s.regs, r, b)
    }

    /// The path block `b` reads when it has no code and its value is a
    /// path of one step or more from local register `r` (`u.name` where
    /// `u` is bound to `r`): a loop reads it straight from each element
    /// ([`steps_ref`]) instead of binding the element to `r` first, and
    /// binds it only when the path needs more than a lookup.
    pub(super) fn local_path(&self, b: &Block, r: u16) -> Option<&'a PathRef> {
        if b.start != b.end {
            return None;
        }
        let OpndKind::Var(i) = b.out.kind() else { return None };
        let chunk: &'a Chunk = self.chunk;
        chunk.paths.get(usize::from(i)).filter(|p| p.root == PathRoot::Local(r) && !p.steps.is_empty())
    }

    /// Runs a block and takes its value. (Inlined everywhere: it is small,
    /// and a frame of its own costs as much as it does.)
    #[inline(always)]
    pub(super) fn block(&mut self, b: &Block) -> Value {
        if b.start != b.end {
            self.nested(|m| m.run(b.start as usize, b.end as usize));
            // Once a limit is hit, blocks no longer run, so their output
            // register holds whatever an earlier block or evaluation left
            // there: the block's value is `D` instead (the evaluation's
            // value is discarded anyway; this keeps its diagnostics from
            // depending on stale registers).
            if self.s.aborted.is_some() {
                return dynamic();
            }
        }
        self.take(b.out)
    }

    /// Runs `f` one level of block nesting deeper. Nesting follows the
    /// source's (bounded by the parser); past a few levels the stack left
    /// is checked, and a fresh segment is used when it runs low, so deep
    /// programs evaluate on any thread.
    #[inline]
    pub(super) fn nested(&mut self, f: impl FnOnce(&mut Self)) {
        self.depth += 1;
        if self.depth < 16 {
            f(self);
        } else {
            stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, || f(self));
        }
        self.depth -= 1;
    }

    /// The diagnostics count at mark `m` (now when there is none).
    #[inline]
    pub(super) fn mark_at(&self, m: u16) -> usize {
        if m == NO_MARK {
            return self.s.diags.len();
        }
        self.s.marks.get(usize::from(m)).map_or(self.s.diags.len(), |&n| n as usize)
    }
}
