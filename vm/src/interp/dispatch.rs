//! The dispatch loop, and the instructions it runs inline.

use super::*;

impl<'a> Machine<'a> {
    /// Runs a program's entry block `start..end`, whose instructions are
    /// all simple: from their fast forms at `fast_at` ([`Program::fast_at`])
    /// in the fast lane while it finishes them the common way (see
    /// `fast_lane`), the rest in [`Machine::run`]. Steps are charged as
    /// `run` charges them: the fast lane is entered only when the whole
    /// block's steps reach no step check (else `run` runs all of it), and
    /// it charges those it ran.
    #[inline(never)]
    pub(super) fn run_fast_entry(&mut self, fast_at: usize, start: usize, end: usize) {
        let prog: &'a Chunk = self.chunk;
        let mut first = start;
        if let Some(fast) = prog.fast.get(fast_at..fast_at + (end - start)) {
            // (Nothing is reported yet at a program's start: diagnostics
            // were cleared; steps count on from the body's earlier
            // programs. A program that starts aborted runs nothing.)
            debug_assert!(self.s.diags.is_empty());
            if self.s.aborted.is_none() && self.s.steps + fast.len() as u64 <= self.s.check_at {
                let from = fast_lane::Operands { consts: self.s.consts.all(), vars: self.vars, paths: &prog.paths };
                let done = fast_lane::run(fast, &mut self.s.regs, &mut self.s.marks, &from);
                self.s.steps += done as u64;
                first += done;
            }
        }
        if first < end {
            self.nested(|m| m.run(first, end));
        }
    }

