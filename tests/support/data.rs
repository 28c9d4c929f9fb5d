//! Where the test data is, and the real-world corpus loader: the one
//! definition of both for every crate of the workspace. Standard library
//! only, so the tests, benches and examples of `compiler/`, `vm/`,
//! `runtime/` and the root crate can all include it by path:
//!
//! ```ignore
//! #[path = "../../tests/support/data.rs"]
//! mod data;
//! ```
//!
//! Two kinds of data, two rules:
//!
//! * the repository's own copies under `tests/data/` (vendored: the
//!   conformance cases, the permissively licensed part of the corpus, the
//!   oracle rows). They are part of the repository, so a test that finds
//!   them missing fails ([`data_dir`], [`Corpus::vendored`]);
//! * the shared folder beside the repository (`../shared` from the
//!   repository root, or `$HCLVM_SHARED`): the whole corpus, the bench
//!   workloads, the reference oracle. It is not part of the repository, so
//!   a test (or the part of a test) that needs it is skipped with a message
//!   saying why when it is absent ([`shared`], [`skip`]). Setting
//!   `HCLVM_SHARED` to a folder that does not exist hides it.
#![allow(dead_code)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// This file, relative to the repository root: how [`repo_root`] knows it
/// has found the root.
const THIS_FILE: &str = "tests/support/data.rs";

/// The repository root: the nearest ancestor of the including package's
/// manifest folder that holds this file (the root itself for the `hclvm`
/// package, its parent for `compiler/`, `vm/`, `runtime/`, `fuzz/`).
pub fn repo_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .ancestors()
        .find(|dir| dir.join(THIS_FILE).is_file())
        .unwrap_or_else(|| panic!("no ancestor of {} holds {THIS_FILE}", manifest.display()))
        .to_path_buf()
}

/// The repository's test data, `tests/data` (vendored copies included).
pub fn data_dir() -> PathBuf {
    repo_root().join("tests/data")
}

/// A path under `tests/data` that must exist: the repository's own data
/// missing is a failure, never a reason to skip.
pub fn vendored(rel: &str) -> PathBuf {
    let path = data_dir().join(rel);
    assert!(path.exists(), "tests/data/{rel} is missing ({}): it is part of the repository", path.display());
    path
}

/// The shared folder: `$HCLVM_SHARED` if set, else `../shared` from the
/// repository root. It may not exist; see [`shared`].
pub fn shared_dir() -> PathBuf {
    match std::env::var_os("HCLVM_SHARED") {
        Some(dir) => PathBuf::from(dir),
        None => repo_root().join("../shared"),
    }
}

/// `rel` under the shared folder if it exists; otherwise why a test that
/// needs it cannot run (for [`skip`]).
pub fn shared(rel: &str) -> Result<PathBuf, String> {
    let dir = shared_dir();
    let path = dir.join(rel);
    if path.exists() {
        Ok(path)
    } else if !dir.is_dir() {
        Err(format!("no shared folder at {} (../shared beside the repository, or $HCLVM_SHARED)", dir.display()))
    } else {
        Err(format!("the shared folder has no {rel} ({})", path.display()))
    }
}

/// The bench workloads: `$HCLVM_BENCH_DIR` if set, else `bench` of the
/// shared folder. It may not exist.
pub fn bench_dir() -> PathBuf {
    match std::env::var_os("HCLVM_BENCH_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => shared_dir().join("bench"),
    }
}

/// Says on stderr that `what` was skipped and why (the test harness shows
/// it with `--nocapture`).
pub fn skip(what: &str, reason: &str) {
    eprintln!("skipped: {what}: {reason}");
}

// ----- the real-world corpus -------------------------------------------------

/// A folder of real-world HCL files as the shared corpus lays it out:
/// `MANIFEST.tsv` (one row per file, path first), config files under
/// `realworld/<owner>__<repo>/`, templates under `templates/`, and
/// `REFERENCE_PARSE_FAILURES.tsv` (the files the reference rejects, with
/// its first error).
pub struct Corpus {
    pub root: PathBuf,
    /// Every file of the manifest, sorted by path.
    pub files: Vec<CorpusFile>,
    failures: HashMap<String, ReferenceFailure>,
}

/// One corpus file.
pub struct CorpusFile {
    /// The path relative to the corpus root (`realworld/...` or
    /// `templates/...`), as the manifest and the failure list name it.
    pub rel: String,
    pub path: PathBuf,
}

