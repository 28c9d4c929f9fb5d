//! `fileset(path, pattern)` (go-cty-funcs `filesystem.MakeFileSetFunc`)
//! and the glob it uses, bmatcuk/doublestar v2.0.4's `Glob` (the version
//! the oracle builds with), ported with its quirks: `**` follows symbolic
//! links to directories, `{a,b}` alternatives expand anywhere, errors of
//! nested directories are mostly dropped, matches come in directory
//! order sorted by name at each level (the set sorts them anyway).
//!
//! The file system is read only as the host's [`FileAccess`] allows: with
//! [`FileAccess::Root`], patterns are read relative to the root, and any
//! path the walk would look at outside it (by `..`, an absolute path or a
//! symbolic link) is refused. Every directory entry looked at is charged
//! to the size budget, which bounds walks through symbolic-link cycles.

use super::super::{str_arg, CallCtx, FnError};
use super::files::{go_clean, go_join, FileAccess, NO_ACCESS};
use crate::types::Type;
use crate::value::Value;
use std::path::PathBuf;

/// doublestar's `ErrBadPattern` (Go's `path.ErrBadPattern`).
const BAD_PATTERN: &str = "syntax error in pattern";

/// Where the walk may look.
struct Fs {
    root: Option<PathBuf>,
}

/// What `Lstat`/`Stat` tell.
#[derive(Clone, Copy)]
struct Info {
    dir: bool,
    symlink: bool,
    regular: bool,
}

fn info(md: &std::fs::Metadata) -> Info {
    let ft = md.file_type();
    Info { dir: ft.is_dir(), symlink: ft.is_symlink(), regular: ft.is_file() }
}

/// Go's error text of an `errno` (the common ones), else Rust's.
pub(super) fn errno_text(e: &std::io::Error) -> String {
    match e.raw_os_error() {
        Some(2) => "no such file or directory".into(),
        Some(13) => "permission denied".into(),
        Some(20) => "not a directory".into(),
        Some(36) => "file name too long".into(),
        Some(40) => "too many levels of symbolic links".into(),
        _ => {
            let s = e.to_string();
            match s.find(" (os error") {
                Some(i) => s[..i].to_lowercase(),
                None => s,
            }
        }
    }
}

impl Fs {
    /// The path to open for `p` (a path as the walk names it).
    fn real(&self, p: &str) -> Result<PathBuf, FnError> {
        let Some(root) = &self.root else { return Ok(PathBuf::from(p)) };
        let clean = go_clean(p);
        if clean.starts_with('/') || clean == ".." || clean.starts_with("../") {
            return Err(super::files::outside(p));
        }
        let full = root.join(&clean);
        // A symbolic link on the way must lead inside the root.
        if !super::files::stays_inside(root, &full) {
            return Err(super::files::outside(p));
        }
        Ok(full)
    }

    fn lstat(&self, p: &str) -> Result<Option<Info>, FnError> {
        Ok(std::fs::symlink_metadata(self.real(p)?).ok().map(|m| info(&m)))
    }

    fn stat(&self, p: &str) -> Result<Result<Info, std::io::Error>, FnError> {
        Ok(std::fs::metadata(self.real(p)?).map(|m| info(&m)))
    }

