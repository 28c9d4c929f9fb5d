//! Go 1.19's `regexp/syntax` reading of a pattern (its checks in its
//! order, its errors with the text they name), written in the `regex`
//! crate's syntax.

use super::classes::{perl_class, push_char, push_literal, push_perl_class, translate_class, unicode_class};
use super::shape::{ShapeError, TreeShape};

/// A Go-syntax error: the RE2 error code and the offending expression.
#[derive(Clone, Debug)]
pub struct SyntaxError {
    pub code: String,
    pub expr: String,
}

pub(super) fn err(code: &str, expr: &str) -> SyntaxError {
    SyntaxError { code: code.to_string(), expr: expr.to_string() }
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

/// Rewrites a Go pattern into `regex` crate syntax, reading it as Go
/// 1.19's `regexp/syntax` parser does (Perl flags) and reporting the
/// first error it reports, with its code and the text it names.
pub(super) fn translate(p: &str) -> Result<Translation, SyntaxError> {
    Translator::new(p).run()
}

/// The state of a translation, read left to right.
struct Translator<'p> {
    /// The pattern, and where reading it is.
    p: &'p str,
    t: usize,
    out: String,
    /// Go's capture groups in order (see [`Translation`]), the names of
    /// the named ones as read, and the shape of Go's tree.
    groups: Vec<Option<Box<str>>>,
    names: Vec<String>,
    shape: TreeShape,
    open: Vec<OpenGroup>,
    /// Whether what precedes can take a repetition operator (Go's stack
    /// top is an expression, not a group start or `|`).
    can_repeat: bool,
    /// Where the repetition operator read in the previous step starts.
    last_repeat: Option<usize>,
    /// Where flag settings written since the last expression start in
    /// `out`, and the `U` flag before them: Go repeats the expression
    /// before them, `regex` refuses a repetition right after them, so they
    /// move after it.
    flags_at: Option<(usize, bool)>,
    /// Go's `U` (non-greedy) flag.
    ungreedy: bool,
    /// The expression a repetition would take: where it starts in `out`,
    /// and whether it is a repetition itself.
    item_start: usize,
    item_repeats: bool,
}

/// A group open at this point of the pattern.
struct OpenGroup {
    /// Where it starts in `out`.
    start: usize,
    /// The `U` flag outside it (restored where it closes).
    ungreedy_outside: bool,
}

/// What one step of reading wrote.
enum Wrote {
    /// Something else than a repetition (an expression, a group's start
    /// or end, a `|`).
    Other,
    /// A repetition operator read at this offset, with the flag settings
    /// still pending after it.
    Repetition(usize, Option<(usize, bool)>),
    /// Nothing that ends what the step before it started: flag settings,
    /// or a `\Q...\E` (which sets the state itself).
    Nothing,
}

