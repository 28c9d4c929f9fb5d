//! The scanner: bytes to tokens, all at once (`tokenize`) or a window at a time (`Scanner`).
//!
//! Like rustc_lexer, the scanner never reports errors itself: bad input
//! becomes token kinds ([`TokenKind::Invalid`], [`TokenKind::BadUtf8`],
//! [`TokenKind::QuotedNewline`], the unsupported operators) that the
//! parser reports, and [`Scanner::finish`] too (the reference's pre-parse
//! check). Token boundaries follow the reference scanner exactly, because the parser's results depend on them
//! (template literal parts, heredoc line handling, strip markers).
//!
//! Comments never reach the parser: a line comment that ends with a newline
//! becomes a [`TokenKind::Newline`] spanning the whole comment (the newline
//! the reference's token peeker synthesises from it), every other comment is
//! dropped.

use runtime::{Diagnostic, Span};

mod ident_tables;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum TokenKind {
    OBrace,
    CBrace,
    OBrack,
    CBrack,
    OParen,
    CParen,
    OQuote,
    CQuote,
    OHeredoc,
    CHeredoc,
    Star,
    Slash,
    Plus,
    Minus,
    Percent,
    Equal,
    EqualOp,
    NotEqual,
    LessThan,
    LessThanEq,
    GreaterThan,
    GreaterThanEq,
    And,
    Or,
    Bang,
    Dot,
    Comma,
    Ellipsis,
    FatArrow,
    Question,
    Colon,
    /// `::`, the separator of namespaced function names (`provider::ns::f`).
    DoubleColon,
    /// `${` or `${~`
    TemplateInterp,
    /// `%{` or `%{~`
    TemplateControl,
    /// `}` or `~}` closing a template sequence.
    TemplateSeqEnd,
    /// Literal text of a quoted string (may contain backslash escapes).
    QuotedLit,
    /// Literal text of a heredoc or bare template (no backslash escapes).
    StringLit,
    NumberLit,
    Ident,
    Newline,
    Eof,
    // Recognised only to be reported.
    BitwiseAnd,
    BitwiseOr,
    BitwiseNot,
    BitwiseXor,
    Apostrophe,
    Backtick,
    Semicolon,
    /// A character the language does not use.
    Invalid,
    /// A byte that cannot start a UTF-8 sequence.
    BadUtf8,
    /// A newline inside a quoted string.
    QuotedNewline,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    pub start: u32,
    pub end: u32,
}

const _: () = assert!(std::mem::size_of::<Token>() == 12);

impl Token {
    pub fn span(&self) -> Span {
        Span::new(self.start, self.end)
    }
}

/// Where scanning starts: HCL native syntax, or a bare template.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LexMode {
    Normal,
    Template,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Main,
    Quoted,
    /// Index into `heredocs`.
    Heredoc,
    Bare,
}

struct Heredoc {
    marker_start: usize,
    marker_end: usize,
    start_of_line: bool,
}

/// Scans `src` completely. The returned vector always ends with an
/// [`TokenKind::Eof`] token. A UTF-8 byte order mark at the very start is
/// skipped (token offsets still count it). Sources must be shorter than
/// 4 GiB (the caller checks).
///
/// The parser does not use this: it scans a window at a time
/// ([`Scanner`]), so that a large source's tokens are never all alive.
pub fn tokenize(src: &[u8], mode: LexMode) -> Vec<Token> {
    let mut tokens = Vec::new();
    Scanner::new(src, mode).scan(&mut tokens, usize::MAX);
    tokens
}

/// Tokens scanned on demand: [`Scanner::scan`] appends the next ones to a
/// buffer the caller empties as it goes (the parser keeps a window of a
/// few thousand). Also collects the diagnostics of invalid tokens (the
/// reference's pre-parse check, [`Scanner::finish`]) as it scans.
pub struct Scanner<'s> {
    lx: Lexer<'s>,
    state: State,
    finished: bool,
    invalid: InvalidTokens,
    diags: Vec<Diagnostic>,
}

