//! Bodies: attributes and blocks.

use super::{between, drain_to_arena, Parser, HEAVY_NESTING};
use crate::ast::*;
use crate::intern::Symbol;
use crate::lexer::{Token, TokenKind as T};
use runtime::strings::{go_quote, go_quote_bytes};
use runtime::Span;
use std::collections::HashMap;

enum Item<'a> {
    Attribute(Attribute<'a>),
    Block(Block<'a>),
}

/// Parses a whole file body, leaving its attributes and blocks out of the
/// arena, in vectors of their own ([`FileBody`]).
pub(crate) fn parse_file_body<'a>(p: &mut Parser<'a, '_>) -> FileBody<'a> {
    let open = p.parse_body_open(T::Eof);
    let mut attributes = std::mem::take(&mut p.scratch_attrs);
    let mut blocks = std::mem::take(&mut p.scratch_blocks);
    attributes.drain(..open.attr_base.min(attributes.len()));
    blocks.drain(..open.block_base.min(blocks.len()));
    FileBody { attributes, blocks, span: open.span, end_span: open.end_span }
}

/// A parsed file body whose attribute and block lists are on the heap
/// rather than in the arena: a file's own body may have a million
/// attributes, and copying them into the arena would hold the list twice
/// at the end of the parse (the rest of the tree is in the arena).
/// [`FileBody::body`] is the tree's body, borrowed.
#[derive(Debug, Default)]
pub struct FileBody<'a> {
    attributes: Vec<Attribute<'a>>,
    blocks: Vec<Block<'a>>,
    span: Span,
    end_span: Span,
}

impl<'a> FileBody<'a> {
    /// The body, borrowing the lists.
    pub fn body(&self) -> Body<'_> {
        Body { attributes: &self.attributes, blocks: &self.blocks, span: self.span, end_span: self.end_span }
    }

    /// The body with its lists moved into the arena.
    pub fn into_body(self, arena: &'a bumpalo::Bump) -> Body<'a> {
        Body {
            attributes: drain_to_arena(arena, &mut { self.attributes }, 0),
            blocks: drain_to_arena(arena, &mut { self.blocks }, 0),
            span: self.span,
            end_span: self.end_span,
        }
    }
}

/// A body parsed up to its end, its items still in the parser's lists.
struct OpenBody {
    attr_base: usize,
    block_base: usize,
    span: Span,
    end_span: Span,
}

/// Finds earlier definitions of an attribute name: a scan for small
/// bodies, a map once a body grows. A file's own body, which may have a
/// million attributes, marks the names it defined in a bit set by symbol
/// number (symbols are dense, and there is one such body per parse): a
/// bit a name, where any index would take 4 bytes. Only a redefinition,
/// an error, needs the index of the first definition; the first one
/// maps every name to its index, by symbol number, from then on.
struct SeenNames {
    /// Name to index (`u32`: half the size of a `usize` entry).
    map: Option<HashMap<Symbol, u32, ahash::RandomState>>,
    /// For the file's body: whether a name was defined, by symbol number.
    defined: Option<Vec<u64>>,
    /// For the file's body, after a redefinition: index + 1 by symbol
    /// number (0: not seen).
    dense: Option<Vec<u32>>,
    use_dense: bool,
}

const SCAN_LIMIT: usize = 16;

impl SeenNames {
    fn new(file_body: bool) -> SeenNames {
        SeenNames { map: None, defined: None, dense: None, use_dense: file_body }
    }

