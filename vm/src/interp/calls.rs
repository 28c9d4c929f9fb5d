//! Function calls.

use super::*;

impl<'a> Machine<'a> {
    /// Converts argument register `r` (argument `i` of call `c`) to its
    /// parameter's type, reporting a failed conversion at the argument.
    pub(super) fn convert_arg(&mut self, c: &CallSite, r: u16, i: usize) {
        let Some(funcs) = self.prog.file.funcs.as_deref() else { return };
        let Some(v) = self.s.regs.get(usize::from(r)) else { return };
        if self.s.aborted.is_some() {
            return;
        }
        let sig = funcs.signature(c.func);
        if sig.arg_converts_to_itself(i, v) {
            return;
        }
        self.allow_work();
        let converted = sig.convert_arg_changed(i, v);
        self.charge_noted_work();
        match converted {
            Ok(conv) => self.set(r, conv),
            // (This is `counted` written out: through it, policy took 500
            // more instructions per request.)
            Err(_) if self.starved() => {}
            Err(e) => self.call_error(c, *e, |i| c.args.get(i).map(|a| a.start).unwrap_or_default()),
        }
    }

    /// An argument conversion's result (run after [`Machine::allow_work`])
    /// with its work counted; the error of one that stopped for want of
    /// steps is dropped (`Ok(None)`, see [`Machine::starved`]).
    fn counted(&mut self, converted: Result<Option<Value>, Box<CallError>>) -> Result<Option<Value>, Box<CallError>> {
        self.charge_noted_work();
        match converted {
            Err(_) if self.starved() => Ok(None),
            r => r,
        }
    }

    /// Whether the evaluation is out of steps: after a call, conversion
    /// or operator off its fast path ([`Machine::binary_slow`])
    /// that the evaluation had not ended before (none runs after its end),
    /// whether it noted more work than [`Machine::allow_work`] allowed,
    /// and so stopped for want of steps ([`runtime::work::exhausted`]).
    /// Its error is then dropped: the evaluation's end is what is
    /// reported. An error it gave of its own accord is reported, also
    /// when a deadline or cancellation is noticed in the charge after it.
    #[inline]
    pub(super) fn starved(&self) -> bool {
        self.s.steps > self.s.limits.max_steps
    }

    /// A call whose converted arguments are in registers `base..base+n`.
    pub(super) fn call(&mut self, c: &CallSite, base: usize, n: usize) -> Value {
        let prog: &'a Program = self.prog;
        let Some(funcs) = prog.file.funcs.as_deref() else { return dynamic() };
        let mark = self.mark_at(c.mark);
        if self.errors_since(mark) || self.s.aborted.is_some() {
            return dynamic();
        }
        let Some(args) = self.s.regs.get(base..base + n) else { return dynamic() };
        let before = self.s.size.used();
        self.allow_work();
        let r = funcs.call(c.func, args, &mut self.s.size);
        self.charge_noted_work();
        let used = self.s.size.used().saturating_sub(before);
        // Kept only when the arguments reported nothing at all: a reuse
        // (`MEMO`) skips their code, so it must not drop a diagnostic.
        let quiet = self.s.diags.len() == mark;
        if let (Ok(v), Some(slot), true) = (&r, self.s.memos.get_mut(usize::from(c.memo)), quiet) {
            *slot = Some((v.clone(), used));
        }
        self.call_result(c, r, |i| c.args.get(i).map(|a| a.start).unwrap_or_default())
    }

    pub(super) fn call_result(&mut self, c: &CallSite, r: Result<Value, Box<CallError>>, arg_start: impl Fn(usize) -> Span) -> Value {
        match r {
            Ok(v) => v,
            Err(e) => {
                if self.s.size.exceeded() {
                    // Out of budget: the evaluation ends here, as when the
                    // VM's own building runs out (going on, every later
                    // call that builds would fail alike, once per loop
                    // iteration). The function says what it was building.
                    if self.s.aborted.is_none() {
                        self.s.aborted = Some(Abort::Memory);
                        self.s.abort_report = Some(Diagnostic::error(LIMIT_EXCEEDED, e.detail, Some(c.spans.span)));
                    }
                } else if !self.starved() {
                    self.call_error(c, *e, arg_start);
                }
                dynamic()
            }
        }
    }

    /// Reports `e` about call `c` where hcl puts it.
    #[cold]
    pub(super) fn call_error(&mut self, c: &CallSite, e: CallError, arg_start: impl Fn(usize) -> Span) {
        let subject = c.spans.subject(e.site, arg_start);
        self.push(Diagnostic::error(e.summary, e.detail, Some(subject)));
    }

    /// A call whose last argument is expanded (`f(a, xs...)`): the
    /// expanded value is evaluated first, then the arity is checked, then
    /// the other arguments are evaluated and converted in order.
    pub(super) fn call_expand(&mut self, c: &CallSite) -> Value {
        let prog: &'a Program = self.prog;
        let Some(funcs) = prog.file.funcs.as_deref() else { return dynamic() };
        let sig = funcs.signature(c.func);
        let Some(last) = c.args.last() else { return dynamic() };
        let expanded = match self.expand(&last.block, last.span) {
            Ok(elements) => elements,
            Err(v) => return v,
        };
        let fixed = c.args.len() - 1;
        let arg_count = fixed + expanded.len();
        let arg_start = |i: usize| -> Span {
            if i < fixed {
                c.args[i].start
            } else {
                last.span
            }
        };
        if let Err(e) = sig.check_arity(&c.spans.name, arg_count) {
            self.call_error(c, *e, arg_start);
            return dynamic();
        }
        let mark = self.s.diags.len();
        let mut vals: smallvec::SmallVec<[Value; 4]> = smallvec::SmallVec::with_capacity(arg_count);
        for i in 0..arg_count {
            if sig.param_for(i).is_none() {
                break;
            }
            let v = if i < fixed { self.block(&c.args[i].block) } else { expanded.get(i - fixed).cloned().unwrap_or_else(dynamic) };
            if sig.param_for(i).is_some_and(|p| p.type_constraint) {
                // The compiler read a written argument; an expanded one
                // is a value, which hcl's type reader refuses.
                if i >= fixed {
                    self.call_error(c, Param::not_a_type_constraint(i, &v), arg_start);
                }
                vals.push(v);
                continue;
            }
            if self.s.aborted.is_some() {
                return dynamic();
            }
            self.allow_work();
            let converted = sig.convert_arg(i, &v);
            match self.counted(converted) {
                Ok(None) => vals.push(v),
                Ok(Some(conv)) => vals.push(conv),
                Err(e) => {
                    self.call_error(c, *e, arg_start);
                    vals.push(v);
                }
            }
        }
        if self.errors_since(mark) || self.s.aborted.is_some() {
            return dynamic();
        }
        self.allow_work();
        let r = funcs.call(c.func, &vals, &mut self.s.size);
        self.charge_noted_work();
        self.call_result(c, r, arg_start)
    }
}
