//! Parses every corpus body repeatedly and prints the best throughput;
//! a quick profiling target (`perf record target/release/examples/parse_loop`).
use std::path::{Path, PathBuf};
use std::time::Instant;

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

fn main() {
    let root = std::env::args().nth(1).unwrap_or_else(|| "/work/shared/corpus/realworld".to_owned());
    let rounds: usize = std::env::args().nth(2).and_then(|r| r.parse().ok()).unwrap_or(10);
    let fresh = std::env::args().nth(3).is_some_and(|a| a == "fresh");
    let mut paths = Vec::new();
    files_under(Path::new(&root), &mut paths);
    paths.sort();
    let files: Vec<Vec<u8>> = paths.iter().filter_map(|p| std::fs::read(p).ok()).collect();
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
    println!("{} files, {bytes} bytes, best {:.1} ms, {:.1} MB/s (checksum {checksum})", files.len(), best * 1e3, bytes as f64 / best / 1e6);
}
