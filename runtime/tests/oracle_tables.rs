//! Conversion, unification and equality checked against tables of the
//! reference's answers: JSON Lines files under `tests/data/`, made by
//! `tests/data/oracle_tables.py` with hcl-oracle (hcl v2.20.0 + go-cty
//! v1.13.0). The script's docstring defines every table: the named values,
//! the expression each row stands for, and the form of the answers.
//!
//! Each row names input values (`values.jsonl`, or `fuzz_values.jsonl` by
//! index) and gives the oracle's outcome for an HCL expression built from
//! them:
//! * `cond`: `C ? a : b` — `UnifyUnsafe` of the two types, then the chosen
//!   side's conversion (errors worded as HCL wraps them);
//! * `eq`: `a == b` — cty `Equals`;
//! * `to`: `tostring(a)` ... `tomap(a)` — cty's `MakeToFunc` over `Convert`;
//! * `param`: a function whose parameter has a fixed type — `Convert` of the
//!   argument, with cty's exact error message;
//! * `fuzz_*`: the same over random nested values, plus `coalesce(a, b, c)`
//!   (`UnifyUnsafe` and `Convert`) and `jsonencode(a)` (cty's marshalling).
//!
//! A missing or unreadable data file fails the tests. Rows the engine still
//! answers differently are listed by id in `tests/data/known_differences.txt`;
//! that list may only shrink: a listed row that agrees fails the test too.

use runtime::convert::{convert, get_conversion_unsafe};
use runtime::json::{value_from_case_var, value_from_json_typed, value_from_result_json, write_typed_value};
use runtime::unify::unify_unsafe;
use runtime::value::BoundArg;
use runtime::{Number, Type, Value};
use serde_json::Value as Json;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;

// ----- data files -------------------------------------------------------------

fn data_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

/// The rows of a table file (one JSON object per non-blank line). A missing,
/// unreadable or empty file fails the test.
fn rows(name: &str) -> Vec<Json> {
    let path = data_path(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e} (the tables are made by tests/data/oracle_tables.py)", path.display()));
    let rows: Vec<Json> = text
        .split('\n')
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| serde_json::from_str(l).unwrap_or_else(|e| panic!("{}:{}: bad JSON: {e}", path.display(), i + 1)))
        .collect();
    assert!(!rows.is_empty(), "{} has no rows", path.display());
    rows
}

fn field<'a>(row: &'a Json, key: &str) -> &'a Json {
    row.get(key).unwrap_or_else(|| panic!("row without {key:?}: {row}"))
}

fn text<'a>(row: &'a Json, key: &str) -> &'a str {
    field(row, key).as_str().unwrap_or_else(|| panic!("{key:?} is not a string: {row}"))
}

fn index(row: &Json, key: &str) -> usize {
    field(row, key).as_u64().unwrap_or_else(|| panic!("{key:?} is not an index: {row}")) as usize
}

fn flag(row: &Json, key: &str) -> bool {
    field(row, key).as_bool().unwrap_or_else(|| panic!("{key:?} is not a bool: {row}"))
}

fn ty(j: &Json) -> Type {
    Type::from_json(j).unwrap_or_else(|e| panic!("bad type {j}: {e}"))
}

/// The row id prefixes of the tables the tests below compare (each test
/// takes the known differences of its own prefixes).
const PREFIXES: &[&str] = &[
    "value/",
    "fuzz_value/",
    "cond/",
    "eq/",
    "to/",
    "param/",
    "fuzz_cond/",
    "fuzz_eq/",
    "fuzz_to/",
    "fuzz_coalesce/",
    "fuzz_jsonencode/",
    "sem/equality/",
];