    /// The entries of a directory, sorted by name (none when it cannot be
    /// read).
    fn read_dir(&self, p: &str, ctx: &mut CallCtx) -> Result<Vec<(String, Info)>, FnError> {
        let Ok(rd) = std::fs::read_dir(self.real(p)?) else { return Ok(Vec::new()) };
        let mut out = Vec::new();
        for e in rd {
            let Ok(e) = e else { return Ok(Vec::new()) };
            ctx.charge(crate::func::budget::ELEMENT_COST)?;
            let Ok(md) = e.metadata() else { continue };
            out.push((e.file_name().to_string_lossy().into_owned(), info(&md)));
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(out)
    }
}

/// `fileset(path, pattern)`.
pub fn fileset(access: &FileAccess, args: &[Value], ctx: &mut CallCtx) -> Result<Value, FnError> {
    let root = match access {
        FileAccess::None => return Err(FnError::new(NO_ACCESS)),
        FileAccess::Unrestricted => None,
        FileAccess::Root(r) => Some(r.canonicalize().map_err(|e| FnError::new(format!("the host's file root cannot be used: {e}")))?),
    };
    let fs = Fs { root };
    let mut path = str_arg(&args[0]).to_string();
    if !path.starts_with('/') {
        path = go_join(&[".", &path]);
    }
    let pattern = go_join(&[&path, str_arg(&args[1])]);
    if fs.root.is_some() {
        // Checked once more, path by path, as the walk looks.
        fs.real(&path)?;
    }
    let glob_err = |e: &str| FnError::new(format!("failed to glob pattern ({pattern}): {e}"));
    let matches = glob(&fs, &pattern, ctx).map_err(|e| match e {
        GlobError::Bad => glob_err(BAD_PATTERN),
        GlobError::Fn(e) => e,
    })?;
    let mut out = Vec::new();
    for m in matches {
        let md = match fs.stat(&m)? {
            Ok(md) => md,
            Err(e) => return Err(FnError::new(format!("failed to stat ({m}): stat {m}: {}", errno_text(&e)))),
        };
        if !md.regular {
            continue;
        }
        let rel = go_rel(&path, &m).map_err(|e| FnError::new(format!("failed to trim path of match ({m}): {e}")))?;
        ctx.charge(rel.len() as u64 + crate::func::budget::ELEMENT_COST)?;
        out.push(Value::from_string(rel));
    }
    Value::set_of(Type::String, out).map_err(|e| FnError::new(format!("{e:?}")))
}

/// Go's `filepath.Rel` (Unix).
fn go_rel(basepath: &str, targpath: &str) -> Result<String, String> {
    let base = go_clean(basepath);
    let targ = go_clean(targpath);
    if targ == base {
        return Ok(".".into());
    }
    let base = if base == "." { String::new() } else { base };
    let cant = || format!("Rel: can't make {targpath} relative to {basepath}");
    if base.starts_with('/') != targ.starts_with('/') {
        return Err(cant());
    }
    let (b, t) = (base.as_bytes(), targ.as_bytes());
    let (bl, tl) = (b.len(), t.len());
    let (mut b0, mut bi, mut t0, mut ti) = (0, 0, 0, 0);
    loop {
        while bi < bl && b[bi] != b'/' {
            bi += 1;
        }
        while ti < tl && t[ti] != b'/' {
            ti += 1;
        }
        if t[t0..ti] != b[b0..bi] {
            break;
        }
        if bi < bl {
            bi += 1;
        }
        if ti < tl {
            ti += 1;
        }
        b0 = bi;
        t0 = ti;
        if b0 >= bl && t0 >= tl {
            break;
        }
    }
    if &b[b0..bi] == b".." {
        return Err(cant());
    }
    if b0 != bl {
        let seps = base[b0..].matches('/').count();
        let mut s = String::from("..");
        for _ in 0..seps {
            s.push_str("/..");
        }
        if t0 != tl {
            s.push('/');
            s.push_str(&targ[t0..]);
        }
        return Ok(s);
    }
    Ok(targ[t0..].to_string())
}

enum GlobError {
    Bad,
    Fn(FnError),
}

impl From<FnError> for GlobError {
    fn from(e: FnError) -> GlobError {
        GlobError::Fn(e)
    }
}

// ----- doublestar v2.0.4 -------------------------------------------------

fn index_rune_esc(s: &str, r: char) -> Option<usize> {
    let end = s.find(r)?;
    if r == '\\' {
        return Some(end);
    }
    if end > 0 && s.as_bytes()[end - 1] == b'\\' {
        let start = end + r.len_utf8();
        return index_rune_esc(&s[start..], r).map(|e| e + start);
    }
    Some(end)
}

fn last_index_rune_esc(s: &str, r: char) -> Option<usize> {
    let end = s.rfind(r)?;
    if end > 0 && s.as_bytes()[end - 1] == b'\\' {
        return last_index_rune_esc(&s[..end - 1], r);
    }
    Some(end)
}

fn index_any_esc(s: &str, chars: &[char]) -> Option<usize> {
    let end = s.find(chars)?;
    if end > 0 && s.as_bytes()[end - 1] == b'\\' {
        let adj = s[end..].chars().next().map_or(1, char::len_utf8);
        let start = end + adj;
        return index_any_esc(&s[start..], chars).map(|e| e + start);
    }
    Some(end)
}

/// doublestar's `splitAlternatives`: the options of a `{...}` whose `{`
/// came just before `s`, and the index after its `}`.
fn split_alternatives(s: &str) -> Option<(Vec<String>, usize)> {
    let mut ret = Vec::new();
    let (mut idx, mut brace, mut esc, mut start) = (0usize, 1, false, 0usize);
    let b = s.as_bytes();
    while brace > 0 {
        if idx >= b.len() {
            return None;
        }
        let c = s[idx..].chars().next()?;
        let adj = c.len_utf8();
        if esc {
            esc = false;
        } else if c == '\\' {
            esc = true;
        } else if c == '{' {
            brace += 1;
        } else if c == '}' {
            brace -= 1;
        } else if c == ',' && brace == 1 {
            ret.push(s[start..idx].to_string());
            start = idx + adj;
        }
        idx += adj;
    }
    ret.push(s[start..idx - 1].to_string());
    Some((ret, idx))
}

fn is_zero_length(pattern: &str) -> Result<bool, GlobError> {
    if pattern.is_empty() || pattern == "*" || pattern == "**" {
        return Ok(true);
    }
    if let Some(rest) = pattern.strip_prefix('{') {
        let (options, end) = split_alternatives(rest).ok_or(GlobError::Bad)?;
        if !is_zero_length(&rest[end..])? {
            return Ok(false);
        }
        for o in options {
            if is_zero_length(&o)? {
                return Ok(true);
            }
        }
    }
    Ok(false)
}

/// doublestar's `Glob`.
fn glob(fs: &Fs, pattern: &str, ctx: &mut CallCtx) -> Result<Vec<String>, GlobError> {
    let mut matches = Vec::new();
    if pattern.is_empty() {
        return Ok(matches);
    }
    if let Some(rest) = pattern.strip_prefix('{') {
        let (options, end) = split_alternatives(rest).ok_or(GlobError::Bad)?;
        for o in options {
            ctx.charge(crate::func::budget::ELEMENT_COST)?;
            matches.extend(glob(fs, &format!("{o}{}", &rest[end..]), ctx)?);
        }
        return Ok(matches);
    }
    let e = if pattern.starts_with('/') || pattern.starts_with('\\') {
        do_glob(fs, "/".into(), pattern[1..].to_string(), &mut matches, ctx)?
    } else {
        do_glob(fs, ".".into(), pattern.to_string(), &mut matches, ctx)?
    };
    match e {
        Some(()) => Err(GlobError::Bad),
        None => Ok(matches),
    }
}

/// doublestar's `doGlob`: its error, which the callers mostly overwrite,
/// is the `Result`'s `Ok`; `Err` ends the whole call (a refused path or
/// an exhausted budget).
fn do_glob(fs: &Fs, mut basedir: String, mut pattern: String, m: &mut Vec<String>, ctx: &mut CallCtx) -> Result<Option<()>, GlobError> {
    crate::stack::guarded(|| do_glob_here(fs, &mut basedir, &mut pattern, m, ctx))
}

/// `Ok(Some(()))`: doublestar's `ErrBadPattern`; `Ok(None)`: no error.
fn do_glob_here(
    fs: &Fs,
    basedir: &mut String,
    pattern: &mut String,
    m: &mut Vec<String>,
    ctx: &mut CallCtx,
) -> Result<Option<()>, GlobError> {
    let mut e: Option<()> = None;
    let glob_idx = match index_any_esc(pattern, &['*', '?', '[', '{', '\\']) {
        Some(i) if i > 0 => last_index_rune_esc(&pattern[..i], '/'),
        Some(i) => Some(i),
        None => last_index_rune_esc(pattern, '/'),
    };
    if let Some(g) = glob_idx.filter(|&g| g > 0) {
        *basedir = go_join(&[basedir, &pattern[..g]]);
        *pattern = pattern[g + 1..].to_string();
    }
    let Some(mut fi) = fs.lstat(basedir)? else { return Ok(e) };
    if pattern.is_empty() {
        m.push(basedir.clone());
        return Ok(e);
    }
    if fi.symlink {
        match fs.stat(basedir)? {
            Ok(i) => fi = i,
            Err(_) => return Ok(e),
        }
    }
    if !fi.dir {
        return Ok(e);
    }
    let files = fs.read_dir(basedir, ctx)?;
    let slash = index_rune_esc(pattern, '/');
    let last = slash.is_none();
    let slash = slash.unwrap_or(pattern.len());
    let mut pattern: &str = pattern;
    let rest_owned;
    if &pattern[..slash] == "**" {
        for (name, mut info) in &files {
            let full = go_join(&[basedir, name]);
            if info.symlink {
                match fs.stat(&full)? {
                    Ok(i) => info = i,
                    Err(_) => continue,
                }
            }
            if info.dir {
                if last {
                    m.push(full.clone());
                }
                e = do_glob(fs, full, pattern.to_string(), m, ctx)?;
            } else if last {
                m.push(full);
            }
        }
        if last {
            return Ok(e);
        }
        rest_owned = pattern[slash + 1..].to_string();
        pattern = &rest_owned;
    }
    for (name, _) in &files {
        let matched = match match_component(pattern, name) {
            Ok(x) => x,
            Err(_) => return Ok(Some(())),
        };
        e = None;
        if let Some(alts) = matched {
            let full = go_join(&[basedir, name]);
            if alts.is_empty() {
                m.push(full);
            } else {
                for alt in alts {
                    e = do_glob(fs, full.clone(), alt, m, ctx)?;
                }
            }
        }
    }
    Ok(e)
}

/// doublestar's `matchComponent`: `None` no match, `Some([])` a match,
/// else the patterns that remain for the next components.
///
/// Each call is a step of work: `*` tries every position, recursively, so
/// a pattern of many stars against a long name takes time exponential in
/// the stars (doublestar's too). Once the call is out of steps the match
/// fails as a bad pattern would; the evaluation's end is what is reported.
fn match_component(pattern: &str, name: &str) -> Result<Option<Vec<String>>, ()> {
    crate::work::note(1);
    if crate::work::exhausted() {
        return Err(());
    }
    crate::stack::guarded(|| match_component_here(pattern, name))
}

/// Go's `utf8.DecodeRuneInString` (U+FFFD and 1 for a bad byte; `'\0'`
/// stands for "nothing" past the end, as Go's `RuneError` does).
fn rune_at(s: &str, i: usize) -> (char, usize) {
    match s[i..].chars().next() {
        Some(c) => (c, c.len_utf8()),
        None => ('\u{fffd}', 0),
    }
}

fn match_component_here(pattern: &str, name: &str) -> Result<Option<Vec<String>>, ()> {
    let (plen, nlen) = (pattern.len(), name.len());
    let (mut pi, mut ni) = (0, 0);
    while pi < plen && ni < nlen {
        let (mut pr, mut padj) = rune_at(pattern, pi);
        let (nr, nadj) = rune_at(name, ni);
        if pr == '/' {
            pi += 1;
            break;
        } else if pr == '\\' {
            pi += padj;
            (pr, padj) = rune_at(pattern, pi);
            if pr == '\u{fffd}' {
                return Err(());
            } else if pr == nr {
                pi += padj;
                ni += nadj;
            } else {
                return Ok(None);
            }
        } else if pr == '*' {
            pi += padj;
            if pi >= plen {
                return Ok(Some(Vec::new()));
            }
            (pr, padj) = rune_at(pattern, pi);
            if pr == '/' {
                return Ok(Some(vec![pattern[pi + padj..].to_string()]));
            }
            while ni < nlen {
                let m = match_component(&pattern[pi..], &name[ni..])?;
                if m.is_some() {
                    return Ok(m);
                }
                ni += rune_at(name, ni).1;
            }
            return Ok(None);
        } else if pr == '[' {
            pi += padj;
            let end = index_rune_esc(&pattern[pi..], ']').ok_or(())? + pi;
            let class: Vec<char> = pattern[pi..end].chars().collect();
            if class.is_empty() {
                return Err(());
            }
            let mut ci = 0;
            let mut matched = false;
            if class[0] == '^' {
                ci += 1;
            }
            while ci < class.len() {
                let mut low = class[ci];
                if low == '-' {
                    return Err(());
                }
                ci += 1;
                if low == '\\' {
                    if ci < class.len() {
                        low = class[ci];
                        ci += 1;
                    } else {
                        return Err(());
                    }
                }
                let mut high = low;
                if ci < class.len() && class[ci] == '-' {
                    ci += 1;
                    if ci >= class.len() {
                        return Err(());
                    }
                    high = class[ci];
                    if high == '-' {
                        return Err(());
                    }
                    ci += 1;
                    if high == '\\' {
                        if ci < class.len() {
                            high = class[ci];
                            ci += 1;
                        } else {
                            return Err(());
                        }
                    }
                }
                if low <= nr && nr <= high {
                    matched = true;
                }
            }
            if matched == (class[0] == '^') {
                return Ok(None);
            }
            pi = end + 1;
            ni += nadj;
        } else if pr == '{' {
            pi += padj;
            let (options, end) = split_alternatives(&pattern[pi..]).ok_or(())?;
            pi += end;
            let mut results: Vec<String> = Vec::new();
            let mut any = false;
            for o in options {
                let m = match_component(&format!("{o}{}", &pattern[pi..]), &name[ni..])?;
                if let Some(m) = m {
                    any = true;
                    results.extend(m);
                }
            }
            return Ok(any.then_some(results));
        } else if pr == '?' || pr == nr {
            pi += padj;
            ni += nadj;
        } else {
            return Ok(None);
        }
    }
    if ni >= nlen {
        if pi >= plen {
            return Ok(Some(Vec::new()));
        }
        let rest = &pattern[pi..];
        let slash = index_rune_esc(rest, '/');
        let test = match slash {
            Some(s) => &rest[..s],
            None => rest,
        };
        if is_zero_length(test).map_err(|_| ())? {
            return Ok(Some(match slash {
                None => Vec::new(),
                Some(s) => vec![rest[s + 1..].to_string()],
            }));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rel_as_go() {
        assert_eq!(go_rel("a", "a/b/c").unwrap(), "b/c");
        assert_eq!(go_rel(".", "x").unwrap(), "x");
        assert_eq!(go_rel("a/b", "a/c").unwrap(), "../c");
        assert_eq!(go_rel("a", "a").unwrap(), ".");
        assert_eq!(go_rel(".", "../x").unwrap(), "../x");
        assert!(go_rel("..", "x").is_err());
    }

    #[test]
    fn components_as_doublestar() {
        assert_eq!(match_component("*.txt", "a.txt"), Ok(Some(vec![])));
        assert_eq!(match_component("*/x", "a"), Ok(Some(vec!["x".to_string()])));
        assert_eq!(match_component("[a-c]", "b"), Ok(Some(vec![])));
        assert_eq!(match_component("[^a-c]", "b"), Ok(None));
        assert_eq!(match_component("{a,b}c", "bc"), Ok(Some(vec![])));
        assert_eq!(match_component("[", "b"), Err(()));
    }
}