impl<'s> Scanner<'s> {
    /// A scanner at the start of `src` (after a UTF-8 byte order mark).
    pub fn new(src: &'s [u8], mode: LexMode) -> Scanner<'s> {
        Scanner::new_at(src, mode, 0)
    }

    /// A scanner at byte `start` of `src` (a part of a larger source,
    /// whose token offsets are then the source's own).
    pub fn new_at(src: &'s [u8], mode: LexMode, start: usize) -> Scanner<'s> {
        let mut lx = Lexer {
            src,
            pos: start.min(src.len()),
            tokens: Vec::new(),
            stack: Vec::new(),
            braces: 0,
            ret_braces: Vec::new(),
            heredocs: Vec::new(),
            bare_top: mode == LexMode::Template,
        };
        if start == 0 && src.starts_with(b"\xEF\xBB\xBF") {
            lx.pos = 3;
        }
        let state = match mode {
            LexMode::Normal => State::Main,
            LexMode::Template => State::Bare,
        };
        Scanner { lx, state, finished: false, invalid: InvalidTokens::default(), diags: Vec::new() }
    }

    /// Appends the tokens of at least the next `bytes` bytes of source to
    /// `out` (the last token may run past them; at the end of the source
    /// the last token is [`TokenKind::Eof`]); nothing once the end was
    /// scanned. (Bounded by bytes rather than tokens: the scanning loop
    /// then checks one position, as when it scans everything.)
    pub fn scan(&mut self, out: &mut Vec<Token>, bytes: usize) {
        if self.finished {
            return;
        }
        let from = out.len();
        std::mem::swap(out, &mut self.lx.tokens);
        let stop = self.lx.pos.saturating_add(bytes.max(1)).min(self.lx.src.len());
        let mut state = self.state;
        while self.lx.pos < stop {
            state = match state {
                // Most tokens follow one another in this state: scanned in
                // a loop of their own, without going through the dispatch
                // on the state.
                State::Main => loop {
                    let next = self.lx.main();
                    if next != State::Main || self.lx.pos >= stop {
                        break next;
                    }
                },
                State::Quoted => self.lx.quoted(),
                State::Heredoc => self.lx.heredoc(),
                State::Bare => self.lx.bare(),
            };
        }
        self.state = state;
        if self.lx.pos >= self.lx.src.len() {
            let end = self.lx.src.len() as u32;
            self.lx.tokens.push(Token { kind: TokenKind::Eof, start: end, end });
            self.finished = true;
        }
        std::mem::swap(out, &mut self.lx.tokens);
        self.invalid.report(self.lx.src, &out[from..], &mut self.diags);
    }

    /// Whether the end of the source was scanned (the Eof token given out).
    pub fn finished(&self) -> bool {
        self.finished
    }

    /// Scans the rest of the source (discarding its tokens) and gives the
    /// diagnostics of its invalid tokens, in source order.
    pub fn finish(mut self) -> Vec<Diagnostic> {
        let mut rest = Vec::new();
        while !self.finished {
            rest.clear();
            self.scan(&mut rest, SCAN_WINDOW);
        }
        self.diags
    }
}

/// Bytes of source scanned at a time where the whole token vector is not
/// needed: some 2,500 to 4,000 tokens of a configuration.
pub const SCAN_WINDOW: usize = 16 << 10;

/// Where hcl, which counts columns token by token (and an escape's
/// position piece by piece in its string token), starts a new grapheme
/// cluster although the text runs on (`runtime::ClusterBreaks`). Empty
/// for ASCII sources.
pub fn cluster_breaks(src: &[u8], mode: LexMode) -> runtime::ClusterBreaks {
    if src.is_ascii() {
        return runtime::ClusterBreaks::default();
    }
    let mut scanner = Scanner::new(src, mode);
    let mut window = Vec::new();
    let mut breaks = Vec::new();
    let mut pieces = Vec::new();
    while !scanner.finished() {
        window.clear();
        scanner.scan(&mut window, SCAN_WINDOW);
        add_cluster_breaks(src, &window, &mut breaks, &mut pieces);
    }
    breaks.sort_unstable();
    breaks.dedup();
    pieces.sort_unstable();
    pieces.dedup();
    runtime::ClusterBreaks { tokens: breaks.into(), pieces: pieces.into() }
}

/// Appends the boundaries of `tokens` that touch non-ASCII text (unsorted),
/// and, for quoted string tokens with an escape, the boundaries of their
/// pieces that do (with the token's start and end).
fn add_cluster_breaks(src: &[u8], tokens: &[Token], breaks: &mut Vec<u32>, pieces: &mut Vec<(u32, u32, u32)>) {
    let touches_non_ascii = |at: u32| {
        let at = at as usize;
        at > 0 && at < src.len() && (src[at - 1] >= 0x80 || src[at] >= 0x80)
    };
    for t in tokens {
        for at in [t.start, t.end] {
            if touches_non_ascii(at) && breaks.last() != Some(&at) {
                breaks.push(at);
            }
        }
        if t.kind == TokenKind::QuotedLit {
            let text = &src[t.start as usize..t.end as usize];
            if !text.is_ascii() && memchr::memchr(b'\\', text).is_some() {
                // The boundaries of the pieces other than plain text.
                let mut i = 0;
                while i < text.len() {
                    let (kind, len) = string_piece(text, i, true);
                    if kind != StringPiece::Text {
                        for at in [i, i + len] {
                            let at = t.start + at as u32;
                            if at > t.start && at < t.end && touches_non_ascii(at) {
                                pieces.push((at, t.start, t.end));
                            }
                        }
                    }
                    i += len.max(1);
                }
            }
        }
    }
}

/// What a piece of a string literal is, as hcl's string scanner cuts the
/// literal before resolving its escapes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum StringPiece {
    /// A run of plain text.
    Text,
    /// A backslash escape (quoted strings only): `\u` or `\U` with up to
    /// 4 or 8 hex digits, a backslash with one character, or a backslash
    /// at the end.
    Escape,
    /// `$` or `%`, doubled or not, with `{` after a doubled one (`$${` is
    /// the escape of `${`).
    Sigil,
    /// A line break (`\r\n`, `\r` or `\n`).
    LineBreak,
}

/// The piece of string literal `text` that starts at `i`, and its length
/// (`quoted`: a quoted string, where backslashes escape; a template's
/// literal text has no backslash escapes). The one definition of the
/// scanner's cuts: the parser resolves escapes by them, and the lexer
/// counts the columns of diagnostics in pieces.
pub(crate) fn string_piece(text: &[u8], i: usize, quoted: bool) -> (StringPiece, usize) {
    let special = |b: u8| matches!(b, b'$' | b'%' | b'\r' | b'\n') || (quoted && b == b'\\');
    let Some(&b) = text.get(i) else { return (StringPiece::Text, 0) };
    let piece = match b {
        b'\\' if quoted => match text.get(i + 1) {
            Some(&u @ (b'u' | b'U')) => {
                let max = if u == b'u' { 4 } else { 8 };
                (StringPiece::Escape, 2 + text[i + 2..].iter().take(max).take_while(|b| b.is_ascii_hexdigit()).count())
            }
            Some(_) => (StringPiece::Escape, 1 + scanner_utf8_len(&text[i + 1..]).max(1)),
            None => (StringPiece::Escape, 1),
        },
        b'$' | b'%' => match (text.get(i + 1), text.get(i + 2)) {
            (Some(&n), Some(b'{')) if n == b => (StringPiece::Sigil, 3),
            (Some(&n), _) if n == b => (StringPiece::Sigil, 2),
            _ => (StringPiece::Sigil, 1),
        },
        b'\r' if text.get(i + 1) == Some(&b'\n') => (StringPiece::LineBreak, 2),
        b'\r' | b'\n' => (StringPiece::LineBreak, 1),
        _ => (StringPiece::Text, text[i..].iter().position(|&c| special(c)).unwrap_or(text.len() - i)),
    };
    // Pieces never run past the end (a `\` with a character cut short).
    (piece.0, piece.1.min(text.len() - i))
}

struct Lexer<'s> {
    src: &'s [u8],
    pos: usize,
    tokens: Vec<Token>,
    /// States to return to when the current nested state ends.
    stack: Vec<State>,
    braces: i64,
    ret_braces: Vec<i64>,
    heredocs: Vec<Heredoc>,
    bare_top: bool,
}

