//! Nesting limits: the deepest accepted inputs parse on a 2 MiB thread
//! stack (the default for spawned threads and test threads), and absurdly
//! deep inputs get a diagnostic quickly instead of overflowing the stack.

use compiler::parser::MAX_NESTING;
use std::time::{Duration, Instant};

const STACK: usize = 2 << 20;

fn nested(open: &str, middle: &str, close: &str, depth: usize) -> String {
    let mut s = String::with_capacity((open.len() + close.len()) * depth + middle.len());
    for _ in 0..depth {
        s.push_str(open);
    }
    s.push_str(middle);
    for _ in 0..depth {
        s.push_str(close);
    }
    s
}

/// The summaries and subjects of an expression's parse diagnostics.
fn expression_diags(src: String) -> Vec<(String, Option<runtime::Span>)> {
    let arena = bumpalo::Bump::new();
    let mut interner = compiler::Interner::new();
    let diags = compiler::parse_expression(&arena, src.as_bytes(), &mut interner).1;
    diags.into_iter().map(|d| (d.summary.into_owned(), d.subject)).collect()
}

#[derive(Clone, Copy)]
enum Mode {
    Expr,
    Template,
    Body,
}

/// Parses on a thread with a 2 MiB stack; returns the error summaries.
fn parse_on_small_stack(src: String, mode: Mode) -> Vec<String> {
    std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || {
            let arena = bumpalo::Bump::new();
            let mut interner = compiler::Interner::new();
            let diags = match mode {
                Mode::Expr => compiler::parse_expression(&arena, src.as_bytes(), &mut interner).1,
                Mode::Template => compiler::parse_template(&arena, src.as_bytes(), &mut interner).1,
                Mode::Body => compiler::parse_body(&arena, src.as_bytes(), &mut interner).1,
            };
            diags.into_iter().map(|d| d.summary.into_owned()).collect()
        })
        .unwrap()
        .join()
        .unwrap()
}

/// Shapes of nesting, each as (open, middle, close, mode). One level of
/// each shape costs one nesting level or less.
fn shapes() -> Vec<(&'static str, &'static str, &'static str, Mode)> {
    vec![
        ("(", "1", ")", Mode::Expr),
        ("[", "1", "]", Mode::Expr),
        ("{a = ", "1", "}", Mode::Expr),
        ("f(", "1", ")", Mode::Expr),
        ("ns::f(", "1", ")", Mode::Expr),
        ("a[", "0", "]", Mode::Expr),
        ("{(", "k", ") = 1}", Mode::Expr),
        ("<<EOT\n${", "1", "}\nEOT\n", Mode::Expr),
        ("!", "true", "", Mode::Expr),
        ("-", "1", "", Mode::Expr),
        ("true ? ", "1", " : 0", Mode::Expr),
        ("[for x in y : ", "x", "]", Mode::Expr),
        ("\"${", "1", "}\"", Mode::Expr),
        ("%{if true}", "x", "%{endif}", Mode::Template),
        ("%{for x in y}", "x", "%{endfor}", Mode::Template),
        ("b {\n", "a = 1\n", "}\n", Mode::Body),
    ]
}

/// The largest depth of a shape the parser accepts (found on a roomy stack).
fn deepest_accepted(open: &str, middle: &str, close: &str, mode: Mode) -> usize {
    let (open, middle, close) = (open.to_owned(), middle.to_owned(), close.to_owned());
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            let accepts = |depth: usize| {
                let src = nested(&open, &middle, &close, depth);
                let arena = bumpalo::Bump::new();
                let mut interner = compiler::Interner::new();
                let diags = match mode {
                    Mode::Expr => compiler::parse_expression(&arena, src.as_bytes(), &mut interner).1,
                    Mode::Template => compiler::parse_template(&arena, src.as_bytes(), &mut interner).1,
                    Mode::Body => compiler::parse_body(&arena, src.as_bytes(), &mut interner).1,
                };
                diags.is_empty()
            };
            let (mut lo, mut hi) = (1usize, MAX_NESTING as usize + 1);
            assert!(accepts(lo) && !accepts(hi));
            while hi - lo > 1 {
                let mid = (lo + hi) / 2;
                if accepts(mid) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            lo
        })
        .unwrap()
        .join()
        .unwrap()
}

