//! The evaluator: walks a [`Program`]'s nodes with the host's [`Vars`] and
//! a reusable [`Scratch`], producing the value and diagnostics the
//! reference (`hclsyntax` `Value(ctx)`) produces.

use crate::func::ErrorSite;
use crate::program::*;
use crate::ops::Blame;
use runtime::convert::convert;
use runtime::strings::go_quote;
use runtime::{Diagnostic, LineIndex, Span, Type, Value};

/// The host's variable values, by slot (see [`Program::var_slot`]). A slot
/// left unset is a variable this evaluation does not define: referencing it
/// is "Unknown variable", as in an `EvalContext` without that name.
#[derive(Clone, Debug, Default)]
pub struct Vars {
    values: Vec<Option<Value>>,
}

impl Vars {
    /// `n` unset slots.
    pub fn with_slots(n: usize) -> Vars {
        Vars { values: vec![None; n] }
    }

    /// Binds every variable of `program` from `(name, value)` pairs; names
    /// the program does not use are ignored.
    pub fn bind<'a, S: AsRef<str> + 'a>(program: &Program, pairs: impl IntoIterator<Item = (S, Value)>) -> Vars {
        let mut vars = Vars::with_slots(program.var_names().len());
        for (name, v) in pairs {
            if let Some(slot) = program.var_slot(name.as_ref()) {
                vars.set(slot, v);
            }
        }
        vars
    }

    pub fn set(&mut self, slot: u32, v: Value) {
        if let Some(s) = self.values.get_mut(slot as usize) {
            *s = Some(v);
        }
    }

    pub fn unset(&mut self, slot: u32) {
        if let Some(s) = self.values.get_mut(slot as usize) {
            *s = None;
        }
    }

    pub fn get(&self, slot: u32) -> Option<&Value> {
        self.values.get(slot as usize).and_then(Option::as_ref)
    }
}

/// Size units one collection element costs (roughly the bytes of a value
/// and its slot); strings cost their length.
const ELEMENT_SIZE: usize = 32;

/// Per-evaluation limits. Exceeding one ends the evaluation with an error
/// diagnostic instead of running away.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Nodes evaluated (each loop iteration counts its body's nodes).
    pub max_steps: u64,
    /// Approximate bytes built: 32 per collection element, string lengths,
    /// and what functions report building.
    pub max_size: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { max_steps: 50_000_000, max_size: 256 * 1024 * 1024 }
    }
}

/// Reusable per-thread evaluation state.
#[derive(Default)]
pub struct Scratch {
    locals: Vec<Value>,
    /// Reusable template output buffers (a stack: templates nest through
    /// function arguments).
    text_bufs: Vec<String>,
    diags: Vec<Diagnostic>,
    steps: u64,
    size: u64,
    aborted: Option<&'static str>,
    pub limits: Limits,
}

impl Scratch {
    pub fn new() -> Scratch {
        Scratch::default()
    }

    pub fn with_limits(limits: Limits) -> Scratch {
        Scratch { limits, ..Scratch::default() }
    }

    /// The diagnostics of the last evaluation.
    pub fn diags(&self) -> &[Diagnostic] {
        &self.diags
    }

    pub fn take_diags(&mut self) -> Vec<Diagnostic> {
        std::mem::take(&mut self.diags)
    }

    pub fn has_errors(&self) -> bool {
        self.diags.iter().any(|d| d.is_error())
    }
}

/// Evaluates `program`; the diagnostics are left in `scratch`
/// ([`Scratch::diags`]).
pub fn evaluate(program: &Program, vars: &Vars, scratch: &mut Scratch) -> Value {
    scratch.diags.clear();
    scratch.steps = 0;
    scratch.size = 0;
    scratch.aborted = None;
    scratch.locals.clear();
    scratch.locals.resize(program.n_locals as usize, Value::dynamic_unknown());
    let mut m = Machine { prog: program, vars, s: scratch };
    let v = m.eval(&program.root);
    if let Some(what) = m.s.aborted {
        m.s.diags.push(Diagnostic::error(
            "Evaluation limit exceeded",
            format!("The expression needs more {what} than this evaluation allows."),
            None,
        ));
        return Value::dynamic_unknown();
    }
    v
}

struct Machine<'a> {
    prog: &'a Program,
    vars: &'a Vars,
    s: &'a mut Scratch,
}