#[inline]
fn is_ident_start_ascii(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

/// ASCII bytes that continue an identifier: letters, digits, `_`, `-`.
static IDENT_CONTINUE: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = c.is_ascii_alphanumeric() || c == b'_' || c == b'-';
        b += 1;
    }
    t
};

/// Bytes that end a fast run of quoted-string text: sigils, quote,
/// backslash, newlines and every non-ASCII byte (checked separately).
static QUOTED_STOP: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = matches!(c, b'$' | b'%' | b'"' | b'\\' | b'\r' | b'\n') || c >= 0x80;
        b += 1;
    }
    t
};

/// Bytes that end a fast run of template text (heredocs, bare templates).
static PLAIN_STOP: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = matches!(c, b'$' | b'%' | b'\r' | b'\n') || c >= 0x80;
        b += 1;
    }
    t
};

#[inline]
fn is_ident_continue_ascii(b: u8) -> bool {
    IDENT_CONTINUE[b as usize]
}

/// Length of the multi-byte sequence at `s[0..]` as the reference scanner
/// accepts it (lead byte class plus continuation bytes; overlong forms and
/// surrogates included), or 0 when the first byte cannot start one.
#[inline]
fn scanner_utf8_len(s: &[u8]) -> usize {
    let Some(&b0) = s.first() else { return 0 };
    let need = match b0 {
        0x00..=0x7F => return 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => return 0,
    };
    if s.len() < need {
        return 0;
    }
    if s[1..need].iter().all(|&c| (0x80..=0xBF).contains(&c)) {
        need
    } else {
        0
    }
}

/// Length of the non-ASCII identifier character at `s[0..]` per one of the
/// generated pattern tables (the reference's Unicode 9.0 byte patterns,
/// which also let some invalid UTF-8 through), or 0.
fn table_char_len(s: &[u8], table: &[[u8; 8]]) -> usize {
    let Some(&lead) = s.first() else { return 0 };
    let first = table.partition_point(|row| row[0] < lead);
    for row in table.get(first..).unwrap_or(&[]) {
        if row[0] != lead {
            break;
        }
        let n = row[1] as usize;
        if s.len() > n && (0..n).all(|k| (row[2 + 2 * k]..=row[3 + 2 * k]).contains(&s[1 + k])) {
            return 1 + n;
        }
    }
    0
}

