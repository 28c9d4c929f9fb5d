//! The conformance matching rules (those of the corpus's `compare.py`):
//! when does an actual result line count as the same as the reference's.
//!
//! - `ok` must be equal (absent counts as false);
//! - failures: `phase` must be equal; diagnostics are never compared;
//! - successes: `type` identical, `value` identical (numbers as exact
//!   decimal text, so `1`, `1.0` and `-0`/`0` differ), `known` equal (absent
//!   means true);
//! - body mode: the same attribute names, each attribute matching by the
//!   rules above plus an identical `vars` list, and the same blocks in order
//!   (type, labels, body).

use serde_json::{Map, Value as Json};

/// Relaxations of the exact rules (all off by default), as compare.py's options.
#[derive(Clone, Copy, Debug, Default)]
pub struct CompareOptions {
    /// Compare numbers by decimal value (`1.50 == 1.5`, `-0 == 0`).
    pub numeric_value: bool,
    /// Ignore element order inside values whose type is a set.
    pub unordered_sets: bool,
    /// Skip the per-attribute `vars` lists in body mode.
    pub ignore_vars: bool,
}

/// Compares one expected result with one actual result. `Err` says where
/// they first differ (e.g. `value`, `body.attrs["a"].vars`).
pub fn compare_results(expected: &Json, actual: &Json, opts: CompareOptions) -> Result<(), String> {
    if truthy(expected.get("ok")) != truthy(actual.get("ok")) {
        return Err("ok".into());
    }
    if !truthy(expected.get("ok")) {
        if expected.get("phase") != actual.get("phase") {
            return Err("phase".into());
        }
        return Ok(());
    }
    match (expected.get("body"), actual.get("body")) {
        (None, None) => typed_eq(expected, actual, opts),
        (Some(e), Some(a)) => body_eq(e, a, "body", opts),
        _ => Err("body".into()),
    }
}

/// Python truthiness of an optional JSON value, as `bool(d.get(k))`.
fn truthy(v: Option<&Json>) -> bool {
    match v {
        None | Some(Json::Null) => false,
        Some(Json::Bool(b)) => *b,
        Some(Json::Number(n)) => !is_zero_text(n.as_str()),
        Some(Json::String(s)) => !s.is_empty(),
        Some(Json::Array(a)) => !a.is_empty(),
        Some(Json::Object(o)) => !o.is_empty(),
    }
}

fn is_zero_text(t: &str) -> bool {
    let mantissa = t.split(['e', 'E']).next().unwrap_or(t);
    mantissa.bytes().all(|b| matches!(b, b'0' | b'.' | b'-' | b'+'))
}

fn typed_eq(e: &Json, a: &Json, opts: CompareOptions) -> Result<(), String> {
    if !value_eq(None, e.get("type"), a.get("type"), opts) {
        return Err("type".into());
    }
    if !value_eq(e.get("type"), e.get("value"), a.get("value"), opts) {
        return Err("value".into());
    }
    let known = |r: &Json| r.get("known").cloned().unwrap_or(Json::Bool(true));
    if known(e) != known(a) {
        return Err("known".into());
    }
    Ok(())
}

/// Type-directed structural equality of two decoded values; a missing value
/// (Python's `None` from `.get`) equals only a missing value or `null`.
fn value_eq(ty: Option<&Json>, a: Option<&Json>, b: Option<&Json>, opts: CompareOptions) -> bool {
    let null = Json::Null;
    let a = a.unwrap_or(&null);
    let b = b.unwrap_or(&null);
    match (a, b) {
        (Json::Number(x), Json::Number(y)) => num_eq(x.as_str(), y.as_str(), opts),
        (Json::Number(_), _) | (_, Json::Number(_)) => false,
        (Json::Array(xs), Json::Array(ys)) => {
            if xs.len() != ys.len() {
                return false;
            }
            let (kind, inner) = type_parts(ty);
            let elem_ty = |i: usize| -> Option<&Json> {
                match kind {
                    "list" | "set" => inner,
                    "tuple" => match inner {
                        Some(Json::Array(ts)) if ts.len() == xs.len() => ts.get(i),
                        _ => None,
                    },
                    _ => None,
                }
            };
            if kind == "set" && opts.unordered_sets {
                let mut used = vec![false; ys.len()];
                return xs.iter().all(|x| {
                    let hit = ys.iter().enumerate().position(|(j, y)| !used[j] && value_eq(inner, Some(x), Some(y), opts));
                    if let Some(j) = hit {
                        used[j] = true;
                    }
                    hit.is_some()
                });
            }
            xs.iter().zip(ys).enumerate().all(|(i, (x, y))| value_eq(elem_ty(i), Some(x), Some(y), opts))
        }
        (Json::Object(xs), Json::Object(ys)) => {
            if xs.len() != ys.len() || xs.keys().any(|k| !ys.contains_key(k)) {
                return false;
            }
            let (kind, inner) = type_parts(ty);
            xs.iter().all(|(k, x)| {
                let t = match (kind, inner) {
                    ("map", t) => t,
                    ("object", Some(Json::Object(attrs))) => attrs.get(k),
                    _ => None,
                };
                value_eq(t, Some(x), ys.get(k), opts)
            })
        }
        (x, y) => x == y,
    }
}

