//! The collections workload of the shared bench folder (collections/collections.hcl; `../shared/bench`
//! beside the repository, or `$HCLVM_BENCH_DIR`): one evaluation is every
//! compiled attribute (or the expression/template) against one vars set.

use criterion::{criterion_group, criterion_main, Criterion};

#[path = "support/workload.rs"]
mod workload;

fn bench(c: &mut Criterion) {
    let Some(w) = workload::load("body", "collections/collections.hcl", "collections/vars.jsonl", 3) else {
        eprintln!("collections: workload files not found under {} (set HCLVM_BENCH_DIR)", workload::bench_dir().display());
        return;
    };
    let mut i = 0usize;
    c.bench_function("collections", |b| {
        b.iter(|| {
            w.eval_one(i);
            i = i.wrapping_add(1);
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
