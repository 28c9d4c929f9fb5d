//! Tree and diagnostic snapshots.

use crate::ast::print::sexpr;
use crate::Interner;
use runtime::LineIndex;

fn expr(src: &str) -> String {
    let arena = bumpalo::Bump::new();
    let mut interner = Interner::new();
    let (e, diags) = crate::parse_expression(&arena, src.as_bytes(), &mut interner);
    assert!(diags.is_empty(), "{src}: {diags:?}");
    sexpr(e, &interner)
}

fn template(src: &str) -> String {
    let arena = bumpalo::Bump::new();
    let mut interner = Interner::new();
    let (e, diags) = crate::parse_template(&arena, src.as_bytes(), &mut interner);
    assert!(diags.is_empty(), "{src}: {diags:?}");
    sexpr(e, &interner)
}

/// `summary @ line:col` of every diagnostic of a body.
fn body_diags(src: &str) -> Vec<String> {
    let arena = bumpalo::Bump::new();
    let mut interner = Interner::new();
    let (_, diags) = crate::parse_body(&arena, src.as_bytes(), &mut interner);
    let idx = LineIndex::new(src.as_bytes());
    diags
        .iter()
        .map(|d| match d.subject {
            Some(s) => {
                let p = idx.pos(src.as_bytes(), s.start);
                format!("{} @ {}:{}", d.summary, p.line, p.column)
            }
            None => d.summary.to_string(),
        })
        .collect()
}

#[test]
fn expression_trees() {
    let cases: &[(&str, &str)] = &[
        ("1 + 2 * 3 - 4", "(- (+ 1 (* 2 3)) 4)"),
        ("a || b && c == d < e + f * g", "(|| a (&& b (== c (< d (+ e (* f g))))))"),
        ("-1 + !a", "(+ (neg 1) (not a))"),
        ("-a.b[0]", "(neg a.b[0])"),
        ("a ? b : c ? d : e", "(? a b (? c d e))"),
        ("a.b[\"k\"].0[x]", "(index a.b[\"k\"][0] x)"),
        ("f(x)[0].y", "(rel (call f x) [0].y)"),
        ("(a).b", "(rel (paren a) .b)"),
        ("a[*].b.c[0]", "(splat a (rel @ .b.c[0]))"),
        ("a.*.b[0]", "(rel (splat a (rel @ .b)) [0])"),
        ("a.*.b[x]", "(index (splat a (rel @ .b)) x)"),
        ("a.*.b.0.c", "(splat a (rel @ .b[0].c))"),
        ("f(a, b...)", "(call f... a b)"),
        ("ns::f(1)", "(call ns::f 1)"),
        ("provider :: ns/* c */::\n f ()", "(call provider::ns::f)"),
        ("c ? a::b() : d::e(1)", "(? c (call a::b) (call d::e 1))"),
        ("{a::b() = 1}", "(object ((call a::b) 1))"),
        ("[1, 2,\n 3,]", "(tuple 1 2 3)"),
        ("{a = 1, \"b\" = 2\n(c) : 3}", "(object (a 1) ((tpl \"b\") 2) (key! (paren c) 3))"),
        ("[for i, v in l : v if i > 0]", "(for i,v l val=v if=(> i 0))"),
        ("{for v in l : v.k => v...}", "(for v l key=v.k val=v...)"),
        ("\"a${b}c\"", "(tpl \"a\" b \"c\")"),
        ("\"${b}\"", "(wrap b)"),
        ("\"\\u00e9\\t$${x}\"", "(tpl \"é\\t${x}\")"),
        ("<<EOT\nx ${y}\nEOT\n", "(tpl \"x \" y \"\\n\")"),
        ("<<-EOT\n    a\n      b\n    EOT\n", "(tpl \"a\\n  b\\n\")"),
        ("null == true", "(== null true)"),
    ];
    for (src, want) in cases {
        assert_eq!(expr(src), *want, "{src:?}");
    }
}

#[test]
fn template_trees() {
    let cases: &[(&str, &str)] = &[
        ("a ${b} c", "(tpl \"a \" b \" c\")"),
        ("${b}", "(wrap b)"),
        ("%{if a}x%{else}y%{endif}", "(tpl (? a (tpl \"x\") (tpl \"y\")))"),
        ("%{for v in l}${v},%{endfor}", "(tpl (join (for v l val=(tpl v \",\"))))"),
        ("a\n  ${~ 1 ~}  \n  b $ %", "(tpl \"a\\n\" 1 \"  b $ %\")"),
        ("%{if a}%{endif}", "(tpl (? a (tpl \"\") (tpl \"\")))"),
    ];
    for (src, want) in cases {
        assert_eq!(template(src), *want, "{src:?}");
    }
}

