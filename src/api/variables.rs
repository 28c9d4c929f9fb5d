//! The variables of one evaluation, by name.

use super::Error;
use runtime::json::parse_json;
use runtime::json::{value_from_case_var, value_from_case_var_with, value_from_json_implied, value_from_json_implied_with};
use runtime::json_text::{decode_object, Member};
use runtime::Value;
use serde_json::Value as Json;

/// Named values for one evaluation (hcl's `EvalContext.Variables`).
///
/// Build them from [`Value`]s, or straight from JSON: plain JSON takes
/// go-cty's implied types (objects become objects, arrays tuples, numbers
/// exact decimals, `null` a null of dynamic type).
///
/// ```
/// use hclvm::{Value, Variables};
///
/// let vars = Variables::new().with("name", "web").with("replicas", Value::int(3));
/// assert_eq!(vars.get("name").and_then(|v| v.as_str()), Some("web"));
///
/// let same = Variables::from_json_str(r#"{"name": "web", "replicas": 3}"#)?;
/// assert_eq!(same.get("replicas"), vars.get("replicas"));
/// # Ok::<(), hclvm::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Variables {
    /// Sorted by name, names unique.
    entries: Vec<(String, Value)>,
}

impl Variables {
    /// No variables.
    pub fn new() -> Variables {
        Variables::default()
    }

    /// Sets `name` (replacing an earlier value).
    ///
    /// ```
    /// let mut vars = hclvm::Variables::new();
    /// vars.set("x", true).set("x", false);
    /// assert_eq!(vars.get("x").and_then(|v| v.as_bool()), Some(false));
    /// ```
    pub fn set(&mut self, name: impl Into<String>, value: impl Into<Value>) -> &mut Variables {
        let name = name.into();
        let value = value.into();
        match self.entries.binary_search_by(|(n, _)| n.as_str().cmp(&name)) {
            Ok(i) => self.entries[i].1 = value,
            Err(i) => self.entries.insert(i, (name, value)),
        }
        self
    }

    /// [`Variables::set`], by value, for chaining.
    ///
    /// ```
    /// let vars = hclvm::Variables::new().with("a", hclvm::Value::int(1)).with("b", "two");
    /// assert_eq!(vars.len(), 2);
    /// ```
    pub fn with(mut self, name: impl Into<String>, value: impl Into<Value>) -> Variables {
        self.set(name, value);
        self
    }

