//! A small parser for the subset of HCL expressions the ops conformance
//! test evaluates: literals, variables, operators, conditionals, tuples,
//! objects, `for` expressions, index/attribute/splat traversals and
//! templates without directives. Anything else (function calls, heredocs,
//! directives, comments, ...) is `Err(Unsupported)`: the case is skipped.
//! Parse errors of real HCL are never the question here (cases the
//! reference rejects at parse time are skipped too).

use runtime::Number;

#[derive(Debug)]
pub struct Unsupported(pub String);

#[derive(Debug, Clone)]
pub enum Expr {
    Lit(runtime::Value),
    Var(String),
    /// The current splat item.
    Item,
    Binary(vm::ops::BinaryOp, Box<Expr>, Box<Expr>),
    Unary(vm::ops::UnaryOp, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    Tuple(Vec<Expr>),
    /// Items: (key, value); a bare identifier key is a literal string.
    Object(Vec<(Expr, Expr)>),
    Index(Box<Expr>, Box<Expr>),
    Attr(Box<Expr>, String),
    LegacyIndex(Box<Expr>, Number),
    Splat { source: Box<Expr>, each: Box<Expr> },
    For(Box<ForExpr>),
    Template(Vec<Expr>),
    /// A `%{for}` directive's join of its iteration texts.
    TemplateJoin(Box<Expr>),
}

#[derive(Debug, Clone)]
pub struct ForExpr {
    pub key_var: Option<String>,
    pub val_var: String,
    pub coll: Expr,
    pub key: Option<Expr>,
    pub value: Expr,
    pub cond: Option<Expr>,
    pub group: bool,
}

type R<T> = Result<T, Unsupported>;

fn unsupported<T>(what: &str) -> R<T> {
    Err(Unsupported(what.to_string()))
}

pub struct Parser<'a> {
    s: &'a [u8],
    pos: usize,
    depth: usize,
}

pub fn parse_expr(src: &str) -> R<Expr> {
    let mut p = Parser { s: src.as_bytes(), pos: 0, depth: 0 };
    let e = p.expr()?;
    p.ws();
    if p.pos != p.s.len() {
        return unsupported("trailing input");
    }
    Ok(e)
}