/// hclsyntax's `ValidIdentifier`: `s` is one identifier token, as the
/// scanner reads identifiers (`true`, `null`, `for` included).
pub fn valid_identifier(s: &str) -> bool {
    let b = s.as_bytes();
    let first = match b.first() {
        None => return false,
        Some(&c) if is_ident_start_ascii(c) => 1,
        Some(&c) if c >= 0x80 => ident_start_len(b),
        Some(_) => 0,
    };
    if first == 0 {
        return false;
    }
    let mut i = first;
    while i < b.len() {
        let n = if b[i] < 0x80 { usize::from(is_ident_continue_ascii(b[i])) } else { ident_continue_len(&b[i..]) };
        if n == 0 {
            return false;
        }
        i += n;
    }
    true
}

/// A non-ASCII character that can start an identifier: its length, or 0.
fn ident_start_len(s: &[u8]) -> usize {
    table_char_len(s, &ident_tables::ID_START_PATTERNS)
}

/// A non-ASCII character that can continue an identifier: its length, or 0.
fn ident_continue_len(s: &[u8]) -> usize {
    table_char_len(s, &ident_tables::ID_CONTINUE_PATTERNS)
}

impl<'s> Lexer<'s> {
    #[inline]
    fn at(&self, i: usize) -> u8 {
        self.src.get(i).copied().unwrap_or(0)
    }

    #[inline]
    fn emit(&mut self, kind: TokenKind, start: usize, end: usize) {
        self.tokens.push(Token { kind, start: start as u32, end: end as u32 });
    }

    fn push_state(&mut self, next: State, ret: State) -> State {
        self.stack.push(ret);
        next
    }

    fn pop_state(&mut self) -> State {
        self.stack.pop().unwrap_or(if self.bare_top { State::Bare } else { State::Main })
    }

    /// Enters a `${`/`%{` sequence: the matching `}` returns to `ret`.
    fn open_sequence(&mut self, kind: TokenKind, start: usize, ret: State) -> State {
        let len = if self.at(start + 2) == b'~' { 3 } else { 2 };
        self.emit(kind, start, start + len);
        self.pos = start + len;
        self.braces += 1;
        self.ret_braces.push(self.braces);
        if let Some(h) = self.heredocs.last_mut() {
            h.start_of_line = false;
        }
        self.push_state(State::Main, ret)
    }

    /// Scans one token (or skips spaces) in expression context.
    fn main(&mut self) -> State {
        use TokenKind as T;
        let src = self.src;
        let start = self.pos;
        let b = src[start];
        let single = |lx: &mut Self, kind| {
            lx.emit(kind, start, start + 1);
            lx.pos = start + 1;
            State::Main
        };
        match b {
            b' ' | b'\t' => {
                let mut i = start + 1;
                while i < src.len() && (src[i] == b' ' || src[i] == b'\t') {
                    i += 1;
                }
                self.pos = i;
                State::Main
            }
            b'0'..=b'9' => {
                let end = self.number_end(start);
                self.emit(T::NumberLit, start, end);
                self.pos = end;
                State::Main
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                let end = self.ident_end(start + 1);
                self.emit(T::Ident, start, end);
                self.pos = end;
                State::Main
            }
            b'\n' => single(self, T::Newline),
            b'\r' => {
                if self.at(start + 1) == b'\n' {
                    self.emit(T::Newline, start, start + 2);
                    self.pos = start + 2;
                    State::Main
                } else {
                    single(self, T::Invalid)
                }
            }
            b'#' => self.line_comment(start),
            b'/' => match self.at(start + 1) {
                b'/' => self.line_comment(start),
                b'*' => {
                    let body = &src[start + 2..];
                    match memchr_pair(body, b'*', b'/') {
                        Some(i) => {
                            self.pos = start + 2 + i + 2;
                            State::Main
                        }
                        // Unterminated: the reference falls back to `/` then `*`.
                        None => single(self, T::Slash),
                    }
                }
                _ => single(self, T::Slash),
            },
            b'=' => match self.at(start + 1) {
                b'=' => self.two(T::EqualOp, start),
                b'>' => self.two(T::FatArrow, start),
                _ => single(self, T::Equal),
            },
            b'!' => match self.at(start + 1) {
                b'=' => self.two(T::NotEqual, start),
                _ => single(self, T::Bang),
            },
            b'>' => match self.at(start + 1) {
                b'=' => self.two(T::GreaterThanEq, start),
                _ => single(self, T::GreaterThan),
            },
            b'<' => match self.at(start + 1) {
                b'=' => self.two(T::LessThanEq, start),
                b'<' => self.heredoc_intro(start),
                _ => single(self, T::LessThan),
            },
            b'&' => match self.at(start + 1) {
                b'&' => self.two(T::And, start),
                _ => single(self, T::BitwiseAnd),
            },
            b'|' => match self.at(start + 1) {
                b'|' => self.two(T::Or, start),
                _ => single(self, T::BitwiseOr),
            },
            b'~' => match self.at(start + 1) {
                b'}' => {
                    self.emit(T::TemplateSeqEnd, start, start + 2);
                    self.pos = start + 2;
                    if self.ret_braces.last() == Some(&self.braces) {
                        self.braces -= 1;
                        self.ret_braces.pop();
                        self.pop_state()
                    } else {
                        // A `~}` closing a plain brace: still a sequence end,
                        // so the parser can report the mismatch.
                        self.braces -= 1;
                        State::Main
                    }
                }
                _ => single(self, T::BitwiseNot),
            },
            b'.' => {
                if self.at(start + 1) == b'.' && self.at(start + 2) == b'.' {
                    self.emit(T::Ellipsis, start, start + 3);
                    self.pos = start + 3;
                    State::Main
                } else {
                    single(self, T::Dot)
                }
            }
            b'{' => {
                self.braces += 1;
                single(self, T::OBrace)
            }
            b'}' => {
                if self.ret_braces.last() == Some(&self.braces) {
                    self.emit(T::TemplateSeqEnd, start, start + 1);
                    self.pos = start + 1;
                    self.braces -= 1;
                    self.ret_braces.pop();
                    self.pop_state()
                } else {
                    self.braces -= 1;
                    single(self, T::CBrace)
                }
            }
            b'"' => {
                self.emit(T::OQuote, start, start + 1);
                self.pos = start + 1;
                self.push_state(State::Quoted, State::Main)
            }
            b'[' => single(self, T::OBrack),
            b']' => single(self, T::CBrack),
            b'(' => single(self, T::OParen),
            b')' => single(self, T::CParen),
            b',' => single(self, T::Comma),
            b'*' => single(self, T::Star),
            b'%' => single(self, T::Percent),
            b'+' => single(self, T::Plus),
            b'-' => single(self, T::Minus),
            b'?' => single(self, T::Question),
            b':' => match self.at(start + 1) {
                b':' => self.two(T::DoubleColon, start),
                _ => single(self, T::Colon),
            },
            b'^' => single(self, T::BitwiseXor),
            b';' => single(self, T::Semicolon),
            b'`' => single(self, T::Backtick),
            b'\'' => single(self, T::Apostrophe),
            0x00..=0x7F => single(self, T::Invalid),
            _ => {
                let id = ident_start_len(&src[start..]);
                if id > 0 {
                    let end = self.ident_end(start + id);
                    self.emit(T::Ident, start, end);
                    self.pos = end;
                    return State::Main;
                }
                let len = scanner_utf8_len(&src[start..]);
                if len == 0 {
                    return single(self, T::BadUtf8);
                }
                self.emit(T::Invalid, start, start + len);
                self.pos = start + len;
                State::Main
            }
        }
    }

