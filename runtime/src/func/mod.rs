//! The function seam and the standard function library.
//!
//! Semantics are go-cty v1.13.0's `function` package (parameters, the
//! type/implementation split, null/unknown short-circuits) combined with
//! how hcl's `FunctionCallExpr` converts arguments and words diagnostics.
//!
//! # The seam
//!
//! [`FunctionTable`] is what the compiler and the VM see of a function
//! library (object-safe, behind an `Arc<dyn FunctionTable>`):
//!
//! ```text
//! lookup(name) -> Option<FuncId>        // "ns::f" names are plain keys
//! names() -> Vec<&str>                  // what lookup finds, for "Did you mean"
//! signature(id) -> &Signature           // params, var param, pure flag
//! name(id) -> &str
//! has_try_can() -> bool                 // `try` and `can` are hcl's built-in special forms
//! call(id, args, budget) -> Result<Value, Box<CallError>>   // arguments already converted
//! ```
//!
//! [`Functions`] is the table hosts build ([`Functions::stdlib`],
//! [`Functions::empty`], [`Functions::register`]) and implements the trait
//! directly. The calling rules around `call` are hcl's and exist once,
//! here: [`Signature::check_arity`] (the arity diagnostics) and
//! [`Signature::convert_arg`] (conversion of an argument to its parameter
//! type). The VM applies them itself, interleaved with evaluating the
//! arguments as hcl does; [`Functions::call_unconverted`] applies them all
//! in one go (tests, benchmarks).
//!
//! Each [`CallError`] carries the hcl summary and detail text and an
//! [`ErrorSite`] saying which source range hcl puts the diagnostic on.
//!
//! # `try` and `can`
//!
//! hcl's `ext/tryfunc` functions need their arguments unevaluated, so they
//! are not functions of any table: the compiler turns a call to either
//! into a special form when [`FunctionTable::has_try_can`] says the table
//! has them, before asking [`FunctionTable::lookup`]. [`Functions::stdlib`]
//! has them (as the oracle's "stdlib" table), [`Functions::empty`] not
//! ([`Functions::add_try_can`] adds them); a table that has them refuses
//! to register a host function under either name.
//!
//! # Size budget
//!
//! Functions whose result can be much larger than their arguments (`range`,
//! `setproduct`, `formatlist`, `chunklist`, `indent`, `format`, `join`,
//! `replace`, ...) charge the evaluation's [`SizeBudget`] before building
//! (its unit, and [`ELEMENT_COST`] per element, are documented in
//! [`budget`]). Exhausting it fails the call with the budget's error,
//! which ends the evaluation ("Evaluation limit exceeded", with the
//! call's detail): the VM sees [`SizeBudget::exceeded`] after the call.
//!
//! # Regular expressions
//!
//! `regex`, `regexall` and `regexreplace` compile their pattern through a
//! cache owned by the table (keyed by pattern text, bounded in patterns
//! and in compiled bytes), so a constant pattern is compiled once. The
//! call that compiles a pattern is charged its compiled size from the
//! size budget: compiling is work the step budget does not count, and a
//! pattern such as `\pL{1000}` takes tens of megabytes and a good part
//! of a second. The compiler may warm the cache ahead of time with
//! [`Functions::precompile_regex`].

// `iter::repeat_n` needs Rust 1.82; the workspace supports 1.80.
#![allow(clippy::manual_repeat_n)]

pub mod budget;
mod collection;
mod compose;
mod conversion;
mod datetime;
mod encoding;
mod format;
mod gomath;
mod numeric;
pub mod packer;
mod regex;
mod set;
mod string;
mod table;

pub use budget::{SizeBudget, ELEMENT_COST};
pub use packer::FileAccess;
pub use table::stdlib_defs;

use crate::strings::go_quote;
use crate::types::Type;
use crate::value::{RefinementBuilder, Value};
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

/// Index of a function in its [`FunctionTable`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FuncId(pub u32);

/// One parameter (cty `function.Parameter`).
#[derive(Clone, Debug)]
pub struct Param {
    pub name: String,
    pub ty: Type,
    pub allow_null: bool,
    pub allow_unknown: bool,
    pub allow_dynamic: bool,
    /// The argument is a type constraint expression, not a value (hcl's
    /// `customdecode` of `typeexpr.TypeConstraintType`, the second
    /// parameter of `convert`): the compiler reads the argument's source
    /// as `typeexpr.TypeConstraint` does and passes a null of that type,
    /// or fails the call with the reader's diagnostics. Such a parameter
    /// has type dynamic and allows nulls and dynamic types.
    pub type_constraint: bool,
}

/// hcl's `typeexpr` detail for an expression that is neither a type
/// keyword nor a type constructor call (also what a value expanded into a
/// type constraint parameter with `...` gets).
pub const NOT_A_TYPE_SPECIFICATION: &str =
    "A type specification is either a primitive type keyword (bool, number, string) or a complex type constructor call, like list(string).";

impl Param {
    /// The error of value `v` reaching a type constraint parameter through
    /// `...` expansion (argument `i`): hcl reads it as a literal
    /// expression, which is no type constraint, or, for a null, `true` or
    /// `false`, as the keyword it was written as.
    pub fn not_a_type_constraint(i: usize, v: &Value) -> CallError {
        let keyword = match v {
            Value::Null(_) => Some("null"),
            Value::Bool(true) => Some("true"),
            Value::Bool(false) => Some("false"),
            _ => None,
        };
        let detail = match keyword {
            Some(k) => format!("The keyword {} is not a valid type specification.", go_quote(k)),
            None => NOT_A_TYPE_SPECIFICATION.into(),
        };
        CallError { site: ErrorSite::Argument(i), summary: "Invalid type specification".into(), detail }
    }