/// `["list", T]` → `("list", Some(T))`; anything else → `("", None)`.
fn type_parts(ty: Option<&Json>) -> (&str, Option<&Json>) {
    match ty {
        Some(Json::Array(parts)) if parts.len() == 2 => match &parts[0] {
            Json::String(kind) => (kind.as_str(), parts.get(1)),
            _ => ("", None),
        },
        _ => ("", None),
    }
}

fn num_eq(a: &str, b: &str, opts: CompareOptions) -> bool {
    a == b || (opts.numeric_value && decimal_key(a).is_some() && decimal_key(a) == decimal_key(b))
}

/// A canonical form of a decimal number's value: sign, significant digits
/// without leading/trailing zeros, and the decimal exponent of the first one.
fn decimal_key(text: &str) -> Option<(bool, String, i64)> {
    let (mantissa, exp) = match text.find(['e', 'E']) {
        Some(i) => (&text[..i], text[i + 1..].parse::<i64>().ok()?),
        None => (text, 0),
    };
    let (negative, digits) = match mantissa.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, mantissa.strip_prefix('+').unwrap_or(mantissa)),
    };
    let (int_part, frac_part) = digits.split_once('.').unwrap_or((digits, ""));
    if int_part.is_empty() && frac_part.is_empty() || !int_part.bytes().chain(frac_part.bytes()).all(|b| b.is_ascii_digit()) {
        return None;
    }
    let all: String = int_part.chars().chain(frac_part.chars()).collect();
    let lead = all.bytes().take_while(|&b| b == b'0').count();
    let significant = all[lead..].trim_end_matches('0');
    if significant.is_empty() {
        return Some((false, String::new(), 0));
    }
    let point = int_part.len() as i64 - lead as i64 + exp;
    Some((negative, significant.to_string(), point))
}