/// The ids listed in known_differences.txt (one per line, `#` comments);
/// each must belong to a table that some test here compares.
fn known_differences() -> BTreeSet<String> {
    let path = data_path("known_differences.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let ids: BTreeSet<String> = text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).map(String::from).collect();
    for id in &ids {
        assert!(PREFIXES.iter().any(|p| id.starts_with(p)), "{}: {id} is no row of these tables", path.display());
    }
    ids
}

// ----- values -----------------------------------------------------------------

/// A value in the oracle's result encoding, refinements of unknowns
/// included (`{"$unknown":true,"refined":{...}}`, which
/// `value_from_result_json` does not read).
fn decode_result(j: &Json, t: &Type) -> Value {
    let refined = |j: &Json| -> bool {
        fn any(j: &Json) -> bool {
            match j {
                Json::Object(m) => m.contains_key("refined") && m.contains_key("$unknown") || m.values().any(any),
                Json::Array(a) => a.iter().any(any),
                _ => false,
            }
        }
        any(j)
    };
    if !refined(j) {
        return value_from_result_json(j, t).unwrap_or_else(|e| panic!("cannot decode {j} as {t:?}: {e:?}"));
    }
    if let Json::Object(m) = j {
        if m.get("$unknown") == Some(&Json::Bool(true)) {
            return refined_unknown(t, m.get("refined").and_then(Json::as_object).expect("refined facts"));
        }
    }
    let elems = |a: &Json, ety: &Type| -> Vec<Value> { a.as_array().expect("array").iter().map(|e| decode_result(e, ety)).collect() };
    match t {
        Type::List(e) => Value::list_of((**e).clone(), elems(j, e)).unwrap(),
        Type::Set(e) => Value::set_of((**e).clone(), elems(j, e)).unwrap(),
        Type::Tuple(tt) => {
            let a = j.as_array().expect("array");
            Value::tuple(a.iter().zip(tt.elems()).map(|(e, et)| decode_result(e, et)).collect())
        }
        Type::Map(e) => {
            let m = j.as_object().expect("object");
            Value::map_of((**e).clone(), m.iter().map(|(k, v)| (k.clone(), decode_result(v, e))).collect()).unwrap()
        }
        Type::Object(ot) => {
            let m = j.as_object().expect("object");
            let vals = ot.iter().map(|(name, at)| decode_result(&m[name.as_ref()], at)).collect();
            Value::object_of(ot.clone(), vals).unwrap()
        }
        _ => panic!("refinement in a value of type {t:?}: {j}"),
    }
}

fn refined_unknown(t: &Type, facts: &serde_json::Map<String, Json>) -> Value {
    let number = |j: &Json| -> Number {
        let v = value_from_result_json(j, &Type::Number).unwrap_or_else(|e| panic!("bad bound {j}: {e:?}"));
        v.as_number().unwrap_or_else(|| panic!("bad bound {j}")).clone()
    };
    let inclusive = |key: &str| facts.get(key).and_then(Json::as_bool).unwrap_or(false);
    let mut b = Value::unknown(t.clone()).refine();
    if facts.get("not_null") == Some(&Json::Bool(true)) {
        b.not_null();
    }
    if let Some(p) = facts.get("prefix").and_then(Json::as_str) {
        b.string_prefix_full(p);
    }
    if let Some(n) = facts.get("min") {
        b.number_lower_bound(Some(BoundArg::Value(number(n))), inclusive("min_inclusive"));
    }
    if let Some(n) = facts.get("max") {
        b.number_upper_bound(Some(BoundArg::Value(number(n))), inclusive("max_inclusive"));
    }
    if let Some(n) = facts.get("len_min").and_then(Json::as_u64) {
        b.collection_length_lower_bound(n);
    }
    if let Some(n) = facts.get("len_max").and_then(Json::as_u64) {
        b.collection_length_upper_bound(n);
    }
    b.new_value().unwrap_or_else(|e| panic!("refinement {facts:?} of {t:?}: {e}"))
}

/// The value in an "ok ..." answer.
fn answer_value(want: &str) -> Value {
    let body = want.strip_prefix("ok ").unwrap_or_else(|| panic!("not a value: {want}"));
    let j: Json = serde_json::from_str(&format!("{{{body}}}")).unwrap_or_else(|e| panic!("bad answer {want}: {e}"));
    decode_result(&j["value"], &ty(&j["type"]))
}

struct Named {
    /// The rows of values.jsonl.
    rows: Vec<Json>,
    values: HashMap<String, Value>,
}

/// The named values: variables from their type and value (or an unknown of
/// their type), expression values from the oracle's answer.
fn named_values() -> Named {
    let rows = rows("values.jsonl");
    let mut values = HashMap::new();
    for row in &rows {
        let v = if row.get("src").is_some() {
            answer_value(text(row, "want"))
        } else if row.get("unknown") == Some(&Json::Bool(true)) {
            Value::unknown(ty(field(row, "type")))
        } else {
            value_from_json_typed(field(row, "value"), &ty(field(row, "type"))).unwrap_or_else(|e| panic!("cannot decode {row}: {e:?}"))
        };
        values.insert(text(row, "name").to_string(), v);
    }
    Named { rows, values }
}

impl Named {
    fn get(&self, row: &Json, key: &str) -> &Value {
        let name = text(row, key);
        self.values.get(name).unwrap_or_else(|| panic!("no value named {name:?}"))
    }
}

struct Fuzz {
    rows: Vec<Json>,
    values: Vec<Value>,
}

/// The fuzz values, by index: the oracle's answers for their sources.
fn fuzz_values() -> Fuzz {
    let rows = rows("fuzz_values.jsonl");
    let values = rows
        .iter()
        .enumerate()
        .map(|(i, row)| {
            assert_eq!(index(row, "index"), i, "fuzz_values.jsonl is out of order");
            answer_value(text(row, "want"))
        })
        .collect();
    Fuzz { rows, values }
}

impl Fuzz {
    fn get(&self, row: &Json, key: &str) -> &Value {
        &self.values[index(row, key)]
    }
    fn src(&self, row: &Json, key: &str) -> &str {
        text(&self.rows[index(row, key)], "src")
    }
}

fn ok(v: &Value) -> String {
    let mut s = String::from("ok ");
    write_typed_value(&mut s, v).unwrap();
    s
}

// ----- comparing --------------------------------------------------------------

/// Rewrites the parts of reference messages that depend on Go's random map
/// iteration order (which of several attributes a message names: a missing
/// one in map-to-object conversion, a mismatching element or attribute in
/// mismatch messages) so that any of the possible answers compares equal.
fn normalize(s: &str) -> String {
    let mut out = s.to_string();
    for marker in ["map has no element for required attribute \"", "element \"", "attribute \""] {
        let mut searched = 0;
        while let Some(pos) = out[searched..].find(marker) {
            let start = searched + pos + marker.len();
            let Some(len) = out[start..].find('"') else {
                break;
            };
            out.replace_range(start..start + len, "*");
            searched = start + 1;
        }
    }
    out
}

/// The rows of one test: which differ from the reference (by id) and which
/// were compared.
struct Checks {
    name: &'static str,
    /// Row id prefixes (`cond/`) of the tables this test compares.
    prefixes: Vec<&'static str>,
    compared: BTreeSet<String>,
    failures: BTreeMap<String, Vec<String>>,
}

impl Checks {
    fn new(name: &'static str, prefixes: &[&'static str]) -> Checks {
        Checks { name, prefixes: prefixes.to_vec(), compared: BTreeSet::new(), failures: BTreeMap::new() }
    }

    /// Notes that a row was compared (also a row whose answer is accepted
    /// without computing one).
    fn row(&mut self, id: &str) {
        assert!(self.prefixes.iter().any(|p| id.starts_with(p)), "{}: row {id} has a foreign prefix", self.name);
        assert!(PREFIXES.iter().any(|p| id.starts_with(p)), "row {id}: prefix missing from PREFIXES");
        self.compared.insert(id.to_string());
    }

    fn check(&mut self, id: &str, what: String, got: String, want: &str) {
        self.row(id);
        let nonconforming = "panic in function implementation: returned value ";
        if got.ends_with("returned value does not conform to expected return type.") && want.contains(nonconforming) {
            return;
        }
        if normalize(&got) != normalize(want) {
            self.failures.entry(id.to_string()).or_default().push(format!("{what}\n   got: {got}\n  want: {want}"));
        }
    }

    /// Fails on a differing row that is not a known difference, and on a
    /// known difference of these tables that agrees (or is no row).
    fn finish(self) {
        let known: BTreeSet<String> =
            known_differences().into_iter().filter(|id| self.prefixes.iter().any(|p| id.starts_with(p))).collect();
        let new: Vec<(&String, &Vec<String>)> = self.failures.iter().filter(|(id, _)| !known.contains(*id)).collect();
        let fixed: Vec<&String> = known.iter().filter(|id| !self.failures.contains_key(*id)).collect();
        let mut report = String::new();
        for (id, msgs) in new.iter().take(25) {
            report += &format!("{id}: {}\n", msgs.join("\n    "));
        }
        println!(
            "{}: {} rows compared, {} differ ({} known differences)",
            self.name,
            self.compared.len(),
            self.failures.len(),
            known.len()
        );
        assert!(
            new.is_empty(),
            "{}: {} of {} rows differ from the reference and are not known differences:\n{report}",
            self.name,
            new.len(),
            self.compared.len()
        );
        let gone: Vec<&&String> = fixed.iter().filter(|id| !self.compared.contains(**id)).collect();
        assert!(gone.is_empty(), "{}: known_differences.txt lists rows that do not exist: {gone:?}", self.name);
        assert!(
            fixed.is_empty(),
            "{}: {} known differences now agree with the reference; take them off tests/data/known_differences.txt: {fixed:?}",
            self.name,
            fixed.len()
        );
    }
}

