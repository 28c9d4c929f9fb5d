//! The syntax tree of one HCL source, allocated in a `bumpalo` arena.
//!
//! The node shapes mirror the reference implementation's `hclsyntax` AST
//! closely, on purpose: evaluation order, error subjects and `Variables()`
//! order all follow from the tree shape, so the lowering stage can reproduce
//! the reference exactly by walking the same shape. Notable consequences:
//! - a template `%{if}` is a [`Conditional`] whose branches are
//!   [`ExprKind::Template`]s, and a template `%{for}` is an
//!   [`ExprKind::TemplateJoin`] around a [`ForExpr`];
//! - literal index keys (`a[0]`, `a["k"]`, `a.0`) are folded into traversals;
//! - error recovery leaves [`Literal::Dynamic`] placeholders.
//!
//! All children are arena references (`&'a`), lists are arena slices, names
//! are interned [`Symbol`]s, and spans are `u32` byte offsets.

mod literal_run;
pub mod print;

pub(crate) use literal_run::{literal_elements, literal_entries, literal_token, plain_string};
pub use literal_run::{
    LiteralElement, LiteralElements, LiteralEntries, LiteralEntry, LiteralKey, LiteralObject, LiteralRun, LiteralTuple, ObjectRun, TupleRun,
};

use crate::intern::Symbol;
use runtime::Span;

/// An identifier occurrence: interned name plus where it was written.
/// (Identifiers follow the reference's Unicode 9.0 tables, which admit some
/// invalid UTF-8; such bytes are U+FFFD in the interned name.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ident {
    pub name: Symbol,
    pub span: Span,
}

/// A parsed body: attributes and nested blocks, each in source order (the
/// order hcl lists them in; the parser adds them as it meets them).
#[derive(Clone, Copy, Debug)]
pub struct Body<'a> {
    /// Only the first definition of each name (a redefinition is a diagnostic).
    pub attributes: &'a [Attribute<'a>],
    pub blocks: &'a [Block<'a>],
    /// From the opening brace (or file start) to the closing brace (or end).
    pub span: Span,
    /// Zero-width span just after the body's closing delimiter.
    pub end_span: Span,
}

impl<'a> Body<'a> {
    pub const EMPTY: Body<'static> = Body { attributes: &[], blocks: &[], span: Span::new(0, 0), end_span: Span::new(0, 0) };

    /// The attribute named `name`, if defined.
    pub fn attribute(&self, name: Symbol) -> Option<&Attribute<'a>> {
        self.attributes.iter().find(|a| a.name.name == name)
    }

    /// The expression of every attribute: this body's in source order, then
    /// each nested block's, depth first (the order in which hosts compile
    /// and list them). Bodies still to visit wait on a stack, so a flat
    /// body of a million attributes needs no list of them.
    pub fn all_attribute_exprs(&self) -> AttributeExprs<'_, 'a> {
        // Recursion follows block nesting, which the parser bounds.
        fn count(b: &Body<'_>) -> usize {
            b.attributes.len() + b.blocks.iter().map(|blk| count(&blk.body)).sum::<usize>()
        }
        AttributeExprs { bodies: vec![self], attrs: [].iter(), left: count(self) }
    }
}

/// [`Body::all_attribute_exprs`].
pub struct AttributeExprs<'s, 'a> {
    /// Bodies still to visit, the next last.
    bodies: Vec<&'s Body<'a>>,
    /// The attributes of the body being visited.
    attrs: std::slice::Iter<'a, Attribute<'a>>,
    left: usize,
}

impl<'a> Iterator for AttributeExprs<'_, 'a> {
    type Item = &'a Expr<'a>;

    fn next(&mut self) -> Option<&'a Expr<'a>> {
        loop {
            if let Some(a) = self.attrs.next() {
                self.left -= 1;
                return Some(a.expr);
            }
            let body = self.bodies.pop()?;
            self.bodies.extend(body.blocks.iter().rev().map(|b| &b.body));
            self.attrs = body.attributes.iter();
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for AttributeExprs<'_, '_> {}

/// `name = expr`. 32 bytes (a file may have a million): its spans are
/// kept as the offsets they do not share with the name's.
#[derive(Clone, Copy, Debug)]
pub struct Attribute<'a> {
    pub name: Ident,
    pub expr: &'a Expr<'a>,
    /// Where the attribute ends (the end of the expression).
    pub end: u32,
    /// Where its `=` is.
    pub equals_at: u32,
}

impl Attribute<'_> {
    /// Name through the end of the expression.
    pub fn span(&self) -> Span {
        Span::new(self.name.span.start, self.end)
    }

    /// The `=` (one byte).
    pub fn equals_span(&self) -> Span {
        Span::new(self.equals_at, self.equals_at + 1)
    }
}