#[test]
fn body_structure() {
    let arena = bumpalo::Bump::new();
    let mut interner = Interner::new();
    let src = b"a = 1\nblock \"x\" y {\n  b = 2\n  inner { c = 3 }\n}\n";
    let (body, diags) = crate::parse_body(&arena, src, &mut interner);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(body.attributes.len(), 1);
    let block = &body.blocks[0];
    assert_eq!(interner.resolve(block.block_type.name), "block");
    assert_eq!(block.labels, &["x", "y"]);
    assert_eq!(block.body.attributes.len(), 1);
    assert_eq!(block.body.blocks[0].body.attributes.len(), 1);
}

#[test]
fn diagnostics() {
    let cases: &[(&str, &[&str])] = &[
        ("a = 1\na = 2\n", &["Attribute redefined @ 2:1"]),
        ("a = 1 b = 2\n", &["Missing newline after argument @ 1:7"]),
        ("a = 1,\n", &["Unexpected comma after argument @ 1:6"]),
        ("a = (1\n", &["Unbalanced parentheses @ 2:1"]),
        ("a = f(1 2)\n", &["Missing argument separator @ 1:9"]),
        ("b {\n", &["Unclosed configuration block @ 1:3"]),
        ("b { x = 1, y = 2 }\n", &["Invalid single-argument block definition @ 1:10"]),
        ("a = 1 ; b = 2\n", &["Invalid character @ 1:7", "Missing newline after argument @ 1:7"]),
        ("a = \"x\\qy\"\n", &["Invalid escape sequence @ 1:7"]),
        ("a = \"${x\"\n", &["Invalid multi-line string @ 1:10", "Unclosed template interpolation sequence @ 1:6"]),
        ("a = \"%{if x}y\"\n", &["Unexpected end of template @ 1:14"]),
        ("a = [for x in y: x => x]\n", &["Invalid 'for' expression @ 1:18"]),
        ("a = x.0.1\n", &["Invalid legacy index syntax @ 1:7"]),
        ("\"a\" = 1\n", &["Invalid argument name @ 1:1"]),
    ];
    for (src, want) in cases {
        assert_eq!(body_diags(src), want.iter().map(|s| s.to_string()).collect::<Vec<_>>(), "{src:?}");
    }
}

#[test]
fn redefinition_detail_names_first_definition() {
    let arena = bumpalo::Bump::new();
    let mut interner = Interner::new();
    let (_, diags) = crate::parse_body(&arena, b"abc = 1\n  abc = 2\n", &mut interner);
    assert_eq!(diags[0].detail, "The argument \"abc\" was already set at input.hcl:1,1-4. Each argument may be set only once.");
}

#[test]
fn redefinition_detail_skips_a_byte_order_mark() {
    let arena = bumpalo::Bump::new();
    let mut interner = Interner::new();
    let (_, diags) = crate::parse_body(&arena, "\u{feff}ab = 1\nab = 2\n".as_bytes(), &mut interner);
    assert_eq!(diags[0].detail, "The argument \"ab\" was already set at input.hcl:1,1-3. Each argument may be set only once.");
}

#[test]
fn many_attributes_detect_redefinition() {
    let mut src = String::new();
    for i in 0..100 {
        src.push_str(&format!("a{i} = {i}\n"));
    }
    src.push_str("a57 = 0\n");
    assert_eq!(body_diags(&src), vec!["Attribute redefined @ 101:1".to_string()]);
}

#[derive(Clone, Copy, Debug)]
enum Mode {
    Expr,
    Template,
    Body,
}

fn parse_full(mode: Mode, src: &str) -> (Vec<runtime::Diagnostic>, Option<runtime::Span>) {
    let arena = bumpalo::Bump::new();
    let mut interner = Interner::new();
    let src = src.as_bytes();
    let name = crate::DEFAULT_FILENAME;
    match mode {
        Mode::Expr => {
            let p = crate::parse_expression_full(&arena, src, name, &mut interner);
            (p.diags, p.reference_crash)
        }
        Mode::Template => {
            let p = crate::parse_template_full(&arena, src, name, &mut interner);
            (p.diags, p.reference_crash)
        }
        Mode::Body => {
            let p = crate::parse_body_full(&arena, src, name, &mut interner);
            (p.diags, p.reference_crash)
        }
    }
}

