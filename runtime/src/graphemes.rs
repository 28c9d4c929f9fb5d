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
    Clusters { inner: s.graphemes(true), pending: "" }
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
    inner: Graphemes<'a>,
    /// The rest of a cluster of `inner` that is split further.
    pending: &'a str,
}

impl<'a> Iterator for Clusters<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
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
    }
}
