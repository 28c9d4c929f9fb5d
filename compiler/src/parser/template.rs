//! Templates: quoted strings, heredocs and bare templates.
//!
//! As in the reference, parsing is two passes: the token stream is first
//! raised to template "atoms" (literal text with escapes resolved and strip
//! markers applied, interpolations, directive openers and closers), then the
//! atoms are nested into if/for structures.

use super::{between, drain_to_arena, Parser};
use crate::ast::*;
use crate::lexer::{string_piece, StringPiece, Token, TokenKind as T};
use bumpalo::collections::Vec as BumpVec;
use runtime::strings::{go_lossy_utf8, go_quote, go_quote_bytes};
use runtime::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EndKind {
    EndIf,
    Else,
    EndFor,
}

impl EndKind {
    fn name(self) -> &'static str {
        match self {
            EndKind::EndIf => "endif",
            EndKind::Else => "else",
            EndKind::EndFor => "endfor",
        }
    }
}

#[derive(Clone, Copy)]
pub(crate) enum Atom<'a> {
    Lit { val: &'a str, span: Span },
    Interp { expr: &'a Expr<'a> },
    If { cond: &'a Expr<'a>, span: Span },
    For { key: Option<Ident>, val: Ident, coll: &'a Expr<'a>, span: Span },
    EndCtrl { kind: EndKind, span: Span },
    End { span: Span },
}

/// Whether the first and the last part of a template body are the
/// reference's missing expression.
#[derive(Default)]
struct PartEnds {
    first: Option<bool>,
    last: bool,
}

impl PartEnds {
    fn add(&mut self, missing: bool) {
        self.first.get_or_insert(missing);
        self.last = missing;
    }

    fn either(&self) -> bool {
        self.first == Some(true) || self.last
    }
}

fn trim_start_space(s: &str) -> &str {
    s.trim_start_matches(char::is_whitespace)
}

fn trim_end_space(s: &str) -> &str {
    s.trim_end_matches(char::is_whitespace)
}

impl<'a, 'i> Parser<'a, 'i> {
    /// A whole bare template (`ParseTemplate`).
    pub fn parse_template_root(&mut self) -> &'a Expr<'a> {
        let (parts, passthru, span) = self.parse_template_inner(T::Eof, false);
        if passthru {
            if let Some(only) = parts.first() {
                return self.alloc(ExprKind::TemplateWrap(only), span);
            }
        }
        self.alloc(ExprKind::Template(parts), span)
    }