/// `type "label" label2 { body }`
#[derive(Clone, Copy, Debug)]
pub struct Block<'a> {
    pub block_type: Ident,
    /// Label texts, unescaped (quoted labels) or identifier text.
    pub labels: &'a [&'a str],
    pub body: Body<'a>,
    pub open_brace_span: Span,
    pub close_brace_span: Span,
}

/// One expression node: what it is plus its full source range (the
/// reference's `Range()`).
#[derive(Clone, Copy, Debug)]
pub struct Expr<'a> {
    pub kind: ExprKind<'a>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug)]
pub enum ExprKind<'a> {
    /// A constant: `null`, `true`, a number, a template's literal text.
    Literal(Literal<'a>),
    /// A variable reference with literal steps: `a.b[0]["k"]`.
    ScopeTraversal(&'a Traversal<'a>),
    /// A bare name, `a`: a scope traversal without steps, whose root's
    /// span is the node's ([`Expr::scope_traversal`] gives it as one).
    /// Its own kind because bare names are everywhere (object keys, `for`
    /// variables) and a traversal node would double what each costs.
    Name(Symbol),
    /// Literal steps applied to a computed value: `f(x).b[0]`.
    RelativeTraversal(&'a RelativeTraversal<'a>),
    /// `name(args...)` or `name(args, list...)`.
    Call(&'a Call<'a>),
    /// `cond ? a : b`, and also template `%{if}`.
    Conditional(&'a Conditional<'a>),
    /// `collection[key]` with a non-literal key.
    Index(&'a Index<'a>),
    /// `[a, b, c]`: the elements where the parser put them (a slice of
    /// nodes would hold each element twice, as parsed and as copied in: a
    /// literal list of a million numbers is 32 MB less this way).
    Tuple(&'a [&'a Expr<'a>]),
    /// `[1, 2, true, null, "text", {a = 1}]`: a tuple of bare literals,
    /// plain quoted strings and short literal objects only, kept as its
    /// source text ([`LiteralTuple`]); its elements are made on demand.
    LiteralTuple(&'a LiteralTuple<'a>),
    /// `{k = v, ...}`
    Object(&'a [ObjectItem<'a>]),
    /// `{a = 1, "b" = "text"}`: an object of bare-word or plain quoted
    /// keys and the literals a [`LiteralTuple`] holds, kept as its source
    /// text ([`LiteralObject`]); its items are made on demand.
    LiteralObject(&'a LiteralObject<'a>),
    /// `[for ...]` / `{for ...}`, and the loop inside a template `%{for}`.
    For(&'a ForExpr<'a>),
    /// `source[*].each` or `source.*.each`.
    Splat(&'a Splat<'a>),
    /// The current element inside a splat's `each` expression; the number is
    /// the [`Splat::item`] id of the splat that binds it.
    AnonSymbol(u32),
    /// `lhs op rhs`
    Binary(&'a Binary<'a>),
    /// `-x`, `!x`
    Unary(&'a Unary<'a>),
    /// A template with parts concatenated as strings. Parts are literal
    /// strings (unescaped, not yet NFC-normalized), interpolated expressions,
    /// template conditionals and template joins.
    Template(&'a [Expr<'a>]),
    /// `"text"`: a template of one literal part and nothing else, the
    /// commonest template (unescaped, not yet NFC-normalized). Its own
    /// kind because a template node and its part's node would double what
    /// each costs; [`Expr::quoted_part`] gives the part.
    Quoted(&'a str),
    /// Joins the string elements of a tuple (the result of a template `%{for}`).
    TemplateJoin(&'a Expr<'a>),
    /// A template that is exactly one interpolation, `"${x}"`: evaluates to
    /// the interpolated value itself (no string conversion).
    TemplateWrap(&'a Expr<'a>),
    /// `( expr )`; span includes the parentheses.
    Parens(&'a Expr<'a>),
}