    pub(super) fn run(&mut self, start: usize, end: usize) {
        let prog: &'a Chunk = self.chunk;
        let code = prog.code.get(start..end).unwrap_or(&[]);
        // A block is straight-line code: its instructions are charged at
        // once (loops charge each run of their body).
        self.s.steps += code.len() as u64;
        if self.s.steps > self.s.check_at {
            self.checkpoint();
        }
        if self.s.aborted.is_some() {
            return;
        }
        for (i, ins) in code.iter().enumerate() {
            let pc = start + i;
            let a = ins.a;
            match ins.op {
                Op::Move => {
                    let v = self.read(ins.ob());
                    self.set(a, v);
                }
                Op::LoadK => {
                    let v = self.s.consts.get(ins.bx() as usize).cloned().unwrap_or_else(dynamic);
                    self.set(a, v);
                }
                Op::LoadV => {
                    let v = self.read_path(ins.bx());
                    self.set(a, v);
                }
                Op::Fail => self.fail(a, prog.site(pc)),
                Op::Mark => {
                    let n = self.s.diags.len() as u32;
                    if let Some(m) = self.s.marks.get_mut(usize::from(a)) {
                        *m = n;
                    }
                }
                Op::Get => {
                    let Site::Steps(steps) = prog.site(pc) else { continue };
                    let fast = self.peek(ins.ob()).and_then(|v| steps_ref(v, steps)).cloned();
                    let v = match fast {
                        Some(v) => v,
                        None => {
                            let v = self.read(ins.ob());
                            self.traverse(v, steps)
                        }
                    };
                    self.set(a, v);
                }
                Op::Index => {
                    let fast = match (self.peek(ins.ob()), self.peek(ins.oc())) {
                        (Some(c), Some(k)) if !key_text_is_work(k) => Some(crate::ops::index(c, k)),
                        _ => None,
                    };
                    let r = match fast {
                        Some(r) => r,
                        None => self.index_slow(ins.ob(), ins.oc()),
                    };
                    let bracket = match prog.site(pc) {
                        Site::Span(s) => *s,
                        _ => Span::default(),
                    };
                    let v = self.op_result(r, |_| Some(bracket));
                    self.set(a, v);
                }
                // One arm per operator, so that each compares with its own
                // code (no second dispatch on the operator, whose jump
                // would be shared by all of them).
                Op::Eq => self.compare(crate::ops::BinaryOp::Eq, *ins, pc),
                Op::Ne => self.compare(crate::ops::BinaryOp::NotEq, *ins, pc),
                Op::Lt => self.compare(crate::ops::BinaryOp::Lt, *ins, pc),
                Op::Le => self.compare(crate::ops::BinaryOp::Le, *ins, pc),
                Op::Gt => self.compare(crate::ops::BinaryOp::Gt, *ins, pc),
                Op::Ge => self.compare(crate::ops::BinaryOp::Ge, *ins, pc),
                Op::And => self.compare(crate::ops::BinaryOp::And, *ins, pc),
                Op::Or => self.compare(crate::ops::BinaryOp::Or, *ins, pc),
                Op::Add | Op::Sub | Op::Mul | Op::Div | Op::Mod => {
                    let op = binary_op(ins.op).unwrap_or(crate::ops::BinaryOp::Mod);
                    let fast = match (self.peek(ins.ob()), self.peek(ins.oc())) {
                        (Some(l), Some(r)) => crate::ops::binary_fast(op, l, r),
                        _ => None,
                    };
                    // hcl's operators give an unknown result when an
                    // operand reported errors, even one with a known value
                    // (a template with a null interpolation): the fast
                    // result stands only if the operands reported nothing
                    // (checked only when there are diagnostics at all).
                    let v = match fast {
                        Some(v) if self.s.diags.is_empty() || self.operands_clean(prog.site(pc)) => v,
                        _ => self.binary_slow(op, ins.ob(), ins.oc(), prog.site(pc)),
                    };
                    self.set(a, v);
                }
                Op::Neg | Op::Not => {
                    let op = if ins.op == Op::Neg { crate::ops::UnaryOp::Neg } else { crate::ops::UnaryOp::Not };
                    let site = match prog.site(pc) {
                        Site::Operator(s) => s,
                        _ => &NO_OPERATOR,
                    };
                    let mark = self.mark_at(site.mark);
                    let v = self.read(ins.ob());
                    let had_errors = self.errors_since(mark);
                    let r = crate::ops::unary_checked(op, &v, had_errors);
                    if op == crate::ops::UnaryOp::Neg {
                        // The negation of a number of high precision copies
                        // it. (Each way tried out of the loop cost policy,
                        // which negates nothing, more instructions.)
                        self.charge_noted_work();
                    }
                    let v = self.op_result(r, |blame| match blame {
                        Blame::Operand(0) => Some(site.lhs),
                        _ => Some(site.span),
                    });
                    self.set(a, v);
                }
                Op::Tuple => {
                    let base = usize::from(ins.b);
                    let n = usize::from(ins.c);
                    let v = if self.grow_elems(n) {
                        let vals: Vec<Value> = match self.s.regs.get_mut(base..base + n) {
                            Some(rs) => rs.iter_mut().map(|r| std::mem::replace(r, dynamic())).collect(),
                            None => Vec::new(),
                        };
                        crate::ops::make_tuple(vals)
                    } else {
                        dynamic()
                    };
                    self.set(a, v);
                }
                Op::ArgConv => {
                    if let Site::Call(c) = prog.site(pc) {
                        self.convert_arg(c, ins.b, usize::from(ins.c));
                    }
                }
                Op::Call => {
                    let v = self.call_op(*ins, prog.site(pc));
                    self.set(a, v);
                }
                Op::AndThen | Op::OrElse => {
                    let v = self.logic(*ins, prog.site(pc));
                    self.set(a, v);
                }
                Op::CallExpand | Op::Object | Op::Template | Op::Cond | Op::For | Op::Splat | Op::Try | Op::Can | Op::Memo => {
                    let v = self.structured(*ins, prog.site(pc));
                    self.set(a, v);
                }
                Op::Join => {
                    let span = match prog.site(pc) {
                        Site::Span(s) => *s,
                        _ => Span::default(),
                    };
                    let t = self.read(ins.ob());
                    let v = self.template_join(&t, span);
                    self.set(a, v);
                }
            }
        }
    }

