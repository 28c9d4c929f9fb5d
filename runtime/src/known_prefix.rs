//! The part of a string that later text cannot change: go-cty's
//! `ctystrings.SafeKnownPrefix`, used for the known prefix of an unknown
//! string (a template with an unknown part, `format` with an unknown
//! argument).
//!
//! Appending text can change the end of a string twice over: Unicode
//! normalization may compose the last characters with what follows, and a
//! grapheme cluster may go on. So the prefix is cut back to its last
//! normalization boundary (x/text's `NFC.LastBoundary`) and then loses its
//! last grapheme cluster (go-textseg v13, go-cty's segmenter), unless that
//! cluster is one of a few delimiter characters that never join anything.

use std::collections::HashSet;
use std::sync::OnceLock;
use unicode_normalization::char::{canonical_combining_class, decompose_canonical};
use unicode_normalization::{is_nfc_quick, IsNormalized, UnicodeNormalization};

/// The longest known prefix that stays a prefix whatever text follows.
pub fn safe_known_prefix(prefix: &str) -> String {
    let prefix = crate::strings::normalize_nfc(prefix);
    let prefix: &str = &prefix;
    if let Some(lb) = last_boundary(prefix) {
        if lb != prefix.len() {
            return prefix[..lb].to_string();
        }
    }
    let Some(last) = crate::graphemes::graphemes(prefix).last() else {
        return String::new();
    };
    let start = prefix.len() - last.len();
    let mut chars = last.chars();
    let single_delimiter = matches!((chars.next(), chars.next()), (Some(c), None) if is_delimiter(c));
    if single_delimiter {
        prefix.to_string()
    } else {
        prefix[..start].to_string()
    }
}

/// The known prefix hcl gives the unknown result of a template: the text
/// of the parts before the first unknown one, cut to its first 128 bytes
/// (hcl v2.17.1's limit) before it is made safe. A cut inside a character
/// leaves Go an incomplete UTF-8 sequence, which normalization's boundary
/// search drops together with whatever the character before it may still
/// combine with.
pub fn template_known_prefix(text: &str) -> String {
    const LIMIT: usize = 128;
    if text.len() <= LIMIT || text.is_char_boundary(LIMIT) {
        return safe_known_prefix(&text[..text.len().min(LIMIT)]);
    }
    let mut cut = LIMIT;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let valid = crate::strings::normalize_nfc(&text[..cut]);
    match last_boundary(&valid) {
        Some(lb) => valid[..lb].to_string(),
        None => valid.into_owned(),
    }
}

/// Characters that certainly end a grapheme cluster (go-cty's list).
fn is_delimiter(c: char) -> bool {
    matches!(
        c,
        '-' | '_' | ':' | ';' | '/' | '\\' | ',' | '.' | '(' | ')' | '{' | '}' | '[' | ']' | '|' | '?' | '!' | '~' | ' '
            | '\t' | '@' | '#' | '$' | '%' | '^' | '&' | '*' | '+' | '"' | '\''
    )
}

/// x/text's `NFC.LastBoundary` on valid UTF-8: the end when the last
/// character can interact with nothing after it, else the start of the
/// last character that begins a normalization segment; `None` when there
/// is none.
fn last_boundary(s: &str) -> Option<usize> {
    let (_, last) = s.char_indices().next_back()?;
    if is_inert(last) {
        return Some(s.len());
    }
    // Walk back over the segment, counting non-starters as x/text's
    // stream-safe check does (at most 30).
    let mut non_starters = 0u32;
    let mut after = s.len();
    for (i, c) in s.char_indices().rev() {
        non_starters += trailing_non_starters(c);
        if non_starters > 30 {
            return Some(after);
        }
        if leading_non_starters(c) == 0 {
            return Some(i);
        }
        after = i;
    }
    None
}

/// Never composes with or reorders around a neighbour, and has no
/// decomposition (x/text's "inert").
fn is_inert(c: char) -> bool {
    if c.is_ascii() {
        return !combines_forward(c);
    }
    canonical_combining_class(c) == 0
        && !has_decomposition(c)
        && is_nfc_quick(std::iter::once(c)) == IsNormalized::Yes
        && !combines_forward(c)
}

fn has_decomposition(c: char) -> bool {
    let mut n = 0;
    let mut same = true;
    decompose_canonical(c, |d| {
        n += 1;
        same &= d == c;
    });
    !(n == 1 && same)
}

fn decomposition(c: char) -> Vec<char> {
    let mut out = Vec::new();
    decompose_canonical(c, |d| out.push(d));
    out
}

/// Non-starters at the end of `c`'s decomposition (or `c` itself).
fn trailing_non_starters(c: char) -> u32 {
    decomposition(c).iter().rev().take_while(|&&d| canonical_combining_class(d) != 0).count() as u32
}

/// Non-starters at the start of `c`'s decomposition (or `c` itself).
fn leading_non_starters(c: char) -> u32 {
    decomposition(c).iter().take_while(|&&d| canonical_combining_class(d) != 0).count() as u32
}

/// Whether `c` is the first character of a canonical composition pair.
fn combines_forward(c: char) -> bool {
    static FIRSTS: OnceLock<HashSet<char>> = OnceLock::new();
    FIRSTS
        .get_or_init(|| {
            // A primary composite (a character NFC keeps that decomposes
            // into two or more) is the composition of what its
            // decomposition less the last character composes to, and that
            // last character: the former combines forward.
            let mut firsts = HashSet::new();
            for cp in 0x80..=0x10FFFFu32 {
                let Some(x) = char::from_u32(cp) else { continue };
                let d = decomposition(x);
                if d.len() < 2 || is_nfc_quick(std::iter::once(x)) != IsNormalized::Yes {
                    continue;
                }
                let head: String = d[..d.len() - 1].iter().collect::<String>().nfc().collect();
                let mut chars = head.chars();
                if let (Some(first), None) = (chars.next(), chars.next()) {
                    firsts.insert(first);
                }
            }
            firsts
        })
        .contains(&c)
}

#[cfg(test)]
mod tests {
    use super::safe_known_prefix;

    #[test]
    fn prefixes_lose_what_may_still_change() {
        // A letter may still take a combining mark; a space ends everything.
        assert_eq!(safe_known_prefix("hello"), "hell");
        assert_eq!(safe_known_prefix("hello "), "hello ");
        assert_eq!(safe_known_prefix("https://"), "https://");
        assert_eq!(safe_known_prefix("a1"), "a");
        assert_eq!(safe_known_prefix("x="), "x");
        assert_eq!(safe_known_prefix(""), "");
        // é may take another mark: cut at its start.
        assert_eq!(safe_known_prefix("caf\u{e9}"), "caf");
    }
}
