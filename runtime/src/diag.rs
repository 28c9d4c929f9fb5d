//! Diagnostics shared by every stage (parse, compile, evaluate).
//!
//! A diagnostic carries byte spans; line and column are computed on demand from
//! the source with [`LineIndex`], so the hot paths never count lines.

use std::borrow::Cow;
use std::fmt;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

/// A half-open byte range `start..end` into one source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub const fn new(start: u32, end: u32) -> Span {
        Span { start, end }
    }
    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span { start: self.start.min(other.start), end: self.end.max(other.end) }
    }
    pub fn len(self) -> u32 {
        self.end.saturating_sub(self.start)
    }
    pub fn is_empty(self) -> bool {
        self.end <= self.start
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Severity {
    Error,
    Warning,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// One problem found in a source, modelled on hcl's `hcl.Diagnostic`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// A short sentence, e.g. "Unsupported attribute" (most are fixed
    /// texts: no allocation for them).
    pub summary: Cow<'static, str>,
    /// A longer explanation; may be empty.
    pub detail: String,
    /// What the problem is about, when it has a place in the source.
    pub subject: Option<Span>,
    /// A wider range giving the subject's context (e.g. the whole expression).
    pub context: Option<Span>,
}

impl Diagnostic {
    pub fn error(summary: impl Into<Cow<'static, str>>, detail: impl Into<String>, subject: Option<Span>) -> Self {
        Diagnostic { severity: Severity::Error, summary: summary.into(), detail: detail.into(), subject, context: None }
    }
    pub fn warning(summary: impl Into<Cow<'static, str>>, detail: impl Into<String>, subject: Option<Span>) -> Self {
        Diagnostic { severity: Severity::Warning, summary: summary.into(), detail: detail.into(), subject, context: None }
    }
    pub fn with_context(mut self, context: Span) -> Self {
        self.context = Some(context);
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.severity.as_str(), self.summary)?;
        if !self.detail.is_empty() {
            write!(f, "; {}", self.detail)?;
        }
        Ok(())
    }
}

/// A bag of diagnostics with the queries hosts ask of it.
pub trait DiagnosticsExt {
    fn has_errors(&self) -> bool;
}

impl DiagnosticsExt for [Diagnostic] {
    fn has_errors(&self) -> bool {
        self.iter().any(Diagnostic::is_error)
    }
}

/// A position as hcl reports it: 1-based line, 1-based column counted in
/// grapheme clusters, 0-based byte offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pos {
    pub line: u32,
    pub column: u32,
    pub byte: u32,
}

/// Where hcl counts grapheme clusters anew although the text runs on:
/// it counts columns token by token, so a cluster never spans two tokens
/// (a combining mark right after a quote starts a column), and places an
/// escape sequence's diagnostic by counting its string token's pieces
/// (escapes, runs of text) one by one. Found by
/// `compiler::lexer::cluster_breaks`; empty for ASCII sources.
/// (Shared: a compiled source's programs, its diagnostics and its result
/// writer each keep them.)
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClusterBreaks {
    /// Token boundaries next to non-ASCII text, sorted.
    pub tokens: std::sync::Arc<[u32]>,
    /// Boundaries of pieces inside quoted string tokens, next to
    /// non-ASCII text, each with its token's start and end; sorted. They
    /// count for positions inside that token only: the scanner counts the
    /// whole token for what follows it.
    pub pieces: std::sync::Arc<[(u32, u32, u32)]>,
}

/// Line starts of one source, to turn byte offsets into [`Pos`].
#[derive(Debug)]
pub struct LineIndex {
    line_starts: Vec<u32>,
    /// Where grapheme clusters are counted anew.
    breaks: ClusterBreaks,
    /// The line of the last offset looked up: positions are mostly asked
    /// for in source order (a diagnostic's start and end, then the next
    /// diagnostic's), so the line is that one or the next far more often
    /// than not, and a search over every line is the exception.
    last_line: AtomicU32,
    /// The last places columns were counted up to where counting may
    /// restart (a token boundary, a line start, or an offset reached
    /// through ASCII text where a character starts), with the column count
    /// there (the offset in the high half), the latest last: the next position
    /// asked for is mostly further on the same line than one of them (a
    /// diagnostic's, or the one before, when a diagnostic names where an
    /// earlier one is), and counting from the line's start each time made a
    /// long line of many diagnostics quadratic.
    counted: [AtomicU64; COUNTED_PLACES],
    /// The slot of `counted` written next.
    next_counted: AtomicU32,
}