// ----- the tests ----------------------------------------------------------------

/// Every named and fuzz value as the reference encodes it: a variable's
/// typed value as decoded here, an expression value's answer decoded and
/// encoded again (sets come out in cty order whatever order they are built
/// in, refinements as the reference prints them).
#[test]
fn value_definitions() {
    let named = named_values();
    let fuzz = fuzz_values();
    let mut checks = Checks::new("values", &["value/", "fuzz_value/"]);
    for row in &named.rows {
        let what = match row.get("src") {
            Some(src) => format!("{} = {}", text(row, "name"), src.as_str().unwrap()),
            None => text(row, "name").to_string(),
        };
        checks.check(text(row, "id"), what, ok(named.get(row, "name")), text(row, "want"));
    }
    for (row, v) in fuzz.rows.iter().zip(&fuzz.values) {
        checks.check(text(row, "id"), text(row, "src").to_string(), ok(v), text(row, "want"));
    }
    checks.finish();
}

#[test]
fn conditional_unify_and_convert() {
    let named = named_values();
    let mut checks = Checks::new("cond", &["cond/"]);
    for row in rows("cond.jsonl") {
        let (a, b, cond) = (named.get(&row, "a"), named.get(&row, "b"), flag(&row, "cond"));
        let want = text(&row, "want");
        let what = format!("{cond} ? {} : {}", text(&row, "a"), text(&row, "b"));
        match conditional(a, b, cond, want) {
            Some(got) => checks.check(text(&row, "id"), what, got, want),
            None => checks.row(text(&row, "id")),
        }
    }
    checks.finish();
}

