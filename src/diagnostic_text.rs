//! Renders diagnostics as text for people, in the layout of hcl's text
//! diagnostic writer:
//!
//! ```text
//! Error: Missing newline after argument
//!
//!   on main.tf line 3, in resource "a" "b":
//!    3:   x = 1 y = 2
//!                 ^
//!
//! An argument definition must end with a newline.
//!
//! ```
//!
//! With colour the severity is red/yellow and the subject is bold and
//! underlined (as hcl does); without colour a caret line under each source
//! line marks the subject instead.

use compiler::{ast, Interner};
use runtime::strings::go_quote;
use runtime::{Diagnostic, LineIndex, Severity, Span};
use std::io::Write as _;

/// One source file as diagnostics about it are rendered.
pub struct SourceFile<'a> {
    pub name: &'a str,
    pub src: &'a [u8],
    /// Only its lines are read (the location line, the snippet), so any
    /// index of `src` will do: a host's own, borrowed, or one made here
    /// when the first diagnostic is rendered (a file without any needs
    /// none: 200,000 lines are a megabyte of index).
    lines: Lines<'a>,
    /// Byte range and header text (`resource "a" "b"`) of each top-level
    /// block, for the "in ..." context of the location line.
    block_headers: std::borrow::Cow<'a, BlockHeaders>,
}

/// The byte range and header text (`resource "a" "b"`) of each top-level
/// block of a body, the texts in one string: a file may have 200,000
/// blocks, and a string each cost some 50 bytes a block.
#[derive(Clone, Debug, Default)]
pub struct BlockHeaders {
    text: String,
    /// In source order: each block's range and where its text ends.
    blocks: Vec<(Span, u32)>,
}

impl BlockHeaders {
    /// The headers of `body`'s top-level blocks.
    pub fn of(body: &ast::Body<'_>, interner: &Interner) -> BlockHeaders {
        let mut headers = BlockHeaders { text: String::new(), blocks: Vec::with_capacity(body.blocks.len()) };
        for b in body.blocks {
            headers.text.push_str(interner.resolve(b.block_type.name));
            for label in b.labels {
                headers.text.push(' ');
                headers.text.push_str(&go_quote(label));
            }
            headers.blocks.push((Span::new(b.block_type.span.start, b.close_brace_span.end), headers.text.len() as u32));
        }
        headers.text.shrink_to_fit();
        headers
    }

    /// Each block's range and header, in source order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (Span, &str)> {
        (0..self.blocks.len()).map(|i| (self.blocks[i].0, self.text_of(i)))
    }

    fn text_of(&self, i: usize) -> &str {
        let start = i.checked_sub(1).map_or(0, |p| self.blocks[p].1 as usize);
        self.text.get(start..self.blocks[i].1 as usize).unwrap_or("")
    }

    /// The header of the block that `byte` is in. (Blocks do not overlap,
    /// and are in source order: found by bisection.)
    pub fn at(&self, byte: u32) -> Option<&str> {
        let i = self.blocks.partition_point(|(span, _)| span.start <= byte).checked_sub(1)?;
        (byte < self.blocks[i].0.end).then(|| self.text_of(i))
    }
}

enum Lines<'a> {
    Borrowed(&'a LineIndex),
    WhenNeeded(std::sync::OnceLock<LineIndex>),
}

