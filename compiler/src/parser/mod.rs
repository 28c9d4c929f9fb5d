//! Recursive-descent parser over a window of tokens, scanned as it reads.
//!
//! The structure follows the reference parser step by step (including its
//! error recovery, which decides which diagnostics appear and where), so
//! both accept the same sources and report their first error at the same
//! place. Differences: nesting is limited to [`MAX_NESTING`] levels (the
//! reference overflows its stack instead), and where the reference crashes
//! on the missing expression of a malformed function selector (`-a::b`, see
//! `Parser::missing`) the diagnostics are reported and
//! [`crate::Parse::reference_crash`] tells where it would crash.

mod body;
mod expr;
mod template;

use crate::ast::{Expr, ExprKind, Ident, Literal};
use crate::intern::Interner;
use crate::lexer::{LexMode, Scanner, Token, TokenKind, SCAN_WINDOW};
use bumpalo::Bump;
use runtime::strings::go_lossy_utf8;
use runtime::{Diagnostic, LineIndex, Span};

pub(crate) use body::parse_file_body;
pub use body::FileBody;

/// How deeply expressions, template sequences and blocks may nest. Deep
/// enough for any real configuration (the conformance suite nests 1000
/// parentheses), shallow enough that the recursive parser stays within a
/// 2 MiB thread stack even in debug builds. Blocks and `for` expressions
/// count [`HEAVY_NESTING`] levels each.
pub const MAX_NESTING: u32 = 1100;

/// Nesting levels one block or `for` expression costs.
pub const HEAVY_NESTING: u32 = 2;

pub(crate) struct Parser<'a, 'i> {
    pub arena: &'a Bump,
    pub src: &'a [u8],
    /// The source as text when it is valid UTF-8 (checked once, not
    /// token by token): token texts are then slices of it.
    src_text: Option<&'a str>,
    /// The tokens around the next unread one, scanned on demand: a large
    /// source's tokens are never all alive (see [`Parser::fill`] for which
    /// ones the window holds).
    tokens: Vec<Token>,
    /// Up to which value of `next` the window holds what the accessors
    /// read without scanning more ([`Parser::fill`]).
    safe_next: usize,
    /// Bytes of source scanned at a time.
    window: usize,
    scanner: Scanner<'a>,
    mode: LexMode,
    /// Index in `tokens` of the next unread token (the reference peeker's
    /// NextIndex, less the tokens dropped from the window).
    next: usize,
    /// Whether newlines are significant, innermost last.
    newlines: Vec<bool>,
    /// Set once any recovery was attempted; suppresses follow-on errors.
    pub recovery: bool,
    pub interner: &'i mut Interner,
    pub diags: Vec<Diagnostic>,
    depth: u32,
    too_deep_reported: bool,
    next_splat_id: u32,
    filename: &'a str,
    line_index: Option<LineIndex>,
    /// Whether newlines are significant right now (top of `newlines`).
    newlines_now: bool,
    // Lists under construction are built on these stacks (inner lists are
    // finished before outer ones continue) and copied into the arena once.
    pub scratch_exprs: Vec<Expr<'a>>,
    pub scratch_expr_refs: Vec<&'a Expr<'a>>,
    pub scratch_items: Vec<crate::ast::ObjectItem<'a>>,
    pub scratch_attrs: Vec<crate::ast::Attribute<'a>>,
    pub scratch_blocks: Vec<crate::ast::Block<'a>>,
    pub scratch_labels: Vec<&'a str>,
    pub scratch_steps: Vec<crate::ast::Traverser<'a>>,
    /// Spare template atom buffers (templates nest, so one per level).
    pub(crate) atom_pool: Vec<Vec<template::Atom<'a>>>,
    /// The node standing for the reference's missing expression (see
    /// [`Parser::missing`]), allocated on first use.
    missing: Option<&'a Expr<'a>>,
    /// Where the reference parser would crash: the first place it uses a
    /// missing expression (see [`Parser::missing`]).
    pub reference_crash: Option<Span>,
}

