//! The `hclvm` command; see `hclvm --help` and [`hclvm::cli`].

#![forbid(unsafe_code)]

/// mimalloc: per-thread heaps (no allocator locks between batch jobs) and
/// faster small allocations than glibc's malloc on evaluation workloads.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    hclvm::cli::main()
}
