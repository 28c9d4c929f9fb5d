use super::*;
use TokenKind as T;

fn kinds(src: &str, mode: LexMode) -> Vec<(TokenKind, String)> {
    tokenize(src.as_bytes(), mode)
        .into_iter()
        .map(|t| (t.kind, String::from_utf8_lossy(&src.as_bytes()[t.start as usize..t.end as usize]).into_owned()))
        .collect()
}

type Case = (&'static str, LexMode, &'static [(TokenKind, &'static str)]);

#[test]
fn token_table() {
    let cases: &[Case] = &[
        ("a = 1\n", LexMode::Normal, &[(T::Ident, "a"), (T::Equal, "="), (T::NumberLit, "1"), (T::Newline, "\n"), (T::Eof, "")]),
        (
            "1.5e+3 1. 1..2 1e",
            LexMode::Normal,
            &[
                (T::NumberLit, "1.5e+3"),
                (T::NumberLit, "1"),
                (T::Dot, "."),
                (T::NumberLit, "1..2"),
                (T::NumberLit, "1"),
                (T::Ident, "e"),
                (T::Eof, ""),
            ],
        ),
        ("a-b_c ünï", LexMode::Normal, &[(T::Ident, "a-b_c"), (T::Ident, "ünï"), (T::Eof, "")]),
        (
            "== != <= >= && || => ... :: ~",
            LexMode::Normal,
            &[
                (T::EqualOp, "=="),
                (T::NotEqual, "!="),
                (T::LessThanEq, "<="),
                (T::GreaterThanEq, ">="),
                (T::And, "&&"),
                (T::Or, "||"),
                (T::FatArrow, "=>"),
                (T::Ellipsis, "..."),
                (T::DoubleColon, "::"),
                (T::BitwiseNot, "~"),
                (T::Eof, ""),
            ],
        ),
        // `::` is one token, longest match first: `:::` is `::` then `:`.
        (
            "a::b ::: : :",
            LexMode::Normal,
            &[
                (T::Ident, "a"),
                (T::DoubleColon, "::"),
                (T::Ident, "b"),
                (T::DoubleColon, "::"),
                (T::Colon, ":"),
                (T::Colon, ":"),
                (T::Colon, ":"),
                (T::Eof, ""),
            ],
        ),
        (
            "# c\na // d\r\n/* e */b /* f",
            LexMode::Normal,
            &[
                (T::Newline, "# c\n"),
                (T::Ident, "a"),
                (T::Newline, "// d\r\n"),
                (T::Ident, "b"),
                (T::Slash, "/"),
                (T::Star, "*"),
                (T::Ident, "f"),
                (T::Eof, ""),
            ],
        ),
        (
            "\"a${b}c\\\"\"",
            LexMode::Normal,
            &[
                (T::OQuote, "\""),
                (T::QuotedLit, "a"),
                (T::TemplateInterp, "${"),
                (T::Ident, "b"),
                (T::TemplateSeqEnd, "}"),
                (T::QuotedLit, "c\\\""),
                (T::CQuote, "\""),
                (T::Eof, ""),
            ],
        ),
        (
            "\"$${x}$a%\"",
            LexMode::Normal,
            &[
                (T::OQuote, "\""),
                (T::QuotedLit, "$${"),
                (T::QuotedLit, "x}"),
                (T::QuotedLit, "$"),
                (T::QuotedLit, "a"),
                (T::QuotedLit, "%"),
                (T::CQuote, "\""),
                (T::Eof, ""),
            ],
        ),
        (
            "\"a\nb\"",
            LexMode::Normal,
            &[(T::OQuote, "\""), (T::QuotedLit, "a"), (T::QuotedNewline, "\n"), (T::QuotedLit, "b"), (T::CQuote, "\""), (T::Eof, "")],
        ),
        (
            "\"${~ {a} ~}\"",
            LexMode::Normal,
            &[
                (T::OQuote, "\""),
                (T::TemplateInterp, "${~"),
                (T::OBrace, "{"),
                (T::Ident, "a"),
                (T::CBrace, "}"),
                (T::TemplateSeqEnd, "~}"),
                (T::CQuote, "\""),
                (T::Eof, ""),
            ],
        ),
        (
            "<<EOT\nhi ${x}\n  EOT\n",
            LexMode::Normal,
            &[
                (T::OHeredoc, "<<EOT\n"),
                (T::StringLit, "hi "),
                (T::TemplateInterp, "${"),
                (T::Ident, "x"),
                (T::TemplateSeqEnd, "}"),
                (T::StringLit, "\n"),
                (T::CHeredoc, "  EOT"),
                (T::Newline, "\n"),
                (T::Eof, ""),
            ],
        ),
        (
            "<<-EOT\r\nx\r\nEOT\r\n",
            LexMode::Normal,
            &[(T::OHeredoc, "<<-EOT\r\n"), (T::StringLit, "x\r\n"), (T::CHeredoc, "EOT"), (T::Newline, "\r\n"), (T::Eof, "")],
        ),
        ("a < <b", LexMode::Normal, &[(T::Ident, "a"), (T::LessThan, "<"), (T::LessThan, "<"), (T::Ident, "b"), (T::Eof, "")]),
        (
            "x\ny${a}%{if b}$",
            LexMode::Template,
            &[
                (T::StringLit, "x\n"),
                (T::StringLit, "y"),
                (T::TemplateInterp, "${"),
                (T::Ident, "a"),
                (T::TemplateSeqEnd, "}"),
                (T::TemplateControl, "%{"),
                (T::Ident, "if"),
                (T::Ident, "b"),
                (T::TemplateSeqEnd, "}"),
                (T::StringLit, "$"),
                (T::Eof, ""),
            ],
        ),
        ("a\rb", LexMode::Template, &[(T::StringLit, "a"), (T::StringLit, "\rb"), (T::Eof, "")]),
        ("\u{feff}a", LexMode::Normal, &[(T::Ident, "a"), (T::Eof, "")]),
        ("a\u{feff}", LexMode::Normal, &[(T::Ident, "a"), (T::Invalid, "\u{feff}"), (T::Eof, "")]),
        (
            "& | ^ ; ` '",
            LexMode::Normal,
            &[
                (T::BitwiseAnd, "&"),
                (T::BitwiseOr, "|"),
                (T::BitwiseXor, "^"),
                (T::Semicolon, ";"),
                (T::Backtick, "`"),
                (T::Apostrophe, "'"),
                (T::Eof, ""),
            ],
        ),
    ];
    for (src, mode, want) in cases {
        let got = kinds(src, *mode);
        let want: Vec<(TokenKind, String)> = want.iter().map(|(k, s)| (*k, s.to_string())).collect();
        assert_eq!(got, want, "source {src:?}");
    }
}

#[test]
fn bad_utf8_is_a_token() {
    let toks = tokenize(b"a = \"\xff\"", LexMode::Normal);
    let kinds: Vec<_> = toks.iter().map(|t| t.kind).collect();
    assert_eq!(kinds, vec![T::Ident, T::Equal, T::OQuote, T::BadUtf8, T::CQuote, T::Eof]);
    // overlong forms pass the scanner (they become U+FFFD later)
    let toks = tokenize(b"\"a\xc0\xafb\"", LexMode::Normal);
    assert_eq!(toks[1].kind, T::QuotedLit);
    assert_eq!((toks[1].start, toks[1].end), (1, 5));
}

#[test]
fn invalid_tokens_are_reported_once_per_kind() {
    let src = b"a ; b ; c & d";
    let diags = Scanner::new(src, LexMode::Normal).finish();
    let summaries: Vec<_> = diags.iter().map(|d| &*d.summary).collect();
    assert_eq!(summaries, vec!["Invalid character", "Unsupported operator"]);
}

#[test]
fn identifier_characters_follow_the_reference_tables() {
    let kinds_of =
        |src: &[u8]| -> Vec<(TokenKind, u32, u32)> { tokenize(src, LexMode::Normal).iter().map(|t| (t.kind, t.start, t.end)).collect() };
    // Unicode 9.0 letters are identifier characters.
    assert_eq!(kinds_of("é变".as_bytes()), vec![(T::Ident, 0, 5), (T::Eof, 5, 5)]);
    // A letter added after Unicode 9.0 (U+1032D) is not.
    assert_eq!(kinds_of("\u{1032D}".as_bytes())[0].0, T::Invalid);
    // The reference's byte patterns accept some invalid UTF-8 after a lead
    // byte inside identifiers...
    assert_eq!(kinds_of(b"a\xc3\xc3"), vec![(T::Ident, 0, 3), (T::Eof, 3, 3)]);
    assert_eq!(kinds_of(b"\xe5\xa4\x89\xe6\xe6\x95"), vec![(T::Ident, 0, 6), (T::Eof, 6, 6)]);
    assert_eq!(kinds_of(b"a\xe6\x95 +")[0], (T::Ident, 0, 4));
    // ...but not everywhere.
    assert_eq!(kinds_of(b"a\xc3 "), vec![(T::Ident, 0, 1), (T::BadUtf8, 1, 2), (T::Eof, 3, 3)]);
    assert_eq!(kinds_of(b"a\xe6\xe6"), vec![(T::Ident, 0, 1), (T::BadUtf8, 1, 2), (T::BadUtf8, 2, 3), (T::Eof, 3, 3)]);
}
