//! Lowering: arena AST → [`vm::Program`].
//!
//! Names are resolved here once: `for` iterators and splat items become
//! local slots, host variables global slots, unknown names a deferred
//! "Unknown variable" diagnostic (with the suggestion already chosen),
//! calls a function index or a deferred "Call to unknown function".
//! Literals are parsed to values, and constant subexpressions are folded
//! when evaluating them succeeds without any diagnostic.

use crate::analysis::start_span;
use crate::ast::{self, BinaryOp, ExprKind, Literal, Traverser, UnaryOp};
use crate::intern::{Interner, Symbol};
use crate::lexer::LexMode;
use runtime::diag::DiagnosticsExt;
use runtime::func::{FuncId, FunctionTable};
use runtime::strings::go_quote;
use runtime::{Diagnostic, Number, Span, Value};
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;
use vm::ir::*;
use vm::program::SourceLines;
use vm::Program;

/// Lowering recursion limit (the parser's own nesting limit is below it
/// for real sources; this guards hand-built trees).
const MAX_DEPTH: u32 = 4096;

/// What a program is compiled against.
#[derive(Clone)]
pub struct CompileEnv {
    /// Host variable names, in slot order.
    pub var_names: Arc<[Arc<str>]>,
    /// `None`: calls are not allowed at all.
    pub funcs: Option<Arc<dyn FunctionTable>>,
    pub filename: Arc<str>,
    /// No variables at all (hcl evaluating without an `EvalContext`): a
    /// reference outside every `for` is "Variables not allowed".
    pub no_variables: bool,
    /// Binary operators as hcl ≥ v2.21 evaluates them (short-circuit `&&`
    /// and `||`, see [`vm::ir::BinaryNode::short_circuit`]) instead of as
    /// the reference, hcl v2.20.0, does. Off by default.
    pub short_circuit: bool,
}

impl CompileEnv {
    pub fn new<S: AsRef<str>>(var_names: impl IntoIterator<Item = S>, funcs: Option<Arc<dyn FunctionTable>>) -> CompileEnv {
        let var_names: Vec<Arc<str>> = var_names.into_iter().map(|s| Arc::from(s.as_ref())).collect();
        CompileEnv {
            var_names: var_names.into(),
            funcs,
            filename: Arc::from(crate::DEFAULT_FILENAME),
            no_variables: false,
            short_circuit: false,
        }
    }
}

/// Compiles one expression of the source read into `lines` (made by
/// [`source_lines`], shared by the expressions of one source compiled one
/// at a time).
pub fn compile_expr_in(expr: &ast::Expr<'_>, lines: &Arc<SourceLines>, interner: &Interner, env: &CompileEnv) -> Program {
    let (lowered, _) = lower_all_noting(std::iter::once(expr), interner, env, lines);
    let mut file = vm::codegen::FileCode::new();
    lowered.compile(&mut file, env, lines).pop().expect("one program per expression")
}

/// The source as programs keep it, scanned as `mode` (its token
/// boundaries decide the columns of positions).
pub fn source_lines(src: Arc<[u8]>, mode: LexMode) -> SourceLines {
    let breaks = crate::lexer::cluster_breaks(&src, mode);
    SourceLines { src, breaks, lines: Default::default() }
}

/// The lowered trees of a file's expressions, not yet compiled: they own
/// everything they need, so the syntax tree (and the interner) can be
/// dropped before code generation, and a large body's tree and its
/// programs are never all alive at once.
pub struct Lowered {
    /// Each tree with its number of locals and its expression's range.
    trees: Vec<(vm::ir::Node, u32, Span)>,
}

/// Lowers the expressions of one file (a body's attributes, in the order
/// given), noting what lowering finds wrong whatever the variables'
/// values: calls to functions the table lacks (or any call without a
/// table), calls with a wrong argument count (without `...`), and
/// references to names that are not variables (worded as an evaluation
/// in which every variable is set reports them). Uses inside the
/// arguments of `try` and `can`, which catch errors, are left out. In
/// source order of each expression, expressions in the order given. All
/// are lowered before any is compiled ([`Lowered::compile`]), so that
/// subexpressions they repeat are computed once per evaluation of the
/// body (`vm::shared`, `vm::BodyEvaluation`).
pub fn lower_all_noting<'e, 'a: 'e>(
    exprs: impl ExactSizeIterator<Item = &'e ast::Expr<'a>>,
    interner: &Interner,
    env: &CompileEnv,
    lines: &Arc<SourceLines>,
) -> (Lowered, StaticProblems) {
    let globals: HashMap<&str, u32> = env.var_names.iter().enumerate().map(|(i, n)| (&**n, i as u32)).collect();
    let unknown_functions = RefCell::new(UnknownFunctions::take_for(env.funcs.as_ref()));
    let unknown_names = RefCell::new(ahash::AHashMap::new());
    let mut found = Vec::new();
    // Sized at once: a body may have a million expressions.
    let mut trees = Vec::with_capacity(exprs.len());
    trees.extend(exprs.map(|expr| {
        let mut l = Lowerer {
            interner,
            env,
            globals: &globals,
            scopes: Vec::new(),
            splats: HashMap::new(),
            splat_eaches: 0,
            n_locals: 0,
            depth: 0,
            lines,
            unknown_functions: &unknown_functions,
            unknown_names: &unknown_names,
            // The file's list, lent to each expression's lowerer in turn
            // (a list per expression would grow from empty each time).
            found: std::mem::take(&mut found),
            guarded: 0,
            iterator_hints: None,
        };
        let root = l.lower(expr);
        found = std::mem::take(&mut l.found);
        (root, l.n_locals, expr.span)
    }));
    if let Some(funcs) = &env.funcs {
        unknown_functions.into_inner().keep_for(funcs);
    }
    // (Shared within one file's folding, not kept after it.)
    vm::codegen::forget_folded_types();
    (Lowered { trees }, StaticProblems { list: found, var_names: env.var_names.clone() })
}

