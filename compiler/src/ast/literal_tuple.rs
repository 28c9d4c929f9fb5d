//! Tuple constructors of literals only, kept as their source text.
//!
//! `[1, 2, 3]` written out to millions of elements is data, not code: a
//! node per element (32 bytes, where the element's text is often two)
//! would make its syntax tree many times its source. The parser keeps a
//! tuple whose elements are all bare number literals, `true`, `false` or
//! `null` as the range of source between its brackets and the number of
//! elements; [`LiteralTuple::items`] scans that range again to give the
//! element nodes, each exactly as the parser would have made it, to
//! whoever needs them (lowering folds them into one constant as they
//! come).

use super::{Expr, ExprKind, Literal};
use crate::lexer::{LexMode, Scanner, Token, TokenKind, SCAN_WINDOW};

/// `[1, 2, true, null]`: see the module's documentation.
#[derive(Clone, Copy, Debug)]
pub struct LiteralTuple<'a> {
    /// The whole source the tuple was parsed from (spans are its offsets).
    src: &'a [u8],
    /// The elements' range: from after `[` to before `]`.
    start: u32,
    end: u32,
    /// How many elements there are.
    count: u32,
}

impl<'a> LiteralTuple<'a> {
    /// The tuple whose elements are the literal tokens between `start` and
    /// `end` of `src`, `count` of them, separated by commas (newlines and
    /// comments between them allowed). The parser checked all of this.
    pub(crate) fn new(src: &'a [u8], start: u32, end: u32, count: u32) -> LiteralTuple<'a> {
        LiteralTuple { src, start, end, count }
    }

    pub fn len(&self) -> usize {
        self.count as usize
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The element nodes, in order.
    pub fn items(&self) -> LiteralItems<'a> {
        literal_items(self.src, self.start, self.end)
    }
}

/// The literal element nodes of `src[start..end]` (see [`LiteralTuple`]).
pub(crate) fn literal_items<'a>(src: &'a [u8], start: u32, end: u32) -> LiteralItems<'a> {
    let src = src.get(..end as usize).unwrap_or(src);
    LiteralItems { src, scanner: Scanner::new_at(src, LexMode::Normal, start as usize), tokens: Vec::new(), next: 0 }
}

/// The iterator of [`LiteralTuple::items`]: scans a window at a time.
pub struct LiteralItems<'a> {
    src: &'a [u8],
    scanner: Scanner<'a>,
    tokens: Vec<Token>,
    next: usize,
}

impl<'a> Iterator for LiteralItems<'a> {
    type Item = Expr<'a>;

    fn next(&mut self) -> Option<Expr<'a>> {
        loop {
            if self.next == self.tokens.len() {
                if self.scanner.finished() {
                    return None;
                }
                self.tokens.clear();
                self.next = 0;
                self.scanner.scan(&mut self.tokens, SCAN_WINDOW);
                continue;
            }
            let tok = self.tokens[self.next];
            self.next += 1;
            if let Some(lit) = literal_token(self.src, tok) {
                return Some(Expr::new(ExprKind::Literal(lit), tok.span()));
            }
        }
    }
}

/// The literal a bare token stands for as a whole element: a number
/// literal (its text, unchecked), `true`, `false` or `null`.
pub(crate) fn literal_token<'a>(src: &'a [u8], tok: Token) -> Option<Literal<'a>> {
    let text = src.get(tok.start as usize..tok.end as usize)?;
    match tok.kind {
        // Number tokens are ASCII.
        TokenKind::NumberLit => Some(Literal::Number(std::str::from_utf8(text).unwrap_or("0"))),
        TokenKind::Ident => match text {
            b"true" => Some(Literal::Bool(true)),
            b"false" => Some(Literal::Bool(false)),
            b"null" => Some(Literal::Null),
            _ => None,
        },
        _ => None,
    }
}
