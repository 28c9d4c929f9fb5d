//! regex regexall regexreplace, plus the table's compiled-pattern cache.
//!
//! Patterns use Go's RE2 syntax. The `regex` crate agrees on almost all of
//! it; the differences are bridged by rewriting the pattern before
//! compiling: Perl classes (`\d \w \s \b`) are ASCII-only in Go, a `{` that
//! does not start a valid repetition is a literal in Go, `[` and `&&`/`~~`
//! inside a class are literals in Go, and `\Q...\E` quotes literally.

use super::{str_arg, CallCtx, FnError, ELEMENT_COST};
use crate::types::Type;
use crate::value::Value;
use regex::Regex;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Maximum number of compiled patterns kept per table.
const CACHE_CAPACITY: usize = 256;
/// Upper bound on the compiled size of one pattern (the regex crate's NFA).
const COMPILED_SIZE_LIMIT: usize = 8 << 20;

/// A Go-syntax error: the RE2 error code and the offending expression.
#[derive(Clone, Debug)]
pub struct SyntaxError {
    pub code: String,
    pub expr: String,
}

/// A compiled pattern and the element type its matches have (cty's
/// regexPatternResultType), worked out once at compile time.
pub struct Pattern {
    re: Regex,
    result: Result<Type, FnError>,
    /// `list(result)`: regexall's return type.
    all: Result<Type, FnError>,
}

impl std::ops::Deref for Pattern {
    type Target = Regex;
    fn deref(&self) -> &Regex {
        &self.re
    }
}

type Compiled = Result<Arc<Pattern>, SyntaxError>;

/// Patterns kept per thread in front of the shared caches.
const RECENT_CAPACITY: usize = 8;

