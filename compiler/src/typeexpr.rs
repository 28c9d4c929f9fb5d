//! Type constraints in HCL's type syntax, read as hcl's `ext/typeexpr`
//! (v2.20.0) `TypeConstraintWithDefaults` reads them: `string`, `number`,
//! `bool`, `any`, `list(T)`, `set(T)`, `map(T)`, `tuple([T, ...])`,
//! `object({name = T, ...})` whose attributes may be `optional(T)` or
//! `optional(T, DEFAULT)`. The result is a cty type (with optional
//! attributes) and the tree of defaults ([`runtime::Defaults`]); problems
//! are hcl's diagnostics, with its wording and ranges.
//!
//! A constraint is parsed as an expression (`hclsyntax.ParseExpression`)
//! and then read structurally; nothing in it is evaluated but the
//! defaults, which are evaluated as hcl evaluates them, without any
//! context: a variable is "Variables not allowed", a call "Function calls
//! not allowed".

use crate::ast::{self, ExprKind, Literal};
use crate::intern::Interner;
use crate::lexer::LexMode;
use crate::lower::{compile_expr_in, CompileEnv};
use runtime::diag::DiagnosticsExt;
use runtime::{Defaults, Diagnostic, ObjectType, Span, Type, Value};
use std::collections::BTreeMap;
use std::sync::Arc;

const INVALID_TYPE: &str = "Invalid type specification";

/// A type constraint read from its source.
#[derive(Clone, Debug)]
pub struct TypeConstraint {
    /// The type; the dynamic pseudo-type where the constraint has errors.
    pub ty: Type,
    /// The defaults of its optional attributes, if it has any.
    pub defaults: Option<Defaults>,
    /// The parser's and the reader's diagnostics, positions within `src`.
    pub diagnostics: Vec<Diagnostic>,
}

impl TypeConstraint {
    /// Whether the constraint has errors (it is then unusable).
    pub fn has_errors(&self) -> bool {
        self.diagnostics.has_errors()
    }
}

/// Parses `src` as an expression (diagnostics naming `filename`) and reads
/// it as a type constraint with defaults (hcl's
/// `typeexpr.TypeConstraintWithDefaults`). When the source does not parse,
/// the parser's diagnostics are all there is.
///
/// ```
/// let c = compiler::typeexpr::type_constraint_with_defaults(b"object({a = string, b = optional(number, 1)})", "t");
/// assert!(!c.has_errors());
/// assert_eq!(c.ty.to_json_string(), r#"["object",{"a":"string","b":"number"},["b"]]"#);
/// assert_eq!(c.defaults.unwrap().values["b"], runtime::Value::int(1));
/// ```
pub fn type_constraint_with_defaults(src: &[u8], filename: &str) -> TypeConstraint {
    type_constraint_with_defaults_at(src, 0..src.len(), filename, &SharedLines::default())
}

/// The source of several constraints read from one file, as the programs
/// of their defaults keep it: made for the first default and shared by
/// the others (a copy each would make reading a file's constraints
/// quadratic).
pub type SharedLines = std::cell::OnceCell<Arc<vm::program::SourceLines>>;

/// [`type_constraint_with_defaults`] of the constraint at `range` of `src`
/// (a declarations file's attribute), read in place: its positions are
/// the file's.
pub fn type_constraint_with_defaults_at(src: &[u8], range: std::ops::Range<usize>, filename: &str, lines: &SharedLines) -> TypeConstraint {
    let arena = bumpalo::Bump::new();
    let mut interner = Interner::new();
    // A heredoc's range ends before the line break that closes it, which
    // the scanner needs: a following line break is kept.
    let rest = src.get(range.end..).unwrap_or_default();
    let end = range.end + [&b"\r\n"[..], b"\n"].iter().find(|nl| rest.starts_with(nl)).map_or(0, |nl| nl.len());
    let part = src.get(..end).unwrap_or(src);
    let parsed = crate::parse_expression_at(&arena, part, range.start, filename, &mut interner);
    if parsed.diags.has_errors() {
        return TypeConstraint { ty: Type::Dynamic, defaults: None, diagnostics: parsed.diags };
    }
    let reader = Reader { interner: &interner, src, filename, constraint: true, with_defaults: true, lines };
    let (ty, defaults, mut diags) = reader.get_type(parsed.tree);
    let mut diagnostics = parsed.diags;
    diagnostics.append(&mut diags);
    TypeConstraint { ty, defaults, diagnostics }
}