#[test]
fn fuzz_tables() {
    let fuzz = fuzz_values();
    let mut checks = Checks::new("fuzz", &["fuzz_cond/", "fuzz_eq/", "fuzz_to/", "fuzz_coalesce/", "fuzz_jsonencode/"]);
    for row in rows("fuzz_cond.jsonl") {
        let (a, b, cond) = (fuzz.get(&row, "a"), fuzz.get(&row, "b"), flag(&row, "cond"));
        let want = text(&row, "want");
        let what = format!("{cond} ? {} : {}", fuzz.src(&row, "a"), fuzz.src(&row, "b"));
        match conditional(a, b, cond, want) {
            Some(got) => checks.check(text(&row, "id"), what, got, want),
            None => checks.row(text(&row, "id")),
        }
    }
    for row in rows("fuzz_eq.jsonl") {
        let (a, b) = (fuzz.get(&row, "a"), fuzz.get(&row, "b"));
        let want = text(&row, "want");
        let what = format!("{} == {}", fuzz.src(&row, "a"), fuzz.src(&row, "b"));
        let got = ok(&a.equals(b));
        // The reference compares map and object elements in random order,
        // so false and unknown are both possible answers when elements
        // differ in both ways; this crate answers false (see equality.rs).
        // (go-cty 1.13 refines an unknown comparison result as not null.)
        let either = [ok(&Value::bool(false)), ok(&Value::unknown(Type::Bool)), ok(&Value::unknown(Type::Bool).refine_not_null())];
        if either.contains(&got) && either.contains(&want.to_string()) && has_keyed(a) {
            checks.row(text(&row, "id"));
            continue;
        }
        checks.check(text(&row, "id"), what, got, want);
    }
    for row in rows("fuzz_to.jsonl") {
        let func = text(&row, "func");
        let what = format!("{func}({})", fuzz.src(&row, "arg"));
        let got = to_func(fuzz.get(&row, "arg"), &to_target(func));
        checks.check(text(&row, "id"), what, got, text(&row, "want"));
    }
    for row in rows("fuzz_coalesce.jsonl") {
        let args: Vec<usize> = field(&row, "args").as_array().unwrap().iter().map(|a| a.as_u64().unwrap() as usize).collect();
        let values: Vec<&Value> = args.iter().map(|&i| &fuzz.values[i]).collect();
        let names: Vec<&str> = args.iter().map(|&i| text(&fuzz.rows[i], "src")).collect();
        let what = format!("coalesce({})", names.join(", "));
        checks.check(text(&row, "id"), what, coalesce(&values), text(&row, "want"));
    }
    for row in rows("fuzz_jsonencode.jsonl") {
        let what = format!("jsonencode({})", fuzz.src(&row, "arg"));
        checks.check(text(&row, "id"), what, jsonencode(fuzz.get(&row, "arg")), text(&row, "want"));
    }
    checks.finish();
}

