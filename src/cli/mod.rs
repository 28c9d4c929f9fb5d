//! The `hclvm` command line: argument parsing and dispatch to one module per
//! subcommand. Exit codes: 0 success, 1 problems found in the input, 2 usage
//! or I/O error.

mod batch;
mod bench;
mod blocks;
mod check;
mod conformance;
mod declare;
mod disasm;
mod eval;
mod render;

use clap::{Parser, Subcommand, ValueEnum};
use std::io::IsTerminal;
use std::process::ExitCode;

/// `hclvm --version`: the engine's version and the reference it reproduces.
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (reproduces hashicorp/hcl v2.20.0 with go-cty v1.13.0)");

#[derive(Parser, Debug)]
#[command(name = "hclvm", version = VERSION, about = "A fast, exact HCL (native syntax v2) engine")]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Parse files and report their diagnostics (exit 1 when any has errors).
    Check(check::CheckArgs),
    /// Run conformance cases (oracle JSON Lines format), one result line per case.
    Conformance(conformance::ConformanceArgs),
    /// Time evaluations like the oracle's bench mode (same output line).
    Bench(bench::BenchArgs),
    /// Print the compiled program of every attribute of a file.
    Disasm(disasm::DisasmArgs),
    /// Evaluate a body, template or expression and print the result as JSON.
    Eval(eval::EvalArgs),
    /// Render a standalone template and print the text.
    Render(render::RenderArgs),
    /// Compile once, evaluate once per JSON Lines input line, in parallel.
    Batch(batch::BatchArgs),
}

/// The subcommands that run many inputs, one after another, in one
/// process: the allocator keeps memory they free for the next input
/// (`src/bin/hclvm.rs`, which must decide before the arguments are parsed).
const MANY_INPUT_COMMANDS: [&str; 3] = ["conformance", "batch", "bench"];

/// Whether the command line whose first argument is `subcommand` runs many
/// inputs in one process ([`MANY_INPUT_COMMANDS`]).
pub fn runs_many_inputs(subcommand: Option<&std::ffi::OsStr>) -> bool {
    subcommand.is_some_and(|c| MANY_INPUT_COMMANDS.iter().any(|m| c == *m))
}

/// When to colour diagnostics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// When the output is a terminal and `NO_COLOR` is not set.
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// Whether to colour text written to a stream for which `is_terminal` holds.
    pub fn enabled(self, is_terminal: bool) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => is_terminal && std::env::var_os("NO_COLOR").map_or(true, |v| v.is_empty()),
        }
    }

    pub fn for_stderr(self) -> bool {
        self.enabled(std::io::stderr().is_terminal())
    }
}

/// Which function table calls resolve against (`--funcs`), and what the
/// file functions of Packer's table may read (`--files`).
#[derive(clap::Args, Debug, Clone)]
pub struct FuncArgs {
    /// `stdlib`: go-cty's standard functions; `packer`: Packer v1.11.2's
    /// table (stdlib plus cidrsubnet, sha256, uuidv5, file, ...);
    /// `none`: no functions.
    #[arg(long, value_enum, default_value_t = FuncTableChoice::Stdlib)]
    pub funcs: FuncTableChoice,
    /// What Packer's file functions may read: `none` (the default),
    /// `all` (any file, relative to the working directory, as Packer), or
    /// a directory (only files under it).
    #[arg(long = "files", value_name = "none|all|DIR", default_value = "none")]
    pub file_access: String,
}

/// The function tables of `--funcs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FuncTableChoice {
    Stdlib,
    Packer,
    None,
}

impl FuncArgs {
    /// The file policy `--files` names.
    pub fn file_access(&self) -> runtime::func::FileAccess {
        use runtime::func::FileAccess;
        match self.file_access.as_str() {
            "none" => FileAccess::None,
            "all" => FileAccess::Unrestricted,
            dir => FileAccess::root(dir),
        }
    }

    /// `options` with the chosen function table.
    pub fn apply(&self, options: crate::api::Options) -> crate::api::Options {
        use runtime::func::Functions;
        match self.funcs {
            FuncTableChoice::Stdlib => options,
            FuncTableChoice::Packer => options.functions(Functions::packer(self.file_access())),
            FuncTableChoice::None => options.functions(Functions::empty()),
        }
    }
}

