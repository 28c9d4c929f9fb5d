//! Repository hygiene: no file of the repository names a path of the
//! machine it was written on. Code finds the shared folder relative to the
//! repository (`tests/support/data.rs`, `__file__` in scripts), so the
//! repository works wherever it is checked out.
//!
//! Scanned: every file git tracks or would (`git ls-files --cached
//! --others --exclude-standard`; without git, every file under the
//! repository root but what `.gitignore` ignores from the root),
//! except the third-party and copied data listed in [`VENDORED`], whose
//! contents are not ours (corpus files legitimately hold absolute paths
//! of temporary files inside HCL strings). Flagged: the repository's absolute path,
//! its parent folder's, and paths under the home and work folders of the
//! machines the project is developed on.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

/// Folders (relative to the repository root, `/`-separated) holding
/// vendored data: files copied unchanged from elsewhere.
const VENDORED: &[&str] = &[
    // Real-world HCL files from public repositories (tests/data/refresh.sh).
    "tests/data/corpus/realworld/",
    "tests/data/corpus/templates/",
    // The shared folder's conformance cases and the reference's results,
    // copied unchanged (tests/data/refresh.sh).
    "tests/data/conformance/cases/",
    "tests/data/conformance/expected/",
];

/// Absolute-path prefixes that name no folder of any checkout (built here
/// so that this file does not contain them).
fn machine_prefixes() -> Vec<String> {
    ["work", "home"].iter().map(|dir| format!("/{dir}/")).collect()
}

/// Every file of the repository, relative to its root, `/`-separated.
fn repository_files(root: &Path) -> (Vec<String>, &'static str) {
    // Tracked files and new ones not yet added (but not the ignored ones).
    let git = Command::new("git").args(["ls-files", "-z", "--cached", "--others", "--exclude-standard"]).current_dir(root).output();
    if let Ok(out) = git {
        if out.status.success() {
            let text = String::from_utf8(out.stdout).expect("git ls-files prints UTF-8 paths here");
            return (text.split('\0').filter(|p| !p.is_empty()).map(String::from).collect(), "git ls-files");
        }
    }
    let ignored = root_ignores(root);
    let mut files = Vec::new();
    walk(root, root, &ignored, &mut files);
    (files, "a walk of the tree")
}

/// The root-anchored entries of `.gitignore` (`/target`, `/fuzz/corpus`, ...)
/// plus `.git` itself.
fn root_ignores(root: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(root.join(".gitignore")).unwrap_or_default();
    let mut out: Vec<String> =
        text.lines().filter_map(|l| l.trim().strip_prefix('/')).map(|l| l.trim_end_matches('/').to_string()).collect();
    out.push(".git".to_string());
    out
}

fn walk(root: &Path, dir: &Path, ignored: &[String], out: &mut Vec<String>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("directory entry").path();
        let rel = path.strip_prefix(root).expect("under the root").to_string_lossy().replace('\\', "/");
        if ignored.contains(&rel) {
            continue;
        }
        if path.is_dir() {
            walk(root, &path, ignored, out);
        } else {
            out.push(rel);
        }
    }
}

/// Bytes that can continue a path or a name, so that a match inside a
/// longer name (`support/workload.rs`, `/workspace`) is not one.
fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.')
}

/// 1-based line numbers where `needle` occurs as a path of its own: not
/// preceded by a name byte, and, unless it ends with `/`, not followed by
/// one either (`/srv/repo` does not match inside `/srv/repos`).
fn occurrences(text: &[u8], needle: &str) -> Vec<usize> {
    let n = needle.as_bytes();
    let mut lines = Vec::new();
    if n.is_empty() || text.len() < n.len() {
        return lines;
    }
    for at in 0..=text.len() - n.len() {
        if text[at] != n[0] || &text[at..at + n.len()] != n {
            continue;
        }
        if at > 0 && is_name_byte(text[at - 1]) {
            continue;
        }
        if !needle.ends_with('/') && text.get(at + n.len()).is_some_and(|&b| is_name_byte(b)) {
            continue;
        }
        lines.push(1 + text[..at].iter().filter(|&&b| b == b'\n').count());
    }
    lines
}

/// What to look for: the checkout's own absolute path (as Cargo gives it
/// and canonical), its parent folder's, and the machine prefixes.
fn needles(root: &Path) -> Vec<String> {
    let mut roots: Vec<PathBuf> = vec![root.to_path_buf()];
    if let Ok(canonical) = root.canonicalize() {
        roots.push(canonical);
    }
    let mut out = Vec::new();
    for r in &roots {
        out.push(r.to_string_lossy().into_owned());
        // The parent, unless it is the filesystem root ("/" would match
        // every path) or a folder too short to mean anything.
        if let Some(parent) = r.parent().filter(|p| p.components().count() >= 2) {
            out.push(parent.to_string_lossy().into_owned());
        }
    }
    out.extend(machine_prefixes());
    out.sort();
    out.dedup();
    out
}

#[test]
fn no_file_names_a_path_of_this_machine() {
    let root = support::repo_root();
    let needles = needles(&root);
    assert!(needles.len() >= 3, "{needles:?}");
    let (files, how) = repository_files(&root);
    let (mut scanned, mut vendored, mut found) = (0usize, 0usize, Vec::new());
    for rel in &files {
        if VENDORED.iter().any(|v| rel.starts_with(v)) {
            vendored += 1;
            continue;
        }
        // A symbolic link (the fileset fixtures have some) is its target.
        let path = root.join(rel);
        let link = std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink());
        let read =
            if link { std::fs::read_link(&path).map(|t| t.to_string_lossy().into_owned().into_bytes()) } else { std::fs::read(&path) };
        let bytes = match read {
            Ok(b) => b,
            // Deleted in the work tree but still in the index.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => panic!("cannot read {rel}: {e}"),
        };
        scanned += 1;
        for needle in &needles {
            for line in occurrences(&bytes, needle) {
                found.push(format!("{rel}:{line}: {needle}"));
            }
        }
    }
    println!("{scanned} files scanned ({how}), {vendored} vendored files skipped; looked for {needles:?}");
    // Not vacuous: the repository's own files were read, and the
    // exclusions cover the vendored data, not everything.
    assert!(scanned >= 150, "only {scanned} files scanned ({how})");
    assert!(vendored >= 2000, "only {vendored} vendored files: is tests/data/corpus there?");
    for must in ["Cargo.toml", "tests/repository.rs", "tests/support/data.rs", "runtime/tests/data/oracle_tables.py"] {
        assert!(files.iter().any(|f| f == must), "{must} was not among the files ({how})");
    }
    assert!(
        found.is_empty(),
        "absolute paths of a machine in the repository (use paths relative to the repository):\n{}",
        found.join("\n")
    );
}

#[test]
fn occurrences_respect_name_boundaries() {
    let p = format!("/{}/", "work");
    assert_eq!(occurrences(format!("a {p}x\n\"{p}y\"").as_bytes(), &p), vec![1, 2]);
    assert!(occurrences(format!("support{p}x /workload.rs").as_bytes(), &p).is_empty());
    assert_eq!(occurrences(b"/srv/repo\n/srv/repo/x\n/srv/repos\n", "/srv/repo"), vec![1, 2]);
}