    /// A parameter that accepts neither null, unknown nor dynamic-typed values.
    pub fn new(name: &str, ty: Type) -> Param {
        Param { name: name.to_string(), ty, allow_null: false, allow_unknown: false, allow_dynamic: false, type_constraint: false }
    }
    /// A type constraint parameter ([`Param::type_constraint`](Param#structfield.type_constraint)).
    pub fn type_constraint(name: &str) -> Param {
        Param { type_constraint: true, ..Param::new(name, Type::Dynamic).null().dynamic() }
    }
    pub fn null(mut self) -> Param {
        self.allow_null = true;
        self
    }
    pub fn unknown(mut self) -> Param {
        self.allow_unknown = true;
        self
    }
    pub fn dynamic(mut self) -> Param {
        self.allow_dynamic = true;
        self
    }
}

/// A function's parameters.
#[derive(Clone, Debug)]
pub struct Signature {
    pub params: Vec<Param>,
    pub var_param: Option<Param>,
    /// Same arguments always give the same result and the call has no side
    /// effects, so the VM may compute a call whose arguments do not change
    /// during an evaluation once instead of once per loop iteration, and
    /// may call it when compiling (with unknown arguments, for the check
    /// of a `for` condition that reads only its iterators).
    pub pure: bool,
}

impl Signature {
    /// The parameter that argument `i` binds to.
    #[inline]
    pub fn param_for(&self, i: usize) -> Option<&Param> {
        self.params.get(i).or(self.var_param.as_ref())
    }

    /// hcl's arity check of a call to function `name` with `n` arguments
    /// (after `...` expansion): "Not enough function arguments" at the
    /// closing parenthesis, "Too many function arguments" at the first
    /// argument too many.
    pub fn check_arity(&self, name: &str, n: usize) -> Result<(), Box<CallError>> {
        let nparams = self.params.len();
        if n < nparams {
            let qual = if self.var_param.is_some() { " at least" } else { "" };
            return Err(Box::new(CallError {
                site: ErrorSite::CloseParen,
                summary: "Not enough function arguments".into(),
                detail: format!(
                    "Function {} expects{qual} {nparams} argument(s). Missing value for {}.",
                    go_quote(name),
                    go_quote(&self.params[n].name)
                ),
            }));
        }
        if self.var_param.is_none() && n > nparams {
            return Err(Box::new(CallError {
                site: ErrorSite::Argument(nparams),
                summary: "Too many function arguments".into(),
                detail: format!("Function {} expects only {nparams} argument(s).", go_quote(name)),
            }));
        }
        Ok(())
    }

    /// Whether [`Signature::convert_arg`] leaves argument `i` as it is
    /// (with no work to charge).
    #[inline]
    pub fn arg_converts_to_itself(&self, i: usize, v: &Value) -> bool {
        self.param_for(i).map_or(true, |p| crate::convert::converts_to_itself(v, &p.ty))
    }

    /// Argument `i` converted to its parameter's type, as hcl converts
    /// arguments before a call: `Ok(None)` when it already has that type
    /// (nothing to copy) or binds to no parameter.
    #[inline]
    pub fn convert_arg(&self, i: usize, v: &Value) -> Result<Option<Value>, Box<CallError>> {
        if self.arg_converts_to_itself(i, v) {
            return Ok(None);
        }
        self.convert_arg_changed(i, v).map(Some)
    }

    /// [`Signature::convert_arg`] of an argument the caller found does not
    /// convert to itself ([`Signature::arg_converts_to_itself`]).
    pub fn convert_arg_changed(&self, i: usize, v: &Value) -> Result<Value, Box<CallError>> {
        match self.param_for(i) {
            Some(p) => crate::convert::convert_changed(v, &p.ty).map_err(|e| invalid_argument(i, p, &e.to_string())),
            None => Ok(v.clone()),
        }
    }
}

/// "Invalid function argument" about argument `i` (parameter `p`).
#[cold]
fn invalid_argument(i: usize, p: &Param, message: &str) -> Box<CallError> {
    Box::new(CallError {
        site: ErrorSite::Argument(i),
        summary: "Invalid function argument".into(),
        detail: format!("Invalid value for {} parameter: {message}.", go_quote(&p.name)),
    })
}

/// An error from a function's type or implementation step (cty's plain
/// errors and `function.ArgError`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FnError {
    /// The argument the error is about (cty `ArgError.Index`).
    pub arg: Option<usize>,
    pub message: String,
}

impl FnError {
    pub fn new(message: impl Into<String>) -> FnError {
        FnError { arg: None, message: message.into() }
    }
    pub fn arg(i: usize, message: impl Into<String>) -> FnError {
        FnError { arg: Some(i), message: message.into() }
    }
}

impl fmt::Display for FnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Computes the return type from the (converted) arguments; unknown
/// arguments are possible here, as in cty.
pub type TypeFn = Arc<dyn Fn(&[Value]) -> Result<Type, FnError> + Send + Sync>;
/// Computes the result. Receives the return type computed before.
pub type ImplFn = Arc<dyn Fn(&[Value], &Type, &mut CallCtx<'_>) -> Result<Value, FnError> + Send + Sync>;

/// What an implementation gets besides its arguments.
pub struct CallCtx<'a> {
    pub budget: &'a mut SizeBudget,
    regexes: &'a regex::RegexCache,
}

