//! regex regexall regexreplace, plus the table's compiled-pattern cache.
//!
//! Patterns use Go's RE2 syntax. `translate` reads a pattern as Go 1.19's
//! `regexp/syntax` parser does (its checks in its order, its errors with
//! the text they name) and writes it in the `regex` crate's syntax, which
//! differs in many small ways: literals go by code point (an escaped `<`
//! is a word boundary there), Perl classes and `\b` are ASCII, a `{` that
//! starts no repetition is a literal, names and flags are rewritten to
//! what `regex` takes, and so on. Replacements expand as Go's `Expand`.

use super::regex_shape::{ShapeError, TreeShape};
use super::{str_arg, CallCtx, FnError, ELEMENT_COST};
use crate::types::Type;
use crate::value::Value;
use regex_automata::meta::{self, Regex};
use regex_automata::util::captures::Captures;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Upper bound on the compiled size of one pattern (its NFA).
const COMPILED_SIZE_LIMIT: usize = 128 << 20;
/// Upper bounds on what a table's cache of compiled patterns holds, and on
/// what each thread keeps of them in front of it: patterns, and their
/// compiled bytes.
const CACHE_PATTERNS: usize = 256;
const CACHE_BYTES: usize = 256 << 20;
const RECENT_PATTERNS: usize = 8;
const RECENT_BYTES: usize = 256 << 20;

/// A Go-syntax error: the RE2 error code and the offending expression.
#[derive(Clone, Debug)]
pub struct SyntaxError {
    pub code: String,
    pub expr: String,
}

/// A pattern as Go reads it: its translation, and the element type its
/// matches have (cty's regexPatternResultType). What the type step of
/// `regex` and `regexall` needs: it compiles nothing.
struct Read {
    translation: Translation,
    result: Result<Type, FnError>,
    /// `list(result)`: regexall's return type.
    all: Result<Type, FnError>,
}

/// A compiled pattern.
pub struct Pattern {
    re: Regex,
    read: Arc<Read>,
    /// Its compiled size (what the evaluation that compiled it was
    /// charged).
    bytes: usize,
}

impl Pattern {
    fn groups(&self) -> &[Option<Box<str>>] {
        &self.read.translation.groups
    }
}

type Compiled = Result<Arc<Pattern>, SyntaxError>;
type Reading = Result<Arc<Read>, SyntaxError>;

