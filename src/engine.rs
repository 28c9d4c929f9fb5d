//! The evaluation facade: compile parsed sources against a variable set and
//! a function table, evaluate them, and plug that into the conformance
//! runner ([`VmEvaluator`]).

use crate::conformance::{bind_values, Case, Evaluator, FuncTable, Parsed, ResultWriter, Tree};
use compiler::analysis::{render_traversal, variables};
use compiler::ast;
use compiler::lower::{compile_all_into, compile_with_lines, source_lines, CompileEnv};
use compiler::Interner;
use runtime::diag::DiagnosticsExt;
use runtime::func::{FunctionTable, Functions};
use runtime::{Diagnostic, Value};
use std::sync::{Arc, OnceLock};
use vm::{evaluate, Program, Scratch, Vars};

/// The names of the oracle's "stdlib" table (`hcl-oracle --list-funcs`).
pub const STDLIB_NAMES: &[&str] = &[
    "abs", "can", "ceil", "chomp", "chunklist", "coalesce", "coalescelist", "compact", "concat", "contains",
    "csvdecode", "distinct", "element", "flatten", "floor", "format", "formatdate", "formatlist", "indent",
    "join", "jsondecode", "jsonencode", "keys", "length", "log", "lookup", "lower", "max", "merge", "min",
    "parseint", "pow", "range", "regex", "regexall", "regexreplace", "replace", "reverse", "setintersection",
    "setproduct", "setsubtract", "setsymmetricdifference", "setunion", "signum", "slice", "sort", "split",
    "substr", "timeadd", "title", "tobool", "tolist", "tomap", "tonumber", "toset", "tostring", "trim",
    "trimprefix", "trimspace", "trimsuffix", "try", "upper", "values", "zipmap",
];

/// The table behind `"funcs": "stdlib"`: the runtime's standard library
/// plus `try` and `can`.
pub fn stdlib_table() -> Arc<dyn FunctionTable> {
    static T: OnceLock<Arc<dyn FunctionTable>> = OnceLock::new();
    T.get_or_init(|| Arc::new(Functions::stdlib())).clone()
}

/// An empty table (every call is "Call to unknown function").
pub fn empty_table() -> Arc<dyn FunctionTable> {
    static T: OnceLock<Arc<dyn FunctionTable>> = OnceLock::new();
    T.get_or_init(|| Arc::new(Functions::empty())).clone()
}

/// The function table a case names.
pub fn table_for(f: FuncTable) -> Option<Arc<dyn FunctionTable>> {
    match f {
        FuncTable::Stdlib => Some(stdlib_table()),
        FuncTable::None => Some(empty_table()),
        FuncTable::Nil => None,
    }
}

/// Compiles one expression or template (`kind`).
pub fn compile(expr: &ast::Expr<'_>, src: &[u8], kind: SourceKind, interner: &Interner, env: &CompileEnv) -> Program {
    compile_with_lines(expr, interner, env, Arc::new(source_lines(src, kind.lex_mode())))
}

/// One attribute of a body, compiled, with its `Variables()` rendered.
pub struct CompiledAttr {
    pub name: String,
    pub program: Program,
    pub vars: Vec<String>,
}

/// A body compiled attribute by attribute, nested blocks in order.
pub struct CompiledBody {
    pub attrs: Vec<CompiledAttr>,
    pub blocks: Vec<CompiledBlock>,
}

pub struct CompiledBlock {
    pub block_type: String,
    pub labels: Vec<String>,
    pub body: CompiledBody,
}

/// Compiles every attribute of `body` and its nested blocks. Attributes
/// are taken in source order, as the oracle lists them.
pub fn compile_body(body: &ast::Body<'_>, src: &[u8], interner: &Interner, env: &CompileEnv) -> CompiledBody {
    let lines = Arc::new(source_lines(src, compiler::lexer::LexMode::Normal));
    // One chunk of bytecode for the whole file, sealed when `file` drops.
    let mut file = vm::codegen::FileCode::new();
    let exprs = body.all_attribute_exprs();
    let mut programs = compile_all_into(&mut file, &exprs, interner, env, &lines).into_iter();
    compile_body_lines(&mut programs, body, interner)
}

/// The compiled attributes (in source order) and nested blocks of `body`,
/// taking the attributes' programs from `programs` in the order of
/// [`ast::Body::all_attribute_exprs`].
fn compile_body_lines(programs: &mut impl Iterator<Item = Program>, body: &ast::Body<'_>, interner: &Interner) -> CompiledBody {
    let attrs = body
        .attributes_in_order()
        .into_iter()
        .filter_map(|a| {
            Some(CompiledAttr {
                name: interner.resolve(a.name.name).to_string(),
                program: programs.next()?,
                vars: variables(a.expr).iter().map(|t| render_traversal(t, interner)).collect(),
            })
        })
        .collect();
    let blocks = body
        .blocks
        .iter()
        .map(|b| CompiledBlock {
            block_type: interner.resolve(b.block_type.name).to_string(),
            labels: b.labels.iter().map(|l| l.to_string()).collect(),
            body: compile_body_lines(programs, &b.body, interner),
        })
        .collect();
    CompiledBody { attrs, blocks }
}

