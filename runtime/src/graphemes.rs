//! Grapheme clusters as the reference counts them, with go-textseg, a
//! hand-made grammar (a Ragel scanner) over the Unicode character
//! properties. The reference runs two releases of it:
//!
//! - [`Textseg::V15`] (Unicode 15.0.0), which hcl v2.20.0 imports: columns
//!   of source positions and heredoc indentation;
//! - [`Textseg::V13`] (Unicode 13.0.0), which go-cty v1.13.0's function
//!   library imports: `reverse`, `substr`, `format` precision and width.
//!
//! Their grammars are the same; only the properties of characters assigned
//! in Unicode 14.0 and 15.0 (and two Ahom signs) differ (pictographs do not:
//! `Extended_Pictographic` covered the later emoji before they were
//! assigned). Neither has rule
//! GB9c (Indic conjuncts), which came with Unicode 15.1: a consonant after
//! a virama starts a new cluster.
//!
//! The clusters here are those of `unicode_segmentation`, pinned to a
//! release with Unicode 15.0.0 tables, which follows UAX #29 exactly,
//! adjusted where the grammar departs from UAX #29:
//!
//! - U+FFFD REPLACEMENT CHARACTER is a cluster of its own, like a control
//!   character: a `Prepend` character before it and extending characters
//!   after it do not join it;
//! - a Hangul `L` sequence followed by an `LV` syllable ends there: a
//!   trailing jamo (`T`) after `L+ LV` starts a new cluster;
//! - a cluster that begins (after any `Prepend` characters) with a Hangul
//!   jamo or syllable, a regional indicator or a pictograph also takes a
//!   zero width joiner and the pictograph after it, whatever extending
//!   characters precede the joiner (UAX #29 rule GB11 asks for a pictograph
//!   and `Extend` characters only, and nothing for Hangul or flags).
//!
//! For v13, the characters whose `Grapheme_Cluster_Break` differs between
//! Unicode 13.0.0 and 15.0.0 (`UNICODE_13_DELTA`) are replaced, for
//! segmentation only, by stand-ins of the same UTF-8 length and of their
//! Unicode 13.0.0 class.
//!
//! Character properties otherwise come from `unicode_segmentation` too:
//! whether a character is `Prepend` or `Extended_Pictographic` is read off
//! how it clusters with others (see `is_prepend`, `is_pictographic`),
//! so no table here can disagree with the crate's.

use unicode_segmentation::{Graphemes, UnicodeSegmentation};

/// Which go-textseg release to follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Textseg {
    /// go-textseg v13 (Unicode 13.0.0): cty's string functions.
    V13,
    /// go-textseg v15 (Unicode 15.0.0): hcl's scanner and parser.
    V15,
}

/// The grapheme clusters of `s`, in order.
pub fn graphemes(s: &str, v: Textseg) -> Clusters<'_> {
    if v == Textseg::V13 {
        if let Some(masked) = mask_for_13(s) {
            let ends: Vec<usize> = Uax::new(&masked).map(|g| g.as_ptr() as usize - masked.as_ptr() as usize + g.len()).collect();
            return Clusters(Inner::Masked { src: s, start: 0, ends: ends.into_iter() });
        }
    }
    Clusters(Inner::Direct(Uax::new(s)))
}

/// The number of grapheme clusters in `s`.
pub fn count(s: &str, v: Textseg) -> usize {
    if s.is_ascii() {
        // Only CR LF joins ASCII characters.
        return s.len() - s.matches("\r\n").count();
    }
    graphemes(s, v).count()
}

/// The byte offset at which the cluster with index `n` starts, or `None`
/// when `s` has at most `n` clusters.
pub fn nth_start(s: &str, n: usize, v: Textseg) -> Option<usize> {
    graphemes(s, v).nth(n).map(|g| g.as_ptr() as usize - s.as_ptr() as usize)
}