    fn two(&mut self, kind: TokenKind, start: usize) -> State {
        self.emit(kind, start, start + 2);
        self.pos = start + 2;
        State::Main
    }

    fn line_comment(&mut self, start: usize) -> State {
        match memchr::memchr(b'\n', &self.src[start..]) {
            Some(i) => {
                let end = start + i + 1;
                self.emit(TokenKind::Newline, start, end);
                self.pos = end;
            }
            None => self.pos = self.src.len(),
        }
        State::Main
    }

    /// `<<ID` or `<<-ID` followed by a newline opens a heredoc; otherwise `<`.
    fn heredoc_intro(&mut self, start: usize) -> State {
        let src = self.src;
        let mut i = start + 2;
        if self.at(i) == b'-' {
            i += 1;
        }
        let marker_start = i;
        let marker_end = self.ident_at(i);
        let nl_end = if marker_end > marker_start {
            match (self.at(marker_end), self.at(marker_end + 1)) {
                (b'\n', _) => Some(marker_end + 1),
                (b'\r', b'\n') => Some(marker_end + 2),
                _ => None,
            }
        } else {
            None
        };
        match nl_end {
            Some(end) if end <= src.len() => {
                self.emit(TokenKind::OHeredoc, start, end);
                self.pos = end;
                self.heredocs.push(Heredoc { marker_start, marker_end, start_of_line: true });
                self.push_state(State::Heredoc, State::Main)
            }
            _ => {
                self.emit(TokenKind::LessThan, start, start + 1);
                self.pos = start + 1;
                State::Main
            }
        }
    }

    /// End of an identifier starting at `i` (== `i` when none starts there).
    fn ident_at(&self, i: usize) -> usize {
        let b = self.at(i);
        if i >= self.src.len() {
            return i;
        }
        if is_ident_start_ascii(b) {
            return self.ident_end(i + 1);
        }
        if b >= 0x80 {
            let len = ident_start_len(&self.src[i..]);
            if len > 0 {
                return self.ident_end(i + len);
            }
        }
        i
    }

    /// Extends an identifier whose first character ends at `i`.
    #[inline]
    fn ident_end(&self, mut i: usize) -> usize {
        let src = self.src;
        loop {
            while i < src.len() && is_ident_continue_ascii(src[i]) {
                i += 1;
            }
            if i < src.len() && src[i] >= 0x80 {
                let len = ident_continue_len(&src[i..]);
                if len > 0 {
                    i += len;
                    continue;
                }
            }
            return i;
        }
    }