impl CallCtx<'_> {
    /// Notes work that the size of the result does not measure, in steps
    /// of the step budget (see [`crate::work`]): a call in a loop that
    /// searches a large input every time (`contains` over a long list)
    /// then ends with the step budget, as the loop itself would.
    #[inline]
    pub fn work(&mut self, steps: u64) {
        crate::work::note(steps);
    }

    /// Whether the work noted so far is more than the evaluation has
    /// steps left for (see [`crate::work::allow`]): a function in a long
    /// loop then stops with an error (which the evaluation's end makes
    /// moot) instead of finishing.
    #[inline]
    pub fn out_of_steps(&self) -> bool {
        crate::work::exhausted()
    }

    /// An error for a function that stopped because [`CallCtx::out_of_steps`].
    #[cold]
    pub fn stopped(&self) -> FnError {
        FnError::new(crate::work::OUT_OF_STEPS)
    }

    /// [`CallCtx::work`] for scanning `text`.
    #[inline]
    pub fn scan(&mut self, text: &str) {
        crate::work::note_scan(text);
    }

    /// [`CallCtx::work`] for searching `text` with a pattern, or digesting it.
    #[inline]
    pub fn search(&mut self, text: &str) {
        crate::work::note_search(text);
    }

    /// [`CallCtx::work`] for splitting `text` into grapheme clusters.
    #[inline]
    pub fn segment(&mut self, text: &str) {
        crate::work::note_segmenting(text);
    }

    /// The size budget's units left: what a result may still take.
    #[inline]
    pub fn remaining(&self) -> u64 {
        self.budget.remaining()
    }

    /// The error of a result found too large before it was built: the
    /// budget is spent (as a failed [`CallCtx::charge`] spends it).
    pub fn too_large(&mut self) -> FnError {
        let _ = self.budget.charge(u64::MAX);
        budget_exceeded()
    }

    /// Charges `units` of the size budget ([`budget`] has the unit); an
    /// error when it is exhausted.
    #[inline]
    pub fn charge(&mut self, units: u64) -> Result<(), FnError> {
        if self.budget.charge(units) {
            Ok(())
        } else {
            Err(budget_exceeded())
        }
    }
}

/// Facts every result of a function has, added to each result (cty's
/// `RefineResult`): to unknown results, which then say more, and to known
/// ones, which must agree (a contradiction is an error in the function).
pub type RefineFn = fn(&mut RefinementBuilder);

/// The most common refinement: the result is never null.
pub fn refine_not_null(b: &mut RefinementBuilder) {
    b.not_null();
}

/// Everything needed to register a function.
#[derive(Clone)]
pub struct FunctionDef {
    pub name: String,
    pub signature: Signature,
    pub return_type: TypeFn,
    pub imp: ImplFn,
    /// What is known of every result ([`RefineFn`]).
    pub refine: Option<RefineFn>,
}

impl FunctionDef {
    /// A function with a fixed return type.
    pub fn with_static_type(name: &str, signature: Signature, ret: Type, imp: ImplFn) -> FunctionDef {
        FunctionDef { name: name.to_string(), signature, return_type: Arc::new(move |_| Ok(ret.clone())), imp, refine: None }
    }

    /// The same function, with `refine` applied to its results.
    pub fn refined(mut self, refine: RefineFn) -> FunctionDef {
        self.refine = Some(refine);
        self
    }
}

impl fmt::Debug for FunctionDef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FunctionDef").field("name", &self.name).field("signature", &self.signature).finish()
    }
}

/// Why a function could not be registered.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RegisterError {
    DuplicateName(String),
    /// Names are identifiers, optionally namespaced with `::`.
    InvalidName(String),
    /// Two parameters share a name, or a parameter has an empty name.
    InvalidParameter(String),
    TooManyFunctions,
}

impl fmt::Display for RegisterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RegisterError::DuplicateName(n) => write!(f, "a function named {n:?} is already registered"),
            RegisterError::InvalidName(n) => write!(f, "{n:?} is not a valid function name"),
            RegisterError::InvalidParameter(n) => write!(f, "invalid parameter list: {n}"),
            RegisterError::TooManyFunctions => f.write_str("too many functions"),
        }
    }
}

impl std::error::Error for RegisterError {}

/// Where hcl puts a call diagnostic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorSite {
    /// Subject: the start range of argument `i` (after `...` expansion, all
    /// expanded arguments share the expanding expression's range); context:
    /// the whole call.
    Argument(usize),
    /// Subject: the whole call, no context (an argument error about a
    /// variadic parameter that received no arguments).
    WholeCall,
    /// Subject: the call's start (`name(`); context: the whole call.
    CallStart,
    /// Subject: the closing parenthesis; context: the whole call.
    CloseParen,
}

/// One diagnostic of a failed call, worded as hcl words it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallError {
    pub site: ErrorSite,
    pub summary: String,
    pub detail: String,
}