/// hcl's `typeexpr.TypeConstraint` of a parsed expression (optional
/// attributes without defaults): how the type argument of `convert` is
/// read ([`runtime::func::Param::type_constraint`]).
pub fn type_constraint_of(expr: &ast::Expr<'_>, interner: &Interner, src: &[u8], filename: &str) -> (Type, Vec<Diagnostic>) {
    let reader = Reader { interner, src, filename, constraint: true, with_defaults: false, lines: &SharedLines::default() };
    let (ty, _, diags) = reader.get_type(expr);
    (ty, diags)
}

struct Reader<'r> {
    interner: &'r Interner,
    src: &'r [u8],
    filename: &'r str,
    /// `any` allowed, and `optional(...)`.
    constraint: bool,
    /// `optional(T, DEFAULT)` allowed.
    with_defaults: bool,
    /// The source as programs keep it, made for the first default
    /// evaluated and shared by the others (each made its own copy of the
    /// whole source: 30,000 defaults took 11 s).
    lines: &'r SharedLines,
}

/// hcl's `hcl.StaticCall`.
struct StaticCall<'a> {
    name: &'a str,
    name_span: Span,
    args: &'a [ast::Expr<'a>],
    args_span: Span,
}

type Read = (Type, Option<Defaults>, Vec<Diagnostic>);

fn invalid(detail: impl Into<String>, subject: Span) -> Diagnostic {
    Diagnostic::error(INVALID_TYPE, detail, Some(subject))
}

fn failed(d: Diagnostic) -> Read {
    (Type::Dynamic, None, vec![d])
}

/// hcl's `RangeBetween`.
fn between(a: Span, b: Span) -> Span {
    Span { start: a.start.min(b.start), end: a.end.max(b.end) }
}

impl<'r> Reader<'r> {
    /// hcl's `ExprAsKeyword`: a lone name, or `null`, `true`, `false`
    /// (which hcl reads back as the names they were written as).
    fn keyword<'a>(&self, e: &'a ast::Expr<'a>) -> Option<&'r str> {
        match e.kind {
            ExprKind::Name(name) => Some(self.interner.resolve(name)),
            ExprKind::ScopeTraversal(t) if t.steps.is_empty() => Some(self.interner.resolve(t.root.name)),
            ExprKind::Literal(Literal::Null) => Some("null"),
            ExprKind::Literal(Literal::Bool(b)) => Some(if b { "true" } else { "false" }),
            _ => None,
        }
    }

    /// hcl's `ExprCall`.
    fn call<'a>(&self, e: &'a ast::Expr<'a>) -> Option<StaticCall<'a>>
    where
        'r: 'a,
    {
        match e.kind {
            ExprKind::Call(c) => Some(StaticCall {
                name: self.interner.resolve(c.name.name),
                name_span: c.name.span,
                args: c.args,
                args_span: between(c.open_paren_span, c.close_paren_span),
            }),
            _ => None,
        }
    }

    /// hcl's `getType` (the source's nesting is bounded by the parser;
    /// each level runs within `runtime::stack`'s guard).
    fn get_type<'a>(&self, e: &'a ast::Expr<'a>) -> Read
    where
        'r: 'a,
    {
        runtime::stack::guarded(|| self.get_type_here(e))
    }