impl<'a> SourceFile<'a> {
    pub fn new(name: &'a str, src: &'a [u8]) -> SourceFile<'a> {
        SourceFile::with(name, src, Lines::WhenNeeded(std::sync::OnceLock::new()))
    }

    /// [`SourceFile::new`] with an index of `src`'s lines already made: a
    /// source with many diagnostics lists (a declarations file with an
    /// error in each of 40,000 declarations) is indexed once, not once
    /// per list.
    pub fn with_lines(name: &'a str, src: &'a [u8], lines: &'a LineIndex) -> SourceFile<'a> {
        SourceFile::with(name, src, Lines::Borrowed(lines))
    }

    fn with(name: &'a str, src: &'a [u8], lines: Lines<'a>) -> SourceFile<'a> {
        SourceFile { name, src, lines, block_headers: std::borrow::Cow::Owned(BlockHeaders::default()) }
    }

    fn lines(&self) -> &LineIndex {
        match &self.lines {
            Lines::Borrowed(lines) => lines,
            Lines::WhenNeeded(lines) => lines.get_or_init(|| LineIndex::new(self.src)),
        }
    }

    /// Adds the top-level blocks of the file's parsed body, so that a
    /// diagnostic inside one names it (as hcl's `ContextString`).
    pub fn with_blocks(mut self, body: &ast::Body<'_>, interner: &Interner) -> SourceFile<'a> {
        self.block_headers = std::borrow::Cow::Owned(BlockHeaders::of(body, interner));
        self
    }

    /// The block headers [`SourceFile::with_blocks`] recorded, so that a
    /// host can keep them after the syntax tree is gone.
    pub fn block_headers(&self) -> &BlockHeaders {
        &self.block_headers
    }

    /// Restores block headers kept from [`SourceFile::block_headers`]
    /// (borrowed: a source rendered list by list is not copied for each).
    pub fn with_block_headers(mut self, headers: &'a BlockHeaders) -> SourceFile<'a> {
        self.block_headers = std::borrow::Cow::Borrowed(headers);
        self
    }

    fn context_of(&self, byte: u32) -> Option<&str> {
        self.block_headers.at(byte)
    }
}

const RED: &str = "\x1b[31m";
const YELLOW: &str = "\x1b[33m";
const HIGHLIGHT: &str = "\x1b[1;4m";
const RESET: &str = "\x1b[0m";

/// Appends the text of one diagnostic about `file` to `out`.
pub fn render_diagnostic(out: &mut Vec<u8>, file: &SourceFile<'_>, diag: &Diagnostic, color: bool) {
    let (severity, severity_color) = match diag.severity {
        Severity::Error => ("Error", RED),
        Severity::Warning => ("Warning", YELLOW),
    };
    if color {
        let _ = write!(out, "{severity_color}{severity}{RESET}: {}\n\n", diag.summary);
    } else {
        let _ = write!(out, "{severity}: {}\n\n", diag.summary);
    }
    if let Some(subject) = diag.subject {
        render_snippet(out, file, subject, diag.context, color);
    }
    if !diag.detail.is_empty() {
        let _ = write!(out, "{}\n\n", diag.detail);
    }
}

/// Appends every diagnostic of `diags`.
pub fn render_diagnostics<'d>(out: &mut Vec<u8>, file: &SourceFile<'_>, diags: impl IntoIterator<Item = &'d Diagnostic>, color: bool) {
    for d in diags {
        render_diagnostic(out, file, d, color);
    }
}

/// Writes every diagnostic of `diags` to `w` as it renders them, a block
/// of them at a time: a million diagnostics are not held as one text.
pub fn write_diagnostics<'d>(
    w: &mut dyn std::io::Write,
    file: &SourceFile<'_>,
    diags: impl IntoIterator<Item = &'d Diagnostic>,
    color: bool,
) -> std::io::Result<()> {
    const BLOCK: usize = 64 << 10;
    let mut out = Vec::with_capacity(BLOCK);
    for d in diags {
        render_diagnostic(&mut out, file, d, color);
        if out.len() >= BLOCK {
            w.write_all(&out)?;
            out.clear();
        }
    }
    w.write_all(&out)
}

fn render_snippet(out: &mut Vec<u8>, file: &SourceFile<'_>, subject: Span, context: Option<Span>, color: bool) {
    let src = file.src;
    let len = src.len() as u32;
    let subject = Span::new(subject.start.min(len), subject.end.min(len).max(subject.start.min(len)));
    // An empty range cannot be shown, so it becomes one character wide (it
    // may then point just past the end of a line, which is fine).
    let widen = |s: Span| if s.is_empty() { Span::new(s.start, s.start.saturating_add(1)) } else { s };
    let highlight = widen(subject);
    let snippet = widen(context.map_or(subject, |c| subject.to(c)));

    let lines = file.lines();
    let start = lines.pos(src, subject.start);
    let _ = write!(out, "  on {} line {}", file.name, start.line);
    if let Some(ctx) = file.context_of(subject.start) {
        let _ = write!(out, ", in {ctx}");
    }
    out.extend_from_slice(b":\n");

    // One line before the snippet too: hcl's overlap test also counts a line
    // whose end touches the snippet's start.
    // The lines that overlap the snippet, a run from about its start's to
    // its end's.
    let line = |line_no: usize| {
        let (ls, le) = lines.line_range(src, line_no);
        Span::new(ls as u32, le as u32)
    };
    let first = lines.line_of(snippet.start.min(len)).saturating_sub(1);
    let end_line = lines.line_of(snippet.end.min(len));
    let Some(lo) = (first..=end_line).find(|&l| overlaps(line(l), snippet)) else {
        out.push(b'\n');
        return;
    };
    let hi = (lo..=end_line).rev().find(|&l| overlaps(line(l), snippet)).unwrap_or(lo);
    // A snippet of many lines (a heredoc of thousands, reported at every
    // turn of a loop) shows its first and last few and those around where
    // the highlight starts and ends, so that a diagnostic's text stays
    // small whatever the input.
    let mut runs = vec![(lo, hi)];
    if hi - lo >= MAX_SHOWN_LINES {
        let h0 = lines.line_of(highlight.start.min(len));
        let h1 = lines.line_of(highlight.end.saturating_sub(1).max(highlight.start).min(len));
        let around = |h: usize| (h.saturating_sub(SHOWN_AROUND).max(lo), (h + SHOWN_AROUND).min(hi));
        runs = vec![(lo, lo + SHOWN_AROUND - 1), around(h0), around(h1), (hi + 1 - SHOWN_AROUND, hi)];
        runs.sort_unstable();
        // Merged where they overlap or touch.
        runs.dedup_by(|next, kept| {
            if next.0 <= kept.1 + 1 {
                kept.1 = kept.1.max(next.1);
                true
            } else {
                false
            }
        });
    }
    let mut next = lo;
    for (from, to) in runs {
        if from > next {
            let _ = writeln!(out, "      … ({} lines)", from - next);
        }
        for l in from.max(next)..=to {
            render_line(out, src, l + 1, line(l), highlight, color);
        }
        next = next.max(to + 1);
    }
    out.push(b'\n');
}

/// A snippet of more lines than this shows only its first and last
/// [`SHOWN_AROUND`] and as many around the highlight's first and last.
const MAX_SHOWN_LINES: usize = 20;
const SHOWN_AROUND: usize = 5;

/// The longest source line a snippet shows whole. A longer one (a
/// minified or generated file can have a line of megabytes) is cut to a
/// window of this many bytes around what it highlights, marked `…` where
/// cut, so that a diagnostic's text stays small whatever the input.
const MAX_SHOWN_LINE: u32 = 480;
/// How much of a cut line is shown before the highlighted part.
const SHOWN_BEFORE: u32 = 120;

fn render_line(out: &mut Vec<u8>, src: &[u8], number: usize, line: Span, highlight: Span, color: bool) {
    // Source bytes are written as they are (invalid UTF-8 included), as hcl does.
    let bytes = |s: Span| src.get(s.start as usize..s.end as usize).unwrap_or_default();
    let marked = if overlaps(line, highlight) {
        Span::new(line.start.max(highlight.start), line.end.min(highlight.end))
    } else {
        Span::new(line.start, line.start)
    };
    // A subject that is this line's own line break (e.g. "Invalid
    // multi-line string") gets a caret just past the text.
    let at_line_break = marked.is_empty()
        && matches!(src.get(highlight.start as usize), Some(b'\n' | b'\r'))
        && highlight.start >= line.end
        && highlight.start <= line.end.saturating_add(1);
    let anchor = if !marked.is_empty() {
        marked.start
    } else if at_line_break {
        line.end
    } else {
        line.start
    };
    let shown = shown_part(src, line, anchor);
    let (cut_before, cut_after) = (shown.start > line.start, shown.end < line.end);
    let marked = if marked.is_empty() { marked } else { Span::new(marked.start.max(shown.start), marked.end.min(shown.end)) };
    let _ = write!(out, "{number:4}: ");
    let lead: &[u8] = if cut_before { "…".as_bytes() } else { b"" };
    let trail: &[u8] = if cut_after { "…".as_bytes() } else { b"" };
    if marked.is_empty() {
        out.extend_from_slice(lead);
        out.extend_from_slice(bytes(shown));
        out.extend_from_slice(trail);
        out.push(b'\n');
        if !color && at_line_break {
            let _ = writeln!(out, "      {}{}^", caret_padding(lead), caret_padding(bytes(shown)));
        }
        return;
    }
    let before = bytes(Span::new(shown.start, marked.start));
    let inside = bytes(marked);
    let after = bytes(Span::new(marked.end, shown.end));
    out.extend_from_slice(lead);
    out.extend_from_slice(before);
    if color {
        out.extend_from_slice(HIGHLIGHT.as_bytes());
        out.extend_from_slice(inside);
        out.extend_from_slice(RESET.as_bytes());
        out.extend_from_slice(after);
        out.extend_from_slice(trail);
        out.push(b'\n');
    } else {
        out.extend_from_slice(inside);
        out.extend_from_slice(after);
        out.extend_from_slice(trail);
        out.push(b'\n');
        let carets = String::from_utf8_lossy(inside).chars().filter(|c| !is_combining(*c)).count().max(1);
        let _ = writeln!(out, "      {}{}{}", caret_padding(lead), caret_padding(before), "^".repeat(carets));
    }
}

/// The part of `line` a snippet shows: all of it when it is short, else
/// [`MAX_SHOWN_LINE`] bytes from a little before `anchor`, cut between
/// characters.
fn shown_part(src: &[u8], line: Span, anchor: u32) -> Span {
    if line.end - line.start <= MAX_SHOWN_LINE {
        return line;
    }
    let start = anchor.saturating_sub(SHOWN_BEFORE).max(line.start).min(line.end.saturating_sub(MAX_SHOWN_LINE));
    let end = start.saturating_add(MAX_SHOWN_LINE).min(line.end);
    // Not inside a UTF-8 sequence: continuation bytes are 10xxxxxx.
    let continues = |i: u32| src.get(i as usize).is_some_and(|b| b & 0xC0 == 0x80);
    let mut start = start;
    while start < end && continues(start) {
        start += 1;
    }
    let mut end = end;
    while end > start && end < line.end && continues(end) {
        end -= 1;
    }
    Span::new(start, end)
}

/// Blanks as wide as `text` (one per character; tabs kept so that carets
/// line up under tab-indented text).
fn caret_padding(text: &[u8]) -> String {
    String::from_utf8_lossy(text).chars().filter(|c| !is_combining(*c)).map(|c| if c == '\t' { '\t' } else { ' ' }).collect()
}

/// hcl's `Range.Overlaps`: neither empty, and one holds an end point of the
/// other (its end offset included, as hcl checks it).
fn overlaps(a: Span, b: Span) -> bool {
    let contains = |r: Span, o: u32| o >= r.start && o < r.end;
    !a.is_empty() && !b.is_empty() && (contains(a, b.start) || contains(a, b.end) || contains(b, a.start) || contains(b, a.end))
}

fn is_combining(c: char) -> bool {
    matches!(c as u32, 0x0300..=0x036F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF | 0xFE20..=0xFE2F)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_summary_location_snippet_and_detail() {
        let src = b"a = 1\nb = 2 3\n";
        let file = SourceFile::new("main.hcl", src);
        let diag =
            Diagnostic::error("Missing newline after argument", "An argument definition must end with a newline.", Some(Span::new(12, 13)));
        let mut out = Vec::new();
        render_diagnostic(&mut out, &file, &diag, false);
        assert_eq!(
            String::from_utf8_lossy(&out),
            "Error: Missing newline after argument\n\n  on main.hcl line 2:\n   2: b = 2 3\n            ^\n\nAn argument definition must end with a newline.\n\n"
        );
    }

    #[test]
    fn block_headers_place_bytes_in_their_blocks() {
        let src = b"a = 1\nr \"x\" \"y\\\"z\" {\n  v = 1\n}\nb = 2\nt {}\nu \"\xc3\xa9\" {\n}\n";
        let arena = bumpalo::Bump::new();
        let mut interner = Interner::new();
        let parsed = compiler::parse_file_full(&arena, src, "main.hcl", &mut interner);
        assert!(parsed.diags.is_empty());
        let headers = BlockHeaders::of(&parsed.tree.body(), &interner);
        let texts: Vec<&str> = headers.iter().map(|(_, h)| h).collect();
        assert_eq!(texts, ["r \"x\" \"y\\\"z\"", "t", "u \"\u{e9}\""]);
        let at = |needle: &str| headers.at(src.windows(needle.len()).position(|w| w == needle.as_bytes()).unwrap() as u32);
        assert_eq!(at("a = 1"), None);
        assert_eq!(at("r \"x"), Some("r \"x\" \"y\\\"z\""));
        assert_eq!(at("v = 1"), Some("r \"x\" \"y\\\"z\""));
        assert_eq!(at("}\nb"), Some("r \"x\" \"y\\\"z\""));
        assert_eq!(at("\nb = 2"), None);
        assert_eq!(at("t {}"), Some("t"));
        assert_eq!(at("{}"), Some("t"));
        assert_eq!(at("\u{e9}"), Some("u \"\u{e9}\""));
        assert_eq!(headers.at(src.len() as u32), None);
        assert_eq!(BlockHeaders::default().at(0), None);
    }

    #[test]
    fn a_borrowed_line_index_renders_as_a_fresh_one() {
        // A compiled source's index restarts counting columns at token
        // boundaries (a combining mark right after the quote is a column
        // of its own there), so its columns differ from a fresh index's;
        // rendering reads only lines, so the text is the same.
        let src = "a = \"\u{301}x\" +\nb = [\n  1, 2 3\n]\n".as_bytes();
        let breaks = compiler::lexer::cluster_breaks(src, compiler::lexer::LexMode::Normal);
        let lines = LineIndex::with_breaks(src, breaks);
        let x = src.iter().position(|&b| b == b'x').expect("an x") as u32;
        assert_ne!(lines.pos(src, x).column, LineIndex::new(src).pos(src, x).column);
        let three = src.iter().position(|&b| b == b'3').expect("a 3") as u32;
        let diags = [
            Diagnostic::error("S", "d", Some(Span::new(three, three + 1))),
            Diagnostic::error("T", "", Some(Span::new(x, x + 1))).with_context(Span::new(0, three)),
        ];
        let render = |file: &SourceFile<'_>| {
            let mut out = Vec::new();
            render_diagnostics(&mut out, file, &diags, false);
            String::from_utf8_lossy(&out).into_owned()
        };
        let fresh = render(&SourceFile::new("f", src));
        assert!(fresh.contains("on f line 3:") && fresh.contains("on f line 1:"), "{fresh}");
        assert_eq!(render(&SourceFile::with_lines("f", src, &lines)), fresh);
    }

    #[test]
    fn colour_highlights_instead_of_carets() {
        let src = b"x = \"\xc3\xa9\" + y\n";
        let file = SourceFile::new("f", src);
        let diag = Diagnostic::warning("W", "", Some(Span::new(4, 8)));
        let mut out = Vec::new();
        render_diagnostic(&mut out, &file, &diag, true);
        assert_eq!(String::from_utf8_lossy(&out), "\x1b[33mWarning\x1b[0m: W\n\n  on f line 1:\n   1: x = \x1b[1;4m\"é\"\x1b[0m + y\n\n");
    }

    #[test]
    fn multi_line_subject_and_empty_subject_at_end() {
        let src = b"a = [\n  1,\n";
        let file = SourceFile::new("f", src);
        let mut out = Vec::new();
        render_diagnostic(&mut out, &file, &Diagnostic::error("S", "", Some(Span::new(4, 11))), false);
        assert_eq!(String::from_utf8_lossy(&out), "Error: S\n\n  on f line 1:\n   1: a = [\n          ^\n   2:   1,\n      ^^^^\n\n");
        let mut out = Vec::new();
        render_diagnostic(&mut out, &file, &Diagnostic::error("Unclosed", "", Some(Span::new(11, 11))), false);
        assert_eq!(String::from_utf8_lossy(&out), "Error: Unclosed\n\n  on f line 3:\n\n");
    }

    #[test]
    fn a_snippet_of_many_lines_shows_its_ends_and_the_highlights_ends() {
        let src: String = (1..=100).map(|i| format!("l{i}\n")).collect();
        let file = SourceFile::new("f", src.as_bytes());
        let numbered = |d: &Diagnostic| {
            let mut out = Vec::new();
            render_diagnostic(&mut out, &file, d, false);
            let text = String::from_utf8_lossy(&out).into_owned();
            let lines: Vec<String> =
                text.lines().filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit() || c == '…')).map(String::from).collect();
            lines.iter().map(|l| l.split(':').next().unwrap_or("").trim().to_string()).collect::<Vec<_>>()
        };
        // The whole file highlighted: its first and last six lines.
        let whole = numbered(&Diagnostic::error("S", "", Some(Span::new(0, src.len() as u32 - 1))));
        let expected: Vec<String> =
            (1..=6).map(|i| i.to_string()).chain(["… (88 lines)".to_string()]).chain((95..=100).map(|i| i.to_string())).collect();
        assert_eq!(whole, expected);
        // Line 50 highlighted in a context of all 100: the ends and the
        // lines around line 50.
        let at = src.find("l50\n").unwrap() as u32;
        let mut d = Diagnostic::error("S", "", Some(Span::new(at, at + 3)));
        d.context = Some(Span::new(0, src.len() as u32 - 1));
        let around = numbered(&d);
        let expected: Vec<String> = (1..=5)
            .map(|i| i.to_string())
            .chain(["… (39 lines)".to_string()])
            .chain((45..=55).map(|i| i.to_string()))
            .chain(["… (40 lines)".to_string()])
            .chain((96..=100).map(|i| i.to_string()))
            .collect();
        assert_eq!(around, expected);
    }

    #[test]
    fn a_line_break_subject_gets_a_caret_after_the_line() {
        let src = b"a = \"x\ny\"\n";
        let file = SourceFile::new("f", src);
        let mut out = Vec::new();
        render_diagnostic(&mut out, &file, &Diagnostic::error("Invalid multi-line string", "", Some(Span::new(6, 7))), false);
        assert_eq!(
            String::from_utf8_lossy(&out),
            "Error: Invalid multi-line string\n\n  on f line 1:\n   1: a = \"x\n            ^\n   2: y\"\n\n"
        );
    }

    #[test]
    fn invalid_utf8_in_the_source_is_written_as_is() {
        let src = b"a = \"\xff\"\n";
        let file = SourceFile::new("f", src);
        let mut out = Vec::new();
        render_diagnostic(&mut out, &file, &Diagnostic::error("Invalid character encoding", "", Some(Span::new(5, 6))), false);
        assert_eq!(out, b"Error: Invalid character encoding\n\n  on f line 1:\n   1: a = \"\xff\"\n           ^\n\n");
    }

    #[test]
    fn a_long_line_is_cut_to_a_window_around_its_subject() {
        let mut src = "a = \"".to_string();
        src.push_str(&"é".repeat(50_000));
        let subject = src.len() as u32;
        src.push_str("\"x\n");
        let file = SourceFile::new("f", src.as_bytes());
        let mut out = Vec::new();
        render_diagnostic(&mut out, &file, &Diagnostic::error("S", "", Some(Span::new(subject + 1, subject + 2))), false);
        let text = String::from_utf8(out).expect("cut between characters");
        assert!(text.len() < 3 * MAX_SHOWN_LINE as usize, "{} bytes", text.len());
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[3].starts_with("   1: …é") && lines[3].ends_with("é\"x"), "{}", lines[3]);
        // The caret is under the `x`, past the `…` and the characters shown.
        assert_eq!(lines[4].chars().count(), lines[3].chars().count());
        assert!(lines[4].ends_with('^'));
        // A line break subject at the end of a long line.
        let src = format!("a = \"{}\nb\"\n", "x".repeat(100_000));
        let file = SourceFile::new("f", src.as_bytes());
        let mut out = Vec::new();
        render_diagnostic(&mut out, &file, &Diagnostic::error("Invalid multi-line string", "", Some(Span::new(100_005, 100_006))), false);
        let text = String::from_utf8(out).unwrap();
        assert!(text.len() < 3 * MAX_SHOWN_LINE as usize, "{} bytes", text.len());
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[3].starts_with("   1: …x") && lines[3].ends_with('x'));
        assert_eq!(lines[4].chars().count(), lines[3].chars().count() + 1);
    }

    #[test]
    fn out_of_range_subjects_do_not_panic() {
        let src = b"abc";
        let file = SourceFile::new("f", src);
        for (s, e) in [(0, 100), (50, 60), (2, 1), (u32::MAX - 1, u32::MAX)] {
            let mut out = Vec::new();
            render_diagnostic(&mut out, &file, &Diagnostic::error("S", "", Some(Span::new(s, e))), false);
            assert!(out.starts_with(b"Error: S"));
        }
    }
}
