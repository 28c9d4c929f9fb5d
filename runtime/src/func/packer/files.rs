//! abspath basename dirname file fileexists pathexpand
//! (hashicorp/go-cty-funcs `filesystem`), under the host's [`FileAccess`]
//! policy.
//!
//! Path handling is Go's `path/filepath` (Unix) and `homedir.Expand`, so that results and error texts are Packer's when
//! the policy lets a call through. The policy decides first:
//!
//! - [`FileAccess::None`] (the default): no file is read or looked at, and
//!   nothing about the host shows: `file` and `fileexists` fail,
//!   `abspath` of a relative path (it would show the working directory)
//!   and `pathexpand` of a `~` path (the home directory) too;
//! - [`FileAccess::Root`]: relative paths resolve against the root
//!   directory and must stay under it: `..` that leaves it, absolute paths,
//!   `~` paths and symbolic links that lead out of it are refused;
//! - [`FileAccess::Unrestricted`]: as Packer, relative to the process's
//!   working directory.
//!
//! A refused call is an "Error in function call" that says why.

use super::super::{str_arg, CallCtx, FnError};
use crate::types::Type;
use crate::value::Value;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Which files the file functions of [`Functions::packer`](super::super::Functions::packer)
/// may read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum FileAccess {
    /// No file access at all (the default): the file functions fail with a
    /// diagnostic, and `abspath` and `pathexpand` refuse what would show
    /// the working or home directory.
    #[default]
    None,
    /// Files under this directory only. Relative paths resolve against it;
    /// a path that leads out of it (`..`, an absolute path, `~`, a symbolic
    /// link) is refused.
    Root(PathBuf),
    /// Any file the process can read, relative paths resolving against the
    /// working directory, as in Packer.
    Unrestricted,
}

impl FileAccess {
    /// Access under `dir` only ([`FileAccess::Root`]).
    ///
    /// ```
    /// use runtime::func::{FileAccess, FunctionTable, Functions, SizeBudget};
    /// use runtime::value::Value;
    ///
    /// let table = Functions::packer(FileAccess::root(std::env::temp_dir()));
    /// let file = table.lookup("file").unwrap();
    /// let err = table.call_unconverted(file, &[Value::string("../etc/passwd")], &mut SizeBudget::unlimited()).unwrap_err();
    /// assert!(err[0].detail.contains("outside the directory the host allows file access to"));
    /// ```
    pub fn root(dir: impl Into<PathBuf>) -> FileAccess {
        FileAccess::Root(dir.into())
    }
}

pub(super) const NO_ACCESS: &str = "file access is not allowed here (the host allows no file access)";

pub(super) fn outside(path: &str) -> FnError {
    FnError::new(format!("{} is outside the directory the host allows file access to", crate::strings::go_quote(path)))
}

// ----- Go's path/filepath (Unix) ------------------------------------------

/// Go's `filepath.Clean`.
pub fn go_clean(path: &str) -> String {
    if path.is_empty() {
        return ".".into();
    }
    let p = path.as_bytes();
    let rooted = p[0] == b'/';
    let n = p.len();
    let mut out: Vec<u8> = Vec::with_capacity(n);
    let (mut r, mut dotdot) = (0, 0);
    if rooted {
        out.push(b'/');
        r = 1;
        dotdot = 1;
    }
    while r < n {
        if p[r] == b'/' || (p[r] == b'.' && (r + 1 == n || p[r + 1] == b'/')) {
            r += 1;
        } else if p[r] == b'.' && p[r + 1] == b'.' && (r + 2 == n || p[r + 2] == b'/') {
            r += 2;
            if out.len() > dotdot {
                let mut w = out.len() - 1;
                while w > dotdot && out[w] != b'/' {
                    w -= 1;
                }
                out.truncate(w);
            } else if !rooted {
                if !out.is_empty() {
                    out.push(b'/');
                }
                out.extend_from_slice(b"..");
                dotdot = out.len();
            }
        } else {
            if (rooted && out.len() != 1) || (!rooted && !out.is_empty()) {
                out.push(b'/');
            }
            while r < n && p[r] != b'/' {
                out.push(p[r]);
                r += 1;
            }
        }
    }
    if out.is_empty() {
        out.push(b'.');
    }
    // Only ASCII bytes were added or removed at character boundaries.
    String::from_utf8(out).unwrap_or_default()
}

/// Go's `filepath.Join`.
pub(super) fn go_join(elems: &[&str]) -> String {
    match elems.iter().position(|e| !e.is_empty()) {
        Some(i) => go_clean(&elems[i..].join("/")),
        None => String::new(),
    }
}