/// The number of grapheme clusters in `bytes`, which may hold invalid
/// UTF-8 (source text). go-textseg reads UTF-8 leniently: any lead byte
/// with the right number of continuation bytes is a character (overlong
/// forms, surrogates, code points above U+10FFFF), of no class, so it
/// starts a cluster that takes extending characters and joins `Prepend`
/// characters before it; any other invalid byte matches nothing and is a
/// cluster of its own. Each such sequence is counted as a stand-in of the
/// same length (a letter, or a control character for a lone byte).
pub fn count_bytes(bytes: &[u8], v: Textseg) -> usize {
    if let Ok(s) = std::str::from_utf8(bytes) {
        return count(s, v);
    }
    let mut masked = String::with_capacity(bytes.len());
    let mut rest = bytes;
    while !rest.is_empty() {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                masked.push_str(s);
                break;
            }
            Err(e) => {
                let (valid, bad) = rest.split_at(e.valid_up_to());
                masked.push_str(std::str::from_utf8(valid).unwrap_or_default());
                let len = match bad.first() {
                    Some(0xC0..=0xDF) => 2,
                    Some(0xE0..=0xEF) => 3,
                    Some(0xF0..=0xF7) => 4,
                    _ => 1,
                };
                let complete = len > 1 && bad.len() >= len && bad[1..len].iter().all(|b| (0x80..=0xBF).contains(b));
                let (stand_in, used) = match (complete, len) {
                    (true, 2) => ('\u{E9}', 2),
                    (true, 3) => (OTHER_3, 3),
                    (true, _) => (OTHER_4, 4),
                    (false, _) => ('\u{1}', 1),
                };
                masked.push(stand_in);
                rest = &bad[used.min(bad.len())..];
            }
        }
    }
    count(&masked, v)
}

/// The number of grapheme clusters in `s` as go-textseg's `TokenCount`
/// counts them (cty's `format` width, hcl's heredoc indentation): through a
/// `bufio.Scanner` reading the text, whose split function only sees what
/// the scanner's buffer holds and takes its end for the end of the text.
/// The buffer starts at 4096 bytes, so a cluster that spans two buffer
/// loads counts twice. A CR or LF that is not part of a CR LF pair matches
/// no pattern of the scanner's grammar, so before the end of the input it
/// asks for more: the buffer grows (by doubling) until the input is all in
/// it, or stops at 64 KiB with an error, and the count is what was seen
/// until then.
pub fn count_like_scanner(s: &str, v: Textseg) -> usize {
    const START_SIZE: usize = 4096;
    const MAX_TOKEN_SIZE: usize = 64 * 1024;
    if s.len() <= START_SIZE {
        // The first read takes all of it.
        return count(s, v);
    }
    // Positions in `s`: the buffer's first byte, the next token, the end of
    // what has been read.
    let (mut base, mut token, mut read) = (0usize, 0usize, 0usize);
    let mut size = 0usize;
    let mut at_eof = false;
    let mut n = 0;
    loop {
        // The split function, called again and again on what the buffer
        // holds from `token` on, gives these clusters one by one (it
        // starts afresh at each cluster, as iterating does).
        let mut end = read;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        for g in graphemes(&s[token..end.max(token)], v) {
            if !at_eof && (g == "\n" || g == "\r") {
                // Matched by no pattern: it asks for more.
                break;
            }
            n += 1;
            token += g.len();
        }
        if at_eof {
            return n;
        }
        if token > base && (read - base == size || token - base > size / 2) {
            base = token;
        }
        if read - base == size {
            if size >= MAX_TOKEN_SIZE {
                return n;
            }
            size = if size == 0 { START_SIZE } else { (size * 2).min(MAX_TOKEN_SIZE) };
            base = token;
        }
        let got = (size - (read - base)).min(s.len() - read);
        if got == 0 {
            at_eof = true;
        } else {
            read += got;
        }
    }
}

/// Iterator over grapheme clusters (see [`graphemes`]).
pub struct Clusters<'a>(Inner<'a>);