/// How far into a line (bytes) a position must be for [`LineIndex`] to
/// count its column on from a remembered place (and remember one).
const FAR_INTO_LINE: usize = 256;

/// How many places [`LineIndex`] remembers counting up to.
const COUNTED_PLACES: usize = 4;

impl Clone for LineIndex {
    fn clone(&self) -> Self {
        LineIndex {
            line_starts: self.line_starts.clone(),
            breaks: self.breaks.clone(),
            last_line: AtomicU32::new(self.last_line.load(Ordering::Relaxed)),
            counted: std::array::from_fn(|i| AtomicU64::new(self.counted[i].load(Ordering::Relaxed))),
            next_counted: AtomicU32::new(self.next_counted.load(Ordering::Relaxed)),
        }
    }
}

impl LineIndex {
    pub fn new(src: &[u8]) -> LineIndex {
        LineIndex::with_breaks(src, ClusterBreaks::default())
    }

    /// A line index whose columns restart cluster counting at `breaks`.
    pub fn with_breaks(src: &[u8], breaks: ClusterBreaks) -> LineIndex {
        // One pass, sized for lines of 32 bytes (configuration lines are
        // shorter than that on average, so it rarely regrows: a counting
        // pass first cost as much as the pass itself).
        let mut line_starts = Vec::with_capacity(src.len() / 32 + 1);
        line_starts.push(0u32);
        line_starts.extend(memchr::memchr_iter(b'\n', src).map(|i| i as u32 + 1));
        LineIndex {
            line_starts,
            breaks,
            last_line: AtomicU32::new(0),
            counted: std::array::from_fn(|_| AtomicU64::new(0)),
            next_counted: AtomicU32::new(0),
        }
    }

    /// The position of byte offset `byte` (clamped to the source). Columns count
    /// grapheme clusters like hcl does: anew at each token boundary, and
    /// inside a quoted string token at each of its pieces.
    pub fn pos(&self, src: &[u8], byte: u32) -> Pos {
        let byte = byte.min(src.len() as u32);
        self.pos_counted(src, byte, self.literal_token_holding(byte))
    }

    /// The positions of `span`'s ends. A span that starts inside a quoted
    /// string token and ends by its end (an escape sequence) has its end
    /// counted piece by piece too, as hcl counts it, even at the token's
    /// end, where what follows the token is counted otherwise.
    pub fn span_pos(&self, src: &[u8], span: Span) -> (Pos, Pos) {
        let start = self.pos(src, span.start);
        let end = span.end.min(src.len() as u32);
        // (A span from the token's start to its end is the whole token, or
        // one piece of it: counted either way alike.)
        let token = self.literal_token_holding(span.start.min(end)).filter(|&(_, tok_end)| end <= tok_end);
        (start, self.pos_counted(src, end, token))
    }

    /// The quoted string token with pieces that holds `byte` strictly
    /// inside: its start and end.
    fn literal_token_holding(&self, byte: u32) -> Option<(u32, u32)> {
        let after = self.breaks.pieces.partition_point(|&(_, tok_start, _)| tok_start <= byte);
        let &(_, tok_start, tok_end) = self.breaks.pieces[..after].last()?;
        (tok_start < byte && byte < tok_end).then_some((tok_start, tok_end))
    }