    /// A number is a digit followed by digits, dots and exponents
    /// (`e`, `e+`, `e-` then a digit), not ending in a dot.
    fn number_end(&self, start: usize) -> usize {
        let src = self.src;
        let mut i = start + 1;
        let mut good = i;
        loop {
            match self.at(i) {
                b'0'..=b'9' if i < src.len() => {
                    i += 1;
                    good = i;
                }
                b'.' if i < src.len() => i += 1,
                b'e' | b'E' => {
                    let mut j = i + 1;
                    if matches!(self.at(j), b'+' | b'-') {
                        j += 1;
                    }
                    if j < src.len() && self.at(j).is_ascii_digit() {
                        i = j + 1;
                        good = i;
                    } else {
                        return good;
                    }
                }
                _ => return good,
            }
        }
    }

    /// Inside `"..."`.
    fn quoted(&mut self) -> State {
        use TokenKind as T;
        let src = self.src;
        let start = self.pos;
        let b = src[start];
        match b {
            b'$' | b'%' => {
                let kind = if b == b'$' { T::TemplateInterp } else { T::TemplateControl };
                match self.at(start + 1) {
                    b'{' if start + 1 < src.len() => self.open_sequence(kind, start, State::Quoted),
                    _ => {
                        self.escape_or_sigil(start, T::QuotedLit, T::Invalid);
                        State::Quoted
                    }
                }
            }
            b'"' => {
                self.emit(T::CQuote, start, start + 1);
                self.pos = start + 1;
                self.pop_state()
            }
            b'\r' | b'\n' => {
                let mut i = start + 1;
                while i < src.len() && (src[i] == b'\r' || src[i] == b'\n') {
                    i += 1;
                }
                self.emit(T::QuotedNewline, start, i);
                self.pos = i;
                State::Quoted
            }
            _ => {
                let end = self.quoted_run(start);
                if end > start {
                    self.emit(T::QuotedLit, start, end);
                    self.pos = end;
                } else if b >= 0x80 && scanner_utf8_len(&src[start..]) == 0 {
                    self.emit(T::BadUtf8, start, start + 1);
                    self.pos = start + 1;
                } else {
                    // A backslash that escapes nothing (before a newline, a
                    // bad byte or the end).
                    self.emit(T::Invalid, start, start + 1);
                    self.pos = start + 1;
                }
                State::Quoted
            }
        }
    }

    /// `$`/`%` not opening a sequence: `$${`/`%%{` (with optional `~`) is
    /// one literal token, a lone sigil another. At the end of input a lone
    /// sigil is `at_eof`.
    fn escape_or_sigil(&mut self, start: usize, lit: TokenKind, at_eof: TokenKind) {
        let b = self.src[start];
        if start + 1 >= self.src.len() {
            self.emit(at_eof, start, start + 1);
            self.pos = start + 1;
            return;
        }
        if self.at(start + 1) == b && self.at(start + 2) == b'{' && start + 2 < self.src.len() {
            let len = if self.at(start + 3) == b'~' && start + 3 < self.src.len() { 4 } else { 3 };
            self.emit(lit, start, start + len);
            self.pos = start + len;
            return;
        }
        self.emit(lit, start, start + 1);
        self.pos = start + 1;
    }

    /// End of a run of quoted-string characters and backslash escapes.
    fn quoted_run(&self, start: usize) -> usize {
        let src = self.src;
        let mut i = start;
        loop {
            while i < src.len() && !QUOTED_STOP[src[i] as usize] {
                i += 1;
            }
            if i >= src.len() {
                return i;
            }
            match src[i] {
                b'\\' => {
                    let c = self.at(i + 1);
                    if i + 1 >= src.len() || c == b'\r' || c == b'\n' {
                        return i;
                    }
                    let len = scanner_utf8_len(&src[i + 1..]);
                    if len == 0 {
                        return i;
                    }
                    i += 1 + len;
                }
                b if b >= 0x80 => {
                    let len = scanner_utf8_len(&src[i..]);
                    if len == 0 {
                        return i;
                    }
                    i += len;
                }
                _ => return i,
            }
        }
    }

    /// End of a run of template literal characters (no `$ % \r \n`, valid
    /// scanner UTF-8).
    #[inline]
    fn plain_run(&self, start: usize) -> usize {
        let src = self.src;
        let mut i = start;
        loop {
            while i < src.len() && !PLAIN_STOP[src[i] as usize] {
                i += 1;
            }
            if i < src.len() && src[i] >= 0x80 {
                let len = scanner_utf8_len(&src[i..]);
                if len > 0 {
                    i += len;
                    continue;
                }
            }
            return i;
        }
    }

    /// A newline (`\n` or `\r\n`) at `i`: its end.
    fn newline_at(&self, i: usize) -> Option<usize> {
        match (self.at(i), self.at(i + 1)) {
            (b'\n', _) if i < self.src.len() => Some(i + 1),
            (b'\r', b'\n') => Some(i + 2),
            _ => None,
        }
    }