    /// A comparison or logic operator (`EQ` .. `GE`, `AND`, `OR`): its bool
    /// decided inline in the common cases and written to its register
    /// without a `Value` in between.
    #[inline(always)]
    pub(super) fn compare(&mut self, op: crate::ops::BinaryOp, ins: Instr, pc: usize) {
        let fast = match (self.peek(ins.ob()), self.peek(ins.oc())) {
            (Some(l), Some(r)) => crate::ops::compare_fast(op, l, r),
            _ => None,
        };
        // As for arithmetic: the fast result stands only if the operands
        // reported nothing.
        let chunk: &'a Chunk = self.chunk;
        match fast {
            Some(b) if self.s.diags.is_empty() || self.operands_clean(chunk.site(pc)) => self.set_bool(ins.a, b),
            _ => {
                let v = self.binary_slow(op, ins.ob(), ins.oc(), chunk.site(pc));
                self.set(ins.a, v);
            }
        }
    }

    /// `CALL`, the most frequent instruction with a site, out of line on
    /// its own (a smaller frame than [`Machine::structured`]'s).
    #[inline(never)]
    pub(super) fn call_op(&mut self, ins: Instr, site: &Site) -> Value {
        match site {
            Site::Call(c) => self.call(c, usize::from(ins.b), usize::from(ins.c)),
            _ => dynamic(),
        }
    }

    /// `ANDTHEN` / `ORELSE`: hcl ≥ v2.21's short-circuit `&&` / `||`
    /// ([`crate::ops::logical_short_circuit`]). The left operand's
    /// diagnostics are those since the site's mark (its code ran before
    /// this instruction) plus those of reading it; the right operand's are
    /// those of its block.
    #[inline(never)]
    pub(super) fn logic(&mut self, ins: Instr, site: &Site) -> Value {
        let Site::Logic(s) = site else { return dynamic() };
        let or = ins.op == Op::OrElse;
        let mark_l = self.mark_at(s.mark);
        // The common case: a known bool, read in place.
        let lhs = match self.peek(ins.ob()) {
            Some(Value::Bool(l)) => {
                let l = *l;
                if l == or && s.rhs_converts {
                    // Decided by the left operand, with its diagnostics.
                    return Value::Bool(l);
                }
                Value::Bool(l)
            }
            _ => self.read(ins.ob()),
        };
        if s.rhs_converts && crate::ops::left_decides(or, &lhs) {
            return Value::Bool(or);
        }
        let mark_r = self.s.diags.len();
        let rhs = self.block(&s.rhs);
        if mark_l == self.s.diags.len() {
            if let (Value::Bool(l), Value::Bool(r)) = (&lhs, &rhs) {
                return Value::Bool(if or { *l || *r } else { *l && *r });
            }
        }
        let lhs_failed = self.errors_between(mark_l, mark_r);
        let rhs_failed = self.errors_since(mark_r);
        let span_of = |blame| match blame {
            Blame::Operand(0) => Some(s.lhs),
            Blame::Operand(1) => Some(s.rhs_span),
            _ => Some(s.span),
        };
        match crate::ops::logical_short_circuit(or, &lhs, &rhs, lhs_failed, rhs_failed) {
            crate::ops::Logic::Decided(v, crate::ops::Keep::Left) => {
                self.discard_since(mark_r);
                v
            }
            crate::ops::Logic::Decided(v, crate::ops::Keep::Right) => {
                let dropped: Vec<Diagnostic> = self.s.diags.drain(mark_l..mark_r).collect();
                self.discard(&dropped);
                v
            }
            crate::ops::Logic::Invalid(e) => {
                let operands = self.s.diags.split_off(mark_l);
                let v = self.op_result(Err(e), span_of);
                self.s.diags.extend(operands);
                v
            }
            crate::ops::Logic::Applied(r) => self.op_result(r, span_of),
        }
    }

    pub(super) fn errors_between(&self, from: usize, to: usize) -> bool {
        self.s.diags.get(from..to).is_some_and(|ds| ds.iter().any(|d| d.is_error()))
    }

