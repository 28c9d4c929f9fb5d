//! NFC exactly as the reference computes it: golang.org/x/text v0.11.0
//! (`unicode/norm`), which cty applies to every string. x/text carries
//! tables for several Unicode versions and picks them by Go release: the
//! reference is built with Go 1.19, which gets the Unicode 13.0.0 tables
//! (the 15.0.0 ones need Go 1.21). So characters assigned later have no
//! decomposition and combining class 0: U+0898 (Unicode 14.0, class 230)
//! is not reordered before a class 220 mark, Unicode 16's Kirat Rai vowel
//! signs do not compose.
//!
//! The character data (combining classes, decompositions, compositions,
//! quick-check values) is `unicode_normalization`'s, pinned to its last
//! release with Unicode 13.0.0 tables. The procedure is x/text's, which
//! differs from plain UAX #15 NFC in two ways that show in results:
//!
//! - Stream-Safe Text Format: after 30 non-starters in a row a U+034F
//!   COMBINING GRAPHEME JOINER is inserted (UAX #15 section 13). x/text
//!   counts non-starters in the compatibility decomposition (so `é` ends
//!   with one, and U+00A8 DIAERESIS too) and also counts characters that
//!   combine backward although their combining class is 0 (Hangul vowels
//!   and trailing consonants, so an LV syllable ends with one and an LVT
//!   syllable with two; Indic length marks);
//! - compositions are looked up by the low 16 bits of both code points, so
//!   a starter and a backward-combining character whose low halves match
//!   a composition pair compose as that pair does: U+10041 then U+0301
//!   becomes `Á`, U+1099 then U+110BA becomes U+1109A.
//!
//! Text is processed in x/text's segments: a segment starts at a character
//! without leading non-starters, or after an inserted joiner; each is
//! decomposed, put in canonical order and recomposed on its own.

use std::borrow::Cow;
use unicode_normalization::char::{canonical_combining_class, compose, decompose_canonical, decompose_compatible};
use unicode_normalization::{is_nfc_quick, IsNormalized};

/// x/text's limit of non-starters in a row.
const MAX_NON_STARTERS: u8 = 30;
const GRAPHEME_JOINER: char = '\u{34F}';

/// Compositions (Unicode 13.0.0) with a code point above U+FFFF: their keys
/// are the ones that clipping to 16 bits can match for other pairs. The
/// test `supplementary_pairs_are_complete` checks the list against
/// `unicode_normalization`.
const SUPPLEMENTARY_PAIRS: [(u32, u32, u32); 13] = [
    (0x11099, 0x110BA, 0x1109A),
    (0x1109B, 0x110BA, 0x1109C),
    (0x110A5, 0x110BA, 0x110AB),
    (0x11131, 0x11127, 0x1112E),
    (0x11132, 0x11127, 0x1112F),
    (0x11347, 0x1133E, 0x1134B),
    (0x11347, 0x11357, 0x1134C),
    (0x114B9, 0x114BA, 0x114BB),
    (0x114B9, 0x114B0, 0x114BC),
    (0x114B9, 0x114BD, 0x114BE),
    (0x115B8, 0x115AF, 0x115BA),
    (0x115B9, 0x115AF, 0x115BB),
    (0x11935, 0x11930, 0x11938),
];

/// Returns `s` in NFC as x/text writes it, borrowing when unchanged.
pub fn normalize_nfc(s: &str) -> Cow<'_, str> {
    if s.is_ascii() {
        return Cow::Borrowed(s);
    }
    if is_plainly_normalized(s) {
        return Cow::Borrowed(s);
    }
    let Some(start) = first_unnormalized_segment(s) else {
        return Cow::Borrowed(s);
    };
    let mut out = String::with_capacity(s.len() + 8);
    out.push_str(&s[..start]);
    normalize_from(&s[start..], &mut out);
    if out == s {
        Cow::Borrowed(s)
    } else {
        Cow::Owned(out)
    }
}

/// The quick check (NFC_QC=Yes everywhere, combining classes in order),
/// and no run of non-starters long enough to overflow the stream-safe
/// count (30, at most 3 per character: 10 characters). Characters of the
/// common ranges of [`is_inert`] need no lookup.
fn is_plainly_normalized(s: &str) -> bool {
    let (mut last_ccc, mut run) = (0u8, 0u32);
    for c in s.chars() {
        if is_inert(c) {
            (last_ccc, run) = (0, 0);
            continue;
        }
        let ccc = canonical_combining_class(c);
        if (last_ccc > ccc && ccc != 0) || quick(c) != Quick::Yes {
            return false;
        }
        // Having passed the quick check, a character counts as a
        // non-starter if it has a combining class, or a compatibility
        // decomposition that starts with one: the Hangul compatibility jamo,
        // the halfwidth voiced sound marks and jamo (the test
        // `quick_yes_starters_with_leading_non_starters` checks the ranges).
        if ccc != 0 || matches!(c, '\u{3131}'..='\u{318E}' | '\u{FF9E}'..='\u{FFDC}') {
            run += 1;
            if run >= 10 {
                return false;
            }
        } else {
            run = 0;
        }
        last_ccc = ccc;
    }
    true
}