/// Go's `filepath.Base`.
pub fn go_base(path: &str) -> String {
    if path.is_empty() {
        return ".".into();
    }
    let path = path.trim_end_matches('/');
    match path.rfind('/') {
        _ if path.is_empty() => "/".into(),
        Some(i) => path[i + 1..].to_string(),
        None => path.to_string(),
    }
}

/// Go's `filepath.Dir`.
pub fn go_dir(path: &str) -> String {
    let i = path.rfind('/').map_or(0, |i| i + 1);
    go_clean(&path[..i])
}

fn is_abs(path: &str) -> bool {
    path.starts_with('/')
}

// ----- home directory -----------------------------------------------------

/// go-homedir's `Dir` (Unix): `$HOME`, else the password database.
fn home_dir() -> Result<String, String> {
    if let Some(h) = std::env::var_os("HOME").filter(|h| !h.is_empty()) {
        return Ok(h.to_string_lossy().into_owned());
    }
    // go-homedir asks `getent passwd UID`, then the shell; hosts without
    // HOME are rare, and refusing is the safe answer.
    Err("could not find the home directory ($HOME is not set)".into())
}

/// go-homedir's `Expand`.
fn expand(path: &str) -> Result<String, String> {
    if !path.starts_with('~') {
        return Ok(path.to_string());
    }
    let b = path.as_bytes();
    if b.len() > 1 && b[1] != b'/' && b[1] != b'\\' {
        return Err("cannot expand user-specific home dir".into());
    }
    Ok(go_join(&[&home_dir()?, &path[1..]]))
}

// ----- the policy -----------------------------------------------------------

/// Where a path the configuration names is, once the policy allows it: the
/// path to open, and the path messages show (Packer's: the cleaned path as
/// the configuration gave it, relative paths unchanged).
struct Resolved {
    open: PathBuf,
    shown: String,
}

/// Resolves `path` (after `~` expansion where the policy allows it) for
/// reading; `Err` is the diagnostic of a refused or failed resolution.
fn resolve(access: &FileAccess, path: &str) -> Result<Resolved, FnError> {
    match access {
        FileAccess::None => Err(FnError::new(NO_ACCESS)),
        FileAccess::Unrestricted => {
            let p = expand(path).map_err(|e| FnError::new(format!("failed to expand ~: {e}")))?;
            let p = if is_abs(&p) { p } else { go_join(&[".", &p]) };
            let shown = go_clean(&p);
            Ok(Resolved { open: PathBuf::from(&shown), shown })
        }
        FileAccess::Root(root) => {
            if path.starts_with('~') || is_abs(path) {
                return Err(outside(path));
            }
            let shown = go_clean(path);
            if shown == ".." || shown.starts_with("../") {
                return Err(outside(path));
            }
            let root = root.canonicalize().map_err(|e| FnError::new(format!("the host's file root cannot be used: {e}")))?;
            let full = root.join(&shown);
            if !stays_inside(&root, &full) {
                return Err(outside(path));
            }
            Ok(Resolved { open: full, shown })
        }
    }
}

/// Whether `full` (a path under the canonical `root`) stays inside it once
/// symbolic links are followed: the deepest part of it that exists must.
/// (Judging only what exists would tell, by the difference between
/// "refused" and "missing", which paths exist outside the root.)
pub(super) fn stays_inside(root: &Path, full: &Path) -> bool {
    let mut probe: &Path = full;
    loop {
        match probe.canonicalize() {
            Ok(real) => return real.starts_with(root),
            Err(_) => match probe.parent() {
                Some(parent) => probe = parent,
                None => return true,
            },
        }
    }
}

/// `file(path)`.
pub fn file(access: &FileAccess, args: &[Value], ctx: &mut CallCtx) -> Result<Value, FnError> {
    let path = str_arg(&args[0]);
    let r = resolve(access, path)?;
    let mut f = match std::fs::File::open(&r.open) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(FnError::new(format!("no file exists at {}", r.shown))),
        Err(_) => return Err(FnError::new(format!("failed to read {}", r.shown))),
    };
    // Read at most what the size budget has left (a device such as
    // /dev/zero has no end).
    let room = ctx.budget.remaining();
    let mut src = Vec::new();
    if (&mut f).take(room.saturating_add(1)).read_to_end(&mut src).is_err() {
        return Err(FnError::new(format!("failed to read {}", r.shown)));
    }
    ctx.charge(src.len() as u64)?;
    match String::from_utf8(src) {
        Ok(text) => Ok(Value::from_string(text)),
        Err(_) => Err(FnError::new(format!(
            "contents of {path} are not valid UTF-8; use the filebase64 function to obtain the Base64 encoded contents or the other file functions (e.g. filemd5, filesha256) to obtain file hashing results instead"
        ))),
    }
}