/// Malformed namespaced function selectors and `::` next to the other uses
/// of colons: every diagnostic as the reference (hcl v2.20.0, through
/// hcl-oracle) reports it, `summary @ start-end: detail` with positions as
/// line:column:byte.
#[test]
fn namespaced_selector_diagnostics() {
    let cases: &[(Mode, &str, &[&str])] = &[
        (Mode::Expr, "a::b", &["Missing open parenthesis @ 1:5:4-1:5:4: Function selector must be followed by an open parenthesis to begin the function call."]),
        (Mode::Expr, "provider::ns::f", &["Missing open parenthesis @ 1:16:15-1:16:15: Function selector must be followed by an open parenthesis to begin the function call."]),
        (Mode::Expr, "a::", &["Missing function name @ 1:4:3-1:4:3: Function scope resolution symbol :: must be followed by a function name in this scope."]),
        (Mode::Expr, "a::1", &["Missing function name @ 1:4:3-1:5:4: Function scope resolution symbol :: must be followed by a function name in this scope."]),
        (Mode::Expr, "a:: b(", &["Missing expression @ 1:7:6-1:7:6: Expected the start of an expression, but found the end of the file."]),
        (Mode::Expr, "a::b::c::d(", &["Missing expression @ 1:12:11-1:12:11: Expected the start of an expression, but found the end of the file."]),
        (Mode::Expr, "a:::b()", &["Missing function name @ 1:4:3-1:5:4: Function scope resolution symbol :: must be followed by a function name in this scope."]),
        (Mode::Expr, "a::b.c()", &["Missing open parenthesis @ 1:5:4-1:6:5: Function selector must be followed by an open parenthesis to begin the function call."]),
        (Mode::Expr, "a::b(1)::c", &["Extra characters after expression @ 1:8:7-1:10:9: An expression was successfully parsed, but extra characters were found after it."]),
        (Mode::Expr, "l[*]::f()", &["Extra characters after expression @ 1:5:4-1:7:6: An expression was successfully parsed, but extra characters were found after it."]),
        (Mode::Expr, "{a::b = 1}", &["Missing open parenthesis @ 1:7:6-1:8:7: Function selector must be followed by an open parenthesis to begin the function call."]),
        (Mode::Expr, "{a :: 1}", &["Missing function name @ 1:7:6-1:8:7: Function scope resolution symbol :: must be followed by a function name in this scope."]),
        (Mode::Expr, "x ? a :: b : c", &["Missing open parenthesis @ 1:12:11-1:13:12: Function selector must be followed by an open parenthesis to begin the function call."]),
        (Mode::Expr, "x ? 1 :: 2", &["Missing false expression in conditional @ 1:7:6-1:9:8: The conditional operator (...?...:...) requires a false expression, delimited by a colon.", "Extra characters after expression @ 1:7:6-1:9:8: An expression was successfully parsed, but extra characters were found after it."]),
        (Mode::Expr, "[for v in l :: v]", &["Missing open parenthesis @ 1:17:16-1:18:17: Function selector must be followed by an open parenthesis to begin the function call."]),
        (Mode::Expr, "\"${a::}\"", &["Missing function name @ 1:7:6-1:8:7: Function scope resolution symbol :: must be followed by a function name in this scope."]),
        (Mode::Expr, "\"${1::}\"", &["Extra characters after interpolation expression @ 1:5:4-1:7:6: Expected a closing brace to end the interpolation expression, but found extra characters.\n\nThis can happen when you include interpolation syntax for another language, such as shell scripting, but forget to escape the interpolation start token. If this is an embedded sequence for another language, escape it by starting with \"$${\" instead of just \"${\"."]),
        (Mode::Expr, "\"${a:b}\"", &["Extra characters after interpolation expression @ 1:5:4-1:6:5: Template interpolation doesn't expect a colon at this location. Did you intend this to be a literal sequence to be processed as part of another language? If so, you can escape it by starting with \"$${\" instead of just \"${\"."]),
        (Mode::Expr, "1 + a::b + 2", &["Missing open parenthesis @ 1:10:9-1:11:10: Function selector must be followed by an open parenthesis to begin the function call."]),
        (Mode::Expr, "[a::1, 2]", &["Missing function name @ 1:5:4-1:6:5: Function scope resolution symbol :: must be followed by a function name in this scope."]),
        (Mode::Expr, "f(a::b, 2)", &["Missing open parenthesis @ 1:7:6-1:8:7: Function selector must be followed by an open parenthesis to begin the function call."]),
        (Mode::Expr, "(a::b).c", &["Missing open parenthesis @ 1:6:5-1:7:6: Function selector must be followed by an open parenthesis to begin the function call."]),
        (Mode::Expr, "a::1(x).(y)", &["Missing function name @ 1:4:3-1:5:4: Function scope resolution symbol :: must be followed by a function name in this scope.", "Invalid attribute name @ 1:9:8-1:10:9: An attribute name is required after a dot."]),
        (Mode::Template, "%{for v in l :: }x%{endfor}", &["Missing function name @ 1:17:16-1:18:17: Function scope resolution symbol :: must be followed by a function name in this scope.", "Unexpected end of template @ 1:28:27-1:28:27: The for directive at input.hcl:1,1-28 is missing its corresponding endfor directive."]),
        (Mode::Template, "${a::b}", &["Missing open parenthesis @ 1:7:6-1:8:7: Function selector must be followed by an open parenthesis to begin the function call."]),
        (Mode::Template, "%{if a::b}x%{endif}", &["Missing open parenthesis @ 1:10:9-1:11:10: Function selector must be followed by an open parenthesis to begin the function call.", "Unexpected end of template @ 1:20:19-1:20:19: The if directive at input.hcl:1,1-20 is missing its corresponding endif directive."]),
        (Mode::Body, "a = a::\nb()\n", &["Missing function name @ 1:8:7-2:1:8: Function scope resolution symbol :: must be followed by a function name in this scope."]),
        (Mode::Body, "a = x\n::b()\n", &["Argument or block definition required @ 2:1:6-2:3:8: An argument or block definition is required here."]),
        (Mode::Body, "a = a::b\nc = 1\nd = f(1)\ne = 2\n", &["Missing open parenthesis @ 1:9:8-2:1:9: Function selector must be followed by an open parenthesis to begin the function call."]),
        (Mode::Body, "a = a::b # c\n", &["Missing open parenthesis @ 1:10:9-2:1:13: Function selector must be followed by an open parenthesis to begin the function call."]),
        (Mode::Body, "b {\n  a = x::\n}\n", &["Missing function name @ 2:10:13-3:1:14: Function scope resolution symbol :: must be followed by a function name in this scope."]),
        (Mode::Body, "a::b = 1\n", &["Argument or block definition required @ 1:1:0-1:2:1: An argument or block definition is required here. To set an argument, use the equals sign \"=\" to introduce the argument value."]),
        (Mode::Body, "a = {\n  k::v = 1\n}\n", &["Missing open parenthesis @ 2:8:13-2:9:14: Function selector must be followed by an open parenthesis to begin the function call."]),
    ];
    for (mode, src, want) in cases {
        let (diags, crash) = parse_full(*mode, src);
        assert_eq!(crash, None, "{src:?}");
        let idx = LineIndex::new(src.as_bytes());
        let got: Vec<String> = diags
            .iter()
            .map(|d| {
                let s = d.subject.expect("parse diagnostics have subjects");
                let (a, b) = (idx.pos(src.as_bytes(), s.start), idx.pos(src.as_bytes(), s.end));
                format!("{} @ {}:{}:{}-{}:{}:{}: {}", d.summary, a.line, a.column, s.start, b.line, b.column, s.end, d.detail)
            })
            .collect();
        assert_eq!(got, want.iter().map(|s| s.to_string()).collect::<Vec<_>>(), "{mode:?} {src:?}");
    }
}