    /// A structured instruction: its site holds the blocks it runs. Kept
    /// out of line so that the dispatch loop stays small (it runs once per
    /// block, and its frame is set up as often).
    #[inline(never)]
    pub(super) fn structured(&mut self, ins: Instr, site: &Site) -> Value {
        match (ins.op, site) {
            (Op::CallExpand, Site::Call(c)) => self.call_expand(c),
            (Op::Object, Site::Object(items)) => self.object(items),
            (Op::Template, Site::Template(parts)) => self.template(parts),
            (Op::Cond, Site::Cond(c)) => self.conditional(c),
            (Op::For, Site::For(f)) => self.for_expr(f),
            (Op::Splat, Site::Splat(s)) => self.splat(s),
            (Op::Try, Site::Try(t)) => self.try_(t),
            (Op::Can, Site::Try(t)) => self.can(t),
            (Op::Memo, Site::Block(b)) if ins.c == 1 => self.shared_memo(ins.b, b),
            (Op::Memo, Site::Block(b)) => self.memo(ins.b, b),
            _ => dynamic(),
        }
    }

    /// `MEMO`: the memoized call's value, or the call's code run (which
    /// sets the memo when the call succeeds).
    pub(super) fn memo(&mut self, slot: u16, code: &Block) -> Value {
        // The same pure function on the same arguments (they read only
        // host variables and constants, which an evaluation does not
        // change) succeeded before.
        match reuse(self.s.memos.get(usize::from(slot)), &mut self.s.size) {
            Some(v) => v.clone(),
            None => self.block(code),
        }
    }

    /// `MEMO` with a shared slot: the subexpression's value if another
    /// occurrence computed it in this evaluation of the body without
    /// reporting anything, else its code run (keeping the value when it
    /// reports nothing).
    pub(super) fn shared_memo(&mut self, slot: u16, code: &Block) -> Value {
        let slot = usize::from(slot);
        if let Some(v) = reuse(self.s.shared.get(slot), &mut self.s.size) {
            return v.clone();
        }
        let (mark, size) = (self.s.diags.len(), self.s.size.used());
        let v = self.block(code);
        if self.s.diags.len() == mark && self.s.aborted.is_none() {
            let used = self.s.size.used().saturating_sub(size);
            if let Some(entry) = self.s.shared.get_mut(slot) {
                *entry = Some((v.clone(), used));
            }
        }
        v
    }

    /// Takes a `vm::ops` result: its value, or its diagnostics placed with
    /// `span_of` and its fallback value.
    pub(super) fn op_result(&mut self, r: crate::ops::OpResult, span_of: impl Fn(Blame) -> Option<Span>) -> Value {
        match r {
            Ok(v) => v,
            Err(e) => {
                for d in &e.diags {
                    let diag = d.to_diagnostic(&span_of);
                    self.push(diag);
                }
                e.fallback
            }
        }
    }

    /// Whether an operator's operands reported no error (operands without
    /// code report only through their own reads, which the fast path does
    /// not do).
    #[cold]
    pub(super) fn operands_clean(&self, site: &Site) -> bool {
        match site {
            Site::Operator(s) if s.mark != NO_MARK => !self.errors_since(self.mark_at(s.mark)),
            _ => true,
        }
    }

    /// `INDEX` off its fast path: operands read through their failures,
    /// or a number key whose text (a map's key, an index out of range
    /// reported) may be work.
    #[cold]
    #[inline(never)]
    fn index_slow(&mut self, ob: Opnd, oc: Opnd) -> crate::ops::OpResult {
        let c = self.read(ob);
        let k = self.read(oc);
        let r = crate::ops::index(&c, &k);
        self.charge_noted_work();
        r
    }

