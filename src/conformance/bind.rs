//! Converting a case's `vars` and `unknowns` to values, with the oracle's
//! conversion rules and error texts (which become phase `case` results).

use super::Case;
use runtime::json::{typed_case_var, value_from_json_implied, value_from_json_typed};
use runtime::{Type, Value};
use serde_json::Value as Json;

/// The case's variables as values, sorted by name: each `vars` entry decoded
/// (`{"type": T, "value": V}` exactly, or plain JSON with implied types),
/// then each `unknowns` entry as an unknown of its type. The error text is
/// the oracle's, e.g. `vars.x: invalid type: ...`.
pub fn bind_values(case: &Case) -> Result<Vec<(String, Value)>, String> {
    let mut out = Vec::with_capacity(case.vars.len() + case.unknowns.len());
    for (name, raw) in &case.vars {
        out.push((name.clone(), case_var(raw).map_err(|e| format!("vars.{name}: {e}"))?));
    }
    for (name, raw) in &case.unknowns {
        let ty = Type::from_json(raw).map_err(|e| format!("unknowns.{name}: invalid type: {e}"))?;
        out.push((name.clone(), Value::unknown(ty)));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

/// [`runtime::json::value_from_case_var`] with the oracle's error texts.
fn case_var(raw: &Json) -> Result<Value, String> {
    if let Some((t, v)) = typed_case_var(raw) {
        let ty = Type::from_json(t).map_err(|e| format!("invalid type: {e}"))?;
        return value_from_json_typed(v, &ty).map_err(|e| e.message);
    }
    // The message alone: the oracle prints cty's path errors, whose text
    // leaves the path out.
    value_from_json_implied(raw).map_err(|e| e.message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::decode_case;

    fn bind(line: &str) -> Result<Vec<(String, Value)>, String> {
        bind_values(&decode_case(line.as_bytes()).expect("valid case line"))
    }

    #[test]
    fn binds_typed_implied_and_unknown_values() {
        let vars = bind(r#"{"id":"t","mode":"expr","src":"1","vars":{"s":{"type":"string","value":"x"},"n":1.5,"o":{"a":[1,"b"]}},"unknowns":{"u":["list","number"]}}"#).unwrap();
        let names: Vec<&str> = vars.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["n", "o", "s", "u"]);
        assert_eq!(vars[2].1.ty(), Type::String);
        assert_eq!(vars[3].1, Value::unknown(Type::list(Type::Number)));
    }

    #[test]
    fn bad_types_are_case_errors() {
        let e = bind(r#"{"id":"t","mode":"expr","src":"1","unknowns":{"a":"nope"}}"#).unwrap_err();
        assert!(e.starts_with("unknowns.a: invalid type: "), "{e}");
        let e = bind(r#"{"id":"t","mode":"expr","src":"1","vars":{"a":{"type":"nope","value":1}}}"#).unwrap_err();
        assert!(e.starts_with("vars.a: invalid type: "), "{e}");
        let e = bind(r#"{"id":"t","mode":"expr","src":"1","vars":{"a":{"type":"number","value":"x"}}}"#).unwrap_err();
        assert!(e.starts_with("vars.a: "), "{e}");
    }
}
