//! Parse throughput over the real-world corpus: hclvm's parser next to
//! hcl-rs (`hcl::parse`) on the same files. Run with
//! `cargo bench --bench parse_corpus`; throughput is in source bytes.
//!
//! Files are parsed one by one (each file is one body); only files both
//! parsers accept are used, so both do the same work.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use std::path::{Path, PathBuf};

fn corpus_root() -> Option<PathBuf> {
    let local = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus");
    [local, PathBuf::from("/work/shared/corpus")].into_iter().find(|d| d.join("realworld").is_dir())
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

/// Corpus bodies that both parsers accept.
fn load_corpus() -> Vec<String> {
    let Some(root) = corpus_root() else { return Vec::new() };
    let mut paths = Vec::new();
    files_under(&root.join("realworld"), &mut paths);
    paths.sort();
    let mut interner = compiler::Interner::new();
    paths
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .filter(|src| {
            let arena = bumpalo::Bump::new();
            compiler::parse_body(&arena, src.as_bytes(), &mut interner).1.is_empty() && hcl::parse(src).is_ok()
        })
        .collect()
}

fn bench_parse(c: &mut Criterion) {
    let files = load_corpus();
    if files.is_empty() {
        eprintln!("corpus not found; nothing to measure");
        return;
    }
    let bytes: usize = files.iter().map(String::len).sum();
    eprintln!("{} files, {} bytes", files.len(), bytes);
    let mut group = c.benchmark_group("parse_corpus");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.sample_size(20);

    group.bench_function("hclvm", |b| {
        let mut arena = bumpalo::Bump::new();
        let mut interner = compiler::Interner::new();
        b.iter(|| {
            for src in &files {
                arena.reset();
                let (body, diags) = compiler::parse_body(&arena, src.as_bytes(), &mut interner);
                black_box((body.attributes.len(), diags.len()));
            }
        })
    });

    group.bench_function("hcl-rs", |b| {
        b.iter(|| {
            for src in &files {
                black_box(hcl::parse(src).ok());
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench_parse);
criterion_main!(benches);
