//! Grapheme clusters as the reference counts them: go-textseg v13, which
//! implements the Unicode 13 rules of UAX #29. `unicode_segmentation`
//! follows a later Unicode version, whose rule GB9c (Unicode 15.1) keeps an
//! Indic conjunct — consonant, virama, consonant — in one cluster; under the
//! Unicode 13 rules a consonant after a virama starts a new cluster. The
//! clusters here are `unicode_segmentation`'s, split again before every
//! `Indic_Conjunct_Break=Consonant` letter that is not the first of its
//! cluster, unless a `Prepend` character precedes it (GB9b, the only
//! Unicode 13 rule that joins such a letter to what comes before).

use unicode_segmentation::{Graphemes, UnicodeSegmentation};

/// The grapheme clusters of `s`, in order.
pub fn graphemes(s: &str) -> Clusters<'_> {
    Clusters { src: s, inner: s.graphemes(true), pending: "", peeked: None }
}

/// The number of grapheme clusters in `s`.
pub fn count(s: &str) -> usize {
    if s.is_ascii() {
        // Only CR LF joins ASCII characters.
        return s.len() - s.matches("\r\n").count();
    }
    graphemes(s).count()
}

/// The byte offset at which the cluster with index `n` starts, or `None`
/// when `s` has at most `n` clusters.
pub fn nth_start(s: &str, n: usize) -> Option<usize> {
    graphemes(s).nth(n).map(|g| g.as_ptr() as usize - s.as_ptr() as usize)
}

pub struct Clusters<'a> {
    src: &'a str,
    inner: Graphemes<'a>,
    /// The rest of a cluster of `inner` that is split further.
    pending: &'a str,
    /// A cluster read ahead (see `next`).
    peeked: Option<&'a str>,
}

impl<'a> Iterator for Clusters<'a> {
    type Item = &'a str;

    /// go-textseg v13 also keeps a zero width joiner and the pictograph
    /// after it together when the cluster began with a Hangul jamo or
    /// syllable, a regional indicator or a pictograph, whatever else
    /// precedes the joiner (UAX #29 asks for a pictograph and extending
    /// characters only).
    fn next(&mut self) -> Option<&'a str> {
        let mut g = match self.peeked.take() {
            Some(g) => g,
            None => self.split_next()?,
        };
        let joins = g.chars().next().is_some_and(|c| is_hangul(c) || is_regional_indicator(c) || is_extended_pictographic(c));
        // Again while the joined cluster ends with a joiner.
        while joins && g.ends_with('\u{200D}') {
            let Some(n) = self.split_next() else { break };
            let start = g.as_ptr() as usize - self.src.as_ptr() as usize;
            let end = n.as_ptr() as usize - self.src.as_ptr() as usize + n.len();
            match self.src.get(start..end) {
                Some(joined) if n.chars().next().is_some_and(is_extended_pictographic) => g = joined,
                _ => {
                    self.peeked = Some(n);
                    break;
                }
            }
        }
        Some(g)
    }
}

impl<'a> Clusters<'a> {
    /// The next cluster of `inner`, split before conjunct consonants.
    fn split_next(&mut self) -> Option<&'a str> {
        let g = if self.pending.is_empty() { self.inner.next()? } else { std::mem::take(&mut self.pending) };
        if g.len() < 6 {
            // A consonant and a virama before it take 6 bytes at least.
            return Some(g);
        }
        let mut prev: Option<char> = None;
        for (i, c) in g.char_indices() {
            if i > 0 && is_incb_consonant(c) && !prev.is_some_and(is_prepend) {
                self.pending = &g[i..];
                return Some(&g[..i]);
            }
            prev = Some(c);
        }
        Some(g)
    }
}

fn is_hangul(c: char) -> bool {
    matches!(c as u32, 0x1100..=0x11FF | 0xA960..=0xA97C | 0xAC00..=0xD7A3 | 0xD7B0..=0xD7C6 | 0xD7CB..=0xD7FB)
}