impl CompiledBody {
    /// Every attribute's program: attributes in source order, then each
    /// block's, depth first (the order [`write_body_results`] consumes).
    pub fn programs(&self) -> Vec<&Program> {
        let mut out = Vec::new();
        self.collect(&mut out);
        out
    }

    /// The attribute names its programs' steps look up (they share one
    /// chunk: see `vm::Chunk::attr_names`).
    pub fn attr_names(&self) -> &runtime::AttrNames {
        static NONE: std::sync::OnceLock<runtime::AttrNames> = std::sync::OnceLock::new();
        match self.programs().first() {
            Some(p) => p.chunk().attr_names(),
            None => NONE.get_or_init(runtime::AttrNames::new),
        }
    }

    /// The programs of [`CompiledBody::programs`], owned.
    pub fn into_programs(self) -> Vec<Program> {
        let mut out = Vec::new();
        self.collect_owned(&mut out);
        out
    }

    fn collect_owned(self, out: &mut Vec<Program>) {
        out.extend(self.attrs.into_iter().map(|a| a.program));
        for b in self.blocks {
            b.body.collect_owned(out);
        }
    }

    fn collect<'a>(&'a self, out: &mut Vec<&'a Program>) {
        out.extend(self.attrs.iter().map(|a| &a.program));
        for b in &self.blocks {
            b.body.collect(out);
        }
    }
}

/// Writes BODY from results computed earlier, one per attribute in
/// [`CompiledBody::programs`] order.
pub fn write_body_results<'r>(out: &mut ResultWriter<'_>, body: &CompiledBody, results: &mut impl Iterator<Item = &'r (Value, Vec<Diagnostic>)>) {
    write_body_with(out, body, &mut |_, out, vars| {
        let (v, d) = results.next().map(|(v, d)| (v.clone(), d.as_slice())).unwrap_or((Value::dynamic_unknown(), &[]));
        write_value_result(out, &v, d, None);
        out.raw(",\"vars\":");
        write_vars(out, vars);
    });
}

fn write_vars(out: &mut ResultWriter<'_>, vars: &[String]) {
    out.raw("[");
    for (j, t) in vars.iter().enumerate() {
        if j > 0 {
            out.raw(",");
        }
        out.string(t);
    }
    out.raw("]");
}

/// The BODY skeleton; `attr` writes one attribute's fields.
fn write_body_with(out: &mut ResultWriter<'_>, body: &CompiledBody, attr: &mut dyn FnMut(&Program, &mut ResultWriter<'_>, &[String])) {
    out.raw("{\"attrs\":{");
    for (i, a) in body.attrs.iter().enumerate() {
        if i > 0 {
            out.raw(",");
        }
        out.string(&a.name);
        out.raw(":{");
        attr(&a.program, out, &a.vars);
        out.raw("}");
    }
    out.raw("},\"blocks\":[");
    for (i, b) in body.blocks.iter().enumerate() {
        if i > 0 {
            out.raw(",");
        }
        out.raw("{\"type\":");
        out.string(&b.block_type);
        out.raw(",\"labels\":[");
        for (j, l) in b.labels.iter().enumerate() {
            if j > 0 {
                out.raw(",");
            }
            out.string(l);
        }
        out.raw("],\"body\":");
        write_body_with(out, &b.body, attr);
        out.raw("}");
    }
    out.raw("]}");
}

/// The conformance evaluator backed by the compiler and VM.
pub struct VmEvaluator;

pub fn write_value_result(out: &mut ResultWriter<'_>, v: &Value, diags: &[Diagnostic], phase: Option<&str>) {
    if diags.has_errors() {
        return write_failure(out, diags, phase);
    }
    if runtime::json::encoding_exceeds(v, runtime::json::MAX_VALUE_TEXT) {
        let detail = format!("the value's JSON text would be over {} MiB", runtime::json::MAX_VALUE_TEXT >> 20);
        return write_failure(out, &[Diagnostic::error("Unprintable result", detail, None)], phase);
    }
    // Written in place; a number too long to print takes the text back.
    let written = out.attempt(|buf| {
        buf.push_str("\"ok\":true,");
        runtime::json::write_typed_value(buf, v)
    });
    match written {
        Ok(()) if diags.is_empty() => {}
        Ok(()) => {
            out.raw(",\"diags\":");
            out.diags(diags);
        }
        Err(e) => write_failure(out, &[Diagnostic::error("Unprintable result", e.to_string(), None)], phase),
    }
}

/// A failed result: in `phase` when given, else just `"ok":false` and the
/// diagnostics (an attribute of a body).
fn write_failure(out: &mut ResultWriter<'_>, diags: &[Diagnostic], phase: Option<&str>) {
    match phase {
        Some(p) => out.failure(p, diags),
        None => {
            out.raw("\"ok\":false,\"diags\":");
            out.diags(diags);
        }
    }
}