enum Inner<'a> {
    Direct(Uax<'a>),
    /// v13 with stand-ins: the clusters' ends, computed on the masked copy.
    Masked {
        src: &'a str,
        start: usize,
        ends: std::vec::IntoIter<usize>,
    },
}

impl<'a> Iterator for Clusters<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        match &mut self.0 {
            Inner::Direct(u) => u.next(),
            Inner::Masked { src, start, ends } => {
                let end = ends.next()?;
                let g = src.get(*start..end)?;
                *start = end;
                Some(g)
            }
        }
    }
}

/// Code points whose `Grapheme_Cluster_Break` in Unicode 13.0.0 differs
/// from Unicode 15.0.0's, as go-textseg v13 and v15 segment them (found by
/// running both over every code point), with a stand-in of the 13.0.0
/// class. All but the Ahom signs were unassigned in 13.0.0, so `Other`;
/// in 15.0.0 they are `Extend` or `SpacingMark` unless noted.
const UNICODE_13_DELTA: &[(u32, u32, char)] = &[
    (0x0890, 0x0891, OTHER_3), // Arabic pound and piastre marks: Prepend
    (0x0898, 0x089F, OTHER_3),
    (0x08CA, 0x08D2, OTHER_3),
    (0x0C3C, 0x0C3C, OTHER_3),
    (0x0CF3, 0x0CF3, OTHER_3),
    (0x0ECE, 0x0ECE, OTHER_3),
    (0x1715, 0x1715, OTHER_3),
    (0x180F, 0x180F, OTHER_3),
    (0x1AC1, 0x1ACE, OTHER_3),
    (0x1DFA, 0x1DFA, OTHER_3),
    (0x10EFD, 0x10EFF, OTHER_4),
    (0x10F82, 0x10F85, OTHER_4),
    (0x11070, 0x11070, OTHER_4),
    (0x11073, 0x11074, OTHER_4),
    (0x110C2, 0x110C2, OTHER_4),
    (0x11241, 0x11241, OTHER_4),
    // Ahom: SpacingMark in 13.0.0, Other since 14.0.
    (0x11720, 0x11721, SPACING_MARK_4),
    (0x11F00, 0x11F03, OTHER_4), // Kawi: U+11F02 is Prepend
    (0x11F34, 0x11F3A, OTHER_4),
    (0x11F3E, 0x11F42, OTHER_4),
    // Egyptian hieroglyph format controls: Control, U+13440 Extend.
    (0x13439, 0x13440, OTHER_4),
    (0x13447, 0x13455, OTHER_4),
    (0x1CF00, 0x1CF2D, OTHER_4),
    (0x1CF30, 0x1CF46, OTHER_4),
    (0x1E08F, 0x1E08F, OTHER_4),
    (0x1E2AE, 0x1E2AE, OTHER_4),
    (0x1E4EC, 0x1E4EF, OTHER_4),
];
/// Stand-ins with `Grapheme_Cluster_Break=Other` (and not pictographs) of
/// 3 and 4 bytes, and a `SpacingMark` of 4 bytes.
const OTHER_3: char = '\u{4E00}';
const OTHER_4: char = '\u{20000}';
const SPACING_MARK_4: char = '\u{11000}';

/// `s` with the characters of `UNICODE_13_DELTA` replaced by their
/// stand-ins, or `None` when it has none.
fn mask_for_13(s: &str) -> Option<String> {
    let stand_in = |c: char| {
        let cp = c as u32;
        if cp < 0x890 {
            return None;
        }
        let i = UNICODE_13_DELTA.partition_point(|&(_, hi, _)| hi < cp);
        UNICODE_13_DELTA.get(i).filter(|&&(lo, _, _)| lo <= cp).map(|&(_, _, r)| r)
    };
    if s.is_ascii() || !s.chars().any(|c| stand_in(c).is_some()) {
        return None;
    }
    Some(s.chars().map(|c| stand_in(c).unwrap_or(c)).collect())
}

