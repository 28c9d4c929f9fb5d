//! Parses every corpus body repeatedly and prints the best throughput;
//! a quick profiling target (`perf record target/release/examples/parse_loop`).
//!
//!     parse_loop [CORPUS_DIR [ROUNDS [fresh]]]
//!
//! CORPUS_DIR is a corpus folder laid out as the shared one (MANIFEST.tsv,
//! realworld/, templates/), by default the repository's copy,
//! `tests/data/corpus`; its config files are parsed.
use std::time::Instant;

#[path = "../../tests/support/data.rs"]
mod data;

fn main() {
    let corpus = match std::env::args().nth(1) {
        Some(dir) => data::Corpus::load(std::path::Path::new(&dir)).unwrap_or_else(|e| panic!("{e}")),
        None => data::Corpus::vendored(),
    };
    let rounds: usize = std::env::args().nth(2).and_then(|r| r.parse().ok()).unwrap_or(10);
    let fresh = std::env::args().nth(3).is_some_and(|a| a == "fresh");
    let files: Vec<Vec<u8>> = corpus.configs().map(data::CorpusFile::read).collect();
    let bytes: usize = files.iter().map(Vec::len).sum();
    let mut arena = bumpalo::Bump::new();
    let mut interner = compiler::Interner::new();
    let mut best = f64::MAX;
    let mut checksum = 0usize;
    for _ in 0..rounds {
        let t = Instant::now();
        for src in &files {
            arena.reset();
            if fresh {
                interner = compiler::Interner::new();
            }
            let (body, diags) = compiler::parse_body(&arena, src, &mut interner);
            checksum = checksum.wrapping_add(body.attributes.len() + diags.len());
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "{} files, {bytes} bytes, best {:.1} ms, {:.1} MB/s (checksum {checksum})",
        files.len(),
        best * 1e3,
        bytes as f64 / best / 1e6
    );
}
