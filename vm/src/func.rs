//! The function table seam: what the VM needs from a function library.
//! Calls resolve to an index at compile time; the VM converts arguments to
//! the parameter types and reports errors the way `hclsyntax` does.

use runtime::strings::go_quote;
use runtime::{Type, Value};

/// One declared parameter of a function.
#[derive(Clone, Debug)]
pub struct Param {
    pub name: String,
    /// Type constraint arguments are converted to (`Dynamic` accepts any).
    pub ty: Type,
}

/// The parameters of a function: positional ones plus an optional variadic one.
#[derive(Clone, Debug, Default)]
pub struct Signature {
    pub params: Vec<Param>,
    pub var_param: Option<Param>,
}

impl Signature {
    /// The parameter argument `i` binds to.
    #[inline]
    pub fn param_for(&self, i: usize) -> Option<&Param> {
        self.params.get(i).or(self.var_param.as_ref())
    }

    /// hcl's diagnostic when function `name` gets `n` arguments it cannot
    /// take: summary, detail, and where it points.
    pub fn arity_error(&self, name: &str, n: usize) -> Option<(&'static str, String, ArityAt)> {
        let nparams = self.params.len();
        if n < nparams {
            let qual = if self.var_param.is_some() { " at least" } else { "" };
            let detail = format!(
                "Function {} expects{qual} {nparams} argument(s). Missing value for {}.",
                go_quote(name),
                go_quote(&self.params[n].name)
            );
            return Some(("Not enough function arguments", detail, ArityAt::CloseParen));
        }
        if self.var_param.is_none() && n > nparams {
            let detail = format!("Function {} expects only {nparams} argument(s).", go_quote(name));
            return Some(("Too many function arguments", detail, ArityAt::Argument(nparams)));
        }
        None
    }
}

/// Where an arity diagnostic points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArityAt {
    /// The closing parenthesis (arguments missing).
    CloseParen,
    /// The start of the first argument too many.
    Argument(usize),
}

/// Argument `v` converted to `param`'s type: `Ok(None)` when it already is
/// of that type (no copy), the conversion error's detail otherwise.
#[inline]
pub fn convert_argument(param: &Param, v: &Value) -> Result<Option<Value>, String> {
    if runtime::convert::converts_to_itself(v, &param.ty) {
        return Ok(None);
    }
    runtime::convert::convert_changed(v, &param.ty)
        .map(Some)
        .map_err(|e| format!("Invalid value for {} parameter: {e}.", go_quote(&param.name)))
}

/// Where a call diagnostic goes (hcl's choice of subject).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorSite {
    /// The start range of argument `i` (after `...` expansion).
    Argument(usize),
    /// The whole call.
    WholeCall,
    /// `name(`.
    CallStart,
    /// The closing parenthesis.
    CloseParen,
}

/// A failed call, worded as hcl words it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallError {
    pub site: ErrorSite,
    pub summary: String,
    pub detail: String,
}

/// A function library the compiler resolves call names against.
pub trait FunctionTable: Send + Sync {
    /// The index of the function called `name`.
    fn lookup(&self, name: &str) -> Option<u32>;
    /// Every name in the table (for "Did you mean" suggestions).
    fn names(&self) -> Vec<String>;
    fn signature(&self, id: u32) -> &Signature;
    /// Calls function `id` with arguments already converted to its
    /// parameter types (cty's `Function.Call`: null/unknown handling
    /// included). `size_budget` is the units left for building results;
    /// the function takes what it uses. The error is boxed so that the
    /// result stays the size of a `Value` (calls are frequent, failures
    /// rare).
    fn call(&self, id: u32, args: &[Value], size_budget: &mut u64) -> Result<Value, Box<CallError>>;
    /// Whether function `id` always gives the same result for the same
    /// arguments and has no effect. The VM then computes a call with
    /// loop-invariant arguments inside a `for` or splat once per
    /// evaluation instead of once per element, and may call it when
    /// compiling (a `for` condition's check with unknown iterators).
    /// Default: not assumed.
    fn is_pure(&self, _id: u32) -> bool {
        false
    }
    /// Whether `id`, found under the name `try` or `can`, is hcl's built-in
    /// special form (its arguments are evaluated by the VM) rather than a
    /// host function that happens to have that name. Default: built-in.
    fn is_builtin_try_can(&self, _id: u32) -> bool {
        true
    }
}

/// A table that knows names but implements none of them: every call fails.
/// Used when the host names a library this build does not carry, so that
/// unknown-function diagnostics still match.
pub struct NamesOnly {
    names: Vec<String>,
    sig: Signature,
}

impl NamesOnly {
    pub fn new(names: Vec<String>) -> NamesOnly {
        let sig = Signature { params: Vec::new(), var_param: Some(Param { name: "args".into(), ty: Type::Dynamic }) };
        NamesOnly { names, sig }
    }
}

impl FunctionTable for NamesOnly {
    fn lookup(&self, name: &str) -> Option<u32> {
        self.names.iter().position(|n| n == name).map(|i| i as u32)
    }
    fn names(&self) -> Vec<String> {
        self.names.clone()
    }
    fn signature(&self, _id: u32) -> &Signature {
        &self.sig
    }
    fn call(&self, id: u32, _args: &[Value], _size_budget: &mut u64) -> Result<Value, Box<CallError>> {
        let name = self.names.get(id as usize).map(String::as_str).unwrap_or("");
        Err(Box::new(CallError {
            site: ErrorSite::CallStart,
            summary: "Error in function call".into(),
            detail: format!("Call to function {} failed: not implemented in this build.", go_quote(name)),
        }))
    }
}
