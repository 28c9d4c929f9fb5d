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
use regex_automata::Match;
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
    // Usually zero or one match (anchored patterns): no allocation for
    // none, and room for exactly one at the first (growing and then
    // shrinking the buffer would copy it twice).
    let mut out = Vec::new();
    // Without capture groups, the matched texts, without building
    // captures.
    let texts_only = ety == Type::String;
    let cost = match_cost(&re, texts_only);
    for_each_match(&re, s, !texts_only, ctx, |m, caps, ctx| {
        ctx.charge(cost)?;
        out.reserve_exact(1);
        out.push(if texts_only { Value::string(&s[m.range()]) } else { result_for(re.groups(), caps, s, &ety) });
        Ok(())
    })?;
    // Every element has the pattern's result type exactly (a string, or
    // a tuple or object of strings, null strings for groups that did not
    // take part), which is `ety`: no element check is needed.
    Ok(Value::list_unchecked(ety, out))
}

/// `length(regexall(pattern, string))` of two known strings: the number
/// of matches, found as [`regexall`] finds them (a match's bounds do not
/// depend on its groups), without building them; each match is charged
/// what `regexall` charges for its element. `None`, before anything is
/// charged, when the two calls must be made instead (arguments that are
/// not known strings, a pattern that does not read); once the budget has
/// been charged, `regexall`'s own error (a pattern too large to compile,
/// a spent budget), as its call would fail.
pub(super) fn regexall_count(args: &[Value], ctx: &mut CallCtx) -> Option<Result<Value, FnError>> {
    let (Some(pattern), Some(s)) = (args.first()?.as_str(), args.get(1)?.as_str()) else { return None };
    // `regexall`'s result type first, as its call computes it: a pattern
    // without a known element type is left to the two calls.
    let all = read(pattern).ok()?;
    let ety = all.all.as_ref().ok()?.element_type()?;
    if ety.is_dynamic() {
        return None;
    }
    Some(count_matches(pattern, s, *ety == Type::String, ctx))
}

/// The matches of `pattern` in `s`, charged as [`regexall`] charges them
/// ([`match_cost`]).
fn count_matches(pattern: &str, s: &str, texts_only: bool, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let re = compiled(ctx, pattern)?.map_err(invalid_pattern)?;
    let per_match = match_cost(&re, texts_only);
    let mut n: i64 = 0;
    for_each_match(&re, s, false, ctx, |_, _, ctx| {
        ctx.charge(per_match)?;
        n += 1;
        Ok(())
    })?;
    Ok(Value::int(n))
}

/// What `regexall` charges for each match's element: a text, or (with
/// groups, `texts_only` false) a unit for the whole match and for each
/// group.
fn match_cost(re: &Pattern, texts_only: bool) -> u64 {
    if texts_only {
        ELEMENT_COST
    } else {
        ELEMENT_COST * re.re.group_info().group_len(regex_automata::PatternID::ZERO) as u64
    }
}

/// Below this many bytes left to search, a search for the next match is
/// charged for all of them, without measuring (at most this many bytes'
/// steps per match).
const MEASURE_ABOVE: usize = 256;

