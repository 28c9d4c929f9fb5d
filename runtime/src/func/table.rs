//! The stdlib function definitions: parameters and flags exactly as
//! go-cty v1.13.0 declares them, under the oracle's names.

use super::{
    collection as col, conversion, datetime, encoding as enc, format as fmt, numeric as num, regex as re, set, string as st, CallCtx,
    FnError, FunctionDef, Param, Signature,
};
use crate::types::Type;
use crate::value::Value;
use std::sync::Arc;

type Imp = fn(&[Value], &Type, &mut CallCtx) -> Result<Value, FnError>;
type Ty = fn(&[Value]) -> Result<Type, FnError>;

/// A definition plus its return type when that is fixed.
type Entry = (FunctionDef, Option<Type>);

fn def(name: &str, params: Vec<Param>, var_param: Option<Param>, ty: Ty, imp: Imp) -> Entry {
    let def = FunctionDef {
        name: name.to_string(),
        signature: Signature { params, var_param, pure: true },
        return_type: Arc::new(ty),
        imp: Arc::new(imp),
        refine: None,
    };
    (def, None)
}

fn fixed(name: &str, params: Vec<Param>, var_param: Option<Param>, ret: Type, imp: Imp) -> Entry {
    let sig = Signature { params, var_param, pure: true };
    (FunctionDef::with_static_type(name, sig, ret.clone(), Arc::new(imp)), Some(ret))
}

fn p(name: &str, ty: Type) -> Param {
    Param::new(name, ty)
}

/// All stdlib functions of the oracle's table except `try` and `can`.
pub fn stdlib_defs() -> Vec<FunctionDef> {
    stdlib_entries().into_iter().map(|(def, _)| def).collect()
}

/// The stdlib functions whose results go-cty does not declare not null
/// (no `RefineResult`); every other one's result is never null.
const NULLABLE_RESULTS: &[&str] =
    &["element", "lookup", "jsondecode", "timeadd", "tostring", "tonumber", "tobool", "tolist", "toset", "tomap"];

/// [`stdlib_defs`] with each function's fixed return type, if it has one.
pub(super) fn stdlib_entries() -> Vec<Entry> {
    stdlib_entries_unrefined()
        .into_iter()
        .map(|(def, ret)| {
            let def = if NULLABLE_RESULTS.contains(&def.name.as_str()) { def } else { def.refined(super::refine_not_null) };
            (def, ret)
        })
        .collect()
}

