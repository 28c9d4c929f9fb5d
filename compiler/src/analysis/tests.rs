use super::*;

fn vars_of(src: &str) -> Vec<String> {
    let arena = bumpalo::Bump::new();
    let mut interner = Interner::new();
    let (expr, diags) = crate::parse_expression(&arena, src.as_bytes(), &mut interner);
    assert!(diags.is_empty(), "{src}: {diags:?}");
    variables(expr).iter().map(|t| render_traversal(t, &interner)).collect()
}

#[test]
fn variables_table() {
    let cases: &[(&str, &[&str])] = &[
        ("a", &["a"]),
        ("a.b[0][\"k\"].c", &["a.b[0][\"k\"].c"]),
        ("a.0.b", &["a[0].b"]),
        ("a[1.50]", &["a[1.5]"]),
        ("a[true][null]", &["a[true][null]"]),
        ("a[b]", &["a", "b"]),
        ("f(x, y...)", &["x", "y"]),
        ("{for k, v in m : k => v if v > z}", &["m", "z"]),
        ("{for v in m : v => [for w in v : w + k]}", &["m", "k"]),
        ("{a = b, (c) = d, \"e\" = f, null = g}", &["b", "c", "d", "f", "g"]),
        ("x ? y : z", &["x", "y", "z"]),
        ("a[*].b + c.*.d", &["a", "c"]),
        ("\"${a} %{ for i in b }${i}${c}%{ endfor }\"", &["a", "b", "c"]),
        ("-a + !b", &["a", "b"]),
        ("(a).b", &["a"]),
        // A template key of literal pieces only is one literal (hcl's
        // meldConsecutiveStringLiterals), so a static step.
        ("a[\"x$y\"]", &["a[\"x$y\"]"]),
    ];
    for (src, want) in cases {
        assert_eq!(vars_of(src), want.iter().map(|s| s.to_string()).collect::<Vec<_>>(), "{src}");
    }
}

#[test]
fn static_forms() {
    let arena = bumpalo::Bump::new();
    let mut interner = Interner::new();
    let (e, _) = crate::parse_expression(&arena, b"[a, b.c]", &mut interner);
    let items = static_list(e, &arena).unwrap();
    assert_eq!(items.len(), 2);
    assert_eq!(abs_traversal(items[1]).unwrap().render(&interner), "b.c");
    let (e, _) = crate::parse_expression(&arena, b"{x = 1, (y) = 2}", &mut interner);
    let items = static_map(e, &arena, &mut interner).unwrap();
    assert!(abs_traversal_for_key(&items[0]).is_ok());
    assert!(abs_traversal_for_key(&items[1]).is_err());
    // Kept as its source text: the same items, made on demand.
    let (e, _) = crate::parse_expression(&arena, b"{x = 1, \"y\" = 2, null: 3}", &mut interner);
    assert!(matches!(e.kind, crate::ast::ExprKind::LiteralObject(_)), "{:?}", e.kind);
    let items = static_map(e, &arena, &mut interner).unwrap();
    assert_eq!(items.len(), 3);
    assert_eq!(abs_traversal_for_key(&items[0]).unwrap().render(&interner), "x");
    assert!(abs_traversal_for_key(&items[1]).is_err());
    assert_eq!(abs_traversal_for_key(&items[2]).unwrap().render(&interner), "null");
    assert_eq!(items[1].value.span, Span::new(14, 15));
    let (e, _) = crate::parse_expression(&arena, b"f(1, 2)", &mut interner);
    let call = static_call(e).unwrap();
    assert_eq!(interner.resolve(call.name.name), "f");
    assert_eq!((call.args_span.start, call.args_span.end), (1, 7));
    let (e, _) = crate::parse_expression(&arena, b"null.a[0]", &mut interner);
    assert_eq!(abs_traversal(e).unwrap().render(&interner), "null.a[0]");
    let (e, _) = crate::parse_expression(&arena, b"1 + 2", &mut interner);
    let err = static_list(e, &arena).unwrap_err();
    assert_eq!(err.detail, "A static list expression is required.");
    assert_eq!(err.subject, Some(Span::new(0, 1)));
    assert!(abs_traversal(e).is_err());
}

#[test]
fn deep_chains_do_not_recurse() {
    let src = "a".to_string() + &" + a".repeat(200_000);
    let arena = bumpalo::Bump::new();
    let mut interner = Interner::new();
    let (e, diags) = crate::parse_expression(&arena, src.as_bytes(), &mut interner);
    assert!(diags.is_empty());
    assert_eq!(variables(e).len(), 200_001);
    assert_eq!(start_span(e), Span::new(0, 1));
}
