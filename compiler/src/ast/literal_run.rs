//! Tuple and object constructors of literals only, kept as their source
//! text.
//!
//! `[1, 2, 3]`, `["10.0.0.0/8", ...]` or `{k0 = 0, k1 = 1, ...}` written
//! out to millions of elements is data, not code: a node per element (32
//! bytes, and an object item is three nodes, where the element's text is
//! often two to ten bytes) would make its syntax tree many times its
//! source. The parser keeps such a constructor as the range of source
//! between its brackets and the number of its elements:
//! - an object ([`LiteralObject`]) whose items are all `key = value` (or
//!   `key: value`) with a bare-word or plain quoted key and a value that is
//!   a bare number literal, `true`, `false`, `null`, or a quoted string of
//!   plain text (no escapes, no interpolation);
//! - a tuple ([`LiteralTuple`]) whose elements are all such values or
//!   short such objects (a list of records: `[{port = 80}, {port = 443}]`).
//!
//! [`LiteralTuple::elements`] and [`LiteralObject::entries`] scan that
//! range again to give the elements, each exactly as the parser would have
//! made it, to whoever needs them (lowering folds them into one constant as
//! they come).

use super::{Expr, ExprKind, Literal};
use crate::intern::Interner;
use crate::lexer::{LexMode, Scanner, Token, TokenKind, SCAN_WINDOW};
use runtime::Span;

/// A constructor's range of literal source, of a kind: a
/// [`LiteralTuple`] or a [`LiteralObject`].
#[derive(Clone, Copy, Debug)]
pub struct LiteralRun<'a, Kind> {
    /// The whole source the constructor was parsed from (spans are its
    /// offsets).
    src: &'a [u8],
    /// The elements' range: from after the opening bracket to before the
    /// closing one.
    start: u32,
    end: u32,
    /// How many elements (or items) there are.
    count: u32,
    kind: std::marker::PhantomData<Kind>,
}

/// The kind of a [`LiteralTuple`].
#[derive(Clone, Copy, Debug)]
pub struct TupleRun;

/// The kind of a [`LiteralObject`].
#[derive(Clone, Copy, Debug)]
pub struct ObjectRun;

/// `[1, 2, true, null, "text", {a = 1}]`: see the module's documentation.
pub type LiteralTuple<'a> = LiteralRun<'a, TupleRun>;

/// `{a = 1, "b" = "text", c: null}`: see the module's documentation.
pub type LiteralObject<'a> = LiteralRun<'a, ObjectRun>;

impl<'a, Kind> LiteralRun<'a, Kind> {
    /// The constructor whose `count` elements are between `start` and
    /// `end` of `src`: for a tuple, literals (a token, or a plain string's
    /// two or three) and literal objects, separated by commas; for an
    /// object, items of a key (a name, or a plain string's two or three
    /// tokens), `=` or `:`, and a literal, separated by commas or
    /// newlines. Newlines and comments may come between them. The parser
    /// checked all of this.
    pub(crate) fn new(src: &'a [u8], start: u32, end: u32, count: u32) -> LiteralRun<'a, Kind> {
        LiteralRun { src, start, end, count, kind: std::marker::PhantomData }
    }

    pub fn len(&self) -> usize {
        self.count as usize
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    fn pieces(&self) -> Pieces<'a> {
        pieces(self.src, self.start, self.end)
    }
}

impl<'a> LiteralTuple<'a> {
    /// The elements, in order.
    pub fn elements(&self) -> LiteralElements<'a> {
        LiteralElements(self.pieces())
    }
}

impl<'a> LiteralObject<'a> {
    /// The items, in order.
    pub fn entries(&self) -> LiteralEntries<'a> {
        LiteralEntries(self.pieces())
    }
}

/// The literal elements of `src[start..end]` (see [`LiteralTuple`]).
pub(crate) fn literal_elements(src: &[u8], start: u32, end: u32) -> LiteralElements<'_> {
    LiteralElements(pieces(src, start, end))
}