fn write_body(out: &mut ResultWriter<'_>, body: &CompiledBody, vars: &Vars, scratch: &mut Scratch) {
    let mut run = vm::BodyEvaluation::new(scratch, vars);
    write_body_with(out, body, &mut |program, out, names| {
        let v = run.evaluate(program);
        write_value_result(out, &v, run.scratch().diags(), None);
        out.raw(",\"vars\":");
        write_vars(out, names);
    });
}

impl Evaluator for VmEvaluator {
    type Bindings = Vec<(String, Value)>;

    fn bind(&self, case: &Case) -> Result<Self::Bindings, String> {
        bind_values(case)
    }

    fn evaluate(&self, case: &Case, bindings: &Self::Bindings, parsed: &Parsed<'_>, out: &mut ResultWriter<'_>) {
        let env = CompileEnv::new(bindings.iter().map(|(n, _)| n.as_str()), table_for(case.funcs));
        let mut vars = Vars::with_slots(bindings.len());
        for (i, (_, v)) in bindings.iter().enumerate() {
            vars.set(i as u32, v.clone());
        }
        let mut scratch = Scratch::new();
        match parsed.tree {
            Tree::Expr(e) | Tree::Template(e) => {
                let kind = if matches!(parsed.tree, Tree::Template(_)) { SourceKind::Template } else { SourceKind::Expr };
                let prog = compile(e, parsed.src, kind, parsed.interner, &env);
                let v = evaluate(&prog, &vars, &mut scratch);
                let mut diags: Vec<Diagnostic> = parsed.diags.to_vec();
                diags.extend(scratch.take_diags());
                write_value_result(out, &v, &diags, Some("eval"));
            }
            Tree::Body(b) => {
                let body = compile_body(b, parsed.src, parsed.interner, &env);
                out.raw("\"ok\":true,\"body\":");
                write_body(out, &body, &vars, &mut scratch);
                if !parsed.diags.is_empty() {
                    out.raw(",\"diags\":");
                    out.diags(parsed.diags);
                }
            }
        }
    }
}

/// What a source text is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceKind {
    Expr,
    Template,
}

impl SourceKind {
    /// How the source is scanned.
    pub fn lex_mode(self) -> compiler::lexer::LexMode {
        match self {
            SourceKind::Expr => compiler::lexer::LexMode::Normal,
            SourceKind::Template => compiler::lexer::LexMode::Template,
        }
    }
}

/// Parses and compiles one expression or template against the host's
/// variable names and function table. Parse errors are returned instead.
pub fn compile_source(
    kind: SourceKind,
    src: &[u8],
    var_names: &[&str],
    funcs: Option<Arc<dyn FunctionTable>>,
) -> Result<Program, Vec<Diagnostic>> {
    let arena = bumpalo::Bump::new();
    let mut interner = Interner::new();
    let (e, diags) = match kind {
        SourceKind::Expr => compiler::parse_expression(&arena, src, &mut interner),
        SourceKind::Template => compiler::parse_template(&arena, src, &mut interner),
    };
    if diags.has_errors() {
        return Err(diags);
    }
    let env = CompileEnv::new(var_names.iter().copied(), funcs);
    Ok(compile(e, src, kind, &interner, &env))
}

/// Canonical object types for values bound once and evaluated many times:
/// objects of the same shape end up sharing one type (and its attribute
/// names), so attribute lookups across many variable sets touch the same
/// memory. Values are unchanged (equal, same types).
#[derive(Default)]
pub struct ShapeCache {
    shapes: std::collections::HashSet<Arc<runtime::ObjectType>>,
}

impl ShapeCache {
    pub fn new() -> ShapeCache {
        ShapeCache::default()
    }

    /// `v` with its objects' types replaced by the canonical ones.
    pub fn share(&mut self, v: &Value) -> Value {
        self.share_depth(v, 0)
    }

    fn share_depth(&mut self, v: &Value, depth: u32) -> Value {
        if depth > 256 {
            return v.clone();
        }
        match v {
            Value::Object(o) => {
                let vals: Vec<Value> = o.vals().iter().map(|e| self.share_depth(e, depth + 1)).collect();
                let shape = match self.shapes.get(o.object_type()) {
                    Some(s) => s.clone(),
                    None => {
                        self.shapes.insert(o.object_type().clone());
                        o.object_type().clone()
                    }
                };
                Value::object_like(&shape, vals).unwrap_or_else(|_| v.clone())
            }
            Value::Tuple(t) => Value::tuple(t.elems().iter().map(|e| self.share_depth(e, depth + 1)).collect()),
            Value::List(l) => {
                let elems = l.elems().iter().map(|e| self.share_depth(e, depth + 1)).collect();
                Value::list_of(l.element_type().clone(), elems).unwrap_or_else(|_| v.clone())
            }
            Value::Map(m) => {
                let entries: Vec<(&str, Value)> =
                    m.keys().iter().map(|k| k.as_str()).zip(m.vals().iter().map(|e| self.share_depth(e, depth + 1))).collect();
                Value::map_of(m.element_type().clone(), entries).unwrap_or_else(|_| v.clone())
            }
            _ => v.clone(),
        }
    }
}