#[test]
fn deepest_accepted_inputs_fit_a_small_stack() {
    for (open, middle, close, mode) in shapes() {
        let depth = deepest_accepted(open, middle, close, mode);
        assert!(depth >= 300, "{open:?}: only {depth} levels accepted");
        let errors = parse_on_small_stack(nested(open, middle, close, depth), mode);
        assert!(errors.is_empty(), "{open:?} x {depth}: {errors:?}");
        let errors = parse_on_small_stack(nested(open, middle, close, depth + 1), mode);
        assert_eq!(errors.first().map(String::as_str), Some("Nesting too deep"), "{open:?} x {}", depth + 1);
    }
}

#[test]
fn splat_chains_fit_a_small_stack() {
    let src = format!("a{}", "[*]".repeat(MAX_NESTING as usize - 2));
    assert!(parse_on_small_stack(src, Mode::Expr).is_empty());
}

#[test]
fn too_deep_inputs_get_one_diagnostic() {
    for (open, middle, close, mode) in shapes() {
        let src = nested(open, middle, close, MAX_NESTING as usize + 50);
        let errors = parse_on_small_stack(src, mode);
        assert_eq!(errors.first().map(String::as_str), Some("Nesting too deep"), "{open:?}");
        assert_eq!(errors.iter().filter(|e| *e == "Nesting too deep").count(), 1);
    }
}

#[test]
fn a_million_open_parens_fail_fast() {
    let src = "(".repeat(1_000_000);
    let start = Instant::now();
    let errors = parse_on_small_stack(src, Mode::Expr);
    let took = start.elapsed();
    assert_eq!(errors.first().map(String::as_str), Some("Nesting too deep"));
    // Generous for unoptimized builds; release builds take a few milliseconds.
    assert!(took < Duration::from_secs(2), "took {took:?}");
}

#[test]
fn conformance_depths_parse() {
    assert!(parse_on_small_stack(nested("(", "1", ")", 1000), Mode::Expr).is_empty());
    assert!(parse_on_small_stack(nested("abs(", "1", ")", 200), Mode::Expr).is_empty());
}

/// A tuple of bare literals, kept as its text, still counts its elements
/// one level deeper, as any element: at the limit it gives the same
/// diagnostics, at the same place, as a tuple of names does.
#[test]
fn literal_tuple_elements_count_a_level() {
    let n = MAX_NESTING as usize;
    for depth in [n - 1, n, n + 1] {
        for tail in ["", ", 2"] {
            let literal = expression_diags(nested("[", &format!("1{tail}"), "]", depth));
            let name = expression_diags(nested("[", &format!("x{tail}"), "]", depth));
            assert_eq!(literal, name, "depth {depth}, tail {tail:?}");
            assert_eq!(literal.is_empty(), depth < n, "depth {depth}");
        }
    }
}

/// A literal object's keys and values are a level deeper than the object,
/// as any object's are: at the limit, it reports what an object of names
/// does.
#[test]
fn literal_object_items_count_a_level() {
    let n = MAX_NESTING as usize;
    for depth in [n - 1, n, n + 1] {
        for (literal, names) in [("1", "x"), ("1, \"b\" = \"c\"", "x, \"b\" = y")] {
            for open in ["{a = ", "{\"a\": "] {
                let literal = expression_diags(nested(open, literal, "}", depth));
                assert_eq!(literal, expression_diags(nested(open, names, "}", depth)), "depth {depth}, {open:?}");
                assert_eq!(literal.is_empty(), depth < n, "depth {depth}");
            }
        }
    }
}

/// A literal object's items in a literal tuple are two levels deeper than
/// the tuple: at the limit, it reports what a tuple of an object of names
/// does.
#[test]
fn literal_tuple_objects_count_two_levels() {
    let n = MAX_NESTING as usize;
    for depth in [n - 2, n - 1, n, n + 1] {
        for (literal, names) in [("{a = 1}", "{a = x}"), ("1, {\"a\" = \"b\"}", "1, {\"a\" = y}")] {
            let literal = expression_diags(nested("[", literal, "]", depth));
            assert_eq!(literal, expression_diags(nested("[", names, "]", depth)), "depth {depth}");
            assert_eq!(literal.is_empty(), depth + 1 < n, "depth {depth}");
        }
    }
}