thread_local! {
    /// The patterns this thread used last (compiling is deterministic, so
    /// one list serves every table), looked up without a lock: a call to
    /// `regex` or `regexall` needs its pattern twice, for its return type
    /// and to match.
    static RECENT: std::cell::RefCell<Vec<(Box<str>, Compiled)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Compiled patterns keyed by pattern text; cleared when full (patterns in
/// real configurations are few and constant).
pub struct RegexCache {
    map: Mutex<HashMap<String, Compiled, ahash::RandomState>>,
}

impl RegexCache {
    pub fn new() -> RegexCache {
        RegexCache { map: Mutex::new(HashMap::default()) }
    }

    pub fn get(&self, pattern: &str) -> Compiled {
        let recent = RECENT.with(|r| r.borrow().iter().find(|(p, _)| **p == *pattern).map(|(_, c)| c.clone()));
        if let Some(c) = recent {
            return c;
        }
        // This thread's copy: a cloned `Regex` has a match cache of its own,
        // so threads matching one pattern do not share (and lock) one, and
        // result types built again are not reference-counted by every
        // thread that calls the function.
        let local = self.get_shared(pattern).map(|p| {
            let result = pattern_result_type(&p.re);
            let all = result.clone().map(Type::list);
            Arc::new(Pattern { re: p.re.clone(), result, all })
        });
        RECENT.with(|r| {
            let mut r = r.borrow_mut();
            if r.len() >= RECENT_CAPACITY {
                let _evicted = r.remove(0);
            }
            r.push((pattern.into(), local.clone()));
        });
        local
    }

    fn get_shared(&self, pattern: &str) -> Compiled {
        if let Ok(m) = self.map.lock() {
            if let Some(c) = m.get(pattern) {
                return c.clone();
            }
        }
        let compiled = compile(pattern);
        if let Ok(mut m) = self.map.lock() {
            if m.len() >= CACHE_CAPACITY {
                m.clear();
            }
            m.insert(pattern.to_string(), compiled.clone());
        }
        compiled
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
    let translated = translate(pattern)?;
    regex::RegexBuilder::new(&translated)
        .size_limit(COMPILED_SIZE_LIMIT)
        .build()
        .map(|re| {
            let result = pattern_result_type(&re);
            let all = result.clone().map(Type::list);
            Arc::new(Pattern { re, result, all })
        })
        .map_err(|e| match e {
            regex::Error::CompiledTooBig(_) => err("expression too large", pattern),
            _ => err("invalid or unsupported Perl syntax", pattern),
        })
}

const ASCII_CLASSES: &[(char, &str)] = &[('d', "0-9"), ('w', "0-9A-Za-z_"), ('s', "\\t\\n\\x0C\\r ")];

fn perl_class(c: char) -> Option<(&'static str, bool)> {
    let lower = c.to_ascii_lowercase();
    ASCII_CLASSES.iter().find(|(k, _)| *k == lower).map(|(_, body)| (*body, c.is_ascii_uppercase()))
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
        if *i == st {
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

fn push_escaped(out: &mut String, c: char) {
    if c.is_ascii_punctuation() || c == ' ' {
        out.push('\\');
    }
    out.push(c);
}

/// Rewrites a Go pattern into `regex` crate syntax, reporting the
/// structural errors Go reports (with Go's codes).
fn translate(p: &str) -> Result<String, SyntaxError> {
    let mut out = String::with_capacity(p.len() + 16);
    let chars: Vec<(usize, char)> = p.char_indices().collect();
    let mut i = 0;
    let mut depth: usize = 0;
    // Whether the previous item can take a repetition operator.
    let mut can_repeat = false;
    let mut last_was_repeat = false;
    while i < chars.len() {
        let (off, c) = chars[i];
        match c {
            '\\' => {
                let Some(&(_, n)) = chars.get(i + 1) else {
                    return Err(err("trailing backslash at end of expression", ""));
                };
                if n == 'Q' {
                    let rest = &p[off + 2..];
                    let (lit, adv) = match rest.find("\\E") {
                        Some(e) => (&rest[..e], e + 2),
                        None => (rest, rest.len()),
                    };
                    for lc in lit.chars() {
                        push_escaped(&mut out, lc);
                    }
                    let target = off + 2 + adv;
                    while i < chars.len() && chars[i].0 < target {
                        i += 1;
                    }
                    can_repeat = !lit.is_empty();
                    last_was_repeat = false;
                    continue;
                }
                if let Some((body, neg)) = perl_class(n) {
                    out.push_str(if neg { "[^" } else { "[" });
                    out.push_str(body);
                    out.push(']');
                } else if n == 'b' || n == 'B' {
                    out.push_str(if n == 'b' { "(?-u:\\b)" } else { "(?-u:\\B)" });
                } else if n.is_ascii_alphanumeric()
                    && !matches!(n, 'A' | 'z' | 'p' | 'P' | 'x' | 'a' | 'f' | 't' | 'n' | 'r' | 'v' | '0'..='7')
                {
                    return Err(err("invalid escape sequence", &p[off..off + 1 + n.len_utf8()]));
                } else {
                    out.push('\\');
                    out.push(n);
                    if n == 'p' || n == 'P' {
                        // \pL or \p{Name}: copy the class name.
                        if let Some(&(_, '{')) = chars.get(i + 2) {
                            let mut j = i + 2;
                            while j < chars.len() && chars[j].1 != '}' {
                                out.push(chars[j].1);
                                j += 1;
                            }
                            if j < chars.len() {
                                out.push('}');
                            }
                            i = j + 1;
                            can_repeat = true;
                            last_was_repeat = false;
                            continue;
                        } else if let Some(&(_, l)) = chars.get(i + 2) {
                            out.push(l);
                            i += 3;
                            can_repeat = true;
                            last_was_repeat = false;
                            continue;
                        }
                    }
                }
                i += 2;
                can_repeat = true;
                last_was_repeat = false;
            }
            '[' => {
                let end = translate_class(p, &chars, i, &mut out)?;
                i = end;
                can_repeat = true;
                last_was_repeat = false;
            }
            '(' => {
                depth += 1;
                out.push('(');
                i += 1;
                // Group flags and names are the same in both syntaxes.
                can_repeat = false;
                last_was_repeat = false;
                if chars.get(i).map(|x| x.1) == Some('?') {
                    out.push('?');
                    i += 1;
                    while i < chars.len() && !matches!(chars[i].1, ')' | ':') && chars[i].1 != '>' {
                        out.push(chars[i].1);
                        i += 1;
                    }
                    if i < chars.len() {
                        let ch = chars[i].1;
                        if ch == ')' {
                            depth -= 1;
                        }
                        out.push(ch);
                        i += 1;
                    }
                }
            }
            ')' => {
                if depth == 0 {
                    return Err(err("unexpected )", p));
                }
                depth -= 1;
                out.push(')');
                i += 1;
                can_repeat = true;
                last_was_repeat = false;
            }
            '*' | '+' | '?' => {
                if last_was_repeat && c != '?' {
                    return Err(err("invalid nested repetition operator", &p[off - 1..off + 1]));
                }
                if !can_repeat && !last_was_repeat {
                    return Err(err("missing argument to repetition operator", &p[off..off + 1]));
                }
                out.push(c);
                i += 1;
                // `x*?` is a lazy repetition, not a nested one.
                last_was_repeat = c != '?' || !last_was_repeat;
                can_repeat = false;
            }
            '{' => match repetition(&p[off..]) {
                Some((len, lo, hi)) => {
                    if lo > 1000 || hi.is_some_and(|h| h > 1000 || h < lo) {
                        return Err(err("invalid repeat count", &p[off..off + len]));
                    }
                    if !can_repeat {
                        return Err(err("missing argument to repetition operator", &p[off..off + len]));
                    }
                    out.push_str(&p[off..off + len]);
                    while i < chars.len() && chars[i].0 < off + len {
                        i += 1;
                    }
                    last_was_repeat = true;
                    can_repeat = false;
                }
                None => {
                    out.push_str("\\{");
                    i += 1;
                    can_repeat = true;
                    last_was_repeat = false;
                }
            },
            '|' => {
                out.push('|');
                i += 1;
                can_repeat = false;
                last_was_repeat = false;
            }
            '^' | '$' => {
                out.push(c);
                i += 1;
                can_repeat = true;
                last_was_repeat = false;
            }
            _ => {
                push_escaped_if_needed(&mut out, c);
                i += 1;
                can_repeat = true;
                last_was_repeat = false;
            }
        }
    }
    if depth > 0 {
        return Err(err("missing closing )", p));
    }
    Ok(out)
}

fn push_escaped_if_needed(out: &mut String, c: char) {
    match c {
        '#' | '&' | '~' | '-' | ' ' => {
            out.push('\\');
            out.push(c);
        }
        _ => out.push(c),
    }
}

/// Translates the class starting at `chars[start]` (a `[`); returns the
/// index after its closing `]`.
fn translate_class(p: &str, chars: &[(usize, char)], start: usize, out: &mut String) -> Result<usize, SyntaxError> {
    let open = chars[start].0;
    let mut i = start + 1;
    out.push('[');
    if chars.get(i).map(|x| x.1) == Some('^') {
        out.push('^');
        i += 1;
    }
    let mut first = true;
    loop {
        let Some(&(off, c)) = chars.get(i) else {
            return Err(err("missing closing ]", &p[open..]));
        };
        match c {
            ']' if !first => {
                out.push(']');
                return Ok(i + 1);
            }
            '[' if chars.get(i + 1).map(|x| x.1) == Some(':') => {
                // POSIX class: copy through ":]".
                match p[off..].find(":]") {
                    Some(e) => {
                        let name = &p[off..off + e + 2];
                        out.push_str(name);
                        while i < chars.len() && chars[i].0 < off + e + 2 {
                            i += 1;
                        }
                    }
                    None => {
                        out.push_str("\\[");
                        i += 1;
                    }
                }
            }
            '\\' => {
                let Some(&(_, n)) = chars.get(i + 1) else {
                    return Err(err("missing closing ]", &p[open..]));
                };
                if let Some((body, neg)) = perl_class(n) {
                    if neg {
                        out.push_str("[^");
                        out.push_str(body);
                        out.push(']');
                    } else {
                        out.push_str(body);
                    }
                    i += 2;
                } else if n == 'p' || n == 'P' {
                    out.push('\\');
                    out.push(n);
                    i += 2;
                    if chars.get(i).map(|x| x.1) == Some('{') {
                        while i < chars.len() && chars[i].1 != '}' {
                            out.push(chars[i].1);
                            i += 1;
                        }
                        if i < chars.len() {
                            out.push('}');
                            i += 1;
                        }
                    } else if let Some(&(_, l)) = chars.get(i) {
                        out.push(l);
                        i += 1;
                    }
                } else if n.is_ascii_alphanumeric() && !matches!(n, 'x' | 'a' | 'f' | 't' | 'n' | 'r' | 'v' | '0'..='7') {
                    return Err(err("invalid escape sequence", &p[off..off + 1 + n.len_utf8()]));
                } else {
                    out.push('\\');
                    out.push(n);
                    i += 2;
                }
            }
            '[' | '&' | '~' => {
                out.push('\\');
                out.push(c);
                i += 1;
            }
            '-' if chars.get(i + 1).map(|x| x.1) == Some('-') => {
                out.push_str("\\-");
                i += 1;
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
        first = false;
    }
}

/// The result type for a pattern (cty's regexPatternResultType).
fn pattern_result_type(re: &Regex) -> Result<Type, FnError> {
    let names: Vec<Option<&str>> = re.capture_names().skip(1).collect();
    let unnamed = names.iter().filter(|n| n.is_none()).count();
    let named: Vec<&str> = names.iter().filter_map(|n| *n).collect();
    match (unnamed, named.len()) {
        (0, 0) => Ok(Type::String),
        (u, n) if u > 0 && n > 0 => Err(FnError::arg(0, "invalid regexp pattern: cannot mix both named and unnamed capture groups")),
        (u, 0) => Ok(Type::tuple(vec![Type::String; u])),
        _ => Ok(Type::object(named.into_iter().map(|n| (n, Type::String)))),
    }
}

fn compile_for_type(ctx_cache: &RegexCache, pattern: &str) -> Result<Arc<Pattern>, FnError> {
    ctx_cache.get(pattern).map_err(|e| FnError::arg(0, format!("invalid regexp pattern: {} in {}", e.code, e.expr)))
}

fn result_for(re: &Regex, caps: &regex::Captures, ty: &Type) -> Value {
    match ty {
        Type::String => Value::string(caps.get(0).map_or("", |m| m.as_str())),
        Type::Tuple(_) => {
            Value::tuple((1..caps.len()).map(|i| caps.get(i).map_or(Value::Null(Type::String), |m| Value::string(m.as_str()))).collect())
        }
        _ => Value::object(
            re.capture_names()
                .enumerate()
                .skip(1)
                .filter_map(|(i, n)| n.map(|n| (n, caps.get(i).map_or(Value::Null(Type::String), |m| Value::string(m.as_str())))))
                .collect(),
        ),
    }
}

// The type step has no CallCtx; it uses a shared cache of its own so that
// repeated calls do not recompile.
fn type_cache() -> &'static RegexCache {
    static CACHE: std::sync::OnceLock<RegexCache> = std::sync::OnceLock::new();
    CACHE.get_or_init(RegexCache::new)
}

pub fn regex_type(args: &[Value]) -> Result<Type, FnError> {
    let Some(p) = args[0].as_str() else {
        return Ok(Type::Dynamic);
    };
    compile_for_type(type_cache(), p)?.result.clone()
}

pub fn regexall_type(args: &[Value]) -> Result<Type, FnError> {
    let Some(p) = args[0].as_str() else {
        return Ok(Type::list(Type::Dynamic));
    };
    compile_for_type(type_cache(), p)?.all.clone()
}

pub fn regex(args: &[Value], ret: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    if ret.is_dynamic() {
        return Ok(Value::dynamic_unknown());
    }
    let re = compile_for_type(ctx.regexes, str_arg(&args[0]))?;
    let s = str_arg(&args[1]);
    match re.captures(s) {
        Some(caps) => Ok(result_for(&re, &caps, ret)),
        None => Err(FnError::new("pattern did not match any part of the given string")),
    }
}

pub fn regexall(args: &[Value], ret: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let ety = ret.element_type().cloned().unwrap_or(Type::Dynamic);
    if ety.is_dynamic() {
        return Ok(Value::dynamic_unknown());
    }
    let re = compile_for_type(ctx.regexes, str_arg(&args[0]))?;
    let s = str_arg(&args[1]);
    // Usually zero or one match (anchored patterns): no allocation for
    // none, and room for exactly one at the first (growing and then
    // shrinking the buffer would copy it twice).
    let mut out = Vec::new();
    if ety == Type::String {
        // No capture groups: the matched texts, without building captures.
        for m in re.find_iter(s) {
            ctx.charge(ELEMENT_COST)?;
            out.reserve_exact(1);
            out.push(Value::string(m.as_str()));
        }
    } else {
        for caps in re.captures_iter(s) {
            ctx.charge(ELEMENT_COST * caps.len() as u64)?;
            out.reserve_exact(1);
            out.push(result_for(&re, &caps, &ety));
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
    let re = ctx.regexes.get(pattern).map_err(|e| FnError::new(format!("error parsing regexp: {}: `{}`", e.code, e.expr)))?;
    // Output size, at most: the text, the replacement once per match, and
    // for each `$` reference in it one group's text per match, which are
    // parts of the matches, so all of them together at most the text
    // (matches do not overlap). An over-estimate per match (a quarter of
    // the text for each) refused a 600 KB text with 300,000 matches of a
    // plain replacement, which the reference replaces.
    let matches = re.find_iter(s).count() as u64;
    let refs = replacement.bytes().filter(|&b| b == b'$').count() as u64;
    let len = s.len() as u64;
    ctx.charge(len.saturating_add(matches.saturating_mul(replacement.len() as u64)).saturating_add(refs.saturating_mul(len)))?;
    Ok(Value::from_string(re.replace_all(s, replacement).into_owned()))
}

#[cfg(test)]
mod tests {
    use super::translate;

    #[test]
    fn go_syntax_translation() {
        let rows: &[(&str, Result<&str, &str>)] = &[
            (r"\d+", Ok("[0-9]+")),
            (r"[\w-]", Ok("[0-9A-Za-z_-]")),
            (r"a{", Ok(r"a\{")),
            (r"a{2,3}", Ok("a{2,3}")),
            (r"a{1001}", Err("invalid repeat count")),
            ("(", Err("missing closing )")),
            ("[", Err("missing closing ]")),
            ("*", Err("missing argument to repetition operator")),
            ("a**", Err("invalid nested repetition operator")),
            ("a*?", Ok("a*?")),
            (r"(?P<x>a)", Ok("(?P<x>a)")),
            (r"\Qa.b\E", Ok(r"a\.b")),
            (r"[[:alpha:]]", Ok("[[:alpha:]]")),
        ];
        for (pat, want) in rows {
            match (translate(pat), want) {
                (Ok(got), Ok(w)) => assert_eq!(&got, w, "{pat}"),
                (Err(e), Err(code)) => assert_eq!(&e.code, code, "{pat}"),
                (got, want) => panic!("{pat}: got {got:?}, want {want:?}"),
            }
        }
    }
}
