//! `hclvm disasm FILE`: the bytecode of every attribute of a configuration
//! file (or of a template, or one expression with `--mode expr`), listed
//! from the file's one chunk, so instruction numbers continue from one
//! attribute to the next. Every root name the source references is
//! treated as a host variable.

use super::{ColorChoice, ParseAs, Status};
use crate::diagnostic_text::{render_diagnostics, SourceFile};
use crate::api::SourceKind;
use crate::engine::stdlib_table;
use clap::Args;
use compiler::analysis::variables;
use compiler::ast;
use compiler::lower::{compile_all_into, CompileEnv};
use compiler::Interner;
use runtime::diag::DiagnosticsExt;

#[derive(Args, Debug)]
pub struct DisasmArgs {
    /// Source file.
    file: String,
    /// How to read FILE; `auto` reads `.tpl`, `.tftpl` and `.tmpl` files as
    /// templates and everything else as config bodies.
    #[arg(long, value_enum, default_value_t = ParseAs::Auto)]
    mode: ParseAs,
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
}

fn root_names<'a>(e: &'a ast::Expr<'a>, interner: &Interner, out: &mut Vec<String>) {
    for t in variables(e) {
        out.push(interner.resolve(t.root.name).to_string());
    }
}

fn body_exprs<'a>(b: &'a ast::Body<'a>, path: &str, interner: &Interner, out: &mut Vec<(String, &'a ast::Expr<'a>)>) {
    for a in b.attributes_in_order() {
        out.push((format!("{path}{}", interner.resolve(a.name.name)), a.expr));
    }
    for blk in b.blocks {
        let mut p = format!("{path}{}", interner.resolve(blk.block_type.name));
        for l in blk.labels {
            p.push_str(&format!(" {l:?}"));
        }
        p.push_str(" / ");
        body_exprs(&blk.body, &p, interner, out);
    }
}

pub fn run(args: DisasmArgs) -> Status {
    let src = match std::fs::read(&args.file) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("hclvm disasm: cannot read {}: {e}", args.file);
            return Status::UsageOrIo;
        }
    };
    let arena = bumpalo::Bump::new();
    let mut interner = Interner::new();
    let mut exprs: Vec<(String, &ast::Expr<'_>)> = Vec::new();
    let name = args.file.as_str();
    let (diags, file) = match args.mode.kind_for(name) {
        SourceKind::Body => {
            let (body, diags) = compiler::parse_body(&arena, &src, &mut interner);
            let body = arena.alloc(body);
            body_exprs(body, "", &interner, &mut exprs);
            (diags, SourceFile::new(name, &src).with_blocks(body, &interner))
        }
        kind => {
            let (e, diags) = if kind == SourceKind::Expression {
                compiler::parse_expression(&arena, &src, &mut interner)
            } else {
                compiler::parse_template(&arena, &src, &mut interner)
            };
            exprs.push(("expr".into(), e));
            (diags, SourceFile::new(name, &src))
        }
    };
    if diags.has_errors() {
        // Rendered as `hclvm check` does: location, source line, caret.
        let mut rendered = Vec::new();
        render_diagnostics(&mut rendered, &file, &diags, args.color.for_stderr());
        let _ = std::io::Write::write_all(&mut std::io::stderr().lock(), &rendered);
        return Status::ProblemsFound;
    }
    let mut names = Vec::new();
    for (_, e) in &exprs {
        root_names(e, &interner, &mut names);
    }
    names.sort();
    names.dedup();
    let env = CompileEnv::new(names.iter(), Some(stdlib_table()));
    // Listings print no positions: the source without its token boundaries.
    let lines = std::sync::Arc::new(vm::program::SourceLines { src: src.as_slice().into(), breaks: Box::default() });
    let mut chunk = vm::codegen::FileCode::new();
    let roots: Vec<&ast::Expr<'_>> = exprs.iter().map(|(_, e)| *e).collect();
    let programs = compile_all_into(&mut chunk, &roots, &interner, &env, &lines);
    chunk.finish();
    let mut out = String::new();
    for ((name, _), program) in exprs.iter().zip(&programs) {
        out.push_str(name);
        out.push_str(":\n");
        out.push_str(&vm::disasm::disassemble(program));
    }
    // A closed pipe (`| head`) is not an error worth a panic.
    let _ = std::io::Write::write_all(&mut std::io::stdout().lock(), out.as_bytes());
    Status::Ok
}