/// The literal items of `src[start..end]` (see [`LiteralObject`]).
pub(crate) fn literal_entries(src: &[u8], start: u32, end: u32) -> LiteralEntries<'_> {
    LiteralEntries(pieces(src, start, end))
}

fn pieces(src: &[u8], start: u32, end: u32) -> Pieces<'_> {
    let src = src.get(..end as usize).unwrap_or(src);
    Pieces { src, scanner: Scanner::new_at(src, LexMode::Normal, start as usize), tokens: Vec::new(), next: 0 }
}

/// One literal of a run: a bare token (a number, a word), a plain quoted
/// string (its text and whole span), or (in a tuple) a literal object.
enum Piece<'a> {
    Bare(Token),
    Quoted(&'a str, Span),
    Object(LiteralObject<'a>, Span),
}

/// The pieces of a run's source, past the separators between them; scans a
/// window at a time.
struct Pieces<'a> {
    src: &'a [u8],
    scanner: Scanner<'a>,
    tokens: Vec<Token>,
    next: usize,
}

impl<'a> Pieces<'a> {
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

    /// The next piece: commas, newlines, `=` and `:` are skipped.
    fn next_piece(&mut self) -> Option<Piece<'a>> {
        loop {
            let tok = self.token(0)?;
            match tok.kind {
                TokenKind::OQuote => {
                    // `""` or `"text"` (the parser took no other string).
                    let first = self.token(1)?;
                    let (close, text, len) = match first.kind {
                        TokenKind::CQuote => (first, "", 2),
                        _ => (self.token(2)?, plain_string(self.src, first).unwrap_or_default(), 3),
                    };
                    self.next += len;
                    return Some(Piece::Quoted(text, Span::new(tok.start, close.end)));
                }
                TokenKind::NumberLit | TokenKind::Ident => {
                    self.next += 1;
                    return Some(Piece::Bare(tok));
                }
                TokenKind::OBrace => {
                    // Each item has one `=` or `:` (its key and value are
                    // a word or a string).
                    let mut count = 0;
                    let mut k = 1;
                    let close = loop {
                        let t = self.token(k)?;
                        match t.kind {
                            TokenKind::CBrace => break t,
                            TokenKind::Equal | TokenKind::Colon => count += 1,
                            _ => {}
                        }
                        k += 1;
                    };
                    self.next += k + 1;
                    let object = LiteralObject::new(self.src, tok.end, close.start, count);
                    return Some(Piece::Object(object, Span::new(tok.start, close.end)));
                }
                _ => self.next += 1,
            }
        }
    }

    /// The next piece as a tuple's element (`None` at the end).
    fn next_element(&mut self) -> Option<LiteralElement<'a>> {
        loop {
            match self.next_piece()? {
                Piece::Quoted(text, span) => return Some(LiteralElement::Leaf(Expr::new(ExprKind::Quoted(text), span))),
                Piece::Bare(tok) => {
                    if let Some(lit) = literal_token(self.src, tok) {
                        return Some(LiteralElement::Leaf(Expr::new(ExprKind::Literal(lit), tok.span())));
                    }
                }
                Piece::Object(object, span) => return Some(LiteralElement::Object(object, span)),
            }
        }
    }

    /// The next piece as an object's value (`None` at the end).
    fn next_leaf(&mut self) -> Option<Expr<'a>> {
        loop {
            if let LiteralElement::Leaf(e) = self.next_element()? {
                return Some(e);
            }
        }
    }
}