    /// The parts of a template up to `end`; `passthru` when the template is
    /// exactly one interpolation (its value is then the interpolated value).
    pub fn parse_template_inner(&mut self, end: T, flush: bool) -> (&'a [Expr<'a>], bool, Span) {
        let mut atoms = self.atom_pool.pop().unwrap_or_default();
        atoms.clear();
        let span = self.parse_template_atoms(end, &mut atoms);
        if flush {
            flush_heredoc(&mut atoms);
        }
        self.meld_literals(&mut atoms);
        let passthru = atoms.len() == 2 && matches!(atoms[0], Atom::Interp { .. });
        let mut pos = 0usize;
        let base = self.scratch_exprs.len();
        while !matches!(atoms.get(pos), Some(Atom::End { .. }) | None) {
            let e = self.template_part(&atoms, &mut pos);
            self.scratch_exprs.push(*e);
        }
        atoms.clear();
        self.atom_pool.push(atoms);
        (drain_to_arena(self.arena, &mut self.scratch_exprs, base), passthru, span)
    }

    /// hcl v2.16's `meldConsecutiveStringLiterals`: consecutive literal
    /// pieces (an escape such as `%%` or `$${` scans as a piece of its own;
    /// heredoc lines too) become one literal spanning them all, after the
    /// whitespace trimming. Its range is what a diagnostic about the
    /// template's start covers.
    fn meld_literals(&mut self, atoms: &mut Vec<Atom<'a>>) {
        let mut out = 0;
        let mut i = 0;
        while i < atoms.len() {
            let mut atom = atoms[i];
            if let Atom::Lit { val, span } = atom {
                let mut j = i + 1;
                while matches!(atoms.get(j), Some(Atom::Lit { .. })) {
                    j += 1;
                }
                if j > i + 1 {
                    let mut joined = String::from(val);
                    let mut end = span.end;
                    for a in &atoms[i + 1..j] {
                        if let Atom::Lit { val, span } = a {
                            joined.push_str(val);
                            end = span.end;
                        }
                    }
                    atom = Atom::Lit { val: self.arena.alloc_str(&joined), span: Span::new(span.start, end) };
                }
                atoms[out] = atom;
                out += 1;
                i = j;
                continue;
            }
            atoms[out] = atom;
            out += 1;
            i += 1;
        }
        atoms.truncate(out);
    }

    fn parse_template_atoms(&mut self, end: T, atoms: &mut Vec<Atom<'a>>) -> Span {
        let start = self.peek().span();
        let mut ltrim_next = false;
        let mut next_can_trim_prev = false;
        let end_span;
        loop {
            let next = self.read();
            if next.kind == end {
                end_span = next.span();
                break;
            }
            let ltrim = std::mem::take(&mut ltrim_next);
            let can_trim_prev = std::mem::take(&mut next_can_trim_prev);
            match next.kind {
                T::StringLit | T::QuotedLit => {
                    let mut val = self.literal_text(next);
                    if ltrim {
                        val = trim_start_space(val);
                    }
                    atoms.push(Atom::Lit { val, span: next.span() });
                    next_can_trim_prev = true;
                }
                T::TemplateInterp => {
                    if can_trim_prev && next.end - next.start == 3 {
                        if let Some(Atom::Lit { val, .. }) = atoms.last_mut() {
                            *val = trim_end_space(val);
                        }
                    }
                    self.push_newlines(false);
                    let expr = self.parse_expression();
                    let close = self.peek();
                    if close.kind != T::TemplateSeqEnd {
                        if !self.recovery {
                            self.interp_not_closed(close, start, end);
                        }
                        self.recover(T::TemplateSeqEnd);
                    } else {
                        self.read();
                        if close.end - close.start == 2 {
                            ltrim_next = true;
                        }
                    }
                    self.pop_newlines();
                    atoms.push(Atom::Interp { expr });
                }
                T::TemplateControl => {
                    if can_trim_prev && next.end - next.start == 3 {
                        if let Some(Atom::Lit { val, .. }) = atoms.last_mut() {
                            *val = trim_end_space(val);
                        }
                    }
                    self.push_newlines(false);
                    self.parse_directive(next, start, atoms, &mut ltrim_next);
                    self.pop_newlines();
                }
                _ => {
                    if !self.recovery {
                        self.error_ctx(
                            "Unterminated template string",
                            "No closing marker was found for the string.",
                            next.span(),
                            between(start, next.span()),
                        );
                    }
                    let last = self.recover(end);
                    end_span = last.span();
                    break;
                }
            }
        }
        if atoms.is_empty() {
            atoms.push(Atom::Lit { val: "", span: Span::new(start.end, start.end) });
        }
        atoms.push(Atom::End { span: end_span });
        between(start, end_span)
    }

    #[cold]
    fn interp_not_closed(&mut self, close: Token, start: Span, end: T) {
        match close.kind {
            T::Eof => self.error(
                "Unclosed template interpolation sequence",
                "There is no closing brace for this interpolation sequence before the end of the file. This might be caused by incorrect nesting inside the given expression.",
                start,
            ),
            T::Colon => self.error_ctx(
                "Extra characters after interpolation expression",
                "Template interpolation doesn't expect a colon at this location. Did you intend this to be a literal sequence to be processed as part of another language? If so, you can escape it by starting with \"$${\" instead of just \"${\".",
                close.span(),
                between(start, close.span()),
            ),
            T::CQuote | T::OQuote if end == T::CQuote => self.error(
                "Unclosed template interpolation sequence",
                "There is no closing brace for this interpolation sequence before the end of the quoted template. This might be caused by incorrect nesting inside the given expression.",
                start,
            ),
            _ => self.error_ctx(
                "Extra characters after interpolation expression",
                "Expected a closing brace to end the interpolation expression, but found extra characters.\n\nThis can happen when you include interpolation syntax for another language, such as shell scripting, but forget to escape the interpolation start token. If this is an embedded sequence for another language, escape it by starting with \"$${\" instead of just \"${\".",
                close.span(),
                between(start, close.span()),
            ),
        }
    }

    /// One `%{ ... }` directive; the opener was read.
    fn parse_directive(&mut self, open: Token, start: Span, atoms: &mut Vec<Atom<'a>>, ltrim_next: &mut bool) -> bool {
        let kw = self.peek();
        if kw.kind != T::Ident {
            if !self.recovery {
                self.error_ctx(
                    "Invalid template directive",
                    "A template directive keyword (\"if\", \"for\", etc) is expected at the beginning of a %{ sequence.",
                    kw.span(),
                    between(open.span(), kw.span()),
                );
            }
            self.recover(T::TemplateSeqEnd);
            return false;
        }
        self.read();
        let word = self.text(kw);
        match word {
            b"if" => {
                let cond = self.parse_expression();
                let span = between(open.span(), self.peek().span());
                atoms.push(Atom::If { cond, span });
            }
            b"else" | b"endif" | b"endfor" => {
                let kind = match word {
                    b"else" => EndKind::Else,
                    b"endif" => EndKind::EndIf,
                    _ => EndKind::EndFor,
                };
                let span = between(open.span(), self.peek().span());
                atoms.push(Atom::EndCtrl { kind, span });
            }
            b"for" => {
                if self.peek().kind != T::Ident {
                    if !self.recovery {
                        let at = self.peek().span();
                        self.error("Invalid 'for' directive", "For directive requires variable name after 'for'.", at);
                    }
                    self.recover(T::TemplateSeqEnd);
                    return false;
                }
                let first = self.read();
                let mut val = self.ident(first);
                let mut key = None;
                if self.peek().kind == T::Comma {
                    key = Some(val);
                    self.read();
                    if self.peek().kind != T::Ident {
                        if !self.recovery {
                            let at = self.peek().span();
                            self.error("Invalid 'for' directive", "For directive requires value variable name after comma.", at);
                        }
                        self.recover(T::TemplateSeqEnd);
                        return false;
                    }
                    let v = self.read();
                    val = self.ident(v);
                }
                if !self.is_keyword(self.peek(), "in") {
                    if !self.recovery {
                        let at = self.peek().span();
                        self.error("Invalid 'for' directive", "For directive requires 'in' keyword after names.", at);
                    }
                    self.recover(T::TemplateSeqEnd);
                    return false;
                }
                self.read();
                let coll = self.parse_expression();
                let span = between(open.span(), self.peek().span());
                atoms.push(Atom::For { key, val, coll, span });
            }
            _ => {
                if !self.recovery {
                    let given = go_lossy_utf8(word);
                    let suggestion = match vm::suggest::first_close(&given, ["if", "for", "else", "endif", "endfor"]) {
                        Some(s) => format!(" Did you mean {}?", go_quote(s)),
                        None => String::new(),
                    };
                    self.error_ctx(
                        "Invalid template control keyword",
                        format!("{} is not a valid template control keyword.{}", go_quote_bytes(word), suggestion),
                        kw.span(),
                        between(open.span(), kw.span()),
                    );
                }
                self.recover(T::TemplateSeqEnd);
                return false;
            }
        }
        let close = self.peek();
        if close.kind != T::TemplateSeqEnd {
            if !self.recovery {
                let summary = format!("Extra characters in {} marker", go_lossy_utf8(word));
                self.error_ctx(
                    summary,
                    "Expected a closing brace to end the sequence, but found extra characters.",
                    close.span(),
                    between(start, close.span()),
                );
            }
            self.recover(T::TemplateSeqEnd);
        } else {
            self.read();
            if close.end - close.start == 2 {
                *ltrim_next = true;
            }
        }
        true
    }

    /// The text of a literal token with escapes resolved. Invalid UTF-8
    /// (which the scanner lets through inside strings) becomes U+FFFD.
    pub fn literal_text(&mut self, tok: Token) -> &'a str {
        let bytes = self.text(tok);
        let quoted = tok.kind == T::QuotedLit;
        // A quoted literal token starts at its only `$${` or `%%{` (the
        // lexer splits them), a template literal may hold several.
        let escaped = if quoted {
            memchr::memchr(b'\\', bytes).is_some() || bytes.starts_with(b"$${") || bytes.starts_with(b"%%{")
        } else {
            has_template_escape(bytes)
        };
        if !escaped {
            return self.token_str(tok);
        }
        let mut out: Vec<u8> = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            let (kind, len) = string_piece(bytes, i, quoted);
            let piece = &bytes[i..i + len];
            match kind {
                StringPiece::Escape => self.resolve_escape(piece, tok.start + i as u32, &mut out),
                // `$${` and `%%{` are the escapes of `${` and `%{`. Doubled
                // sigils pair from the left, as the reference's scanner
                // slices them: `$$${` is `$$` then `${` (kept), `$$$${` is
                // `$$` then the escape `$${`.
                StringPiece::Sigil if len == 3 => out.extend_from_slice(&piece[1..]),
                _ => out.extend_from_slice(piece),
            }
            i += len.max(1);
        }
        match String::from_utf8(out) {
            Ok(s) => self.arena.alloc_str(&s),
            Err(e) => self.arena.alloc_str(&go_lossy_utf8(e.as_bytes())),
        }
    }

    /// Resolves backslash escape `piece` (at `at`) into `out`; an invalid
    /// one is reported and kept as it is written (but for the backslash
    /// of an unknown selector).
    fn resolve_escape(&mut self, piece: &[u8], at: u32, out: &mut Vec<u8>) {
        let span = Span::new(at, at + piece.len() as u32);
        let Some(&c) = piece.get(1) else {
            self.error("Invalid escape sequence", "Backslash must be followed by an escape sequence selector character.", span);
            out.push(b'\\');
            return;
        };
        let simple = match c {
            b'n' => Some(b'\n'),
            b'r' => Some(b'\r'),
            b't' => Some(b'\t'),
            b'"' => Some(b'"'),
            b'\\' => Some(b'\\'),
            _ => None,
        };
        if let Some(s) = simple {
            out.push(s);
            return;
        }
        if c == b'u' || c == b'U' {
            let want = if c == b'u' { 4 } else { 8 };
            if piece.len() - 2 != want {
                let detail = if c == b'u' {
                    "The \\u escape sequence must be followed by four hexadecimal digits."
                } else {
                    "The \\U escape sequence must be followed by eight hexadecimal digits."
                };
                self.error("Invalid escape sequence", detail, span);
                out.extend_from_slice(piece);
                return;
            }
            let hex = std::str::from_utf8(&piece[2..]).unwrap_or("0");
            let num = u32::from_str_radix(hex, 16).unwrap_or(u32::MAX);
            match char::from_u32(num) {
                Some(ch) => {
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                }
                None => {
                    self.error("Invalid escape sequence", format!("Cannot encode character U+{num:04x} in UTF-8."), span);
                    out.extend_from_slice(piece);
                }
            }
            return;
        }
        let selector = &piece[1..];
        self.error(
            "Invalid escape sequence",
            format!("The symbol {} is not a valid escape sequence selector.", go_quote_bytes(selector)),
            span,
        );
        out.extend_from_slice(selector);
    }

    /// One part of the template at `atoms[*pos]`.
    fn template_part(&mut self, atoms: &[Atom<'a>], pos: &mut usize) -> &'a Expr<'a> {
        let Some(&atom) = atoms.get(*pos) else {
            return self.placeholder(Span::default());
        };
        match atom {
            Atom::Lit { val, span } => {
                *pos += 1;
                self.alloc(ExprKind::Literal(Literal::String(val)), span)
            }
            Atom::Interp { expr } => {
                *pos += 1;
                expr
            }
            Atom::If { cond, span } => {
                if !self.enter(span) {
                    *pos = atoms.len() - 1;
                    return self.placeholder(span);
                }
                let e = self.template_if(atoms, pos, cond, span);
                self.leave();
                e
            }
            Atom::For { key, val, coll, span } => {
                if !self.enter(span) {
                    *pos = atoms.len() - 1;
                    return self.placeholder(span);
                }
                let e = self.template_for(atoms, pos, key, val, coll, span);
                self.leave();
                e
            }
            Atom::End { span } => {
                self.error("Unexpected end of template", "The control directives within this template are unbalanced.", span);
                self.placeholder(span)
            }
            Atom::EndCtrl { kind, span } => {
                *pos += 1;
                let summary = format!("Unexpected {} directive", kind.name());
                self.error(summary, "The control directives within this template are unbalanced.", span);
                self.placeholder(span)
            }
        }
    }

    /// The reference takes the range of an `if` or `for` body from its first
    /// and last parts: a missing expression there crashes it.
    #[cold]
    fn note_missing_part(&mut self, at: Span) {
        if self.reference_crash.is_none() {
            self.reference_crash = Some(at);
        }
    }

    fn template_parts_expr(&mut self, parts: BumpVec<'a, Expr<'a>>) -> &'a Expr<'a> {
        let span = match (parts.first(), parts.last()) {
            (Some(f), Some(l)) => between(f.span, l.span),
            _ => Span::default(),
        };
        self.alloc(ExprKind::Template(parts.into_bump_slice()), span)
    }

    fn template_if(&mut self, atoms: &[Atom<'a>], pos: &mut usize, cond: &'a Expr<'a>, if_span: Span) -> &'a Expr<'a> {
        *pos += 1;
        let mut if_parts = BumpVec::new_in(self.arena);
        let mut else_parts = BumpVec::new_in(self.arena);
        let mut in_else = false;
        let (mut if_ends, mut else_ends) = (PartEnds::default(), PartEnds::default());
        let endif_span;
        loop {
            match atoms.get(*pos).copied() {
                Some(Atom::End { .. }) | None => return self.unclosed_directive(atoms, "if", "endif", if_span),
                Some(Atom::EndCtrl { kind, span }) => {
                    *pos += 1;
                    match kind {
                        EndKind::Else if !in_else => {
                            in_else = true;
                            continue;
                        }
                        EndKind::EndIf => {
                            endif_span = span;
                            break;
                        }
                        _ => return self.misplaced_in_if(kind, span, if_span),
                    }
                }
                Some(_) => {
                    let e = self.template_part(atoms, pos);
                    let missing = self.is_missing(e);
                    if in_else {
                        else_ends.add(missing);
                        else_parts.push(*e);
                    } else {
                        if_ends.add(missing);
                        if_parts.push(*e);
                    }
                }
            }
        }
        if if_ends.either() || else_ends.either() {
            self.note_missing_part(if_span);
        }
        if if_parts.is_empty() {
            if_parts.push(Expr::new(ExprKind::Literal(Literal::String("")), Span::new(if_span.end, if_span.end)));
        }
        if else_parts.is_empty() {
            else_parts.push(Expr::new(ExprKind::Literal(Literal::String("")), Span::new(endif_span.start, endif_span.start)));
        }
        let true_result = self.template_parts_expr(if_parts);
        let false_result = self.template_parts_expr(else_parts);
        let c = self.node(Conditional { condition: cond, true_result, false_result });
        self.alloc(ExprKind::Conditional(c), between(if_span, endif_span))
    }

    #[cold]
    #[inline(never)]
    fn unclosed_directive(&mut self, atoms: &[Atom<'a>], name: &str, closer: &str, open: Span) -> &'a Expr<'a> {
        let detail = format!("The {name} directive at {} is missing its corresponding {closer} directive.", self.range_string(open));
        let end_span = end_atom_span(atoms);
        self.error("Unexpected end of template", detail, end_span);
        self.placeholder(end_span)
    }

    #[cold]
    #[inline(never)]
    fn misplaced_in_if(&mut self, kind: EndKind, span: Span, if_span: Span) -> &'a Expr<'a> {
        if kind == EndKind::Else {
            let detail = format!("Already in the else clause for the if started at {}.", self.range_string(if_span));
            self.error("Unexpected else directive", detail, span);
        } else {
            let detail = format!("Expecting an endif directive for the if started at {}.", self.range_string(if_span));
            let summary = format!("Unexpected {} directive", kind.name());
            self.error(summary, detail, span);
        }
        self.placeholder(span)
    }

    #[cold]
    #[inline(never)]
    fn misplaced_in_for(&mut self, kind: EndKind, span: Span, for_span: Span) -> &'a Expr<'a> {
        if kind == EndKind::Else {
            self.error("Unexpected else directive", "An else clause is not expected for a for directive.", span);
        } else {
            let detail = format!("Expecting an endfor directive corresponding to the for directive at {}.", self.range_string(for_span));
            let summary = format!("Unexpected {} directive", kind.name());
            self.error(summary, detail, span);
        }
        self.placeholder(span)
    }

    #[allow(clippy::too_many_arguments)]
    fn template_for(
        &mut self,
        atoms: &[Atom<'a>],
        pos: &mut usize,
        key: Option<Ident>,
        val: Ident,
        coll: &'a Expr<'a>,
        for_span: Span,
    ) -> &'a Expr<'a> {
        *pos += 1;
        let mut parts = BumpVec::new_in(self.arena);
        let mut ends = PartEnds::default();
        let endfor_span;
        loop {
            match atoms.get(*pos).copied() {
                Some(Atom::End { .. }) | None => return self.unclosed_directive(atoms, "for", "endfor", for_span),
                Some(Atom::EndCtrl { kind, span }) => {
                    *pos += 1;
                    match kind {
                        EndKind::EndFor => {
                            endfor_span = span;
                            break;
                        }
                        _ => return self.misplaced_in_for(kind, span, for_span),
                    }
                }
                Some(_) => {
                    let e = self.template_part(atoms, pos);
                    ends.add(self.is_missing(e));
                    parts.push(*e);
                }
            }
        }
        if ends.either() {
            self.note_missing_part(for_span);
        }
        if parts.is_empty() {
            parts.push(Expr::new(ExprKind::Literal(Literal::String("")), Span::new(for_span.end, for_span.end)));
        }
        let val_expr = self.template_parts_expr(parts);
        let whole = between(for_span, endfor_span);
        let f = self.node(ForExpr {
            key_var: key,
            val_var: val,
            collection: coll,
            key_expr: None,
            val_expr,
            cond_expr: None,
            group: false,
            open_span: for_span,
            close_span: endfor_span,
        });
        let for_expr = self.alloc(ExprKind::For(f), whole);
        self.alloc(ExprKind::TemplateJoin(for_expr), whole)
    }

    /// A quoted string that may not contain template sequences (block
    /// labels); the peeker is at the opening quote.
    pub fn parse_quoted_string_literal(&mut self) -> (&'a str, Span) {
        let open = self.read();
        let mut text: Option<&'a str> = None;
        let mut owned: Option<String> = None;
        let end_span;
        loop {
            let tok = self.read();
            match tok.kind {
                T::CQuote => {
                    end_span = tok.span();
                    break;
                }
                T::QuotedLit => {
                    let s = self.literal_text(tok);
                    match (&mut owned, text) {
                        (Some(o), _) => o.push_str(s),
                        (None, None) => text = Some(s),
                        (None, Some(prev)) => {
                            let mut o = String::from(prev);
                            o.push_str(s);
                            owned = Some(o);
                        }
                    }
                }
                T::TemplateControl | T::TemplateInterp => {
                    let which = if tok.kind == T::TemplateControl { "%" } else { "$" };
                    self.error_ctx(
                        "Invalid string literal",
                        format!(
                            "Template sequences are not allowed in this string. To include a literal {}, double it (as \"{which}{which}\") to escape it.",
                            go_quote(which)
                        ),
                        tok.span(),
                        between(open.span(), tok.span()),
                    );
                    let o = owned.get_or_insert_with(|| String::from(text.unwrap_or("")));
                    o.push_str(which);
                    o.push_str("{ ... }");
                    self.recover(T::TemplateSeqEnd);
                }
                T::Eof => {
                    self.error_ctx(
                        "Unterminated string literal",
                        "Unable to find the closing quote mark before the end of the file.",
                        tok.span(),
                        between(open.span(), tok.span()),
                    );
                    end_span = tok.span();
                    break;
                }
                _ => {
                    self.error_ctx(
                        "Invalid string literal",
                        "This item is not valid in a string literal.",
                        tok.span(),
                        between(open.span(), tok.span()),
                    );
                    self.recover(T::CQuote);
                    end_span = tok.span();
                    break;
                }
            }
        }
        let s = match owned {
            Some(o) => &*self.arena.alloc_str(&o),
            None => text.unwrap_or(""),
        };
        (s, between(open.span(), end_span))
    }
}

fn end_atom_span(atoms: &[Atom<'_>]) -> Span {
    match atoms.last() {
        Some(Atom::End { span }) => *span,
        _ => Span::default(),
    }
}

/// The `<<-` rule: remove from every line-leading literal the smallest
/// indentation (in characters) of any non-blank line.
fn flush_heredoc(atoms: &mut [Atom<'_>]) {
    let mut min_spaces = usize::MAX;
    let mut newline = true;
    let mut adjust: Vec<usize> = Vec::new();
    for (i, atom) in atoms.iter().enumerate() {
        if newline {
            newline = false;
            let mut spaces = 0;
            match atom {
                Atom::Lit { val, .. } => {
                    let trimmed = trim_start_space(val);
                    if trimmed.is_empty() && val.ends_with('\n') {
                        spaces = usize::MAX;
                    } else {
                        let space_bytes = val.len() - trimmed.len();
                        let lead = &val[..space_bytes];
                        spaces = if lead.is_ascii() && !lead.contains('\r') {
                            space_bytes
                        } else {
                            runtime::graphemes::count_like_scanner(lead, runtime::graphemes::Textseg::V15)
                        };
                        adjust.push(i);
                    }
                }
                Atom::End { .. } => break,
                _ => {}
            }
            min_spaces = min_spaces.min(spaces);
        }
        if let Atom::Lit { val, .. } = atom {
            if val.ends_with('\n') {
                newline = true;
            }
        }
    }
    for i in adjust {
        if let Some(Atom::Lit { val, span }) = atoms.get_mut(i) {
            // Plain ASCII indentation followed by ASCII: one character per
            // byte; otherwise count grapheme clusters as the reference does.
            let ascii =
                val.len() > min_spaces && val.as_bytes()[..=min_spaces].is_ascii() && !val.as_bytes()[..=min_spaces].contains(&b'\r');
            let cut = if ascii {
                min_spaces
            } else {
                runtime::graphemes::nth_start(val, min_spaces, runtime::graphemes::Textseg::V15).unwrap_or(val.len())
            };
            *val = &val[cut..];
            span.start = span.start.saturating_add(cut as u32).min(span.end);
        }
    }
}

/// Whether `bytes` holds a `$${` or `%%{` escape. The lexer starts a token
/// at each, except in the rest of a bare template after a lone carriage
/// return, which the reference scanner leaves as one literal token (its
/// escapes are still resolved).
fn has_template_escape(bytes: &[u8]) -> bool {
    let Some(first) = memchr::memchr2(b'$', b'%', bytes) else { return false };
    let rest = &bytes[first..];
    memchr::memmem::find(rest, b"$${").is_some() || memchr::memmem::find(rest, b"%%{").is_some()
}