/// Calls `f` on every match of `re` in `s`, in order, as the `regex`
/// crate's `captures_iter` finds them (with the groups' spans only when
/// `groups`), with the work of each search noted: the first search is
/// charged the whole text, each later one the bytes its lazy DFA examined
/// ([`cache::Scanner`]), or all that is left when that cannot be told (or
/// is at most [`MEASURE_ABOVE`]). A search that ran the evaluation out of
/// steps ends the loop with an error.
fn for_each_match(
    re: &Pattern,
    s: &str,
    groups: bool,
    ctx: &mut CallCtx,
    mut f: impl FnMut(Match, &Captures, &mut CallCtx) -> Result<(), FnError>,
) -> Result<(), FnError> {
    use regex_automata::util::iter::Searcher;
    // (Without groups, no slots: a search for the match alone.)
    let mut caps = if groups { re.re.create_captures() } else { Captures::empty(re.re.group_info().clone()) };
    let search = |input: &regex_automata::Input<'_>, caps: &mut Captures| -> Option<Match> {
        if groups {
            re.re.search_captures(input, caps);
            caps.get_match()
        } else {
            re.re.search(input)
        }
    };
    let mut searcher = Searcher::new(regex_automata::Input::new(s));
    let mut first = true;
    loop {
        // (Summed: after an empty match the searcher may search twice.)
        let mut examined = 0;
        let found = searcher.try_advance(|input| {
            let rest = input.end().saturating_sub(input.start());
            // Without a scanner (it could not be built), the first search
            // is charged the whole text and the others nothing, as with a
            // pattern that stops at each match's end.
            let scanner = re.scanner();
            let narrowed = match scanner {
                Some(sc) if !first && rest > MEASURE_ABOVE => sc.match_end(input),
                _ => None,
            };
            match narrowed {
                Some((None, n)) => {
                    examined += n;
                    return Ok(None);
                }
                Some((Some(end), n)) => {
                    examined += n;
                    // The leftmost-first match ends at `end`: the one search
                    // up to there finds it, start and groups (look-around
                    // still sees the whole text). Anything else (an empty
                    // match that splits a character, which a search of
                    // strings skips) is left to the search of the rest.
                    let m = search(&input.clone().range(input.start()..end), &mut caps);
                    if m.is_some_and(|m| m.end() == end) {
                        return Ok(m);
                    }
                    examined += rest;
                }
                None if first || scanner.is_some() => examined += rest,
                None => {}
            }
            Ok(search(input, &mut caps))
        });
        first = false;
        crate::work::note_searched(examined);
        let Ok(Some(m)) = found else { return Ok(()) };
        if ctx.out_of_steps() {
            return Err(ctx.stopped());
        }
        f(m, &caps, ctx)?;
    }
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
    // Read once: each match then walks its pieces (a step per piece, as a
    // template of many references to missing groups writes nothing).
    let template = template_pieces(replacement);
    let mut out = String::with_capacity(s.len());
    let mut last = 0;
    for_each_match(&re, s, true, ctx, |m, caps, ctx| {
        out.push_str(&s[last..m.start()]);
        let before = out.len();
        go_expand(&template, caps, s, &names, &mut out);
        ctx.charge((out.len() - before) as u64)?;
        ctx.work(template.len() as u64);
        last = m.end();
        Ok(())
    })?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::func::SizeBudget;

    /// Each match's groups' spans (`None`: the group took no part).
    type Spans = Vec<Vec<Option<(usize, usize)>>>;

    /// Every match's group spans as `for_each_match` finds them, and the
    /// work it noted.
    fn spans_found(pattern: &str, s: &str) -> (Spans, u64) {
        spans_found_with(pattern, s, true)
    }

    fn spans_found_with(pattern: &str, s: &str, groups: bool) -> (Spans, u64) {
        let cache = RegexCache::new();
        let mut budget = SizeBudget::unlimited();
        let mut ctx = CallCtx { budget: &mut budget, regexes: &cache };
        let re = compiled(&mut ctx, pattern).expect("compiles").expect("Go accepts it");
        crate::work::take();
        let mut found = Vec::new();
        for_each_match(&re, s, groups, &mut ctx, |m, caps, _| {
            let spans = (1..caps.group_len()).map(|i| caps.get_group(i).map(|sp| (sp.start, sp.end)));
            found.push(std::iter::once(Some((m.start(), m.end()))).chain(spans).collect());
            Ok(())
        })
        .expect("no limit");
        (found, crate::work::take())
    }

    fn spans_expected(pattern: &str, s: &str) -> Spans {
        let re = cache::compile_for_tests(pattern);
        re.captures_iter(s).map(|caps| (0..caps.group_len()).map(|i| caps.get_group(i).map(|sp| (sp.start, sp.end))).collect()).collect()
    }

    #[test]
    fn every_match_is_the_one_the_regex_crate_finds() {
        let long_a = "a".repeat(700);
        let words = "alpha beta, gamma; délta ßeta x ".repeat(40);
        let mixed = format!("{}X{}é{}", "a".repeat(300), "a".repeat(300), "ab".repeat(200));
        let patterns = [
            "a*X|a",
            "a",
            "",
            "a|",
            "x*",
            r"\w+",
            r"\b",
            "(a)(b)?",
            "(?:ab)*c|a",
            "é|",
            "[^a]*",
            "$",
            "^",
            "(?m)^a",
            r"\s*",
            "(?P<w>[a-zé]+)|(?P<n>;)",
            "ab|a",
            ".",
        ];
        for p in patterns {
            for s in [long_a.as_str(), words.as_str(), mixed.as_str(), "", "é"] {
                let expected = spans_expected(p, s);
                assert_eq!(spans_found(p, s).0, expected, "pattern {p:?} over {} bytes", s.len());
                let whole: Vec<_> = expected.iter().map(|groups| vec![groups[0]]).collect();
                let texts: Vec<_> = spans_found_with(p, s, false).0.into_iter().map(|groups| vec![groups[0]]).collect();
                assert_eq!(texts, whole, "pattern {p:?} over {} bytes, matches only", s.len());
            }
        }
    }

    #[test]
    fn a_search_that_reads_the_rest_again_for_each_match_is_charged_for_it() {
        // Each search for the next `a` first tries `a*X`, reading to the
        // end: some n²/2 bytes for n `a`s.
        let n = 4_000;
        let s = "a".repeat(n);
        let (quadratic, work) = spans_found("a*X|a", &s);
        assert_eq!(quadratic.len(), n);
        let read = (n * n / 2) as u64 / crate::work::SEARCH_BYTES_PER_STEP;
        assert!(work >= read * 9 / 10, "noted {work} steps, the searches read about {read} steps' worth");
        // A pattern that stops at each match's end is charged about the
        // text once.
        let (linear, work) = spans_found("a", &s);
        assert_eq!(linear.len(), n);
        assert!(work <= 4 * n as u64 / crate::work::SEARCH_BYTES_PER_STEP + n as u64, "noted {work} steps for {n} bytes");
    }
}