impl<'a> Expr<'a> {
    /// The scope traversal this node is, bare names included.
    #[inline]
    pub fn scope_traversal(&self) -> Option<Traversal<'a>> {
        match self.kind {
            ExprKind::ScopeTraversal(t) => Some(*t),
            ExprKind::Name(name) => Some(Traversal { root: Ident { name, span: self.span }, steps: &[] }),
            _ => None,
        }
    }

    /// The one literal part of a [`ExprKind::Quoted`] template, where the
    /// template parser puts it: the text between the quotes, or, for
    /// `""`, the empty place after the closing quote.
    #[inline]
    pub fn quoted_part(&self) -> Option<Expr<'a>> {
        let ExprKind::Quoted(text) = self.kind else { return None };
        let span = if self.span.end - self.span.start == 2 {
            Span::new(self.span.end, self.span.end)
        } else {
            Span::new(self.span.start + 1, self.span.end - 1)
        };
        Some(Expr { kind: ExprKind::Literal(Literal::String(text)), span })
    }
}

/// A literal constant value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Literal<'a> {
    Null,
    Bool(bool),
    /// Number literal, exactly as written (`12`, `1.5e3`).
    Number(&'a str),
    /// Unescaped string text (template literal parts, string index keys),
    /// not NFC-normalized. Invalid UTF-8, which the reference's scanner
    /// lets into strings, is replaced by one U+FFFD per byte (as Go
    /// decodes it).
    String(&'a str),
    /// Unknown of dynamic type: the placeholder left by error recovery.
    Dynamic,
}

/// A root name followed by literal steps.
#[derive(Clone, Copy, Debug)]
pub struct Traversal<'a> {
    pub root: Ident,
    pub steps: &'a [Traverser<'a>],
}

#[derive(Clone, Copy, Debug)]
pub struct RelativeTraversal<'a> {
    pub source: &'a Expr<'a>,
    pub steps: &'a [Traverser<'a>],
}

/// One literal traversal step.
#[derive(Clone, Copy, Debug)]
pub enum Traverser<'a> {
    /// `.name`; span covers the dot and the name.
    Attr { name: Ident, span: Span },
    /// `[key]` with a literal key or legacy `.0`; span covers brackets/dot.
    Index { key: Literal<'a>, span: Span },
}

impl Traverser<'_> {
    pub fn span(&self) -> Span {
        match *self {
            Traverser::Attr { span, .. } | Traverser::Index { span, .. } => span,
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub struct Call<'a> {
    /// The whole name as written, including any `ns::` prefixes.
    pub name: Ident,
    pub args: &'a [Expr<'a>],
    /// The last argument was followed by `...`.
    pub expand_final: bool,
    pub open_paren_span: Span,
    pub close_paren_span: Span,
}

#[derive(Clone, Copy, Debug)]
pub struct Conditional<'a> {
    pub condition: &'a Expr<'a>,
    pub true_result: &'a Expr<'a>,
    pub false_result: &'a Expr<'a>,
}

#[derive(Clone, Copy, Debug)]
pub struct Index<'a> {
    pub collection: &'a Expr<'a>,
    pub key: &'a Expr<'a>,
    pub open_span: Span,
    /// From `[` through `]`.
    pub bracket_span: Span,
}

/// One `key = value` of an object constructor.
#[derive(Clone, Copy, Debug)]
pub struct ObjectItem<'a> {
    pub key: &'a Expr<'a>,
    pub value: &'a Expr<'a>,
    /// The key was parenthesised: a bare identifier inside is then a variable
    /// reference, not a literal attribute name.
    pub force_non_literal: bool,
}

impl<'a> ObjectItem<'a> {
    /// The keyword a key expression stands for, the way the reference's
    /// `hcl.ExprAsKeyword` decides it: a bare identifier (`{a = 1}`) or one of
    /// `null`, `true`, `false`. Parenthesised keys are never keywords. This
    /// ignores `force_non_literal` (the reference's variable walk does too);
    /// see [`ObjectItem::literal_key`] for evaluation.
    pub fn key_keyword(&self) -> Option<KeyKeyword> {
        match self.key.kind {
            ExprKind::Name(name) => Some(KeyKeyword::Name(name)),
            ExprKind::ScopeTraversal(t) if t.steps.is_empty() => Some(KeyKeyword::Name(t.root.name)),
            ExprKind::Literal(Literal::Null) => Some(KeyKeyword::Null),
            ExprKind::Literal(Literal::Bool(b)) => Some(KeyKeyword::Bool(b)),
            _ => None,
        }
    }

