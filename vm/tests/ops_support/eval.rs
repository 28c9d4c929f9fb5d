//! A tree-walking evaluator over `parse::Expr` that does nothing but call
//! `vm::ops` the way hcl's expression nodes combine their children: it is
//! how the ops are exercised end to end against the reference's results,
//! and a reference for how the VM wires them.

use super::parse::{Expr, ForExpr};
use runtime::{Type, Value};
use std::collections::HashMap;
use vm::ops::{self, CondBranch, ForCollector, ForKind, ForSource, OpDiag, SplatFinish, SplatSource, TemplatePart};

/// A diagnostic as the test compares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diag {
    pub summary: String,
    pub detail: String,
}

impl From<&OpDiag> for Diag {
    fn from(d: &OpDiag) -> Diag {
        Diag { summary: d.summary.to_string(), detail: d.detail.clone() }
    }
}

pub struct Evaluator {
    pub vars: HashMap<String, Value>,
    scopes: Vec<HashMap<String, Value>>,
    items: Vec<Value>,
    pub diags: Vec<Diag>,
}

impl Evaluator {
    pub fn new(vars: HashMap<String, Value>) -> Evaluator {
        Evaluator { vars, scopes: Vec::new(), items: Vec::new(), diags: Vec::new() }
    }

    /// hcl's name suggestion, as the oracle makes it deterministic: the
    /// bytewise smallest name within edit distance 2 of the innermost scope
    /// that has one.
    fn suggest(&self, name: &str) -> Option<String> {
        let scopes = self.scopes.iter().rev().chain(std::iter::once(&self.vars));
        for scope in scopes {
            let best = scope.keys().filter(|k| levenshtein(k, name) < 3).min();
            if let Some(b) = best {
                return Some(b.clone());
            }
        }
        None
    }

    fn push_all(&mut self, diags: &[OpDiag]) {
        self.diags.extend(diags.iter().map(Diag::from));
    }

    /// Evaluates `e`, appending its diagnostics; returns the value and
    /// whether `e` itself produced errors.
    fn eval_checked(&mut self, e: &Expr) -> (Value, bool) {
        let before = self.diags.len();
        let v = self.eval(e);
        (v, self.diags.len() > before)
    }

    fn result(&mut self, r: ops::OpResult) -> Value {
        match r {
            Ok(v) => v,
            Err(e) => {
                self.push_all(&e.diags);
                e.fallback
            }
        }
    }

    pub fn eval(&mut self, e: &Expr) -> Value {
        match e {
            Expr::Lit(v) => v.clone(),
            Expr::Var(name) => {
                for scope in self.scopes.iter().rev() {
                    if let Some(v) = scope.get(name) {
                        return v.clone();
                    }
                }
                match self.vars.get(name) {
                    Some(v) => v.clone(),
                    None => {
                        let suggestion = self.suggest(name).map(|s| format!(" Did you mean {s:?}?")).unwrap_or_default();
                        self.diags.push(Diag {
                            summary: "Unknown variable".into(),
                            detail: format!("There is no variable named {name:?}.{suggestion}"),
                        });
                        Value::dynamic_unknown()
                    }
                }
            }
            Expr::Item => self.items.last().cloned().unwrap_or_else(Value::dynamic_unknown),
            Expr::Binary(op, l, r) => {
                let (l, le) = self.eval_checked(l);
                let (r, re) = self.eval_checked(r);
                let res = ops::binary_checked(*op, &l, &r, le || re);
                self.result(res)
            }
            Expr::Unary(op, v) => {
                let (v, failed) = self.eval_checked(v);
                let res = ops::unary_checked(*op, &v, failed);
                self.result(res)
            }
            Expr::Cond(c, t, f) => {
                let start = self.diags.len();
                let t = self.eval(t);
                let t_diags: Vec<Diag> = self.diags.drain(start..).collect();
                let f = self.eval(f);
                let f_diags: Vec<Diag> = self.diags.drain(start..).collect();
                let c = self.eval(c);
                let c_diags: Vec<Diag> = self.diags.drain(start..).collect();
                let out = ops::conditional(&c, &t, &f);
                match out.keep {
                    CondBranch::Nothing => {}
                    CondBranch::Condition => self.diags.extend(c_diags),
                    CondBranch::True => {
                        self.diags.extend(c_diags);
                        self.diags.extend(t_diags);
                    }
                    CondBranch::False => {
                        self.diags.extend(c_diags);
                        self.diags.extend(f_diags);
                    }
                }
                if let Some(d) = &out.diag {
                    self.diags.push(d.into());
                }
                out.value
            }
            Expr::Tuple(items) => {
                let vals = items.iter().map(|e| self.eval(e)).collect();
                ops::make_tuple(vals)
            }
            Expr::Object(items) => {
                let mut b = ops::ObjectBuilder::new();
                for (k, v) in items {
                    let (k, failed) = self.eval_checked(k);
                    let v = self.eval(v);
                    if let Some(d) = b.push(&k, failed, v) {
                        self.diags.push((&d).into());
                    }
                }
                b.finish()
            }
            Expr::Index(c, k) => {
                let c = self.eval(c);
                let k = self.eval(k);
                let r = ops::index(&c, &k);
                self.result(r)
            }
            Expr::Attr(v, name) => {
                let v = self.eval(v);
                let r = ops::get_attr(&v, name);
                self.result(r)
            }
            Expr::LegacyIndex(v, n) => {
                let v = self.eval(v);
                let r = ops::legacy_index(&v, n);
                self.result(r)
            }
            Expr::Template(parts) => {
                let mut out = String::new();
                let mut known = true;
                for p in parts {
                    let v = self.eval(p);
                    match ops::template_part(&v) {
                        Ok(TemplatePart::Text(s)) => out.push_str(&s),
                        Ok(TemplatePart::Unknown) => known = false,
                        Err(d) => self.diags.push((&d).into()),
                    }
                }
                if known {
                    Value::from_string(out)
                } else {
                    Value::Unknown(Type::String)
                }
            }
            Expr::TemplateJoin(tuple) => {
                let t = self.eval(tuple);
                let r = ops::template_join(&t);
                self.result(r)
            }
            Expr::Splat { source, each } => self.splat(source, each),
            Expr::For(f) => self.for_expr(f),
        }
    }

