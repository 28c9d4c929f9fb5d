//! Characters and classes of characters: Go's `\d`, `\pL`, `[...]` and
//! POSIX names, written in the `regex` crate's syntax.

use super::syntax::{err, go_escape, SyntaxError};

const ASCII_CLASSES: &[(char, &str)] = &[('d', "0-9"), ('w', "0-9A-Za-z_"), ('s', "\\t\\n\\x0C\\r ")];

pub(super) fn perl_class(c: char) -> Option<(&'static str, bool)> {
    let lower = c.to_ascii_lowercase();
    ASCII_CLASSES.iter().find(|(k, _)| *k == lower).map(|(_, body)| (*body, c.is_ascii_uppercase()))
}

/// Perl class `body` (negated when `neg`) as `regex` syntax; inside a
/// class (`in_class`) its items alone when not negated.
pub(super) fn push_perl_class(out: &mut String, body: &str, neg: bool, in_class: bool) {
    if in_class && !neg {
        out.push_str(body);
    } else {
        out.push_str(if neg { "[^" } else { "[" });
        out.push_str(body);
        out.push(']');
    }
}

/// Go 1.19's `unicode.Categories`: the names `\p{..}` takes for
/// general categories.
const GO_CATEGORIES: &[&str] = &[
    "C", "Cc", "Cf", "Co", "Cs", "L", "Ll", "Lm", "Lo", "Lt", "Lu", "M", "Mc", "Me", "Mn", "N", "Nd", "Nl", "No", "P", "Pc", "Pd", "Pe",
    "Pf", "Pi", "Po", "Ps", "S", "Sc", "Sk", "Sm", "So", "Z", "Zl", "Zp", "Zs",
];

/// Go 1.19's `unicode.Scripts` (Unicode 13): the script names `\p{..}`
/// takes.
const GO_SCRIPTS: &[&str] = &[
    "Adlam",
    "Ahom",
    "Anatolian_Hieroglyphs",
    "Arabic",
    "Armenian",
    "Avestan",
    "Balinese",
    "Bamum",
    "Bassa_Vah",
    "Batak",
    "Bengali",
    "Bhaiksuki",
    "Bopomofo",
    "Brahmi",
    "Braille",
    "Buginese",
    "Buhid",
    "Canadian_Aboriginal",
    "Carian",
    "Caucasian_Albanian",
    "Chakma",
    "Cham",
    "Cherokee",
    "Chorasmian",
    "Common",
    "Coptic",
    "Cuneiform",
    "Cypriot",
    "Cyrillic",
    "Deseret",
    "Devanagari",
    "Dives_Akuru",
    "Dogra",
    "Duployan",
    "Egyptian_Hieroglyphs",
    "Elbasan",
    "Elymaic",
    "Ethiopic",
    "Georgian",
    "Glagolitic",
    "Gothic",
    "Grantha",
    "Greek",
    "Gujarati",
    "Gunjala_Gondi",
    "Gurmukhi",
    "Han",
    "Hangul",
    "Hanifi_Rohingya",
    "Hanunoo",
    "Hatran",
    "Hebrew",
    "Hiragana",
    "Imperial_Aramaic",
    "Inherited",
    "Inscriptional_Pahlavi",
    "Inscriptional_Parthian",
    "Javanese",
    "Kaithi",
    "Kannada",
    "Katakana",
    "Kayah_Li",
    "Kharoshthi",
    "Khitan_Small_Script",
    "Khmer",
    "Khojki",
    "Khudawadi",
    "Lao",
    "Latin",
    "Lepcha",
    "Limbu",
    "Linear_A",
    "Linear_B",
    "Lisu",
    "Lycian",
    "Lydian",
    "Mahajani",
    "Makasar",
    "Malayalam",
    "Mandaic",
    "Manichaean",
    "Marchen",
    "Masaram_Gondi",
    "Medefaidrin",
    "Meetei_Mayek",
    "Mende_Kikakui",
    "Meroitic_Cursive",
    "Meroitic_Hieroglyphs",
    "Miao",
    "Modi",
    "Mongolian",
    "Mro",
    "Multani",
    "Myanmar",
    "Nabataean",
    "Nandinagari",
    "New_Tai_Lue",
    "Newa",
    "Nko",
    "Nushu",
    "Nyiakeng_Puachue_Hmong",
    "Ogham",
    "Ol_Chiki",
    "Old_Hungarian",
    "Old_Italic",
    "Old_North_Arabian",
    "Old_Permic",
    "Old_Persian",
    "Old_Sogdian",
    "Old_South_Arabian",
    "Old_Turkic",
    "Oriya",
    "Osage",
    "Osmanya",
    "Pahawh_Hmong",
    "Palmyrene",
    "Pau_Cin_Hau",
    "Phags_Pa",
    "Phoenician",
    "Psalter_Pahlavi",
    "Rejang",
    "Runic",
    "Samaritan",
    "Saurashtra",
    "Sharada",
    "Shavian",
    "Siddham",
    "SignWriting",
    "Sinhala",
    "Sogdian",
    "Sora_Sompeng",
    "Soyombo",
    "Sundanese",
    "Syloti_Nagri",
    "Syriac",
    "Tagalog",
    "Tagbanwa",
    "Tai_Le",
    "Tai_Tham",
    "Tai_Viet",
    "Takri",
    "Tamil",
    "Tangut",
    "Telugu",
    "Thaana",
    "Thai",
    "Tibetan",
    "Tifinagh",
    "Tirhuta",
    "Ugaritic",
    "Vai",
    "Wancho",
    "Warang_Citi",
    "Yezidi",
    "Yi",
    "Zanabazar_Square",
];

