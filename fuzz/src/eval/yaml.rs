//! Packer's `yamldecode` and `yamlencode` on arbitrary text: the text is
//! variable `y` of `yamldecode(y)` and of `yamlencode(yamldecode(y))`,
//! each checked as every evaluation is ([`super::check`]: no panic,
//! memory within the budgets' bound, well-formed values, the same results
//! a second time). libFuzzer's timeout catches a scanner or parser that
//! goes quadratic.

use hclvm::{FileAccess, Functions, Options, SourceKind, Value, Variables};

thread_local! {
    /// Packer's table, without file access (built once: a table per input
    /// would be most of the work).
    static PACKER: Options = Options::new().functions(Functions::packer(FileAccess::None));
}

/// Checks the decoding (and re-encoding) of `data` as YAML text; inputs
/// that are not UTF-8 are skipped (an HCL string cannot hold them).
pub fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let vars = Variables::new().with("y", Value::string(text));
    PACKER.with(|options| {
        for src in ["yamldecode(y)", "yamlencode(yamldecode(y))"] {
            super::check::check_source_with(SourceKind::Expression, src.as_bytes(), &vars, options);
        }
    });
}