pub fn parse_template(src: &str) -> R<Expr> {
    let mut p = Parser { s: src.as_bytes(), pos: 0, depth: 0 };
    p.template_parts(None)
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}
fn is_ident_continue(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'-'
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }
    fn peek_at(&self, k: usize) -> Option<u8> {
        self.s.get(self.pos + k).copied()
    }
    fn ws(&mut self) {
        while let Some(c) = self.peek() {
            if c == b' ' || c == b'\t' || c == b'\n' || c == b'\r' {
                self.pos += 1;
            } else {
                break;
            }
        }
    }
    fn eat(&mut self, tok: &str) -> bool {
        self.ws();
        if self.s[self.pos..].starts_with(tok.as_bytes()) {
            self.pos += tok.len();
            true
        } else {
            false
        }
    }
    fn expect(&mut self, tok: &str) -> R<()> {
        if self.eat(tok) {
            Ok(())
        } else {
            unsupported(&format!("expected {tok}"))
        }
    }
    fn peek_keyword(&mut self, kw: &str) -> bool {
        self.ws();
        let rest = &self.s[self.pos..];
        rest.starts_with(kw.as_bytes()) && !rest.get(kw.len()).is_some_and(|c| is_ident_continue(*c))
    }
    fn ident(&mut self) -> R<String> {
        self.ws();
        let start = self.pos;
        if !self.peek().is_some_and(is_ident_start) {
            return unsupported("identifier expected");
        }
        while self.peek().is_some_and(is_ident_continue) {
            self.pos += 1;
        }
        Ok(String::from_utf8_lossy(&self.s[start..self.pos]).into_owned())
    }

    pub fn expr(&mut self) -> R<Expr> {
        self.depth += 1;
        if self.depth > 100 {
            return unsupported("too deep");
        }
        let cond = self.binary(0)?;
        self.ws();
        let r = if self.peek() == Some(b'?') {
            self.pos += 1;
            let t = self.expr()?;
            self.expect(":")?;
            let f = self.expr()?;
            Ok(Expr::Cond(Box::new(cond), Box::new(t), Box::new(f)))
        } else {
            Ok(cond)
        };
        self.depth -= 1;
        r
    }

    fn binary_op(&mut self, level: usize) -> Option<vm::ops::BinaryOp> {
        use vm::ops::BinaryOp::*;
        self.ws();
        let table: &[(&str, vm::ops::BinaryOp)] = match level {
            0 => &[("||", Or)],
            1 => &[("&&", And)],
            2 => &[("==", Eq), ("!=", NotEq)],
            3 => &[("<=", Le), (">=", Ge), ("<", Lt), (">", Gt)],
            4 => &[("+", Add), ("-", Sub)],
            _ => &[("*", Mul), ("/", Div), ("%", Mod)],
        };
        for (tok, op) in table {
            if self.s[self.pos..].starts_with(tok.as_bytes()) {
                // `=>` and `==` / `=`: only the listed tokens; `<` must not
                // eat a `<<` heredoc (unsupported anyway).
                self.pos += tok.len();
                return Some(*op);
            }
        }
        None
    }

    fn binary(&mut self, level: usize) -> R<Expr> {
        if level > 5 {
            return self.unary();
        }
        let mut lhs = self.binary(level + 1)?;
        while let Some(op) = self.binary_op(level) {
            let rhs = self.binary(level + 1)?;
            lhs = Expr::Binary(op, Box::new(lhs), Box::new(rhs));
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> R<Expr> {
        self.ws();
        match self.peek() {
            Some(b'-') => {
                self.pos += 1;
                let v = self.unary()?;
                Ok(Expr::Unary(vm::ops::UnaryOp::Neg, Box::new(v)))
            }
            Some(b'!') => {
                self.pos += 1;
                let v = self.unary()?;
                Ok(Expr::Unary(vm::ops::UnaryOp::Not, Box::new(v)))
            }
            _ => {
                let p = self.primary()?;
                self.traversals(p, false)
            }
        }
    }

    /// Postfix steps. `attr_only`: inside a `.*` splat, only `.name` and
    /// `.N` steps belong to it.
    fn traversals(&mut self, mut e: Expr, attr_only: bool) -> R<Expr> {
        loop {
            // No whitespace skipping before steps: hcl allows it, but the
            // cases don't need it and it keeps `a - b` unambiguous here.
            match self.peek() {
                Some(b'.') if self.peek_at(1) == Some(b'.') => return Ok(e),
                Some(b'.') => {
                    match self.peek_at(1) {
                        Some(b'*') => {
                            if attr_only {
                                return unsupported("nested splat");
                            }
                            self.pos += 2;
                            let each = self.traversals(Expr::Item, true)?;
                            e = Expr::Splat { source: Box::new(e), each: Box::new(each) };
                        }
                        Some(c) if c.is_ascii_digit() => {
                            self.pos += 1;
                            let start = self.pos;
                            while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                                self.pos += 1;
                            }
                            if self.peek() == Some(b'.') && self.peek_at(1).is_some_and(|c| c.is_ascii_digit()) {
                                return unsupported("chained legacy index");
                            }
                            let text = std::str::from_utf8(&self.s[start..self.pos]).unwrap_or("0");
                            let n = Number::parse(text).map_err(|_| Unsupported("number".into()))?;
                            e = Expr::LegacyIndex(Box::new(e), n);
                        }
                        Some(c) if is_ident_start(c) => {
                            self.pos += 1;
                            let name = self.ident()?;
                            e = Expr::Attr(Box::new(e), name);
                        }
                        _ => return unsupported("bad step"),
                    }
                }
                Some(b'[') if !attr_only => {
                    self.pos += 1;
                    self.ws();
                    if self.peek() == Some(b'*') {
                        self.pos += 1;
                        self.expect("]")?;
                        let each = self.traversals(Expr::Item, false)?;
                        e = Expr::Splat { source: Box::new(e), each: Box::new(each) };
                        return Ok(e);
                    }
                    let k = self.expr()?;
                    self.expect("]")?;
                    e = Expr::Index(Box::new(e), Box::new(k));
                }
                _ => return Ok(e),
            }
        }
    }

    fn primary(&mut self) -> R<Expr> {
        self.ws();
        match self.peek() {
            Some(c) if c.is_ascii_digit() => self.number(),
            Some(b'"') => {
                self.pos += 1;
                self.template_parts(Some(b'"'))
            }
            Some(b'(') => {
                self.pos += 1;
                let e = self.expr()?;
                self.expect(")")?;
                Ok(e)
            }
            Some(b'[') => {
                self.pos += 1;
                if self.peek_keyword("for") {
                    return self.for_expr(false);
                }
                let mut items = Vec::new();
                loop {
                    if self.eat("]") {
                        break;
                    }
                    items.push(self.expr()?);
                    if !self.eat(",") {
                        self.expect("]")?;
                        break;
                    }
                }
                Ok(Expr::Tuple(items))
            }
            Some(b'{') => {
                self.pos += 1;
                if self.peek_keyword("for") {
                    return self.for_expr(true);
                }
                let mut items = Vec::new();
                loop {
                    if self.eat("}") {
                        break;
                    }
                    let key = self.object_key()?;
                    self.ws();
                    if !(self.eat("=") || self.eat(":")) {
                        return unsupported("object item");
                    }
                    let val = self.expr()?;
                    items.push((key, val));
                    // Items are separated by commas or newlines.
                    let _ = self.eat(",");
                }
                Ok(Expr::Object(items))
            }
            Some(c) if is_ident_start(c) => {
                let name = self.ident()?;
                self.ws();
                if self.peek() == Some(b'(') {
                    return unsupported("function call");
                }
                Ok(match name.as_str() {
                    "true" => Expr::Lit(runtime::Value::Bool(true)),
                    "false" => Expr::Lit(runtime::Value::Bool(false)),
                    "null" => Expr::Lit(runtime::Value::null(runtime::Type::Dynamic)),
                    _ => Expr::Var(name),
                })
            }
            _ => unsupported("primary"),
        }
    }

    /// An object key: a bare identifier (or keyword) is a literal name
    /// unless followed by a traversal; anything else is an expression.
    fn object_key(&mut self) -> R<Expr> {
        self.ws();
        if self.peek().is_some_and(is_ident_start) {
            let save = self.pos;
            let name = self.ident()?;
            if matches!(self.peek(), Some(b'.') | Some(b'[')) {
                self.pos = save;
                return unsupported("traversal as object key");
            }
            return Ok(Expr::Lit(runtime::Value::string(&name)));
        }
        self.expr()
    }

    fn for_expr(&mut self, object: bool) -> R<Expr> {
        self.expect("for")?;
        let first = self.ident()?;
        let (key_var, val_var) = if self.eat(",") { (Some(first), self.ident()?) } else { (None, first) };
        if !self.peek_keyword("in") {
            return unsupported("for in");
        }
        self.expect("in")?;
        let coll = self.expr()?;
        self.expect(":")?;
        let (key, value) = if object {
            let k = self.expr()?;
            self.expect("=>")?;
            (Some(k), self.expr()?)
        } else {
            (None, self.expr()?)
        };
        let group = object && self.eat("...");
        let cond = if self.peek_keyword("if") {
            self.expect("if")?;
            Some(self.expr()?)
        } else {
            None
        };
        self.expect(if object { "}" } else { "]" })?;
        Ok(Expr::For(Box::new(ForExpr { key_var, val_var, coll, key, value, cond, group })))
    }

    fn number(&mut self) -> R<Expr> {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        if self.peek() == Some(b'.') && self.peek_at(1).is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
            while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                self.pos += 1;
            }
        }
        if matches!(self.peek(), Some(b'e') | Some(b'E')) {
            let save = self.pos;
            self.pos += 1;
            if matches!(self.peek(), Some(b'+') | Some(b'-')) {
                self.pos += 1;
            }
            if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    self.pos += 1;
                }
            } else {
                self.pos = save;
            }
        }
        let text = std::str::from_utf8(&self.s[start..self.pos]).map_err(|_| Unsupported("utf8".into()))?;
        let n = Number::parse(text).map_err(|_| Unsupported("number".into()))?;
        Ok(Expr::Lit(runtime::Value::Number(n)))
    }

    /// A quoted string (`close` = `"`) or a whole template (`None`):
    /// literal text, `${...}` interpolations and `%{if}`/`%{for}`
    /// directives with strip markers. A template that is exactly one
    /// interpolation is that expression's value itself (hcl's passthrough).
    fn template_parts(&mut self, close: Option<u8>) -> R<Expr> {
        let mut toks = self.template_tokens(close)?;
        if let [TTok::Interp { expr, .. }] = toks.as_slice() {
            return Ok(expr.clone());
        }
        strip_markers(&mut toks);
        let mut pos = 0;
        let (parts, end) = build_parts(&toks, &mut pos)?;
        if end.is_some() {
            return unsupported("unexpected end directive");
        }
        Ok(Expr::Template(parts))
    }

    fn template_tokens(&mut self, close: Option<u8>) -> R<Vec<TTok>> {
        let mut toks = Vec::new();
        let mut text: Vec<u8> = Vec::new();
        // hcl's scanner ends a template literal token after each newline,
        // and a strip marker trims only the adjacent token.
        let split_lines = close.is_none();
        let flush = |text: &mut Vec<u8>, toks: &mut Vec<TTok>| {
            if text.is_empty() {
                return;
            }
            let s = String::from_utf8_lossy(text).into_owned();
            if split_lines {
                toks.extend(s.split_inclusive('\n').map(|l| TTok::Lit(l.to_string())));
            } else {
                toks.push(TTok::Lit(s));
            }
            text.clear();
        };
        loop {
            let Some(c) = self.peek() else {
                if close.is_some() {
                    return unsupported("unterminated string");
                }
                break;
            };
            if Some(c) == close {
                self.pos += 1;
                break;
            }
            let next = (self.peek_at(1), self.peek_at(2));
            if (c == b'$' || c == b'%') && next == (Some(c), Some(b'{')) {
                text.extend_from_slice(&[c, b'{']);
                self.pos += 3;
                continue;
            }
            if (c == b'$' || c == b'%') && next.0 == Some(b'{') {
                self.pos += 2;
                flush(&mut text, &mut toks);
                let strip_left = self.eat("~");
                let tok = if c == b'$' { TTok::Interp { expr: self.expr()?, sl: false, sr: false } } else { self.directive()? };
                self.ws();
                let strip_right = self.eat("~");
                self.expect("}")?;
                toks.push(tok.with_strip(strip_left, strip_right));
                continue;
            }
            if close.is_some() && c == b'\\' {
                self.pos += 1;
                let esc = self.peek().ok_or_else(|| Unsupported("escape".into()))?;
                self.pos += 1;
                match esc {
                    b'n' => text.push(b'\n'),
                    b'r' => text.push(b'\r'),
                    b't' => text.push(b'\t'),
                    b'"' => text.push(b'"'),
                    b'\\' => text.push(b'\\'),
                    b'u' | b'U' => {
                        let len = if esc == b'u' { 4 } else { 8 };
                        let hex = self.s.get(self.pos..self.pos + len).ok_or_else(|| Unsupported("escape".into()))?;
                        let hex = std::str::from_utf8(hex).map_err(|_| Unsupported("escape".into()))?;
                        let cp = u32::from_str_radix(hex, 16).map_err(|_| Unsupported("escape".into()))?;
                        let ch = char::from_u32(cp).ok_or_else(|| Unsupported("escape".into()))?;
                        let mut buf = [0u8; 4];
                        text.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                        self.pos += len;
                    }
                    _ => return unsupported("escape"),
                }
                continue;
            }
            if close.is_some() && c == b'\n' {
                return unsupported("newline in string");
            }
            text.push(c);
            self.pos += 1;
        }
        flush(&mut text, &mut toks);
        Ok(toks)
    }

    fn directive(&mut self) -> R<TTok> {
        let kw = self.ident()?;
        Ok(match kw.as_str() {
            "if" => TTok::If { cond: self.expr()?, sl: false, sr: false },
            "else" => TTok::Else { sl: false, sr: false },
            "endif" => TTok::EndIf { sl: false, sr: false },
            "endfor" => TTok::EndFor { sl: false, sr: false },
            "for" => {
                let first = self.ident()?;
                let (key_var, val_var) = if self.eat(",") { (Some(first), self.ident()?) } else { (None, first) };
                if !self.peek_keyword("in") {
                    return unsupported("for in");
                }
                self.expect("in")?;
                let coll = self.expr()?;
                TTok::For { key_var, val_var, coll, sl: false, sr: false }
            }
            _ => return unsupported("directive"),
        })
    }
}

