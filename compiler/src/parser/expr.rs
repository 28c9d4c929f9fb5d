//! Expressions: operators, terms, traversals, calls, collections, `for`.

use super::{between, drain_to_arena, Parser, HEAVY_NESTING, MAX_NESTING};
use crate::ast::*;
use crate::lexer::{Token, TokenKind as T};
use runtime::Span;

/// The most tokens a literal object may have to be an element of a
/// [`LiteralTuple`]: the parser looks that far ahead for its end (a longer
/// object is an element of a general tuple, and a [`LiteralObject`]
/// itself).
const LITERAL_OBJECT_ELEMENT_TOKENS: usize = 256;

/// Binary operators and their precedence level (higher binds tighter).
#[inline]
fn binary_op(kind: T) -> Option<(BinaryOp, u8)> {
    Some(match kind {
        T::Or => (BinaryOp::Or, 0),
        T::And => (BinaryOp::And, 1),
        T::EqualOp => (BinaryOp::Equal, 2),
        T::NotEqual => (BinaryOp::NotEqual, 2),
        T::GreaterThan => (BinaryOp::GreaterThan, 3),
        T::GreaterThanEq => (BinaryOp::GreaterThanOrEqual, 3),
        T::LessThan => (BinaryOp::LessThan, 3),
        T::LessThanEq => (BinaryOp::LessThanOrEqual, 3),
        T::Plus => (BinaryOp::Add, 4),
        T::Minus => (BinaryOp::Subtract, 4),
        T::Star => (BinaryOp::Multiply, 5),
        T::Slash => (BinaryOp::Divide, 5),
        T::Percent => (BinaryOp::Modulo, 5),
        _ => return None,
    })
}

/// Whether `text` is a number the reference accepts (`cty.ParseNumberVal`).
/// The syntax is checked here; numbers whose binary exponent could leave
/// Go's range (a decimal exponent, or absurdly many digits) are parsed for
/// real to find out.
pub(crate) fn is_valid_number(text: &[u8]) -> bool {
    if !is_number_syntax(text) {
        return false;
    }
    if text.len() < 100_000 && !text.iter().any(|&b| b == b'e' || b == b'E') {
        return true;
    }
    match std::str::from_utf8(text) {
        Ok(t) => runtime::Number::parse(t).is_ok(),
        Err(_) => false,
    }
}

/// Go's big.Float decimal syntax restricted to what the scanner produces:
/// digits, an optional fraction, an optional exponent of int64 magnitude.
fn is_number_syntax(text: &[u8]) -> bool {
    let mut i = 0;
    let n = text.len();
    let digits = |i: &mut usize| {
        let s = *i;
        while *i < n && text[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - s
    };
    if digits(&mut i) == 0 {
        return false;
    }
    if i < n && text[i] == b'.' {
        i += 1;
        digits(&mut i);
    }
    if i < n && (text[i] == b'e' || text[i] == b'E') {
        i += 1;
        if i < n && (text[i] == b'+' || text[i] == b'-') {
            i += 1;
        }
        let s = i;
        if digits(&mut i) == 0 {
            return false;
        }
        let exp = &text[s..i];
        let significant = exp.iter().skip_while(|&&d| d == b'0').count();
        if significant > 19 || (significant == 19 && &exp[exp.len() - 19..] > b"9223372036854775807".as_slice()) {
            return false;
        }
    }
    i == n
}

/// A traversal under construction: literal steps are collected until
/// something that is not a literal step needs the expression.
enum Chain<'a> {
    Done(&'a Expr<'a>),
    /// Steps are `scratch_steps[base..]`.
    Scope {
        root: Ident,
        base: usize,
        end: u32,
    },
    Relative {
        source: &'a Expr<'a>,
        base: usize,
        end: u32,
    },
}

impl<'a, 'i> Parser<'a, 'i> {
    #[cfg_attr(debug_assertions, inline(never))]
    fn finish_chain(&mut self, chain: Chain<'a>) -> &'a Expr<'a> {
        match chain {
            Chain::Done(e) => e,
            Chain::Scope { root, base, end } => {
                let steps = drain_to_arena(self.arena, &mut self.scratch_steps, base);
                let t = self.node(Traversal { root, steps });
                self.alloc(ExprKind::ScopeTraversal(t), Span::new(root.span.start, end))
            }
            Chain::Relative { source, base, end } => {
                let steps = drain_to_arena(self.arena, &mut self.scratch_steps, base);
                let t = self.node(RelativeTraversal { source, steps });
                self.alloc(ExprKind::RelativeTraversal(t), Span::new(source.span.start, end))
            }
        }
    }