/// A `\p` or `\P` class at `p[off..]` as Go's parser reads it (a letter,
/// or a name in braces, possibly negated with `^`; only `Any`, general
/// categories and scripts, spelled as Go spells them), in `regex` syntax:
/// the text and the bytes read.
pub(super) fn unicode_class(p: &str, off: usize) -> Result<(String, usize), SyntaxError> {
    let s = &p[off..];
    let mut negate = s.as_bytes()[1] == b'P';
    let (seq_len, mut name) = match s[2..].chars().next() {
        Some('{') => match s.find('}') {
            Some(end) => (end + 1, &s[3..end]),
            None => return Err(err("invalid character class range", s)),
        },
        Some(c) => (2 + c.len_utf8(), &s[2..2 + c.len_utf8()]),
        None => (2, ""),
    };
    if let Some(rest) = name.strip_prefix('^') {
        negate = !negate;
        name = rest;
    }
    // Go's `C` has no unassigned code points (Rust's has), and `Cs`
    // (surrogates) matches nothing in text, which `regex` cannot say.
    let class = |body: &str| format!("[{}{body}]", if negate { "^" } else { "" });
    if name == "C" {
        return Ok((class(r"\p{Cc}\p{Cf}\p{Co}"), seq_len));
    }
    if name == "Cs" {
        let everything = r"[\x{0}-\x{10FFFF}]";
        return Ok(((if negate { everything } else { NOTHING }).to_string(), seq_len));
    }
    let property = if name == "Any" {
        "Any".to_string()
    } else if GO_CATEGORIES.contains(&name) {
        format!("gc={name}")
    } else if GO_SCRIPTS.contains(&name) {
        format!("sc={name}")
    } else {
        return Err(err("invalid character class range", &s[..seq_len]));
    };
    Ok((format!("\\{}{{{property}}}", if negate { 'P' } else { 'p' }), seq_len))
}

/// `c` as a literal in `regex` syntax: letters, digits and non-ASCII
/// text as they are, anything else by its code (an escaped `<` would be
/// a word boundary there).
pub(super) fn push_literal(out: &mut String, c: char) {
    if c.is_alphanumeric() {
        out.push(c);
    } else {
        push_char(out, c as u32);
    }
}