/// Sources on which the reference crashes (it dereferences the missing
/// expression of a malformed selector; the oracle reports a Go panic):
/// hclvm reports diagnostics and notes where the reference would crash.
#[test]
fn namespaced_selectors_the_reference_crashes_on() {
    let cases: &[(Mode, &str)] = &[
        (Mode::Expr, "-a::b"),
        (Mode::Expr, "a::1(x).y"),
        (Mode::Expr, "a::1(x)[*]"),
        (Mode::Expr, "a::1(x).*.b"),
        (Mode::Expr, "(a::1(x))[0]"),
        (Mode::Template, "%{if c}${a::1(x)}%{endif}"),
        (Mode::Template, "%{for v in l}${a::1(x)}x%{endfor}"),
        (Mode::Body, "a = !a::b\n"),
    ];
    for (mode, src) in cases {
        let (diags, crash) = parse_full(*mode, src);
        assert!(crash.is_some(), "{mode:?} {src:?}");
        assert!(!diags.is_empty(), "{mode:?} {src:?}");
    }
}

/// Everything a parse gives, printed: each attribute's tree (blocks'
/// included), the diagnostics and where the reference would crash.
fn parse_everything(mode: Mode, src: &[u8]) -> String {
    use std::fmt::Write;
    let arena = bumpalo::Bump::new();
    let mut interner = Interner::new();
    let name = crate::DEFAULT_FILENAME;
    let mut out = String::new();
    let (diags, crash) = match mode {
        Mode::Expr => {
            let p = crate::parse_expression_full(&arena, src, name, &mut interner);
            out.push_str(&sexpr(p.tree, &interner));
            (p.diags, p.reference_crash)
        }
        Mode::Template => {
            let p = crate::parse_template_full(&arena, src, name, &mut interner);
            out.push_str(&sexpr(p.tree, &interner));
            (p.diags, p.reference_crash)
        }
        Mode::Body => {
            let p = crate::parse_file_full(&arena, src, name, &mut interner);
            let body = p.tree.body();
            for e in body.all_attribute_exprs() {
                let _ = writeln!(out, "{} {:?}", sexpr(e, &interner), e.span);
            }
            for b in body.blocks {
                let _ = writeln!(out, "block {:?} {:?}", b.labels, b.body.span);
            }
            (p.diags, p.reference_crash)
        }
    };
    let _ = write!(out, "\n{diags:?}\n{crash:?}");
    out
}

