//! regex regexall regexreplace.
//!
//! Patterns use Go's RE2 syntax. `syntax` reads a pattern as Go 1.19's
//! `regexp/syntax` parser does (its checks in its order, its errors with
//! the text they name) and writes it in the `regex` crate's syntax, which
//! differs in many small ways: literals go by code point (an escaped `<`
//! is a word boundary there), Perl classes and `\b` are ASCII, a `{` that
//! starts no repetition is a literal, names and flags are rewritten to
//! what `regex` takes, and so on; `classes` writes Go's classes of
//! characters, `shape` follows the limits Go puts on the tree it parses.
//! `cache` compiles the translation (regex-automata's meta regex, which
//! the `regex` crate wraps) and keeps compiled patterns. Replacements
//! expand as Go's `Expand`.

mod cache;
mod classes;
mod shape;
mod syntax;

use super::{str_arg, CallCtx, FnError, ELEMENT_COST};
use crate::types::Type;
use crate::value::Value;
use cache::{read, Pattern};
use regex_automata::meta::Regex;
use regex_automata::util::captures::Captures;
use std::sync::Arc;
use syntax::SyntaxError;

pub use cache::RegexCache;

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
    ctx.search(s);
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
    ctx.search(s);
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
    ctx.search(s);
    let names: Vec<Option<&str>> = std::iter::once(None).chain(re.groups().iter().map(|n| n.as_deref())).collect();
    // Read once: each match then walks its pieces (a step per piece, as a
    // template of many references to missing groups writes nothing).
    let template = template_pieces(replacement);
    let mut out = String::with_capacity(s.len());
    let mut last = 0;
    for caps in re.re.captures_iter(s) {
        let Some(m) = caps.get_match() else { continue };
        out.push_str(&s[last..m.start()]);
        let before = out.len();
        go_expand(&template, &caps, s, &names, &mut out);
        ctx.charge((out.len() - before) as u64)?;
        ctx.work(template.len() as u64);
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

/// A piece of a replacement template: text, or a group reference.
enum Piece<'t> {
    Text(&'t str),
    /// `$n` / `${n}`: a group by number.
    Number(usize),
    /// `$name` / `${name}`: the first group of that name that took part.
    Name(&'t str),
}

/// Go's `Regexp.Expand` template read into pieces: `$$` is `$`, `$name`
/// and `${name}` (letters, digits, `_`) a group by number (no leading
/// zero, at most 9 digits) or by name, a `$` before anything else itself.
fn template_pieces(template: &str) -> Vec<Piece<'_>> {
    let mut pieces = Vec::new();
    let mut t = template;
    while let Some(at) = t.find('$') {
        if at > 0 {
            pieces.push(Piece::Text(&t[..at]));
        }
        let dollar = &t[at..at + 1];
        t = &t[at + 1..];
        if let Some(rest) = t.strip_prefix('$') {
            pieces.push(Piece::Text(dollar));
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
            pieces.push(Piece::Text(dollar));
            continue;
        }
        let name = &body[..len];
        t = &body[len + usize::from(braced)..];
        let number = (name.bytes().all(|b| b.is_ascii_digit()) && (name.len() == 1 || !name.starts_with('0')) && name.len() <= 9)
            .then(|| name.parse::<usize>().ok())
            .flatten();
        pieces.push(match number {
            Some(i) => Piece::Number(i),
            None => Piece::Name(name),
        });
    }
    if !t.is_empty() {
        pieces.push(Piece::Text(t));
    }
    pieces
}

/// Go's `Regexp.Expand` of a template (read by [`template_pieces`]) for
/// one match: a group that did not take part, or that does not exist,
/// writes nothing.
fn go_expand(template: &[Piece<'_>], caps: &Captures, s: &str, names: &[Option<&str>], out: &mut String) {
    for piece in template {
        let text = match piece {
            Piece::Text(text) => Some(*text),
            Piece::Number(i) => group_text(caps, s, *i),
            Piece::Name(name) => names.iter().enumerate().filter(|(_, n)| **n == Some(*name)).find_map(|(i, _)| group_text(caps, s, i)),
        };
        if let Some(text) = text {
            out.push_str(text);
        }
    }
}