/// Ranges of starters (class 0, NFC_QC=Yes, no leading non-starters) that
/// make up most text: below U+0300, kana, CJK ideographs, Hangul
/// syllables (the test `inert_ranges_are_inert` checks them).
fn is_inert(c: char) -> bool {
    matches!(c, '\0'..='\u{2FF}' | '\u{3041}'..='\u{3096}' | '\u{30A1}'..='\u{30FA}' | '\u{3400}'..='\u{4DBF}'
        | '\u{4E00}'..='\u{9FFF}' | '\u{AC00}'..='\u{D7A3}')
}

/// What normalization needs to know of a character.
#[derive(Clone, Copy)]
struct Props {
    ccc: u8,
    /// NFC_QC: Yes, No or Maybe (Maybe: it may combine with what precedes).
    quick: Quick,
    /// Non-starters at the start and at the end of its compatibility
    /// decomposition (backward-combining characters count).
    lead: u8,
    trail: u8,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Quick {
    Yes,
    No,
    Maybe,
}

fn quick(c: char) -> Quick {
    match is_nfc_quick(std::iter::once(c)) {
        IsNormalized::Yes => Quick::Yes,
        IsNormalized::No => Quick::No,
        IsNormalized::Maybe => Quick::Maybe,
    }
}

/// Whether `c` counts as a non-starter for the stream-safe count.
fn counts_as_non_starter(c: char) -> bool {
    canonical_combining_class(c) != 0 || quick(c) == Quick::Maybe
}

fn props(c: char) -> Props {
    let ccc = canonical_combining_class(c);
    let q = quick(c);
    // At most 18 characters (U+FDFA); 3 trailing non-starters at most.
    let mut decomposed = [0 as char; 18];
    let mut n = 0;
    decompose_compatible(c, |d| {
        if n < decomposed.len() {
            decomposed[n] = d;
            n += 1;
        }
    });
    let parts = &decomposed[..n];
    let lead = parts.iter().take_while(|&&d| counts_as_non_starter(d)).count() as u8;
    let trail = parts.iter().rev().take_while(|&&d| counts_as_non_starter(d)).count() as u8;
    Props { ccc, quick: q, lead, trail }
}

/// The stream-safe count of non-starters since the last starter.
#[derive(Default)]
struct StreamSafe(u8);

#[derive(PartialEq, Eq)]
enum Step {
    /// The character continues the segment.
    Continues,
    /// The character starts a segment.
    Starts,
    /// Too many non-starters: a joiner goes before the character.
    Overflows,
}

impl StreamSafe {
    fn next(&mut self, p: &Props) -> Step {
        self.0 += p.lead;
        if self.0 > MAX_NON_STARTERS {
            self.0 = 0;
            return Step::Overflows;
        }
        if p.lead == 0 {
            self.0 = p.trail;
            return Step::Starts;
        }
        Step::Continues
    }
}

/// The start of the first segment that is not already normalized (x/text's
/// quick span), or `None` when all of `s` is.
fn first_unnormalized_segment(s: &str) -> Option<usize> {
    let mut ss = StreamSafe::default();
    let mut last_ccc = 0u8;
    let mut segment = 0;
    for (i, c) in s.char_indices() {
        if c.is_ascii() {
            segment = i;
            last_ccc = 0;
            ss.0 = 0;
            continue;
        }
        let p = props(c);
        match ss.next(&p) {
            Step::Starts => segment = i,
            Step::Overflows => return Some(segment),
            Step::Continues if last_ccc > p.ccc => return Some(segment),
            Step::Continues => {}
        }
        if p.quick != Quick::Yes {
            return Some(segment);
        }
        last_ccc = p.ccc;
    }
    None
}

/// One character of a segment being normalized.
#[derive(Clone, Copy)]
struct Slot {
    c: char,
    ccc: u8,
    /// NFC_QC=Maybe.
    backward: bool,
}

fn normalize_from(s: &str, out: &mut String) {
    let mut ss = StreamSafe::default();
    let mut seg: Vec<Slot> = Vec::with_capacity(8);
    for c in s.chars() {
        let p = props(c);
        match ss.next(&p) {
            Step::Starts => flush(&mut seg, out),
            Step::Overflows => {
                seg.push(Slot { c: GRAPHEME_JOINER, ccc: 0, backward: false });
                flush(&mut seg, out);
                // The character opens the next segment, counted afresh.
                ss.next(&p);
            }
            Step::Continues => {}
        }
        insert(&mut seg, c, out);
    }
    flush(&mut seg, out);
}

/// Adds `c`, decomposed, to the segment in canonical order. A starter
/// inside a decomposition that cannot combine backward ends the segment
/// (a Hangul syllable's jamo are appended as they are).
fn insert(seg: &mut Vec<Slot>, c: char, out: &mut String) {
    let mut parts = [c; 8];
    let mut n = 0;
    decompose_canonical(c, |d| {
        if n < parts.len() {
            parts[n] = d;
        }
        n += 1;
    });
    if n > parts.len() {
        // Canonical decompositions have 4 characters at most; keep going
        // whatever happens.
        n = 1;
        parts[0] = c;
    }
    let decomposed = (n != 1 || parts[0] != c) && !('\u{AC00}'..='\u{D7A3}').contains(&c);
    for &d in &parts[..n] {
        let ccc = canonical_combining_class(d);
        let backward = quick(d) == Quick::Maybe;
        if decomposed && ccc == 0 && !backward && !seg.is_empty() {
            flush(seg, out);
        }
        let mut at = seg.len();
        if ccc > 0 {
            while at > 0 && seg[at - 1].ccc > ccc {
                at -= 1;
            }
        }
        seg.insert(at, Slot { c: d, ccc, backward });
    }
}

fn flush(seg: &mut Vec<Slot>, out: &mut String) {
    compose_segment(seg);
    out.extend(seg.iter().map(|s| s.c));
    seg.clear();
}

/// Recomposes a segment in place, as x/text does: the first character is
/// the starter even when it is not one; from the first Hangul jamo on,
/// only Hangul compositions are made.
fn compose_segment(b: &mut Vec<Slot>) {
    if b.is_empty() {
        return;
    }
    let mut k = 1;
    let mut s = 0;
    let mut i = 1;
    while i < b.len() {
        if ('\u{1100}'..='\u{11FF}').contains(&b[i].c) {
            compose_hangul(b, s, i, k);
            return;
        }
        let cur = b[i];
        if cur.backward {
            let ccc_before = b[k - 1].ccc;
            let mut blocked = false;
            if ccc_before == 0 {
                s = k - 1;
            } else {
                blocked = s != k - 1 && ccc_before >= cur.ccc;
            }
            if !blocked {
                if let Some(c) = combine(b[s].c, cur.c) {
                    b[s] = Slot { c, ccc: 0, backward: false };
                    i += 1;
                    continue;
                }
            }
        }
        b[k] = cur;
        k += 1;
        i += 1;
    }
    b.truncate(k);
}

fn compose_hangul(b: &mut Vec<Slot>, mut s: usize, from: usize, mut k: usize) {
    for i in from..b.len() {
        let cur = b[i];
        let ccc_before = b[k - 1].ccc;
        if ccc_before == 0 {
            s = k - 1;
        }
        if s != k - 1 && ccc_before >= cur.ccc {
            b[k] = cur;
            k += 1;
            continue;
        }
        let (l, v) = (b[s].c as u32, cur.c as u32);
        let combined = if (0x1100..0x1113).contains(&l) && (0x1161..0x1176).contains(&v) {
            Some(0xAC00 + (l - 0x1100) * 588 + (v - 0x1161) * 28)
        } else if (0xAC00..0xD7A4).contains(&l) && (0x11A8..0x11C3).contains(&v) && (l - 0xAC00) % 28 == 0 {
            Some(l + v - 0x11A7)
        } else {
            None
        };
        match combined.and_then(char::from_u32) {
            Some(c) => b[s] = Slot { c, ccc: 0, backward: false },
            None => {
                b[k] = cur;
                k += 1;
            }
        }
    }
    b.truncate(k);
}

/// x/text's composition lookup: by the low 16 bits of both code points,
/// Hangul left out (it is composed apart).
fn combine(a: char, b: char) -> Option<char> {
    let (a, b) = (a as u32, b as u32);
    let (ka, kb) = (a & 0xFFFF, b & 0xFFFF);
    let hangul = |x: u32| (0x1100..=0x11FF).contains(&x) || (0xAC00..=0xD7A3).contains(&x);
    if !hangul(ka) && !hangul(kb) {
        if let (Some(x), Some(y)) = (char::from_u32(ka), char::from_u32(kb)) {
            if let Some(c) = compose(x, y) {
                return Some(c);
            }
        }
    }
    SUPPLEMENTARY_PAIRS.iter().find(|&&(x, y, _)| x & 0xFFFF == ka && y & 0xFFFF == kb).and_then(|&(_, _, c)| char::from_u32(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn composes_and_orders() {
        assert_eq!(normalize_nfc("e\u{301}"), "é");
        assert!(matches!(normalize_nfc("abc"), Cow::Borrowed(_)));
        assert!(matches!(normalize_nfc("é"), Cow::Borrowed(_)));
        assert_eq!(normalize_nfc("\u{1100}\u{1161}\u{11A8}"), "\u{AC01}");
        assert_eq!(normalize_nfc("\u{AC00}\u{11A8}"), "\u{AC01}");
        // Unicode 16 compositions (Kirat Rai) are not made, and marks of
        // Unicode 14 have class 0.
        assert_eq!(normalize_nfc("\u{16D63}\u{16D67}"), "\u{16D63}\u{16D67}");
        assert_eq!(normalize_nfc("\u{898}\u{316}"), "\u{898}\u{316}");
        assert_eq!(normalize_nfc("a\u{301}\u{316}"), "\u{e1}\u{316}");
    }

    #[test]
    fn stream_safe_joiner_after_thirty_non_starters() {
        let s = format!("a{}", "\u{301}".repeat(31));
        let want = format!("\u{e1}{}\u{34F}\u{301}", "\u{301}".repeat(29));
        assert_eq!(normalize_nfc(&s), want);
        let s = format!("a{}", "\u{301}".repeat(30));
        assert_eq!(normalize_nfc(&s), format!("\u{e1}{}", "\u{301}".repeat(29)));
        // An LVT syllable ends with two non-starters.
        let s = format!("\u{AC01}{}", "\u{301}".repeat(29));
        assert_eq!(normalize_nfc(&s), format!("\u{AC01}{}\u{34F}\u{301}", "\u{301}".repeat(28)));
    }

    #[test]
    fn compositions_by_low_sixteen_bits() {
        assert_eq!(normalize_nfc("\u{10041}\u{301}"), "\u{C1}");
        assert_eq!(normalize_nfc("\u{1099}\u{110BA}"), "\u{1109A}");
        assert_eq!(normalize_nfc("\u{11099}\u{110BA}"), "\u{1109A}");
    }

    #[test]
    fn quick_yes_starters_with_leading_non_starters() {
        for cp in 0..=0x10FFFFu32 {
            let Some(c) = char::from_u32(cp) else { continue };
            let p = props(c);
            if p.ccc == 0 && p.quick == Quick::Yes && p.lead > 0 {
                assert!(matches!(c, '\u{3131}'..='\u{318E}' | '\u{FF9E}'..='\u{FFDC}'), "U+{cp:04X}");
            }
        }
        // A run of them overflows too.
        let s = format!("\u{3131}{}", "\u{FF9E}".repeat(31));
        assert!(normalize_nfc(&s).contains(GRAPHEME_JOINER));
    }

    #[test]
    fn inert_ranges_are_inert() {
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32).filter(|&c| is_inert(c)) {
            let p = props(c);
            assert!(p.ccc == 0 && p.quick == Quick::Yes && p.lead == 0, "U+{:04X}", c as u32);
        }
    }

    #[test]
    fn supplementary_pairs_are_complete() {
        let mut found = Vec::new();
        for cp in 0..=0x10FFFFu32 {
            let Some(c) = char::from_u32(cp) else { continue };
            let mut parts = Vec::new();
            decompose_canonical(c, |d| parts.push(d));
            // Primary composites only: the pair must compose back.
            if parts.len() >= 2 {
                let mut first = parts[0];
                let mut composed = Vec::new();
                for &p in &parts[1..] {
                    match compose(first, p) {
                        Some(x) => {
                            composed.push((first as u32, p as u32, x as u32));
                            first = x;
                        }
                        None => break,
                    }
                }
                if first == c {
                    for t in composed {
                        if (t.0 > 0xFFFF || t.1 > 0xFFFF) && !found.contains(&t) {
                            found.push(t);
                        }
                    }
                }
            }
        }
        found.sort_unstable();
        let mut want = SUPPLEMENTARY_PAIRS.to_vec();
        want.sort_unstable();
        assert_eq!(found, want);
    }
}