fn stdlib_entries_unrefined() -> Vec<Entry> {
    use Type::{Bool as B, Dynamic as D, Number as N, String as S};
    let list_s = || Type::list(S);
    let list_d = || Type::list(D);
    let set_d = || Type::set(D);
    vec![
        // numeric
        fixed("abs", vec![p("num", N).dynamic()], None, N, num::abs),
        fixed("ceil", vec![p("num", N)], None, N, num::ceil),
        fixed("floor", vec![p("num", N)], None, N, num::floor),
        fixed("log", vec![p("num", N), p("base", N)], None, N, num::log),
        fixed("pow", vec![p("num", N), p("power", N)], None, N, num::pow),
        fixed("signum", vec![p("num", N)], None, N, num::signum),
        def("parseint", vec![p("number", D), p("base", N)], None, num::parseint_type, num::parseint),
        fixed("min", vec![], Some(p("numbers", N).dynamic()), N, num::min),
        fixed("max", vec![], Some(p("numbers", N).dynamic()), N, num::max),
        // strings
        fixed("upper", vec![p("str", S).dynamic()], None, S, st::upper),
        fixed("lower", vec![p("str", S).dynamic()], None, S, st::lower),
        fixed("title", vec![p("str", S)], None, S, st::title),
        fixed("chomp", vec![p("str", S)], None, S, st::chomp),
        fixed("trimspace", vec![p("str", S)], None, S, st::trimspace),
        fixed("trim", vec![p("str", S), p("cutset", S)], None, S, st::trim),
        fixed("trimprefix", vec![p("str", S), p("prefix", S)], None, S, st::trimprefix),
        fixed("trimsuffix", vec![p("str", S), p("suffix", S)], None, S, st::trimsuffix),
        fixed("indent", vec![p("spaces", N), p("str", S)], None, S, st::indent),
        fixed("format", vec![p("format", S)], Some(p("args", D).null().unknown()), S, fmt::format),
        fixed("formatlist", vec![p("format", S)], Some(p("args", D).null().unknown()), list_s(), fmt::formatlist),
        fixed("formatdate", vec![p("format", S), p("time", S)], None, S, datetime::formatdate),
        fixed("join", vec![p("separator", S)], Some(p("lists", list_s())), S, st::join),
        fixed("split", vec![p("separator", S), p("str", S)], None, list_s(), st::split),
        fixed("replace", vec![p("str", S), p("substr", S), p("replace", S)], None, S, st::replace),
        def("regex", vec![p("pattern", S), p("string", S)], None, re::regex_type, re::regex),
        def("regexall", vec![p("pattern", S), p("string", S)], None, re::regexall_type, re::regexall),
        fixed("regexreplace", vec![p("str", S), p("pattern", S), p("replace", S)], None, S, re::regexreplace),
        fixed("substr", vec![p("str", S).dynamic(), p("offset", N).dynamic(), p("length", N).dynamic()], None, S, st::substr),
        fixed("reverse", vec![p("str", S).dynamic()], None, S, st::reverse),
        // collections
        def("length", vec![p("collection", D).dynamic().unknown()], None, col::length_type, col::length),
        def("concat", vec![], Some(p("seqs", D)), col::concat_type, col::concat),
        fixed("contains", vec![p("list", D), p("value", D)], None, B, col::contains),
        def("distinct", vec![p("list", list_d())], None, col::same_type, col::distinct),
        def("element", vec![p("list", D), p("index", N)], None, col::element_type, col::element),
        def("flatten", vec![p("list", D)], None, col::flatten_type, col::flatten),
        def("keys", vec![p("inputMap", D).unknown()], None, col::keys_type, col::keys),
        def("values", vec![p("mapping", D)], None, col::values_type, col::values),
        def("lookup", vec![p("inputMap", D), p("key", S), p("default", D)], None, col::lookup_type, col::lookup),
        def("merge", vec![], Some(p("maps", D).dynamic().null()), col::merge_type, col::merge),
        fixed("range", vec![], Some(p("params", N)), Type::list(N), col::range),
        def("slice", vec![p("list", D), p("start_index", N), p("end_index", N)], None, col::slice_type, col::slice),
        fixed("sort", vec![p("list", list_s()).unknown()], None, list_s(), st::sort),
        def("chunklist", vec![p("list", list_d()), p("size", N)], None, col::chunklist_type, col::chunklist),
        def("coalesce", vec![], Some(p("vals", D).unknown().dynamic().null()), col::coalesce_type, col::coalesce),
        def("coalescelist", vec![], Some(p("vals", D).unknown().dynamic().null()), col::coalescelist_type, col::coalescelist),
        fixed("compact", vec![p("list", list_s())], None, list_s(), col::compact),
        def("zipmap", vec![p("keys", list_s()), p("values", D)], None, col::zipmap_type, col::zipmap),
        // sets
        def("setunion", vec![p("first_set", set_d()).dynamic()], Some(p("other_sets", set_d()).dynamic()), set::set_op_type, set::setunion),
        def(
            "setintersection",
            vec![p("first_set", set_d()).dynamic()],
            Some(p("other_sets", set_d()).dynamic()),
            set::set_op_type,
            set::setintersection,
        ),
        def("setsubtract", vec![p("a", set_d()).dynamic(), p("b", set_d()).dynamic()], None, set::set_op_type, set::setsubtract),
        def(
            "setsymmetricdifference",
            vec![p("first_set", set_d()).dynamic()],
            Some(p("other_sets", set_d()).dynamic()),
            set::set_op_type,
            set::setsymmetricdifference,
        ),
        def("setproduct", vec![], Some(p("sets", D).unknown()), col::setproduct_type, col::setproduct),
        // encoding, time
        fixed("jsonencode", vec![p("val", D).dynamic().null().unknown()], None, S, enc::jsonencode),
        // cty's type function decodes a known document to imply its type;
        // its value has that type anyway and the errors are the call's, so
        // the call decides (after charging the budget).
        def("jsondecode", vec![p("str", S)], None, enc::jsondecode_type, enc::jsondecode),
        def("csvdecode", vec![p("str", S)], None, enc::csvdecode_type, enc::csvdecode),
        fixed("timeadd", vec![p("timestamp", S), p("duration", S)], None, S, datetime::timeadd),
        // conversions
        (conversion::to_func("tostring", S), None),
        (conversion::to_func("tonumber", N), None),
        (conversion::to_func("tobool", B), None),
        (conversion::to_func("tolist", list_d()), None),
        (conversion::to_func("toset", set_d()), None),
        (conversion::to_func("tomap", Type::map(D)), None),
    ]
}