    /// The start of a template literal token (heredoc or bare): a sigil
    /// token, or a run of plain characters. Returns its end, or `None` when
    /// nothing literal starts here, and whether a newline right after it
    /// belongs to the token.
    fn template_literal_end(&self, start: usize) -> Option<(usize, bool)> {
        let src = self.src;
        let b = src[start];
        if b == b'$' || b == b'%' {
            if start + 1 >= src.len() {
                return None;
            }
            if self.at(start + 1) == b && self.at(start + 2) == b'{' && start + 2 < src.len() {
                let len = if self.at(start + 3) == b'~' && start + 3 < src.len() { 4 } else { 3 };
                return Some((start + len, true));
            }
            // The reference scanner reads a sigil and the byte after it
            // (`'%' ^'{'`, whose leaving action steps back one byte), and
            // may go on only into a newline. So the byte after the sigil
            // belongs to its token when a line break (`\r` or `\n`) comes
            // next, and the newline is a token of its own (`%{~` after
            // it trims only the newline: "% \n" keeps its space; after
            // "%%\r\r" the scanner stops at the first `\r`, not the
            // second); otherwise the sigil is a token alone, and a newline
            // right after it is a token of its own too.
            let next = self.at(start + 1);
            let after = self.at(start + 2);
            if next.is_ascii() && next != b'{' && start + 2 < src.len() && matches!(after, b'\r' | b'\n') {
                return Some((start + 2, false));
            }
            if self.newline_at(start + 1).is_some() {
                return Some((start + 1, false));
            }
            return Some((start + 1, true));
        }
        Some((self.plain_run(start), true))
    }

    /// Inside a heredoc body.
    fn heredoc(&mut self) -> State {
        use TokenKind as T;
        let src = self.src;
        let start = self.pos;
        let b = src[start];
        if (b == b'$' || b == b'%') && self.at(start + 1) == b'{' && start + 1 < src.len() {
            let kind = if b == b'$' { T::TemplateInterp } else { T::TemplateControl };
            return self.open_sequence(kind, start, State::Heredoc);
        }
        let Some((lit_end, with_newline)) = self.template_literal_end(start) else {
            return self.scanner_stuck(start);
        };
        if let Some(end) = self.newline_at(lit_end).filter(|_| with_newline) {
            let Some(h) = self.heredocs.last_mut() else {
                self.pos = src.len();
                return State::Heredoc;
            };
            if h.start_of_line {
                let line = trim_space(&src[start..end]);
                if line == &src[h.marker_start..h.marker_end] {
                    let nl_start = if src[end - 1] == b'\n' && end >= 2 && src[end - 2] == b'\r' { end - 2 } else { end - 1 };
                    self.emit(T::CHeredoc, start, nl_start);
                    self.emit(T::Newline, nl_start, end);
                    self.pos = end;
                    self.heredocs.pop();
                    return self.pop_state();
                }
            }
            h.start_of_line = true;
            self.emit(T::StringLit, start, end);
            self.pos = end;
            return State::Heredoc;
        }
        if lit_end > start {
            if let Some(h) = self.heredocs.last_mut() {
                h.start_of_line = false;
            }
            self.emit(T::StringLit, start, lit_end);
            self.pos = lit_end;
            return State::Heredoc;
        }
        if b >= 0x80 && scanner_utf8_len(&src[start..]) == 0 {
            self.emit(T::BadUtf8, start, start + 1);
            self.pos = start + 1;
            return State::Heredoc;
        }
        self.scanner_stuck(start)
    }

    /// Top level of a bare template.
    fn bare(&mut self) -> State {
        use TokenKind as T;
        let src = self.src;
        let start = self.pos;
        let b = src[start];
        if (b == b'$' || b == b'%') && self.at(start + 1) == b'{' && start + 1 < src.len() {
            let kind = if b == b'$' { T::TemplateInterp } else { T::TemplateControl };
            return self.open_sequence(kind, start, State::Bare);
        }
        let Some((lit_end, with_newline)) = self.template_literal_end(start) else {
            return self.scanner_stuck(start);
        };
        let end = self.newline_at(lit_end).filter(|_| with_newline).unwrap_or(lit_end);
        if end > start {
            self.emit(T::StringLit, start, end);
            self.pos = end;
            return State::Bare;
        }
        if b >= 0x80 && scanner_utf8_len(&src[start..]) == 0 {
            self.emit(T::BadUtf8, start, start + 1);
            self.pos = start + 1;
            return State::Bare;
        }
        self.scanner_stuck(start)
    }

    /// No rule matches here (a lone `\r` in a template, a sigil at the end):
    /// the reference scanner stops, and the rest of the input becomes one
    /// token — literal text at the top level of a bare template, otherwise
    /// an invalid token.
    fn scanner_stuck(&mut self, start: usize) -> State {
        let kind = if self.bare_top && self.stack.is_empty() { TokenKind::StringLit } else { TokenKind::Invalid };
        self.emit(kind, start, self.src.len());
        self.pos = self.src.len();
        State::Main
    }
}