#[cfg(test)]
thread_local! {
    /// The window size of parsers made on this thread (tests parse with
    /// windows of a byte or two, where nearly every read refills).
    pub(crate) static TEST_WINDOW: std::cell::Cell<usize> = const { std::cell::Cell::new(SCAN_WINDOW) };
}

/// Bytes of source a parser scans at a time.
fn window_size() -> usize {
    #[cfg(test)]
    return TEST_WINDOW.with(|w| w.get());
    #[cfg(not(test))]
    SCAN_WINDOW
}

/// Copies `v[base..]` into the arena and truncates `v` to `base`.
#[inline]
pub(crate) fn drain_to_arena<'a, T: Copy>(arena: &'a Bump, v: &mut Vec<T>, base: usize) -> &'a [T] {
    if v.len() <= base {
        v.truncate(base);
        return &[];
    }
    let out = arena.alloc_slice_copy(&v[base..]);
    v.truncate(base);
    out
}

impl<'a, 'i> Parser<'a, 'i> {
    pub fn new(arena: &'a Bump, src: &'a [u8], mode: LexMode, interner: &'i mut Interner, filename: &'a str) -> Self {
        Parser::new_at(arena, src, mode, interner, filename, 0)
    }

    /// A parser of `src` from byte `start` on (see [`Scanner::new_at`]).
    pub fn new_at(arena: &'a Bump, src: &'a [u8], mode: LexMode, interner: &'i mut Interner, filename: &'a str, start: usize) -> Self {
        let mut p = Parser {
            arena,
            src,
            // (Checked only for a whole source: a part's tokens are
            // checked one at a time, so that reading many parts of one
            // source does not check it whole each time.)
            src_text: if start == 0 { std::str::from_utf8(src).ok() } else { None },
            // About a token per 4 bytes (pages not written cost nothing).
            tokens: Vec::with_capacity(window_size().min(src.len()) / 4 + 64),
            safe_next: 0,
            window: window_size(),
            scanner: Scanner::new_at(src, mode, start),
            mode,
            next: 0,
            newlines: vec![true],
            recovery: false,
            interner,
            diags: Vec::new(),
            depth: 0,
            too_deep_reported: false,
            next_splat_id: 0,
            filename,
            line_index: None,
            newlines_now: true,
            scratch_exprs: Vec::with_capacity(32),
            scratch_expr_refs: Vec::with_capacity(32),
            scratch_items: Vec::with_capacity(32),
            scratch_attrs: Vec::with_capacity(32),
            scratch_blocks: Vec::with_capacity(16),
            scratch_labels: Vec::with_capacity(4),
            scratch_steps: Vec::with_capacity(32),
            atom_pool: Vec::new(),
            missing: None,
            reference_crash: None,
        };
        p.fill_slow();
        p
    }

    /// Scans the rest of the source and gives the diagnostics of the
    /// parse: those of invalid tokens first, as hcl reports them before
    /// parsing, then the parser's.
    pub fn finish(self) -> Vec<Diagnostic> {
        let mut diags = self.scanner.finish();
        diags.extend(self.diags);
        diags
    }

    // ---- the token window ----

    /// Makes the window hold what the token accessors may read: the token
    /// before the next one, the next two, and the first token from the
    /// next one on that is not a newline (read past newlines when they are
    /// not significant). Called whenever `next` moves.
    #[inline]
    fn fill(&mut self) {
        if self.next > self.safe_next {
            self.fill_slow();
        }
    }

    #[cold]
    #[inline(never)]
    fn fill_slow(&mut self) {
        loop {
            if self.scanner.finished() {
                // Everything up to Eof is here.
                self.safe_next = usize::MAX;
                return;
            }
            // Before the window's last token that is not a newline, every
            // `next` has what `fill` promises.
            if let Some(last) = self.tokens.iter().rposition(|t| t.kind != TokenKind::Newline) {
                if self.next < last {
                    self.safe_next = last - 1;
                    return;
                }
            }
            self.scan_more();
        }
    }