fn err(summary: &str, detail: impl Into<String>, subject: Span) -> Diagnostic {
    Diagnostic::error(summary, detail, Some(subject))
}

/// Where the parts of a conditional are, for `vm::ops` diagnostics (which
/// the evaluator reports without a context range).
fn cond_span_of(c: &CondNode) -> impl Fn(Blame) -> Option<Span> + '_ {
    move |blame| match blame {
        Blame::Operand(0) => Some(c.condition_span),
        Blame::Operand(1) => Some(c.true_span),
        Blame::Operand(2) => Some(c.false_span),
        Blame::Between(1, 2) => Some(c.true_span.to(c.false_span)),
        _ => None,
    }
}

/// Where the parts of a `for` expression are, for `vm::ops` diagnostics
/// (reported without a context range).
fn for_span_of(f: &ForNode) -> impl Fn(Blame) -> Option<Span> + '_ {
    move |blame| match blame {
        Blame::Operand(0) => Some(f.collection_span),
        Blame::Operand(1) => f.key.as_ref().map(|(_, s)| *s),
        Blame::Operand(3) => f.cond.as_ref().map(|(_, s)| *s),
        _ => None,
    }
}

/// Where the parts of a splat are, for `vm::ops` diagnostics (reported
/// without a context range; the splat has no range of its own here, so
/// the source's stands for it).
fn splat_span_of(s: &SplatNode) -> impl Fn(Blame) -> Option<Span> + '_ {
    move |blame| match blame {
        Blame::Operand(0) | Blame::Expr => Some(s.source_span),
        _ => None,
    }
}

fn dynamic() -> Value {
    Value::dynamic_unknown()
}

impl<'a> Machine<'a> {
    #[inline]
    fn tick(&mut self) -> bool {
        self.s.steps += 1;
        if self.s.steps > self.s.limits.max_steps {
            self.s.aborted.get_or_insert("steps");
        }
        self.s.aborted.is_none()
    }

    #[inline]
    fn grow(&mut self, n: usize) -> bool {
        self.s.size = self.s.size.saturating_add(n as u64);
        if self.s.size > self.s.limits.max_size {
            self.s.aborted.get_or_insert("memory");
        }
        self.s.aborted.is_none()
    }

    /// Charges `n` collection elements (each costs about a value's size).
    #[inline]
    fn grow_elems(&mut self, n: usize) -> bool {
        self.grow(n.saturating_mul(ELEMENT_SIZE))
    }

    fn errors_since(&self, mark: usize) -> bool {
        self.s.diags.get(mark..).is_some_and(|ds| ds.iter().any(|d| d.is_error()))
    }

    fn push(&mut self, d: Diagnostic) {
        self.s.diags.push(d);
    }