/// cty's `jsonencode`: unknown if not wholly known (go-cty 1.13: starting
/// with the character of the value's kind when it cannot be null), "null"
/// for null, else `json.Marshal` with the value's own type.
fn jsonencode(v: &Value) -> String {
    if !v.is_wholly_known() {
        let mut b = Value::unknown(Type::String).refine();
        if !v.could_be_null() {
            match v.ty() {
                Type::String => b.string_prefix_full("\""),
                Type::Object(_) | Type::Map(_) => b.string_prefix_full("{"),
                Type::Tuple(_) | Type::List(_) | Type::Set(_) => b.string_prefix_full("["),
                _ => &mut b,
            };
        }
        return ok(&refined_result(b.into_value()));
    }
    if v.is_null() {
        return ok(&Value::string("null"));
    }
    match runtime::json::marshal(v, &v.ty()) {
        Ok(s) => ok(&Value::from_string(s)),
        Err(e) => format!("err Error in function call: Call to function \"jsonencode\" failed: {}.", e.message),
    }
}

/// go-cty 1.13's function machinery: an unknown result of a function that
/// declares `RefineResult: refineNonNull` (jsonencode, coalesce) is refined
/// as not null.
fn refined_result(v: Value) -> Value {
    if v.is_known() {
        v
    } else {
        v.refine_not_null()
    }
}

/// cty's `coalesce`: `UnifyUnsafe` over all argument types, then the first
/// non-null argument `Convert`ed to the unified type.
fn coalesce(args: &[&Value]) -> String {
    let failed = |msg: &str| format!("err Error in function call: Call to function \"coalesce\" failed: {msg}.");
    let types: Vec<Type> = args.iter().map(|a| a.ty()).collect();
    let Some((ty, _)) = unify_unsafe(&types) else {
        return failed("all arguments must have the same type");
    };
    for a in args {
        if !a.is_known() {
            return ok(&refined_result(Value::unknown(ty)));
        }
        if a.is_null() {
            continue;
        }
        return match convert(a, &ty) {
            // cty's function machinery rejects a result whose type does not
            // conform to the declared one (reached through cty's own quirk
            // of typing an unknown-length set's list conversion by the
            // input element type); only that outcome is compared here.
            Ok(v) if !v.ty().conforms_to(&ty) => failed("returned value does not conform to expected return type"),
            Ok(v) => ok(&refined_result(v)),
            Err(e) => failed(&e.to_string()),
        };
    }
    failed("no non-null arguments")
}

