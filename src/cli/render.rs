//! `hclvm render TEMPLATE`: render a standalone template and print the
//! string, exactly (no newline added).

use super::declare::DeclareArgs;
use super::eval::{compile_source, read_source, DiagArgs, EvalOptionArgs, VarArgs};
use super::Status;
use crate::api::{Options, SourceKind};
use clap::Args;
use runtime::{convert, Type};
use std::io::Write;

#[derive(Args, Debug)]
pub struct RenderArgs {
    /// Template file (`-` reads standard input).
    #[arg(value_name = "TEMPLATE")]
    template: String,
    #[command(flatten)]
    vars: VarArgs,
    #[command(flatten)]
    declare: DeclareArgs,
    #[command(flatten)]
    evaluation: EvalOptionArgs,
    #[command(flatten)]
    funcs: super::FuncArgs,
    #[command(flatten)]
    output: DiagArgs,
}

pub fn run(args: RenderArgs) -> Status {
    let src = match read_source(&args.template) {
        Ok(s) => s,
        Err(f) => return f.report("render"),
    };
    let vars = match args.vars.load() {
        Ok(v) => v,
        Err(f) => return f.report("render"),
    };
    let options = args.funcs.apply(args.evaluation.apply(Options::new()));
    let compiled = match compile_source(&args.template, &src, SourceKind::Template, &args.output, &args.declare, options) {
        Ok(c) => c,
        Err(status) => return status,
    };
    let evaluation = compiled.evaluate(&vars);
    if !evaluation.diagnostics().is_empty() {
        args.output.print_evaluation(&evaluation, &src);
    }
    let Some(value) = evaluation.value() else {
        return Status::ProblemsFound;
    };
    // A template that is a single interpolation yields that value itself
    // (`${true}` is a bool); it is printed as the string it converts to.
    let text = match convert(value, &Type::String) {
        Ok(v) if v.is_null() => Err("the template's result is null".to_string()),
        Ok(v) => match v.as_str() {
            Some(s) => Ok(s.to_string()),
            None => Err("the template's result is not known".to_string()),
        },
        Err(_) => Err(format!("the template's result has type {}, not string", value.ty().friendly_name())),
    };
    match text {
        Ok(s) => {
            let mut out = std::io::stdout().lock();
            if out.write_all(s.as_bytes()).and_then(|()| out.flush()).is_err() {
                return Status::UsageOrIo;
            }
            Status::Ok
        }
        Err(message) => {
            eprintln!("hclvm render: {message}");
            Status::ProblemsFound
        }
    }
}