/// A function library as the compiler and the VM see it. Calls resolve to
/// a [`FuncId`] once, when compiling; evaluating calls [`FunctionTable::call`]
/// with arguments the VM has already checked and converted
/// ([`Signature::check_arity`], [`Signature::convert_arg`]).
///
/// [`Functions`] implements it; a host can implement it for a library of
/// its own.
pub trait FunctionTable: Send + Sync {
    /// The function called `name` (namespaced names such as `ns::f` are
    /// plain keys). Not asked about `try` and `can` when
    /// [`FunctionTable::has_try_can`].
    fn lookup(&self, name: &str) -> Option<FuncId>;
    /// Every name [`FunctionTable::lookup`] finds (`try` and `can` are added
    /// by the compiler when the table has them), for "Did you mean".
    fn names(&self) -> Vec<&str>;
    /// The parameters of function `id` and whether it is pure
    /// ([`Signature::pure`]).
    fn signature(&self, id: FuncId) -> &Signature;
    /// The name function `id` was found under.
    fn name(&self, id: FuncId) -> &str;
    /// Whether `try` and `can` are hcl's built-in special forms here (hcl's
    /// `ext/tryfunc` in the context's functions). The compiler then
    /// compiles calls to them itself and never looks the names up.
    fn has_try_can(&self) -> bool;
    /// Calls function `id` with arguments already converted to its
    /// parameter types (cty's `Function.Call`: null/unknown handling
    /// included). Functions charge `budget` for what they build. The error
    /// is boxed so that the result stays the size of a `Value` (calls are
    /// frequent, failures rare).
    fn call(&self, id: FuncId, args: &[Value], budget: &mut SizeBudget) -> Result<Value, Box<CallError>>;
    /// A function computing `outer(inner(args))` in one call, taking the
    /// inner function's arguments (and with its signature), when the
    /// table has one; the code generator then calls it in place of the
    /// two. It must give the same value and the same errors as the two
    /// calls, and the outer function must take the inner result as it is
    /// and never fail on it (see the standard table's, `compose.rs`).
    fn composed(&self, _outer: FuncId, _inner: FuncId) -> Option<FuncId> {
        None
    }
}

#[cold]
fn budget_exceeded() -> FnError {
    FnError::new("the result is too large (it exceeds the evaluation size limit)")
}

struct Entry {
    def: FunctionDef,
    /// The return type when it does not depend on the arguments (the
    /// stdlib's fixed-type functions), so calls skip the type callback.
    static_ret: Option<Type>,
    /// The parameters' types as a call with known, non-null arguments
    /// checks them ([`ParamKinds::accept`]), when each is dynamic or
    /// primitive (most of the stdlib's): such a call needs none of
    /// [`Functions::check_args`]'s cases.
    kinds: Option<ParamKinds>,
}

/// A parameter type that one comparison of a value's kind checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ParamKind {
    Any,
    String,
    Number,
    Bool,
}

impl ParamKind {
    fn of(p: &Param) -> Option<ParamKind> {
        Some(match p.ty {
            Type::Dynamic => ParamKind::Any,
            Type::String => ParamKind::String,
            Type::Number => ParamKind::Number,
            Type::Bool => ParamKind::Bool,
            _ => return None,
        })
    }

    /// Whether `a` passes [`Functions::check_args`] with nothing to say
    /// (no short-circuit, no error): it is known, not null, and has the
    /// parameter's type (a primitive type is conformed to only by itself).
    #[inline(always)]
    fn accepts(self, a: &Value) -> bool {
        match (self, a) {
            (_, Value::Null(_) | Value::Unknown(_)) => false,
            (ParamKind::Any, _) => true,
            (ParamKind::String, Value::String(_)) | (ParamKind::Number, Value::Number(_)) | (ParamKind::Bool, Value::Bool(_)) => true,
            _ => false,
        }
    }
}

/// The kinds of a signature's parameters, and of its variadic one.
struct ParamKinds {
    fixed: Box<[ParamKind]>,
    variadic: Option<ParamKind>,
}

impl ParamKinds {
    fn of(sig: &Signature) -> Option<ParamKinds> {
        let fixed = sig.params.iter().map(ParamKind::of).collect::<Option<Box<[ParamKind]>>>()?;
        let variadic = match &sig.var_param {
            Some(p) => Some(ParamKind::of(p)?),
            None => None,
        };
        Some(ParamKinds { fixed, variadic })
    }

    /// Whether every argument passes [`ParamKind::accepts`] (and there is
    /// a parameter for each).
    #[inline]
    fn accept(&self, args: &[Value]) -> bool {
        args.iter().enumerate().all(|(i, a)| match self.fixed.get(i).copied().or(self.variadic) {
            Some(k) => k.accepts(a),
            None => false,
        })
    }
}

/// Converted arguments of one call; calls rarely pass more than four.
type ArgVec = smallvec::SmallVec<[Value; 4]>;

/// The outcome of [`Functions::check_args`].
enum ArgCheck {
    /// All arguments passed; `any_unknown` when the unknown short-circuit
    /// applies.
    Ready { any_unknown: bool },
    /// cty's dynamic short-circuit: the return type is dynamic.
    DynamicArg,
}

/// A set of callable functions: the standard library, host functions, or
/// both. Build once, share behind an `Arc` (it is the [`FunctionTable`]
/// the compiler and the VM use).
pub struct Functions {
    entries: Vec<Entry>,
    by_name: HashMap<String, FuncId>,
    regex_cache: regex::RegexCache,
    /// The nested calls this table computes as one, by id from
    /// [`FuncId::COMPOSED`] ([`FunctionTable::composed`]).
    compositions: Vec<compose::Composition>,
    /// Whether calls to `try` and `can` are allowed (hcl's
    /// `ext/tryfunc`, which the VM runs as special forms).
    try_can: bool,
}

const _: () = {
    const fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Functions>();
};

fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.split("::").all(|part| {
            let mut chars = part.chars();
            matches!(chars.next(), Some(c) if c.is_alphabetic() || c == '_') && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
        })
}

impl Functions {
    /// No functions at all, not even `try` and `can` (the oracle's
    /// `"funcs": "none"`: every call is "Call to unknown function").
    pub fn empty() -> Functions {
        Functions {
            entries: Vec::new(),
            by_name: HashMap::new(),
            regex_cache: regex::RegexCache::new(),
            compositions: Vec::new(),
            try_can: false,
        }
    }