/// A class of nothing, in `regex` syntax: what Go's surrogates match in
/// text (`regex` cannot name them).
pub(super) const NOTHING: &str = r"[^\x{0}-\x{10FFFF}]";

/// Code point `c` as a literal in `regex` syntax. A surrogate (Go takes
/// `\x{D800}`) is in no text: a class of nothing.
pub(super) fn push_char(out: &mut String, c: u32) {
    if (0xD800..=0xDFFF).contains(&c) {
        out.push_str(NOTHING);
    } else {
        out.push_str(&format!("\\x{{{c:X}}}"));
    }
}

/// The code points `lo..=hi` as class items, less the surrogates (which
/// `regex` cannot name and text never holds).
fn push_range(out: &mut String, lo: u32, hi: u32) {
    let parts = [(lo, hi.min(0xD7FF)), (lo.max(0xE000), hi)];
    let mut any = false;
    for (a, b) in parts.into_iter().filter(|(a, b)| a <= b) {
        out.push_str(&format!("\\x{{{a:X}}}"));
        if b != a {
            out.push_str(&format!("-\\x{{{b:X}}}"));
        }
        any = true;
    }
    if !any {
        out.push_str(NOTHING);
    }
}

/// The POSIX classes Go knows (`[:alpha:]` and its `[:^alpha:]`).
const POSIX_CLASSES: &[&str] =
    &["alnum", "alpha", "ascii", "blank", "cntrl", "digit", "graph", "lower", "print", "punct", "space", "upper", "word", "xdigit"];

/// Translates the class at `p[open..]` (a `[`) as Go's `parseClass` reads
/// it; returns the offset after its closing `]`.
pub(super) fn translate_class(p: &str, open: usize, out: &mut String) -> Result<usize, SyntaxError> {
    let whole = &p[open..];
    let mut t = open + 1;
    out.push('[');
    if p[t..].starts_with('^') {
        out.push('^');
        t += 1;
    }
    let mut first = true;
    loop {
        let rest = &p[t..];
        if rest.starts_with(']') && !first {
            out.push(']');
            return Ok(t + 1);
        }
        first = false;
        if rest.len() > 2 && rest.starts_with("[:") {
            if let Some(end) = rest[2..].find(":]") {
                let name = &rest[..end + 4];
                let bare = &name[2..name.len() - 2];
                if !POSIX_CLASSES.contains(&bare.strip_prefix('^').unwrap_or(bare)) {
                    return Err(err("invalid character class range", name));
                }
                out.push_str(name);
                t += name.len();
                continue;
            }
        }
        if rest.starts_with("\\p") || rest.starts_with("\\P") {
            let (class, len) = unicode_class(p, t)?;
            out.push_str(&class);
            t += len;
            continue;
        }
        if let Some((body, neg)) = rest.strip_prefix('\\').and_then(|r| r.chars().next()).and_then(perl_class) {
            push_perl_class(out, body, neg, true);
            t += 2;
            continue;
        }
        let range_start = t;
        let (lo, len) = class_char(p, t, whole)?;
        t += len;
        let mut hi = lo;
        if p[t..].len() >= 2 && p[t..].starts_with('-') && !p[t + 1..].starts_with(']') {
            let (h, len) = class_char(p, t + 1, whole)?;
            t += 1 + len;
            hi = h;
            if hi < lo {
                return Err(err("invalid character class range", &p[range_start..t]));
            }
        }
        push_range(out, lo, hi);
    }
}

/// One character of a class at `p[t..]`: an escape or itself.
fn class_char(p: &str, t: usize, whole: &str) -> Result<(u32, usize), SyntaxError> {
    match p[t..].chars().next() {
        None => Err(err("missing closing ]", whole)),
        Some('\\') => go_escape(p, t),
        Some(c) => Ok((c as u32, c.len_utf8())),
    }
}
