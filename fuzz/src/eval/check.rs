//! The invariants every compile-and-evaluate run must satisfy, shared by
//! the `eval_*` fuzz targets and `tests/fuzz_regressions.rs`:
//!
//! - no panic; compiling fails only with syntax errors, and only when some
//!   diagnostic is an error;
//! - every diagnostic's subject and context lie within the source;
//! - evaluation stays within the default budgets: its peak memory growth is
//!   bounded by a small multiple of `Limits::max_size` (checked when the
//!   metering allocator is installed; time is bounded by libFuzzer's
//!   `-timeout`);
//! - a successful value is well formed: every element, attribute and map
//!   value has exactly the type its container declares, map keys and
//!   object attribute names are sorted and unique, every string (and key)
//!   is NFC as `cty.StringVal` makes it; and it encodes with
//!   `runtime::json` unless a number is too large to print;
//! - rendering the diagnostics (one-line and hcl's text form) works;
//! - evaluating the same program again (reusing the thread's scratch state,
//!   its registers refilled with other values in between) gives the same
//!   diagnostics and the same values.

use super::meter;
use hclvm::runtime::json::write_typed_value;
use hclvm::runtime::number::NumberError;
use hclvm::runtime::strings::normalize_nfc;
use hclvm::{
    BodyOutcome, Compiled, Diagnostic, Diagnostics, Error, Evaluation, Limits, Options, Outcome, SourceKind, Type, Value, Variables,
};
use std::borrow::Cow;
use std::collections::HashSet;

/// Values larger than this (logical nodes plus string bytes, shared parts
/// counted each time they appear) are checked for well-formedness but not
/// encoded: their text would not fit in memory.
const ENCODE_CAP: usize = 4_000_000;

/// Peak memory an evaluation may add: the size budget counts approximate
/// bytes built, so allow for allocator and growth slack on top.
pub fn memory_bound(limits: Limits) -> u64 {
    limits.max_size.saturating_mul(3).saturating_add(64 << 20)
}

/// Decodes fuzz input (see `input`) and checks one source of `kind`.
pub fn check(kind: SourceKind, data: &[u8]) {
    let (spec, src) = super::input::split(data);
    let vars = super::input::variables(spec);
    check_source(kind, src, &vars);
}

/// Compiles `src` as `kind` with the default options (standard library,
/// default budgets), evaluates it with `vars` twice and checks every
/// invariant listed above.
pub fn check_source(kind: SourceKind, src: &[u8], vars: &Variables) {
    check_source_with(kind, src, vars, &Options::new());
}

/// [`check_source`] with `options` (another function table).
pub fn check_source_with(kind: SourceKind, src: &[u8], vars: &Variables, options: &Options) {
    let compiled = match Compiled::compile(kind, src, options) {
        Ok(c) => c,
        Err(Error::Compile(d)) => {
            check_failure(src, &d, "syntax");
            return;
        }
        Err(e) => panic!("compilation failed with something other than syntax errors: {e}"),
    };
    check_spans(src, compiled.warnings().iter(), "parser warning");
    let (first, peak) = meter::measure(|| compiled.evaluate(vars));
    if let Some(peak) = peak {
        let bound = memory_bound(Limits::default());
        assert!(peak as u64 <= bound, "evaluation allocated {peak} bytes at its peak, beyond {bound}");
    }
    let fingerprint = check_evaluation(kind, src, &first);
    drop(first);
    // The VM writes registers before reading them and never clears them
    // between evaluations: with other values left in them, the same
    // program must give the same results.
    poison_registers(Value::string("poison"));
    let again = check_evaluation(kind, src, &compiled.evaluate(vars));
    poison_registers(Value::object(vec![("poison", Value::tuple(vec![Value::int(-1), Value::bool(true)]))]));
    assert!(fingerprint == again, "a second evaluation gave different results:\n{fingerprint:?}\n---\n{again:?}");
}

/// Registers `poison_registers` fills.
const POISON_REGISTERS: usize = 4096;

thread_local! {
    /// `coalesce(p, p, ...)`: its arguments are moved into consecutive
    /// registers and stay there after the call.
    static POISON: Compiled = {
        let src = format!("coalesce({})", vec!["p"; POISON_REGISTERS].join(", "));
        Compiled::compile(SourceKind::Expression, src.as_bytes(), &Options::new()).expect("the poison program compiles")
    };
}