/// Go's `FileMode.String` of a file's metadata.
#[cfg(unix)]
fn mode_string(md: &std::fs::Metadata) -> String {
    use std::os::unix::fs::MetadataExt;
    let m = md.mode();
    let mut s = String::new();
    let kind = m & 0o170000;
    // Go's letters "dalTLDpSugct?", in that order.
    if kind == 0o040000 {
        s.push('d');
    }
    if kind == 0o120000 {
        s.push('L');
    }
    if kind == 0o060000 || kind == 0o020000 {
        s.push('D');
    }
    if kind == 0o010000 {
        s.push('p');
    }
    if kind == 0o140000 {
        s.push('S');
    }
    if m & 0o4000 != 0 {
        s.push('u');
    }
    if m & 0o2000 != 0 {
        s.push('g');
    }
    if kind == 0o020000 {
        s.push('c');
    }
    if m & 0o1000 != 0 {
        s.push('t');
    }
    if s.is_empty() {
        s.push('-');
    }
    for (i, c) in "rwxrwxrwx".chars().enumerate() {
        s.push(if m & (1 << (8 - i)) != 0 { c } else { '-' });
    }
    s
}

#[cfg(not(unix))]
fn mode_string(md: &std::fs::Metadata) -> String {
    if md.is_dir() { "drwxrwxrwx" } else { "-rw-rw-rw-" }.to_string()
}

/// `fileexists(path)`.
pub fn fileexists(access: &FileAccess, args: &[Value]) -> Result<Value, FnError> {
    let path = str_arg(&args[0]);
    let r = resolve(access, path)?;
    match std::fs::metadata(&r.open) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Value::Bool(false)),
        Err(_) => Err(FnError::new(format!("failed to stat {}", r.shown))),
        Ok(md) if md.is_file() => Ok(Value::Bool(true)),
        Ok(md) => Err(FnError::new(format!("{} is not a regular file, but {}", r.shown, crate::strings::go_quote(&mode_string(&md))))),
    }
}

/// `basename(path)`: Go's `filepath.Base`.
pub fn basename(args: &[Value], _: &Type, _: &mut CallCtx) -> Result<Value, FnError> {
    Ok(Value::from_string(go_base(str_arg(&args[0]))))
}

/// `dirname(path)`: Go's `filepath.Dir`.
pub fn dirname(args: &[Value], _: &Type, _: &mut CallCtx) -> Result<Value, FnError> {
    Ok(Value::from_string(go_dir(str_arg(&args[0]))))
}

/// `abspath(path)`: Go's `filepath.Abs`, with `/` separators.
pub fn abspath(access: &FileAccess, args: &[Value]) -> Result<Value, FnError> {
    let path = str_arg(&args[0]);
    if is_abs(path) {
        return Ok(Value::from_string(go_clean(path)));
    }
    let wd = match access {
        FileAccess::None => return Err(FnError::new(NO_ACCESS)),
        FileAccess::Root(root) => {
            let shown = go_clean(path);
            if shown == ".." || shown.starts_with("../") {
                return Err(outside(path));
            }
            root.canonicalize().map_err(|e| FnError::new(format!("the host's file root cannot be used: {e}")))?
        }
        FileAccess::Unrestricted => std::env::current_dir().map_err(|e| FnError::new(e.to_string()))?,
    };
    Ok(Value::from_string(go_join(&[&wd.to_string_lossy(), path])))
}

/// `pathexpand(path)`: go-homedir's `Expand`.
pub fn pathexpand(access: &FileAccess, args: &[Value]) -> Result<Value, FnError> {
    let path = str_arg(&args[0]);
    if path.starts_with('~') && *access != FileAccess::Unrestricted {
        return Err(match access {
            FileAccess::None => FnError::new(NO_ACCESS),
            _ => outside(path),
        });
    }
    // go-cty-funcs returns the value and the error together; cty reports the
    // error.
    expand(path).map(Value::from_string).map_err(FnError::new)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cleans_as_go() {
        for (i, o) in [
            ("", "."),
            ("a//b", "a/b"),
            ("/../a", "/a"),
            ("../../a/..", "../.."),
            ("a/./b/", "a/b"),
            ("/", "/"),
            ("a/../..", ".."),
            ("./", "."),
        ] {
            assert_eq!(go_clean(i), o, "{i}");
        }
        assert_eq!(go_base("/a/b/"), "b");
        assert_eq!(go_base("///"), "/");
        assert_eq!(go_base(""), ".");
        assert_eq!(go_dir("/a/b"), "/a");
        assert_eq!(go_dir("a"), ".");
        assert_eq!(go_dir("/"), "/");
        assert_eq!(go_dir(""), ".");
    }
}