/// Whether a value holds a map or object with two or more elements.
fn has_keyed(v: &Value) -> bool {
    match v {
        Value::Map(_) | Value::Object(_) if v.length().unwrap_or(0) >= 2 => true,
        _ => v.elements_slice().iter().any(has_keyed),
    }
}

/// HCL's conditional over two already evaluated results; `None` when the
/// reference's answer is a unification failure we also produce (its
/// description of the mismatch is HCL's business, not this crate's).
fn conditional(a: &Value, b: &Value, cond: bool, want: &str) -> Option<String> {
    let got = match unify_unsafe(&[a.ty(), b.ty()]) {
        None => {
            let prefix = "err Inconsistent conditional result types: The true and false result expressions must have consistent types.";
            if want.starts_with(prefix) {
                return None;
            }
            "err (no unification)".to_string()
        }
        Some((_, convs)) => {
            let (side, conv, label) = if cond { (a, &convs[0], "true") } else { (b, &convs[1], "false") };
            match conv {
                None => ok(side),
                Some(c) => match c.apply(side) {
                    Ok(v) => ok(&v),
                    Err(e) => format!("err Inconsistent conditional result types: The {label} result value has the wrong type: {e}."),
                },
            }
        }
    };
    Some(got)
}

#[test]
fn equality() {
    let named = named_values();
    let mut checks = Checks::new("eq", &["eq/"]);
    for row in rows("eq.jsonl") {
        let (a, b) = (named.get(&row, "a"), named.get(&row, "b"));
        let (na, nb) = (text(&row, "a"), text(&row, "b"));
        let (id, want) = (text(&row, "id"), text(&row, "want"));
        checks.check(id, format!("{na} == {nb}"), ok(&a.equals(b)), want);
        // Equality is symmetric in cty for these values.
        checks.check(id, format!("{nb} == {na} (swapped)"), ok(&b.equals(a)), want);
    }
    checks.finish();
}

/// cty `MakeToFunc(want)` applied to `v`, as HCL reports it.
fn to_func(v: &Value, want: &Type) -> String {
    let arg_err = |msg: String| format!("err Invalid function argument: Invalid value for \"v\" parameter: {msg}.");
    let got = v.ty();
    let cannot = || arg_err(format!("cannot convert {} to {}", got.friendly_name(), want.friendly_name_for_constraint()));
    if got != *want && get_conversion_unsafe(&got, want).is_none() {
        return cannot();
    }
    if !v.is_known() {
        // The parameter does not accept unknowns: the call's result is an
        // unknown of the declared return type.
        return ok(&Value::unknown(want.clone()));
    }
    match convert(v, want) {
        Ok(r) => ok(&r),
        Err(_) => {
            let what = match v.as_str() {
                Some(s) => runtime::strings::go_quote(s),
                None => "string".to_string(),
            };
            match (&got, want) {
                (Type::String, Type::Bool) => {
                    arg_err(format!("cannot convert {what} to bool; only the strings \"true\" or \"false\" are allowed"))
                }
                (Type::String, Type::Number) => {
                    arg_err(format!("cannot convert {what} to number; given string must be a decimal representation of a number"))
                }
                _ => cannot(),
            }
        }
    }
}

fn to_target(func: &str) -> Type {
    match func {
        "tostring" => Type::String,
        "tonumber" => Type::Number,
        "tobool" => Type::Bool,
        "tolist" => Type::list(Type::Dynamic),
        "toset" => Type::set(Type::Dynamic),
        "tomap" => Type::map(Type::Dynamic),
        _ => panic!("no to* function {func:?}"),
    }
}