/// The reference's first error on a file it rejects.
pub struct ReferenceFailure {
    pub summary: String,
    /// 1-based line of the first error, when the reference gives one.
    pub line: Option<usize>,
}

impl CorpusFile {
    /// Templates are parsed as templates, everything else as config bodies.
    pub fn is_template(&self) -> bool {
        is_template(&self.rel)
    }

    pub fn read(&self) -> Vec<u8> {
        std::fs::read(&self.path).unwrap_or_else(|e| panic!("cannot read {}: {e}", self.path.display()))
    }
}

/// Whether the corpus file at `rel` is a template (the corpus keeps them
/// under `templates/`).
pub fn is_template(rel: &str) -> bool {
    rel.starts_with("templates/")
}

impl Corpus {
    /// The repository's copy, `tests/data/corpus`; missing or incomplete
    /// is a failure.
    pub fn vendored() -> Corpus {
        Corpus::load(&vendored("corpus")).unwrap_or_else(|e| panic!("tests/data/corpus: {e}"))
    }

    /// The whole corpus of the shared folder, or why it cannot be read
    /// (absent: skip; present but broken: the caller should fail).
    pub fn shared() -> Result<Corpus, String> {
        let root = shared("corpus/MANIFEST.tsv")?;
        Ok(Corpus::load(root.parent().expect("corpus folder")).unwrap_or_else(|e| panic!("{e}")))
    }

    /// Reads the corpus at `root`: every file its manifest lists must exist,
    /// and every file under `realworld/` and `templates/` must be listed.
    pub fn load(root: &Path) -> Result<Corpus, String> {
        let manifest = read_tsv(&root.join("MANIFEST.tsv"))?;
        let mut files: Vec<CorpusFile> =
            manifest.iter().filter_map(|row| row.first()).map(|rel| CorpusFile { rel: rel.to_string(), path: root.join(rel) }).collect();
        files.sort_by(|a, b| a.rel.cmp(&b.rel));
        if files.is_empty() {
            return Err(format!("{} lists no files", root.join("MANIFEST.tsv").display()));
        }
        if let Some(f) = files.iter().find(|f| !f.path.is_file()) {
            return Err(format!("{} is listed in MANIFEST.tsv but missing", f.path.display()));
        }
        let mut on_disk = Vec::new();
        for sub in ["realworld", "templates"] {
            files_under(&root.join(sub), &mut on_disk);
        }
        if on_disk.len() != files.len() {
            return Err(format!("{} files under {}, {} in its MANIFEST.tsv", on_disk.len(), root.display(), files.len()));
        }
        let mut failures = HashMap::new();
        for row in read_tsv(&root.join("REFERENCE_PARSE_FAILURES.tsv"))? {
            // path, first_error_summary, first_error_location (LINE:COL), ...
            let [rel, summary, location, ..] = row.as_slice() else {
                return Err(format!("short row in REFERENCE_PARSE_FAILURES.tsv: {row:?}"));
            };
            let line = location.split(':').next().and_then(|l| l.parse().ok());
            failures.insert(rel.to_string(), ReferenceFailure { summary: summary.to_string(), line });
        }
        if let Some(rel) = failures.keys().find(|rel| !files.iter().any(|f| &f.rel == *rel)) {
            return Err(format!("REFERENCE_PARSE_FAILURES.tsv names {rel}, which MANIFEST.tsv does not list"));
        }
        Ok(Corpus { root: root.to_path_buf(), files, failures })
    }

    /// The reference's first error if it rejects the file at `rel`.
    pub fn reference_failure(&self, rel: &str) -> Option<&ReferenceFailure> {
        self.failures.get(rel)
    }

    /// The config files (everything but the templates).
    pub fn configs(&self) -> impl Iterator<Item = &CorpusFile> {
        self.files.iter().filter(|f| !f.is_template())
    }

    pub fn templates(&self) -> impl Iterator<Item = &CorpusFile> {
        self.files.iter().filter(|f| f.is_template())
    }

    /// The file at `rel`.
    pub fn get(&self, rel: &str) -> Option<&CorpusFile> {
        self.files.binary_search_by(|f| f.rel.as_str().cmp(rel)).ok().map(|i| &self.files[i])
    }
}

/// The rows of a tab-separated file after its header line.
fn read_tsv(path: &Path) -> Result<Vec<Vec<String>>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(text.lines().skip(1).filter(|l| !l.is_empty()).map(|l| l.split('\t').map(String::from).collect()).collect())
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files_under(&path, out);
        } else {
            out.push(path);
        }
    }
}
