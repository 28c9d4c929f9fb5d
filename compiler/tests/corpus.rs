//! Real-world corpus: every file parses or fails exactly as the reference
//! (REFERENCE_PARSE_FAILURES.tsv, hcl v2.20.0, which parses namespaced
//! function calls such as `provider::ns::f()`). For rejected files the
//! first error must be on the reference's line. Checks the repository's
//! copy, `tests/data/corpus` (missing: the test fails), and the whole
//! corpus of the shared folder (`../shared` beside the repository or
//! `$HCLVM_SHARED`; missing: that part is skipped with a message).

#[path = "../../tests/support/data.rs"]
mod data;

use data::Corpus;
use runtime::LineIndex;

fn check(corpus: &Corpus) -> Vec<String> {
    let mut problems = Vec::new();
    for file in &corpus.files {
        let rel = &file.rel;
        let src = file.read();
        let arena = bumpalo::Bump::new();
        let mut interner = compiler::Interner::new();
        let diags = if file.is_template() {
            compiler::parse_template(&arena, &src, &mut interner).1
        } else {
            compiler::parse_body(&arena, &src, &mut interner).1
        };
        let first = diags.iter().find(|d| d.is_error());
        match (first, corpus.reference_failure(rel)) {
            (None, None) => {}
            (Some(d), None) => problems.push(format!("{rel}: unexpected error {d}")),
            (None, Some(_)) => problems.push(format!("{rel}: accepted, the reference rejects it")),
            (Some(d), Some(expected)) => {
                let ours = d.subject.map(|s| LineIndex::new(&src).line_of(s.start) + 1);
                if expected.line.is_some() && ours != expected.line {
                    problems.push(format!("{rel}: first error on line {ours:?}, reference {:?}", expected.line));
                }
            }
        }
    }
    problems
}

fn assert_agrees(corpus: &Corpus) {
    let problems = check(corpus);
    println!("{}: {} files, {} disagreements", corpus.root.display(), corpus.files.len(), problems.len());
    for p in &problems {
        println!("  {p}");
    }
    assert!(problems.is_empty(), "{} disagreements under {}", problems.len(), corpus.root.display());
}

#[test]
fn vendored_corpus_agrees_with_reference() {
    let corpus = Corpus::vendored();
    assert!(corpus.files.len() > 2000, "expected the permissively licensed corpus files, found {}", corpus.files.len());
    assert_agrees(&corpus);
}

#[test]
fn shared_corpus_agrees_with_reference() {
    match Corpus::shared() {
        Ok(corpus) => assert_agrees(&corpus),
        Err(why) => data::skip("shared_corpus_agrees_with_reference", &why),
    }
}