    /// Adds a literal step (the reference's makeRelativeTraversal).
    #[cfg_attr(debug_assertions, inline(never))]
    fn extend_chain(&mut self, chain: Chain<'a>, step: Traverser<'a>) -> Chain<'a> {
        let end = step.span().end;
        match chain {
            Chain::Done(e) => {
                let base = self.scratch_steps.len();
                match e.scope_traversal() {
                    Some(t) => {
                        self.scratch_steps.extend_from_slice(t.steps);
                        self.scratch_steps.push(step);
                        Chain::Scope { root: t.root, base, end: end.max(e.span.end) }
                    }
                    _ => {
                        self.scratch_steps.push(step);
                        Chain::Relative { source: e, base, end: end.max(e.span.end) }
                    }
                }
            }
            Chain::Scope { root, base, end: old } => {
                self.scratch_steps.push(step);
                Chain::Scope { root, base, end: end.max(old) }
            }
            Chain::Relative { source, base, end: old } => {
                self.scratch_steps.push(step);
                Chain::Relative { source, base, end: end.max(old) }
            }
        }
    }

    /// `ParseExpression`: a full expression, including the conditional.
    pub fn parse_expression(&mut self) -> &'a Expr<'a> {
        let start = self.peek().span();
        if !self.enter(start) {
            return self.placeholder(start);
        }
        let e = self.parse_conditional(start);
        self.leave();
        e
    }

    fn parse_conditional(&mut self, start: Span) -> &'a Expr<'a> {
        let mark = self.mark();
        let cond = self.parse_binary(0);
        if self.recovery && self.errors_since(mark) {
            return cond;
        }
        if self.peek().kind != T::Question {
            return cond;
        }
        self.read();
        let mark = self.mark();
        let true_result = self.parse_expression();
        if self.recovery && self.errors_since(mark) {
            return cond;
        }
        if self.peek().kind != T::Colon {
            self.missing_false_expression(start);
            return cond;
        }
        self.read();
        let mark = self.mark();
        let false_result = self.parse_expression();
        if self.recovery && self.errors_since(mark) {
            return cond;
        }
        let c = self.node(Conditional { condition: cond, true_result, false_result });
        self.alloc(ExprKind::Conditional(c), between(start, false_result.span))
    }

    #[cold]
    #[inline(never)]
    fn missing_false_expression(&mut self, start: Span) {
        let colon = self.peek();
        self.error_ctx(
            "Missing false expression in conditional",
            "The conditional operator (...?...:...) requires a false expression, delimited by a colon.",
            colon.span(),
            between(start, colon.span()),
        );
    }

    /// Binary operators by precedence climbing; same trees as the
    /// reference's level-by-level recursion, with fewer stack frames.
    fn parse_binary(&mut self, min_level: u8) -> &'a Expr<'a> {
        let mark = self.mark();
        let mut lhs = self.parse_with_traversals();
        if self.recovery && self.errors_since(mark) {
            return lhs;
        }
        while let Some((op, level)) = binary_op(self.peek().kind) {
            if level < min_level {
                break;
            }
            self.read();
            let mark = self.mark();
            let rhs = self.parse_binary(level + 1);
            if self.recovery && self.errors_since(mark) {
                return lhs;
            }
            let b = self.node(Binary { op, lhs, rhs });
            lhs = self.alloc(ExprKind::Binary(b), between(lhs.span, rhs.span));
        }
        lhs
    }

    pub fn parse_with_traversals(&mut self) -> &'a Expr<'a> {
        let term = self.parse_term();
        self.parse_traversals(term)
    }

    /// One term. Each kind of term has its own function so that this
    /// frame, which is on every level of nested recursion, stays small.
    fn parse_term(&mut self) -> &'a Expr<'a> {
        match self.peek().kind {
            T::OParen => self.parse_parens(),
            T::NumberLit => self.parse_number(),
            T::Ident => self.parse_ident_term(),
            T::OQuote | T::OHeredoc => self.parse_template_term(),
            T::Minus | T::Bang => self.parse_unary(),
            T::OBrack => self.parse_tuple(),
            T::OBrace => self.parse_object(),
            _ => self.term_error(),
        }
    }

    #[inline(never)]
    fn parse_number(&mut self) -> &'a Expr<'a> {
        let tok = self.read();
        let text = self.text(tok);
        if !is_valid_number(text) {
            self.invalid_number(tok);
            return self.placeholder(tok.span());
        }
        let text = std::str::from_utf8(text).unwrap_or("0");
        self.alloc(ExprKind::Literal(Literal::Number(text)), tok.span())
    }

    #[inline(never)]
    fn parse_ident_term(&mut self) -> &'a Expr<'a> {
        let tok = self.read();
        match self.peek().kind {
            T::OParen => {
                let name = self.ident(tok);
                let open = self.read();
                return self.finish_call(name, open);
            }
            T::DoubleColon => {
                return match self.namespaced_selector(tok) {
                    Some((name, open)) => self.finish_call(name, open),
                    None => self.missing(),
                };
            }
            _ => {}
        }
        let lit = match self.text(tok) {
            b"true" => Some(Literal::Bool(true)),
            b"false" => Some(Literal::Bool(false)),
            b"null" => Some(Literal::Null),
            _ => None,
        };
        if let Some(lit) = lit {
            return self.alloc(ExprKind::Literal(lit), tok.span());
        }
        let root = self.ident(tok);
        self.alloc(ExprKind::Name(root.name), root.span)
    }

    #[inline(never)]
    fn parse_template_term(&mut self) -> &'a Expr<'a> {
        let open = self.read();
        if open.kind == T::OQuote {
            if let Some(e) = self.simple_quoted_string(open) {
                return e;
            }
        }
        if !self.enter(open.span()) {
            return self.placeholder(open.span());
        }
        let closer = if open.kind == T::OQuote { T::CQuote } else { T::CHeredoc };
        let flush = open.kind == T::OHeredoc && self.text(open).starts_with(b"<<-");
        let (parts, passthru, _) = self.parse_template_inner(closer, flush);
        self.leave();
        let span = between(open.span(), self.prev_span());
        if passthru {
            if let Some(only) = parts.first() {
                return self.alloc(ExprKind::TemplateWrap(only), span);
            }
        }
        self.alloc(ExprKind::Template(parts), span)
    }

    /// Fast path for the most common template, `"text"` or `""`: the same
    /// tree the general template parser builds, without its machinery.
    fn simple_quoted_string(&mut self, open: Token) -> Option<&'a Expr<'a>> {
        let first = self.raw_at(self.next)?;
        let (lit_tok, close) = match first.kind {
            T::CQuote => (None, first),
            T::QuotedLit => {
                let close = self.raw_at(self.next + 1)?;
                if close.kind != T::CQuote {
                    return None;
                }
                (Some(first), close)
            }
            _ => return None,
        };
        let val = match lit_tok {
            Some(tok) => self.literal_text(tok),
            None => "",
        };
        self.skip_raw(if lit_tok.is_some() { 2 } else { 1 });
        let quoted = self.alloc(ExprKind::Quoted(val), between(open.span(), close.span()));
        debug_assert_eq!(
            quoted.quoted_part().map(|p| p.span),
            Some(lit_tok.map_or(Span::new(close.end, close.end), |t| t.span())),
            "the part is where the template parser puts it"
        );
        Some(quoted)
    }

    #[inline(never)]
    fn parse_unary(&mut self) -> &'a Expr<'a> {
        let tok = self.read();
        if !self.enter(tok.span()) {
            return self.placeholder(tok.span());
        }
        let operand = self.parse_with_traversals();
        self.leave();
        self.uses_missing(operand, tok.span());
        let op = if tok.kind == T::Minus { UnaryOp::Negate } else { UnaryOp::Not };
        let u = self.node(Unary { op, operand, symbol_span: tok.span() });
        self.alloc(ExprKind::Unary(u), between(tok.span(), operand.span))
    }

    #[cold]
    #[inline(never)]
    fn term_error(&mut self) -> &'a Expr<'a> {
        let start = self.peek();
        if !self.recovery {
            if start.kind == T::Eof {
                self.error("Missing expression", "Expected the start of an expression, but found the end of the file.", start.span());
            } else {
                self.error(
                    "Invalid expression",
                    "Expected the start of an expression, but found an invalid expression token.",
                    start.span(),
                );
            }
        }
        self.set_recovery();
        self.placeholder(start.span())
    }

    #[cold]
    fn invalid_number(&mut self, tok: Token) {
        self.error("Invalid number literal", "Failed to recognize the value of this number literal.", tok.span());
    }

    #[inline(never)]
    fn parse_parens(&mut self) -> &'a Expr<'a> {
        let open = self.read();
        self.push_newlines(false);
        let mark = self.mark();
        let inner = self.parse_expression();
        if self.errors_since(mark) {
            self.recover(T::CParen);
            self.pop_newlines();
            return inner;
        }
        if self.peek().kind != T::CParen {
            self.unbalanced_parens(open);
        }
        let close = self.read();
        self.pop_newlines();
        self.alloc(ExprKind::Parens(inner), between(open.span(), close.span()))
    }

    #[cold]
    #[inline(never)]
    fn unbalanced_parens(&mut self, open: Token) {
        let close = self.peek();
        self.error_ctx(
            "Unbalanced parentheses",
            "Expected a closing parenthesis to terminate the expression.",
            close.span(),
            between(open.span(), close.span()),
        );
        self.set_recovery();
    }

    /// The name of a namespaced function call (`provider::ns::f(`): `first`
    /// was read and the next token is `::`. The name is the parts joined
    /// with `::`, whatever space or comments separate them, and spans from
    /// the first part to the last; the `(` is read too. A malformed
    /// selector is reported and skipped over (`None`: the caller gives the
    /// reference's missing expression, [`Parser::missing`]). Out of line,
    /// so that its locals stay off the stack frames of nested calls.
    #[inline(never)]
    fn namespaced_selector(&mut self, first: Token) -> Option<(Ident, Token)> {
        let mut text = self.text(first).to_vec();
        let mut end = first.end;
        let mut open = self.read();
        while open.kind == T::DoubleColon {
            let part = self.read();
            if part.kind != T::Ident {
                self.error_ctx(
                    "Missing function name",
                    "Function scope resolution symbol :: must be followed by a function name in this scope.",
                    part.span(),
                    between(first.span(), part.span()),
                );
                self.recover_over(T::OParen);
                return None;
            }
            text.extend_from_slice(b"::");
            text.extend_from_slice(self.text(part));
            end = part.end;
            open = self.read();
        }
        if open.kind != T::OParen {
            self.error_ctx(
                "Missing open parenthesis",
                "Function selector must be followed by an open parenthesis to begin the function call.",
                open.span(),
                between(first.span(), open.span()),
            );
            self.recover_over(T::OParen);
            return None;
        }
        Some((Ident { name: self.intern_name(&text), span: Span::new(first.start, end) }, open))
    }

    /// The arguments of a call whose `(` was read.
    fn finish_call(&mut self, name: Ident, open: Token) -> &'a Expr<'a> {
        let base = self.scratch_exprs.len();
        let mut expand_final = false;
        let close: Option<Token>;
        self.push_newlines(false);
        loop {
            let tok = self.peek();
            if tok.kind == T::CParen {
                close = Some(self.read());
                break;
            }
            let mark = self.mark();
            let arg = self.parse_expression();
            self.scratch_exprs.push(*arg);
            if self.recovery && self.errors_since(mark) {
                close = Some(self.recover(T::CParen));
                break;
            }
            let sep = self.read();
            if sep.kind == T::CParen {
                close = Some(sep);
                break;
            }
            if sep.kind == T::Ellipsis {
                expand_final = true;
                if self.peek().kind != T::CParen {
                    if !self.recovery {
                        self.error_ctx(
                            "Missing closing parenthesis",
                            "An expanded function argument (with ...) must be immediately followed by closing parentheses.",
                            sep.span(),
                            between(name.span, sep.span()),
                        );
                    }
                    close = Some(self.recover(T::CParen));
                } else {
                    close = Some(self.read());
                }
                break;
            }
            if sep.kind != T::Comma {
                if sep.kind == T::Eof {
                    self.error(
                        "Unterminated function call",
                        "There is no closing parenthesis for this function call before the end of the file. This may be caused by incorrect parenthesis nesting elsewhere in this file.",
                        between(name.span, open.span()),
                    );
                } else {
                    self.error_ctx(
                        "Missing argument separator",
                        "A comma is required to separate each function argument from the next.",
                        sep.span(),
                        between(name.span, sep.span()),
                    );
                }
                close = Some(self.recover(T::CParen));
                break;
            }
            if self.peek().kind == T::CParen {
                close = Some(self.read());
                break;
            }
        }
        self.pop_newlines();
        let close_span = close.map(|t| t.span()).unwrap_or(open.span());
        let args = drain_to_arena(self.arena, &mut self.scratch_exprs, base);
        let call = self.node(Call { name, args, expand_final, open_paren_span: open.span(), close_paren_span: close_span });
        self.alloc(ExprKind::Call(call), between(name.span, close_span))
    }

    /// Postfix steps after a term: `.attr`, `.0`, `.*`, `[key]`, `[*]`.
    pub fn parse_traversals(&mut self, from: &'a Expr<'a>) -> &'a Expr<'a> {
        let mut chain = Chain::Done(from);
        loop {
            chain = match self.peek().kind {
                T::Dot => self.parse_dot_step(from, chain),
                T::OBrack => match self.parse_bracket_step(from, chain) {
                    Ok(c) => c,
                    Err(e) => return e,
                },
                _ => break,
            };
        }
        self.finish_chain(chain)
    }

    #[inline(never)]
    fn parse_dot_step(&mut self, from: &'a Expr<'a>, chain: Chain<'a>) -> Chain<'a> {
        let dot = self.read();
        let attr = self.peek();
        match attr.kind {
            T::Ident => {
                let attr = self.read();
                self.uses_missing(from, attr.span());
                let name = self.ident(attr);
                self.extend_chain(chain, Traverser::Attr { name, span: between(dot.span(), attr.span()) })
            }
            T::NumberLit => {
                let num = self.read();
                self.uses_missing(from, num.span());
                let key = self.legacy_index_key(num, num, false);
                self.extend_chain(chain, Traverser::Index { key, span: between(dot.span(), num.span()) })
            }
            T::Star => {
                let source = self.finish_chain(chain);
                Chain::Done(self.parse_attr_splat(from, source, dot))
            }
            _ => {
                self.error("Invalid attribute name", "An attribute name is required after a dot.", attr.span());
                self.set_recovery();
                chain
            }
        }
    }

    /// `[key]` or `[*]`; `Err` carries a placeholder when nesting is too deep.
    #[inline(never)]
    fn parse_bracket_step(&mut self, from: &'a Expr<'a>, chain: Chain<'a>) -> Result<Chain<'a>, &'a Expr<'a>> {
        let open = self.read();
        self.uses_missing(from, open.span());
        if self.peek().kind == T::Star {
            return self.parse_full_splat(from, chain, open);
        }
        self.push_newlines(false);
        let mark = self.mark();
        let key = self.parse_expression();
        let close = if self.recovery && self.errors_since(mark) {
            self.recover(T::CBrack)
        } else {
            let close = self.read();
            if close.kind != T::CBrack && !self.recovery {
                // The reference's diagnostic points at its `close` variable,
                // which recovery then overwrites: the subject is the token
                // recovery stops at.
                let close = self.recover(T::CBrack);
                self.error("Missing close bracket on index", "The index operator must end with a closing bracket (\"]\").", close.span());
                close
            } else {
                close
            }
        };
        self.pop_newlines();
        let rng = between(open.span(), close.span());
        let literal_key = match key.kind {
            ExprKind::Literal(lit) => Some(lit),
            ExprKind::Template(parts) if parts.len() == 1 => match parts[0].kind {
                ExprKind::Literal(lit) => Some(lit),
                _ => None,
            },
            ExprKind::Quoted(text) => Some(Literal::String(text)),
            _ => None,
        };
        Ok(if let Some(key) = literal_key {
            self.extend_chain(chain, Traverser::Index { key, span: rng })
        } else {
            let collection = self.finish_chain(chain);
            let ix = self.node(Index { collection, key, open_span: open.span(), bracket_span: rng });
            Chain::Done(self.alloc(ExprKind::Index(ix), between(from.span, rng)))
        })
    }

    #[inline(never)]
    fn parse_full_splat(&mut self, from: &'a Expr<'a>, chain: Chain<'a>, open: Token) -> Result<Chain<'a>, &'a Expr<'a>> {
        self.read();
        let mut close = self.read();
        if close.kind != T::CBrack && !self.recovery {
            // Subject: the token recovery stops at (see the index case).
            close = self.recover(T::CBrack);
            self.error(
                "Missing close bracket on splat index",
                "The star for a full splat operator must be immediately followed by a closing bracket (\"]\").",
                close.span(),
            );
        }
        let marker = between(open.span(), close.span());
        let source = self.finish_chain(chain);
        let id = self.new_splat_id();
        let item = self.alloc(ExprKind::AnonSymbol(id), marker);
        if !self.enter(marker) {
            return Err(self.placeholder(marker));
        }
        let each = self.parse_traversals(item);
        self.leave();
        let s = self.node(Splat { source, each, item: id, marker_span: marker });
        Ok(Chain::Done(self.alloc(ExprKind::Splat(s), between(from.span, each.span))))
    }

    /// The key of a legacy `.N` index; `N.M` is rejected (reported on
    /// `subject`).
    fn legacy_index_key(&mut self, num: Token, subject: Token, in_splat: bool) -> Literal<'a> {
        let text = self.text(num);
        if let Some(dot) = text.iter().position(|&b| b == b'.') {
            let first = String::from_utf8_lossy(&text[..dot]);
            let second = String::from_utf8_lossy(&text[dot + 1..]);
            let detail = if in_splat {
                format!("When using the legacy index syntax, chaining two indexes together is not permitted. Use the proper index syntax with a full splat expression [*] instead, like [{first}][{second}].")
            } else {
                format!("When using the legacy index syntax, chaining two indexes together is not permitted. Use the proper index syntax instead, like [{first}][{second}].")
            };
            self.error("Invalid legacy index syntax", detail, subject.span());
            return Literal::Dynamic;
        }
        if !is_valid_number(text) {
            self.invalid_number(num);
            return Literal::Dynamic;
        }
        Literal::Number(std::str::from_utf8(text).unwrap_or("0"))
    }

    /// `source.*.a.b` — the attribute-only splat; `dot` was read and the
    /// next token is the star.
    fn parse_attr_splat(&mut self, from: &'a Expr<'a>, source: &'a Expr<'a>, dot: Token) -> &'a Expr<'a> {
        let marker = self.read();
        let base = self.scratch_steps.len();
        let first = self.peek().span();
        let mut last = marker.span();
        while self.peek().kind == T::Dot {
            let step_dot = self.read();
            if self.peek().kind == T::NumberLit {
                let num = self.read();
                let key = self.legacy_index_key(num, marker, true);
                self.scratch_steps.push(Traverser::Index { key, span: between(step_dot.span(), num.span()) });
                last = num.span();
                continue;
            }
            if self.peek().kind != T::Ident {
                if !self.recovery {
                    let bad = self.peek();
                    if bad.kind == T::Star {
                        self.error(
                            "Nested splat expression not allowed",
                            "A splat expression (*) cannot be used inside another attribute-only splat expression.",
                            bad.span(),
                        );
                    } else {
                        self.error("Invalid attribute name", "An attribute name is required after a dot.", marker.span());
                    }
                }
                self.set_recovery();
                self.scratch_steps.truncate(base);
                // The reference abandons the splat here.
                return source;
            }
            let attr = self.read();
            let name = self.ident(attr);
            self.scratch_steps.push(Traverser::Attr { name, span: between(step_dot.span(), attr.span()) });
            last = attr.span();
        }
        let marker_span = between(dot.span(), marker.span());
        self.uses_missing(from, marker_span);
        let id = self.new_splat_id();
        let item = self.alloc(ExprKind::AnonSymbol(id), marker_span);
        let steps = drain_to_arena(self.arena, &mut self.scratch_steps, base);
        let each = if steps.is_empty() {
            item
        } else {
            let t = self.node(RelativeTraversal { source: item, steps });
            self.alloc(ExprKind::RelativeTraversal(t), between(first, last))
        };
        let s = self.node(Splat { source, each, item: id, marker_span });
        self.alloc(ExprKind::Splat(s), between(from.span, last))
    }

    fn parse_tuple(&mut self) -> &'a Expr<'a> {
        let open = self.read();
        self.push_newlines(false);
        let e = self.parse_tuple_inner(open);
        self.pop_newlines();
        e
    }

    fn parse_tuple_inner(&mut self, open: Token) -> &'a Expr<'a> {
        if self.is_keyword(self.peek(), "for") {
            return self.finish_for(open);
        }
        let base = self.scratch_expr_refs.len();
        if let Some(e) = self.literal_tuple(open) {
            return e;
        }
        let close;
        loop {
            if self.peek().kind == T::CBrack {
                close = self.read();
                break;
            }
            let mark = self.mark();
            let e = self.parse_expression();
            self.scratch_expr_refs.push(e);
            if self.recovery && self.errors_since(mark) {
                close = self.recover(T::CBrack);
                break;
            }
            let next = self.peek();
            if next.kind == T::CBrack {
                close = self.read();
                break;
            }
            if next.kind != T::Comma {
                if !self.recovery {
                    if next.kind == T::Eof {
                        self.error(
                            "Unterminated tuple constructor expression",
                            "There is no corresponding closing bracket before the end of the file. This may be caused by incorrect bracket nesting elsewhere in this file.",
                            open.span(),
                        );
                    } else {
                        self.error_ctx(
                            "Missing item separator",
                            "Expected a comma to mark the beginning of the next item.",
                            next.span(),
                            between(open.span(), next.span()),
                        );
                    }
                }
                close = self.recover(T::CBrack);
                break;
            }
            self.read();
        }
        let exprs = drain_to_arena(self.arena, &mut self.scratch_expr_refs, base);
        self.alloc(ExprKind::Tuple(exprs), between(open.span(), close.span()))
    }

    /// Reads a tuple's leading elements for as long as each is a literal
    /// element ([`Parser::literal_element`]): the tuple's node, when all
    /// of them are; otherwise the nodes of those read so far are pushed on
    /// `scratch_expr_refs`, and the parser is at the first element that
    /// is not one.
    fn literal_tuple(&mut self, open: Token) -> Option<&'a Expr<'a>> {
        // Each element is an expression one level deeper: where that is
        // too deep, the general path reports it.
        if self.depth >= MAX_NESTING {
            return None;
        }
        let mut count = 0u32;
        let stop = loop {
            let tok = self.peek();
            if tok.kind == T::CBrack {
                if count == 0 {
                    return None;
                }
                let close = self.read();
                let tuple = self.node(LiteralTuple::new(self.src, open.end, close.start, count));
                return Some(self.alloc(ExprKind::LiteralTuple(tuple), between(open.span(), close.span())));
            }
            let Some(tokens) = self.literal_element() else { break tok.start };
            // (An object element may hold newlines, which `read` would
            // skip over as well.)
            self.skip_raw(tokens);
            count += 1;
            if self.peek().kind == T::Comma {
                self.read();
            }
        };
        if count > 0 {
            for element in literal_elements(self.src, open.end, stop) {
                let e = self.arena.alloc(element.into_expr_in(self.arena));
                self.scratch_expr_refs.push(e);
            }
        }
        None
    }

    /// When the next element is a literal element of a [`LiteralTuple`]
    /// followed by `,` or `]`: how many tokens it is, with the newlines
    /// before it. Reads nothing.
    fn literal_element(&mut self) -> Option<usize> {
        // (Counted from the next token: the window may move meanwhile.)
        let start = self.peek_index().saturating_sub(self.next);
        let tokens = match self.literal_at(start) {
            Some(tokens) => tokens,
            None => self.literal_object_at(start)?,
        };
        let mut after = start + tokens;
        while self.token_ahead(after).kind == T::Newline {
            after += 1;
        }
        matches!(self.token_ahead(after).kind, T::Comma | T::CBrack).then_some(start + tokens)
    }

    /// When the tokens from `start` after the next one begin with a
    /// literal of a literal run: how many tokens it is. A bare literal
    /// ([`literal_token`], a valid number), or a quoted string of plain
    /// text ([`plain_string`]: what the template parser would make an
    /// [`ExprKind::Quoted`] of, as written).
    fn literal_at(&mut self, start: usize) -> Option<usize> {
        let tok = self.token_ahead(start);
        if tok.kind == T::OQuote {
            return self.plain_string_at(start);
        }
        match literal_token(self.src, tok)? {
            Literal::Number(text) if !is_valid_number(text.as_bytes()) => None,
            _ => Some(1),
        }
    }

    /// When the tokens from `start` after the next one are a short literal
    /// object (as [`Parser::literal_object`] would read it whole, in at
    /// most [`LITERAL_OBJECT_ELEMENT_TOKENS`], the look-ahead's bound): how
    /// many tokens it is.
    fn literal_object_at(&mut self, start: usize) -> Option<usize> {
        // The items are two levels deeper than the tuple.
        if self.depth + 1 >= MAX_NESTING || self.token_ahead(start).kind != T::OBrace {
            return None;
        }
        let mut at = start + 1;
        let mut count = 0;
        loop {
            // (Checked at every token, newlines included: the look-ahead
            // holds what it looks at in the window.)
            while self.token_ahead(at).kind == T::Newline && at - start <= LITERAL_OBJECT_ELEMENT_TOKENS {
                at += 1;
            }
            if at - start > LITERAL_OBJECT_ELEMENT_TOKENS {
                return None;
            }
            if self.token_ahead(at).kind == T::CBrace {
                return (count > 0).then_some(at + 1 - start);
            }
            // `{for ...` is a `for` expression.
            let key = self.token_ahead(at);
            if count == 0 && self.is_keyword(key, "for") {
                return None;
            }
            // (An item is at most 8 tokens: the look-ahead stays within 8
            // of the bound.)
            at += self.literal_entry_at(at)?;
            count += 1;
        }
    }

    /// When the tokens from `start` after the next one are a quoted string
    /// of plain text: how many tokens it is (2 or 3).
    fn plain_string_at(&mut self, start: usize) -> Option<usize> {
        if self.token_ahead(start).kind != T::OQuote {
            return None;
        }
        let first = self.token_ahead(start + 1);
        match first.kind {
            T::CQuote => Some(2),
            T::QuotedLit if self.token_ahead(start + 2).kind == T::CQuote && plain_string(self.src, first).is_some() => Some(3),
            _ => None,
        }
    }

    /// Reads an object's leading items for as long as each is a literal
    /// item ([`Parser::literal_entry`]): the object's node, when all of
    /// them are; otherwise the items read so far are pushed on
    /// `scratch_items`, and the parser is where the general loop of
    /// [`Parser::parse_object_items`] starts an item.
    fn literal_object(&mut self, open: Token) -> Option<&'a Expr<'a>> {
        // Keys and values are expressions one level deeper: where that is
        // too deep, the general path reports it.
        if self.depth >= MAX_NESTING {
            return None;
        }
        let mut count = 0u32;
        let stop = loop {
            while self.peek().kind == T::Newline {
                self.read();
            }
            let tok = self.peek();
            if tok.kind == T::CBrace {
                if count == 0 {
                    return None;
                }
                let close = self.read();
                let object = self.node(LiteralObject::new(self.src, open.end, close.start, count));
                return Some(self.alloc(ExprKind::LiteralObject(object), between(open.span(), close.span())));
            }
            let Some(tokens) = self.literal_entry() else { break tok.start };
            for _ in 0..tokens {
                self.read();
            }
            count += 1;
        };
        if count > 0 {
            for entry in literal_entries(self.src, open.end, stop) {
                let key = entry.key.expr(self.interner);
                let item = ObjectItem { key: self.arena.alloc(key), value: self.arena.alloc(entry.value), force_non_literal: false };
                self.scratch_items.push(item);
            }
        }
        None
    }

    /// When the next object item is a literal item of a [`LiteralObject`]
    /// followed by a `,`, a newline or `}`: how many tokens it is, with the
    /// `,` or newline. The key is a word of valid UTF-8 or a plain quoted
    /// string, right before `=` or `:`; the value a literal
    /// ([`Parser::literal_at`]). Reads nothing.
    fn literal_entry(&mut self) -> Option<usize> {
        let start = self.peek_index().saturating_sub(self.next);
        self.literal_entry_at(start)
    }

    /// [`Parser::literal_entry`] for the item that starts `start` tokens
    /// after the next one.
    fn literal_entry_at(&mut self, start: usize) -> Option<usize> {
        let key = self.token_ahead(start);
        let key_tokens = match key.kind {
            T::Ident if std::str::from_utf8(self.text(key)).is_ok() => 1,
            _ => self.plain_string_at(start)?,
        };
        if !matches!(self.token_ahead(start + key_tokens).kind, T::Equal | T::Colon) {
            return None;
        }
        let value_tokens = self.literal_at(start + key_tokens + 1)?;
        let tokens = key_tokens + 1 + value_tokens;
        match self.token_ahead(start + tokens).kind {
            T::Comma | T::Newline => Some(tokens + 1),
            T::CBrace => Some(tokens),
            _ => None,
        }
    }

    fn parse_object(&mut self) -> &'a Expr<'a> {
        let open = self.read();
        self.push_newlines(false);
        let is_for = self.is_keyword(self.peek(), "for");
        self.pop_newlines();
        if is_for {
            self.push_newlines(false);
            let e = self.finish_for(open);
            self.pop_newlines();
            return e;
        }
        self.push_newlines(true);
        let base = self.scratch_items.len();
        let e = match self.literal_object(open) {
            Some(e) => e,
            None => self.parse_object_items(open, base),
        };
        self.pop_newlines();
        e
    }

    /// The items from `scratch_items[base..]` on (a literal run's, when it
    /// stopped short) to the closing brace.
    fn parse_object_items(&mut self, open: Token, base: usize) -> &'a Expr<'a> {
        let close;
        loop {
            let next = self.peek();
            if next.kind == T::Newline {
                self.read();
                continue;
            }
            if next.kind == T::CBrace {
                close = self.read();
                break;
            }
            let force_non_literal = next.kind == T::OParen;
            let mark = self.mark();
            let key = self.parse_expression();
            if self.recovery && self.errors_since(mark) {
                close = self.recover(T::CBrace);
                break;
            }
            let next = self.peek();
            if next.kind != T::Equal && next.kind != T::Colon {
                if !self.recovery {
                    match next.kind {
                        T::Newline | T::Comma => self.error_ctx(
                            "Missing attribute value",
                            "Expected an attribute value, introduced by an equals sign (\"=\").",
                            next.span(),
                            between(open.span(), next.span()),
                        ),
                        T::Ident => self.error_ctx(
                            "Missing key/value separator",
                            "Expected an equals sign (\"=\") to mark the beginning of the attribute value. If you intended to given an attribute name containing periods or spaces, write the name in quotes to create a string literal.",
                            next.span(),
                            between(open.span(), next.span()),
                        ),
                        T::Eof => self.error(
                            "Unterminated object constructor expression",
                            "There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
                            open.span(),
                        ),
                        _ => self.error_ctx(
                            "Missing key/value separator",
                            "Expected an equals sign (\"=\") to mark the beginning of the attribute value.",
                            next.span(),
                            between(open.span(), next.span()),
                        ),
                    }
                }
                close = self.recover(T::CBrace);
                break;
            }
            self.read();
            let mark = self.mark();
            let value = self.parse_expression();
            if self.recovery && self.errors_since(mark) {
                close = self.recover(T::CBrace);
                break;
            }
            self.scratch_items.push(ObjectItem { key, value, force_non_literal });
            let next = self.peek();
            if next.kind == T::CBrace {
                close = self.read();
                break;
            }
            if next.kind != T::Comma && next.kind != T::Newline {
                if !self.recovery {
                    if next.kind == T::Eof {
                        self.error(
                            "Unterminated object constructor expression",
                            "There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
                            open.span(),
                        );
                    } else {
                        self.error_ctx(
                            "Missing attribute separator",
                            "Expected a newline or comma to mark the beginning of the next attribute.",
                            next.span(),
                            between(open.span(), next.span()),
                        );
                    }
                }
                close = self.recover(T::CBrace);
                break;
            }
            self.read();
        }
        let items = drain_to_arena(self.arena, &mut self.scratch_items, base);
        self.alloc(ExprKind::Object(items), between(open.span(), close.span()))
    }

    /// `[for ...]` / `{for ...}` after the opening bracket; the peeker is at `for`.
    fn finish_for(&mut self, open: Token) -> &'a Expr<'a> {
        if !self.enter_weighted(open.span(), HEAVY_NESTING) {
            let close = self.recover(if open.kind == T::OBrace { T::CBrace } else { T::CBrack });
            return self.placeholder(between(open.span(), close.span()));
        }
        self.push_newlines(false);
        let e = self.finish_for_inner(open);
        self.pop_newlines();
        self.leave_weighted(HEAVY_NESTING);
        e
    }

    #[cold]
    fn for_error(&mut self, open: Token, detail: &str) {
        if !self.recovery {
            let at = self.peek().span();
            self.error_ctx("Invalid 'for' expression", detail, at, between(open.span(), at));
        }
    }

    fn for_bail(&mut self, open: Token, close_kind: T) -> &'a Expr<'a> {
        let close = self.recover(close_kind);
        self.placeholder(between(open.span(), close.span()))
    }

    fn finish_for_inner(&mut self, open: Token) -> &'a Expr<'a> {
        self.read(); // `for`
        let make_object = open.kind == T::OBrace;
        let close_kind = if make_object { T::CBrace } else { T::CBrack };
        if self.peek().kind != T::Ident {
            self.for_error(open, "For expression requires variable name after 'for'.");
            return self.for_bail(open, close_kind);
        }
        let first = self.read();
        let mut val_var = self.ident(first);
        let mut key_var = None;
        if self.peek().kind == T::Comma {
            key_var = Some(val_var);
            self.read();
            if self.peek().kind != T::Ident {
                self.for_error(open, "For expression requires value variable name after comma.");
                return self.for_bail(open, close_kind);
            }
            let v = self.read();
            val_var = self.ident(v);
        }
        if !self.is_keyword(self.peek(), "in") {
            self.for_error(open, "For expression requires the 'in' keyword after its name declarations.");
            return self.for_bail(open, close_kind);
        }
        self.read();
        let mark = self.mark();
        let collection = self.parse_expression();
        if self.recovery && self.errors_since(mark) {
            return self.for_bail(open, close_kind);
        }
        if self.peek().kind != T::Colon {
            self.for_error(open, "For expression requires a colon after the collection expression.");
            return self.for_bail(open, close_kind);
        }
        self.read();
        let mark = self.mark();
        let mut val_expr = self.parse_expression();
        let mut key_expr = None;
        if self.peek().kind == T::FatArrow {
            self.read();
            key_expr = Some(val_expr);
            val_expr = self.parse_expression();
        }
        if self.recovery && self.errors_since(mark) {
            return self.for_bail(open, close_kind);
        }
        let mut group = None;
        if self.peek().kind == T::Ellipsis {
            group = Some(self.read());
        }
        let mut cond_expr = None;
        if self.is_keyword(self.peek(), "if") {
            self.read();
            let mark = self.mark();
            let c = self.parse_expression();
            if self.recovery && self.errors_since(mark) {
                return self.for_bail(open, close_kind);
            }
            cond_expr = Some(c);
        }
        let close = if self.peek().kind == close_kind {
            self.read()
        } else {
            self.for_error(open, "Extra characters after the end of the 'for' expression.");
            self.recover(close_kind)
        };
        self.build_for(
            ForExpr {
                key_var,
                val_var,
                collection,
                key_expr,
                val_expr,
                cond_expr,
                group: group.is_some(),
                open_span: open.span(),
                close_span: close.span(),
            },
            group,
        )
    }

    /// Checks a parsed `for` against its brackets and allocates it.
    #[inline(never)]
    fn build_for(&mut self, f: ForExpr<'a>, group: Option<Token>) -> &'a Expr<'a> {
        let whole = between(f.open_span, f.close_span);
        let make_object = self.src.get(f.open_span.start as usize) == Some(&b'{');
        if !make_object {
            if let Some(k) = f.key_expr {
                self.error_ctx("Invalid 'for' expression", "Key expression is not valid when building a tuple.", k.span, whole);
            }
            if let Some(e) = group {
                self.error_ctx(
                    "Invalid 'for' expression",
                    "Grouping ellipsis (...) cannot be used when building a tuple.",
                    e.span(),
                    whole,
                );
            }
        } else if f.key_expr.is_none() {
            self.error_ctx("Invalid 'for' expression", "Key expression is required when building an object.", f.val_expr.span, whole);
        }
        let f = self.node(f);
        self.alloc(ExprKind::For(f), whole)
    }
}