    fn eval(&mut self, n: &Node) -> Value {
        if !self.tick() {
            return dynamic();
        }
        match n {
            Node::Const(v) => v.clone(),
            Node::Global(i, span) => match self.vars.get(*i) {
                Some(v) => v.clone(),
                None => self.undefined_global(*i, *span),
            },
            Node::Local(i) => self.s.locals.get(*i as usize).cloned().unwrap_or_else(dynamic),
            Node::Fail(d) => {
                self.push((**d).clone());
                dynamic()
            }
            Node::Traverse(src, steps) => {
                if let Some(v) = self.peek(n) {
                    return v.clone();
                }
                let v = self.eval(src);
                self.traverse(v, steps)
            }
            Node::Index(ix) => {
                let coll = self.eval(&ix.collection);
                let key = self.eval(&ix.key);
                let r = crate::ops::index(&coll, &key);
                self.op_result(r, |_| Some(ix.bracket))
            }
            Node::Tuple(items) => {
                if !self.grow_elems(items.len()) {
                    return dynamic();
                }
                let vals: Vec<Value> = items.iter().map(|i| self.eval(i)).collect();
                crate::ops::make_tuple(vals)
            }
            Node::Object(items) => self.object(items),
            Node::Template(parts, _) => self.template(parts),
            Node::TemplateJoin(tuple, span) => self.template_join(tuple, *span),
            Node::Cond(c) => self.conditional(c),
            Node::Binary(b) => {
                // Operands that need no evaluation are used by reference
                // (they report nothing, so evaluation order is unaffected).
                let mark = self.s.diags.len();
                let l_owned = if self.peek(&b.lhs).is_none() { Some(self.eval(&b.lhs)) } else { None };
                let r_owned = if self.peek(&b.rhs).is_none() { Some(self.eval(&b.rhs)) } else { None };
                {
                    let l = match &l_owned {
                        Some(v) => Some(v),
                        None => self.peek(&b.lhs),
                    };
                    let r = match &r_owned {
                        Some(v) => Some(v),
                        None => self.peek(&b.rhs),
                    };
                    if let (Some(l), Some(r)) = (l, r) {
                        if let Some(v) = crate::ops::binary_fast(ops_binary(b.op), l, r) {
                            return v;
                        }
                    }
                }
                let l = l_owned.unwrap_or_else(|| self.peek(&b.lhs).cloned().unwrap_or_else(dynamic));
                let r = r_owned.unwrap_or_else(|| self.peek(&b.rhs).cloned().unwrap_or_else(dynamic));
                let had_errors = self.errors_since(mark);
                let r = crate::ops::binary_checked(ops_binary(b.op), &l, &r, had_errors);
                self.op_result(r, |blame| match blame {
                    Blame::Operand(0) => Some(b.lhs_span),
                    Blame::Operand(1) => Some(b.rhs_span),
                    _ => Some(b.span),
                })
            }
            Node::Unary(u) => {
                let mark = self.s.diags.len();
                let v = self.eval(&u.operand);
                let had_errors = self.errors_since(mark);
                let op = match u.op {
                    UnOp::Negate => crate::ops::UnaryOp::Neg,
                    UnOp::Not => crate::ops::UnaryOp::Not,
                };
                let r = crate::ops::unary_checked(op, &v, had_errors);
                self.op_result(r, |blame| match blame {
                    Blame::Operand(0) => Some(u.operand_span),
                    _ => Some(u.span),
                })
            }
            Node::For(f) => self.for_expr(f),
            Node::Splat(s) => self.splat(s),
            Node::Call(c) => self.call(c),
            Node::Try(t) => self.try_(t),
            Node::Can(t) => self.can(t),
        }
    }

