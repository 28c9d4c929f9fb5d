//! Tuple constructors of literals only, kept as their source text.
//!
//! `[1, 2, 3]` or `["10.0.0.0/8", ...]` written out to millions of
//! elements is data, not code: a node per element (32 bytes, where the
//! element's text is often two) would make its syntax tree many times
//! its source. The parser keeps a tuple whose elements are all bare
//! number literals, `true`, `false`, `null`, or quoted strings of plain
//! text (no escapes, no interpolation) as the range of source between
//! its brackets and the number of elements; [`LiteralTuple::items`]
//! scans that range again to give the element nodes, each exactly as the
//! parser would have made it, to whoever needs them (lowering folds them
//! into one constant as they come).

use super::{Expr, ExprKind, Literal};
use crate::lexer::{LexMode, Scanner, Token, TokenKind, SCAN_WINDOW};
use runtime::Span;

/// `[1, 2, true, null, "text"]`: see the module's documentation.
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
    /// The tuple whose elements are the literals (a token, or a plain
    /// string's two or three) between `start` and `end` of `src`, `count`
    /// of them, separated by commas (newlines and comments between them
    /// allowed). The parser checked all of this.
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

impl<'a> LiteralItems<'a> {
    /// The token `k` after the next one, scanning more when the window
    /// ends before it; `None` past the end.
    fn token(&mut self, k: usize) -> Option<Token> {
        while self.tokens.len() <= self.next + k && !self.scanner.finished() {
            // What was read goes first, whatever token the last scan
            // ended on (else a scan ending inside a string each time
            // keeps them all).
            self.tokens.drain(..self.next);
            self.next = 0;
            self.scanner.scan(&mut self.tokens, SCAN_WINDOW);
        }
        self.tokens.get(self.next + k).copied()
    }
}

impl<'a> Iterator for LiteralItems<'a> {
    type Item = Expr<'a>;

    fn next(&mut self) -> Option<Expr<'a>> {
        loop {
            let tok = self.token(0)?;
            if tok.kind == TokenKind::OQuote {
                // `""` or `"text"` (the parser took no other string).
                let first = self.token(1)?;
                let (close, text, len) = match first.kind {
                    TokenKind::CQuote => (first, "", 2),
                    _ => (self.token(2)?, plain_string(self.src, first).unwrap_or_default(), 3),
                };
                self.next += len;
                return Some(Expr::new(ExprKind::Quoted(text), Span::new(tok.start, close.end)));
            }
            self.next += 1;
            if let Some(lit) = literal_token(self.src, tok) {
                return Some(Expr::new(ExprKind::Literal(lit), tok.span()));
            }
        }
    }
}

/// The text of a quoted string's literal token when it is the string's
/// value as written: no backslash escape, no `$${` or `%%{` (which the
/// scanner puts at a token's start), valid UTF-8.
pub(crate) fn plain_string(src: &[u8], tok: Token) -> Option<&str> {
    let text = src.get(tok.start as usize..tok.end as usize)?;
    if tok.kind != TokenKind::QuotedLit || memchr::memchr(b'\\', text).is_some() || text.starts_with(b"$${") || text.starts_with(b"%%{") {
        return None;
    }
    std::str::from_utf8(text).ok()
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

#[cfg(test)]
mod tests {
    /// The items' scanner keeps a window, however its scans end: strings
    /// of a period that makes every scan end inside one (after `"` or
    /// the text) once kept every token of the tuple.
    #[test]
    fn items_keep_a_window() {
        let src = format!("[{}\"z\"]", "\"10.0.0.0/8\", ".repeat(100_000));
        let end = src.len() as u32 - 1;
        let mut items = super::literal_items(src.as_bytes(), 1, end);
        let mut count = 0;
        let mut most = 0;
        while items.next().is_some() {
            count += 1;
            most = most.max(items.tokens.capacity());
        }
        assert_eq!(count, 100_001);
        // A scan is 16 KB, some 3,500 tokens here; the tuple is 300,000.
        assert!(most < 20_000, "the window grew to {most} tokens");
    }
}