    /// An operator off its fast path: operands that failed, need
    /// conversion, are unknown or null.
    #[cold]
    pub(super) fn binary_slow(&mut self, op: crate::ops::BinaryOp, lo: Opnd, ro: Opnd, site: &Site) -> Value {
        let site = match site {
            Site::Operator(s) => s,
            _ => &NO_OPERATOR,
        };
        let mark = self.mark_at(site.mark);
        let l = self.read(lo);
        let r = self.read(ro);
        let had_errors = self.errors_since(mark);
        self.allow_work();
        let res = crate::ops::binary_checked(op, &l, &r, had_errors);
        // Comparing (or converting) two collections, or arithmetic on
        // numbers of high precision, is work the one step does not measure.
        self.charge_noted_work();
        if res.is_err() && self.starved() {
            // Stopped for want of steps: the evaluation's end is reported.
            return dynamic();
        }
        let span_of = |blame| match blame {
            Blame::Operand(0) => Some(site.lhs),
            Blame::Operand(1) => Some(site.rhs),
            _ => Some(site.span),
        };
        match res {
            Err(e)
                if site.conversion_errors_first && self.s.diags.len() > mark && e.diags.iter().any(crate::ops::is_operand_conversion) =>
            {
                // hcl ≥ v2.21: the conversion errors, then the operands'
                // diagnostics.
                let operands = self.s.diags.split_off(mark);
                let v = self.op_result(Err(e), span_of);
                self.s.diags.extend(operands);
                v
            }
            res => self.op_result(res, span_of),
        }
    }

    pub(super) fn traverse(&mut self, v: Value, steps: &[Step]) -> Value {
        let v = self.traverse_steps(v, steps);
        // A key that is a number of high precision: its text is work.
        self.charge_noted_work();
        v
    }

    fn traverse_steps(&mut self, mut v: Value, steps: &[Step]) -> Value {
        for step in steps {
            let r = match step {
                Step::Attr(name, _, _) => crate::ops::get_attr(&v, name),
                Step::Index(key, _) => crate::ops::index(&v, key),
            };
            match r {
                Ok(next) => v = next,
                Err(e) => {
                    let span = match step {
                        Step::Attr(_, s, _) | Step::Index(_, s) => *s,
                    };
                    return self.op_result(Err(e), |_| Some(span));
                }
            }
        }
        v
    }

    pub(super) fn object(&mut self, items: &[ObjectItemSite]) -> Value {
        if !self.grow_elems(items.len()) {
            return dynamic();
        }
        let mut object = crate::ops::ObjectBuilder::with_capacity(items.len());
        for item in items {
            let (diag, key_span) = match &item.key {
                ObjectKeySite::Name(key) => {
                    let val = self.block(&item.value);
                    (object.push(key, false, val), Span::default())
                }
                ObjectKeySite::Expr(block, span) => {
                    let mark = self.s.diags.len();
                    let key = self.block(block);
                    let key_failed = self.errors_since(mark);
                    let val = self.block(&item.value);
                    let pushed = object.push(&key, key_failed, val);
                    // A number key's text may be work.
                    if key_text_is_work(&key) {
                        self.charge_noted_work();
                    }
                    (pushed, *span)
                }
            };
            if let Some(d) = diag {
                self.push(d.to_diagnostic(|blame| match blame {
                    Blame::Operand(0) => Some(key_span),
                    Blame::Operand(1) => Some(item.value_span),
                    _ => None,
                }));
            }
        }
        object.finish()
    }
}

/// The value `entry` keeps, charged the size budget it cost when computed;
/// `None` when nothing is kept, or when less budget is left than that (the
/// code then runs again and fails as it would have).
///
/// The caller clones the value straight into its result: a clone wrapped
/// in an `Option` is taken apart by copying it from an offset of one byte,
/// and that copy stalls on the stores the clone has just made (perf: two
/// thirds of the time of a shared subexpression's reuse).
#[inline(always)]
fn reuse<'e>(entry: Option<&'e Option<(Value, u64)>>, size: &mut SizeBudget) -> Option<&'e Value> {
    let Some(Some((v, used))) = entry else { return None };
    if *used > size.remaining() {
        return None;
    }
    size.charge(*used);
    Some(v)
}
