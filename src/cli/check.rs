//! `hclvm check FILE...`: parse each file and print its diagnostics the way
//! hcl's text diagnostic writer does.

use super::declare::DeclareArgs;
use super::eval::Failure;
use super::{ColorChoice, ParseAs, Status};
use crate::api::{Compiled, Error, Options, SourceKind};
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
    /// With declarations, each file is also validated without inputs:
    /// evaluated with every declared variable an unknown of its type,
    /// reporting what fails for every input (unsupported attributes, type
    /// errors, wrong calls, undeclared names).
    #[command(flatten)]
    declare: DeclareArgs,
    /// The function table validation calls resolve against.
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
        let text = if args.declare.any() {
            match validate_source(display_name, &src, args.mode.kind_for(name), &args.declare, &args.funcs, color) {
                Ok(t) => t,
                Err(f) => {
                    status = status.max(f.report("check"));
                    continue;
                }
            }
        } else {
            check_source(display_name, &src, mode, color)
        };
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

/// Compiles with the declarations and validates (`Compiled::validate`):
/// syntax errors, invalid type constraints, then what fails for every
/// input.
fn validate_source(
    name: &str,
    src: &[u8],
    kind: SourceKind,
    declare: &DeclareArgs,
    funcs: &super::FuncArgs,
    color: bool,
) -> Result<Checked, Failure> {
    let options = declare.apply(funcs.apply(Options::new().filename(name)), color)?;
    let rendered = match Compiled::compile(kind, src, &options) {
        Ok(compiled) => compiled.validate(),
        Err(Error::Compile(diags)) => diags,
        Err(Error::Declaration(list)) => {
            let rendered = list.iter().map(|d| d.render(color)).collect::<String>().into_bytes();
            return Ok(Checked { rendered, has_errors: true });
        }
        Err(e) => return Err(Failure::input(e.to_string())),
    };
    Ok(Checked { has_errors: rendered.has_errors(), rendered: rendered.render(color).into_bytes() })
}

fn check_source(name: &str, src: &[u8], mode: ParseAs, color: bool) -> Checked {
    let arena = bumpalo::Bump::new();
    let mut interner = compiler::Interner::new();
    let (diags, file) = match mode {
        ParseAs::Template => (compiler::parse_template_full(&arena, src, name, &mut interner).diags, SourceFile::new(name, src)),
        ParseAs::Expr => (compiler::parse_expression_full(&arena, src, name, &mut interner).diags, SourceFile::new(name, src)),
        ParseAs::Auto | ParseAs::Body => {
            let parsed = compiler::parse_file_full(&arena, src, name, &mut interner);
            (parsed.diags, SourceFile::new(name, src).with_blocks(&parsed.tree.body(), &interner))
        }
    };
    let mut rendered = Vec::new();
    render_diagnostics(&mut rendered, &file, &diags, color);
    Checked { rendered, has_errors: diags.has_errors() }
}