#[test]
fn to_functions() {
    let named = named_values();
    let mut checks = Checks::new("to", &["to/"]);
    for row in rows("to.jsonl") {
        let func = text(&row, "func");
        let got = to_func(named.get(&row, "arg"), &to_target(func));
        checks.check(text(&row, "id"), format!("{func}({})", text(&row, "arg")), got, text(&row, "want"));
    }
    checks.finish();
}

#[test]
fn typed_parameters() {
    let named = named_values();
    let mut checks = Checks::new("param", &["param/"]);
    for row in rows("param.jsonl") {
        let (func, param, arg) = (text(&row, "func"), text(&row, "param"), text(&row, "arg"));
        let target = ty(field(&row, "type"));
        let (id, want) = (text(&row, "id"), text(&row, "want"));
        let what = format!("{func}({arg})");
        match convert(named.get(&row, "arg"), &target) {
            Err(e) => {
                let got = format!("err Invalid function argument: Invalid value for \"{param}\" parameter: {e}.");
                checks.check(id, what, got, want);
            }
            Ok(v) => {
                // The functions' own results are not conversions; only
                // whether the conversion succeeded is compared.
                if want.starts_with("ok ") {
                    checks.row(id);
                } else {
                    checks.check(id, what, ok(&v), want);
                }
            }
        }
    }
    checks.finish();
}

/// The `NAME == NAME` / `NAME != NAME` cases over variables among the
/// conformance corpus's sem/equality cases.
#[test]
fn conformance_equality_cases() {
    let mut checks = Checks::new("conformance equality", &["sem/equality/"]);
    for row in rows("conformance_equality.jsonl") {
        let (vars, unknowns) = (field(&row, "vars"), field(&row, "unknowns"));
        let lookup = |name: &str| -> Value {
            if let Some(v) = vars.get(name) {
                return value_from_case_var(v).unwrap();
            }
            Value::unknown(ty(&unknowns[name]))
        };
        let (a, op, b) = (text(&row, "a"), text(&row, "op"), text(&row, "b"));
        let eq = lookup(a).equals(&lookup(b));
        let got = match op {
            "==" => eq,
            "!=" => eq.not().unwrap(),
            _ => panic!("operator {op:?}"),
        };
        checks.check(text(&row, "id"), format!("{a} {op} {b}"), ok(&got), text(&row, "want"));
    }
    checks.finish();
}

/// Properties that must hold for any values (checked over the fuzz values,
/// pairwise): no operation panics, equality is symmetric, result encoding
/// round-trips, unification's conversions produce values of the unified
/// type (or, for unknown-length sets, cty's documented quirk), converting
/// a value to its own type is the identity.
#[test]
fn value_invariants() {
    let vals = fuzz_values().values;
    for a in &vals {
        let ty = a.ty();
        let mut enc = String::new();
        runtime::json::write_value(&mut enc, a).unwrap();
        let back = decode_result(&serde_json::from_str(&enc).unwrap(), &ty);
        assert!(back.raw_equals(a), "round trip of {enc}");
        assert!(convert(a, &ty).unwrap().raw_equals(a));
        assert!(a.raw_equals(&a.clone()));
        let _ = runtime::json::marshal(a, &ty);
        let _ = a.cty_length();
        let _ = a.hcl_index(&Value::int(0));
        let _ = a.hcl_get_attr("a");
    }
    for (i, a) in vals.iter().enumerate() {
        for b in vals.iter().skip(i) {
            assert_eq!(a.equals_tri(b), b.equals_tri(a));
            for allow_unsafe in [false, true] {
                let unified = if allow_unsafe { unify_unsafe(&[a.ty(), b.ty()]) } else { runtime::unify::unify(&[a.ty(), b.ty()]) };
                let Some((t, convs)) = unified else { continue };
                for (v, c) in [a, b].into_iter().zip(convs) {
                    let Some(c) = c else {
                        assert!(v.has_type(&t));
                        continue;
                    };
                    if let Ok(r) = c.apply(v) {
                        assert!(r.ty().conforms_to(&t) || !r.is_known(), "{v:?} -> {t:?} gave {r:?}");
                    }
                }
            }
        }
    }
}
