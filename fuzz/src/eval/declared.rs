//! Declared variable types (`Options::declare`): the source is a type
//! constraint, with optional attributes and defaults, declared for the
//! variable `a`; the spec's variables (`input`) are bound to it and the
//! expression `a` is evaluated. Beyond "no panic":
//!
//! - a declaration that does not read fails compiling with error
//!   diagnostics inside the constraint's text, which render;
//! - one that reads compiles, and every evaluation's diagnostics render;
//! - a value without errors is well formed (`check::check_value`) and
//!   conforms to the declared type;
//! - evaluating again gives the same diagnostics and value.

use super::check::{check_failure, check_value};
use hclvm::{Compiled, Diagnostic, Error, Options};

/// Decodes fuzz input (`input`'s layout: the source is the constraint)
/// and checks it.
pub fn check(data: &[u8]) {
    let (spec, src) = super::input::split(data);
    let vars = super::input::variables(spec);
    // The API takes the constraint as text.
    let Ok(text) = std::str::from_utf8(src) else { return };
    let compiled = match Compiled::expression("a", &Options::new().declare("a", text)) {
        Ok(c) => c,
        Err(Error::Declaration(lists)) => {
            assert!(!lists.is_empty(), "a declaration error without diagnostics");
            for d in &lists {
                check_failure(src, d, "declaration");
            }
            return;
        }
        Err(e) => panic!("compiling with a declared type failed with something other than declaration errors: {e}"),
    };
    let constraint = hclvm::compiler::typeexpr::type_constraint_with_defaults(src, "t");
    assert!(!constraint.has_errors(), "the constraint compiled but does not read: {:?}", constraint.diagnostics);
    let run = || {
        let out = compiled.evaluate(&vars);
        if let Err(Error::Evaluation(d)) = out.check() {
            let _ = d.render(false);
            let _ = d.to_string();
        }
        let diags: Vec<Diagnostic> = out.diagnostics().into_iter().cloned().collect();
        let value = match (out.has_errors(), out.value()) {
            (false, Some(v)) => {
                assert!(
                    v.conforms_to(&constraint.ty),
                    "the value of type {} does not conform to the declared {}",
                    v.ty().to_json_string(),
                    constraint.ty.to_json_string()
                );
                check_value(v)
            }
            _ => None,
        };
        (diags, value)
    };
    let first = run();
    let again = run();
    assert!(first == again, "a second evaluation gave different results:\n{first:?}\n---\n{again:?}");
}
