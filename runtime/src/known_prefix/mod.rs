//! The part of a string that later text cannot change: go-cty's
//! `ctystrings.SafeKnownPrefix`, used for the known prefix of an unknown
//! string (a template with an unknown part, `format` with an unknown
//! argument).
//!
//! Appending text can change the end of a string twice over: Unicode
//! normalization may compose the last characters with what follows, and a
//! grapheme cluster may go on. So the prefix is cut back to its last
//! normalization boundary (x/text's `NFC.LastBoundary`, whose character
//! properties `tables.rs` holds, read off x/text by
//! `runtime/tools/known_prefix_tables.go`) and then loses its
//! last grapheme cluster (go-textseg v13, go-cty's segmenter), unless that
//! cluster is one of a few delimiter characters that never join anything.

mod tables;

/// The longest known prefix that stays a prefix whatever text follows.
pub fn safe_known_prefix(prefix: &str) -> String {
    let prefix = crate::strings::normalize_nfc(prefix);
    let prefix: &str = &prefix;
    if let Some(lb) = last_boundary(prefix) {
        if lb != prefix.len() {
            return prefix[..lb].to_string();
        }
    }
    // go-textseg's scanner, asked whether more text could extend a
    // cluster, cannot tell for a lone CR or LF (a CR LF pair it can): the
    // prefix ends before the first one.
    if let Some(lone) = first_lone_line_break(prefix) {
        return prefix[..lone].to_string();
    }
    let Some(last) = crate::graphemes::graphemes(prefix, crate::graphemes::Textseg::V13).last() else {
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

/// Where the first CR or LF that is not part of a CR LF pair is.
fn first_lone_line_break(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\r' if b.get(i + 1) == Some(&b'\n') => i += 2,
            b'\r' | b'\n' => return Some(i),
            _ => i += 1,
        }
    }
    None
}

/// Characters that certainly end a grapheme cluster (go-cty's list).
fn is_delimiter(c: char) -> bool {
    matches!(
        c,
        '-' | '_'
            | ':'
            | ';'
            | '/'
            | '\\'
            | ','
            | '.'
            | '('
            | ')'
            | '{'
            | '}'
            | '['
            | ']'
            | '|'
            | '?'
            | '!'
            | '~'
            | ' '
            | '\t'
            | '@'
            | '#'
            | '$'
            | '%'
            | '^'
            | '&'
            | '*'
            | '+'
            | '"'
            | '\''
    )
}

/// x/text's `NFC.LastBoundary` on valid UTF-8: the end when the last
/// character can interact with nothing after it, else the start of the
/// last character that begins a normalization segment, giving up after 30
/// non-starters (x/text's stream-safe limit); `None` when there is none.
fn last_boundary(s: &str) -> Option<usize> {
    let (_, last) = s.char_indices().next_back()?;
    if !in_ranges(tables::INTERACTS, last) {
        return Some(s.len());
    }
    let mut non_starters = 0u32;
    let mut after = s.len();
    for (i, c) in s.char_indices().rev() {
        let weight = non_starter_weight(c);
        non_starters += weight;
        if non_starters > 30 {
            return Some(after);
        }
        if weight == 0 {
            return Some(i);
        }
        after = i;
    }
    None
}

fn in_ranges(table: &[(u32, u32)], c: char) -> bool {
    let c = c as u32;
    table
        .binary_search_by(|&(lo, hi)| {
            if hi < c {
                std::cmp::Ordering::Less
            } else if lo > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// How many non-starters `c` counts as (0: a starter).
fn non_starter_weight(c: char) -> u32 {
    let c = c as u32;
    let table = tables::NON_STARTERS;
    match table.binary_search_by(|&(lo, hi, _)| {
        if hi < c {
            std::cmp::Ordering::Less
        } else if lo > c {
            std::cmp::Ordering::Greater
        } else {
            std::cmp::Ordering::Equal
        }
    }) {
        Ok(i) => u32::from(table[i].2),
        Err(_) => 0,
    }
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
        // The scan stops at the first line break.
        assert_eq!(safe_known_prefix("ab\n  "), "ab");
        assert_eq!(safe_known_prefix("a\rb c "), "a");
        assert_eq!(safe_known_prefix("a\r\nb c "), "a\r\nb c ");
    }
}