    fn find(&mut self, attrs: &[Attribute<'_>], name: Symbol) -> Option<usize> {
        if attrs.len() <= SCAN_LIMIT {
            return attrs.iter().position(|a| a.name.name == name);
        }
        if self.use_dense {
            let defined = self.defined.get_or_insert_with(|| {
                let mut bits = Vec::new();
                for a in attrs {
                    set_bit(&mut bits, a.name.name);
                }
                bits
            });
            if !bit(defined, name) {
                return None;
            }
            let d = self.dense.get_or_insert_with(|| {
                let mut d = Vec::new();
                for (i, a) in attrs.iter().enumerate() {
                    dense_add(&mut d, a.name.name, i);
                }
                d
            });
            return d.get(name.index() as usize).and_then(|&i| (i as usize).checked_sub(1));
        }
        let map = self.map.get_or_insert_with(|| {
            let mut m = HashMap::with_capacity_and_hasher(attrs.len() * 2, ahash::RandomState::with_seeds(5, 6, 7, 8));
            for (i, a) in attrs.iter().enumerate() {
                m.entry(a.name.name).or_insert(i as u32);
            }
            m
        });
        map.get(&name).map(|&i| i as usize)
    }

    fn added(&mut self, name: Symbol, index: usize) {
        if let Some(bits) = self.defined.as_mut() {
            set_bit(bits, name);
            if let Some(d) = self.dense.as_mut() {
                dense_add(d, name, index);
            }
        } else if let Some(m) = self.map.as_mut() {
            m.entry(name).or_insert(index as u32);
        }
    }
}

fn bit(bits: &[u64], name: Symbol) -> bool {
    let k = name.index() as usize;
    bits.get(k / 64).is_some_and(|w| w & (1 << (k % 64)) != 0)
}

fn set_bit(bits: &mut Vec<u64>, name: Symbol) {
    let k = name.index() as usize;
    if k / 64 >= bits.len() {
        bits.resize(k / 64 + 1, 0);
    }
    if let Some(w) = bits.get_mut(k / 64) {
        *w |= 1 << (k % 64);
    }
}

/// Records the first index of `name` in a by-symbol vector.
fn dense_add(d: &mut Vec<u32>, name: Symbol, index: usize) {
    let k = name.index() as usize;
    if k >= d.len() {
        d.resize(k + 1, 0);
    }
    if let Some(slot) = d.get_mut(k) {
        if *slot == 0 {
            *slot = index as u32 + 1;
        }
    }
}

impl<'a, 'i> Parser<'a, 'i> {
    pub fn parse_body(&mut self, end: T) -> Body<'a> {
        let open = self.parse_body_open(end);
        Body {
            attributes: drain_to_arena(self.arena, &mut self.scratch_attrs, open.attr_base),
            blocks: drain_to_arena(self.arena, &mut self.scratch_blocks, open.block_base),
            span: open.span,
            end_span: open.end_span,
        }
    }

    fn parse_body_open(&mut self, end: T) -> OpenBody {
        let start = self.prev_span();
        let attr_base = self.scratch_attrs.len();
        let block_base = self.scratch_blocks.len();
        let mut seen = SeenNames::new(end == T::Eof);
        let end_span;
        loop {
            let next = self.peek();
            if next.kind == end {
                end_span = next.span();
                self.read();
                break;
            }
            match next.kind {
                T::Newline => {
                    self.read();
                }
                T::Ident => match self.parse_body_item() {
                    Some(Item::Block(b)) => self.scratch_blocks.push(b),
                    Some(Item::Attribute(a)) => match seen.find(&self.scratch_attrs[attr_base..], a.name.name) {
                        Some(first) => self.attribute_redefined(self.scratch_attrs[attr_base + first].name.span, a.name),
                        None => {
                            seen.added(a.name.name, self.scratch_attrs.len() - attr_base);
                            self.scratch_attrs.push(a);
                        }
                    },
                    None => {}
                },
                _ => {
                    self.body_bad_token(end, start);
                    end_span = self.prev_span();
                    self.recover(end);
                    break;
                }
            }
        }
        OpenBody { attr_base, block_base, span: between(start, end_span), end_span: Span::new(end_span.end, end_span.end) }
    }

    #[cold]
    #[inline(never)]
    fn attribute_redefined(&mut self, first: Span, again: Ident) {
        let name = self.interner.resolve(again.name).to_owned();
        let at = self.range_string(first);
        self.error(
            "Attribute redefined",
            format!("The argument {} was already set at {}. Each argument may be set only once.", go_quote(&name), at),
            again.span,
        );
    }

    /// A token that cannot start a body item: report it (reads it).
    #[cold]
    #[inline(never)]
    fn body_bad_token(&mut self, end: T, start: Span) {
        let bad = self.read();
        if self.recovery {
            return;
        }
        match bad.kind {
            T::OQuote => self.error("Invalid argument name", "Argument names must not be quoted.", bad.span()),
            T::Eof if end == T::CBrace => self.error(
                "Unclosed configuration block",
                "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
                start,
            ),
            T::Eof => self.error("Unclosed configuration body", "Found end of file before the end of this configuration body.", start),
            _ => self.error("Argument or block definition required", "An argument or block definition is required here.", bad.span()),
        }
    }