    fn with_item(&mut self, item: Value, each: &Expr) -> (Value, bool) {
        self.items.push(item);
        let r = self.eval_checked(each);
        self.items.pop();
        r
    }

    fn probe(&mut self, plan: &ops::SplatPlan, each: &Expr) -> Vec<Type> {
        plan.probe_types().into_iter().map(|t| self.with_item(Value::Unknown(t), each).0.ty()).collect()
    }

    fn splat(&mut self, source: &Expr, each: &Expr) -> Value {
        let (src, failed) = self.eval_checked(source);
        if failed {
            self.with_item(Value::dynamic_unknown(), each);
            return Value::dynamic_unknown();
        }
        let plan = match ops::splat_source(&src) {
            SplatSource::Done(v) => return v,
            SplatSource::Error(e) => {
                self.push_all(&e.diags);
                return e.fallback;
            }
            SplatSource::Iterate(plan) => plan,
        };
        if plan.source_unknown() {
            let probed = self.probe(&plan, each);
            return plan.unknown_result(&probed);
        }
        let mut vals = Vec::new();
        let mut any_failed = false;
        for item in plan.items().to_vec() {
            let (v, failed) = self.with_item(item, each);
            any_failed |= failed;
            vals.push(v);
        }
        match plan.finish(vals, any_failed) {
            Ok(SplatFinish::Value(v)) => v,
            Ok(SplatFinish::UnknownOfProbedType) => {
                let start = self.diags.len();
                let probed = self.probe(&plan, each);
                self.diags.truncate(start);
                plan.unknown_result(&probed)
            }
            Ok(SplatFinish::EmptyListOfProbedType) => {
                let probed = self.probe(&plan, each);
                plan.empty_list(&probed)
            }
            Err(e) => {
                self.push_all(&e.diags);
                e.fallback
            }
        }
    }

    fn bind(&mut self, f: &ForExpr, k: Value, v: Value) {
        let mut scope = HashMap::new();
        if let Some(kv) = &f.key_var {
            scope.insert(kv.clone(), k);
        }
        scope.insert(f.val_var.clone(), v);
        self.scopes.push(scope);
    }

    fn for_expr(&mut self, f: &ForExpr) -> Value {
        let coll = self.eval(&f.coll);
        let coll = match ops::for_source(&coll) {
            Ok(ForSource::Known(c)) => c,
            Ok(ForSource::Unknown) => return Value::dynamic_unknown(),
            Err(e) => {
                self.push_all(&e.diags);
                return e.fallback;
            }
        };
        if let Some(cond) = &f.cond {
            self.bind(f, Value::dynamic_unknown(), Value::dynamic_unknown());
            let (v, failed) = self.eval_checked(cond);
            self.scopes.pop();
            if let Some(d) = ForCollector::precheck_condition(&v) {
                self.diags.push((&d).into());
                return Value::dynamic_unknown();
            }
            if failed {
                return Value::dynamic_unknown();
            }
        }
        let kind = if f.key.is_some() { ForKind::Object { group: f.group } } else { ForKind::Tuple };
        let mut out = ForCollector::new(kind);
        let mut i = 0;
        while let Some((k, v)) = ops::for_element(&coll, i) {
            i += 1;
            self.bind(f, k, v);
            self.for_step(f, &mut out);
            self.scopes.pop();
        }
        out.finish()
    }

    fn for_step(&mut self, f: &ForExpr, out: &mut ForCollector) {
        if let Some(cond) = &f.cond {
            let c = self.eval(cond);
            let (include, d) = out.condition(&c);
            if let Some(d) = d {
                self.diags.push((&d).into());
            }
            if !include {
                return;
            }
        }
        let key = match &f.key {
            Some(ke) => {
                let k = self.eval(ke);
                let (key, d) = out.key(&k);
                if let Some(d) = d {
                    self.diags.push((&d).into());
                }
                match key {
                    Some(k) => Some(k),
                    None => return,
                }
            }
            None => None,
        };
        let v = self.eval(&f.value);
        if let Some(d) = out.push(key, v) {
            self.diags.push((&d).into());
        }
    }
}

fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur.push((prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}