/// Leaves `value` in the first `POISON_REGISTERS` registers of this
/// thread's scratch state (which every `Compiled::evaluate` on the thread
/// reuses), so that a register read before being written shows.
fn poison_registers(value: Value) {
    POISON.with(|p| {
        let out = p.evaluate(&Variables::new().with("p", value));
        assert!(!out.has_errors(), "the poison program failed: {:?}", out.diagnostics());
    });
}

/// The plain JSON of a body, written without building its value, is the
/// text of the built value; and it fails only where the value does not
/// build, or its text is too long or has a number without one.
fn check_plain_json(eval: &Evaluation) {
    use hclvm::runtime::json::{encoded_len_within, numbers_print, write_value, MAX_VALUE_TEXT};
    let mut direct = String::new();
    let written = eval.write_plain_json(&mut direct);
    let built = eval.to_value();
    match (written, built) {
        (Ok(()), Ok(v)) => {
            let mut text = String::new();
            write_value(&mut text, &v).expect("the written value's numbers print");
            assert_eq!(direct, text, "plain JSON written directly is not the built value's");
        }
        (Ok(()), Err(e)) => panic!("plain JSON was written for a value that does not build: {e}"),
        (Err(_), Err(_)) => {}
        (Err(e), Ok(v)) => assert!(
            encoded_len_within(&v, MAX_VALUE_TEXT).is_none() || !numbers_print(&v),
            "plain JSON failed for a value that builds and prints: {e}"
        ),
    }
}

/// What an evaluation produced, for comparing two runs: per outcome, its
/// diagnostics and its value's encoding (when it has one).
type Fingerprint = Vec<(Vec<Diagnostic>, Option<String>)>;

fn check_evaluation(kind: SourceKind, src: &[u8], eval: &Evaluation) -> Fingerprint {
    let mut fp = Fingerprint::new();
    match (kind, eval.outcome(), eval.body()) {
        (SourceKind::Body, None, Some(body)) => {
            let mut stack: Vec<BodyOutcome> = vec![body];
            while let Some(b) = stack.pop() {
                for a in b.attributes() {
                    check_outcome(src, a.outcome(), &mut fp);
                }
                let blocks: Vec<BodyOutcome> = b.blocks().map(|blk| blk.body()).collect();
                stack.extend(blocks.into_iter().rev());
            }
            if !body.has_errors() {
                match body.to_value() {
                    Ok(v) => {
                        check_value(&v);
                    }
                    Err(Error::Shape(_)) => {}
                    Err(e) => panic!("body to_value failed with something other than a shape error: {e}"),
                }
                check_plain_json(eval);
            }
        }
        (SourceKind::Expression | SourceKind::Template, Some(o), None) => check_outcome(src, o, &mut fp),
        _ => panic!("a {kind:?} evaluated to the wrong kind of result"),
    }
    let all = eval.diagnostics();
    check_spans(src, all.iter().copied(), "evaluation");
    match eval.check() {
        Ok(()) => assert!(!eval.has_errors(), "check() passed an evaluation with errors"),
        Err(Error::Evaluation(d)) => {
            assert!(eval.has_errors(), "check() failed an evaluation without errors");
            let _ = d.render(false);
            let _ = d.to_string();
        }
        Err(e) => panic!("check() failed with something other than evaluation errors: {e}"),
    }
    fp
}

fn check_outcome(src: &[u8], o: &Outcome, fp: &mut Fingerprint) {
    check_spans(src, o.diagnostics().iter(), "evaluation");
    let encoding = match o.value() {
        Some(v) => check_value(v),
        None => None,
    };
    fp.push((o.diagnostics().to_vec(), encoding));
}

/// The diagnostics `d` of a source that failed to compile (`what`: its
/// kind, in messages): at least one error, every range inside the source,
/// and both renderings written without a panic.
pub(super) fn check_failure(src: &[u8], d: &Diagnostics, what: &str) {
    assert!(d.has_errors(), "{what}: failed without an error diagnostic: {:?}", d.as_slice());
    check_spans(src, d.as_slice().iter(), what);
    let _ = d.render(false);
    let _ = d.to_string();
}

pub(super) fn check_spans<'a>(src: &[u8], diags: impl Iterator<Item = &'a Diagnostic>, what: &str) {
    for d in diags {
        for (role, span) in [("subject", d.subject), ("context", d.context)] {
            if let Some(s) = span {
                assert!(
                    s.start <= s.end && s.end as usize <= src.len(),
                    "{what} diagnostic {:?}: {role} {s:?} is outside the source of {} bytes",
                    d.summary,
                    src.len()
                );
            }
        }
    }
}