impl Lowered {
    /// Compiles the trees into
    /// `file`, one program each, in order.
    pub fn compile(self, file: &mut vm::codegen::FileCode, env: &CompileEnv, lines: &Arc<SourceLines>) -> Vec<Program> {
        let pure = |id: FuncId| env.funcs.as_deref().is_some_and(|t| t.signature(id).pure);
        let mut occurrences = vm::shared::Occurrences::default();
        for (root, ..) in &self.trees {
            occurrences.add(root, &pure);
        }
        file.share(occurrences);
        // Each tree is dropped once compiled: a large body's trees and its
        // programs are not all alive at once.
        let mut programs = Vec::with_capacity(self.trees.len());
        programs.extend(
            self.trees
                .into_iter()
                .map(|(root, n_locals, span)| file.compile(&root, span, n_locals, &env.var_names, &env.funcs, &env.filename, lines)),
        );
        file.end_sharing();
        programs
    }
}

/// What [`lower_all_noting`] found wrong, in its order. Most of it is
/// usually names that are not variables (a file compiled without
/// variables names thousands), whose details (with their "Did you mean"
/// among the variables) are worded only when the diagnostics are asked
/// for: few hosts ask.
#[derive(Clone, Debug, Default)]
pub struct StaticProblems {
    list: Vec<StaticProblem>,
    var_names: Arc<[Arc<str>]>,
}

#[derive(Clone, Debug)]
enum StaticProblem {
    Diagnostic(Diagnostic),
    /// "Unknown variable": the name and where it is.
    UnknownVariable(Arc<str>, Span),
}

impl StaticProblems {
    /// The diagnostics, in order.
    pub fn to_diagnostics(&self) -> Vec<Diagnostic> {
        // A name's suggestion is searched for once (a file repeats the
        // names it gets wrong, and each search measures every variable).
        let mut suggestions: HashMap<&str, Option<&str>> = HashMap::default();
        let names = std::cell::OnceCell::new();
        self.list
            .iter()
            .map(|p| match p {
                StaticProblem::Diagnostic(d) => d.clone(),
                StaticProblem::UnknownVariable(name, span) => {
                    let suggestion = *suggestions.entry(&**name).or_insert_with(|| {
                        names.get_or_init(|| vm::suggest::Names::new(self.var_names.iter().map(|n| &**n))).closest(name)
                    });
                    let detail = vm::suggest::unknown_variable_detail(name, suggestion);
                    Diagnostic::error("Unknown variable", detail, Some(*span))
                }
            })
            .collect()
    }
}

/// The "Call to unknown function" details of one table (the calling
/// context's), by function name: files tend to call the same missing
/// functions many times, and each detail measures the name against every
/// name of the table.
#[derive(Default)]
struct UnknownFunctions {
    /// The table's names, `try` and `can` included, once one is needed.
    names: Option<Vec<String>>,
    details: HashMap<String, String>,
}

thread_local! {
    /// The details of the table this thread compiled against last, kept
    /// from file to file (hosts compile many files against one table).
    /// The table is kept alive with them, so that no other table can take
    /// its address while they are kept.
    static LAST_UNKNOWN_FUNCTIONS: RefCell<Option<(Arc<dyn FunctionTable>, UnknownFunctions)>> = const { RefCell::new(None) };
}

/// Details kept at most, so that a long run of files calling ever new
/// missing functions keeps bounded memory.
const KEPT_UNKNOWN_FUNCTIONS: usize = 1024;

impl UnknownFunctions {
    /// The details kept for `funcs` (a table is immutable once shared), or
    /// none.
    fn take_for(funcs: Option<&Arc<dyn FunctionTable>>) -> UnknownFunctions {
        let Some(funcs) = funcs else { return UnknownFunctions::default() };
        LAST_UNKNOWN_FUNCTIONS
            .with_borrow_mut(|last| match last.take() {
                Some((table, kept)) if Arc::ptr_eq(&table, funcs) => Some(kept),
                _ => None,
            })
            .unwrap_or_default()
    }

    /// Keeps these details for the next file compiled against `funcs`.
    fn keep_for(mut self, funcs: &Arc<dyn FunctionTable>) {
        if self.details.is_empty() && self.names.is_none() {
            return;
        }
        if self.details.len() > KEPT_UNKNOWN_FUNCTIONS {
            self.details.clear();
        }
        LAST_UNKNOWN_FUNCTIONS.with_borrow_mut(|last| *last = Some((funcs.clone(), self)));
    }