    /// The literal key this item evaluates to without evaluating the key
    /// expression (`{a = 1}` is the key "a"), or `None` when the key
    /// expression must be evaluated. (`{a.b = 1}` is neither: evaluation
    /// reports "Ambiguous attribute key".)
    pub fn literal_key(&self) -> Option<KeyKeyword> {
        if self.force_non_literal {
            return None;
        }
        self.key_keyword()
    }
}

/// A bare word used as an object key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyKeyword {
    Name(Symbol),
    Null,
    Bool(bool),
}

impl KeyKeyword {
    /// The attribute name the word is (`null`, `true` and `false` are
    /// their own names).
    pub fn name<'i>(&self, interner: &'i crate::intern::Interner) -> &'i str {
        match *self {
            KeyKeyword::Name(s) => interner.resolve(s),
            KeyKeyword::Null => "null",
            KeyKeyword::Bool(true) => "true",
            KeyKeyword::Bool(false) => "false",
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub struct ForExpr<'a> {
    pub key_var: Option<Ident>,
    pub val_var: Ident,
    pub collection: &'a Expr<'a>,
    /// Present for `{for ...}` (object result).
    pub key_expr: Option<&'a Expr<'a>>,
    pub val_expr: &'a Expr<'a>,
    pub cond_expr: Option<&'a Expr<'a>>,
    /// `...` after the value: group values by key.
    pub group: bool,
    /// The opening bracket/brace (or the whole `%{for ...}` directive).
    pub open_span: Span,
    /// The closing bracket/brace (or the `%{endfor}` directive).
    pub close_span: Span,
}

#[derive(Clone, Copy, Debug)]
pub struct Splat<'a> {
    pub source: &'a Expr<'a>,
    /// Evaluated once per element, with [`ExprKind::AnonSymbol`]`(item)` bound.
    pub each: &'a Expr<'a>,
    /// Id of the anonymous symbol this splat binds (unique per parse).
    pub item: u32,
    /// `[*]` or `.*`.
    pub marker_span: Span,
}

#[derive(Clone, Copy, Debug)]
pub struct Binary<'a> {
    pub op: BinaryOp,
    pub lhs: &'a Expr<'a>,
    pub rhs: &'a Expr<'a>,
}

#[derive(Clone, Copy, Debug)]
pub struct Unary<'a> {
    pub op: UnaryOp,
    pub operand: &'a Expr<'a>,
    pub symbol_span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Or,
    And,
    Equal,
    NotEqual,
    GreaterThan,
    GreaterThanOrEqual,
    LessThan,
    LessThanOrEqual,
    Add,
    Subtract,
    Multiply,
    Divide,
    Modulo,
}

impl BinaryOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Or => "||",
            BinaryOp::And => "&&",
            BinaryOp::Equal => "==",
            BinaryOp::NotEqual => "!=",
            BinaryOp::GreaterThan => ">",
            BinaryOp::GreaterThanOrEqual => ">=",
            BinaryOp::LessThan => "<",
            BinaryOp::LessThanOrEqual => "<=",
            BinaryOp::Add => "+",
            BinaryOp::Subtract => "-",
            BinaryOp::Multiply => "*",
            BinaryOp::Divide => "/",
            BinaryOp::Modulo => "%",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// `-x`
    Negate,
    /// `!x`
    Not,
}

impl<'a> Expr<'a> {
    pub const fn new(kind: ExprKind<'a>, span: Span) -> Expr<'a> {
        Expr { kind, span }
    }
}

// Hot node sizes: keep expressions small so arenas stay dense.
const _: () = assert!(std::mem::size_of::<Expr<'static>>() <= 32);
const _: () = assert!(std::mem::size_of::<ExprKind<'static>>() <= 24);
const _: () = assert!(std::mem::size_of::<Literal<'static>>() <= 24);
const _: () = assert!(std::mem::size_of::<Traverser<'static>>() <= 40);
const _: () = assert!(std::mem::size_of::<Attribute<'static>>() <= 32);
const _: () = assert!(std::mem::size_of::<Block<'static>>() <= 96);
