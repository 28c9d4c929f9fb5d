//! `hclvm check FILE...`: parse each file and print its diagnostics the way
//! hcl's text diagnostic writer does.

use super::{ColorChoice, ParseAs, Status};
use crate::diagnostic_text::{render_diagnostics, SourceFile};
use clap::Args;
use runtime::diag::DiagnosticsExt;
use std::io::{Read, Write};

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Files to check (`-` reads standard input).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<String>,
    /// How to parse the files; `auto` parses `.tpl`, `.tftpl` and `.tmpl`
    /// files as templates and everything else as config bodies.
    #[arg(long, value_enum, default_value_t = ParseAs::Auto)]
    mode: ParseAs,
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
    /// Accepted as the other commands take them; parsing does not depend
    /// on the function table.
    #[command(flatten)]
    funcs: super::FuncArgs,
}

pub fn run(args: CheckArgs) -> Status {
    let color = args.color.for_stderr();
    let mut status = Status::Ok;
    for name in &args.files {
        let src = match read_input(name) {
            Ok(src) => src,
            Err(e) => {
                eprintln!("hclvm check: cannot read {name}: {e}");
                status = status.max(Status::UsageOrIo);
                continue;
            }
        };
        let mode = match args.mode.kind_for(name) {
            crate::api::SourceKind::Template => ParseAs::Template,
            crate::api::SourceKind::Expression => ParseAs::Expr,
            crate::api::SourceKind::Body => ParseAs::Body,
        };
        let display_name = if name == "-" { "<stdin>" } else { name.as_str() };
        let text = check_source(display_name, &src, mode, color);
        if text.has_errors {
            status = status.max(Status::ProblemsFound);
        }
        let mut stderr = std::io::stderr().lock();
        if stderr.write_all(&text.rendered).is_err() {
            return Status::UsageOrIo;
        }
    }
    status
}

fn read_input(name: &str) -> std::io::Result<Vec<u8>> {
    if name == "-" {
        let mut buf = Vec::new();
        std::io::stdin().lock().read_to_end(&mut buf)?;
        Ok(buf)
    } else {
        std::fs::read(name)
    }
}

struct Checked {
    rendered: Vec<u8>,
    has_errors: bool,
}

fn check_source(name: &str, src: &[u8], mode: ParseAs, color: bool) -> Checked {
    let arena = bumpalo::Bump::new();
    let mut interner = compiler::Interner::new();
    let (diags, file) = match mode {
        ParseAs::Template => (compiler::parse_template_named(&arena, src, name, &mut interner).1, SourceFile::new(name, src)),
        ParseAs::Expr => (compiler::parse_expression_named(&arena, src, name, &mut interner).1, SourceFile::new(name, src)),
        ParseAs::Auto | ParseAs::Body => {
            let (body, diags) = compiler::parse_body_named(&arena, src, name, &mut interner);
            (diags, SourceFile::new(name, src).with_blocks(&body, &interner))
        }
    };
    let mut rendered = Vec::new();
    render_diagnostics(&mut rendered, &file, &diags, color);
    Checked { rendered, has_errors: diags.has_errors() }
}