thread_local! {
    /// The patterns this thread read and compiled last (both are
    /// deterministic, so one list of each serves every table), looked up
    /// without a lock: a call to `regex` or `regexall` needs its pattern
    /// twice, for its return type and to match.
    static RECENT_READ: std::cell::RefCell<Vec<(Box<str>, Reading)>> = const { std::cell::RefCell::new(Vec::new()) };
    static RECENT: std::cell::RefCell<Vec<(Box<str>, Compiled)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// `pattern` read (the thread's recent reads first).
fn read(pattern: &str) -> Reading {
    if let Some(r) = RECENT_READ.with(|r| r.borrow().iter().find(|(p, _)| **p == *pattern).map(|(_, r)| r.clone())) {
        return r;
    }
    let read = translate(pattern).map(|translation| {
        let result = pattern_result_type(&translation.groups);
        let all = result.clone().map(Type::list);
        Arc::new(Read { translation, result, all })
    });
    RECENT_READ.with(|r| {
        let mut r = r.borrow_mut();
        if r.len() >= RECENT_PATTERNS {
            let _evicted = r.remove(0);
        }
        r.push((pattern.into(), read.clone()));
    });
    read
}

/// Compiled patterns keyed by pattern text; cleared when full (patterns in
/// real configurations are few and constant; a configuration that makes
/// many large ones is bounded by the bytes they hold).
pub struct RegexCache {
    map: Mutex<CompiledMap>,
}

#[derive(Default)]
struct CompiledMap {
    patterns: HashMap<String, Compiled, ahash::RandomState>,
    bytes: usize,
}

impl RegexCache {
    pub fn new() -> RegexCache {
        RegexCache { map: Mutex::new(CompiledMap::default()) }
    }

    /// `pattern` compiled, and the bytes compiled for it now (0 when it
    /// was in the cache).
    pub fn get(&self, pattern: &str) -> (Compiled, usize) {
        let recent = RECENT.with(|r| r.borrow().iter().find(|(p, _)| **p == *pattern).map(|(_, c)| c.clone()));
        if let Some(c) = recent {
            return (c, 0);
        }
        // This thread's copy: a cloned `Regex` has a match cache of its own,
        // so threads matching one pattern do not share (and lock) one, and
        // result types built again are not reference-counted by every
        // thread that calls the function.
        let (shared, fresh) = self.get_shared(pattern);
        let local = shared.map(|p| {
            let read = Read { translation: p.read.translation.clone(), result: p.read.result.clone(), all: p.read.all.clone() };
            Arc::new(Pattern { re: p.re.clone(), read: Arc::new(read), bytes: p.bytes })
        });
        RECENT.with(|r| {
            let mut r = r.borrow_mut();
            let bytes = |r: &Vec<(Box<str>, Compiled)>| r.iter().map(|(_, c)| c.as_ref().map_or(0, |p| p.bytes)).sum::<usize>();
            let incoming = local.as_ref().map_or(0, |p| p.bytes);
            while !r.is_empty() && (r.len() >= RECENT_PATTERNS || bytes(&r) + incoming > RECENT_BYTES) {
                let _evicted = r.remove(0);
            }
            r.push((pattern.into(), local.clone()));
        });
        (local, fresh)
    }

    fn get_shared(&self, pattern: &str) -> (Compiled, usize) {
        if let Ok(m) = self.map.lock() {
            if let Some(c) = m.patterns.get(pattern) {
                return (c.clone(), 0);
            }
        }
        let compiled = compile(pattern);
        if let Ok(mut m) = self.map.lock() {
            let incoming = compiled.as_ref().map_or(0, |p| p.bytes);
            if m.patterns.len() >= CACHE_PATTERNS || m.bytes + incoming > CACHE_BYTES {
                m.patterns.clear();
                m.bytes = 0;
            }
            m.bytes += incoming;
            m.patterns.insert(pattern.to_string(), compiled.clone());
        }
        let fresh = compiled.as_ref().map_or(0, |p| p.bytes);
        (compiled, fresh)
    }
}

impl Default for RegexCache {
    fn default() -> Self {
        Self::new()
    }
}

fn err(code: &str, expr: &str) -> SyntaxError {
    SyntaxError { code: code.to_string(), expr: expr.to_string() }
}

fn compile(pattern: &str) -> Compiled {
    let read = read(pattern)?;
    // The `regex` crate's configuration of a `Regex` on strings.
    let config = meta::Config::new()
        .match_kind(regex_automata::MatchKind::LeftmostFirst)
        .utf8_empty(true)
        .nfa_size_limit(Some(COMPILED_SIZE_LIMIT))
        .hybrid_cache_capacity(2 << 20);
    // Go nests groups up to 1,000 deep (the translation adds a level for a
    // repeated repetition).
    let syntax = regex_automata::util::syntax::Config::new().utf8(true).nest_limit(2_100);
    let re = meta::Builder::new().configure(config).syntax(syntax).build(&read.translation.text).map_err(|e| {
        if e.size_limit().is_some() {
            err("expression too large", pattern)
        } else {
            err("invalid or unsupported Perl syntax", pattern)
        }
    })?;
    let bytes = re.memory_usage();
    Ok(Arc::new(Pattern { re, read, bytes }))
}

const ASCII_CLASSES: &[(char, &str)] = &[('d', "0-9"), ('w', "0-9A-Za-z_"), ('s', "\\t\\n\\x0C\\r ")];

fn perl_class(c: char) -> Option<(&'static str, bool)> {
    let lower = c.to_ascii_lowercase();
    ASCII_CLASSES.iter().find(|(k, _)| *k == lower).map(|(_, body)| (*body, c.is_ascii_uppercase()))
}

/// Perl class `body` (negated when `neg`) as `regex` syntax; inside a
/// class (`in_class`) its items alone when not negated.
fn push_perl_class(out: &mut String, body: &str, neg: bool, in_class: bool) {
    if in_class && !neg {
        out.push_str(body);
    } else {
        out.push_str(if neg { "[^" } else { "[" });
        out.push_str(body);
        out.push(']');
    }
}

/// Parses `{n}`, `{n,}` or `{n,m}` at the start of `s`; returns its length
/// and the bounds.
fn repetition(s: &str) -> Option<(usize, u64, Option<u64>)> {
    let b = s.as_bytes();
    let mut i = 1;
    let num = |i: &mut usize| -> Option<u64> {
        let st = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        // Go refuses a leading zero: the `{` is then a literal.
        if *i == st || (*i - st > 1 && b[st] == b'0') {
            return None;
        }
        Some(s[st..*i].parse().unwrap_or(u64::MAX))
    };
    let lo = num(&mut i)?;
    let mut hi = Some(lo);
    if b.get(i) == Some(&b',') {
        i += 1;
        hi = if b.get(i) == Some(&b'}') { None } else { Some(num(&mut i)?) };
    }
    (b.get(i) == Some(&b'}')).then_some((i + 1, lo, hi))
}

/// Go's octal (`\0`, `\012`; `\1`-`\7` only with another octal digit
/// after it: alone it would be a backreference, which Go refuses) and
/// hexadecimal (`\x41`, `\x{263a}`) escapes at `p[off..]` (a backslash):
/// the character and the bytes read; `None` for other escapes.
fn numeric_escape(p: &str, off: usize) -> Option<Result<(u32, usize), SyntaxError>> {
    let b = p.as_bytes();
    let octal = |i: usize| b.get(i).is_some_and(|d| (b'0'..=b'7').contains(d));
    match *b.get(off + 1)? {
        d @ b'0'..=b'7' => {
            if d != b'0' && !octal(off + 2) {
                return None;
            }
            let mut v = u32::from(d - b'0');
            let mut end = off + 2;
            while end < off + 4 && octal(end) {
                v = v * 8 + u32::from(b[end] - b'0');
                end += 1;
            }
            Some(Ok((v, end - off)))
        }
        b'x' => {
            // Go's error names what it read up to the offending character.
            let bad = |end: usize| Some(Err(err("invalid escape sequence", &p[off..end.min(p.len())])));
            let next = |i: usize| p[i..].chars().next();
            let mut i = off + 2;
            let Some(c) = next(i) else { return bad(i) };
            i += c.len_utf8();
            if c == '{' {
                let mut v: u32 = 0;
                let mut digits = 0;
                loop {
                    let Some(c) = next(i) else { return bad(i) };
                    i += c.len_utf8();
                    if c == '}' {
                        break;
                    }
                    let Some(h) = c.to_digit(16) else { return bad(i) };
                    v = v * 16 + h;
                    if v > 0x10FFFF {
                        return bad(i);
                    }
                    digits += 1;
                }
                if digits == 0 {
                    return bad(i);
                }
                return Some(Ok((v, i - off)));
            }
            let Some(c2) = next(i) else { return bad(i) };
            i += c2.len_utf8();
            match (c.to_digit(16), c2.to_digit(16)) {
                (Some(x), Some(y)) => Some(Ok((x * 16 + y, i - off))),
                _ => bad(i),
            }
        }
        _ => None,
    }
}

/// A `(?` group read by [`perl_group`].
struct PerlGroup {
    /// Bytes read.
    len: usize,
    /// Whether it opens a group (`(?P<n>`, `(?flags:`) rather than setting
    /// flags (`(?i)`).
    opens: bool,
    /// What it sets Go's `U` (non-greedy) flag to, if anything.
    ungreedy: Option<bool>,
    /// The name of the capture group it opens (`(?P<name>`).
    capture: Option<String>,
}

/// A `(?` group at `p[off..]` as Go's parser reads it (Go 1.19: named
/// captures only as `(?P<name>`, flags only `i`, `m`, `s`, `U`, with one
/// `-`), written in `regex` syntax to `out`.
fn perl_group(p: &str, off: usize, out: &mut String, names: &mut Vec<String>) -> Result<PerlGroup, SyntaxError> {
    let s = &p[off..];
    let b = s.as_bytes();
    if b.len() > 4 && b[2] == b'P' && b[3] == b'<' {
        let Some(end) = s.find('>') else {
            return Err(err("invalid named capture", s));
        };
        let name = &s[4..end];
        let valid = !name.is_empty() && name.bytes().all(|c| c == b'_' || c.is_ascii_alphanumeric());
        if !valid {
            return Err(err("invalid named capture", &s[..end + 1]));
        }
        // Go takes names `regex` does not (starting with a digit, or
        // twice: the last group of a name gives its value): written with a
        // `_` before, and a repeat with a suffix after a `.`, which no Go
        // name has (results take the names from the translation's group
        // list, not from `regex`).
        let seen = names.iter().filter(|n| n.as_str() == name).count();
        out.push_str("(?P<_");
        out.push_str(name);
        if seen > 0 {
            out.push_str(&format!(".{seen}"));
        }
        out.push('>');
        names.push(name.to_string());
        return Ok(PerlGroup { len: end + 1, opens: true, ungreedy: None, capture: Some(name.to_string()) });
    }
    // Each flag's last setting: on before a `-`, off after it.
    let mut on = String::new();
    let mut off = String::new();
    let mut negated = false;
    let mut saw_flag = false;
    for (at, c) in s[2..].char_indices() {
        let read = 2 + at + c.len_utf8();
        match c {
            'i' | 'm' | 's' | 'U' => {
                let (set, clear) = if negated { (&mut off, &mut on) } else { (&mut on, &mut off) };
                clear.retain(|f| f != c);
                if !set.contains(c) {
                    set.push(c);
                }
                saw_flag = true;
            }
            '-' if !negated => {
                negated = true;
                saw_flag = false;
            }
            ':' | ')' if !negated || saw_flag => {
                let opens = c == ':';
                let mut flags = on;
                if !off.is_empty() {
                    flags.push('-');
                    flags.push_str(&off);
                }
                match (opens, flags.is_empty()) {
                    (true, true) => out.push_str("(?:"),
                    (true, false) => out.push_str(&format!("(?{flags}:")),
                    (false, true) => {}
                    (false, false) => out.push_str(&format!("(?{flags})")),
                }
                let ungreedy = if flags.contains('U') { Some(!off.contains('U')) } else { None };
                return Ok(PerlGroup { len: read, opens, ungreedy, capture: None });
            }
            _ => return Err(err("invalid or unsupported Perl syntax", &s[..read])),
        }
    }
    Err(err("invalid or unsupported Perl syntax", s))
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
fn unicode_class(p: &str, off: usize) -> Result<(String, usize), SyntaxError> {
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

/// Rewrites a Go pattern into `regex` crate syntax, reading it as Go
/// 1.19's `regexp/syntax` parser does (Perl flags) and reporting the
/// first error it reports, with its code and the text it names.
fn translate(p: &str) -> Result<Translation, SyntaxError> {
    let mut out = String::with_capacity(p.len() + 16);
    // Go's capture groups in order, and the shape of its tree.
    let mut groups: Vec<Option<Box<str>>> = Vec::new();
    let mut shape = TreeShape::new();
    let too_deep = || err("expression nests too deeply", p);
    let mut t = 0;
    let mut depth: usize = 0;
    let mut names: Vec<String> = Vec::new();
    // Whether what precedes can take a repetition operator (Go's stack
    // top is an expression, not a group start or `|`).
    let mut can_repeat = false;
    // Where the repetition operator read in the previous step starts.
    let mut last_repeat: Option<usize> = None;
    // Where flag settings written since the last expression start in
    // `out`: Go repeats the expression before them, `regex` refuses a
    // repetition right after them, so they move after it.
    let mut flags_at: Option<(usize, bool)> = None;
    // Go's `U` (non-greedy) flag, and its value outside each open group.
    let mut ungreedy = false;
    let mut ungreedy_outside: Vec<bool> = Vec::new();
    // Where the expression a repetition would take starts in `out`,
    // whether it is a repetition itself, and where open groups start.
    let mut item_start = 0;
    let mut item_repeats = false;
    let mut group_starts: Vec<usize> = Vec::new();
    while t < p.len() {
        let rest = &p[t..];
        let c = rest.chars().next().unwrap_or('\0');
        let mut repeat = None;
        // Flag settings still pending after this step.
        let mut flags_after = None;
        let out_before = out.len();
        match c {
            '(' if rest.starts_with("(?") => {
                let before = can_repeat;
                let PerlGroup { len, opens, ungreedy: sets, capture } = perl_group(p, t, &mut out, &mut names)?;
                depth += usize::from(opens);
                if opens {
                    shape.open(capture.is_some());
                    if let Some(name) = capture {
                        groups.push(Some(name.into()));
                    }
                    ungreedy_outside.push(ungreedy);
                    group_starts.push(out_before);
                }
                let ungreedy_before = ungreedy;
                ungreedy = sets.unwrap_or(ungreedy);
                // Flags alone push nothing: what came before still repeats.
                can_repeat = !opens && before;
                t += len;
                if !opens {
                    flags_at = flags_at.or(Some((out_before, ungreedy_before)));
                    last_repeat = None;
                    continue;
                }
            }
            '(' => {
                depth += 1;
                shape.open(true);
                groups.push(None);
                ungreedy_outside.push(ungreedy);
                group_starts.push(out_before);
                out.push('(');
                can_repeat = false;
                t += 1;
            }
            '|' => {
                shape.bar();
                out.push('|');
                can_repeat = false;
                t += 1;
            }
            ')' => {
                if depth == 0 {
                    return Err(err("unexpected )", p));
                }
                depth -= 1;
                shape.close().map_err(|_| too_deep())?;
                ungreedy = ungreedy_outside.pop().unwrap_or(ungreedy);
                out.push(')');
                item_start = group_starts.pop().unwrap_or(out_before);
                item_repeats = false;
                can_repeat = true;
                t += 1;
            }
            '^' | '$' | '.' => {
                shape.atom(c == '.');
                out.push(c);
                can_repeat = true;
                t += 1;
            }
            '[' => {
                t = translate_class(p, t, &mut out)?;
                shape.atom(true);
                can_repeat = true;
            }
            '*' | '+' | '?' => {
                let after = t + 1 + usize::from(p[t + 1..].starts_with('?'));
                check_repeat(p, t, after, last_repeat, can_repeat)?;
                shape.repeat(None, false, false).map_err(|_| too_deep())?;
                flags_after =
                    push_repetition(&mut out, &p[t..after], after - t > 1, flags_at, ungreedy, item_repeats.then_some(item_start));
                item_repeats = true;
                repeat = Some(t);
                can_repeat = true;
                t = after;
            }
            '{' => match repetition(rest) {
                Some((len, lo, hi)) => {
                    if lo > 1000 || hi.is_some_and(|h| h > 1000 || h < lo) {
                        return Err(err("invalid repeat count", &rest[..len]));
                    }
                    let after = t + len + usize::from(p[t + len..].starts_with('?'));
                    check_repeat(p, t, after, last_repeat, can_repeat)?;
                    // Go's count: the maximum, or the minimum when there is
                    // none; checked when either is 2 or more.
                    let checked = lo >= 2 || hi.is_some_and(|h| h >= 2);
                    shape.repeat(Some(hi.unwrap_or(lo)), hi == Some(0), checked).map_err(|e| match e {
                        ShapeError::TooDeep => too_deep(),
                        ShapeError::TooManyCopies => err("invalid repeat count", &p[t..after]),
                    })?;
                    flags_after =
                        push_repetition(&mut out, &p[t..after], after - t > len, flags_at, ungreedy, item_repeats.then_some(item_start));
                    item_repeats = true;
                    repeat = Some(t);
                    can_repeat = true;
                    t = after;
                }
                None => {
                    shape.literal();
                    out.push_str("\\{");
                    can_repeat = true;
                    t += 1;
                }
            },
            '\\' => {
                let next = rest[1..].chars().next();
                match next {
                    Some('A') => out.push_str("\\A"),
                    Some('z') => out.push_str("\\z"),
                    Some('b') => out.push_str("(?-u:\\b)"),
                    Some('B') => out.push_str("(?-u:\\B)"),
                    Some('C') => return Err(err("invalid escape sequence", &rest[..2])),
                    Some('Q') => {
                        let (lit, after) = match rest[2..].find("\\E") {
                            Some(e) => (&rest[2..2 + e], t + 2 + e + 2),
                            None => (&rest[2..], p.len()),
                        };
                        for lc in lit.chars() {
                            shape.literal();
                            item_start = out.len();
                            item_repeats = false;
                            push_literal(&mut out, lc);
                        }
                        // An empty \Q\E pushes nothing.
                        can_repeat = can_repeat || !lit.is_empty();
                        if !lit.is_empty() {
                            flags_at = None;
                        }
                        last_repeat = None;
                        t = after;
                        continue;
                    }
                    _ => {}
                }
                if matches!(next, Some('A' | 'z' | 'b' | 'B')) {
                    shape.atom(false);
                    can_repeat = true;
                    t += 2;
                } else if matches!(next, Some('p' | 'P')) {
                    let (class, len) = unicode_class(p, t)?;
                    shape.atom(true);
                    out.push_str(&class);
                    can_repeat = true;
                    t += len;
                } else if let Some((body, neg)) = next.and_then(perl_class) {
                    push_perl_class(&mut out, body, neg, false);
                    shape.atom(true);
                    can_repeat = true;
                    t += 2;
                } else {
                    let (ch, len) = go_escape(p, t)?;
                    shape.literal();
                    push_char(&mut out, ch);
                    can_repeat = true;
                    t += len;
                }
            }
            _ => {
                shape.literal();
                push_literal(&mut out, c);
                can_repeat = true;
                t += c.len_utf8();
            }
        }
        // What this step wrote is the expression a repetition would take,
        // unless it was a repetition, a group's start or end, or a `|`.
        if repeat.is_none() && can_repeat && !matches!(c, ')' | '(') && out.len() > out_before {
            item_start = out_before;
            item_repeats = false;
        }
        last_repeat = repeat;
        flags_at = flags_after;
    }
    shape.finish().map_err(|_| too_deep())?;
    if depth > 0 {
        return Err(err("missing closing )", p));
    }
    Ok(Translation { text: out, groups })
}

/// A pattern in the `regex` crate's syntax, and Go's capture groups (their
/// names, in order): `regex` drops the groups of what repeats `{0}` times,
/// which Go keeps (they never take part).
#[derive(Clone)]
struct Translation {
    text: String,
    groups: Vec<Option<Box<str>>>,
}

/// Writes repetition operator `op` (`lazy`: it ends with Go's `?`) after
/// the expression it repeats (from `repeated_from` when that is itself a
/// repetition): before the flag settings written since
/// (`flags_at`: where they start in `out`, and the `U` flag before them),
/// which apply after it. Go reads the operator with the flags as they are
/// after the settings (`ungreedy`); moved before them, a change of `U`
/// is made up for by the `?`. Returns where the settings now start (with
/// `U` before them), still pending for a repetition of the repetition.
fn push_repetition(
    out: &mut String,
    op: &str,
    lazy: bool,
    flags_at: Option<(usize, bool)>,
    ungreedy: bool,
    repeated_from: Option<usize>,
) -> Option<(usize, bool)> {
    // A repetition of a repetition (settings or an empty `\Q\E` between):
    // `regex` would read the two operators as one (`a*?`), so the first
    // is grouped.
    let group = |out: &mut String| {
        if let Some(from) = repeated_from {
            out.insert_str(from, "(?:");
            out.push(')');
        }
    };
    let Some((at, ungreedy_before)) = flags_at else {
        group(out);
        out.push_str(op);
        return None;
    };
    let flags = out.split_off(at);
    group(out);
    match (ungreedy != ungreedy_before, lazy) {
        (false, _) => out.push_str(op),
        (true, true) => out.push_str(&op[..op.len() - 1]),
        (true, false) => {
            out.push_str(op);
            out.push('?');
        }
    }
    let moved = out.len();
    out.push_str(&flags);
    Some((moved, ungreedy_before))
}

/// Go's checks of a repetition operator `p[at..after]` (with its `?`):
/// one right after another is a nested repetition (named from the first),
/// and one with nothing before it has no argument.
fn check_repeat(p: &str, at: usize, after: usize, last_repeat: Option<usize>, can_repeat: bool) -> Result<(), SyntaxError> {
    if let Some(first) = last_repeat {
        return Err(err("invalid nested repetition operator", &p[first..after]));
    }
    if !can_repeat {
        return Err(err("missing argument to repetition operator", &p[at..after]));
    }
    Ok(())
}

/// Go's single-character escape at `p[off..]` (a backslash): the
/// character and the bytes read. Punctuation is itself; then octal and
/// hexadecimal escapes and `\a \f \n \r \t \v`; anything else is invalid.
fn go_escape(p: &str, off: usize) -> Result<(u32, usize), SyntaxError> {
    let Some(c) = p[off + 1..].chars().next() else {
        return Err(err("trailing backslash at end of expression", ""));
    };
    if c.is_ascii() && !c.is_ascii_alphanumeric() {
        return Ok((c as u32, 2));
    }
    if let Some(esc) = numeric_escape(p, off) {
        return esc;
    }
    let ch = match c {
        'a' => '\u{7}',
        'f' => '\u{c}',
        'n' => '\n',
        'r' => '\r',
        't' => '\t',
        'v' => '\u{b}',
        _ => return Err(err("invalid escape sequence", &p[off..off + 1 + c.len_utf8()])),
    };
    Ok((ch as u32, 2))
}

/// `c` as a literal in `regex` syntax: letters, digits and non-ASCII
/// text as they are, anything else by its code (an escaped `<` would be
/// a word boundary there).
fn push_literal(out: &mut String, c: char) {
    if c.is_alphanumeric() {
        out.push(c);
    } else {
        push_char(out, c as u32);
    }
}

/// A class of nothing, in `regex` syntax: what Go's surrogates match in
/// text (`regex` cannot name them).
const NOTHING: &str = r"[^\x{0}-\x{10FFFF}]";

/// Code point `c` as a literal in `regex` syntax. A surrogate (Go takes
/// `\x{D800}`) is in no text: a class of nothing.
fn push_char(out: &mut String, c: u32) {
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
fn translate_class(p: &str, open: usize, out: &mut String) -> Result<usize, SyntaxError> {
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

/// The result type for a pattern (cty's regexPatternResultType).
fn pattern_result_type(groups: &[Option<Box<str>>]) -> Result<Type, FnError> {
    let unnamed = groups.iter().filter(|n| n.is_none()).count();
    let named: Vec<&str> = groups.iter().filter_map(|n| n.as_deref()).collect();
    match (unnamed, named.len()) {
        (0, 0) => Ok(Type::String),
        (u, n) if u > 0 && n > 0 => Err(FnError::arg(0, "invalid regexp pattern: cannot mix both named and unnamed capture groups")),
        (u, 0) => Ok(Type::tuple(vec![Type::String; u])),
        _ => Ok(Type::object(named.into_iter().collect::<std::collections::BTreeSet<_>>().into_iter().map(|n| (n, Type::String)))),
    }
}

/// The error cty reports for a pattern Go refuses.
fn invalid_pattern(e: SyntaxError) -> FnError {
    FnError::arg(0, format!("invalid regexp pattern: {} in {}", e.code, e.expr))
}

/// `pattern` compiled for a call; compiling it (not finding it in the
/// cache) is charged its compiled size from the evaluation's size budget:
/// the step budget does not count compiling, and a pattern can take tens
/// of megabytes and a good part of a second.
fn compiled(ctx: &mut CallCtx, pattern: &str) -> Result<Result<Arc<Pattern>, SyntaxError>, FnError> {
    let (compiled, fresh) = ctx.regexes.get(pattern);
    if !ctx.budget.charge(fresh as u64) {
        return Err(FnError::new("the compiled pattern is too large (it exceeds the evaluation size limit)"));
    }
    Ok(compiled)
}

/// Group `i` of a match in `s`.
fn group_text<'s>(caps: &Captures, s: &'s str, i: usize) -> Option<&'s str> {
    caps.get_group(i).and_then(|span| s.get(span.range()))
}

/// The value of a match in `s`: its text, or Go's groups (those `regex`
/// dropped never take part: null).
fn result_for(groups: &[Option<Box<str>>], caps: &Captures, s: &str, ty: &Type) -> Value {
    let group = |i: usize| group_text(caps, s, i).map_or(Value::Null(Type::String), Value::string);
    match ty {
        Type::String => Value::string(group_text(caps, s, 0).unwrap_or("")),
        Type::Tuple(_) => Value::tuple((1..=groups.len()).map(group).collect()),
        _ => {
            // In group order: a later group of a name replaces an earlier.
            let mut attrs = std::collections::BTreeMap::new();
            for (i, n) in groups.iter().enumerate() {
                if let Some(n) = n {
                    attrs.insert(&**n, group(i + 1));
                }
            }
            Value::object(attrs.into_iter().collect())
        }
    }
}

// The type step reads the pattern (Go's checks, its groups), and compiles
// nothing: it has no budget to charge, and a call whose text is unknown
// matches nothing.
pub fn regex_type(args: &[Value]) -> Result<Type, FnError> {
    let Some(p) = args[0].as_str() else {
        return Ok(Type::Dynamic);
    };
    read(p).map_err(invalid_pattern)?.result.clone()
}

pub fn regexall_type(args: &[Value]) -> Result<Type, FnError> {
    let Some(p) = args[0].as_str() else {
        return Ok(Type::list(Type::Dynamic));
    };
    read(p).map_err(invalid_pattern)?.all.clone()
}

pub fn regex(args: &[Value], ret: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    if ret.is_dynamic() {
        return Ok(Value::dynamic_unknown());
    }
    let re = compiled(ctx, str_arg(&args[0]))?.map_err(invalid_pattern)?;
    let s = str_arg(&args[1]);
    let mut caps = re.re.create_captures();
    re.re.captures(s, &mut caps);
    if caps.is_match() {
        Ok(result_for(re.groups(), &caps, s, ret))
    } else {
        Err(FnError::new("pattern did not match any part of the given string"))
    }
}

pub fn regexall(args: &[Value], ret: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let ety = ret.element_type().cloned().unwrap_or(Type::Dynamic);
    if ety.is_dynamic() {
        return Ok(Value::dynamic_unknown());
    }
    let re = compiled(ctx, str_arg(&args[0]))?.map_err(invalid_pattern)?;
    let s = str_arg(&args[1]);
    // Usually zero or one match (anchored patterns): no allocation for
    // none, and room for exactly one at the first (growing and then
    // shrinking the buffer would copy it twice).
    let mut out = Vec::new();
    if ety == Type::String {
        // No capture groups: the matched texts, without building captures.
        for m in re.re.find_iter(s) {
            ctx.charge(ELEMENT_COST)?;
            out.reserve_exact(1);
            out.push(Value::string(&s[m.range()]));
        }
    } else {
        for caps in re.re.captures_iter(s) {
            ctx.charge(ELEMENT_COST * caps.group_len() as u64)?;
            out.reserve_exact(1);
            out.push(result_for(re.groups(), &caps, s, &ety));
        }
    }
    // Every element has the pattern's result type exactly (a string, or
    // a tuple or object of strings, null strings for groups that did not
    // take part), which is `ety`: no element check is needed.
    Ok(Value::list_unchecked(ety, out))
}

pub fn regexreplace(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let s = str_arg(&args[0]);
    let pattern = str_arg(&args[1]);
    let replacement = str_arg(&args[2]);
    let re = compiled(ctx, pattern)?.map_err(|e| FnError::new(format!("error parsing regexp: {}: `{}`", e.code, e.expr)))?;
    // The text outside the matches is at most the text; each expansion is
    // charged as it is written (one pass: an estimate made up front had
    // to match twice, and over-estimating refused replacements the
    // reference makes).
    ctx.charge(s.len() as u64)?;
    let names: Vec<Option<&str>> = std::iter::once(None).chain(re.groups().iter().map(|n| n.as_deref())).collect();
    let mut out = String::with_capacity(s.len());
    let mut last = 0;
    for caps in re.re.captures_iter(s) {
        let Some(m) = caps.get_match() else { continue };
        out.push_str(&s[last..m.start()]);
        let before = out.len();
        go_expand(replacement, &caps, s, &names, &mut out);
        ctx.charge((out.len() - before) as u64)?;
        last = m.end();
    }
    out.push_str(&s[last..]);
    Ok(Value::from_string(out))
}

/// The length of the name at the start of `s`, as Go's `Expand` reads
/// one: letters (Unicode `L`), decimal digits (`Nd`) and `_`.
fn name_len(s: &str) -> usize {
    static NAME: std::sync::OnceLock<Option<Regex>> = std::sync::OnceLock::new();
    match NAME.get_or_init(|| Regex::new(r"\A[\p{L}\p{Nd}_]*").ok()) {
        Some(re) => re.find(s).map_or(0, |m| m.end()),
        None => s.bytes().take_while(|b| b.is_ascii_alphanumeric() || *b == b'_').count(),
    }
}

/// Go's `Regexp.Expand` of `template` for one match: `$$` is `$`, `$name`
/// and `${name}` (letters, digits, `_`) a group by number (no leading
/// zero) or by name (the first group of that name that took part), a `$`
/// before anything else itself.
fn go_expand(template: &str, caps: &Captures, s: &str, names: &[Option<&str>], out: &mut String) {
    let mut t = template;
    while let Some(at) = t.find('$') {
        out.push_str(&t[..at]);
        t = &t[at + 1..];
        if let Some(rest) = t.strip_prefix('$') {
            out.push('$');
            t = rest;
            continue;
        }
        let (braced, body) = match t.strip_prefix('{') {
            Some(b) => (true, b),
            None => (false, t),
        };
        let len = name_len(body);
        let closed = !braced || body[len..].starts_with('}');
        if len == 0 || !closed {
            out.push('$');
            continue;
        }
        let name = &body[..len];
        t = &body[len + usize::from(braced)..];
        let number = (name.bytes().all(|b| b.is_ascii_digit()) && (name.len() == 1 || !name.starts_with('0')) && name.len() <= 9)
            .then(|| name.parse::<usize>().ok())
            .flatten();
        let group = match number {
            Some(i) => group_text(caps, s, i),
            None => names.iter().enumerate().filter(|(_, n)| **n == Some(name)).find_map(|(i, _)| group_text(caps, s, i)),
        };
        if let Some(text) = group {
            out.push_str(text);
        }
    }
    out.push_str(t);
}

#[cfg(test)]
mod tests {
    use super::translate;

    #[test]
    fn go_syntax_translation() {
        let rows: &[(&str, Result<&str, &str>)] = &[
            (r"\d+", Ok("[0-9]+")),
            (r"[\w-]", Ok(r"[0-9A-Za-z_\x{2D}]")),
            (r"a{", Ok(r"a\{")),
            (r"a{2,3}", Ok("a{2,3}")),
            (r"a{1001}", Err("invalid repeat count")),
            ("(", Err("missing closing )")),
            ("[", Err("missing closing ]")),
            ("*", Err("missing argument to repetition operator")),
            ("a**", Err("invalid nested repetition operator")),
            ("a*?", Ok("a*?")),
            // Names a Go pattern may use and `regex` may not, kept apart.
            (r"(?P<x>a)(?P<1>b)(?P<x>c)", Ok("(?P<_x>a)(?P<_1>b)(?P<_x.1>c)")),
            (r"(?<x>a)", Err("invalid or unsupported Perl syntax")),
            (r"\Qa.b\E", Ok(r"a\x{2E}b")),
            (r"[[:alpha:]]", Ok("[[:alpha:]]")),
            (r"[[:foo:]]", Err("invalid character class range")),
            (r"\012\x{263a}\x41", Ok(r"\x{A}\x{263A}\x{41}")),
            (r"\1", Err("invalid escape sequence")),
            (r"[a-\d]", Err("invalid escape sequence")),
            (r"[z-a]", Err("invalid character class range")),
            (r"\p{Greek}\pL\p{Foo}", Err("invalid character class range")),
            (r"\p{^Greek}", Ok(r"\P{sc=Greek}")),
            // A repetition after flag settings repeats what came before.
            ("a(?s)*", Ok("a*(?s)")),
            ("a(?U)*", Ok("a*?(?U)")),
            (r"(?s)\Q.*\E?", Ok(r"(?s)\x{2E}\x{2A}?")),
        ];
        for (pat, want) in rows {
            match (translate(pat), want) {
                (Ok(got), Ok(w)) => assert_eq!(&got.text, w, "{pat}"),
                (Err(e), Err(code)) => assert_eq!(&e.code, code, "{pat}"),
                (got, want) => panic!("{pat}: got {:?}, want {want:?}", got.map(|t| t.text)),
            }
        }
    }
}