    fn get_type_here<'a>(&self, e: &'a ast::Expr<'a>) -> Read
    where
        'r: 'a,
    {
        let range = e.span;
        if let Some(kw) = self.keyword(e) {
            return match kw {
                "bool" => (Type::Bool, None, Vec::new()),
                "string" => (Type::String, None, Vec::new()),
                "number" => (Type::Number, None, Vec::new()),
                "any" if self.constraint => (Type::Dynamic, None, Vec::new()),
                "any" => failed(invalid(
                    format!("The keyword {} cannot be used in this type specification: an exact type is required.", quote(kw)),
                    range,
                )),
                "list" | "map" | "set" => {
                    failed(invalid(format!("The {kw} type constructor requires one argument specifying the element type."), range))
                }
                "object" => failed(invalid(
                    "The object type constructor requires one argument specifying the attribute types and values as a map.",
                    range,
                )),
                "tuple" => {
                    failed(invalid("The tuple type constructor requires one argument specifying the element types as a list.", range))
                }
                _ => failed(invalid(format!("The keyword {} is not a valid type specification.", quote(kw)), range)),
            };
        }
        let Some(call) = self.call(e) else {
            return failed(invalid(runtime::func::NOT_A_TYPE_SPECIFICATION, range));
        };
        match call.name {
            "bool" | "string" | "number" => {
                return failed(invalid(format!("Primitive type keyword {} does not expect arguments.", quote(call.name)), call.args_span))
            }
            "any" => {
                return failed(invalid(format!("Type constraint keyword {} does not expect arguments.", quote(call.name)), call.args_span))
            }
            _ => {}
        }
        if call.args.len() != 1 {
            let context = call.args_span;
            let subject = match call.args {
                [_, second, .., last] => between(second.span, last.span),
                [_, second] => second.span,
                _ => call.args_span,
            };
            let detail = match call.name {
                "list" | "set" | "map" => {
                    Some(format!("The {} type constructor requires one argument specifying the element type.", call.name))
                }
                "object" => {
                    Some("The object type constructor requires one argument specifying the attribute types and values as a map.".into())
                }
                "tuple" => Some("The tuple type constructor requires one argument specifying the element types as a list.".into()),
                _ => None,
            };
            if let Some(detail) = detail {
                return failed(invalid(detail, subject).with_context(context));
            }
        }
        match call.name {
            "list" | "set" | "map" => {
                let (ety, defaults, diags) = self.get_type(&call.args[0]);
                let ty = match call.name {
                    "list" => Type::list(ety),
                    "set" => Type::set(ety),
                    _ => Type::map(ety),
                };
                let defaults = defaults.map(|d| Defaults {
                    ty: ty.clone(),
                    values: BTreeMap::new(),
                    children: [(String::new(), d)].into_iter().collect(),
                });
                (ty, defaults, diags)
            }
            "object" => self.object(&call.args[0], range),
            "tuple" => {
                let arg = &call.args[0];
                let literals: Vec<ast::LiteralElement<'_>>;
                let literal_exprs: Vec<ast::Expr<'_>>;
                let elems: Vec<&ast::Expr<'_>> = match arg.kind {
                    ExprKind::Tuple(elems) => elems.to_vec(),
                    ExprKind::LiteralTuple(t) => {
                        literals = t.elements().collect();
                        literal_exprs = literals.iter().map(|e| e.expr()).collect();
                        literal_exprs.iter().collect()
                    }
                    _ => return failed(invalid("Tuple type constructor requires a list of element types.", arg.span).with_context(range)),
                };
                let mut diags = Vec::new();
                let mut etys = Vec::with_capacity(elems.len());
                let mut children = BTreeMap::new();
                for (i, el) in elems.iter().enumerate() {
                    let (ety, d, mut ds) = self.get_type(el);
                    diags.append(&mut ds);
                    etys.push(ety);
                    if let Some(d) = d {
                        children.insert(i.to_string(), d);
                    }
                }
                let ty = Type::tuple(etys);
                let defaults = structured(&ty, BTreeMap::new(), children);
                (ty, defaults, diags)
            }
            "optional" => failed(invalid(
                format!("Keyword {} is valid only as a modifier for object type attributes.", quote(call.name)),
                call.name_span,
            )),
            _ => failed(invalid(format!("Keyword {} is not a valid type constructor.", quote(call.name)), range)),
        }
    }

    fn object<'a>(&self, arg: &'a ast::Expr<'a>, range: Span) -> Read
    where
        'r: 'a,
    {
        // Each item's name (`None` for a key that is not a bare word), key
        // span and value.
        let entries: Vec<ast::LiteralEntry<'_>>;
        let items: Vec<(Option<String>, Span, &ast::Expr<'_>)> = match arg.kind {
            ExprKind::Object(items) => {
                items.iter().map(|item| (item.literal_key().map(|k| k.name(self.interner).to_string()), item.key.span, item.value)).collect()
            }
            ExprKind::LiteralObject(o) => {
                entries = o.entries().collect();
                let name = |key: &ast::LiteralKey<'_>| match *key {
                    ast::LiteralKey::Name(name, _) => Some(name.to_string()),
                    ast::LiteralKey::Quoted(..) => None,
                };
                entries.iter().map(|e| (name(&e.key), e.key.span(), &e.value)).collect()
            }
            _ => {
                return failed(
                    invalid(
                        "Object type constructor requires a map whose keys are attribute names and whose values are the corresponding attribute types.",
                        arg.span,
                    )
                    .with_context(range),
                )
            }
        };
        let mut diags = Vec::new();
        let mut atys: Vec<(String, Type)> = Vec::new();
        let mut default_values: BTreeMap<String, Value> = BTreeMap::new();
        let mut children: BTreeMap<String, Defaults> = BTreeMap::new();
        let mut optional: Vec<String> = Vec::new();
        let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
        for (name, key_span, value) in items {
            let Some(name) = name else {
                diags.push(invalid("Object constructor map keys must be attribute names.", key_span).with_context(range));
                continue;
            };
            // (Names of attributes kept, as hcl checks the ones it kept.)
            if seen.contains(&name) {
                diags.push(invalid("Object constructor map keys must be unique.", key_span).with_context(range));
                continue;
            }
            let mut aty_expr = value;
            let mut default_span = None;
            if let Some(call) = self.call(aty_expr) {
                if call.name == "optional" {
                    if call.args.is_empty() {
                        diags.push(
                            invalid("Optional attribute modifier requires the attribute type as its argument.", call.args_span)
                                .with_context(aty_expr.span),
                        );
                        continue;
                    }
                    if self.constraint {
                        if self.with_defaults {
                            match call.args.len() {
                                2 => {
                                    let default_expr = &call.args[1];
                                    default_span = Some(default_expr.span);
                                    let (value, mut ds) = self.evaluate_default(default_expr);
                                    let errors = ds.has_errors();
                                    diags.append(&mut ds);
                                    if !errors {
                                        optional.push(name.clone());
                                        default_values.insert(name.clone(), value);
                                    }
                                }
                                1 => optional.push(name.clone()),
                                _ => diags.push(
                                    invalid(
                                        "Optional attribute modifier expects at most two arguments: the attribute type, and a default value.",
                                        call.args_span,
                                    )
                                    .with_context(aty_expr.span),
                                ),
                            }
                        } else if call.args.len() == 1 {
                            optional.push(name.clone());
                        } else {
                            diags.push(
                                invalid("Optional attribute modifier expects only one argument: the attribute type.", call.args_span)
                                    .with_context(aty_expr.span),
                            );
                        }
                    } else {
                        diags.push(
                            invalid("Optional attribute modifier is only for type constraints, not for exact types.", call.name_span)
                                .with_context(aty_expr.span),
                        );
                    }
                    aty_expr = &call.args[0];
                }
            }
            let (aty, a_defaults, mut ds) = self.get_type(aty_expr);
            diags.append(&mut ds);
            if let Some(default) = default_values.get(&name) {
                match runtime::convert(default, &aty) {
                    Ok(converted) => {
                        default_values.insert(name.clone(), converted);
                    }
                    Err(e) => {
                        diags.push(Diagnostic::error(
                            "Invalid default value for optional attribute",
                            format!("This default value is not compatible with the attribute's type constraint: {e}."),
                            default_span,
                        ));
                        default_values.remove(&name);
                    }
                }
            }
            if let Some(d) = a_defaults {
                children.insert(name.clone(), d);
            }
            seen.insert(name.clone());
            atys.push((name, aty));
        }
        let ty = match ObjectType::with_optional(atys, &optional) {
            Some(o) if o.is_empty() => Type::empty_object(),
            Some(o) => Type::Object(Arc::new(o)),
            None => Type::Dynamic,
        };
        let defaults = structured(&ty, default_values, children);
        (ty, defaults, diags)
    }

    /// A default's value, evaluated as hcl evaluates it: `Value(nil)`.
    fn evaluate_default<'a>(&self, e: &'a ast::Expr<'a>) -> (Value, Vec<Diagnostic>) {
        let mut env = CompileEnv::new(std::iter::empty::<&str>(), None);
        env.no_variables = true;
        env.filename = Arc::from(self.filename);
        let lines = self.lines.get_or_init(|| Arc::new(crate::lower::source_lines(Arc::from(self.src), LexMode::Normal)));
        let program = compile_expr_in(e, lines, self.interner, &env);
        let mut vars = vm::Vars::with_slots(0);
        vars.set_names_in_scope(std::iter::empty::<&str>());
        let mut scratch = vm::Scratch::new();
        let value = vm::evaluate(&program, &vars, &mut scratch);
        (value, scratch.take_diags())
    }
}

