//! Compile throughput on real-world files: every file of the repository's
//! corpus copy (`tests/data/corpus`, always present: config files as bodies,
//! templates as templates) compiled through the embedding API
//! (`hclvm::Compiled::compile`: parsing, lowering, code generation), and
//! the same with one evaluation each without variables (the one-shot work
//! of a tool that reads each file once; `benches/one_shot.py` times it
//! against the reference on the whole shared corpus). Run with
//! `cargo bench --bench compile`; throughput is in source bytes.
//!
//! Files the parser rejects stay in: rejecting them is part of the work.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use hclvm::{Compiled, Options, SourceKind, Variables};
use std::time::Duration;

#[path = "../tests/support/data.rs"]
mod data;

/// Every file of the vendored corpus with how it is compiled.
fn load_corpus() -> Vec<(SourceKind, Vec<u8>)> {
    data::Corpus::vendored()
        .files
        .iter()
        .map(|f| (if f.is_template() { SourceKind::Template } else { SourceKind::Body }, f.read()))
        .collect()
}

fn bench_compile(c: &mut Criterion) {
    let files = load_corpus();
    let bytes: usize = files.iter().map(|(_, src)| src.len()).sum();
    eprintln!("compile: {} files, {} bytes", files.len(), bytes);
    let options = Options::new();
    let none = Variables::new();
    let mut group = c.benchmark_group("compile");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));

    group.bench_function("corpus", |b| {
        b.iter(|| {
            for (kind, src) in &files {
                black_box(Compiled::compile(*kind, src, &options).is_ok());
            }
        })
    });

    group.bench_function("corpus_evaluated_once", |b| {
        b.iter(|| {
            for (kind, src) in &files {
                if let Ok(compiled) = Compiled::compile(*kind, src, &options) {
                    black_box(compiled.evaluate(&none).has_errors());
                }
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench_compile);
criterion_main!(benches);