/// Checks that `v` is well formed and encodes; returns its encoding unless
/// it is too large to encode or holds a number too large to print.
pub fn check_value(v: &Value) -> Option<String> {
    check_well_formed(v);
    if logical_size_exceeds(v, ENCODE_CAP) {
        return None;
    }
    let mut out = String::new();
    match write_typed_value(&mut out, v) {
        Ok(()) => Some(out),
        Err(NumberError::TooLongToPrint) => None,
        Err(e) => panic!("a result value does not encode: {e}"),
    }
}

fn is_nfc(s: &str) -> bool {
    matches!(normalize_nfc(s), Cow::Borrowed(_))
}

fn sorted_unique_nfc<'a>(names: impl Iterator<Item = &'a str>, what: &str) {
    let mut prev: Option<&str> = None;
    for n in names {
        assert!(is_nfc(n), "{what} {n:?} is not NFC");
        if let Some(p) = prev {
            assert!(p.as_bytes() < n.as_bytes(), "{what}s not sorted and unique: {p:?} then {n:?}");
        }
        prev = Some(n);
    }
}

fn check_elements(elems: &[Value], ety: &Type, container: &str) {
    for e in elems {
        assert!(e.has_type(ety), "a {container} of {ety:?} holds an element of type {:?}", e.ty());
    }
}

/// Walks every distinct part of `v` once (shared parts are visited once,
/// so huge logical values built by sharing stay cheap), iteratively.
fn check_well_formed(v: &Value) {
    let mut seen: HashSet<usize> = HashSet::new();
    let mut stack: Vec<&Value> = vec![v];
    while let Some(v) = stack.pop() {
        let ptr = match v {
            Value::List(l) => std::sync::Arc::as_ptr(l) as usize,
            Value::Set(s) => std::sync::Arc::as_ptr(s) as usize,
            Value::Map(m) => std::sync::Arc::as_ptr(m) as usize,
            Value::Object(o) => o.vals().as_ptr() as usize,
            Value::Tuple(t) => std::sync::Arc::as_ptr(t) as usize,
            Value::String(s) => {
                assert!(is_nfc(s.as_str()), "string {:?} is not NFC", s.as_str());
                continue;
            }
            Value::Null(_) | Value::Unknown(_) | Value::Bool(_) | Value::Number(_) => continue,
        };
        if !seen.insert(ptr) {
            continue;
        }
        match v {
            Value::List(l) => {
                check_elements(l.elems(), l.element_type(), "list");
                stack.extend(l.elems());
            }
            Value::Set(s) => {
                check_elements(s.elems(), s.element_type(), "set");
                stack.extend(s.elems());
            }
            Value::Map(m) => {
                assert_eq!(m.keys().len(), m.vals().len(), "map keys and values differ in number");
                sorted_unique_nfc(m.keys().iter().map(|k| k.as_str()), "map key");
                check_elements(m.vals(), m.element_type(), "map");
                stack.extend(m.vals());
            }
            Value::Object(o) => {
                let ot = o.object_type();
                assert_eq!(ot.len(), o.vals().len(), "object type and values differ in number");
                sorted_unique_nfc(ot.names().iter().map(|n| &**n), "attribute name");
                for (val, t) in o.vals().iter().zip(ot.types()) {
                    assert!(val.has_type(t), "object attribute of type {t:?} holds a value of type {:?}", val.ty());
                }
                stack.extend(o.vals());
            }
            Value::Tuple(t) => {
                let tt = t.tuple_type();
                assert_eq!(tt.len(), t.elems().len(), "tuple type and elements differ in number");
                for (e, et) in t.elems().iter().zip(tt.elems()) {
                    assert!(e.has_type(et), "tuple element of type {et:?} holds a value of type {:?}", e.ty());
                }
                stack.extend(t.elems());
            }
            _ => {}
        }
    }
}

/// Whether `v`'s logical size (values plus string bytes, shared parts
/// counted every time) exceeds `cap`; stops counting at the cap.
fn logical_size_exceeds(v: &Value, cap: usize) -> bool {
    let mut total = 0usize;
    let mut stack: Vec<&Value> = vec![v];
    while let Some(v) = stack.pop() {
        total += 1;
        match v {
            Value::String(s) => total += s.as_str().len(),
            Value::Map(m) => {
                total += m.keys().iter().map(|k| k.as_str().len()).sum::<usize>();
                stack.extend(m.vals());
            }
            Value::List(_) | Value::Set(_) | Value::Object(_) | Value::Tuple(_) => stack.extend(v.elements_slice()),
            _ => {}
        }
        if total > cap {
            return true;
        }
    }
    false
}