/// Clusters of go-textseg v15: UAX #29 clusters, adjusted.
struct Uax<'a> {
    src: &'a str,
    inner: Graphemes<'a>,
    /// The rest of a cluster of `inner` that is split further.
    pending: &'a str,
    /// A cluster read ahead (see `next`).
    peeked: Option<&'a str>,
}

impl<'a> Uax<'a> {
    fn new(s: &'a str) -> Uax<'a> {
        Uax { src: s, inner: s.graphemes(true), pending: "", peeked: None }
    }
}

impl<'a> Iterator for Uax<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let mut g = match self.peeked.take() {
            Some(g) => g,
            None => self.split_next()?,
        };
        // A joiner at the end of a cluster that may glue on a pictograph:
        // join the next cluster when it begins with one, again while the
        // joined cluster ends with a joiner.
        if g.ends_with('\u{200D}') && glues_pictographs(g) {
            while g.ends_with('\u{200D}') {
                let Some(n) = self.split_next() else { break };
                let start = g.as_ptr() as usize - self.src.as_ptr() as usize;
                let end = n.as_ptr() as usize - self.src.as_ptr() as usize + n.len();
                match self.src.get(start..end) {
                    Some(joined) if n.chars().next().is_some_and(is_pictographic) => g = joined,
                    _ => {
                        self.peeked = Some(n);
                        break;
                    }
                }
            }
        }
        Some(g)
    }
}

impl<'a> Uax<'a> {
    /// The next cluster of `inner`, split where go-textseg ends a cluster
    /// inside it.
    fn split_next(&mut self) -> Option<&'a str> {
        let g = if self.pending.is_empty() { self.inner.next()? } else { std::mem::take(&mut self.pending) };
        // A replacement character with something else, or three jamo.
        if g.len() < 4 {
            return Some(g);
        }
        match inner_break(g) {
            Some(at) => {
                self.pending = &g[at..];
                Some(&g[..at])
            }
            None => Some(g),
        }
    }
}

/// The first place inside the UAX #29 cluster `g` where go-textseg ends a
/// cluster, if any.
fn inner_break(g: &str) -> Option<usize> {
    if let Some(at) = g.find('\u{FFFD}') {
        // Before it, or after it if it comes first (UAX #29 puts one only
        // after `Prepend` characters and before extending ones).
        return if at > 0 { Some(at) } else { Some('\u{FFFD}'.len_utf8()) };
    }
    // Hangul: `L+ LV` ends the cluster before a trailing jamo.
    let mut classes = [Hangul::None; 2];
    for (i, c) in g.char_indices() {
        let class = hangul(c);
        if class == Hangul::T && classes == [Hangul::L, Hangul::Lv] {
            return Some(i);
        }
        classes = [classes[1], class];
    }
    None
}