    /// Takes a `vm::ops` result: its value, or its diagnostics placed with
    /// `span_of` and its fallback value.
    fn op_result(&mut self, r: crate::ops::OpResult, span_of: impl Fn(Blame) -> Option<Span>) -> Value {
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

    /// The value of a node that needs no evaluation (a constant, a variable,
    /// a local, or literal steps into them that resolve without any special
    /// case), by reference. `None`: evaluate it normally.
    #[inline]
    fn peek<'n>(&'n self, n: &'n Node) -> Option<&'n Value> {
        match n {
            Node::Const(v) => Some(v),
            Node::Global(i, _) => self.vars.get(*i),
            Node::Local(i) => self.s.locals.get(*i as usize),
            Node::Traverse(src, steps) => {
                let mut v = match &**src {
                    Node::Global(i, _) => self.vars.get(*i)?,
                    Node::Local(i) => self.s.locals.get(*i as usize)?,
                    _ => return None,
                };
                for step in steps.iter() {
                    v = step_ref(v, step)?;
                }
                Some(v)
            }
            _ => None,
        }
    }

    /// A variable the program was compiled with but this evaluation does
    /// not define.
    #[cold]
    fn undefined_global(&mut self, slot: u32, span: Span) -> Value {
        let names = self.prog.var_names();
        let name = names.get(slot as usize).map(|n| &**n).unwrap_or("");
        let present = names.iter().enumerate().filter(|(i, _)| self.vars.get(*i as u32).is_some()).map(|(_, n)| &**n);
        let detail = match crate::suggest::closest(name, present) {
            Some(s) => format!("There is no variable named {}. Did you mean {}?", go_quote(name), go_quote(s)),
            None => format!("There is no variable named {}.", go_quote(name)),
        };
        self.push(err("Unknown variable", detail, span));
        dynamic()
    }

    fn traverse(&mut self, mut v: Value, steps: &[Step]) -> Value {
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

    fn object(&mut self, items: &[ObjectItem]) -> Value {
        if !self.grow_elems(items.len()) {
            return dynamic();
        }
        let mut object = crate::ops::ObjectBuilder::with_capacity(items.len());
        for item in items {
            let (diag, key_span) = match &item.key {
                ObjectKey::Name(key) => {
                    let val = self.eval(&item.value);
                    (object.push(key, false, val), Span::default())
                }
                ObjectKey::Expr(node, span) => {
                    let mark = self.s.diags.len();
                    let key = self.eval(node);
                    let key_failed = self.errors_since(mark);
                    let val = self.eval(&item.value);
                    (object.push(&key, key_failed, val), *span)
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

    fn template(&mut self, parts: &[TemplatePart]) -> Value {
        let mut buf = self.s.text_bufs.pop().unwrap_or_default();
        buf.clear();
        let mut known = true;
        self.stream_parts(parts, &mut buf, &mut known);
        let v = if self.s.aborted.is_some() {
            dynamic()
        } else if !known {
            Value::unknown(Type::String)
        } else {
            self.grow(buf.len());
            Value::string(&buf)
        };
        // Keep buffers of ordinary size for the next template.
        if buf.capacity() <= 1 << 16 {
            self.s.text_bufs.push(buf);
        }
        v
    }

    /// Appends template parts to `buf`. Parts that are themselves string
    /// builders (nested templates, `%{if}` and `%{for}` directives) write
    /// straight into `buf` instead of making intermediate strings and
    /// tuples; the values and diagnostics are the same, because such parts
    /// always produce a string (or an unknown string).
    fn stream_parts(&mut self, parts: &[TemplatePart], buf: &mut String, known: &mut bool) {
        for part in parts {
            if buf.len() as u64 > self.s.limits.max_size {
                self.s.aborted.get_or_insert("memory");
            }
            if self.s.aborted.is_some() {
                return;
            }
            self.stream_part(&part.node, part.span, buf, known);
        }
    }

    fn stream_part(&mut self, node: &Node, span: Span, buf: &mut String, known: &mut bool) {
        if let Some(v) = self.peek(node) {
            let r = crate::ops::push_template_part(v, buf);
            self.template_part_done(r, span, known);
            return;
        }
        match node {
            Node::Template(inner, _) => {
                if self.tick() {
                    self.stream_parts(inner, buf, known);
                }
                return;
            }
            Node::Cond(c) if is_string_node(&c.true_result) && is_string_node(&c.false_result) => {
                if self.tick() {
                    self.stream_cond(c, buf, known);
                }
                return;
            }
            Node::TemplateJoin(t, _) => {
                if let Node::For(f) = &**t {
                    if f.key.is_none() && is_string_node(&f.value) {
                        if self.tick() && self.tick() {
                            self.stream_for(f, buf, known);
                        }
                        return;
                    }
                }
            }
            _ => {}
        }
        let v = self.eval(node);
        let r = crate::ops::push_template_part(&v, buf);
        self.template_part_done(r, span, known);
    }

    /// Takes the outcome of appending one interpolation to a template.
    #[inline]
    fn template_part_done(&mut self, r: Result<bool, crate::ops::OpDiag>, span: Span, known: &mut bool) {
        match r {
            Ok(true) => {}
            Ok(false) => *known = false,
            Err(d) => self.push(d.to_diagnostic(|blame| (blame == Blame::Operand(0)).then_some(span))),
        }
    }

    /// A conditional whose branches are both string builders: the reference
    /// evaluates both and keeps only the selected one's value and
    /// diagnostics, and two string types always unify, so evaluating the
    /// selected branch alone (after the condition) is equivalent.
    fn stream_cond(&mut self, c: &CondNode, buf: &mut String, known: &mut bool) {
        let Some(chosen) = self.condition_choice(c) else {
            *known = false;
            return;
        };
        let (branch, span) = if chosen { (&c.true_result, c.true_span) } else { (&c.false_result, c.false_span) };
        self.stream_part(branch, span, buf, known);
    }

    /// A template `%{for}` whose body is a string builder, appended element
    /// by element (the reference builds the tuple, then joins it).
    fn stream_for(&mut self, f: &ForNode, buf: &mut String, known: &mut bool) {
        let Some(coll) = self.for_collection(f) else {
            *known = false;
            return;
        };
        // Only the `if` clause's bookkeeping is used: the body streams.
        let mut steps = crate::ops::ForCollector::new(crate::ops::ForKind::Tuple);
        for i in 0..coll.elements_slice().len() {
            if self.s.aborted.is_some() {
                return;
            }
            if !self.for_step(f, &coll, i, &mut steps) {
                continue;
            }
            self.stream_part(&f.value, Span::default(), buf, known);
            if buf.len() as u64 > self.s.limits.max_size {
                self.s.aborted.get_or_insert("memory");
                return;
            }
        }
        if !steps.is_known() {
            *known = false;
        }
    }

    fn template_join(&mut self, tuple: &Node, span: Span) -> Value {
        let t = self.eval(tuple);
        let v = self.op_result(crate::ops::template_join(&t), |_| Some(span));
        let len = v.as_str().map_or(0, str::len);
        if len as u64 > self.s.limits.max_size {
            self.s.aborted.get_or_insert("memory");
            return dynamic();
        }
        self.grow(len);
        v
    }

    fn conditional(&mut self, c: &CondNode) -> Value {
        let mark = self.s.diags.len();
        let t = self.eval(&c.true_result);
        let t_diags = self.s.diags.split_off(mark);
        let f = self.eval(&c.false_result);
        let f_diags = self.s.diags.split_off(mark);
        let plan = match crate::ops::conditional_plan(&t, &f) {
            Ok(p) => p,
            Err(d) => {
                self.push(d.to_diagnostic(cond_span_of(c)));
                return dynamic();
            }
        };
        let chosen = match self.condition_choice(c) {
            Some(b) => b,
            None => return Value::unknown(plan.result_type),
        };
        let (pick, diags) = if chosen { (t, t_diags) } else { (f, f_diags) };
        self.s.diags.extend(diags);
        match plan.finish(chosen, pick) {
            Ok(v) => v,
            Err((d, v)) => {
                self.push(d.to_diagnostic(cond_span_of(c)));
                v
            }
        }
    }

    /// Evaluates a conditional's condition: the branch it selects, or
    /// `None` when it is unknown or invalid (reported).
    fn condition_choice(&mut self, c: &CondNode) -> Option<bool> {
        let cond = self.eval(&c.condition);
        match crate::ops::condition_choice(&cond) {
            Ok(choice) => choice,
            Err(d) => {
                self.push(d.to_diagnostic(cond_span_of(c)));
                None
            }
        }
    }

    fn set_local(&mut self, slot: u32, v: Value) {
        if let Some(s) = self.s.locals.get_mut(slot as usize) {
            *s = v;
        }
    }

    /// The collection of a `for`, or `None` when the expression's value is
    /// `DynamicVal` without iterating (null, dynamic, non-iterable, unknown,
    /// or a failing `if` pre-check).
    fn for_collection(&mut self, f: &ForNode) -> Option<Value> {
        let coll = self.eval(&f.collection);
        let coll = match crate::ops::for_source(&coll) {
            Ok(crate::ops::ForSource::Known(coll)) => coll,
            Ok(crate::ops::ForSource::Unknown) => return None,
            Err(e) => {
                self.op_result(Err(e), for_span_of(f));
                return None;
            }
        };
        if let Some((cond, _)) = &f.cond {
            // The reference checks the condition once with unknown
            // iterators before iterating.
            if let Some(k) = f.key_slot {
                self.set_local(k, dynamic());
            }
            self.set_local(f.val_slot, dynamic());
            let mark = self.s.diags.len();
            let r = self.eval(cond);
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
    fn for_step(&mut self, f: &ForNode, coll: &Value, i: usize, steps: &mut crate::ops::ForCollector) -> bool {
        let Some((k, v)) = crate::ops::for_element(coll, i) else { return false };
        if let Some(ks) = f.key_slot {
            self.set_local(ks, k);
        }
        self.set_local(f.val_slot, v);
        let Some((cond, _)) = &f.cond else { return true };
        let include = self.eval(cond);
        let (include, diag) = steps.condition(&include);
        if let Some(d) = diag {
            self.push(d.to_diagnostic(for_span_of(f)));
        }
        include
    }

    fn for_expr(&mut self, f: &ForNode) -> Value {
        let Some(coll) = self.for_collection(f) else { return dynamic() };
        let kind = if f.key.is_some() {
            crate::ops::ForKind::Object { group: f.group }
        } else {
            crate::ops::ForKind::Tuple
        };
        let mut result = crate::ops::ForCollector::new(kind);
        for i in 0..coll.elements_slice().len() {
            if self.s.aborted.is_some() {
                return dynamic();
            }
            if !self.for_step(f, &coll, i, &mut result) {
                continue;
            }
            let key = match &f.key {
                None => None,
                Some((key_node, _)) => {
                    let raw = self.eval(key_node);
                    let (key, diag) = result.key(&raw);
                    if let Some(d) = diag {
                        self.push(d.to_diagnostic(for_span_of(f)));
                    }
                    match key {
                        Some(k) => Some(k),
                        None => continue,
                    }
                }
            };
            let val = self.eval(&f.value);
            if let Some(d) = result.push(key, val) {
                self.push(d.to_diagnostic(for_span_of(f)));
            }
        }
        result.finish()
    }

    fn splat(&mut self, s: &SplatNode) -> Value {
        use crate::ops::{SplatFinish, SplatSource};
        let mark = self.s.diags.len();
        let source = self.eval(&s.source);
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
            return plan.unknown_result(&probed);
        }
        let items = plan.items();
        if !self.grow_elems(items.len()) {
            return dynamic();
        }
        let mut vals = Vec::with_capacity(items.len());
        let mut rest_failed = false;
        for item in items {
            self.set_local(s.slot, item.clone());
            let mark = self.s.diags.len();
            let v = self.eval(&s.each);
            rest_failed |= self.errors_since(mark);
            vals.push(v);
        }
        self.set_local(s.slot, dynamic());
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
    fn splat_probe(&mut self, s: &SplatNode, plan: &crate::ops::SplatPlan, keep: bool) -> Vec<Type> {
        let mark = self.s.diags.len();
        let saved = self.s.locals.get(s.slot as usize).cloned().unwrap_or_else(dynamic);
        let probed = plan
            .probe_types()
            .into_iter()
            .map(|ty| {
                self.set_local(s.slot, Value::unknown(ty));
                self.eval(&s.each).ty()
            })
            .collect();
        self.set_local(s.slot, saved);
        if !keep {
            self.s.diags.truncate(mark);
        }
        probed
    }

    fn call(&mut self, c: &CallNode) -> Value {
        let prog: &'a Program = self.prog;
        let Some(funcs) = prog.funcs.as_deref() else { return dynamic() };
        let sig = funcs.signature(c.func);
        // Arguments: (value-or-node, start span).
        let mut expanded: Option<(Vec<Value>, Span)> = None;
        let mut arg_count = c.args.len();
        if c.expand_final {
            let Some(last) = c.args.last() else { return dynamic() };
            let mark = self.s.diags.len();
            let v = self.eval(&last.node);
            if self.errors_since(mark) {
                return dynamic();
            }
            let ty = v.ty();
            if ty.is_dynamic() || ty.is_tuple() || ty.is_list() || ty.is_set() {
                if v.is_null() {
                    self.push(err(
                        "Invalid expanding argument value",
                        "The expanding argument (indicated by ...) must not be null.",
                        last.span,
                    ));
                    return dynamic();
                }
                if ty.is_dynamic() || !v.is_known() {
                    return dynamic();
                }
                let elems = v.elements_slice().to_vec();
                arg_count = c.args.len() - 1 + elems.len();
                expanded = Some((elems, last.span));
            } else {
                self.push(err(
                    "Invalid expanding argument value",
                    "The expanding argument (indicated by ...) must be of a tuple, list, or set type.",
                    last.span,
                ));
                return dynamic();
            }
        }
        let nparams = sig.params.len();
        if arg_count < nparams {
            let qual = if sig.var_param.is_some() { " at least" } else { "" };
            self.push(err(
                "Not enough function arguments",
                format!(
                    "Function {} expects{qual} {nparams} argument(s). Missing value for {}.",
                    go_quote(&c.name),
                    go_quote(&sig.params[arg_count].name)
                ),
                c.close_paren,
            ));
            return dynamic();
        }
        let fixed = if expanded.is_some() { c.args.len() - 1 } else { c.args.len() };
        let arg_start = |i: usize| -> Span {
            if i < fixed {
                c.args[i].start
            } else {
                expanded.as_ref().map(|e| e.1).unwrap_or_default()
            }
        };
        if sig.var_param.is_none() && arg_count > nparams {
            self.push(err(
                "Too many function arguments",
                format!("Function {} expects only {nparams} argument(s).", go_quote(&c.name)),
                arg_start(nparams),
            ));
            return dynamic();
        }
        let mark = self.s.diags.len();
        let mut vals: smallvec::SmallVec<[Value; 4]> = smallvec::SmallVec::with_capacity(arg_count);
        for i in 0..arg_count {
            let Some(param) = sig.params.get(i).or(sig.var_param.as_ref()) else { break };
            let v = if i < fixed {
                let arg = &c.args[i];
                if arg.preconverted {
                    if let Node::Const(v) = &arg.node {
                        vals.push(v.clone());
                        continue;
                    }
                }
                self.eval(&arg.node)
            } else {
                expanded.as_ref().and_then(|e| e.0.get(i - fixed)).cloned().unwrap_or_else(dynamic)
            };
            if param.ty.is_dynamic() || (v.is_known() && !v.is_null() && v.has_type(&param.ty)) {
                vals.push(v);
                continue;
            }
            let v = match convert(&v, &param.ty) {
                Ok(v) => v,
                Err(e) => {
                    self.push(err(
                        "Invalid function argument",
                        format!("Invalid value for {} parameter: {e}.", go_quote(&param.name)),
                        arg_start(i),
                    ));
                    v
                }
            };
            vals.push(v);
        }
        if self.errors_since(mark) {
            return dynamic();
        }
        let mut budget = self.s.limits.max_size.saturating_sub(self.s.size);
        let r = funcs.call(c.func, &vals, &mut budget);
        let used = self.s.limits.max_size.saturating_sub(self.s.size).saturating_sub(budget);
        self.grow(used as usize);
        match r {
            Ok(v) => v,
            Err(e) => {
                let subject = match e.site {
                    ErrorSite::Argument(i) => arg_start(i),
                    ErrorSite::WholeCall => c.span,
                    ErrorSite::CallStart => c.start,
                    ErrorSite::CloseParen => c.close_paren,
                };
                self.push(Diagnostic::error(e.summary, e.detail, Some(subject)));
                dynamic()
            }
        }
    }

    /// `ext/tryfunc`'s `dependsOnUnknowns`.
    fn depends_on_unknowns(&mut self, deps: &[Dependency]) -> bool {
        for d in deps {
            let v = match &d.root {
                Node::Global(i, _) => match self.vars.get(*i) {
                    Some(v) => v.clone(),
                    None => continue,
                },
                Node::Local(i) => self.s.locals.get(*i as usize).cloned().unwrap_or_else(dynamic),
                _ => continue,
            };
            let mark = self.s.diags.len();
            let v = self.traverse(v, &d.steps);
            let failed = self.errors_since(mark);
            self.s.diags.truncate(mark);
            if failed {
                continue;
            }
            if !v.is_wholly_known() {
                return true;
            }
        }
        false
    }

    /// The elements of `try`/`can`'s expanded last argument (`Ok(None)`
    /// without `...`), or the call's value when expansion ends it, with
    /// hcl's checks.
    fn try_expand(&mut self, t: &TryNode) -> Result<Option<Vec<Value>>, Value> {
        if !t.expand_final {
            return Ok(None);
        }
        let Some(last) = t.args.last() else { return Err(dynamic()) };
        let mark = self.s.diags.len();
        let v = self.eval(&last.node);
        if self.errors_since(mark) {
            return Err(dynamic());
        }
        let ty = v.ty();
        if !(ty.is_dynamic() || ty.is_tuple() || ty.is_list() || ty.is_set()) {
            self.push(err(
                "Invalid expanding argument value",
                "The expanding argument (indicated by ...) must be of a tuple, list, or set type.",
                last.span,
            ));
            return Err(dynamic());
        }
        if v.is_null() {
            self.push(err("Invalid expanding argument value", "The expanding argument (indicated by ...) must not be null.", last.span));
            return Err(dynamic());
        }
        if ty.is_dynamic() || !v.is_known() {
            return Err(dynamic());
        }
        Ok(Some(v.elements_slice().to_vec()))
    }

    fn try_(&mut self, t: &TryNode) -> Value {
        if let Some(d) = &t.arity_error {
            self.push((**d).clone());
            return dynamic();
        }
        let expanded = match self.try_expand(t) {
            Ok(e) => e,
            Err(v) => return v,
        };
        let fixed = if expanded.is_some() { &t.args[..t.args.len().saturating_sub(1)] } else { &t.args[..] };
        if fixed.is_empty() && expanded.as_ref().is_some_and(|e| e.is_empty()) {
            self.push(err("Error in function call", "Call to function \"try\" failed: at least one argument is required.", t.start));
            return dynamic();
        }
        let mut failures: Vec<Diagnostic> = Vec::new();
        for arg in fixed.iter() {
            if self.depends_on_unknowns(&arg.deps) {
                return dynamic();
            }
            let mark = self.s.diags.len();
            let v = self.eval(&arg.node);
            let failed = self.errors_since(mark);
            let ds = self.s.diags.split_off(mark);
            if failed {
                failures.extend(ds);
                continue;
            }
            return v;
        }
        // Expanded elements are literal values: the first one succeeds.
        if let Some(first) = expanded.as_ref().and_then(|e| e.first()) {
            return first.clone();
        }
        if self.s.aborted.is_some() {
            return dynamic();
        }
        let mut msg = String::from("no expression succeeded:\n");
        let lines = LineIndex::new(&self.prog.src_lines.src);
        for d in &failures {
            match d.subject {
                Some(span) => {
                    let src = &self.prog.src_lines.src;
                    let a = lines.pos(src, span.start);
                    let b = lines.pos(src, span.end);
                    let range = if a.line == b.line {
                        format!("{}:{},{}-{}", self.prog.filename, a.line, a.column, b.column)
                    } else {
                        format!("{}:{},{}-{},{}", self.prog.filename, a.line, a.column, b.line, b.column)
                    };
                    msg.push_str(&format!("- {} (at {})\n  {}\n", d.summary, range, d.detail));
                }
                None => msg.push_str(&format!("- {}\n  {}\n", d.summary, d.detail)),
            }
        }
        msg.push_str("\nAt least one expression must produce a successful result");
        self.push(err("Error in function call", format!("Call to function {} failed: {msg}.", go_quote(&t.name)), t.start));
        dynamic()
    }

    fn can(&mut self, t: &TryNode) -> Value {
        if let Some(d) = &t.arity_error {
            self.push((**d).clone());
            return dynamic();
        }
        let expanded = match self.try_expand(t) {
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
                    t.close_paren,
                ));
                return dynamic();
            }
            if count > 1 {
                let subject = match fixed.get(1) {
                    Some(a) => a.start,
                    None => t.args.last().map(|a| a.span).unwrap_or(t.span),
                };
                self.push(err("Too many function arguments", "Function \"can\" expects only 1 argument(s).", subject));
                return dynamic();
            }
            if fixed.is_empty() {
                // A literal value always evaluates.
                return Value::bool(true);
            }
        }
        let Some(arg) = t.args.first() else { return dynamic() };
        if self.depends_on_unknowns(&arg.deps) {
            return Value::unknown(Type::Bool);
        }
        let mark = self.s.diags.len();
        self.eval(&arg.node);
        let failed = self.errors_since(mark);
        self.s.diags.truncate(mark);
        Value::bool(!failed)
    }


}

/// The `vm::ops` operator for a compiled one.
fn ops_binary(op: BinOp) -> crate::ops::BinaryOp {
    use crate::ops::BinaryOp as O;
    match op {
        BinOp::Or => O::Or,
        BinOp::And => O::And,
        BinOp::Equal => O::Eq,
        BinOp::NotEqual => O::NotEq,
        BinOp::GreaterThan => O::Gt,
        BinOp::GreaterThanOrEqual => O::Ge,
        BinOp::LessThan => O::Lt,
        BinOp::LessThanOrEqual => O::Le,
        BinOp::Add => O::Add,
        BinOp::Subtract => O::Sub,
        BinOp::Multiply => O::Mul,
        BinOp::Divide => O::Div,
        BinOp::Modulo => O::Mod,
    }
}

/// Nodes whose value is always a string or an unknown string.
fn is_string_node(n: &Node) -> bool {
    match n {
        Node::Template(..) | Node::TemplateJoin(..) => true,
        Node::Const(v) => matches!(v, Value::String(_)),
        _ => false,
    }
}


/// One literal step by reference, when it needs none of `hcl.Index`'s or
/// `hcl.GetAttr`'s special cases (unknowns, nulls, conversions, errors).
#[inline]
fn step_ref<'v>(v: &'v Value, step: &Step) -> Option<&'v Value> {
    match (step, v) {
        (Step::Attr(name, _, hint), Value::Object(o)) => {
            let names = o.object_type().names();
            let guess = hint.get();
            if names.get(guess).is_some_and(|n| **n == **name) {
                return o.vals().get(guess);
            }
            let i = o.object_type().attr_index(&runtime::strings::normalize_nfc(name))?;
            hint.set(i);
            o.vals().get(i)
        }
        (Step::Index(key, _), _) => crate::ops::index_ref(v, key),
        _ => None,
    }
}

