//! Helpers shared by the root integration tests: where the test data is
//! (`data.rs`, which the other crates include by path), how to read case
//! and result files, and how to run the `hclvm` binary. (`case_line.rs` reads case lines for `compiler/`'s
//! tests and examples, which cannot use `hclvm::conformance`.)
#![allow(dead_code)]

mod data;

pub use data::*;

use serde_json::Value as Json;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// `(name, cases file, expected file)` for every case file of the copy under
/// tests/data/conformance, sorted by name.
pub fn conformance_files() -> Vec<(String, PathBuf, PathBuf)> {
    case_files("conformance")
}

/// `(name, cases file, expected file)` for every case file of hclvm's own
/// oracle rows under tests/data/rows (made by its regen.sh), sorted.
pub fn row_files() -> Vec<(String, PathBuf, PathBuf)> {
    case_files("rows").into_iter().map(|(n, c, e)| (format!("rows/{n}"), c, e)).collect()
}

/// `(name, cases file, expected file)` for the opt-in short-circuit mode's
/// cases under tests/data/short_circuit (results of an oracle with hcl
/// v2.24.0's operators, made by its regen.sh), sorted.
pub fn short_circuit_files() -> Vec<(String, PathBuf, PathBuf)> {
    case_files("short_circuit").into_iter().map(|(n, c, e)| (format!("short_circuit/{n}"), c, e)).collect()
}

fn case_files(sub: &str) -> Vec<(String, PathBuf, PathBuf)> {
    let dir = data_dir().join(sub);
    let mut out = Vec::new();
    let entries = std::fs::read_dir(dir.join("cases")).unwrap_or_else(|e| panic!("tests/data/{sub}/cases is missing: {e}"));
    for entry in entries {
        let path = entry.expect("readable directory entry").path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()).and_then(|n| n.strip_suffix(".jsonl")) else {
            continue;
        };
        let expected = dir.join("expected").join(format!("{name}.expected.jsonl"));
        out.push((name.to_string(), path.clone(), expected));
    }
    out.sort();
    assert!(!out.is_empty(), "no case files found under tests/data/{sub}");
    out
}

/// The non-blank lines of a JSON Lines file with their 1-based line numbers.
pub fn lines(path: &Path) -> Vec<(usize, Vec<u8>)> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    bytes
        .split(|&b| b == b'\n')
        .enumerate()
        .map(|(i, l)| (i + 1, l.strip_suffix(b"\r").unwrap_or(l).to_vec()))
        .filter(|(_, l)| !l.iter().all(u8::is_ascii_whitespace))
        .collect()
}

/// Result lines by id, in file order.
pub fn results(path: &Path) -> Vec<(String, Json)> {
    lines(path)
        .into_iter()
        .map(|(n, l)| {
            let text = std::str::from_utf8(&l).unwrap_or_else(|e| panic!("{}:{n}: not UTF-8: {e}", path.display()));
            let v: Json = hclvm::runtime::json::parse_json(text).unwrap_or_else(|e| panic!("{}:{n}: bad JSON: {e}", path.display()));
            let id = v.get("id").and_then(Json::as_str).unwrap_or_else(|| panic!("{}:{n}: no id", path.display())).to_string();
            (id, v)
        })
        .collect()
}

/// Runs `f` on a thread with the stack the `hclvm` binary works with (test
/// threads get less).
pub fn with_cli_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(hclvm::cli::WORKER_STACK_SIZE)
        .spawn(f)
        .expect("spawn test thread")
        .join()
        .unwrap_or_else(|p| std::panic::resume_unwind(p))
}

/// Runs the `hclvm` binary with `args`, writing `stdin` to its input
/// (`NO_COLOR` unset, so `--color auto` depends on the terminal only).
pub fn hclvm(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hclvm"))
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start hclvm");
    // A command that does not read its input closes the pipe early; that is fine.
    let _ = child.stdin.take().expect("stdin").write_all(stdin);
    child.wait_with_output().expect("wait for hclvm")
}

/// Process output as text.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The path of `examples/NAME` of the repository.
pub fn example(name: &str) -> String {
    repo_root().join("examples").join(name).to_string_lossy().into_owned()
}

/// Writes `content` to `name` in this test binary's own scratch folder
/// (under `CARGO_TARGET_TMPDIR`, named after the test crate and process)
/// and returns its path.
pub fn scratch(name: &str, content: impl AsRef<[u8]>) -> PathBuf {
    // One folder per test process: two runs of the same tests at once (two
    // checkouts' CI, a developer and a reviewer) would otherwise overwrite
    // each other's files.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{}-tests-{}", env!("CARGO_CRATE_NAME"), std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let path = dir.join(name);
    std::fs::write(&path, content).expect("write scratch file");
    path
}

/// [`scratch`], as a command line argument.
pub fn scratch_arg(name: &str, content: &str) -> String {
    scratch(name, content).to_string_lossy().into_owned()
}

/// Asserts a command's exit code, and that nothing panicked.
pub fn assert_exit(out: &Output, code: i32) {
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "stdout: {}\nstderr: {err}", text(&out.stdout));
    assert!(!err.contains("panicked"), "{err}");
}
