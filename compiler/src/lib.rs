//! hclvm front end: lexer, parser, arena AST, static analysis, lowering to bytecode.
//!
//! ```
//! let arena = bumpalo::Bump::new();
//! let mut interner = compiler::Interner::new();
//! let (body, diags) = compiler::parse_body(&arena, b"a = 1 + 2\n", &mut interner);
//! assert!(diags.is_empty());
//! assert_eq!(body.attributes.len(), 1);
//! ```

#![forbid(unsafe_code)]

pub mod analysis;
pub mod ast;
pub mod intern;
pub mod lexer;
pub mod lower;
pub mod parser;
pub mod typeexpr;

pub use intern::{Interner, Symbol};
pub use parser::FileBody;

use bumpalo::Bump;
use lexer::LexMode;
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

/// A parse with everything the parser found out: the tree, the
/// diagnostics, and where the reference parser would crash instead of
/// reporting them.
///
/// hcl v2.20.0 returns no expression at all for a malformed function
/// selector (`a::`, `a::b` without `(`) and crashes with a nil pointer
/// dereference when it later asks that missing expression for its range:
/// when it is the operand of `-` or `!`, is followed by a traversal step
/// (`.x`, `[i]`, `[*]`, `.*`), or is the first or last part of a template
/// `if` or `for` body. hclvm reports the diagnostics as usual; the
/// conformance runner reports such a case as the oracle reports a crash.
#[derive(Debug)]
pub struct Parse<T> {
    pub tree: T,
    pub diags: Vec<Diagnostic>,
    /// Where the reference would crash (`None`: it reports `diags`).
    pub reference_crash: Option<Span>,
}

impl<T> Parse<T> {
    /// The tree and the diagnostics.
    pub fn into_parts(self) -> (T, Vec<Diagnostic>) {
        (self.tree, self.diags)
    }
}

/// Parses a configuration file (`hclsyntax.ParseConfig`). Always returns a
/// body, partial when there are errors.
pub fn parse_body<'a>(arena: &'a Bump, src: &'a [u8], interner: &mut Interner) -> (ast::Body<'a>, Vec<Diagnostic>) {
    parse_body_full(arena, src, DEFAULT_FILENAME, interner).into_parts()
}

/// [`parse_body`] with the file name to use in diagnostic texts, telling
/// where the reference would crash.
pub fn parse_body_full<'a>(arena: &'a Bump, src: &'a [u8], filename: &'a str, interner: &mut Interner) -> Parse<ast::Body<'a>> {
    let p = parse_file_full(arena, src, filename, interner);
    Parse { tree: p.tree.into_body(arena), diags: p.diags, reference_crash: p.reference_crash }
}

/// [`parse_body_full`] with the file body's own lists left on the heap
/// (the rest of the tree is in `arena`): what a large file needs, whose
/// attribute list would otherwise be copied into the arena at the end.
pub fn parse_file_full<'a>(arena: &'a Bump, src: &'a [u8], filename: &'a str, interner: &mut Interner) -> Parse<FileBody<'a>> {
    if src.len() > MAX_SOURCE_LEN {
        return Parse { tree: parser::FileBody::default(), diags: too_large(arena).1, reference_crash: None };
    }
    let mut p = Parser::new(arena, src, LexMode::Normal, interner, filename);
    let body = parser::parse_file_body(&mut p);
    let reference_crash = p.reference_crash;
    let diags = p.finish();
    Parse { tree: body, diags, reference_crash }
}

/// Parses a standalone expression (`hclsyntax.ParseExpression`).
pub fn parse_expression<'a>(arena: &'a Bump, src: &'a [u8], interner: &mut Interner) -> (&'a ast::Expr<'a>, Vec<Diagnostic>) {
    parse_expression_full(arena, src, DEFAULT_FILENAME, interner).into_parts()
}

/// [`parse_expression`] with the file name to use in diagnostic texts, telling
/// where the reference would crash.
pub fn parse_expression_full<'a>(arena: &'a Bump, src: &'a [u8], filename: &'a str, interner: &mut Interner) -> Parse<&'a ast::Expr<'a>> {
    parse_expression_at(arena, src, 0, filename, interner)
}

/// [`parse_expression_full`] of the expression that takes up `src` from
/// byte `start` to its end: a part of a larger source (an attribute's
/// expression in a file), its positions the source's own.
pub fn parse_expression_at<'a>(
    arena: &'a Bump,
    src: &'a [u8],
    start: usize,
    filename: &'a str,
    interner: &mut Interner,
) -> Parse<&'a ast::Expr<'a>> {
    if src.len() > MAX_SOURCE_LEN {
        let (tree, diags) = too_large(arena);
        return Parse { tree, diags, reference_crash: None };
    }
    let mut p = Parser::new_at(arena, src, LexMode::Normal, interner, filename, start);
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
    let reference_crash = p.reference_crash;
    let diags = p.finish();
    Parse { tree: expr, diags, reference_crash }
}

/// Parses a standalone template (`hclsyntax.ParseTemplate`).
pub fn parse_template<'a>(arena: &'a Bump, src: &'a [u8], interner: &mut Interner) -> (&'a ast::Expr<'a>, Vec<Diagnostic>) {
    parse_template_full(arena, src, DEFAULT_FILENAME, interner).into_parts()
}

/// [`parse_template`] with the file name to use in diagnostic texts, telling
/// where the reference would crash.
pub fn parse_template_full<'a>(arena: &'a Bump, src: &'a [u8], filename: &'a str, interner: &mut Interner) -> Parse<&'a ast::Expr<'a>> {
    if src.len() > MAX_SOURCE_LEN {
        let (tree, diags) = too_large(arena);
        return Parse { tree, diags, reference_crash: None };
    }
    let mut p = Parser::new(arena, src, LexMode::Template, interner, filename);
    let expr = p.parse_template_root();
    let reference_crash = p.reference_crash;
    let diags = p.finish();
    Parse { tree: expr, diags, reference_crash }
}
