//! Parse throughput over the real-world corpus: hclvm's parser next to
//! hcl-rs (`hcl::parse`) on the same files. Run with
//! `cargo bench --bench parse_corpus`; throughput is in source bytes.
//!
//! Files are parsed one by one (each file is one body); only files both
//! parsers accept are used, so both do the same work.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};

#[path = "../tests/support/data.rs"]
mod data;

/// The config files of the repository's corpus copy (`tests/data/corpus`)
/// that both parsers accept.
fn load_corpus() -> Vec<String> {
    let corpus = data::Corpus::vendored();
    let mut interner = compiler::Interner::new();
    corpus
        .configs()
        .filter_map(|f| String::from_utf8(f.read()).ok())
        .filter(|src| {
            let arena = bumpalo::Bump::new();
            compiler::parse_body(&arena, src.as_bytes(), &mut interner).1.is_empty() && hcl::parse(src).is_ok()
        })
        .collect()
}

fn bench_parse(c: &mut Criterion) {
    let files = load_corpus();
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
