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
            None => d.summary.clone(),
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
        ("[1, 2,\n 3,]", "(tuple 1 2 3)"),
        ("{a = 1, \"b\" = 2\n(c) : 3}", "(object (a 1) ((tpl \"b\") 2) (key! (paren c) 3))"),
        ("[for i, v in l : v if i > 0]", "(for i,v l val=v if=(> i 0))"),
        ("{for v in l : v.k => v...}", "(for v l key=v.k val=v...)"),
        ("\"a${b}c\"", "(tpl \"a\" b \"c\")"),
        ("\"${b}\"", "(wrap b)"),
        ("\"\\u00e9\\t$${x}\"", "(tpl \"é\\t\" \"${\" \"x}\")"),
        ("<<EOT\nx ${y}\nEOT\n", "(tpl \"x \" y \"\\n\")"),
        ("<<-EOT\n    a\n      b\n    EOT\n", "(tpl \"a\\n\" \"  b\\n\")"),
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
        ("a\n  ${~ 1 ~}  \n  b $ %", "(tpl \"a\\n\" \"\" 1 \"\" \"  b \" \"$\" \" \" \"%\")"),
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
    assert_eq!(
        diags[0].detail,
        "The argument \"abc\" was already set at input.hcl:1,1-4. Each argument may be set only once."
    );
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