    fn detail(&mut self, name: &str, funcs: &dyn FunctionTable) -> String {
        if let Some(detail) = self.details.get(name) {
            return detail.clone();
        }
        let names = self.names.get_or_insert_with(|| {
            let mut names: Vec<String> = funcs.names().into_iter().map(String::from).collect();
            if funcs.has_try_can() {
                names.extend(["try".to_string(), "can".to_string()]);
            }
            names
        });
        let detail = unknown_function_detail(name, names);
        self.details.insert(name.to_string(), detail.clone());
        detail
    }
}

struct Scope {
    key: Option<(Symbol, u32)>,
    val: (Symbol, u32),
}

struct Lowerer<'i, 'e> {
    interner: &'i Interner,
    env: &'e CompileEnv,
    globals: &'e HashMap<&'e str, u32>,
    scopes: Vec<Scope>,
    splats: HashMap<u32, u32>,
    /// How many splat `each` parts enclose the node being lowered.
    splat_eaches: u32,
    n_locals: u32,
    depth: u32,
    lines: &'e SourceLines,
    /// The details of calls to unknown functions, shared by the file's
    /// expressions.
    unknown_functions: &'e RefCell<UnknownFunctions>,
    /// The text of each name found not to be a variable, shared by the
    /// file's expressions: a file evaluated without variables names the
    /// same few roots (`var`, `local`, ...) thousands of times, and each
    /// occurrence would otherwise allocate its own copy.
    unknown_names: &'e RefCell<ahash::AHashMap<Symbol, Arc<str>>>,
    /// Static problems found (see [`lower_all_noting`]).
    found: Vec<StaticProblem>,
    /// How many `try`/`can` argument lists enclose the node.
    guarded: u32,
    /// [`Lowerer::iterator_suggestion`]'s answers in the current scopes
    /// (cleared when a scope opens or closes): an expression may name the
    /// same variable many times inside hundreds of nested `for`s.
    iterator_hints: Option<ahash::AHashMap<Symbol, Option<&'i str>>>,
}

/// The value of a literal or a quoted literal (the leaves of an
/// [`ast::LiteralTuple`] or [`ast::LiteralObject`]; nothing else is asked),
/// a string shared with an equal one of `recent` where there is one.
fn leaf_value<'t>(e: &ast::Expr<'t>, recent: &mut RecentStrings<'t>) -> Value {
    match e.kind {
        ExprKind::Quoted(text) | ExprKind::Literal(Literal::String(text)) => recent.string(text),
        ExprKind::Literal(lit) => literal_value(&lit),
        _ => Value::dynamic_unknown(),
    }
}

/// The value of a [`ast::LiteralObject`] (which fits the size budget).
fn literal_object_value<'t>(o: &ast::LiteralObject<'t>, recent: &mut RecentStrings<'t>) -> Value {
    vm::codegen::constant_object(o.entries().map(|e| (e.key.text(), leaf_value(&e.value, recent))), o.len())
}

/// The short strings of one literal run made last, by text: equal ones
/// share one value, so a list that repeats a few names (`["a", "b", "a",
/// ...]`) costs a slot per element, not a slot and a string. A small
/// table with one place per text, each string made replacing the one in
/// its place; a run that has not repeated any of its last strings stops
/// looking (a list of distinct addresses would pay for nothing), and a
/// short run does not look at all.
struct RecentStrings<'t> {
    /// `RECENT_STRINGS` places, or none for a run that does not look.
    places: Vec<Option<(&'t str, Value)>>,
    /// Strings made since one was last shared.
    misses: u32,
}

const RECENT_STRINGS: usize = 64;
const _: () = assert!(RECENT_STRINGS.is_power_of_two());
/// Longer strings are made each time (rarely repeated; and a repeated one
/// costs little beside its text).
const RECENT_STRING_MAX: usize = 32;
/// Strings made in a row, none shared, after which a run stops looking
/// (two of its texts in one place of the table count as not shared).
const RECENT_MISSES_MAX: u32 = 256;
/// Runs of fewer items do not look.
const RECENT_RUN_MIN: usize = 16;

impl<'t> RecentStrings<'t> {
    /// For a literal run of `len` items.
    fn for_run(len: usize) -> RecentStrings<'t> {
        let places = if len >= RECENT_RUN_MIN { vec![None; RECENT_STRINGS] } else { Vec::new() };
        RecentStrings { places, misses: 0 }
    }

    #[inline]
    fn string(&mut self, text: &'t str) -> Value {
        let b = text.as_bytes();
        if b.is_empty() || b.len() > RECENT_STRING_MAX || self.misses >= RECENT_MISSES_MAX {
            return Value::string(text);
        }
        // Its length and three of its bytes: the texts of one list differ
        // in those more often than not.
        let key = (b.len() as u32) | u32::from(b[0]) << 8 | u32::from(b[b.len() / 2]) << 16 | u32::from(b[b.len() - 1]) << 24;
        // (No place at all in a run that does not look.)
        let Some(place) = self.places.get_mut((key.wrapping_mul(0x9E37_79B1) >> (32 - RECENT_STRINGS.trailing_zeros())) as usize) else {
            return Value::string(text);
        };
        match place {
            Some((t, v)) if *t == text => {
                self.misses = 0;
                v.clone()
            }
            _ => {
                self.misses += 1;
                let v = Value::string(text);
                *place = Some((text, v.clone()));
                v
            }
        }
    }
}