    /// Scans the next window of source into the token window, first
    /// dropping the tokens before the one before the next (which is kept).
    fn scan_more(&mut self) {
        let keep_from = self.next.saturating_sub(1);
        self.tokens.drain(..keep_from);
        self.next -= keep_from;
        self.safe_next = self.safe_next.saturating_sub(keep_from);
        self.scanner.scan(&mut self.tokens, self.window);
    }

    // ---- token access (the reference's peeker) ----

    #[inline]
    fn including_newlines(&self) -> bool {
        self.newlines_now
    }

    /// The index of the next token as the reference's peeker sees it, in
    /// the window.
    #[inline]
    fn peek_index(&self) -> usize {
        let mut i = self.next;
        // The window ends with Eof when it is shorter than needed.
        let last = self.tokens.len() - 1;
        if i > last {
            return last;
        }
        if !self.including_newlines() {
            // The window holds a token other than a newline from `i` on
            // (`fill`), or ends with Eof, so this stops.
            while self.tokens[i].kind == TokenKind::Newline && i < last {
                i += 1;
            }
        }
        i
    }

    #[inline]
    pub fn peek(&self) -> Token {
        self.tokens[self.peek_index()]
    }

    #[inline]
    pub fn read(&mut self) -> Token {
        let i = self.peek_index();
        let tok = self.tokens[i];
        self.next = (i + 1).min(self.tokens.len());
        self.fill();
        tok
    }

    /// The token `ahead` tokens after the next one (newlines included),
    /// however far past what the window promises: more source is scanned
    /// into the window as needed ([`Parser::scan_more`], as
    /// [`Parser::fill`] does). Eof past the end.
    fn token_ahead(&mut self, ahead: usize) -> Token {
        while self.next + ahead >= self.tokens.len() && !self.scanner.finished() {
            self.scan_more();
        }
        let last = self.tokens.len() - 1;
        self.tokens[(self.next + ahead).min(last)]
    }

    /// The span of the last token read (or of the next one, at the start).
    pub fn prev_span(&self) -> Span {
        if self.next == 0 {
            return self.peek().span();
        }
        self.tokens[self.next - 1].span()
    }

    /// The token at `index` of the window, ignoring newline mode (the next
    /// one or the one after it).
    fn raw_at(&self, index: usize) -> Option<Token> {
        self.tokens.get(index).copied()
    }

    /// Moves past the next `n` tokens, newlines included: at most 2, or
    /// as many as [`Parser::token_ahead`] has brought into the window.
    fn skip_raw(&mut self, n: usize) {
        self.next += n;
        self.fill();
    }

    pub fn push_newlines(&mut self, include: bool) {
        self.newlines.push(include);
        self.newlines_now = include;
    }

    pub fn pop_newlines(&mut self) {
        if self.newlines.len() > 1 {
            self.newlines.pop();
        }
        self.newlines_now = self.newlines.last().copied().unwrap_or(true);
    }

