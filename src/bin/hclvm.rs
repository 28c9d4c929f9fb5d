//! The `hclvm` command; see `hclvm --help` and [`hclvm::cli`].

fn main() -> std::process::ExitCode {
    hclvm::cli::main()
}
