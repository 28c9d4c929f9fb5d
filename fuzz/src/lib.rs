//! The checks shared by the parser fuzz targets. Beyond "does not panic",
//! every parse must satisfy:
//!
//! - every diagnostic's subject and context lie within the input
//!   (`start <= end <= len`);
//! - an input that yields no error diagnostics parses the same way again
//!   (same tree, same diagnostics) — the parser has no hidden state.
//!
//! The compile-and-evaluate targets (`eval_*`) use [`eval`]; `json_variables`
//! uses [`json_variables`].

pub mod eval;
pub mod json_variables;

use bumpalo::Bump;
use compiler::Interner;
use runtime::{Diagnostic, Span};

/// Which parser entry point a target drives.
#[derive(Clone, Copy, Debug)]
pub enum Entry {
    Body,
    Expression,
    Template,
}

/// Inputs up to this size have their tree compared on re-parse; the tree is
/// compared through its `Debug` text, whose recursion depth grows with the
/// input's nesting, so larger inputs are only checked for diagnostics.
const TREE_COMPARE_MAX_LEN: usize = 4096;

/// Parses `data` with `entry` and checks the invariants above (panics on a
/// violation, which libFuzzer reports as a crash).
pub fn check(entry: Entry, data: &[u8]) {
    let (tree, diags) = parse(entry, data, data.len() <= TREE_COMPARE_MAX_LEN);
    for d in &diags {
        check_span(data, d, d.subject, "subject");
        if let Some(ctx) = d.context {
            check_span(data, d, Some(ctx), "context");
        }
    }
    if !diags.iter().any(Diagnostic::is_error) {
        let (tree2, diags2) = parse(entry, data, data.len() <= TREE_COMPARE_MAX_LEN);
        assert_eq!(diags, diags2, "re-parse gave different diagnostics");
        assert!(tree == tree2, "re-parse gave a different tree:\n{tree}\n---\n{tree2}");
    }
}

fn parse(entry: Entry, data: &[u8], with_tree: bool) -> (String, Vec<Diagnostic>) {
    let arena = Bump::new();
    let mut interner = Interner::new();
    let (tree, diags) = match entry {
        Entry::Body => {
            let (body, diags) = compiler::parse_body(&arena, data, &mut interner);
            (if with_tree { format!("{body:?}") } else { String::new() }, diags)
        }
        Entry::Expression => {
            let (expr, diags) = compiler::parse_expression(&arena, data, &mut interner);
            (if with_tree { format!("{expr:?}") } else { String::new() }, diags)
        }
        Entry::Template => {
            let (expr, diags) = compiler::parse_template(&arena, data, &mut interner);
            (if with_tree { format!("{expr:?}") } else { String::new() }, diags)
        }
    };
    (tree, diags)
}

fn check_span(data: &[u8], d: &Diagnostic, span: Option<Span>, what: &str) {
    if let Some(s) = span {
        assert!(
            s.start <= s.end && s.end as usize <= data.len(),
            "{what} {s:?} of diagnostic {:?} is outside the input of {} bytes",
            d.summary,
            data.len()
        );
    }
}