/// Position of the first `a` immediately followed by `b`.
fn memchr_pair(hay: &[u8], a: u8, b: u8) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = memchr::memchr(a, &hay[from..]) {
        let at = from + i;
        if hay.get(at + 1) == Some(&b) {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// Trims Unicode white space from both ends (invalid UTF-8 is left alone).
pub(crate) fn trim_space(s: &[u8]) -> &[u8] {
    match std::str::from_utf8(s) {
        Ok(t) => t.trim_matches(char::is_whitespace).as_bytes(),
        Err(_) => s.trim_ascii(),
    }
}

impl TokenKind {
    /// Kinds reported before parsing (the reference's pre-parse check,
    /// [`Scanner::finish`]).
    pub fn is_reported_invalid(self) -> bool {
        use TokenKind as T;
        matches!(
            self,
            T::BitwiseAnd
                | T::BitwiseOr
                | T::BitwiseXor
                | T::BitwiseNot
                | T::Backtick
                | T::Apostrophe
                | T::Semicolon
                | T::BadUtf8
                | T::QuotedNewline
                | T::Invalid
        )
    }
}

/// The reference's pre-parse check (diagnostics for tokens that never
/// belong in HCL, with its limits on repetition), across the windows of a
/// [`Scanner`]: how often each kind was reported so far.
#[derive(Default)]
struct InvalidTokens {
    told_bitwise: u32,
    told_backtick: u32,
    told_apostrophe: u32,
    told_semicolon: u32,
    told_bad_utf8: u32,
}

impl InvalidTokens {
    /// Reports the invalid tokens among `tokens`, which follow those
    /// reported before.
    fn report(&mut self, src: &[u8], tokens: &[Token], diags: &mut Vec<Diagnostic>) {
        if !tokens.iter().any(|t| t.kind.is_reported_invalid()) {
            return;
        }
        let InvalidTokens { told_bitwise, told_backtick, told_apostrophe, told_semicolon, told_bad_utf8 } = self;
        for tok in tokens {
            let subject = Some(tok.span());
            match tok.kind {
            TokenKind::BitwiseAnd | TokenKind::BitwiseOr | TokenKind::BitwiseXor | TokenKind::BitwiseNot if *told_bitwise < 4 => {
                let suggestion = match tok.kind {
                    TokenKind::BitwiseAnd => " Did you mean boolean AND (\"&&\")?",
                    TokenKind::BitwiseOr => " Did you mean boolean OR (\"||\")?",
                    TokenKind::BitwiseNot => " Did you mean boolean NOT (\"!\")?",
                    _ => "",
                };
                diags.push(Diagnostic::error(
                    "Unsupported operator",
                    format!("Bitwise operators are not supported.{suggestion}"),
                    subject,
                ));
                *told_bitwise += 1;
            }
            TokenKind::Backtick => {
                if *told_backtick % 2 == 0 {
                    diags.push(Diagnostic::error(
                        "Invalid character",
                        "The \"`\" character is not valid. To create a multi-line string, use the \"heredoc\" syntax, like \"<<EOT\".",
                        subject,
                    ));
                }
                if *told_backtick <= 2 {
                    *told_backtick += 1;
                }
            }
            TokenKind::Apostrophe => {
                if *told_apostrophe % 2 == 0 {
                    diags.push(Diagnostic::error(
                        "Invalid character",
                        "Single quotes are not valid. Use double quotes (\") to enclose strings.",
                        subject,
                    ));
                }
                if *told_apostrophe <= 2 {
                    *told_apostrophe += 1;
                }
            }
            TokenKind::Semicolon if *told_semicolon < 1 => {
                diags.push(Diagnostic::error(
                    "Invalid character",
                    "The \";\" character is not valid. Use newlines to separate arguments and blocks, and commas to separate items in collection values.",
                    subject,
                ));
                *told_semicolon += 1;
            }
            TokenKind::BadUtf8 if *told_bad_utf8 < 1 => {
                diags.push(Diagnostic::error(
                    "Invalid character encoding",
                    "All input files must be UTF-8 encoded. Ensure that UTF-8 encoding is selected in your editor.",
                    subject,
                ));
                *told_bad_utf8 += 1;
            }
            TokenKind::QuotedNewline => diags.push(Diagnostic::error(
                "Invalid multi-line string",
                "Quoted strings may not be split over multiple lines. To produce a multi-line string, either use the \\n escape to represent a newline character or use the \"heredoc\" multi-line template syntax.",
                subject,
            )),
            TokenKind::Invalid => {
                let text = src.get(tok.start as usize..tok.end as usize).unwrap_or(&[]);
                let detail = if text == "\u{201C}".as_bytes() || text == "\u{201D}".as_bytes() {
                    "\"Curly quotes\" are not valid here. These can sometimes be inadvertently introduced when sharing code via documents or discussion forums. It might help to replace the character with a \"straight quote\"."
                } else {
                    "This character is not used within the language."
                };
                diags.push(Diagnostic::error("Invalid character", detail, subject));
            }
            _ => {}
        }
        }
    }
}

#[cfg(test)]
mod tests;
