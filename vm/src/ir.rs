//! The compiler's intermediate form: a tree of evaluation nodes with
//! names already resolved (variables to slots, iterators to locals, calls
//! to function indices), literals parsed and constant subexpressions
//! folded. `compiler::lower` builds it from the AST; [`crate::codegen`]
//! turns it into register bytecode and drops it. Nothing evaluates it
//! directly.

use runtime::{Diagnostic, Span, Value};
use std::sync::Arc;

/// Operators are `vm::ops`'s: what they do to values is defined there.
pub use crate::ops::{BinaryOp as BinOp, UnaryOp as UnOp};

/// One literal traversal step.
#[derive(Clone, Debug)]
pub enum Step {
    Attr(Arc<str>, Span, AttrHint),
    Index(Value, Span),
}

/// Where attribute `name` was found last time (an inline cache). Objects
/// of one shape put a name at the same position, so the hint is usually
/// right; it is always verified, so a stale or racing hint only costs a
/// lookup. Relaxed atomics keep programs shareable between threads.
#[derive(Debug, Default)]
pub struct AttrHint(std::sync::atomic::AtomicU32);

impl AttrHint {
    #[inline]
    pub fn get(&self) -> usize {
        self.0.load(std::sync::atomic::Ordering::Relaxed) as usize
    }
    #[inline]
    pub fn set(&self, i: usize) {
        self.0.store(i as u32, std::sync::atomic::Ordering::Relaxed)
    }
}

impl Clone for AttrHint {
    fn clone(&self) -> AttrHint {
        AttrHint(std::sync::atomic::AtomicU32::new(self.get() as u32))
    }
}

/// An evaluation node.
#[derive(Clone, Debug)]
pub enum Node {
    Const(Value),
    /// A host variable by slot; the span is the root name's (for
    /// "Unknown variable" when the evaluation leaves the slot unset), and
    /// the name is the `for` iterator that diagnostic suggests, if any
    /// (iterators in scope come before variables, as in hcl).
    Global(u32, Span, Option<Arc<str>>),
    /// A `for` iterator or splat item by local slot.
    Local(u32),
    /// An error found at compile time that the reference reports when the
    /// expression is evaluated (unknown variable, unknown function, ...):
    /// pushes the diagnostic, yields `DynamicVal`.
    Fail(Box<Diagnostic>),
    /// "Unknown variable" for a name no variable or iterator in scope has
    /// and none of the iterators resembles: its "Did you mean" is chosen
    /// when it is reported, among the variables of that evaluation.
    /// Inline, not boxed (a file without variables has thousands).
    UnknownVariable(Arc<str>, Span),
    /// A [`Node::Fail`] whose diagnostic depends on where it is evaluated,
    /// as hcl's "Call to unknown function" does (its suggestions list the
    /// functions of the calling context): the first diagnostic normally,
    /// the second while a splat probes the type of its items (hcl does that
    /// in a child context, which has no functions of its own).
    FailByContext(Box<[Diagnostic; 2]>),
    /// Literal steps applied to a value; the first failing step ends it.
    Traverse(Box<Node>, Box<[Step]>),
    Index(Box<IndexNode>),
    Tuple(Box<[Node]>),
    Object(Box<[ObjectItem]>),
    Template(Box<[TemplatePart]>, Span),
    /// Joins the tuple a template `for` produced; span is the tuple's.
    TemplateJoin(Box<Node>, Span),
    Cond(Box<CondNode>),
    Binary(Box<BinaryNode>),
    Unary(Box<UnaryNode>),
    For(Box<ForNode>),
    Splat(Box<SplatNode>),
    Call(Box<CallNode>),
    Try(Box<TryNode>),
    Can(Box<TryNode>),
}

impl Node {
    /// Calls `f` on each child node, in the order they are evaluated.
    pub fn for_each_child(&self, f: &mut dyn FnMut(&Node)) {
        match self {
            Node::Const(_) | Node::Global(..) | Node::Local(_) | Node::Fail(_) | Node::UnknownVariable(..) | Node::FailByContext(_) => {}
            Node::Traverse(src, _) => f(src),
            Node::Index(ix) => {
                f(&ix.collection);
                f(&ix.key);
            }
            Node::Tuple(items) => items.iter().for_each(&mut *f),
            Node::Object(items) => {
                for it in items.iter() {
                    if let ObjectKey::Expr(k, _) = &it.key {
                        f(k);
                    }
                    f(&it.value);
                }
            }
            Node::Template(parts, _) => parts.iter().for_each(|p| f(&p.node)),
            Node::TemplateJoin(t, _) => f(t),
            Node::Cond(c) => {
                f(&c.condition);
                f(&c.true_result);
                f(&c.false_result);
            }
            Node::Binary(b) => {
                f(&b.lhs);
                f(&b.rhs);
            }
            Node::Unary(u) => f(&u.operand),
            Node::For(fr) => {
                f(&fr.collection);
                if let Some((k, _)) = &fr.key {
                    f(k);
                }
                f(&fr.value);
                if let Some((c, _)) = &fr.cond {
                    f(c);
                }
            }
            Node::Splat(s) => {
                f(&s.source);
                f(&s.each);
            }
            Node::Call(c) => c.args.iter().for_each(|a| f(&a.node)),
            Node::Try(t) | Node::Can(t) => t.args.iter().for_each(|a| f(&a.node)),
        }
    }
}