fn body_eq(e: &Json, a: &Json, path: &str, opts: CompareOptions) -> Result<(), String> {
    let (Json::Object(e), Json::Object(a)) = (e, a) else {
        return Err(path.to_string());
    };
    let empty = Map::new();
    let attrs = |m: &'_ Map<String, Json>| -> Map<String, Json> {
        match m.get("attrs") {
            Some(Json::Object(x)) => x.clone(),
            _ => empty.clone(),
        }
    };
    let (ea, aa) = (attrs(e), attrs(a));
    if ea.len() != aa.len() || ea.keys().any(|k| !aa.contains_key(k)) {
        let mut en: Vec<&String> = ea.keys().collect();
        let mut an: Vec<&String> = aa.keys().collect();
        en.sort();
        an.sort();
        return Err(format!("{path}.attrs (names {en:?} vs {an:?})"));
    }
    for (name, x) in &ea {
        let y = &aa[name];
        let p = format!("{path}.attrs[{}]", Json::String(name.clone()));
        if truthy(x.get("ok")) != truthy(y.get("ok")) {
            return Err(format!("{p}.ok"));
        }
        if truthy(x.get("ok")) {
            typed_eq(x, y, opts).map_err(|what| format!("{p}.{what}"))?;
        }
        if !opts.ignore_vars && x.get("vars") != y.get("vars") {
            return Err(format!("{p}.vars"));
        }
    }
    let blocks = |m: &Map<String, Json>| -> Vec<Json> {
        match m.get("blocks") {
            Some(Json::Array(x)) => x.clone(),
            _ => Vec::new(),
        }
    };
    let (eb, ab) = (blocks(e), blocks(a));
    if eb.len() != ab.len() {
        return Err(format!("{path}.blocks (count {} vs {})", eb.len(), ab.len()));
    }
    for (i, (x, y)) in eb.iter().zip(&ab).enumerate() {
        let p = format!("{path}.blocks[{i}]");
        if x.get("type") != y.get("type") {
            return Err(format!("{p}.type"));
        }
        if x.get("labels") != y.get("labels") {
            return Err(format!("{p}.labels"));
        }
        let null = Json::Null;
        body_eq(x.get("body").unwrap_or(&null), y.get("body").unwrap_or(&null), &format!("{p}.body"), opts)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmp(e: &str, a: &str) -> Result<(), String> {
        cmp_with(e, a, CompareOptions::default())
    }

    fn cmp_with(e: &str, a: &str, opts: CompareOptions) -> Result<(), String> {
        let e: Json = serde_json::from_str(e).unwrap();
        let a: Json = serde_json::from_str(a).unwrap();
        compare_results(&e, &a, opts)
    }

    #[test]
    fn matching_rules() {
        let ok = |e: &str, a: &str| assert_eq!(cmp(e, a), Ok(()), "{e} vs {a}");
        let differ = |e: &str, a: &str, why: &str| assert_eq!(cmp(e, a), Err(why.to_string()), "{e} vs {a}");

        ok(r#"{"id":"x","ok":false,"phase":"parse","diags":[1]}"#, r#"{"id":"x","ok":false,"phase":"parse","diags":[]}"#);
        differ(r#"{"ok":false,"phase":"parse"}"#, r#"{"ok":false,"phase":"eval"}"#, "phase");
        differ(r#"{"ok":false,"phase":"parse"}"#, r#"{"ok":true,"type":"number","value":1}"#, "ok");
        differ(r#"{"ok":true,"type":"number","value":1}"#, r#"{"phase":"eval"}"#, "ok");

        ok(r#"{"ok":true,"type":"number","value":1}"#, r#"{"ok":true,"type":"number","value":1,"diags":[]}"#);
        differ(r#"{"ok":true,"type":"number","value":1}"#, r#"{"ok":true,"type":"number","value":1.0}"#, "value");
        differ(r#"{"ok":true,"type":"number","value":0}"#, r#"{"ok":true,"type":"number","value":-0}"#, "value");
        differ(r#"{"ok":true,"type":"number","value":1}"#, r#"{"ok":true,"type":"number","value":"1"}"#, "value");
        differ(r#"{"ok":true,"type":"number","value":1}"#, r#"{"ok":true,"type":"string","value":1}"#, "type");
        differ(r#"{"ok":true,"type":["list","bool"],"value":[true]}"#, r#"{"ok":true,"type":["list","bool"],"value":[1]}"#, "value");
        ok(r#"{"ok":true,"type":"dynamic","value":null,"known":true}"#, r#"{"ok":true,"type":"dynamic","value":null}"#);
        differ(
            r#"{"ok":true,"type":"dynamic","value":{"$unknown":true},"known":false}"#,
            r#"{"ok":true,"type":"dynamic","value":{"$unknown":true}}"#,
            "known",
        );
        differ(r#"{"ok":true,"type":["set","number"],"value":[1,2]}"#, r#"{"ok":true,"type":["set","number"],"value":[2,1]}"#, "value");
        differ(r#"{"ok":true,"type":["map","number"],"value":{"a":1}}"#, r#"{"ok":true,"type":["map","number"],"value":{"b":1}}"#, "value");
    }

    #[test]
    fn body_rules() {
        let e = r#"{"ok":true,"body":{"attrs":{"a":{"ok":true,"type":"number","value":1,"vars":[]},"b":{"ok":false,"diags":[],"vars":["x"]}},"blocks":[{"type":"t","labels":["l"],"body":{"attrs":{},"blocks":[]}}]}}"#;
        assert_eq!(cmp(e, e), Ok(()));
        let other_diags = e.replace(r#""diags":[]"#, r#""diags":[{"summary":"s"}]"#);
        assert_eq!(cmp(e, &other_diags), Ok(()));
        let vars = e.replace(r#"["x"]"#, r#"["y"]"#);
        assert_eq!(cmp(e, &vars), Err(r#"body.attrs["b"].vars"#.into()));
        assert_eq!(cmp_with(e, &vars, CompareOptions { ignore_vars: true, ..Default::default() }), Ok(()));
        let value = e.replace(r#""value":1"#, r#""value":2"#);
        assert_eq!(cmp(e, &value), Err(r#"body.attrs["a"].value"#.into()));
        let label = e.replace(r#"["l"]"#, r#"["m"]"#);
        assert_eq!(cmp(e, &label), Err("body.blocks[0].labels".into()));
        let no_blocks = e.replace(r#"[{"type":"t","labels":["l"],"body":{"attrs":{},"blocks":[]}}]"#, "[]");
        assert_eq!(cmp(e, &no_blocks), Err("body.blocks (count 1 vs 0)".into()));
        assert_eq!(cmp(e, r#"{"ok":true,"type":"number","value":1}"#), Err("body".into()));
    }

    #[test]
    fn relaxed_options() {
        let numeric = CompareOptions { numeric_value: true, ..Default::default() };
        assert_eq!(
            cmp_with(r#"{"ok":true,"type":"number","value":1.50}"#, r#"{"ok":true,"type":"number","value":15e-1}"#, numeric),
            Ok(())
        );
        assert_eq!(cmp_with(r#"{"ok":true,"type":"number","value":-0}"#, r#"{"ok":true,"type":"number","value":0.000}"#, numeric), Ok(()));
        assert!(cmp_with(r#"{"ok":true,"type":"number","value":100}"#, r#"{"ok":true,"type":"number","value":10}"#, numeric).is_err());
        let sets = CompareOptions { unordered_sets: true, ..Default::default() };
        assert_eq!(
            cmp_with(r#"{"ok":true,"type":["set","number"],"value":[1,2]}"#, r#"{"ok":true,"type":["set","number"],"value":[2,1]}"#, sets),
            Ok(())
        );
        assert!(cmp_with(
            r#"{"ok":true,"type":["list","number"],"value":[1,2]}"#,
            r#"{"ok":true,"type":["list","number"],"value":[2,1]}"#,
            sets
        )
        .is_err());
    }
}
