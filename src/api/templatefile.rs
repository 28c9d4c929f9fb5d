//! The template renderer of Packer's `templatefile`
//! ([`runtime::func::packer::template`]), registered when options are
//! first made: Packer's `renderTmpl` on this crate's compiler and VM.
//!
//! The template evaluates on a fresh scratch with the caller's size
//! budget: its limits are what the calling evaluation has left (steps
//! count as units too, so that many calls in a loop stay bounded), and
//! what it used, steps included, is charged to the caller afterwards.
//! Exceeding them ends the caller's evaluation too ("Evaluation limit
//! exceeded", the template's error as the call's detail); an ordinary
//! error of the template is an error of the call, which `try` may catch.

use super::compiled::{Compiled, SourceKind, Tree};
use super::error::SourceInfo;
use super::{Options, Variables};
use runtime::func::packer::{set_template_renderer, TemplateRenderer};
use runtime::func::{FnError, Functions, SizeBudget};
use runtime::strings::go_quote;
use runtime::{Diagnostic, Value};
use std::sync::Arc;
use vm::{Limits, Scratch};

struct Renderer;

static RENDERER: Renderer = Renderer;

/// Registers the renderer (once per process; cheap afterwards).
pub(crate) fn install() {
    set_template_renderer(&RENDERER);
}

/// hcl's `Diagnostics.Error()`: the first diagnostic as
/// `RANGE: SUMMARY; DETAIL` (`<nil>` for no subject), and how many others.
fn hcl_error_text(source: &SourceInfo, diags: &[Diagnostic]) -> String {
    let one = |d: &Diagnostic| {
        let at = match d.subject {
            Some(s) => source.line_index().range_text(&source.src, &source.filename, s),
            None => "<nil>".to_string(),
        };
        format!("{at}: {}; {}", d.summary, d.detail)
    };
    match diags {
        [] => "no diagnostics".into(),
        [d] => one(d),
        [d, rest @ ..] => format!("{}, and {} other diagnostic(s)", one(d), rest.len()),
    }
}

impl TemplateRenderer for Renderer {
    fn render(&self, src: &str, filename: &str, vars: &Value, funcs: &Arc<Functions>, budget: &mut SizeBudget) -> Result<Value, FnError> {
        // Packer's loadTmpl: parse errors are the call's error.
        let source = SourceInfo {
            filename: Arc::from(filename),
            src: Arc::from(src.as_bytes()),
            block_headers: Default::default(),
            template: true,
            lines: Default::default(),
        };
        // renderTmpl, its checks in Packer's order, on the template's one
        // parse: parse errors, then the vars argument, then the template's
        // variables against it.
        let pairs: Option<Vec<(String, Value)>> = match vars {
            Value::Object(o) => {
                Some((0..o.vals().len()).filter_map(|i| Some((o.attr_name(i)?.to_string(), o.vals()[i].clone()))).collect())
            }
            Value::Map(m) => Some(m.keys().iter().zip(m.vals()).map(|(k, v)| (k.to_string(), v.clone())).collect()),
            _ => None,
        };
        let mut names: Vec<&str> = pairs.iter().flatten().map(|(n, _)| n.as_str()).collect();
        names.sort_unstable();
        let check = |tree: Tree<'_>, interner: &compiler::Interner, diags: &[Diagnostic]| -> Result<(), FnError> {
            if diags.iter().any(Diagnostic::is_error) {
                return Err(FnError::new(hcl_error_text(&source, diags)));
            }
            if pairs.is_none() {
                return Err(FnError::arg(1, "invalid vars value: must be a map"));
            }
            // Packer ranges over a Go map (random order); the first bad
            // name in sorted order here.
            if let Some(bad) = names.iter().find(|n| !compiler::lexer::valid_identifier(n)) {
                return Err(FnError::arg(
                    1,
                    format!(
                        "invalid template variable name {}: must start with a letter, followed by zero or more letters, digits, and underscores",
                        go_quote(bad)
                    ),
                ));
            }
            let Tree::Expr(template) = tree else { return Ok(()) };
            for t in compiler::analysis::variables(template) {
                let root = interner.resolve(t.root.name);
                if names.binary_search(&root).is_err() {
                    let at = source.line_index().range_text(&source.src, &source.filename, t.root.span);
                    return Err(FnError::arg(1, format!("vars map does not contain key {}, referenced at {at}", go_quote(root))));
                }
            }
            Ok(())
        };
        // Steps are charged as units too: the evaluation may use what is
        // left of either.
        let room = budget.remaining();
        let limits = Limits { max_steps: room.min(Limits::DEFAULT.max_steps), max_size: room };
        let options = Options::new().functions(funcs.clone()).filename(filename).variables(names.iter().copied()).limits(limits);
        // The template's compilation and evaluation keep their own account
        // of work (its steps are charged to the caller's size budget
        // below), leaving the calling evaluation's as it was.
        let compiled = match runtime::work::isolated(|| Compiled::compile_inspected(SourceKind::Template, &source.src, &options, check))? {
            Ok(c) => c,
            Err(super::Error::Compile(d)) => return Err(FnError::new(hcl_error_text(&source, d.as_slice()))),
            Err(e) => return Err(FnError::new(e.to_string())),
        };
        let mut vs = Variables::new();
        for (n, v) in pairs.into_iter().flatten() {
            vs = vs.with(n, v);
        }
        let mut scratch = Scratch::with_limits(limits);
        let (outcome, source) = runtime::work::isolated(|| compiled.evaluate_on(&vs, &mut scratch));
        if scratch.ran_out_of_budget() {
            // What the caller had left did not do: the caller's evaluation
            // ends too, with the template's error as the call's detail.
            let _ = budget.charge(budget.remaining().saturating_add(1));
            return Err(FnError::new(hcl_error_text(&source, &outcome.diagnostics)));
        }
        let used = scratch.size_used().saturating_add(scratch.steps_used());
        if outcome.has_errors() {
            // An ordinary error of the template: charged what it used, up
            // to what is left (its steps and size were each within that).
            budget.charge(used.min(budget.remaining()));
            return Err(FnError::new(hcl_error_text(&source, &outcome.diagnostics)));
        }
        if !budget.charge(used) {
            return Err(FnError::new("the result is too large (it exceeds the evaluation size limit)"));
        }
        Ok(outcome.value)
    }
}