/// An element of a [`LiteralTuple`]: a literal's node, or a literal object.
#[derive(Clone, Copy, Debug)]
pub enum LiteralElement<'a> {
    Leaf(Expr<'a>),
    /// With its span, braces included.
    Object(LiteralObject<'a>, Span),
}

impl<'a> LiteralElement<'a> {
    /// The element's node (an object's refers to this element).
    pub fn expr(&self) -> Expr<'_> {
        match self {
            LiteralElement::Leaf(e) => *e,
            LiteralElement::Object(object, span) => Expr::new(ExprKind::LiteralObject(object), *span),
        }
    }

    /// The element's node, an object's kept in `arena`.
    pub fn into_expr_in(self, arena: &'a bumpalo::Bump) -> Expr<'a> {
        match self {
            LiteralElement::Leaf(e) => e,
            LiteralElement::Object(object, span) => Expr::new(ExprKind::LiteralObject(arena.alloc(object)), span),
        }
    }
}

/// The iterator of [`LiteralTuple::elements`].
pub struct LiteralElements<'a>(Pieces<'a>);

impl<'a> Iterator for LiteralElements<'a> {
    type Item = LiteralElement<'a>;

    fn next(&mut self) -> Option<LiteralElement<'a>> {
        self.0.next_element()
    }
}

/// The iterator of [`LiteralObject::entries`].
pub struct LiteralEntries<'a>(Pieces<'a>);

impl<'a> Iterator for LiteralEntries<'a> {
    type Item = LiteralEntry<'a>;

    fn next(&mut self) -> Option<LiteralEntry<'a>> {
        let key = match self.0.next_piece()? {
            // A key word is valid UTF-8 (the parser checked).
            Piece::Bare(tok) => {
                LiteralKey::Name(std::str::from_utf8(self.0.src.get(tok.start as usize..tok.end as usize)?).ok()?, tok.span())
            }
            Piece::Quoted(text, span) => LiteralKey::Quoted(text, span),
            Piece::Object(..) => return None,
        };
        Some(LiteralEntry { key, value: self.0.next_leaf()? })
    }
}

/// One `key = value` of a [`LiteralObject`].
#[derive(Clone, Copy, Debug)]
pub struct LiteralEntry<'a> {
    pub key: LiteralKey<'a>,
    pub value: Expr<'a>,
}

/// A [`LiteralObject`] item's key, with its span.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LiteralKey<'a> {
    /// A bare word (`{a = 1}`, also `null`, `true` and `false`): the
    /// attribute name it is.
    Name(&'a str, Span),
    /// A plain quoted string, `{"a b" = 1}`: its text (a template, so
    /// never an attribute name where only names will do).
    Quoted(&'a str, Span),
}

impl<'a> LiteralKey<'a> {
    /// The key's string, as written (a name or the quoted text).
    pub fn text(&self) -> &'a str {
        match *self {
            LiteralKey::Name(text, _) | LiteralKey::Quoted(text, _) => text,
        }
    }

    pub fn span(&self) -> Span {
        match *self {
            LiteralKey::Name(_, span) | LiteralKey::Quoted(_, span) => span,
        }
    }

    /// The key's node as the parser makes it: a name (interned here), a
    /// `null`, `true` or `false` literal, or a quoted string.
    pub fn expr(&self, interner: &mut Interner) -> Expr<'a> {
        match *self {
            LiteralKey::Name(text, span) => match text {
                "null" => Expr::new(ExprKind::Literal(Literal::Null), span),
                "true" => Expr::new(ExprKind::Literal(Literal::Bool(true)), span),
                "false" => Expr::new(ExprKind::Literal(Literal::Bool(false)), span),
                _ => Expr::new(ExprKind::Name(interner.intern(text)), span),
            },
            LiteralKey::Quoted(text, span) => Expr::new(ExprKind::Quoted(text), span),
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
pub(crate) fn literal_token(src: &[u8], tok: Token) -> Option<Literal<'_>> {
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
        let mut items = super::literal_elements(src.as_bytes(), 1, end);
        let mut count = 0;
        let mut most = 0;
        while items.next().is_some() {
            count += 1;
            most = most.max(items.0.tokens.capacity());
        }
        assert_eq!(count, 100_001);
        // A scan is 16 KB, some 3,500 tokens here; the tuple is 300,000.
        assert!(most < 20_000, "the window grew to {most} tokens");
    }
}