fn is_regional_indicator(c: char) -> bool {
    matches!(c as u32, 0x1F1E6..=0x1F1FF)
}

fn is_extended_pictographic(c: char) -> bool {
    matches!(c as u32,
        0xA9 | 0xAE | 0x203C | 0x2049 | 0x2122 | 0x2139 | 0x2194..=0x2199 | 0x21A9..=0x21AA | 0x231A..=0x231B
        | 0x2328 | 0x23CF | 0x23E9..=0x23F3 | 0x23F8..=0x23FA | 0x24C2 | 0x25AA..=0x25AB | 0x25B6 | 0x25C0
        | 0x25FB..=0x25FE | 0x2600..=0x2604 | 0x260E | 0x2611 | 0x2614..=0x2615 | 0x2618 | 0x261D | 0x2620
        | 0x2622..=0x2623 | 0x2626 | 0x262A | 0x262E..=0x262F | 0x2638..=0x263A | 0x2640 | 0x2642
        | 0x2648..=0x2653 | 0x265F..=0x2660 | 0x2663 | 0x2665..=0x2666 | 0x2668 | 0x267B | 0x267E..=0x267F
        | 0x2692..=0x2697 | 0x2699 | 0x269B..=0x269C | 0x26A0..=0x26A1 | 0x26A7 | 0x26AA..=0x26AB
        | 0x26B0..=0x26B1 | 0x26BD..=0x26BE | 0x26C4..=0x26C5 | 0x26C8 | 0x26CE..=0x26CF | 0x26D1
        | 0x26D3..=0x26D4 | 0x26E9..=0x26EA | 0x26F0..=0x26F5 | 0x26F7..=0x26FA | 0x26FD | 0x2702 | 0x2705
        | 0x2708..=0x270D | 0x270F | 0x2712 | 0x2714 | 0x2716 | 0x271D | 0x2721 | 0x2728 | 0x2733..=0x2734
        | 0x2744 | 0x2747 | 0x274C | 0x274E | 0x2753..=0x2755 | 0x2757 | 0x2763..=0x2764 | 0x2795..=0x2797
        | 0x27A1 | 0x27B0 | 0x27BF | 0x2934..=0x2935 | 0x2B05..=0x2B07 | 0x2B1B..=0x2B1C | 0x2B50 | 0x2B55
        | 0x3030 | 0x303D | 0x3297 | 0x3299 | 0x1F000..=0x1F0FF | 0x1F10D..=0x1F10F | 0x1F12F
        | 0x1F16C..=0x1F171 | 0x1F17E..=0x1F17F | 0x1F18E | 0x1F191..=0x1F19A | 0x1F1AD..=0x1F1E5
        | 0x1F201..=0x1F20F | 0x1F21A | 0x1F22F | 0x1F232..=0x1F23A | 0x1F23C..=0x1F23F | 0x1F249..=0x1F3FA
        | 0x1F400..=0x1F53D | 0x1F546..=0x1F64F | 0x1F680..=0x1F6FF | 0x1F774..=0x1F77F | 0x1F7D5..=0x1F7FF
        | 0x1F80C..=0x1F80F | 0x1F848..=0x1F84F | 0x1F85A..=0x1F85F | 0x1F888..=0x1F88F | 0x1F8AE..=0x1F8FF
        | 0x1F90C..=0x1F93A | 0x1F93C..=0x1F945 | 0x1F947..=0x1FAFF | 0x1FC00..=0x1FFFD)
}

