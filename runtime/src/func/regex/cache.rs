//! Compiled patterns: compiling, and the caches that keep them.

use super::pattern_result_type;
use super::syntax::{err, translate, SyntaxError, Translation};
use super::FnError;
use crate::types::Type;
use regex_automata::hybrid;
use regex_automata::meta::{self, Regex};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Upper bound on the compiled size of one pattern (its NFA).
const COMPILED_SIZE_LIMIT: usize = 128 << 20;

/// Go's error code for a pattern whose program is too large.
const TOO_LARGE: &str = "expression too large";
/// Upper bounds on what a table's cache of compiled patterns holds, and on
/// what each thread keeps of them in front of it: patterns, and their
/// compiled bytes.
const CACHE_PATTERNS: usize = 256;
const CACHE_BYTES: usize = 256 << 20;
const RECENT_PATTERNS: usize = 8;
const RECENT_BYTES: usize = 256 << 20;

/// A pattern as Go reads it: its translation, and the element type its
/// matches have (cty's regexPatternResultType). What the type step of
/// `regex` and `regexall` needs: it compiles nothing.
pub(super) struct Read {
    translation: Translation,
    pub(super) result: Result<Type, FnError>,
    /// `list(result)`: regexall's return type.
    pub(super) all: Result<Type, FnError>,
}

/// A compiled pattern.
pub struct Pattern {
    pub(super) re: Regex,
    read: Arc<Read>,
    /// Its compiled size (what the evaluation that compiled it was
    /// charged).
    bytes: usize,
    /// `None` when it could not be built (see [`Scanner`]).
    scanner: Option<Scanner>,
}

impl Pattern {
    pub(super) fn groups(&self) -> &[Option<Box<str>>] {
        &self.read.translation.groups
    }

    /// This pattern's [`Scanner`].
    pub(super) fn scanner(&self) -> Option<&Scanner> {
        self.scanner.as_ref()
    }
}

/// The pattern's forward lazy DFA on its own, the part of a search that
/// finds where the leftmost match ends, here with its cache at hand to
/// read how many bytes it examined. A search for the next match must read
/// on until no longer match is possible, so finding every match of some
/// patterns reads the rest of the text again for each (`a*X|a` over a run
/// of `a`s: quadratic, in Go as in the `regex` crate); the bytes read are
/// what such a search is charged, instead of the text's length once.
///
/// Built with the pattern (and charged with it); each thread's copy of the
/// pattern shares the automaton and has a cache of its own, made when it
/// first searches.
pub(super) struct Scanner {
    dfa: hybrid::dfa::DFA,
    cache: Mutex<Option<hybrid::dfa::Cache>>,
}

impl Scanner {
    /// The same automaton, with a cache of its own.
    fn copy(&self) -> Scanner {
        Scanner { dfa: self.dfa.clone(), cache: Mutex::new(None) }
    }

    /// Its compiled size.
    fn bytes(&self) -> usize {
        self.dfa.get_nfa().memory_usage()
    }

    fn new(translation: &str) -> Option<Scanner> {
        let dfa = hybrid::dfa::DFA::builder()
            .configure(hybrid::dfa::DFA::config().match_kind(regex_automata::MatchKind::LeftmostFirst).cache_capacity(2 << 20))
            .syntax(syntax_config())
            .thompson(
                regex_automata::nfa::thompson::Config::new()
                    .nfa_size_limit(Some(COMPILED_SIZE_LIMIT))
                    .which_captures(regex_automata::nfa::thompson::WhichCaptures::Implicit),
            )
            .build(translation)
            .ok()?;
        Some(Scanner { dfa, cache: Mutex::new(None) })
    }

    /// Where the leftmost-first match of a search of `input` ends (`None`:
    /// no match), and how many bytes the search examined; `None` when
    /// the lazy DFA could not tell (it quit, or gave up on its cache).
    pub(super) fn match_end(&self, input: &regex_automata::Input<'_>) -> Option<(Option<usize>, usize)> {
        let mut slot = self.cache.lock().ok()?;
        let cache = slot.get_or_insert_with(|| self.dfa.create_cache());
        let (before, clears) = (cache.search_total_len(), cache.clear_count());
        let end = self.dfa.try_search_fwd(cache, input).ok()?;
        // A cache cleared during the search counts from zero again: then
        // the whole rest of the text is taken as examined.
        let examined = if cache.clear_count() == clears {
            cache.search_total_len().saturating_sub(before)
        } else {
            input.end().saturating_sub(input.start())
        };
        Some((end.map(|m| m.offset()), examined))
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
pub(super) fn read(pattern: &str) -> Reading {
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
        // so threads matching one pattern do not share (and lock) one. (The
        // result types a call needs come from this thread's own reading,
        // `read`; the pattern's is only read for its groups.)
        let (shared, fresh) = self.get_shared(pattern);
        let local = shared.map(|p| {
            Arc::new(Pattern { re: p.re.clone(), read: p.read.clone(), bytes: p.bytes, scanner: p.scanner.as_ref().map(Scanner::copy) })
        });
        RECENT.with(|r| {
            let mut r = r.borrow_mut();
            let bytes_of = |c: &Compiled| c.as_ref().map_or(0, |p| p.bytes);
            let mut held: usize = r.iter().map(|(_, c)| bytes_of(c)).sum();
            let incoming = bytes_of(&local);
            while !r.is_empty() && (r.len() >= RECENT_PATTERNS || held + incoming > RECENT_BYTES) {
                let (_, evicted) = r.remove(0);
                held -= bytes_of(&evicted);
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
        if compiled.as_ref().is_err_and(|e| e.code == TOO_LARGE) {
            // Building up to the size limit took as long as a pattern that
            // size (a good part of a second): work, though nothing is kept
            // to charge the size budget with.
            // (At most half of what the call has left: a host with a small
            // step budget still gets the pattern's own error first.)
            crate::work::note((COMPILED_SIZE_LIMIT as u64 / 8).min(crate::work::left() / 2));
        }
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

fn compile(pattern: &str) -> Compiled {
    let read = read(pattern)?;
    // The `regex` crate's configuration of a `Regex` on strings.
    let config = meta::Config::new()
        .match_kind(regex_automata::MatchKind::LeftmostFirst)
        .utf8_empty(true)
        .nfa_size_limit(Some(COMPILED_SIZE_LIMIT))
        .hybrid_cache_capacity(2 << 20);
    let re = meta::Builder::new().configure(config).syntax(syntax_config()).build(&read.translation.text).map_err(|e| {
        if e.size_limit().is_some() {
            err(TOO_LARGE, pattern)
        } else {
            err("invalid or unsupported Perl syntax", pattern)
        }
    })?;
    let scanner = Scanner::new(&read.translation.text);
    let bytes = re.memory_usage() + scanner.as_ref().map_or(0, Scanner::bytes);
    Ok(Arc::new(Pattern { re, read, bytes, scanner }))
}

/// How a translation is read: as UTF-8, and nested as deep as Go nests
/// groups, up to 1,000 (the translation adds a level for a repeated
/// repetition).
fn syntax_config() -> regex_automata::util::syntax::Config {
    regex_automata::util::syntax::Config::new().utf8(true).nest_limit(2_100)
}

/// `pattern` compiled as calls compile it, for tests that compare a search
/// with the `regex` crate's own.
#[cfg(test)]
pub(super) fn compile_for_tests(pattern: &str) -> Regex {
    compile(pattern).map(|p| p.re.clone()).unwrap_or_else(|e| panic!("{pattern:?}: {}", e.code))
}