    /// The value of `name`.
    ///
    /// ```
    /// assert!(hclvm::Variables::new().get("missing").is_none());
    /// ```
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.entries.binary_search_by(|(n, _)| n.as_str().cmp(name)).ok().map(|i| &self.entries[i].1)
    }

    /// The names, sorted.
    ///
    /// ```
    /// let vars = hclvm::Variables::new().with("b", true).with("a", false);
    /// assert_eq!(vars.names().collect::<Vec<_>>(), ["a", "b"]);
    /// ```
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(n, _)| n.as_str())
    }

    /// How many variables are set.
    ///
    /// ```
    /// assert_eq!(hclvm::Variables::new().len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no variable is set.
    ///
    /// ```
    /// assert!(hclvm::Variables::new().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every `(name, value)`, sorted by name.
    ///
    /// ```
    /// let vars = hclvm::Variables::new().with("x", "one");
    /// assert_eq!(vars.iter().count(), 1);
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.entries.iter().map(|(n, v)| (n.as_str(), v))
    }

    /// Variables from a JSON object of plain JSON values (implied types).
    ///
    /// ```
    /// let json = serde_json::json!({"user": {"name": "ann", "groups": ["ops"]}});
    /// let vars = hclvm::Variables::from_json(&json)?;
    /// assert_eq!(vars.get("user").unwrap().ty().to_json_string(), r#"["object",{"groups":["tuple",["string"]],"name":"string"}]"#);
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn from_json(json: &Json) -> Result<Variables, Error> {
        Variables::from_json_with(json, None, false)
    }

    /// [`Variables::from_json`] on JSON text (nesting up to 10,000 levels,
    /// as Go's `encoding/json`).
    ///
    /// ```
    /// assert!(hclvm::Variables::from_json_str("[1, 2]").is_err());
    /// assert!(hclvm::Variables::from_json_str("{\"a\": 1").is_err());
    /// ```
    pub fn from_json_str(text: &str) -> Result<Variables, Error> {
        Variables::from_json_text(text, None, false)
    }

    /// [`Variables::from_json_with`] on JSON text: decoded straight into
    /// values when the text is plain (`runtime::json_text`), else parsed
    /// first, which gives the same values or the exact error.
    pub(crate) fn from_json_text(text: &str, only: Option<(&[String], &runtime::AttrNames)>, typed: bool) -> Result<Variables, Error> {
        let member = |name: &str| match only {
            Some((names, _)) if names.binary_search_by(|n| n.as_str().cmp(name)).is_err() => Member::Skip,
            _ => Member::Decode,
        };
        if let Some(mut entries) = decode_object(text, only.map(|(_, a)| a), typed, &member) {
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            return Ok(Variables { entries });
        }
        let json = parse_json_object_text(text)?;
        let vars = Variables::from_json_with(&json, only, typed);
        // (A document may nest 10,000 levels: dropped without recursion.)
        runtime::stack::drop_json(json);
        vars
    }

    /// Like [`Variables::from_json`], but a value written exactly
    /// `{"type": T, "value": V}` gets type `T` (go-cty type JSON such as
    /// `["list","string"]`), the shorthand of the conformance cases and of
    /// the reference's bench mode.
    ///
    /// ```
    /// let json = serde_json::json!({"ids": {"type": ["set", "number"], "value": [3, 1, 3]}});
    /// let vars = hclvm::Variables::from_typed_json(&json)?;
    /// assert_eq!(vars.get("ids").unwrap().ty().to_json_string(), r#"["set","number"]"#);
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn from_typed_json(json: &Json) -> Result<Variables, Error> {
        Variables::from_json_with(json, None, true)
    }

    /// Converts the members of a JSON object; with `only`, just the members
    /// whose names it lists (sorted), skipping the cost of the rest: those
    /// are kept as names only (a dynamic null), which is all an evaluation
    /// needs of a variable it never reads (a "Did you mean" candidate).
    /// `only` also gives the program's attribute names, which objects are
    /// named with (see `runtime::AttrNames`).
    pub(crate) fn from_json_with(json: &Json, only: Option<(&[String], &runtime::AttrNames)>, typed: bool) -> Result<Variables, Error> {
        let (only, attr_names) = match only {
            Some((names, attrs)) => (Some(names), Some(attrs)),
            None => (None, None),
        };
        let Json::Object(members) = json else {
            return Err(Error::Variables(format!("variables must be a JSON object, not {}", json_kind(json))));
        };
        let mut entries = Vec::with_capacity(members.len());
        for (name, raw) in members {
            if only.is_some_and(|names| names.binary_search(name).is_err()) {
                entries.push((name.clone(), Value::null(runtime::Type::Dynamic)));
                continue;
            }
            let value = match (typed, attr_names) {
                (true, Some(a)) => value_from_case_var_with(raw, a),
                (true, None) => value_from_case_var(raw),
                (false, Some(a)) => value_from_json_implied_with(raw, a),
                (false, None) => value_from_json_implied(raw),
            };
            match value {
                Ok(v) => entries.push((name.clone(), v)),
                Err(e) => return Err(Error::Variables(format!("variable {name:?}: {e}"))),
            }
        }
        // JSON object member names are unique after parsing; sorting keeps
        // the lookup invariant.
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(Variables { entries })
    }
}

/// Parses JSON text that must be an object.
fn parse_json_object_text(text: &str) -> Result<Json, Error> {
    let json = parse_json(text).map_err(|e| Error::Variables(format!("invalid JSON: {e}")))?;
    if !json.is_object() {
        let kind = json_kind(&json);
        runtime::stack::drop_json(json);
        return Err(Error::Variables(format!("variables must be a JSON object, not {kind}")));
    }
    Ok(json)
}

fn json_kind(json: &Json) -> &'static str {
    match json {
        Json::Null => "null",
        Json::Bool(_) => "a boolean",
        Json::Number(_) => "a number",
        Json::String(_) => "a string",
        Json::Array(_) => "an array",
        Json::Object(_) => "an object",
    }
}

impl<S: Into<String>, V: Into<Value>> FromIterator<(S, V)> for Variables {
    /// ```
    /// let vars: hclvm::Variables = [("a", "x"), ("b", "y")].into_iter().collect();
    /// assert_eq!(vars.len(), 2);
    /// ```
    fn from_iter<I: IntoIterator<Item = (S, V)>>(iter: I) -> Variables {
        let mut vars = Variables::new();
        for (n, v) in iter {
            vars.set(n, v);
        }
        vars
    }
}
