//! `hclvm disasm FILE`: the bytecode of every attribute of a configuration
//! file (or of a template, or one expression with `--mode expr`), listed
//! from the file's one chunk, so instruction numbers continue from one
//! attribute to the next. Every root name the source references is
//! treated as a host variable.

use super::eval::display_name;
use super::{ColorChoice, ParseAs, Status};
use crate::api::{Compiled, Error, Options};
use clap::Args;

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
    /// Compile `&&` and `||` with short-circuit, as hcl evaluates them since
    /// v2.21 (`ANDTHEN`, `ORELSE`).
    #[arg(long)]
    short_circuit: bool,
}

pub fn run(args: DisasmArgs) -> Status {
    let src = match std::fs::read(&args.file) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("hclvm disasm: cannot read {}: {e}", args.file);
            return Status::UsageOrIo;
        }
    };
    let options = Options::new().filename(display_name(&args.file)).short_circuit(args.short_circuit);
    let compiled = match Compiled::compile(args.mode.kind_for(&args.file), &src, &options) {
        Ok(c) => c,
        Err(Error::Compile(diags)) => {
            // Rendered as `hclvm check` does: location, source line, caret.
            let _ = diags.write(&mut std::io::stderr().lock(), args.color.for_stderr());
            return Status::ProblemsFound;
        }
        Err(e) => {
            eprintln!("hclvm disasm: {e}");
            return Status::ProblemsFound;
        }
    };
    // A closed pipe (`| head`) is not an error worth a panic.
    let _ = std::io::Write::write_all(&mut std::io::stdout().lock(), compiled.disassemble().as_bytes());
    Status::Ok
}