fn literal_value(lit: &Literal<'_>) -> Value {
    match *lit {
        Literal::Null => Value::null(runtime::Type::Dynamic),
        Literal::Bool(b) => Value::bool(b),
        Literal::Number(text) => match Number::parse(text) {
            Ok(n) => Value::number(n),
            Err(_) => Value::dynamic_unknown(),
        },
        Literal::String(s) => Value::string(s),
        Literal::Dynamic => Value::dynamic_unknown(),
    }
}

/// hcl's detail of "Call to unknown function" for `name`, given the names
/// of the calling context's functions (`names`, empty in a child context).
///
/// A namespaced name (`provider::ns::f`) is judged by its namespace (up to
/// the last `::`): "There are no functions in namespace" when no name in
/// `names` starts with it, else "There is no function named" the last part
/// "in namespace", with a suggestion chosen as hcl chooses it: among the
/// full names of that namespace, one within edit distance 2 of the last
/// part alone (so only short names ever qualify), written after the
/// namespace, unquoted (`Did you mean a::a::b?`). Where several qualify,
/// hcl's choice depends on Go's map order; here it is the byte-wise
/// smallest, as for names without a namespace.
pub(crate) fn unknown_function_detail(name: &str, names: &[String]) -> String {
    if let Some(sep) = name.rfind("::") {
        let (namespace, short) = name.split_at(sep + 2);
        let mut members = names.iter().map(String::as_str).filter(|n| n.starts_with(namespace)).peekable();
        if members.peek().is_none() {
            return format!("There are no functions in namespace {}.", go_quote(namespace));
        }
        let suggestion = match vm::suggest::closest(short, members) {
            Some(s) => format!(" Did you mean {namespace}{s}?"),
            None => String::new(),
        };
        return format!("There is no function named {} in namespace {namespace}.{suggestion}", go_quote(short));
    }
    match vm::suggest::closest(name, names.iter().map(String::as_str)) {
        Some(s) => format!("There is no function named {}. Did you mean {}?", go_quote(name), go_quote(s)),
        None => format!("There is no function named {}.", go_quote(name)),
    }
}

fn fail(summary: &'static str, detail: String, subject: Span) -> Node {
    Node::Fail(Box::new(Diagnostic::error(summary, detail, Some(subject))))
}

impl<'i, 'e> Lowerer<'i, 'e> {
    fn alloc_local(&mut self) -> u32 {
        self.n_locals += 1;
        self.n_locals - 1
    }

