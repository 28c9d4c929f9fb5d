//! `--declare NAME=TYPE` and `--declarations FILE`: variables declared
//! with type constraints (see `Options::declare`), for `eval`, `render`,
//! `batch` and `check`.
//!
//! A declarations file is HCL: one attribute per variable, its expression
//! the type constraint, exactly as a Terraform `variable` block's `type`
//! is written (comments, and types over several lines, allowed):
//!
//! ```hcl
//! # request.hcl
//! request = object({
//!   user     = string
//!   amount   = number
//!   currency = optional(string, "USD")
//! })
//! limits = map(number)
//! ```
//!
//! Diagnostics about a constraint point into the file (each constraint is
//! read in place, from the file's text, which its declarations share);
//! `--declare` constraints are `declare.NAME`.

use super::eval::{display_name, Failure};
use crate::api::Options;
use crate::diagnostic_text::{render_diagnostics, SourceFile};
use clap::Args;
use runtime::diag::DiagnosticsExt;
use std::io::Write;

#[derive(Args, Debug, Default, Clone)]
pub struct DeclareArgs {
    /// Declare a variable with a type constraint in HCL's type syntax
    /// (`string`, `list(number)`, `object({a = string, b = optional(number, 1)})`).
    /// Given values get the defaults and are converted to the type (a value
    /// that does not fit is an error); a declared variable not given is an
    /// unknown of its type. Names not declared are unknown variables.
    /// Repeatable; wins over --declarations.
    #[arg(long = "declare", value_name = "NAME=TYPE")]
    declare: Vec<String>,
    /// An HCL file of declarations: one attribute `NAME = TYPE` per
    /// variable (as --declare).
    #[arg(long = "declarations", value_name = "FILE")]
    declarations: Option<String>,
}

impl DeclareArgs {
    /// Whether any variable is declared.
    pub fn any(&self) -> bool {
        !self.declare.is_empty() || self.declarations.is_some()
    }

    /// `options` with the declarations added. Syntax errors in the
    /// declarations file are printed (`color`) and fail with status 1.
    pub fn apply(&self, mut options: Options, color: bool) -> Result<Options, Failure> {
        if let Some(path) = &self.declarations {
            let text = std::fs::read_to_string(path).map_err(|e| Failure::usage(format!("cannot read {path}: {e}")))?;
            let text: std::sync::Arc<str> = text.into();
            for (name, range) in read_declarations_file(display_name(path), &text, color)? {
                options = options.declare_at(name, text.clone(), range, display_name(path).to_string());
            }
        }
        for assignment in &self.declare {
            let Some((name, ty)) = assignment.split_once('=') else {
                return Err(Failure::usage(format!("--declare {assignment:?}: expected NAME=TYPE")));
            };
            let name = name.trim();
            if name.is_empty() {
                return Err(Failure::usage(format!("--declare {assignment:?}: the name is empty")));
            }
            options = options.declare(name, ty);
        }
        Ok(options)
    }
}

/// The declarations of a file: each attribute's name and where its
/// expression is in `text`.
fn read_declarations_file(name: &str, text: &str, color: bool) -> Result<Vec<(String, std::ops::Range<usize>)>, Failure> {
    let arena = bumpalo::Bump::new();
    let mut interner = compiler::Interner::new();
    let (body, diags) = compiler::parse_body_full(&arena, text.as_bytes(), name, &mut interner).into_parts();
    let mut problems = diags;
    for b in body.blocks {
        problems.push(runtime::Diagnostic::error(
            "Unexpected block",
            "A declarations file has one attribute per variable: NAME = TYPE.",
            Some(b.block_type.span),
        ));
    }
    if problems.has_errors() {
        let file = SourceFile::new(name, text.as_bytes());
        let mut out = Vec::new();
        render_diagnostics(&mut out, &file, &problems, color);
        let _ = std::io::stderr().lock().write_all(&out);
        return Err(Failure::input(format!("{name}: invalid declarations")));
    }
    let mut out = Vec::new();
    for a in body.attributes.iter() {
        let span = a.expr.span;
        out.push((interner.resolve(a.name.name).to_string(), span.start as usize..span.end as usize));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_gives_each_constraint_at_its_place() {
        let text = "# types\nreq = object({\n  a = string\n})\nn = number\n";
        let decls = read_declarations_file("d.hcl", text, false).ok().unwrap();
        assert_eq!(decls.len(), 2);
        assert_eq!(decls[0].0, "req");
        assert_eq!(&text[decls[0].1.clone()], "object({\n  a = string\n})");
        assert_eq!(&text[decls[1].1.clone()], "number");
        assert!(read_declarations_file("d.hcl", "block {}\n", false).is_err());
    }
}