    fn pos_counted(&self, src: &[u8], byte: u32, literal_token: Option<(u32, u32)>) -> Pos {
        let line = self.line_of(byte);
        let mut start = self.line_starts[line] as usize;
        // hcl skips a byte order mark at the start without counting a column.
        if start == 0 && byte >= 3 && src.starts_with(b"\xEF\xBB\xBF") {
            start = 3;
        }
        // Counted on from the last place counted up to, when that is on
        // this line and not past `byte`.
        // (Not past the start of the string token whose pieces count: a
        // place is counted without them.)
        let (mut column, mut from) = (0, start);
        let upto = literal_token.map_or(byte, |(tok_start, _)| tok_start.min(byte)) as usize;
        // (Each place is one atomic word: threads placing positions at
        // once may overwrite each other's, never mix two. Within the
        // first bytes of a line, counting from its start is as quick.)
        let far = (byte as usize).saturating_sub(start) >= FAR_INTO_LINE;
        for place in self.counted.iter().filter(|_| far) {
            let place = place.load(Ordering::Relaxed);
            let (at, counted) = ((place >> 32) as usize, place as u32);
            if at > from && at <= upto {
                (column, from) = (counted, at);
            }
        }
        // Clusters are counted anew at each break.
        let count_to = |b: u32, column: &mut u32, from: &mut usize| {
            if b as usize > *from {
                *column += grapheme_count(&src[*from..b as usize]);
                *from = b as usize;
            }
        };
        let tokens = &self.breaks.tokens;
        let (lo, hi) = (tokens.partition_point(|&b| (b as usize) <= from), tokens.partition_point(|&b| b < byte));
        for &b in tokens.get(lo..hi).unwrap_or_default() {
            count_to(b, &mut column, &mut from);
        }
        // Where counting may go on from next time: the last token
        // boundary, or `byte` itself when the text up to it from there is
        // ASCII and a character starts there (one column per byte, no
        // cluster across it).
        if far {
            let tail = &src[from..byte as usize];
            let on_from_byte =
                literal_token.is_none() && tail.is_ascii() && src.get(byte as usize).map_or(true, |b| b.is_ascii() && *b != b'\n');
            let place = if on_from_byte { (byte as usize, column + tail.len() as u32) } else { (from, column) };
            self.remember_counted(place);
        }
        // Then the pieces of the string token `byte` is in, if that counts.
        let (tok_start, first) = match literal_token {
            Some((tok_start, _)) => (tok_start, self.breaks.pieces.partition_point(|&(_, s, _)| s < tok_start)),
            None => (0, self.breaks.pieces.len()),
        };
        for &(b, _, _) in self.breaks.pieces[first..].iter().take_while(|&&(b, s, _)| s == tok_start && b < byte) {
            count_to(b, &mut column, &mut from);
        }
        count_to(byte, &mut column, &mut from);
        Pos { line: line as u32 + 1, column: column + 1, byte }
    }

    /// Remembers that `column` columns are counted up to offset `at` (see
    /// [`LineIndex::counted`]).
    fn remember_counted(&self, (at, column): (usize, u32)) {
        let place = ((at as u64) << 32) | u64::from(column);
        if self.counted.iter().any(|p| p.load(Ordering::Relaxed) == place) {
            return;
        }
        let i = self.next_counted.load(Ordering::Relaxed);
        self.next_counted.store(i.wrapping_add(1), Ordering::Relaxed);
        self.counted[i as usize % COUNTED_PLACES].store(place, Ordering::Relaxed);
    }

    /// hcl's `Range.String()` of `span` in the file `filename`:
    /// `file:line,col-col`, or `file:line,col-line,col` when the range
    /// ends on another line.
    pub fn range_text(&self, src: &[u8], filename: &str, span: Span) -> String {
        let (a, b) = self.span_pos(src, span);
        if a.line == b.line {
            format!("{filename}:{},{}-{}", a.line, a.column, b.column)
        } else {
            format!("{filename}:{},{}-{},{}", a.line, a.column, b.line, b.column)
        }
    }

    /// The 0-based line number holding `byte`.
    pub fn line_of(&self, byte: u32) -> usize {
        let holds = |line: usize| {
            self.line_starts.get(line).is_some_and(|&start| start <= byte)
                && self.line_starts.get(line + 1).map_or(true, |&next| byte < next)
        };
        let last = self.last_line.load(Ordering::Relaxed) as usize;
        let line = if holds(last) {
            return last;
        } else if holds(last + 1) {
            last + 1
        } else {
            match self.line_starts.binary_search(&byte) {
                Ok(i) => i,
                Err(i) => i - 1,
            }
        };
        self.last_line.store(line as u32, Ordering::Relaxed);
        line
    }

    /// Byte range of line `line` (0-based), without its newline.
    pub fn line_range(&self, src: &[u8], line: usize) -> (usize, usize) {
        let start = self.line_starts[line] as usize;
        let mut end = self.line_starts.get(line + 1).map(|&e| e as usize - 1).unwrap_or(src.len());
        if end > start && src.get(end - 1) == Some(&b'\r') {
            end -= 1;
        }
        (start, end.max(start))
    }
}