/// Template tokens before they are assembled into expressions.
#[derive(Debug, Clone)]
enum TTok {
    Lit(String),
    Interp { expr: Expr, sl: bool, sr: bool },
    If { cond: Expr, sl: bool, sr: bool },
    Else { sl: bool, sr: bool },
    EndIf { sl: bool, sr: bool },
    For { key_var: Option<String>, val_var: String, coll: Expr, sl: bool, sr: bool },
    EndFor { sl: bool, sr: bool },
}

impl TTok {
    fn with_strip(mut self, left: bool, right: bool) -> TTok {
        match &mut self {
            TTok::Lit(_) => {}
            TTok::Interp { sl, sr, .. }
            | TTok::If { sl, sr, .. }
            | TTok::Else { sl, sr }
            | TTok::EndIf { sl, sr }
            | TTok::For { sl, sr, .. }
            | TTok::EndFor { sl, sr } => {
                *sl = left;
                *sr = right;
            }
        }
        self
    }
    fn strips(&self) -> (bool, bool) {
        match self {
            TTok::Lit(_) => (false, false),
            TTok::Interp { sl, sr, .. }
            | TTok::If { sl, sr, .. }
            | TTok::Else { sl, sr }
            | TTok::EndIf { sl, sr }
            | TTok::For { sl, sr, .. }
            | TTok::EndFor { sl, sr } => (*sl, *sr),
        }
    }
}