#[derive(Clone, Debug)]
pub struct IndexNode {
    pub collection: Node,
    pub key: Node,
    pub bracket: Span,
}

#[derive(Clone, Debug)]
pub enum ObjectKey {
    /// A bare name or keyword key.
    Name(Value),
    /// An evaluated key; its span is the key expression's.
    Expr(Node, Span),
}

#[derive(Clone, Debug)]
pub struct ObjectItem {
    pub key: ObjectKey,
    pub value: Node,
    pub value_span: Span,
}

#[derive(Clone, Debug)]
pub struct TemplatePart {
    pub node: Node,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct CondNode {
    pub condition: Node,
    pub true_result: Node,
    pub false_result: Node,
    pub condition_span: Span,
    pub true_span: Span,
    pub false_span: Span,
}

#[derive(Clone, Debug)]
pub struct BinaryNode {
    pub op: BinOp,
    pub lhs: Node,
    pub rhs: Node,
    pub lhs_span: Span,
    pub rhs_span: Span,
    pub span: Span,
    /// hcl ≥ v2.21's `BinaryOpExpr` instead of v2.20's (opt-in: the
    /// compiler's `CompileEnv::short_circuit`): `&&` and `||` short-circuit
    /// ([`crate::ops::logical_short_circuit`]), and every binary operator
    /// lists its operands' conversion errors before the operands' own
    /// diagnostics.
    pub short_circuit: bool,
}

#[derive(Clone, Debug)]
pub struct UnaryNode {
    pub op: UnOp,
    pub operand: Node,
    pub operand_span: Span,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct ForNode {
    pub key_slot: Option<u32>,
    pub val_slot: u32,
    pub collection: Node,
    pub collection_span: Span,
    pub key: Option<(Node, Span)>,
    pub value: Node,
    pub cond: Option<(Node, Span)>,
    pub group: bool,
}

#[derive(Clone, Debug)]
pub struct SplatNode {
    pub source: Node,
    pub each: Node,
    pub slot: u32,
    pub source_span: Span,
}

#[derive(Clone, Debug)]
pub struct CallArg {
    pub node: Node,
    /// The argument's `StartRange()`.
    pub start: Span,
    /// The argument's full range.
    pub span: Span,
    /// A constant already converted to its parameter's type at compile
    /// time (converting it again would give the same value).
    pub preconverted: bool,
}

#[derive(Clone, Debug)]
pub struct CallNode {
    pub func: runtime::func::FuncId,
    pub spans: CallSpans,
    pub args: Box<[CallArg]>,
    pub expand_final: bool,
}

/// A call's name and the ranges its diagnostics point at.
#[derive(Clone, Debug)]
pub struct CallSpans {
    pub name: Arc<str>,
    /// Name through closing parenthesis.
    pub span: Span,
    /// Name through opening parenthesis.
    pub start: Span,
    pub close_paren: Span,
}

impl CallSpans {
    /// The subject hcl gives a call diagnostic at `site`; `arg_start(i)` is
    /// where argument `i` (after `...` expansion) starts.
    #[inline]
    pub fn subject(&self, site: runtime::func::ErrorSite, arg_start: impl Fn(usize) -> Span) -> Span {
        match site {
            runtime::func::ErrorSite::Argument(i) => arg_start(i),
            runtime::func::ErrorSite::WholeCall => self.span,
            runtime::func::ErrorSite::CallStart => self.start,
            runtime::func::ErrorSite::CloseParen => self.close_paren,
        }
    }
}

#[derive(Clone, Debug)]
pub struct TryArg {
    pub node: Node,
    /// The argument's `StartRange()` and full range.
    pub start: Span,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct TryNode {
    pub args: Box<[TryArg]>,
    pub spans: CallSpans,
    /// Wrong argument count, found at compile time (without `...`).
    pub arity_error: Option<Box<Diagnostic>>,
    /// The last argument is expanded (`try(list...)`): its elements become
    /// literal arguments.
    pub expand_final: bool,
}

const _: () = assert!(std::mem::size_of::<Node>() <= 32);
