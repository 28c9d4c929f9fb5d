//! templatefile (Packer v1.11.2's `MakeTemplateFileFunc`).
//!
//! The file is read as `file` reads it (under the host's [`FileAccess`]
//! policy, with its error texts), then parsed and evaluated as a
//! standalone template with the given variables and Packer's function
//! table in which `templatefile` itself is a stub that fails with
//! Packer's "cannot recursively call templatefile from inside templatefile
//! call": a template cannot include templates, so nesting is one level
//! deep.
//!
//! Parsing and evaluating templates is the compiler's and the VM's work,
//! which this crate does not depend on: the `hclvm` crate registers a
//! [`TemplateRenderer`] ([`set_template_renderer`]) when its options are
//! first made. Without one, `templatefile` fails with a diagnostic.

use super::super::{CallCtx, FnError, Functions, SizeBudget};
use super::FileAccess;
use crate::value::Value;
use std::sync::{Arc, OnceLock};

/// Parses and evaluates a template for `templatefile`.
pub trait TemplateRenderer: Send + Sync {
    /// Renders `src` (read from `filename`, the path as the call gave it)
    /// with the variables `vars` (a known map or object, or anything else,
    /// which the renderer refuses as Packer does) and the functions
    /// `funcs`, charging `budget` for what the evaluation builds and the
    /// steps it takes. Errors are `templatefile`'s, worded as Packer words
    /// them.
    fn render(&self, src: &str, filename: &str, vars: &Value, funcs: &Arc<Functions>, budget: &mut SizeBudget) -> Result<Value, FnError>;
}

static RENDERER: OnceLock<&'static dyn TemplateRenderer> = OnceLock::new();

/// Registers the renderer `templatefile` uses (the first registration
/// stays).
pub fn set_template_renderer(r: &'static dyn TemplateRenderer) {
    let _ = RENDERER.set(r);
}

/// Packer's stub of `templatefile` inside templates.
pub(super) const RECURSIVE: &str = "cannot recursively call templatefile from inside templatefile call";

/// `templatefile(path, vars)`; `inner` makes the table templates run
/// with (built on first use).
pub(super) fn templatefile(
    access: &FileAccess,
    inner: &OnceLock<Arc<Functions>>,
    make_inner: impl FnOnce() -> Functions,
    args: &[Value],
    ctx: &mut CallCtx,
) -> Result<Value, FnError> {
    let src = super::files::file(access, &args[..1], ctx)?;
    let src = src.as_str().unwrap_or_default();
    let Some(renderer) = RENDERER.get() else {
        return Err(FnError::new("templates cannot be rendered here (no template renderer is registered)"));
    };
    let funcs = inner.get_or_init(|| Arc::new(make_inner()));
    renderer.render(src, args[0].as_str().unwrap_or_default(), &args[1], funcs, ctx.budget)
}