/// Whether the cluster `g` is one that takes a joiner and a pictograph
/// after its extending characters: it begins, after any `Prepend`
/// characters, with a Hangul jamo or syllable, a regional indicator or a
/// pictograph.
fn glues_pictographs(g: &str) -> bool {
    match g.chars().find(|&c| !is_prepend(c)) {
        Some(c) => hangul(c) != Hangul::None || is_regional_indicator(c) || is_pictographic(c),
        None => false,
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Hangul {
    None,
    L,
    V,
    T,
    Lv,
    Lvt,
}

/// The Hangul `Grapheme_Cluster_Break` class of `c` (these ranges have not
/// changed since Unicode 5.2).
fn hangul(c: char) -> Hangul {
    match c as u32 {
        0x1100..=0x115F | 0xA960..=0xA97C => Hangul::L,
        0x1160..=0x11A7 | 0xD7B0..=0xD7C6 => Hangul::V,
        0x11A8..=0x11FF | 0xD7CB..=0xD7FB => Hangul::T,
        s @ 0xAC00..=0xD7A3 if (s - 0xAC00) % 28 == 0 => Hangul::Lv,
        0xAC00..=0xD7A3 => Hangul::Lvt,
        _ => Hangul::None,
    }
}

fn is_regional_indicator(c: char) -> bool {
    matches!(c as u32, 0x1F1E6..=0x1F1FF)
}

/// Whether `c` has `Grapheme_Cluster_Break=Prepend`: rule GB9b is the only
/// one that joins a letter to the character before it.
fn is_prepend(c: char) -> bool {
    if (c as u32) < 0x600 {
        return false;
    }
    let mut buf = [0u8; 5];
    let s = c.encode_utf8(&mut buf[..4]).len();
    buf[s] = b'a';
    std::str::from_utf8(&buf[..=s]).is_ok_and(|t| t.graphemes(true).nth(1).is_none())
}

/// Whether `c` is `Extended_Pictographic`: rule GB11 joins it to a
/// pictograph and a joiner before it, and it does not extend a letter
/// (extending characters join both).
fn is_pictographic(c: char) -> bool {
    if (c as u32) < 0xA9 {
        return false;
    }
    let joins = |first: char| {
        let mut t = String::with_capacity(12);
        t.push(first);
        t.push('\u{200D}');
        t.push(c);
        t.graphemes(true).nth(1).is_none()
    };
    joins('\u{2764}') && !joins('a')
}

#[cfg(test)]
mod tests {
    use super::*;
    use Textseg::{V13, V15};

    fn split(s: &str, v: Textseg) -> Vec<&str> {
        graphemes(s, v).collect()
    }

    #[test]
    fn no_indic_conjunct_rule() {
        // No rule GB9c (Unicode 15.1): a consonant after a virama starts a
        // new cluster.
        for v in [V13, V15] {
            assert_eq!(
                split("\u{915}\u{94D}\u{937}a\u{301}\r\n\u{1F468}\u{200D}\u{1F469}", v),
                ["\u{915}\u{94D}", "\u{937}", "a\u{301}", "\r\n", "\u{1F468}\u{200D}\u{1F469}"]
            );
            assert_eq!(count("a\r\nb", v), 3);
            assert_eq!(nth_start("\u{915}\u{94D}\u{937}", 1, v), Some(6));
            assert_eq!(nth_start("ab", 2, v), None);
        }
    }

    #[test]
    fn characters_of_unicode_14_and_15() {
        // A Unicode 14.0 Arabic mark (U+0898) and a Kawi vowel sign
        // (U+11F34) extend the letter before them in v15 only; the Ahom
        // sign U+11720 was a spacing mark in Unicode 13.0.
        assert_eq!(split("\u{628}\u{898}", V15), ["\u{628}\u{898}"]);
        assert_eq!(split("\u{628}\u{898}", V13), ["\u{628}", "\u{898}"]);
        assert_eq!(count("\u{11F12}\u{11F34}\u{301}", V13), 2);
        assert_eq!(count("\u{11F12}\u{11F34}\u{301}", V15), 1);
        assert_eq!(count("\u{11700}\u{11720}", V13), 1);
        assert_eq!(count("\u{11700}\u{11720}", V15), 2);
        // A Prepend character of Unicode 14.0.
        assert_eq!(count("\u{890}a", V13), 2);
        assert_eq!(count("\u{890}a", V15), 1);
        // A Unicode 15.0 pictograph (U+1FAE8) joins after a joiner (the
        // property covered it before it was assigned).
        assert_eq!(count("\u{1F600}\u{200D}\u{1FAE8}", V13), 1);
        assert_eq!(count("\u{1F600}\u{200D}\u{1FAE8}", V15), 1);
    }

    #[test]
    fn replacement_character_stands_alone() {
        assert_eq!(split("\u{FFFD}\u{301}\u{301}x", V15), ["\u{FFFD}", "\u{301}\u{301}", "x"]);
        assert_eq!(split("\u{600}\u{FFFD}", V15), ["\u{600}", "\u{FFFD}"]);
        assert_eq!(split("\u{600}\u{FFFD}\u{301}", V13), ["\u{600}", "\u{FFFD}", "\u{301}"]);
    }

    #[test]
    fn hangul_l_lv_ends_before_t() {
        assert_eq!(split("\u{1100}\u{AC00}\u{11A8}", V15), ["\u{1100}\u{AC00}", "\u{11A8}"]);
        assert_eq!(count("\u{1100}\u{AC00}\u{1161}\u{11A8}", V15), 1);
        assert_eq!(count("\u{AC00}\u{11A8}", V13), 1);
    }

    #[test]
    fn joiner_glues_pictographs_after_any_extension() {
        for v in [V13, V15] {
            // After a Hangul syllable, a regional indicator or a pictograph
            // with a spacing mark, a joiner still joins the next pictograph.
            assert_eq!(count("\u{AC00}\u{200D}\u{2764}", v), 1);
            assert_eq!(count("\u{1F1FA}\u{200D}\u{2764}", v), 1);
            assert_eq!(count("\u{2764}\u{903}\u{200D}\u{2764}", v), 1);
            assert_eq!(count("\u{2764}\u{200D}\u{200D}\u{2764}", v), 1);
            assert_eq!(count("\u{600}\u{AC00}\u{200D}\u{2764}", v), 1);
            assert_eq!(count("a\u{200D}\u{2764}", v), 2);
            assert_eq!(count("\u{200D}\u{2764}", v), 2);
            // The joined cluster ends with a joiner: the next pictograph
            // joins too.
            assert_eq!(count("\u{AC00}\u{200D}\u{2764}\u{903}\u{200D}\u{2764}", v), 1);
            assert_eq!(count("\u{2764}\u{903}\u{200D}\u{2764}\u{903}\u{200D}\u{2764}", v), 1);
        }
    }

    #[test]
    fn property_probes() {
        assert!(is_prepend('\u{600}') && is_prepend('\u{11F02}') && !is_prepend('\u{915}') && !is_prepend('\u{301}'));
        assert!(is_pictographic('\u{A9}') && is_pictographic('\u{1FAE8}') && is_pictographic('\u{1FC00}'));
        assert!(!is_pictographic('\u{1F3FB}') && !is_pictographic('\u{301}') && !is_pictographic('a'));
    }

    #[test]
    fn invalid_utf8_read_leniently() {
        // An overlong NUL with a mark after it, a surrogate, a lone byte.
        assert_eq!(count_bytes(b"\xC0\x80\xCC\x81", V15), 1);
        assert_eq!(count_bytes(b"\xED\xA0\x80x", V15), 2);
        assert_eq!(count_bytes(b"a\xCCb", V15), 3);
        assert_eq!(count_bytes(b"\xE2\x82a", V15), 3);
        assert_eq!(count_bytes("\u{600}".as_bytes(), V15), 1);
        let mut b = "\u{600}".as_bytes().to_vec();
        b.extend_from_slice(b"\xF5\x80\x80\x80");
        assert_eq!(count_bytes(&b, V15), 1);
        b.push(0xFF);
        assert_eq!(count_bytes(&b, V15), 2);
    }

    #[test]
    fn scanner_loads_split_clusters() {
        let mut s = "a".repeat(4095);
        s.push_str("e\u{301}");
        assert_eq!(count(&s, V15), 4096);
        assert_eq!(count_like_scanner(&s, V15), 4097);
        // A load never ends inside a character.
        let s = format!("{}\u{E9}\u{301}", "a".repeat(4095));
        assert_eq!(count_like_scanner(&s, V13), 4096);
        // A lone newline makes the scanner read all the rest first.
        let s = format!("\n{}e\u{301}", "a".repeat(4094));
        assert_eq!(count_like_scanner(&s, V13), 4096);
        // ... up to 64 KiB: then it stops counting.
        let s = format!("ab\n{}", "a".repeat(70000));
        assert_eq!(count_like_scanner(&s, V13), 2);
    }
}