/// Outcome of a subcommand, as the process exit status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    Ok = 0,
    ProblemsFound = 1,
    UsageOrIo = 2,
}

impl From<Status> for ExitCode {
    fn from(s: Status) -> ExitCode {
        ExitCode::from(s as u8)
    }
}

/// Runs the command line given in `std::env::args`.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // --help and --version are not errors.
            let status = if e.use_stderr() { Status::UsageOrIo } else { Status::Ok };
            let _ = e.print();
            return status.into();
        }
    };
    // Parsing and evaluation recurse with the input's nesting (within their
    // depth limits), so the work runs on a thread with a known, generous stack
    // rather than on whatever the main thread got.
    let worker = std::thread::Builder::new().name("hclvm".into()).stack_size(WORKER_STACK_SIZE).spawn(move || run(cli));
    match worker {
        Ok(handle) => match handle.join() {
            Ok(status) => status.into(),
            Err(panic) => std::panic::resume_unwind(panic),
        },
        Err(e) => {
            eprintln!("hclvm: cannot start the worker thread: {e}");
            Status::UsageOrIo.into()
        }
    }
}

/// Stack size of the thread the CLI works on (address space is reserved,
/// memory is only used as deep inputs need it).
pub const WORKER_STACK_SIZE: usize = 256 << 20;

/// How to read a source file (`--mode`); `auto` reads `.tpl`, `.tftpl`
/// and `.tmpl` files as templates and everything else as config bodies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ParseAs {
    Auto,
    Body,
    Template,
    Expr,
}

const TEMPLATE_EXTENSIONS: [&str; 3] = ["tpl", "tftpl", "tmpl"];

impl ParseAs {
    /// The source kind for `file_name` (`Auto` decided by its extension).
    pub fn kind_for(self, file_name: &str) -> crate::api::SourceKind {
        use crate::api::SourceKind;
        match self {
            ParseAs::Body => SourceKind::Body,
            ParseAs::Template => SourceKind::Template,
            ParseAs::Expr => SourceKind::Expression,
            ParseAs::Auto => {
                let ext = std::path::Path::new(file_name).extension().and_then(|e| e.to_str());
                if ext.is_some_and(|e| TEMPLATE_EXTENSIONS.contains(&e)) {
                    SourceKind::Template
                } else {
                    SourceKind::Body
                }
            }
        }
    }
}

fn run(cli: Cli) -> Status {
    match cli.command {
        Command::Check(args) => check::run(args),
        Command::Conformance(args) => conformance::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Disasm(args) => disasm::run(args),
        Command::Eval(args) => eval::run(args),
        Command::Render(args) => render::run(args),
        Command::Batch(args) => batch::run(args),
    }
}

/// The FNV-1a 64 offset basis: the start of a `result_checksum`.
pub(crate) const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// Adds `bytes` to an FNV-1a 64 hash: the `result_checksum` of the
/// reference's bench mode, which `hclvm bench` and `hclvm batch --checksum`
/// print, is this over the result lines (each with its newline).
pub(crate) fn fnv1a(hash: &mut u64, bytes: &[u8]) {
    for b in bytes {
        *hash ^= u64::from(*b);
        *hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn many_input_commands_are_subcommands() {
        use clap::CommandFactory;
        let cli = super::Cli::command();
        for name in super::MANY_INPUT_COMMANDS {
            assert!(cli.find_subcommand(name).is_some(), "{name}");
        }
        assert!(super::runs_many_inputs(Some("batch".as_ref())));
        assert!(!super::runs_many_inputs(Some("eval".as_ref())));
        assert!(!super::runs_many_inputs(None));
    }

    #[test]
    fn fnv1a_is_fnv_1a_64() {
        let hash = |s: &[u8]| {
            let mut h = super::FNV_OFFSET;
            super::fnv1a(&mut h, s);
            h
        };
        assert_eq!(hash(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(hash(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(hash(b"foobar"), 0x8594_4171_f739_67e8);
    }
}