    /// The oracle's "stdlib" table: go-cty's stdlib functions under
    /// Terraform-style names, plus `try` and `can` (special forms of the VM).
    pub fn stdlib() -> Functions {
        let mut t = Functions::empty();
        for (def, static_ret) in table::stdlib_entries() {
            // The stdlib names are distinct, valid identifiers.
            let _ = t.register_entry(def, static_ret);
        }
        t.add_standard_compositions();
        t.try_can = true;
        t
    }

    /// Packer's function table (Packer v1.11.2, the oracle's `"funcs":
    /// "packer"`), with `try` and `can`: go-cty's stdlib functions and
    /// Packer's own (`cidrsubnet`, `sha256`, `uuidv5`, `file`, ...; see
    /// [`packer`]), with Packer's choices where the two differ (`length`
    /// measures strings too, `reverse` reverses a list, `strrev` a string,
    /// `coalesce` skips empty strings, `regex_replace` is the stdlib's
    /// `regexreplace`). The file functions read files only as `files`
    /// allows ([`FileAccess::None`], the default, reads none).
    ///
    /// ```
    /// use runtime::func::{FileAccess, FunctionTable, Functions, SizeBudget};
    /// use runtime::value::Value;
    ///
    /// let packer = Functions::packer(FileAccess::None);
    /// let id = packer.lookup("cidrsubnet").unwrap();
    /// let args = [Value::string("10.0.0.0/16"), Value::int(8), Value::int(3)];
    /// let v = packer.call_unconverted(id, &args, &mut SizeBudget::unlimited()).unwrap();
    /// assert_eq!(v.as_str(), Some("10.0.3.0/24"));
    ///
    /// let file = packer.lookup("file").unwrap();
    /// let err = packer.call_unconverted(file, &[Value::string("/etc/passwd")], &mut SizeBudget::unlimited()).unwrap_err();
    /// assert!(err[0].detail.contains("file access is not allowed"));
    /// ```
    pub fn packer(files: FileAccess) -> Functions {
        let mut t = Functions::empty();
        for (def, static_ret) in packer::packer_entries(files, false) {
            // The names are distinct, valid identifiers.
            let _ = t.register_entry(def, static_ret);
        }
        t.add_standard_compositions();
        t.try_can = true;
        t
    }

    /// The table templates of Packer's `templatefile` run with: Packer's,
    /// with `templatefile` a stub that fails.
    pub(crate) fn packer_nested(files: FileAccess) -> Functions {
        let mut t = Functions::empty();
        for (def, static_ret) in packer::packer_entries(files, true) {
            let _ = t.register_entry(def, static_ret);
        }
        t.add_standard_compositions();
        t.try_can = true;
        t
    }

    /// Adds `try` and `can` (hcl's `ext/tryfunc`) to a table that lacks
    /// them, such as [`Functions::empty`]. Fails if the table already
    /// has a function of either name.
    pub fn add_try_can(&mut self) -> Result<(), RegisterError> {
        for name in ["try", "can"] {
            if self.try_can || self.by_name.contains_key(name) {
                return Err(RegisterError::DuplicateName(name.to_string()));
            }
        }
        self.try_can = true;
        Ok(())
    }

    /// Adds a function. Its name must be new: `try` and `can` are taken in
    /// a table that has them ([`FunctionTable::has_try_can`]). The name is
    /// an identifier, or identifiers joined with `::` (namespaced, as
    /// Terraform's `provider::aws::arn_parse` and `core::upper`), the name a
    /// call spells: `provider::aws::arn_parse(x)`.
    pub fn register(&mut self, def: FunctionDef) -> Result<FuncId, RegisterError> {
        if self.try_can && (def.name == "try" || def.name == "can") {
            return Err(RegisterError::DuplicateName(def.name));
        }
        self.register_entry(def, None)
    }

    /// The compositions of [`compose::STANDARD`] whose functions this table
    /// has (called right after registering the standard functions, so the
    /// names are theirs). The outer function's one parameter must take
    /// anything as it is.
    fn add_standard_compositions(&mut self) {
        for &(outer, inner, fast) in compose::STANDARD {
            let (Some(o), Some(i)) = (self.lookup(outer), self.lookup(inner)) else { continue };
            let takes_anything = match &self.signature(o).params[..] {
                [p] => self.signature(o).var_param.is_none() && p.ty.is_dynamic() && p.allow_unknown && p.allow_dynamic,
                _ => false,
            };
            if !takes_anything {
                continue;
            }
            let mut signature = self.signature(i).clone();
            signature.pure &= self.signature(o).pure;
            self.compositions.push(compose::Composition { outer: o, inner: i, signature, name: format!("{outer}({inner})"), fast });
        }
    }

    /// Composition `id` ([`FuncId::composition`]).
    fn composition(&self, id: FuncId) -> Option<&compose::Composition> {
        self.compositions.get(id.composition()? as usize)
    }

    /// A call of a composition: the shortcut, else the inner call and the
    /// outer one on its result.
    #[inline(never)]
    fn call_composed(&self, id: FuncId, args: &[Value], budget: &mut SizeBudget) -> Result<Value, Box<CallError>> {
        let Some(c) = self.composition(id) else {
            return Err(Box::new(CallError {
                site: ErrorSite::CallStart,
                summary: "Error in function call".into(),
                detail: "No such function.".into(),
            }));
        };
        let mut ctx = CallCtx { budget: &mut *budget, regexes: &self.regex_cache };
        match (c.fast)(args, &mut ctx) {
            Some(Ok(v)) => return Ok(v),
            Some(Err(e)) => return Err(Self::to_call_error(&self.entry(c.inner).def, args.len(), e)),
            None => {}
        }
        let inner = self.call(c.inner, args, budget)?;
        self.call(c.outer, std::slice::from_ref(&inner), budget)
    }