    pub fn text(&self, tok: Token) -> &'a [u8] {
        self.src.get(tok.start as usize..tok.end as usize).unwrap_or(&[])
    }

    /// A token's text (an identifier's, or a literal's without escapes).
    /// Like the reference, the scanner lets some invalid UTF-8 into
    /// identifiers and strings; such bytes become U+FFFD here. A valid
    /// source's tokens are slices of it (checked as UTF-8 once).
    pub fn token_str(&self, tok: Token) -> &'a str {
        if let Some(s) = self.src_text.and_then(|s| s.get(tok.start as usize..tok.end as usize)) {
            return s;
        }
        match go_lossy_utf8(self.text(tok)) {
            std::borrow::Cow::Borrowed(s) => s,
            std::borrow::Cow::Owned(s) => self.arena.alloc_str(&s),
        }
    }

    pub fn ident(&mut self, tok: Token) -> Ident {
        let text = self.text(tok);
        Ident { name: self.intern_name(text), span: tok.span() }
    }

    /// Interns a name made of identifier text (invalid UTF-8 becomes U+FFFD).
    pub fn intern_name(&mut self, text: &[u8]) -> crate::Symbol {
        match self.interner.intern_bytes(text) {
            Some(sym) => sym,
            None => self.interner.intern(&go_lossy_utf8(text)),
        }
    }

    pub fn is_keyword(&self, tok: Token, kw: &str) -> bool {
        tok.kind == TokenKind::Ident && self.text(tok) == kw.as_bytes()
    }

    // ---- diagnostics ----

    pub fn mark(&self) -> usize {
        self.diags.len()
    }

    /// Whether errors were reported since `mark` (all parse diagnostics are errors).
    pub fn errors_since(&self, mark: usize) -> bool {
        self.diags.len() > mark
    }

    #[cold]
    pub fn error(&mut self, summary: impl Into<std::borrow::Cow<'static, str>>, detail: impl Into<String>, subject: Span) {
        self.diags.push(Diagnostic::error(summary, detail, Some(subject)));
    }

    #[cold]
    pub fn error_ctx(
        &mut self,
        summary: impl Into<std::borrow::Cow<'static, str>>,
        detail: impl Into<String>,
        subject: Span,
        context: Span,
    ) {
        self.diags.push(Diagnostic::error(summary, detail, Some(subject)).with_context(context));
    }

    /// `file:line,col-col` as hcl prints a range.
    #[cold]
    pub fn range_string(&mut self, span: Span) -> String {
        let src = self.src;
        let mode = self.mode;
        let idx = self.line_index.get_or_insert_with(|| LineIndex::with_breaks(src, crate::lexer::cluster_breaks(src, mode)));
        idx.range_text(src, self.filename, span)
    }

    // ---- nesting limit ----

    /// Enters one nesting level; `false` (after reporting once, and entering
    /// recovery so callers unwind) when the limit is reached.
    pub fn enter(&mut self, at: Span) -> bool {
        self.enter_weighted(at, 1)
    }

    /// Enters a construct whose recursion costs `weight` levels of stack
    /// (blocks and `for` expressions have larger parser frames).
    pub fn enter_weighted(&mut self, at: Span, weight: u32) -> bool {
        if self.depth + weight > MAX_NESTING {
            if !self.too_deep_reported {
                self.too_deep_reported = true;
                self.error(
                    "Nesting too deep",
                    format!("This configuration nests expressions, templates or blocks more than {MAX_NESTING} levels deep."),
                    at,
                );
            }
            self.recovery = true;
            return false;
        }
        self.depth += weight;
        true
    }

    pub fn leave(&mut self) {
        self.leave_weighted(1);
    }

    pub fn leave_weighted(&mut self, weight: u32) {
        self.depth = self.depth.saturating_sub(weight);
    }

    // ---- the reference's missing expression ----

    /// The expression of a malformed function selector (`a::`, `a::b` with
    /// no `(`): the reference's parser returns no expression at all (a nil
    /// `Expression`) besides its diagnostic, which its callers pass on as
    /// they pass on any expression, until one of them asks it for its range
    /// and the reference crashes (a nil pointer dereference: an operand of
    /// `-` or `!`, a traversal step after it, the first or last part of a
    /// template `if` or `for` body). Those places call
    /// [`Parser::uses_missing`]. The node itself is an ordinary placeholder,
    /// one per parse, recognised by its address.
    pub fn missing(&mut self) -> &'a Expr<'a> {
        if let Some(e) = self.missing {
            return e;
        }
        let e = self.placeholder(Span::default());
        self.missing = Some(e);
        e
    }

    /// Whether `e` is the missing expression.
    #[inline]
    pub fn is_missing(&self, e: &Expr<'a>) -> bool {
        self.missing.is_some_and(|m| std::ptr::eq(m, e))
    }

    /// Notes that the reference would use `e` where it is missing (and crash)
    /// when `e` is the missing expression; `at` is where.
    #[inline]
    pub fn uses_missing(&mut self, e: &Expr<'a>, at: Span) {
        if self.reference_crash.is_none() && self.is_missing(e) {
            self.reference_crash = Some(at);
        }
    }

    // ---- recovery (the reference's recover helpers) ----

    pub fn set_recovery(&mut self) {
        self.recovery = true;
    }

    /// Skips to the token `end` that closes the current bracket, counting
    /// nested pairs; returns it (or Eof).
    pub fn recover(&mut self, end: TokenKind) -> Token {
        let start = opposite_bracket(end);
        self.recovery = true;
        let mut nest = 0u32;
        loop {
            let tok = self.read();
            let mut kind = tok.kind;
            if end == TokenKind::TemplateSeqEnd && kind == TokenKind::TemplateControl {
                kind = TokenKind::TemplateInterp;
            }
            if Some(kind) == start {
                nest += 1;
            } else if kind == end {
                if nest == 0 {
                    return tok;
                }
                nest -= 1;
            } else if kind == TokenKind::Eof {
                return tok;
            }
        }
    }

    /// Skips to the next `start` bracket, then past the bracket that closes
    /// it (or to the end of the file).
    pub fn recover_over(&mut self, start: TokenKind) {
        let Some(end) = opposite_bracket(start) else { return };
        loop {
            let tok = self.read();
            if tok.kind == start || tok.kind == TokenKind::Eof {
                break;
            }
        }
        self.recover(end);
    }

    /// Skips to the end of the current body item: the next newline outside
    /// any brackets.
    pub fn recover_after_body_item(&mut self) {
        use TokenKind as T;
        self.recovery = true;
        let mut open: Vec<TokenKind> = Vec::new();
        loop {
            let tok = self.read();
            match tok.kind {
                T::Newline if open.is_empty() => break,
                T::Eof => break,
                T::OBrace | T::OBrack | T::OParen | T::OQuote | T::OHeredoc | T::TemplateInterp | T::TemplateControl => open.push(tok.kind),
                T::CBrace | T::CBrack | T::CParen | T::CQuote | T::CHeredoc => {
                    let opener = opposite_bracket(tok.kind);
                    while let Some(&top) = open.last() {
                        if Some(top) == opener {
                            break;
                        }
                        open.pop();
                    }
                    open.pop();
                }
                T::TemplateSeqEnd => {
                    while let Some(&top) = open.last() {
                        if top == T::TemplateInterp || top == T::TemplateControl {
                            break;
                        }
                        open.pop();
                    }
                    open.pop();
                }
                _ => {}
            }
        }
    }

    // ---- arena helpers ----

    // Arena allocation is inlined aggressively by bumpalo; in unoptimized
    // builds that would bloat the frames of the recursive parse functions,
    // so allocation stays out of line there.

    #[cfg_attr(debug_assertions, inline(never))]
    pub fn alloc(&self, kind: ExprKind<'a>, span: Span) -> &'a Expr<'a> {
        self.arena.alloc(Expr::new(kind, span))
    }

    /// Moves a node into the arena.
    #[cfg_attr(debug_assertions, inline(never))]
    pub fn node<T>(&self, value: T) -> &'a mut T {
        self.arena.alloc(value)
    }

    #[cfg_attr(debug_assertions, inline(never))]
    pub fn placeholder(&self, span: Span) -> &'a Expr<'a> {
        self.alloc(ExprKind::Literal(Literal::Dynamic), span)
    }

    pub fn new_splat_id(&mut self) -> u32 {
        let id = self.next_splat_id;
        self.next_splat_id = self.next_splat_id.wrapping_add(1);
        id
    }
}

fn opposite_bracket(kind: TokenKind) -> Option<TokenKind> {
    use TokenKind as T;
    Some(match kind {
        T::OBrace => T::CBrace,
        T::OBrack => T::CBrack,
        T::OParen => T::CParen,
        T::OQuote => T::CQuote,
        T::OHeredoc => T::CHeredoc,
        T::CBrace => T::OBrace,
        T::CBrack => T::OBrack,
        T::CParen => T::OParen,
        T::CQuote => T::OQuote,
        T::CHeredoc => T::OHeredoc,
        T::TemplateControl | T::TemplateInterp => T::TemplateSeqEnd,
        T::TemplateSeqEnd => T::TemplateInterp,
        _ => return None,
    })
}

/// Between two spans: from the start of `a` to the end of `b`.
#[inline]
pub(crate) fn between(a: Span, b: Span) -> Span {
    Span::new(a.start, b.end.max(a.start))
}

#[cfg(test)]
mod tests;