    fn name(&self, s: Symbol) -> &'i str {
        self.interner.resolve(s)
    }

    /// The binding of a root name: a local, a global, or `None`.
    fn resolve(&mut self, name: Symbol, span: Span) -> Option<Node> {
        for s in self.scopes.iter().rev() {
            if s.val.0 == name {
                return Some(Node::Local(s.val.1));
            }
            if let Some((k, slot)) = s.key {
                if k == name {
                    return Some(Node::Local(slot));
                }
            }
        }
        let slot = *self.globals.get(self.name(name))?;
        let hint = self.iterator_suggestion(name);
        Some(Node::Global(slot, span, hint.map(Arc::from)))
    }

    /// The `for` iterator an "Unknown variable" diagnostic for `name`
    /// suggests (once per name while the scopes stay the same, see
    /// [`Lowerer::iterator_hints`]).
    fn iterator_suggestion(&mut self, name: Symbol) -> Option<&'i str> {
        if self.scopes.is_empty() {
            return None;
        }
        if let Some(hint) = self.iterator_hints.as_ref().and_then(|h| h.get(&name)) {
            return *hint;
        }
        let hint = self.search_iterators(name);
        self.iterator_hints.get_or_insert_with(Default::default).insert(name, hint);
        hint
    }

    /// hcl's search for an iterator to suggest: it looks in the innermost
    /// context first, and a context with a name within reach ends the
    /// search.
    fn search_iterators(&self, name: Symbol) -> Option<&'i str> {
        let text = self.name(name);
        self.scopes.iter().rev().find_map(|s| {
            let mut names = vec![self.name(s.val.0)];
            if let Some((k, _)) = s.key {
                names.push(self.name(k));
            }
            vm::suggest::closest(text, names)
        })
    }

    /// `name` names no variable: the node that fails as the reference
    /// does, its problem noted for static analysis (unless guarded). An
    /// iterator within reach is suggested now; otherwise the suggestion
    /// comes from the variables of the evaluation that reports it.
    fn unknown_variable(&mut self, name: Symbol, span: Span) -> Node {
        let text = self.name(name);
        if let Some(s) = self.iterator_suggestion(name) {
            return self.noted(fail("Unknown variable", vm::suggest::unknown_variable_detail(text, Some(s)), span));
        }
        if self.env.no_variables && self.scopes.is_empty() {
            return self.noted(fail("Variables not allowed", "Variables may not be used here.".into(), span));
        }
        let name = self.unknown_name(name);
        if self.guarded == 0 {
            self.found.push(StaticProblem::UnknownVariable(name.clone(), span));
        }
        Node::UnknownVariable(name, span)
    }

    /// The shared text of `name`, a name that is not a variable.
    fn unknown_name(&self, name: Symbol) -> Arc<str> {
        self.unknown_names.borrow_mut().entry(name).or_insert_with(|| Arc::from(self.name(name))).clone()
    }

    fn steps(&self, steps: &[Traverser<'_>]) -> Box<[Step]> {
        steps
            .iter()
            .map(|s| match s {
                Traverser::Attr { name, span } => Step::Attr(Arc::from(self.name(name.name)), *span, AttrHint::default()),
                Traverser::Index { key, span } => Step::Index(literal_value(key), *span),
            })
            .collect()
    }

    fn lower(&mut self, e: &ast::Expr<'_>) -> Node {
        if self.depth >= MAX_DEPTH {
            return fail("Expression too deeply nested", "This expression is nested too deeply to evaluate.".into(), e.span);
        }
        self.depth += 1;
        let n = self.lower_inner(e);
        self.depth -= 1;
        n
    }

    fn lower_inner(&mut self, e: &ast::Expr<'_>) -> Node {
        match e.kind {
            ExprKind::Literal(lit) => Node::Const(literal_value(&lit)),
            ExprKind::Quoted(text) => Node::Const(Value::string(text)),
            ExprKind::Name(name) => match self.resolve(name, e.span) {
                Some(n) => n,
                None => self.unknown_variable(name, e.span),
            },
            ExprKind::ScopeTraversal(t) => {
                let root = match self.resolve(t.root.name, t.root.span) {
                    Some(n) => n,
                    None => return self.unknown_variable(t.root.name, t.root.span),
                };
                if t.steps.is_empty() {
                    root
                } else {
                    Node::Traverse(Box::new(root), self.steps(t.steps))
                }
            }
            ExprKind::RelativeTraversal(t) => {
                let src = self.lower(t.source);
                fold(Node::Traverse(Box::new(src), self.steps(t.steps)))
            }
            ExprKind::Call(c) => self.call(c, e.span),
            ExprKind::Conditional(c) => {
                let n = Node::Cond(Box::new(CondNode {
                    condition: self.lower(c.condition),
                    true_result: self.lower(c.true_result),
                    false_result: self.lower(c.false_result),
                    condition_span: c.condition.span,
                    true_span: c.true_result.span,
                    false_span: c.false_result.span,
                }));
                fold(n)
            }
            ExprKind::Index(ix) => fold(Node::Index(Box::new(IndexNode {
                collection: self.lower(ix.collection),
                key: self.lower(ix.key),
                bracket: ix.bracket_span,
            }))),
            ExprKind::Tuple(items) => {
                let nodes: Box<[Node]> = items.iter().map(|i| self.lower(i)).collect();
                fold(Node::Tuple(nodes))
            }
            // Elements (or an object element's items) past the depth limit
            // fail each at its place, as a general tuple's do. (A tuple of
            // leaves alone takes this path one level early, to the same
            // result: whether it holds an object is not known unscanned.)
            ExprKind::LiteralTuple(t) if self.depth + 1 >= MAX_DEPTH => {
                fold(Node::Tuple(t.elements().map(|e| self.lower(&e.expr())).collect()))
            }
            ExprKind::LiteralTuple(t) => {
                let mut recent = RecentStrings::for_run(t.len());
                let mut value = |e| match e {
                    ast::LiteralElement::Leaf(leaf) => leaf_value(&leaf, &mut recent),
                    ast::LiteralElement::Object(o, _) => literal_object_value(&o, &mut recent),
                };
                if !vm::codegen::fits_budget(t.len()) {
                    // Left to code generation, as a tuple of constants too
                    // large to fold is.
                    let mut nodes = Vec::with_capacity(t.len());
                    nodes.extend(t.elements().map(|e| Node::Const(value(e))));
                    return Node::Tuple(nodes.into());
                }
                // Straight to the values (as `fold` builds a tuple of
                // constants): a node per element would cost more than the
                // value does.
                let mut values = Vec::with_capacity(t.len());
                values.extend(t.elements().map(value));
                Node::Const(vm::ops::make_tuple(values))
            }
            ExprKind::LiteralObject(o) => self.literal_object(o),
            ExprKind::Object(items) => {
                let mut out = Vec::with_capacity(items.len());
                for item in items {
                    let key = self.object_key(item);
                    let value = self.lower(item.value);
                    out.push(ObjectItem { key, value, value_span: item.value.span });
                }
                fold(Node::Object(out.into()))
            }
            ExprKind::For(f) => self.for_expr(f),
            ExprKind::Splat(s) => {
                let source = self.lower(s.source);
                let slot = self.alloc_local();
                self.splats.insert(s.item, slot);
                self.splat_eaches += 1;
                let each = self.lower(s.each);
                self.splat_eaches -= 1;
                Node::Splat(Box::new(SplatNode { source, each, slot, source_span: s.source.span }))
            }
            ExprKind::AnonSymbol(id) => match self.splats.get(&id) {
                Some(&slot) => Node::Local(slot),
                None => Node::Const(Value::dynamic_unknown()),
            },
            ExprKind::Binary(b) => {
                let op = match b.op {
                    BinaryOp::Or => BinOp::Or,
                    BinaryOp::And => BinOp::And,
                    BinaryOp::Equal => BinOp::Eq,
                    BinaryOp::NotEqual => BinOp::NotEq,
                    BinaryOp::GreaterThan => BinOp::Gt,
                    BinaryOp::GreaterThanOrEqual => BinOp::Ge,
                    BinaryOp::LessThan => BinOp::Lt,
                    BinaryOp::LessThanOrEqual => BinOp::Le,
                    BinaryOp::Add => BinOp::Add,
                    BinaryOp::Subtract => BinOp::Sub,
                    BinaryOp::Multiply => BinOp::Mul,
                    BinaryOp::Divide => BinOp::Div,
                    BinaryOp::Modulo => BinOp::Mod,
                };
                fold(Node::Binary(Box::new(BinaryNode {
                    op,
                    lhs: self.lower(b.lhs),
                    rhs: self.lower(b.rhs),
                    lhs_span: b.lhs.span,
                    rhs_span: b.rhs.span,
                    span: e.span,
                    short_circuit: self.env.short_circuit,
                })))
            }
            ExprKind::Unary(u) => {
                let op = match u.op {
                    UnaryOp::Negate => UnOp::Neg,
                    UnaryOp::Not => UnOp::Not,
                };
                fold(Node::Unary(Box::new(UnaryNode { op, operand: self.lower(u.operand), operand_span: u.operand.span, span: e.span })))
            }
            // A quoted string without interpolations is its one literal: no
            // template to fold, so no second copy of it.
            ExprKind::Template(parts) => {
                let parts: Box<[TemplatePart]> = parts.iter().map(|p| TemplatePart { node: self.lower(p), span: p.span }).collect();
                // A quoted string without interpolations is its one
                // literal: no template to fold, so no second copy of it.
                if let [TemplatePart { node: Node::Const(Value::String(_)), .. }] = &*parts {
                    return parts.into_vec().swap_remove(0).node;
                }
                fold(Node::Template(parts, e.span))
            }
            ExprKind::TemplateJoin(inner) => Node::TemplateJoin(Box::new(self.lower(inner)), inner.span),
            ExprKind::TemplateWrap(inner) | ExprKind::Parens(inner) => self.lower(inner),
        }
    }

    /// A [`ast::LiteralObject`]: straight to its value, as folding builds
    /// an object of constants (a node per item would cost more than the
    /// value does); item by item as [`ExprKind::Object`] is lowered where
    /// that is too deep or too large to fold.
    fn literal_object(&mut self, o: &ast::LiteralObject<'_>) -> Node {
        let too_deep = self.depth >= MAX_DEPTH;
        if !too_deep && vm::codegen::fits_budget(o.len()) {
            return Node::Const(literal_object_value(o, &mut RecentStrings::for_run(o.len())));
        }
        let mut out = Vec::with_capacity(o.len());
        let mut recent = RecentStrings::for_run(o.len());
        for entry in o.entries() {
            let key = match entry.key {
                ast::LiteralKey::Name(name, _) => ObjectKey::Name(Value::string(name)),
                // A quoted key is an expression: one more level.
                ast::LiteralKey::Quoted(text, span) if too_deep => {
                    ObjectKey::Expr(self.lower(&ast::Expr::new(ExprKind::Quoted(text), span)), span)
                }
                ast::LiteralKey::Quoted(text, span) => ObjectKey::Expr(Node::Const(Value::string(text)), span),
            };
            let node = if too_deep { self.lower(&entry.value) } else { Node::Const(leaf_value(&entry.value, &mut recent)) };
            out.push(ObjectItem { key, value: node, value_span: entry.value.span });
        }
        fold(Node::Object(out.into()))
    }

    fn object_key(&mut self, item: &ast::ObjectItem<'_>) -> ObjectKey {
        if !item.force_non_literal {
            if let ExprKind::ScopeTraversal(t) = item.key.kind {
                if !t.steps.is_empty() {
                    let n = fail(
                        "Ambiguous attribute key",
                        "If this expression is intended to be a reference, wrap it in parentheses. If it's instead intended as a literal name containing periods, wrap it in quotes to create a string literal.".into(),
                        item.key.span,
                    );
                    return ObjectKey::Expr(n, item.key.span);
                }
            }
        }
        match item.literal_key() {
            Some(word) => ObjectKey::Name(Value::string(word.name(self.interner))),
            None => ObjectKey::Expr(self.lower(item.key), item.key.span),
        }
    }

    fn for_expr(&mut self, f: &ast::ForExpr<'_>) -> Node {
        let collection = self.lower(f.collection);
        let key_slot = f.key_var.map(|_| self.alloc_local());
        let val_slot = self.alloc_local();
        self.scopes.push(Scope { key: f.key_var.map(|k| (k.name, key_slot.unwrap_or(0))), val: (f.val_var.name, val_slot) });
        self.iterator_hints = None;
        let key = f.key_expr.map(|k| (self.lower(k), k.span));
        let value = self.lower(f.val_expr);
        let cond = f.cond_expr.map(|c| (self.lower(c), c.span));
        self.scopes.pop();
        self.iterator_hints = None;
        Node::For(Box::new(ForNode {
            key_slot,
            val_slot,
            collection,
            collection_span: f.collection.span,
            key,
            value,
            cond,
            group: f.group,
        }))
    }

    /// Notes a static problem (see [`lower_all_noting`]) and returns its
    /// node.
    fn noted(&mut self, n: Node) -> Node {
        if self.guarded == 0 {
            match &n {
                Node::Fail(d) => self.found.push(StaticProblem::Diagnostic((**d).clone())),
                Node::FailByContext(ds) => self.found.push(StaticProblem::Diagnostic(ds[0].clone())),
                _ => {}
            }
        }
        n
    }

    fn call(&mut self, c: &ast::Call<'_>, span: Span) -> Node {
        let n = self.call_node(c, span);
        if let Node::Call(call) = &n {
            if !call.expand_final && self.guarded == 0 {
                if let Some(funcs) = &self.env.funcs {
                    if let Err(e) = funcs.signature(call.func).check_arity(&call.spans.name, call.args.len()) {
                        let subject = call.spans.subject(e.site, |i| call.args.get(i).map_or(call.spans.close_paren, |a| a.start));
                        self.found.push(StaticProblem::Diagnostic(Diagnostic::error(e.summary, e.detail, Some(subject))));
                    }
                }
            }
        }
        if let Node::Try(t) | Node::Can(t) = &n {
            if let (Some(d), 0) = (&t.arity_error, self.guarded) {
                self.found.push(StaticProblem::Diagnostic((**d).clone()));
            }
        }
        n
    }

    fn call_node(&mut self, c: &ast::Call<'_>, span: Span) -> Node {
        let name = self.name(c.name.name);
        // Borrowed: the table is shared by every thread compiling, and
        // counting it per call made them contend for its count.
        let env = self.env;
        let Some(funcs) = env.funcs.as_deref() else {
            return self.noted(fail("Function calls not allowed", "Functions may not be called here.".into(), span));
        };
        let start = Span::new(c.name.span.start, c.open_paren_span.end);
        if (name == "try" || name == "can") && funcs.has_try_can() {
            return self.try_can(c, name, span, start);
        }
        let Some(id) = funcs.lookup(name) else {
            // hcl looks for suggestions among the functions of the calling
            // context only. The body of a `for` runs in a child context,
            // which has none; so does a splat's `each` while the splat
            // probes its result type.
            let in_child = unknown_function_detail(name, &[]);
            if !self.scopes.is_empty() {
                return self.noted(fail("Call to unknown function", in_child, c.name.span));
            }
            let here = self.unknown_functions.borrow_mut().detail(name, funcs);
            if self.splat_eaches > 0 && here != in_child {
                let d = |detail| Diagnostic::error("Call to unknown function", detail, Some(c.name.span));
                return self.noted(Node::FailByContext(Box::new([d(here), d(in_child)])));
            }
            return self.noted(fail("Call to unknown function", here, c.name.span));
        };
        let sig = funcs.signature(id);
        let expanded_from = if c.expand_final { c.args.len().saturating_sub(1) } else { c.args.len() };
        let args: Box<[CallArg]> = c
            .args
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let param = sig.params.get(i).or(sig.var_param.as_ref());
                if let (Some(p), true) = (param, i < expanded_from) {
                    if p.type_constraint {
                        return CallArg { node: self.type_constraint_arg(a), start: start_span(a), span: a.span, preconverted: true };
                    }
                }
                let mut node = self.lower(a);
                let mut preconverted = false;
                if let (Node::Const(v), Some(p), true) = (&node, param, i < expanded_from) {
                    if let Some(c) = preconvert(v, &p.ty) {
                        node = Node::Const(c);
                        preconverted = true;
                    }
                }
                CallArg { node, start: start_span(a), span: a.span, preconverted }
            })
            .collect();
        Node::Call(Box::new(CallNode {
            func: id,
            spans: CallSpans { name: Arc::from(name), span, start, close_paren: c.close_paren_span },
            args,
            expand_final: c.expand_final,
        }))
    }

    /// A type constraint argument ([`runtime::func::Param::type_constraint`]):
    /// a null of the type, or the reader's diagnostics when it fails (hcl
    /// goes on evaluating the other arguments, then reports them all).
    fn type_constraint_arg(&mut self, a: &ast::Expr<'_>) -> Node {
        let (ty, diags) = crate::typeexpr::type_constraint_of(a, self.interner, &self.lines.src, &self.env.filename);
        if !diags.has_errors() {
            return Node::Const(Value::null(ty));
        }
        if self.guarded == 0 {
            self.found.extend(diags.iter().cloned().map(StaticProblem::Diagnostic));
        }
        let mut fails: Vec<Node> = diags.into_iter().map(|d| Node::Fail(Box::new(d))).collect();
        if fails.len() == 1 {
            fails.pop().unwrap_or(Node::Const(Value::dynamic_unknown()))
        } else {
            Node::Tuple(fails.into())
        }
    }

    fn try_can(&mut self, c: &ast::Call<'_>, name: &str, span: Span, start: Span) -> Node {
        let mut args = Vec::with_capacity(c.args.len());
        self.guarded += 1;
        for a in c.args {
            args.push(TryArg { node: self.lower(a), start: start_span(a), span: a.span });
        }
        self.guarded -= 1;
        let is_can = name == "can";
        let arity_error = if c.expand_final {
            None
        } else if is_can && c.args.is_empty() {
            Some(Box::new(Diagnostic::error(
                "Not enough function arguments",
                "Function \"can\" expects 1 argument(s). Missing value for \"expression\".",
                Some(c.close_paren_span),
            )))
        } else if is_can && c.args.len() > 1 {
            Some(Box::new(Diagnostic::error(
                "Too many function arguments",
                "Function \"can\" expects only 1 argument(s).",
                Some(start_span(&c.args[1])),
            )))
        } else if !is_can && c.args.is_empty() {
            Some(Box::new(Diagnostic::error(
                "Error in function call",
                "Call to function \"try\" failed: at least one argument is required.",
                Some(start),
            )))
        } else {
            None
        };
        let node = Box::new(TryNode {
            args: args.into(),
            spans: CallSpans { name: Arc::from(name), span, start, close_paren: c.close_paren_span },
            arity_error,
            expand_final: c.expand_final,
        });
        if is_can {
            Node::Can(node)
        } else {
            Node::Try(node)
        }
    }
}