fn is_incb_consonant(c: char) -> bool {
    matches!(c as u32,
        0x915..=0x939 | 0x958..=0x95F | 0x978..=0x97F | 0x995..=0x9A8 | 0x9AA..=0x9B0 | 0x9B2 | 0x9B6..=0x9B9
        | 0x9DC..=0x9DD | 0x9DF | 0x9F0..=0x9F1 | 0xA95..=0xAA8 | 0xAAA..=0xAB0 | 0xAB2..=0xAB3 | 0xAB5..=0xAB9
        | 0xAF9 | 0xB15..=0xB28 | 0xB2A..=0xB30 | 0xB32..=0xB33 | 0xB35..=0xB39 | 0xB5C..=0xB5D | 0xB5F | 0xB71
        | 0xC15..=0xC28 | 0xC2A..=0xC39 | 0xC58..=0xC5A | 0xD15..=0xD3A | 0x1000..=0x102A | 0x103F
        | 0x1050..=0x1055 | 0x105A..=0x105D | 0x1061 | 0x1065..=0x1066 | 0x106E..=0x1070 | 0x1075..=0x1081
        | 0x108E | 0x1780..=0x17B3 | 0x1A20..=0x1A54 | 0x1B0B..=0x1B0C | 0x1B13..=0x1B33 | 0x1B45..=0x1B4C
        | 0x1B83..=0x1BA0 | 0x1BAE..=0x1BAF | 0x1BBB..=0x1BBD | 0xA989..=0xA98B | 0xA98F..=0xA9B2
        | 0xA9E0..=0xA9E4 | 0xA9E7..=0xA9EF | 0xA9FA..=0xA9FE | 0xAA60..=0xAA6F | 0xAA71..=0xAA73 | 0xAA7A
        | 0xAA7E..=0xAA7F | 0xAAE0..=0xAAEA | 0xABC0..=0xABDA | 0x10A00 | 0x10A10..=0x10A13 | 0x10A15..=0x10A17
        | 0x10A19..=0x10A35 | 0x11103..=0x11126 | 0x11144 | 0x11147 | 0x11380..=0x11389 | 0x1138B | 0x1138E
        | 0x11390..=0x113B5 | 0x11900..=0x11906 | 0x11909 | 0x1190C..=0x11913 | 0x11915..=0x11916
        | 0x11918..=0x1192F | 0x11A00 | 0x11A0B..=0x11A32 | 0x11A50 | 0x11A5C..=0x11A83 | 0x11F04..=0x11F10
        | 0x11F12..=0x11F33)
}

fn is_prepend(c: char) -> bool {
    matches!(c as u32,
        0x600..=0x605 | 0x6DD | 0x70F | 0x890..=0x891 | 0x8E2 | 0xD4E | 0x110BD | 0x110CD | 0x111C2..=0x111C3
        | 0x113D1 | 0x1193F | 0x11941 | 0x11A3A | 0x11A84..=0x11A89 | 0x11D46 | 0x11F02)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conjuncts_split_as_in_unicode_13() {
        let v: Vec<&str> = graphemes("\u{915}\u{94D}\u{937}a\u{301}\r\n\u{1F468}\u{200D}\u{1F469}").collect();
        assert_eq!(v, ["\u{915}\u{94D}", "\u{937}", "a\u{301}", "\r\n", "\u{1F468}\u{200D}\u{1F469}"]);
        assert_eq!(count("\u{915}\u{94D}\u{937}"), 2);
        assert_eq!(count("a\r\nb"), 3);
        assert_eq!(nth_start("\u{915}\u{94D}\u{937}", 1), Some(6));
        assert_eq!(nth_start("ab", 2), None);
        // A joiner after a Hangul syllable, a regional indicator or a
        // pictograph with a spacing mark still joins the next pictograph.
        assert_eq!(count("\u{AC00}\u{200D}\u{2764}"), 1);
        assert_eq!(count("\u{1F1FA}\u{200D}\u{2764}"), 1);
        assert_eq!(count("\u{2764}\u{903}\u{200D}\u{2764}"), 1);
        assert_eq!(count("a\u{200D}\u{2764}"), 2);
        // The joined cluster ends with a joiner: the next pictograph joins too.
        assert_eq!(count("\u{AC00}\u{200D}\u{2764}\u{903}\u{200D}\u{2764}"), 1);
        assert_eq!(count("\u{2764}\u{903}\u{200D}\u{2764}\u{903}\u{200D}\u{2764}"), 1);
    }
}