/// hcl's `structuredDefaults`: a node only when there is something in it.
fn structured(ty: &Type, values: BTreeMap<String, Value>, children: BTreeMap<String, Defaults>) -> Option<Defaults> {
    if values.is_empty() && children.is_empty() {
        return None;
    }
    Some(Defaults { ty: ty.clone(), values, children })
}

fn quote(s: &str) -> String {
    runtime::strings::go_quote(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(src: &str) -> TypeConstraint {
        type_constraint_with_defaults(src.as_bytes(), "t")
    }

    #[test]
    fn types() {
        for (src, json) in [
            ("string", r#""string""#),
            ("any", r#""dynamic""#),
            ("list(number)", r#"["list","number"]"#),
            ("map(set(bool))", r#"["map",["set","bool"]]"#),
            ("tuple([string, any])", r#"["tuple",["string","dynamic"]]"#),
            ("object({})", r#"["object",{}]"#),
            ("object({b = string, a = optional(number)})", r#"["object",{"a":"number","b":"string"},["a"]]"#),
        ] {
            let c = read(src);
            assert!(!c.has_errors(), "{src}: {:?}", c.diagnostics);
            assert_eq!(c.ty.to_json_string(), json, "{src}");
        }
    }

    #[test]
    fn errors() {
        for (src, detail, start, end) in [
            ("strin", "The keyword \"strin\" is not a valid type specification.", 0, 5),
            ("list", "The list type constructor requires one argument specifying the element type.", 0, 4),
            ("list(string, number)", "The list type constructor requires one argument specifying the element type.", 13, 19),
            ("optional(string)", "Keyword \"optional\" is valid only as a modifier for object type attributes.", 0, 8),
            ("object({\"a\" = string})", "Object constructor map keys must be attribute names.", 8, 11),
        ] {
            let c = read(src);
            assert!(c.has_errors(), "{src}");
            let d = &c.diagnostics[0];
            assert_eq!(d.detail, detail, "{src}");
            assert_eq!(d.subject, Some(Span { start, end }), "{src}");
        }
        let c = read("object({a = optional(number, \"x\")})");
        assert_eq!(c.diagnostics[0].summary, "Invalid default value for optional attribute");
        let c = read("object({a = optional(number, b)})");
        assert_eq!(c.diagnostics[0].summary, "Variables not allowed");
        let c = read("object({a = optional(number, max(1))})");
        assert_eq!(c.diagnostics[0].summary, "Function calls not allowed");
    }
}