/// A constant argument converted to its parameter type ahead of time,
/// when that succeeds and converting the result again changes nothing
/// (so skipping the conversion at run time is exact).
fn preconvert(v: &Value, ty: &runtime::Type) -> Option<Value> {
    if ty.is_dynamic() {
        return None;
    }
    let once = runtime::convert(v, ty).ok()?;
    let twice = runtime::convert(&once, ty).ok()?;
    (twice.raw_equals(&once) && twice.ty() == once.ty()).then_some(once)
}

fn is_const(n: &Node) -> bool {
    matches!(n, Node::Const(_))
}

/// Replaces a node whose operands are all constants by its value, when
/// evaluating it succeeds without any diagnostic.
fn fold(n: Node) -> Node {
    let foldable = match &n {
        Node::Traverse(src, _) => is_const(src),
        Node::Index(ix) => is_const(&ix.collection) && is_const(&ix.key),
        Node::Tuple(items) => items.iter().all(is_const),
        Node::Object(items) => items.iter().all(|i| {
            is_const(&i.value)
                && match &i.key {
                    ObjectKey::Name(_) => true,
                    ObjectKey::Expr(k, _) => is_const(k),
                }
        }),
        Node::Template(parts, _) => parts.iter().all(|p| is_const(&p.node)),
        Node::Cond(c) => is_const(&c.condition) && is_const(&c.true_result) && is_const(&c.false_result),
        Node::Binary(b) => is_const(&b.lhs) && is_const(&b.rhs),
        Node::Unary(u) => is_const(&u.operand),
        _ => false,
    };
    if !foldable {
        return n;
    }
    match vm::codegen::fold(n) {
        Ok(v) => Node::Const(v),
        Err(n) => n,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where a string value's text is: equal for two values that share one.
    fn text_at(v: &Value) -> *const u8 {
        v.as_str().map(str::as_ptr).unwrap_or_else(|| panic!("not a string: {}", v.go_string()))
    }

    /// A long literal run shares the strings it repeats, each value its
    /// own text; a run of distinct strings stops looking; a short run
    /// never looks.
    #[test]
    fn literal_runs_share_the_strings_they_repeat() {
        let texts: Vec<String> = (0..40).map(|i| format!("n{}", i % 3)).collect();
        let mut recent = RecentStrings::for_run(texts.len());
        let values: Vec<Value> = texts.iter().map(|t| recent.string(t)).collect();
        for (t, v) in texts.iter().zip(&values) {
            assert_eq!(v.as_str(), Some(t.as_str()));
        }
        assert_eq!(text_at(&values[0]), text_at(&values[3]));
        assert_eq!(text_at(&values[2]), text_at(&values[38]));
        assert_ne!(text_at(&values[0]), text_at(&values[1]));

        let distinct: Vec<String> = (0..600).map(|i| format!("d{i}")).collect();
        let mut recent = RecentStrings::for_run(distinct.len());
        let values: Vec<Value> = distinct.iter().map(|t| recent.string(t)).collect();
        assert_eq!(values[599].as_str(), Some("d599"));
        assert_eq!(recent.misses, RECENT_MISSES_MAX);
        assert_ne!(text_at(&recent.string(&distinct[599])), text_at(&values[599]));

        let mut short = RecentStrings::for_run(RECENT_RUN_MIN - 1);
        assert_ne!(text_at(&short.string("x")), text_at(&short.string("x")));
    }
}
