//! hclvm front end: lexer, parser, arena AST, static analysis, lowering to bytecode.
//!
//! ```
//! let arena = bumpalo::Bump::new();
//! let mut interner = compiler::Interner::new();
//! let (body, diags) = compiler::parse_body(&arena, b"a = 1 + 2\n", &mut interner);
//! assert!(diags.is_empty());
//! assert_eq!(body.attributes.len(), 1);
//! ```

pub mod analysis;
pub mod ast;
pub mod intern;
pub mod lexer;
pub mod parser;
pub mod lower;

pub use intern::{Interner, Symbol};

use bumpalo::Bump;
use lexer::{LexMode, Token};
use parser::Parser;
use runtime::{Diagnostic, Span};

/// The file name diagnostics mention (e.g. in "Attribute redefined"),
/// matching the reference oracle's.
pub const DEFAULT_FILENAME: &str = "input.hcl";

/// Sources must fit `u32` offsets.
const MAX_SOURCE_LEN: usize = (u32::MAX - 1) as usize;

fn too_large<'a>(arena: &'a Bump) -> (&'a ast::Expr<'a>, Vec<Diagnostic>) {
    let e = arena.alloc(ast::Expr::new(ast::ExprKind::Literal(ast::Literal::Dynamic), Span::default()));
    (e, vec![Diagnostic::error("Source too large", "Sources must be smaller than 4 GiB.", None)])
}

fn lex<'a>(arena: &'a Bump, src: &[u8], mode: LexMode) -> (&'a [Token], Vec<Diagnostic>) {
    let tokens = lexer::tokenize_in(arena, src, mode);
    let mut diags = Vec::new();
    lexer::invalid_token_diagnostics(src, tokens, &mut diags);
    (tokens, diags)
}

/// Parses a configuration file (`hclsyntax.ParseConfig`). Always returns a
/// body, partial when there are errors.
pub fn parse_body<'a>(arena: &'a Bump, src: &'a [u8], interner: &mut Interner) -> (ast::Body<'a>, Vec<Diagnostic>) {
    parse_body_named(arena, src, DEFAULT_FILENAME, interner)
}

/// [`parse_body`] with the file name to use in diagnostic texts.
pub fn parse_body_named<'a>(arena: &'a Bump, src: &'a [u8], filename: &'a str, interner: &mut Interner) -> (ast::Body<'a>, Vec<Diagnostic>) {
    if src.len() > MAX_SOURCE_LEN {
        return (ast::Body::EMPTY, too_large(arena).1);
    }
    let (tokens, mut diags) = lex(arena, src, LexMode::Normal);
    let mut p = Parser::new(arena, src, tokens, interner, filename);
    let body = parser::parse_body_tokens(&mut p);
    diags.extend(p.into_diags());
    (body, diags)
}

/// Parses a standalone expression (`hclsyntax.ParseExpression`).
pub fn parse_expression<'a>(arena: &'a Bump, src: &'a [u8], interner: &mut Interner) -> (&'a ast::Expr<'a>, Vec<Diagnostic>) {
    parse_expression_named(arena, src, DEFAULT_FILENAME, interner)
}

/// [`parse_expression`] with the file name to use in diagnostic texts.
pub fn parse_expression_named<'a>(arena: &'a Bump, src: &'a [u8], filename: &'a str, interner: &mut Interner) -> (&'a ast::Expr<'a>, Vec<Diagnostic>) {
    if src.len() > MAX_SOURCE_LEN {
        return too_large(arena);
    }
    let (tokens, mut diags) = lex(arena, src, LexMode::Normal);
    let mut p = Parser::new(arena, src, tokens, interner, filename);
    p.push_newlines(false);
    let expr = p.parse_expression();
    let next = p.peek();
    if next.kind != lexer::TokenKind::Eof && !p.recovery {
        p.error(
            "Extra characters after expression",
            "An expression was successfully parsed, but extra characters were found after it.",
            next.span(),
        );
    }
    p.pop_newlines();
    diags.extend(p.into_diags());
    (expr, diags)
}

/// Parses a standalone template (`hclsyntax.ParseTemplate`).
pub fn parse_template<'a>(arena: &'a Bump, src: &'a [u8], interner: &mut Interner) -> (&'a ast::Expr<'a>, Vec<Diagnostic>) {
    parse_template_named(arena, src, DEFAULT_FILENAME, interner)
}

/// [`parse_template`] with the file name to use in diagnostic texts.
pub fn parse_template_named<'a>(arena: &'a Bump, src: &'a [u8], filename: &'a str, interner: &mut Interner) -> (&'a ast::Expr<'a>, Vec<Diagnostic>) {
    if src.len() > MAX_SOURCE_LEN {
        return too_large(arena);
    }
    let (tokens, mut diags) = lex(arena, src, LexMode::Template);
    let mut p = Parser::new(arena, src, tokens, interner, filename);
    let expr = p.parse_template_root();
    diags.extend(p.into_diags());
    (expr, diags)
}