    fn register_entry(&mut self, def: FunctionDef, static_ret: Option<Type>) -> Result<FuncId, RegisterError> {
        if !valid_name(&def.name) {
            return Err(RegisterError::InvalidName(def.name));
        }
        if self.by_name.contains_key(&def.name) {
            return Err(RegisterError::DuplicateName(def.name));
        }
        let sig = &def.signature;
        let mut seen = std::collections::HashSet::new();
        for p in sig.params.iter().chain(sig.var_param.iter()) {
            if p.name.is_empty() || !seen.insert(p.name.as_str()) {
                return Err(RegisterError::InvalidParameter(format!("parameter name {:?}", p.name)));
            }
        }
        let id = u32::try_from(self.entries.len()).ok().filter(|&i| i < FuncId::COMPOSED).ok_or(RegisterError::TooManyFunctions)?;
        self.by_name.insert(def.name.clone(), FuncId(id));
        let kinds = ParamKinds::of(&def.signature);
        self.entries.push(Entry { def, static_ret, kinds });
        Ok(FuncId(id))
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn entry(&self, id: FuncId) -> &Entry {
        // FuncIds are only handed out by this table.
        &self.entries[id.0 as usize]
    }

    /// Compiles `pattern` into the table's regex cache (errors are reported
    /// when the function is called).
    pub fn precompile_regex(&self, pattern: &str) {
        let _ = self.regex_cache.get(pattern);
    }

    /// hcl's whole calling convention on arguments as evaluated (after
    /// `...` expansion): the arity check, conversion of every argument to
    /// its parameter type (all conversion failures are reported, one
    /// [`CallError`] each), then [`FunctionTable::call`]. The VM applies
    /// these steps itself, interleaved with evaluating the arguments; this
    /// is for callers holding plain values (tests, benchmarks).
    pub fn call_unconverted(&self, id: FuncId, args: &[Value], budget: &mut SizeBudget) -> Result<Value, Vec<CallError>> {
        // A host's own call: no evaluation's allowance applies (one a
        // panicking call left behind included).
        crate::work::take();
        let sig = self.signature(id);
        sig.check_arity(self.name(id), args.len()).map_err(|e| vec![*e])?;
        let mut converted: ArgVec = ArgVec::with_capacity(args.len());
        let mut errors = Vec::new();
        for (i, a) in args.iter().enumerate() {
            match sig.convert_arg(i, a) {
                Ok(v) => converted.push(v.unwrap_or_else(|| a.clone())),
                Err(e) => {
                    errors.push(*e);
                    converted.push(Value::dynamic_unknown());
                }
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        self.call(id, &converted, budget).map_err(|e| vec![*e])
    }

    #[inline]
    fn invoke(&self, entry: &Entry, args: &[Value], budget: &mut SizeBudget) -> Result<Value, FnError> {
        let result = self.invoke_unrefined(entry, args, budget)?;
        let Some(refine) = entry.def.refine else { return Ok(result) };
        // On a known value a refinement only asserts, and the one that can
        // fail in practice says "not null": a known non-null result is
        // returned as it is (the common case, with no builder).
        let refinable = match &result {
            Value::Null(_) => true,
            Value::Unknown(u) => !u.ty().is_dynamic(),
            _ => false,
        };
        if !refinable {
            return Ok(result);
        }
        let mut b = result.refine();
        refine(&mut b);
        b.new_value().map_err(|p| FnError::new(format!("panic while refining the result: {p}")))
    }

    #[inline]
    fn invoke_unrefined(&self, entry: &Entry, args: &[Value], budget: &mut SizeBudget) -> Result<Value, FnError> {
        let def = &entry.def;
        let sig = &def.signature;
        let computed;
        // The common call: every argument known, not null and of its
        // parameter's type, which `check_args` would pass as `Ready`
        // with no unknown.
        let checked = match &entry.kinds {
            Some(kinds) if kinds.accept(args) => ArgCheck::Ready { any_unknown: false },
            _ => self.check_args(sig, args)?,
        };
        let ret: &Type = match checked {
            ArgCheck::Ready { any_unknown } => {
                // With no unknown argument a parameter refuses, the
                // short-circuit below cannot fire.
                let ret = match &entry.static_ret {
                    Some(t) => t,
                    None => {
                        crate::work::set_room(budget.remaining());
                        computed = (def.return_type)(args)?;
                        &computed
                    }
                };
                if any_unknown {
                    return Ok(Value::unknown(ret.clone()));
                }
                ret
            }
            ArgCheck::DynamicArg => {
                if Self::refused_unknown(sig, args) {
                    return Ok(Value::dynamic_unknown());
                }
                &Type::Dynamic
            }
        };
        let mut ctx = CallCtx { budget, regexes: &self.regex_cache };
        let v = (def.imp)(args, ret, &mut ctx)?;
        // cty checks that the result has the type the type step promised
        // (the stdlib's fixed-type functions keep to theirs by
        // construction; computed types are checked).
        if entry.static_ret.is_none() && !v.has_type(ret) {
            if let Some(e) = crate::value::conformance_error(&v.ty(), ret) {
                return Err(FnError::new(format!(
                    "panic in function implementation: returned value {} does not conform to expected return type {}: {e}",
                    v.go_string(),
                    ret.go_syntax()
                )));
            }
        }
        Ok(v)
    }

    /// An argument is unknown and its parameter does not allow unknowns
    /// (cty's unknown short-circuit).
    fn refused_unknown(sig: &Signature, args: &[Value]) -> bool {
        for (i, a) in args.iter().enumerate() {
            let Some(p) = sig.param_for(i) else { break };
            if !a.is_known() && !p.allow_unknown {
                return true;
            }
        }
        false
    }

    /// The argument checks of cty `ReturnTypeForValues`, in its order:
    /// null arguments, then dynamic-typed arguments (the dynamic
    /// short-circuit, [`ArgCheck::DynamicArg`]), then type conformance.
    /// Also notes whether any argument trips the unknown short-circuit, so
    /// the common case walks the arguments once.
    #[inline]
    fn check_args(&self, sig: &Signature, args: &[Value]) -> Result<ArgCheck, FnError> {
        let mut any_unknown = false;
        for (i, a) in args.iter().enumerate() {
            let Some(p) = sig.param_for(i) else { break };
            match a {
                Value::Null(t) => {
                    if !p.allow_null {
                        return Err(FnError::arg(i, "argument must not be null"));
                    }
                    if t.is_dynamic() {
                        if !p.allow_dynamic {
                            return Ok(ArgCheck::DynamicArg);
                        }
                        continue;
                    }
                }
                Value::Unknown(u) => {
                    if u.ty().is_dynamic() {
                        if !p.allow_dynamic {
                            return Ok(ArgCheck::DynamicArg);
                        }
                        any_unknown |= !p.allow_unknown;
                        continue;
                    }
                    any_unknown |= !p.allow_unknown;
                }
                _ => {}
            }
            // `has_type` is exact equality, which implies conformance and
            // needs no type clone.
            if !p.ty.is_dynamic() && !a.has_type(&p.ty) && !a.conforms_to(&p.ty) {
                return Err(FnError::arg(i, crate::convert::mismatch_message(&a.ty(), &p.ty)));
            }
        }
        Ok(ArgCheck::Ready { any_unknown })
    }

    #[cold]
    fn to_call_error(def: &FunctionDef, nargs: usize, e: FnError) -> Box<CallError> {
        if let Some(i) = e.arg {
            match def.signature.param_for(i) {
                Some(p) if i < nargs => return invalid_argument(i, p, &e.message),
                // About a variadic parameter that received no arguments.
                Some(p) => {
                    let mut err = invalid_argument(i, p, &e.message);
                    err.site = ErrorSite::WholeCall;
                    return err;
                }
                None => {}
            }
        }
        Box::new(CallError {
            site: ErrorSite::CallStart,
            summary: "Error in function call".into(),
            detail: format!("Call to function {} failed: {}.", go_quote(&def.name), e.message),
        })
    }
}

impl FunctionTable for Functions {
    #[inline]
    fn lookup(&self, name: &str) -> Option<FuncId> {
        self.by_name.get(name).copied()
    }

    fn names(&self) -> Vec<&str> {
        self.entries.iter().map(|e| e.def.name.as_str()).collect()
    }

    #[inline]
    fn signature(&self, id: FuncId) -> &Signature {
        match self.composition(id) {
            Some(c) => &c.signature,
            None => &self.entry(id).def.signature,
        }
    }

    fn name(&self, id: FuncId) -> &str {
        match self.composition(id) {
            Some(c) => &c.name,
            None => &self.entry(id).def.name,
        }
    }

    fn has_try_can(&self) -> bool {
        self.try_can
    }

    /// cty's `Function.Call` on arguments that already passed
    /// [`Signature::check_arity`] and [`Signature::convert_arg`].
    #[inline]
    fn call(&self, id: FuncId, args: &[Value], budget: &mut SizeBudget) -> Result<Value, Box<CallError>> {
        if id.0 >= FuncId::COMPOSED {
            return self.call_composed(id, args, budget);
        }
        let entry = self.entry(id);
        self.invoke(entry, args, budget).map_err(|e| Self::to_call_error(&entry.def, args.len(), e))
    }

    fn composed(&self, outer: FuncId, inner: FuncId) -> Option<FuncId> {
        let i = self.compositions.iter().position(|c| c.outer == outer && c.inner == inner)?;
        Some(FuncId(FuncId::COMPOSED + i as u32))
    }
}

// ----- helpers shared by the function families ---------------------------

/// gocty's conversion of a known number to a Go `int`.
pub(crate) fn go_int(v: &Value) -> Result<i64, String> {
    match v {
        Value::Number(n) => {
            n.to_i64().ok_or_else(|| "value must be a whole number, between -9223372036854775808 and 9223372036854775807".to_string())
        }
        _ => Err("a number is required".to_string()),
    }
}

/// gocty's conversion of a known number to a Go `float64`.
pub(crate) fn go_f64(v: &Value) -> Result<f64, String> {
    match v {
        Value::Number(n) => {
            n.to_f64_in_range().ok_or_else(|| format!("value must be between {:.6} and {:.6} inclusive", -f64::MAX, f64::MAX))
        }
        _ => Err("a number is required".to_string()),
    }
}

/// The text of a known string argument (null and unknown strings are
/// excluded by the calling convention before implementations run).
pub(crate) fn str_arg(v: &Value) -> &str {
    v.as_str().unwrap_or("")
}

/// cty's `Value.Equals(...).True()`.
pub(crate) fn values_equal(a: &Value, b: &Value) -> bool {
    a.equals_tri(b) == crate::value::Tri::True
}

/// A shared table is a table (hosts keep one table for many programs).
impl<T: FunctionTable + ?Sized> FunctionTable for Arc<T> {
    #[inline]
    fn lookup(&self, name: &str) -> Option<FuncId> {
        (**self).lookup(name)
    }
    fn names(&self) -> Vec<&str> {
        (**self).names()
    }
    #[inline]
    fn signature(&self, id: FuncId) -> &Signature {
        (**self).signature(id)
    }
    fn name(&self, id: FuncId) -> &str {
        (**self).name(id)
    }
    fn has_try_can(&self) -> bool {
        (**self).has_try_can()
    }
    #[inline]
    fn call(&self, id: FuncId, args: &[Value], budget: &mut SizeBudget) -> Result<Value, Box<CallError>> {
        (**self).call(id, args, budget)
    }
    fn composed(&self, outer: FuncId, inner: FuncId) -> Option<FuncId> {
        (**self).composed(outer, inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Arguments of every kind a parameter check tells apart.
    fn samples() -> Vec<Value> {
        vec![
            Value::string("a"),
            Value::int(1),
            Value::Bool(true),
            Value::tuple(vec![Value::string("a")]),
            Value::Null(Type::String),
            Value::Null(Type::Dynamic),
            Value::unknown(Type::String),
            Value::dynamic_unknown(),
        ]
    }

    /// Every list of `n` arguments drawn from `samples`.
    fn argument_lists(samples: &[Value], n: usize) -> Vec<Vec<Value>> {
        let mut lists = vec![Vec::new()];
        for _ in 0..n {
            lists = lists.iter().flat_map(|l| samples.iter().map(move |a| [l.as_slice(), std::slice::from_ref(a)].concat())).collect();
        }
        lists
    }

    /// The fast check accepts an argument list only where the full check
    /// passes it with no short-circuit, for every function of the stdlib
    /// and Packer tables that has one, on every list of the samples as
    /// long as its parameters (and one longer, for a variadic one), up to
    /// three arguments.
    #[test]
    fn param_kinds_accept_only_what_check_args_passes_plainly() {
        let samples = samples();
        let mut checked = 0;
        for table in [Functions::stdlib(), Functions::packer(FileAccess::None)] {
            for entry in &table.entries {
                let Some(kinds) = &entry.kinds else { continue };
                let sig = &entry.def.signature;
                let n = sig.params.len();
                let lengths = if sig.var_param.is_some() { vec![n, n + 1] } else { vec![n] };
                for args in lengths.into_iter().filter(|&l| l <= 3).flat_map(|l| argument_lists(&samples, l)) {
                    if kinds.accept(&args) {
                        checked += 1;
                        let full = table.check_args(sig, &args);
                        assert!(matches!(full, Ok(ArgCheck::Ready { any_unknown: false })), "{} {:?}", entry.def.name, args);
                    }
                }
            }
        }
        assert!(checked > 100, "only {checked} argument lists were accepted");
    }

    /// `arg_converts_to_itself`, shortcut included, agrees with the
    /// definition from the types (`converts_to_itself_by_type`), and with
    /// `convert_arg`, for every parameter of the stdlib and Packer tables
    /// and arguments of every kind.
    #[test]
    fn arguments_left_as_they_are_are_those_of_their_parameter_type() {
        let mut samples = samples();
        samples.extend([
            Value::list(vec![Value::string("a")]).unwrap(),
            Value::map(vec![("k".to_string(), Value::int(1))]).unwrap(),
            Value::Null(Type::Number),
            Value::unknown(Type::Bool),
        ]);
        let (mut kept, mut converted) = (0, 0);
        for table in [Functions::stdlib(), Functions::packer(FileAccess::None)] {
            for entry in &table.entries {
                let sig = &entry.def.signature;
                for i in 0..sig.params.len() + usize::from(sig.var_param.is_some()) {
                    let Some(p) = sig.param_for(i) else { continue };
                    for v in &samples {
                        let kept_here = sig.arg_converts_to_itself(i, v);
                        assert_eq!(kept_here, crate::convert::converts_to_itself_by_type(v, &p.ty), "{} arg {i} {v:?}", entry.def.name);
                        assert_eq!(kept_here, matches!(sig.convert_arg(i, v), Ok(None)), "{} arg {i} {v:?}", entry.def.name);
                        if kept_here {
                            kept += 1;
                        } else {
                            converted += 1;
                        }
                    }
                }
            }
        }
        assert!(kept > 100 && converted > 100, "{kept} kept, {converted} converted");
    }

    #[test]
    fn param_kinds_refuse_nulls_unknowns_and_other_types() {
        let kinds = ParamKinds { fixed: vec![ParamKind::String].into(), variadic: Some(ParamKind::Any) };
        assert!(kinds.accept(&[Value::string("a"), Value::int(1), Value::Bool(false)]));
        assert!(!kinds.accept(&[Value::int(1)]));
        assert!(!kinds.accept(&[Value::Null(Type::String)]));
        assert!(!kinds.accept(&[Value::string("a"), Value::dynamic_unknown()]));
        assert!(!kinds.accept(&[Value::string("a"), Value::Null(Type::Dynamic)]));
        let no_variadic = ParamKinds { fixed: vec![ParamKind::Number].into(), variadic: None };
        assert!(no_variadic.accept(&[Value::int(2)]));
        assert!(!no_variadic.accept(&[Value::int(2), Value::int(3)]));
    }
}
