//! `hclvm check FILE...`: parse each file and print its diagnostics the way
//! hcl's text diagnostic writer does.

use super::declare::DeclareArgs;
use super::eval::Failure;
use super::{ColorChoice, ParseAs, Status};
use crate::api::{Compiled, Error, Options, SourceKind};
use crate::diagnostic_text::{write_diagnostics, SourceFile};
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
        // Written as rendered: the text of an error-dense file is tens of
        // times its size (300,000 `a=` lines, 0.9 MB, render 54 MB).
        let mut stderr = std::io::stderr().lock();
        let checked = if args.declare.any() {
            validate_source(display_name, &src, args.mode.kind_for(name), &args.declare, &args.funcs, color, &mut stderr)
        } else {
            check_source(display_name, &src, mode, color, &mut stderr).map_err(CheckFailure::from)
        };
        match checked {
            Ok(true) => status = status.max(Status::ProblemsFound),
            Ok(false) => {}
            Err(CheckFailure::Write) => return Status::UsageOrIo,
            Err(CheckFailure::Input(f)) => status = status.max(f.report("check")),
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

/// Why a file's check did not finish: its diagnostics could not be
/// written, or its declarations or functions are unusable.
enum CheckFailure {
    Write,
    Input(Failure),
}

impl From<std::io::Error> for CheckFailure {
    fn from(_: std::io::Error) -> CheckFailure {
        CheckFailure::Write
    }
}

/// Compiles with the declarations and validates (`Compiled::validate`):
/// syntax errors, invalid type constraints, then what fails for every
/// input. Writes the diagnostics to `out`; returns whether any is an error.
fn validate_source(
    name: &str,
    src: &[u8],
    kind: SourceKind,
    declare: &DeclareArgs,
    funcs: &super::FuncArgs,
    color: bool,
    out: &mut dyn Write,
) -> Result<bool, CheckFailure> {
    let options = declare.apply(funcs.apply(Options::new().filename(name)), color).map_err(CheckFailure::Input)?;
    let diags = match Compiled::compile(kind, src, &options) {
        Ok(compiled) => compiled.validate(),
        Err(Error::Compile(diags)) => diags,
        Err(Error::Declaration(list)) => {
            for d in &list {
                out.write_all(d.render(color).as_bytes())?;
            }
            return Ok(true);
        }
        Err(e) => return Err(CheckFailure::Input(Failure::input(e.to_string()))),
    };
    diags.write(out, color)?;
    Ok(diags.has_errors())
}

/// Parses and writes the syntax diagnostics to `out`; returns whether any
/// is an error.
fn check_source(name: &str, src: &[u8], mode: ParseAs, color: bool, out: &mut dyn Write) -> std::io::Result<bool> {
    let arena = bumpalo::Bump::new();
    let mut interner = compiler::Interner::new();
    let (diags, file) = match mode {
        ParseAs::Template => (compiler::parse_template_full(&arena, src, name, &mut interner).diags, SourceFile::new(name, src)),
        ParseAs::Expr => (compiler::parse_expression_full(&arena, src, name, &mut interner).diags, SourceFile::new(name, src)),
        ParseAs::Auto | ParseAs::Body => {
            let parsed = compiler::parse_file_full(&arena, src, name, &mut interner);
            let file = SourceFile::new(name, src);
            // Headers only for diagnostics to place (a file of 200,000
            // blocks took 10 MB for them).
            let file = if parsed.diags.is_empty() { file } else { file.with_blocks(&parsed.tree.body(), &interner) };
            (parsed.diags, file)
        }
    };
    write_diagnostics(out, &file, &diags, color)?;
    Ok(diags.has_errors())
}