/// The parser reads tokens through a window that it refills as it goes:
/// the same trees and diagnostics whatever the window's size, down to one
/// byte of source (where nearly every read refills).
#[test]
fn token_window_size_changes_nothing() {
    let sources: &[(Mode, &str)] = &[
        (Mode::Body, "a = 1\n\n\n\nb = \"x ${y} z\"\nc {\n  d = [\n\n 1,\n\n 2\n\n]\n}\n"),
        (Mode::Body, "a = (\n\n\n1\n\n+\n\n2)\n# c\n// d\n/* e */ b = <<EOT\n  x ${1}\n  %{if c}y%{endif}\nEOT\n"),
        (Mode::Body, "a = b & c ; d\nx = 'y' `z`\nq = \"\\xff\n\"\n"),
        (Mode::Body, "a = 1\na = 2\nb {\nc = 1\nc = 2\n}\n"),
        (Mode::Body, "a = {\n  k::v = 1\n}\nb = [for x in y : x if x]\nc = {for k, v in m : k => v...}\n"),
        (Mode::Body, "a = x[*].y.0[\"k\"]\nb = f(x...)\nc = a ? b : c\nd = !e && -f\n"),
        (Mode::Body, "\u{feff}a = \"ünï\"\nb = c\nb = 1\n"),
        (Mode::Body, "a = \"\"\nb = \"x\"\nc = \"${a}\"\n"),
        (Mode::Body, "block \"a\" b {\n  nested {\n  }\n}\n  unclosed {\n"),
        (Mode::Body, "a = a::b\nc = 1\nd = f(1)\ne = 2\n"),
        (
            Mode::Body,
            "a = [1, 2,\n\n true, null # c\n, 3]\nb = [1, 2, x, 3]\nc = [1 \n+ 2, 3]\nd = [true.x, 1]\ne = [1, 2, ]\nf = [1, 1e, 2]\n",
        ),
        (
            Mode::Body,
            "a = [\"x\", \"\", 1,\n \"y\"\n, \"a\\tb\", \"$${c}\", \"${d}\", \"e\" == \"f\"]\nb = [\"p\", \"q\"]\nc = [\"r\".s, \"\"]\n",
        ),
        (Mode::Expr, "\n(a\n\n+\n\nb) ; 1"),
        (Mode::Expr, "[for v in l :: v]"),
        (Mode::Template, "%{for v in l}${a::1(x)}x%{endfor}"),
        (Mode::Template, "a ${b} %{~ if c ~} d %{ else } e %{ endif } f\n"),
    ];
    for &(mode, src) in sources {
        let default = parse_everything(mode, src.as_bytes());
        for window in [1, 2, 3, 5] {
            super::TEST_WINDOW.with(|w| w.set(window));
            let small = parse_everything(mode, src.as_bytes());
            super::TEST_WINDOW.with(|w| w.set(crate::lexer::SCAN_WINDOW));
            assert_eq!(small, default, "window {window}: {mode:?} {src:?}");
        }
    }
}

/// A file body past the scan limit finds earlier definitions through its
/// bit set, and the first definition's place once one is redefined.
#[test]
fn redefinitions_in_a_large_file_body() {
    let mut src: String = (0..40).map(|i| format!("a{i} = {i}\n")).collect();
    src.push_str("a7 = 1\na39 = 2\nb = 3\na7 = 4\n");
    assert_eq!(body_diags(&src), ["Attribute redefined @ 41:1", "Attribute redefined @ 42:1", "Attribute redefined @ 44:1"]);
    let arena = bumpalo::Bump::new();
    let mut interner = Interner::new();
    let (_, diags) = crate::parse_body(&arena, src.as_bytes(), &mut interner);
    assert!(diags[0].detail.contains("input.hcl:8,1-3"), "{}", diags[0].detail);
    assert!(diags[1].detail.contains("input.hcl:40,1-4"), "{}", diags[1].detail);
    assert!(diags[2].detail.contains("input.hcl:8,1-3"), "{}", diags[2].detail);
}