/// Counts columns as hcl does: grapheme clusters (go-textseg v15, see
/// [`crate::graphemes`]), reading invalid UTF-8 as go-textseg does.
fn grapheme_count(bytes: &[u8]) -> u32 {
    if bytes.is_ascii() {
        return bytes.len() as u32;
    }
    crate::graphemes::count_bytes(bytes, crate::graphemes::Textseg::V15) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Columns counted on from places remembered agree with columns
    /// counted from the line's start, whatever the order of lookups.
    #[test]
    fn columns_agree_with_a_fresh_count_in_any_lookup_order() {
        for seed in 1..40 {
            columns_agree_for(seed);
        }
    }

    fn columns_agree_for(id: u32) {
        let mut seed = id;
        let parts = ["a", "b ", "é", "e\u{301}", "\r", "\n", "🙂", "= ", "\u{301}", "x\u{200d}y"];
        let mut src = String::new();
        let mut next = || {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
            seed >> 16
        };
        // Some sources start with a byte order mark (not a column).
        if id % 3 == 0 {
            src.push('\u{feff}');
        }
        // Half the sources have long lines (columns are counted on from
        // remembered places only far into a line).
        let parts: Vec<&str> = parts.into_iter().filter(|p| id % 2 == 0 || *p != "\n").collect();
        for _ in 0..600 {
            src.push_str(parts[next() as usize % parts.len()]);
        }
        let src = src.as_bytes();
        let chars: Vec<u32> = (0..=src.len()).filter(|&i| i == src.len() || (src[i] as i8) >= -0x40).map(|i| i as u32).collect();
        let tokens: Vec<u32> = chars.iter().copied().filter(|_| next() % 5 == 0).collect();
        // Two quoted tokens with pieces.
        let (t1, t2) = (chars[chars.len() / 4], chars[chars.len() / 2]);
        let (e1, e2) = (chars[chars.len() / 4 + 30], chars[chars.len() / 2 + 40]);
        let mut pieces: Vec<(u32, u32, u32)> = Vec::new();
        for (s, e) in [(t1, e1), (t2, e2)] {
            pieces.extend(chars.iter().copied().filter(|&c| c > s && c < e && next() % 3 == 0).map(|c| (c, s, e)));
        }
        let breaks = ClusterBreaks { tokens: tokens.into(), pieces: pieces.into() };
        let shared = LineIndex::with_breaks(src, breaks.clone());
        let mut offsets: Vec<u32> = chars.clone();
        offsets.extend(chars.iter().rev());
        offsets.extend((0..chars.len()).map(|i| chars[i * 7919 % chars.len()]));
        for byte in offsets {
            let fresh = LineIndex::with_breaks(src, breaks.clone());
            assert_eq!(shared.pos(src, byte), fresh.pos(src, byte), "seed {id}, offset {byte}");
            let span = Span { start: byte.saturating_sub(1 + next() % 8).max(chars[0]), end: byte };
            if chars.contains(&span.start) {
                assert_eq!(
                    shared.span_pos(src, span),
                    LineIndex::with_breaks(src, breaks.clone()).span_pos(src, span),
                    "seed {id}, {span:?}"
                );
            }
        }
    }

    /// Lines looked up from the last line asked for agree with a plain
    /// count, whatever the order of lookups.
    #[test]
    fn lines_agree_with_a_plain_count_in_any_lookup_order() {
        let mut src = Vec::new();
        let mut seed = 7u32;
        for _ in 0..2000 {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
            src.push(match seed >> 28 {
                0..=2 => b'\n',
                3 => b'\r',
                4 => 0x8A, // `\n` with the high bit set: not a line break
                5 => 0x0B, // one above `\n`
                _ => b'a' + (seed >> 16) as u8 % 26,
            });
        }
        let idx = LineIndex::new(&src);
        let plain_line = |byte: usize| src[..byte].iter().filter(|&&b| b == b'\n').count();
        let mut offsets: Vec<usize> = (0..=src.len()).collect();
        // Forwards, backwards, then jumping about.
        offsets.extend((0..=src.len()).rev());
        offsets.extend((0..=src.len()).map(|i| i * 7919 % (src.len() + 1)));
        for byte in offsets {
            assert_eq!(idx.line_of(byte as u32), plain_line(byte), "offset {byte}");
            assert_eq!(idx.pos(&src, byte as u32).line as usize, plain_line(byte) + 1, "offset {byte}");
        }
        // A source ending without a line break, and one with a break last.
        for src in [&b"a\nb"[..], &b"a\n"[..], &b""[..]] {
            let idx = LineIndex::new(src);
            for byte in (0..=src.len()).rev() {
                assert_eq!(idx.line_of(byte as u32), src[..byte].iter().filter(|&&b| b == b'\n').count());
            }
        }
    }

    #[test]
    fn positions_count_lines_columns_and_bytes() {
        let src = b"a = 1\nbb = \"\xc3\xa9x\"\n";
        let idx = LineIndex::new(src);
        assert_eq!(idx.pos(src, 0), Pos { line: 1, column: 1, byte: 0 });
        assert_eq!(idx.pos(src, 6), Pos { line: 2, column: 1, byte: 6 });
        // after `bb = "é` the column is 7 (é is one character of two bytes)
        assert_eq!(idx.pos(src, 14), Pos { line: 2, column: 8, byte: 14 });
        assert_eq!(idx.line_range(src, 1), (6, 16));
    }

    #[test]
    fn columns_count_clusters_and_invalid_bytes_like_hcl() {
        let src = "\"\u{1F469}\u{200D}\u{1F469}\u{200D}\u{1F467}x".as_bytes();
        let idx = LineIndex::new(src);
        assert_eq!(idx.pos(src, src.len() as u32 - 1).column, 3);
        let src = b" \xef\xbf\xef\xbf\xbd";
        let idx = LineIndex::new(src);
        assert_eq!(idx.pos(src, 3).column, 4);
    }

    #[test]
    fn clusters_are_counted_anew_at_breaks() {
        // `"` then a combining mark: one cluster for the line, two for hcl,
        // which counts the quote's token and the literal's apart.
        let src = "\"\u{301}x\" == y".as_bytes();
        assert_eq!(LineIndex::new(src).pos(src, 10).column, 9);
        let idx = LineIndex::with_breaks(src, ClusterBreaks { tokens: std::sync::Arc::from([1]), ..ClusterBreaks::default() });
        assert_eq!(idx.pos(src, 10).column, 10);
        assert_eq!(idx.pos(src, 1).column, 2);
        assert_eq!(idx.pos(src, 0).column, 1);
    }

    #[test]
    fn escape_pieces_count_apart_inside_their_token_only() {
        // `"9\u0039<ZWJ>\x" + y`: the string token is bytes 1..13; its
        // pieces `9`, `\u0039` (2..8), the joiner (8..11), `\x` (11..13).
        // Counted whole, the joiner joins the `9` before it; counted piece
        // by piece, it is a column of its own.
        let src = "\"9\\u0039\u{200d}\\x\" + y".as_bytes();
        assert_eq!((&src[8..11], src[13]), ("\u{200d}".as_bytes(), b'"'));
        let idx = LineIndex::with_breaks(
            src,
            ClusterBreaks { tokens: std::sync::Arc::from([]), pieces: std::sync::Arc::from([(8, 1, 13), (11, 1, 13)]) },
        );
        // Inside the token: piece by piece.
        assert_eq!(idx.pos(src, 11).column, 10);
        assert_eq!(idx.span_pos(src, Span::new(11, 12)), (idx.pos(src, 11), idx.pos(src, 12)));
        // The escape `\x` as a span: its end, the token's end, too.
        assert_eq!(idx.span_pos(src, Span::new(11, 13)).1.column, 12);
        // What follows the token: the token counted whole (a column less).
        assert_eq!(idx.pos(src, 13).column, 11);
        assert_eq!(idx.span_pos(src, Span::new(13, 14)).0.column, 11);
        // A span from the token's start: the whole token, counted whole.
        assert_eq!(idx.span_pos(src, Span::new(1, 13)).1.column, 11);
        // Without the pieces, all of it counted token by token.
        assert_eq!(LineIndex::new(src).pos(src, 11).column, 9);
        assert_eq!(LineIndex::new(src).pos(src, 13).column, 11);
    }

    #[test]
    fn ranges_print_as_hcl_prints_them() {
        let src = "a = \"\u{e9}\"\nbb = [\n  1,\n]\n".as_bytes();
        let idx = LineIndex::new(src);
        assert_eq!(idx.range_text(src, "main.hcl", Span::new(4, 8)), "main.hcl:1,5-8");
        assert_eq!(idx.range_text(src, "f", Span::new(14, 22)), "f:2,6-4,2");
        assert_eq!(idx.range_text(src, "", Span::new(0, 0)), ":1,1-1");
    }

    #[test]
    fn a_leading_byte_order_mark_takes_no_column() {
        let src = "\u{feff}ab = 1".as_bytes();
        let idx = LineIndex::new(src);
        assert_eq!(idx.pos(src, 3), Pos { line: 1, column: 1, byte: 3 });
        assert_eq!(idx.pos(src, 6), Pos { line: 1, column: 4, byte: 6 });
    }
}