impl<'p> Translator<'p> {
    fn new(p: &'p str) -> Translator<'p> {
        Translator {
            p,
            t: 0,
            out: String::with_capacity(p.len() + 16),
            groups: Vec::new(),
            names: Vec::new(),
            shape: TreeShape::new(),
            open: Vec::new(),
            can_repeat: false,
            last_repeat: None,
            flags_at: None,
            ungreedy: false,
            item_start: 0,
            item_repeats: false,
        }
    }

    fn too_deep(&self) -> SyntaxError {
        err("expression nests too deeply", self.p)
    }

    fn run(mut self) -> Result<Translation, SyntaxError> {
        while self.t < self.p.len() {
            let rest = &self.p[self.t..];
            let c = rest.chars().next().unwrap_or('\0');
            let out_before = self.out.len();
            let wrote = match c {
                '(' if rest.starts_with("(?") => self.perl_group()?,
                '(' => self.capture(),
                '|' => self.bar(),
                ')' => self.close()?,
                '^' | '$' | '.' => {
                    self.atom(c == '.', 1);
                    self.out.push(c);
                    Wrote::Other
                }
                '[' => {
                    self.t = translate_class(self.p, self.t, &mut self.out)?;
                    self.shape.atom(true);
                    self.can_repeat = true;
                    Wrote::Other
                }
                '*' | '+' | '?' => self.repetition(1, None)?,
                '{' => match repetition(rest) {
                    Some((len, lo, hi)) => {
                        if lo > 1000 || hi.is_some_and(|h| h > 1000 || h < lo) {
                            return Err(err("invalid repeat count", &rest[..len]));
                        }
                        self.repetition(len, Some((lo, hi)))?
                    }
                    None => {
                        self.shape.literal();
                        self.out.push_str("\\{");
                        self.can_repeat = true;
                        self.t += 1;
                        Wrote::Other
                    }
                },
                '\\' => self.escape()?,
                _ => {
                    self.shape.literal();
                    push_literal(&mut self.out, c);
                    self.can_repeat = true;
                    self.t += c.len_utf8();
                    Wrote::Other
                }
            };
            let (repeat, flags_after) = match wrote {
                Wrote::Nothing => continue,
                Wrote::Other => (None, None),
                Wrote::Repetition(at, flags) => (Some(at), flags),
            };
            // What this step wrote is the expression a repetition would
            // take, unless it was a repetition, a group's start or end, or
            // a `|`.
            if repeat.is_none() && self.can_repeat && !matches!(c, ')' | '(') && self.out.len() > out_before {
                self.item_start = out_before;
                self.item_repeats = false;
            }
            self.last_repeat = repeat;
            self.flags_at = flags_after;
        }
        let p = self.p;
        self.shape.finish().map_err(|_| err("expression nests too deeply", p))?;
        if !self.open.is_empty() {
            return Err(err("missing closing )", self.p));
        }
        Ok(Translation { text: self.out, groups: self.groups })
    }

    /// A piece with no operand of its own: `.` or a class (`class`), or
    /// an anchor, `len` bytes long (the caller writes it).
    fn atom(&mut self, class: bool, len: usize) {
        self.shape.atom(class);
        self.can_repeat = true;
        self.t += len;
    }

    /// A `(?` group: a named capture, flags for a group, or flag settings.
    fn perl_group(&mut self) -> Result<Wrote, SyntaxError> {
        let out_before = self.out.len();
        let before = self.can_repeat;
        let PerlGroup { len, opens, ungreedy: sets, capture } = perl_group(self.p, self.t, &mut self.out, &mut self.names)?;
        if opens {
            self.shape.open(capture.is_some());
            if let Some(name) = capture {
                self.groups.push(Some(name.into()));
            }
            self.open.push(OpenGroup { start: out_before, ungreedy_outside: self.ungreedy });
        }
        let ungreedy_before = self.ungreedy;
        self.ungreedy = sets.unwrap_or(self.ungreedy);
        // Flags alone push nothing: what came before still repeats.
        self.can_repeat = !opens && before;
        self.t += len;
        if opens {
            return Ok(Wrote::Other);
        }
        self.flags_at = self.flags_at.or(Some((out_before, ungreedy_before)));
        self.last_repeat = None;
        Ok(Wrote::Nothing)
    }

    /// `(`: a capture group opens.
    fn capture(&mut self) -> Wrote {
        self.shape.open(true);
        self.groups.push(None);
        self.open.push(OpenGroup { start: self.out.len(), ungreedy_outside: self.ungreedy });
        self.out.push('(');
        self.can_repeat = false;
        self.t += 1;
        Wrote::Other
    }

    fn bar(&mut self) -> Wrote {
        self.shape.bar();
        self.out.push('|');
        self.can_repeat = false;
        self.t += 1;
        Wrote::Other
    }

    /// `)`: the innermost group closes, and is what a repetition would
    /// take.
    fn close(&mut self) -> Result<Wrote, SyntaxError> {
        let Some(group) = self.open.pop() else {
            return Err(err("unexpected )", self.p));
        };
        self.shape.close().map_err(|_| self.too_deep())?;
        self.ungreedy = group.ungreedy_outside;
        self.out.push(')');
        self.item_start = group.start;
        self.item_repeats = false;
        self.can_repeat = true;
        self.t += 1;
        Ok(Wrote::Other)
    }

    /// A repetition operator `len` bytes long (then Go's `?`, if there is
    /// one): `*`, `+`, `?`, or a count (`bounds`, checked against Go's
    /// limits).
    fn repetition(&mut self, len: usize, bounds: Option<(u64, Option<u64>)>) -> Result<Wrote, SyntaxError> {
        let (p, t) = (self.p, self.t);
        let after = t + len + usize::from(p[t + len..].starts_with('?'));
        check_repeat(p, t, after, self.last_repeat, self.can_repeat)?;
        let checked = match bounds {
            None => self.shape.repeat(None, false, false),
            // Go's count: the maximum, or the minimum when there is none;
            // checked when either is 2 or more.
            Some((lo, hi)) => self.shape.repeat(Some(hi.unwrap_or(lo)), hi == Some(0), lo >= 2 || hi.is_some_and(|h| h >= 2)),
        };
        checked.map_err(|e| match e {
            ShapeError::TooDeep => self.too_deep(),
            ShapeError::TooManyCopies => err("invalid repeat count", &p[t..after]),
        })?;
        let repeated_from = self.item_repeats.then_some(self.item_start);
        let flags_after = push_repetition(&mut self.out, &p[t..after], after - t > len, self.flags_at, self.ungreedy, repeated_from);
        self.item_repeats = true;
        self.can_repeat = true;
        self.t = after;
        Ok(Wrote::Repetition(t, flags_after))
    }

    /// A backslash: an anchor, a class, `\Q...\E`, or an escaped
    /// character.
    fn escape(&mut self) -> Result<Wrote, SyntaxError> {
        let rest = &self.p[self.t..];
        let next = rest[1..].chars().next();
        match next {
            Some('A') => self.out.push_str("\\A"),
            Some('z') => self.out.push_str("\\z"),
            Some('b') => self.out.push_str("(?-u:\\b)"),
            Some('B') => self.out.push_str("(?-u:\\B)"),
            Some('C') => return Err(err("invalid escape sequence", &rest[..2])),
            Some('Q') => return Ok(self.quoted()),
            _ => {}
        }
        if matches!(next, Some('A' | 'z' | 'b' | 'B')) {
            self.atom(false, 2);
        } else if matches!(next, Some('p' | 'P')) {
            let (class, len) = unicode_class(self.p, self.t)?;
            self.out.push_str(&class);
            self.atom(true, len);
        } else if let Some((body, neg)) = next.and_then(perl_class) {
            push_perl_class(&mut self.out, body, neg, false);
            self.atom(true, 2);
        } else {
            let (ch, len) = go_escape(self.p, self.t)?;
            self.shape.literal();
            push_char(&mut self.out, ch);
            self.can_repeat = true;
            self.t += len;
        }
        Ok(Wrote::Other)
    }

    /// `\Q...\E` (or to the end): its characters as literals.
    fn quoted(&mut self) -> Wrote {
        let rest = &self.p[self.t..];
        let (lit, after) = match rest[2..].find("\\E") {
            Some(e) => (&rest[2..2 + e], self.t + 2 + e + 2),
            None => (&rest[2..], self.p.len()),
        };
        for lc in lit.chars() {
            self.shape.literal();
            self.item_start = self.out.len();
            self.item_repeats = false;
            push_literal(&mut self.out, lc);
        }
        // An empty \Q\E pushes nothing.
        self.can_repeat = self.can_repeat || !lit.is_empty();
        if !lit.is_empty() {
            self.flags_at = None;
        }
        self.last_repeat = None;
        self.t = after;
        Wrote::Nothing
    }
}

/// A pattern in the `regex` crate's syntax, and Go's capture groups (their
/// names, in order): `regex` drops the groups of what repeats `{0}` times,
/// which Go keeps (they never take part).
pub(super) struct Translation {
    pub(super) text: String,
    pub(super) groups: Vec<Option<Box<str>>>,
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
pub(super) fn go_escape(p: &str, off: usize) -> Result<(u32, usize), SyntaxError> {
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