/// A bare name is its own node kind, yet reads as the one-step-less
/// traversal it is: root span the node's, and steps after it (`a.b`)
/// start a traversal rooted at the same name and place.
#[test]
fn bare_names_read_as_traversals() {
    use crate::ast::ExprKind;
    let arena = bumpalo::Bump::new();
    let mut interner = Interner::new();
    let (e, diags) = crate::parse_expression(&arena, b" foo ", &mut interner);
    assert!(diags.is_empty(), "{diags:?}");
    assert!(matches!(e.kind, ExprKind::Name(_)), "{:?}", e.kind);
    let t = e.scope_traversal().expect("a bare name is a scope traversal");
    assert_eq!((interner.resolve(t.root.name), t.root.span, t.steps.len()), ("foo", runtime::Span::new(1, 4), 0));

    let (e, _) = crate::parse_expression(&arena, b"foo.bar[0]", &mut interner);
    let ExprKind::ScopeTraversal(t) = e.kind else { panic!("{:?}", e.kind) };
    assert_eq!((interner.resolve(t.root.name), t.root.span, t.steps.len()), ("foo", runtime::Span::new(0, 3), 2));
}

/// A quoted string of literal text only is its own node kind, yet gives
/// its one part where the template parser puts it (`""`'s after the
/// closing quote), unescaped; any other template keeps its parts.
#[test]
fn quoted_literals_keep_their_part() {
    use crate::ast::{ExprKind, Literal};
    let arena = bumpalo::Bump::new();
    let mut interner = Interner::new();
    for (src, text, part) in [(r#""abc""#, "abc", (1, 4)), (r#""""#, "", (2, 2)), (r#" "a\tb" "#, "a\tb", (2, 6))] {
        let (e, diags) = crate::parse_expression(&arena, src.as_bytes(), &mut interner);
        assert!(diags.is_empty(), "{src}: {diags:?}");
        assert!(matches!(e.kind, ExprKind::Quoted(_)), "{src}: {:?}", e.kind);
        let p = e.quoted_part().expect("a quoted literal has its part");
        assert!(matches!(p.kind, ExprKind::Literal(Literal::String(t)) if t == text), "{src}: {:?}", p.kind);
        assert_eq!(p.span, runtime::Span::new(part.0, part.1), "{src}");
    }
    let (e, _) = crate::parse_expression(&arena, br#""a${b}""#, &mut interner);
    assert!(matches!(e.kind, ExprKind::Template(parts) if parts.len() == 2), "{:?}", e.kind);
}

/// A tuple of bare literals and plain strings only is kept as its text,
/// and gives the element nodes the general parser makes (kind and span,
/// a string's text); a tuple with
/// any other element has nodes for all of them, the literals before it
/// included.
#[test]
fn literal_tuples_give_their_elements() {
    use crate::ast::{Expr, ExprKind, Literal};
    fn describe(e: &Expr<'_>) -> String {
        let what = match e.kind {
            ExprKind::Quoted(t) => format!("{t:?}"),
            ExprKind::Literal(Literal::Number(t)) => t.to_string(),
            ExprKind::Literal(Literal::Bool(b)) => b.to_string(),
            ExprKind::Literal(Literal::Null) => "null".to_string(),
            ref k => format!("{k:?}").split('(').next().unwrap_or_default().to_string(),
        };
        format!("{what}@{}..{}", e.span.start, e.span.end)
    }
    let arena = bumpalo::Bump::new();
    let mut interner = Interner::new();
    let cases: &[(&str, bool, &[&str])] = &[
        ("[1, 22,\n true , null]", true, &["1@1..2", "22@4..6", "true@9..13", "null@16..20"]),
        ("[ 1.5e3 /* c */ , 2, # d\n]", true, &["1.5e3@2..7", "2@18..19"]),
        ("[1, 2, x, 3]", false, &["1@1..2", "2@4..5", "Name@7..8", "3@10..11"]),
        ("[1, 2 + 3]", false, &["1@1..2", "Binary@4..9"]),
        ("[1, -2]", false, &["1@1..2", "Unary@4..6"]),
        ("[null.a, 1]", false, &["RelativeTraversal@1..7", "1@9..10"]),
        ("[]", false, &[]),
        ("[\"a b\", \"\" ,\n \"é\", 1]", true, &["\"a b\"@1..6", "\"\"@8..10", "\"é\"@14..18", "1@20..21"]),
        ("[\"a\", \"b\\n\"]", false, &["\"a\"@1..4", "\"b\\n\"@6..11"]),
        ("[\"a\", \"$${b}\"]", false, &["\"a\"@1..4", "Template@6..13"]),
        ("[\"a\", \"${b}\"]", false, &["\"a\"@1..4", "TemplateWrap@6..12"]),
        ("[\"a\" == \"b\", 1]", false, &["Binary@1..11", "1@13..14"]),
        ("[\"a\".b]", false, &["RelativeTraversal@1..6"]),
    ];
    for &(src, literal, want) in cases {
        let (e, diags) = crate::parse_expression(&arena, src.as_bytes(), &mut interner);
        assert!(diags.is_empty(), "{src}: {diags:?}");
        let got: Vec<String> = match e.kind {
            ExprKind::LiteralTuple(t) => {
                assert!(literal, "{src}: kept as text");
                assert_eq!(t.len(), want.len(), "{src}");
                t.elements().map(|e| describe(&e.expr())).collect()
            }
            ExprKind::Tuple(items) => {
                assert!(!literal, "{src}: not kept as text");
                items.iter().map(|e| describe(e)).collect()
            }
            ref k => panic!("{src}: {k:?}"),
        };
        assert_eq!(got, want, "{src}");
    }
    // Past the scanner's window: the elements are scanned again a window
    // at a time.
    let n = crate::lexer::SCAN_WINDOW;
    let src = format!("[{}7]", "12,".repeat(n));
    let (e, diags) = crate::parse_expression(&arena, arena.alloc_str(&src).as_bytes(), &mut interner);
    assert!(diags.is_empty());
    let ExprKind::LiteralTuple(t) = e.kind else { panic!("{:?}", e.kind) };
    assert_eq!(t.len(), n + 1);
    let items: Vec<Expr<'_>> = t.elements().map(|e| e.into_expr_in(&arena)).collect();
    assert_eq!(items.len(), n + 1);
    assert_eq!(describe(&items[n - 1]), format!("12@{}..{}", 3 * n - 2, 3 * n));
    assert_eq!(describe(&items[n]), format!("7@{}..{}", 3 * n + 1, 3 * n + 2));
    let src = format!("[{}\"z\"]", "\"ab\",".repeat(n));
    let (e, diags) = crate::parse_expression(&arena, arena.alloc_str(&src).as_bytes(), &mut interner);
    assert!(diags.is_empty());
    let ExprKind::LiteralTuple(t) = e.kind else { panic!("{:?}", e.kind) };
    let items: Vec<Expr<'_>> = t.elements().map(|e| e.into_expr_in(&arena)).collect();
    assert_eq!(items.len(), n + 1);
    assert_eq!(describe(&items[n - 1]), format!("\"ab\"@{}..{}", 5 * n - 4, 5 * n));
    assert_eq!(describe(&items[n]), format!("\"z\"@{}..{}", 5 * n + 1, 5 * n + 4));
}

/// Looking past a literal tuple's strings for the `,` after each keeps
/// the token window bounded: it drops what was read, as refilling does.
#[test]
fn literal_tuples_keep_the_token_window_bounded() {
    let arena = bumpalo::Bump::new();
    let mut interner = Interner::new();
    let src = format!("[{}\"z\"]", "\"ab\",\n".repeat(100_000));
    let mut p = super::Parser::new(&arena, src.as_bytes(), crate::lexer::LexMode::Normal, &mut interner, "t");
    let e = p.parse_expression();
    assert!(matches!(e.kind, crate::ast::ExprKind::LiteralTuple(t) if t.len() == 100_001), "{:?}", e.kind);
    // A window is some 4,000 tokens; the tuple is 500,000.
    assert!(p.tokens.capacity() < 20_000, "window grew to {}", p.tokens.capacity());
}

/// An object of literal items is kept as its source text, and its items
/// are the nodes the general parser makes of the same items (forced by a
/// first item that is not literal); one that is not all literal is the
/// general parser's, from the items read as a literal run on.
#[test]
fn literal_objects_give_their_items() {
    use crate::ast::{Expr, ExprKind, ObjectItem};
    fn describe(items: &[ObjectItem<'_>], interner: &Interner) -> Vec<String> {
        let node = |e: &Expr<'_>| format!("{}@{}..{}", crate::ast::print::sexpr(e, interner), e.span.start, e.span.end);
        items.iter().map(|i| format!("{}{} = {}", if i.force_non_literal { "!" } else { "" }, node(i.key), node(i.value))).collect()
    }
    let arena = bumpalo::Bump::new();
    let mut interner = Interner::new();
    let window = (0..crate::lexer::SCAN_WINDOW).map(|i| format!("k{i} = \"{i}\",")).collect::<String>();
    let cases: &[(&str, bool)] = &[
        ("a = 1, b = \"x\"", true),
        ("\n a = 1\n\n b: true,\n \"c d\" = null\n", true),
        ("true = 1, null = 2, false = \"\"", true),
        ("a = 1 # c\n b = 1.5e3 /* d */, c = 2", true),
        ("e\u{301} = 1, \"\u{e9}\" = 2", true),
        ("a = 1, for = 2", true),
        (&window, true),
        ("a = 1, b = x", false),
        ("a = 1, b = -1, c = 3", false),
        ("a = 1\n b = \"x\\n\"", false),
        ("a = 1, \"${b}\" = 2", false),
        ("a = 1, (b) = 2", false),
    ];
    for &(items, literal) in cases {
        // The same items at the same offsets: after spaces, or after an
        // item that is not literal.
        let src = arena.alloc_str(&format!("{{     {items}}}"));
        let (e, diags) = crate::parse_expression(&arena, src.as_bytes(), &mut interner);
        assert!(diags.is_empty(), "{src}: {diags:?}");
        assert_eq!(matches!(e.kind, ExprKind::LiteralObject(_)), literal, "{src}: {:?}", e.kind);
        let got = crate::analysis::static_map(e, &arena, &mut interner).unwrap();
        let general = arena.alloc_str(&format!("{{z=x, {items}}}"));
        let (g, diags) = crate::parse_expression(&arena, general.as_bytes(), &mut interner);
        assert!(diags.is_empty(), "{general}: {diags:?}");
        let ExprKind::Object(want) = g.kind else { panic!("{general}: {:?}", g.kind) };
        assert_eq!(describe(got, &interner), describe(&want[1..], &interner), "{src}");
    }
}

/// Looking past a literal object's items for the separator after each
/// keeps the token window bounded, as for a literal tuple.
#[test]
fn literal_objects_keep_the_token_window_bounded() {
    let arena = bumpalo::Bump::new();
    let mut interner = Interner::new();
    let src = format!("{{{}z = 1}}", "\"k\" = \"ab\",\n".repeat(100_000));
    let mut p = super::Parser::new(&arena, src.as_bytes(), crate::lexer::LexMode::Normal, &mut interner, "t");
    let e = p.parse_expression();
    assert!(matches!(e.kind, crate::ast::ExprKind::LiteralObject(o) if o.len() == 100_001), "{:?}", e.kind);
    // A window is some 4,000 tokens; the object is 900,000.
    assert!(p.tokens.capacity() < 20_000, "window grew to {}", p.tokens.capacity());
}

/// A tuple of literals and short literal objects is kept as its source
/// text, and its elements are the nodes the general parser makes of the
/// same elements (forced by a first element that is not literal).
#[test]
fn literal_tuples_of_objects_give_their_elements() {
    use crate::ast::{Expr, ExprKind};
    let arena = bumpalo::Bump::new();
    let mut interner = Interner::new();
    let long = (0..100).map(|i| format!("k{i} = {i}")).collect::<Vec<_>>().join(", ");
    let window = "{a = \"x\"}, ".repeat(crate::lexer::SCAN_WINDOW);
    // Past the look-ahead's bound on newlines alone.
    let blank = format!("{{a = 1{}}}", "\n".repeat(300));
    let cases: &[(&str, bool)] = &[
        ("{a = 1}, {a = 2, b = \"x\"}", true),
        (&blank, false),
        ("{\n a = 1\n\n b: null,\n}, 3,\n \"s\"", true),
        ("{a = 1}, {b = 1, for = 2}", true),
        (&window, true),
        (&format!("{{{long}}}, 1"), false),
        ("{a = 1}, {}", false),
        ("{a = 1}, {a = {b = 1}}", false),
        ("{a = 1}, {a = x}", false),
        ("{a = 1}, [1]", false),
    ];
    let node = |e: &Expr<'_>, interner: &Interner| format!("{}@{}..{}", sexpr(e, interner), e.span.start, e.span.end);
    for &(elements, literal) in cases {
        // The same elements at the same offsets: after spaces, or after an
        // element that is not literal.
        let src = arena.alloc_str(&format!("[   {elements}]"));
        let (e, diags) = crate::parse_expression(&arena, src.as_bytes(), &mut interner);
        assert!(diags.is_empty(), "{src}: {diags:?}");
        assert_eq!(matches!(e.kind, ExprKind::LiteralTuple(_)), literal, "{src}: {:?}", e.kind);
        let got: Vec<String> = crate::analysis::static_list(e, &arena).unwrap().iter().map(|e| node(e, &interner)).collect();
        let general = arena.alloc_str(&format!("[x, {elements}]"));
        let (g, diags) = crate::parse_expression(&arena, general.as_bytes(), &mut interner);
        assert!(diags.is_empty(), "{general}: {diags:?}");
        let ExprKind::Tuple(want) = g.kind else { panic!("{general}: {:?}", g.kind) };
        let want: Vec<String> = want[1..].iter().map(|e| node(e, &interner)).collect();
        assert_eq!(got, want, "{src}");
    }
}
