//! Hostile input: random token soup and random bytes never panic, always
//! produce a tree, and every diagnostic points inside the source.

#[path = "../../tests/support/data.rs"]
mod data;

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const PIECES: &[&[u8]] = &[
    b"{",
    b"}",
    b"[",
    b"]",
    b"(",
    b")",
    b"\"",
    b"${",
    b"%{",
    b"~}",
    b"}",
    b"\n",
    b"\r\n",
    b",",
    b"=",
    b":",
    b"?",
    b"...",
    b".",
    b"*",
    b"<<EOT\n",
    b"<<-EOT\n",
    b"EOT\n",
    b"  EOT\n",
    b"#",
    b"//",
    b"/*",
    b"*/",
    b"\\",
    b"\\u12",
    b"\\U0001F600",
    b"$",
    b"%",
    b"$${",
    b"%%{",
    b"for ",
    b"if ",
    b"in ",
    b"else",
    b"endif",
    b"endfor",
    b"=>",
    b"-",
    b"!",
    b"'",
    b";",
    b"\t",
    b"\r",
    b"\xff",
    b"\xc3",
    b"\xe6\x95",
    b"0.1",
    b"1e5",
    b"1e99999999999",
    b"a.0.1",
    b"[*]",
    b".*",
    b"::",
    b" ",
    b"x",
    b"abc",
    b"null",
    b"true",
    b"&&",
    b"||",
    b"|",
    b"`",
    b"\xe2\x80\x9c",
    b"\xef\xbb\xbf",
    b"f(",
    b"a.b",
    b"1",
    b"\"x\"",
    b"==",
    b"<=",
    b"!=",
    b"+",
    b"/",
];

fn check(src: &[u8]) {
    let arena = bumpalo::Bump::new();
    let mut interner = compiler::Interner::new();
    let len = src.len() as u32;
    let mut all = Vec::new();
    all.extend(compiler::parse_body(&arena, src, &mut interner).1);
    let (e, d) = compiler::parse_expression(&arena, src, &mut interner);
    all.extend(d);
    let _ = compiler::analysis::variables(e);
    let (t, d) = compiler::parse_template(&arena, src, &mut interner);
    all.extend(d);
    let _ = compiler::analysis::variables(t);
    for d in &all {
        if let Some(s) = d.subject {
            assert!(s.start <= s.end && s.end <= len, "{d:?} outside {len} bytes of {:?}", String::from_utf8_lossy(src));
        }
    }
}

#[test]
fn token_soup_never_panics() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..20_000 {
        let n = rng.below(24);
        let mut src = Vec::new();
        for _ in 0..n {
            src.extend_from_slice(PIECES[rng.below(PIECES.len())]);
        }
        check(&src);
    }
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Rng(12345);
    for _ in 0..5_000 {
        let n = rng.below(64);
        let src: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
        check(&src);
    }
}

#[test]
fn mutated_corpus_files_never_panic() {
    let corpus = data::Corpus::vendored();
    let mut rng = Rng(777);
    for file in corpus.configs().step_by(7) {
        let orig = file.read();
        for _ in 0..4 {
            let mut src = orig.clone();
            for _ in 0..3 {
                let at = rng.below(src.len() + 1);
                match rng.below(3) {
                    0 => {
                        let piece = PIECES[rng.below(PIECES.len())];
                        src.splice(at..at, piece.iter().copied());
                    }
                    1 => {
                        let end = (at + 1 + rng.below(8)).min(src.len());
                        if at < end {
                            src.drain(at..end);
                        }
                    }
                    _ => src.truncate(at),
                }
            }
            check(&src);
        }
    }
}