/// `~` trims the whitespace of the adjacent literal on its side.
fn strip_markers(toks: &mut [TTok]) {
    for i in 0..toks.len() {
        let (sl, sr) = toks[i].strips();
        if sl && i > 0 {
            if let TTok::Lit(s) = &mut toks[i - 1] {
                *s = s.trim_end_matches(char::is_whitespace).to_string();
            }
        }
        if sr && i + 1 < toks.len() {
            if let TTok::Lit(s) = &mut toks[i + 1] {
                *s = s.trim_start_matches(char::is_whitespace).to_string();
            }
        }
    }
}

/// Which directive ended a run of parts.
#[derive(Debug, PartialEq)]
enum End {
    Else,
    If,
    For,
}

fn empty_literal() -> Expr {
    Expr::Lit(runtime::Value::string(""))
}

fn build_parts(toks: &[TTok], pos: &mut usize) -> R<(Vec<Expr>, Option<End>)> {
    let mut parts = Vec::new();
    while let Some(t) = toks.get(*pos) {
        *pos += 1;
        match t {
            TTok::Lit(s) => parts.push(Expr::Lit(runtime::Value::string(s))),
            TTok::Interp { expr, .. } => parts.push(expr.clone()),
            TTok::Else { .. } => return Ok((parts, Some(End::Else))),
            TTok::EndIf { .. } => return Ok((parts, Some(End::If))),
            TTok::EndFor { .. } => return Ok((parts, Some(End::For))),
            TTok::If { cond, .. } => {
                let (mut t_parts, end) = build_parts(toks, pos)?;
                let mut f_parts = Vec::new();
                match end {
                    Some(End::Else) => {
                        let (p, end) = build_parts(toks, pos)?;
                        if end != Some(End::If) {
                            return unsupported("if without endif");
                        }
                        f_parts = p;
                    }
                    Some(End::If) => {}
                    _ => return unsupported("if without endif"),
                }
                if t_parts.is_empty() {
                    t_parts.push(empty_literal());
                }
                if f_parts.is_empty() {
                    f_parts.push(empty_literal());
                }
                parts.push(Expr::Cond(
                    Box::new(cond.clone()),
                    Box::new(Expr::Template(t_parts)),
                    Box::new(Expr::Template(f_parts)),
                ));
            }
            TTok::For { key_var, val_var, coll, .. } => {
                let (body, end) = build_parts(toks, pos)?;
                if end != Some(End::For) {
                    return unsupported("for without endfor");
                }
                let body = if body.is_empty() { vec![empty_literal()] } else { body };
                let f = ForExpr {
                    key_var: key_var.clone(),
                    val_var: val_var.clone(),
                    coll: coll.clone(),
                    key: None,
                    value: Expr::Template(body),
                    cond: None,
                    group: false,
                };
                parts.push(Expr::TemplateJoin(Box::new(Expr::For(Box::new(f)))));
            }
        }
    }
    Ok((parts, None))
}
