//! Real-world corpus: every file parses or fails exactly as the reference
//! (REFERENCE_PARSE_FAILURES.tsv, hcl v2.20.0, which parses namespaced
//! function calls such as `provider::ns::f()`). For rejected files the
//! first error must be on the reference's line. Checks `tests/data/corpus`
//! and, when present, the whole corpus of the shared folder (`$HCLVM_SHARED`
//! or `shared/` beside the repository).

use runtime::LineIndex;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

struct Expected {
    line: Option<usize>,
}

fn load_failures(root: &Path) -> HashMap<String, Expected> {
    let text = std::fs::read_to_string(root.join("REFERENCE_PARSE_FAILURES.tsv")).unwrap_or_default();
    let mut out = HashMap::new();
    for line in text.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.len() < 6 {
            continue;
        }
        let line_no = cols[2].split(':').next().and_then(|l| l.parse().ok());
        out.insert(cols[0].to_owned(), Expected { line: line_no });
    }
    out
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files_under(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn check_root(root: &Path) -> (usize, Vec<String>) {
    let failures = load_failures(root);
    let mut files = Vec::new();
    files_under(&root.join("realworld"), &mut files);
    files_under(&root.join("templates"), &mut files);
    files.sort();
    let mut problems = Vec::new();
    for path in &files {
        let rel = path.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
        let src = std::fs::read(path).unwrap();
        let arena = bumpalo::Bump::new();
        let mut interner = compiler::Interner::new();
        let diags = if rel.starts_with("templates/") {
            compiler::parse_template(&arena, &src, &mut interner).1
        } else {
            compiler::parse_body(&arena, &src, &mut interner).1
        };
        let first = diags.iter().find(|d| d.is_error());
        let expected = failures.get(&rel);
        let should_fail = expected.is_some();
        match (first, should_fail) {
            (None, false) => {}
            (Some(d), false) => problems.push(format!("{rel}: unexpected error {d}")),
            (None, true) => problems.push(format!("{rel}: accepted, the reference rejects it")),
            (Some(d), true) => {
                let ours = d.subject.map(|s| LineIndex::new(&src).line_of(s.start) + 1);
                let theirs = expected.and_then(|e| e.line);
                if theirs.is_some() && ours != theirs {
                    problems.push(format!("{rel}: first error on line {ours:?}, reference {theirs:?}"));
                }
            }
        }
    }
    (files.len(), problems)
}

#[test]
fn corpus_agrees_with_reference() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = std::env::var_os("HCLVM_SHARED").map(PathBuf::from).unwrap_or_else(|| manifest.join("../../shared"));
    let roots = [manifest.join("../tests/data/corpus"), shared.join("corpus")];
    let mut checked = 0;
    for root in roots.iter().filter(|r| r.join("REFERENCE_PARSE_FAILURES.tsv").is_file()) {
        let (n, problems) = check_root(root);
        println!("{}: {n} files, {} disagreements", root.display(), problems.len());
        for p in &problems {
            println!("  {p}");
        }
        assert!(problems.is_empty(), "{} disagreements under {}", problems.len(), root.display());
        checked += n;
    }
    if checked == 0 {
        println!("no corpus found; skipping");
    }
}