    #[inline(never)]
    fn parse_body_item(&mut self) -> Option<Item<'a>> {
        let ident = self.read();
        match self.peek().kind {
            T::Equal => Some(Item::Attribute(self.finish_attribute(ident, false))),
            T::OQuote | T::OBrace | T::Ident => Some(Item::Block(self.finish_block(ident))),
            _ => {
                self.recover_after_body_item();
                self.error(
                    "Argument or block definition required",
                    "An argument or block definition is required here. To set an argument, use the equals sign \"=\" to introduce the argument value.",
                    ident.span(),
                );
                None
            }
        }
    }

    fn finish_attribute(&mut self, ident: Token, single_line: bool) -> Attribute<'a> {
        let eq = self.read();
        let mark = self.mark();
        let expr = self.parse_expression();
        let end;
        if self.recovery && self.errors_since(mark) {
            end = self.prev_span();
            self.recover_after_body_item();
        } else if single_line {
            end = self.prev_span();
        } else {
            let after = self.peek();
            if after.kind != T::Newline && after.kind != T::Eof {
                if !self.recovery {
                    let (summary, detail) = if after.kind == T::Comma {
                        (
                            "Unexpected comma after argument",
                            "Argument definitions must be separated by newlines, not commas. An argument definition must end with a newline.",
                        )
                    } else {
                        ("Missing newline after argument", "An argument definition must end with a newline.")
                    };
                    self.error_ctx(summary, detail, after.span(), between(ident.span(), after.span()));
                }
                end = self.prev_span();
                self.recover_after_body_item();
            } else {
                end = self.prev_span();
                self.read();
            }
        }
        let name = self.ident(ident);
        Attribute { name, expr, end: between(ident.span(), end).end, equals_at: eq.start }
    }

    /// Labels up to the opening brace; `None` (after recovery) when the
    /// header is malformed.
    #[inline(never)]
    fn parse_block_header(&mut self, ident: Token) -> (&'a [&'a str], Option<Token>) {
        // Gathered in the parser's list and copied to the arena at their
        // count: an arena vector would leave its room for four behind.
        let base = self.scratch_labels.len();
        loop {
            let tok = self.peek();
            match tok.kind {
                T::OBrace => {
                    let open = self.read();
                    return (drain_to_arena(self.arena, &mut self.scratch_labels, base), Some(open));
                }
                T::OQuote => {
                    let (label, _) = self.parse_quoted_string_literal();
                    self.scratch_labels.push(label);
                }
                T::Ident => {
                    let tok = self.read();
                    let label = self.token_str(tok);
                    self.scratch_labels.push(label);
                }
                _ => {
                    let context = between(ident.span(), tok.span());
                    match tok.kind {
                        T::Equal => self.error_ctx(
                            "Invalid block definition",
                            "The equals sign \"=\" indicates an argument definition, and must not be used when defining a block.",
                            tok.span(),
                            context,
                        ),
                        T::Newline => self.error_ctx(
                            "Invalid block definition",
                            "A block definition must have block content delimited by \"{\" and \"}\", starting on the same line as the block header.",
                            tok.span(),
                            context,
                        ),
                        _ => {
                            if !self.recovery {
                                self.error_ctx(
                                    "Invalid block definition",
                                    "Either a quoted string block label or an opening brace (\"{\") is expected here.",
                                    tok.span(),
                                    context,
                                );
                            }
                        }
                    }
                    self.recover_after_body_item();
                    return (drain_to_arena(self.arena, &mut self.scratch_labels, base), None);
                }
            }
        }
    }

    #[inline(never)]
    fn finish_block(&mut self, ident: Token) -> Block<'a> {
        let block_type = self.ident(ident);
        let (labels, open) = self.parse_block_header(ident);
        let Some(open) = open else {
            return Block {
                block_type,
                labels,
                body: Body { attributes: &[], blocks: &[], span: ident.span(), end_span: ident.span() },
                open_brace_span: ident.span(),
                close_brace_span: ident.span(),
            };
        };
        let body_mark = self.mark();
        let body = if !self.enter_weighted(open.span(), HEAVY_NESTING) {
            self.recover(T::CBrace);
            None
        } else {
            let body = match self.peek().kind {
                T::Newline | T::Eof | T::CBrace => Some(self.parse_body(T::CBrace)),
                _ => self.parse_single_line_block(ident, open, body_mark),
            };
            self.leave_weighted(HEAVY_NESTING);
            body
        };
        let close_span = self.prev_span();
        let eol = self.peek();
        if eol.kind == T::Newline || eol.kind == T::Eof {
            self.read();
        } else {
            self.missing_newline_after_block(ident);
        }
        let body = body.unwrap_or(Body { attributes: &[], blocks: &[], span: between(open.span(), close_span), end_span: close_span });
        Block { block_type, labels, body, open_brace_span: open.span(), close_brace_span: close_span }
    }

    #[inline(never)]
    fn parse_single_line_block(&mut self, ident: Token, open: Token, body_mark: usize) -> Option<Body<'a>> {
        let body = self.parse_single_attr_body();
        // The reference reports the body's own errors after these checks
        // of how the one-line block ends.
        let body_diags = self.diags.split_off(body_mark);
        self.finish_single_line_block(ident, open);
        self.diags.extend(body_diags);
        body
    }

    #[cold]
    #[inline(never)]
    fn missing_newline_after_block(&mut self, ident: Token) {
        let eol = self.peek();
        if !self.recovery {
            self.error_ctx(
                "Missing newline after block definition",
                "A block definition must end with a newline.",
                eol.span(),
                between(ident.span(), eol.span()),
            );
        }
        self.recover_after_body_item();
    }

    fn finish_single_line_block(&mut self, ident: Token, open: Token) {
        let next = self.peek();
        match next.kind {
            T::CBrace => {
                self.read();
            }
            T::Comma => {
                self.error(
                    "Invalid single-argument block definition",
                    "Single-line block syntax can include only one argument definition. To define multiple arguments, use the multi-line block syntax with one argument definition per line.",
                    next.span(),
                );
                self.recover(T::CBrace);
            }
            T::Newline => {
                self.error(
                    "Invalid single-argument block definition",
                    "An argument definition on the same line as its containing block creates a single-line block definition, which must also be closed on the same line. Place the block's closing brace immediately after the argument definition.",
                    next.span(),
                );
                self.recover(T::CBrace);
            }
            _ => {
                if !self.recovery {
                    if next.kind == T::Eof {
                        self.error_ctx(
                            "Unclosed configuration block",
                            "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
                            open.span(),
                            between(ident.span(), open.span()),
                        );
                    } else {
                        self.error(
                            "Invalid single-argument block definition",
                            "A single-line block definition must end with a closing brace immediately after its single argument definition.",
                            next.span(),
                        );
                    }
                }
                self.recover(T::CBrace);
            }
        }
    }

    /// `{ name = value }` on one line.
    fn parse_single_attr_body(&mut self) -> Option<Body<'a>> {
        let ident = self.read();
        if ident.kind != T::Ident {
            self.recover_after_body_item();
            self.error("Argument or block definition required", "An argument or block definition is required here.", ident.span());
            return None;
        }
        let next = self.peek();
        match next.kind {
            T::Equal => {
                let attr = self.finish_attribute(ident, true);
                let span = attr.span();
                let attributes = self.arena.alloc_slice_copy(&[attr]);
                Some(Body { attributes, blocks: &[], span, end_span: Span::new(span.end, span.end) })
            }
            T::OQuote | T::OBrace | T::Ident => {
                self.recover_after_body_item();
                let name = go_quote_bytes(self.text(ident));
                self.error(
                    "Argument definition required",
                    format!("A single-line block definition can contain only a single argument. If you meant to define argument {name}, use an equals sign to assign it a value. To define a nested block, place it on a line of its own within its parent block."),
                    between(ident.span(), next.span()),
                );
                None
            }
            _ => {
                self.recover_after_body_item();
                self.error(
                    "Argument or block definition required",
                    "An argument or block definition is required here. To set an argument, use the equals sign \"=\" to introduce the argument value.",
                    ident.span(),
                );
                None
            }
        }
    }
}
