//! cty's Go syntax for values (`%#v`), as its panic messages quote them:
//! `cty.StringVal("a")`, `cty.NumberIntVal(1)`,
//! `cty.ObjectVal(map[string]cty.Value{"a":cty.True})`, ...
//!
//! Values share their parts, so the text is cut (`...`) past
//! [`crate::types::GO_SYNTAX_MAX`] bytes, where the reference would print it
//! whole.

use super::{Facts, Value};
use crate::types::{Type, GO_SYNTAX_MAX};

impl Value {
    /// The value in cty's Go syntax.
    pub fn go_string(&self) -> String {
        let mut s = String::new();
        if !write(self, &mut s) {
            let mut cut = GO_SYNTAX_MAX.min(s.len());
            while !s.is_char_boundary(cut) {
                cut -= 1;
            }
            s.truncate(cut);
            s.push_str("...");
        }
        s
    }
}

/// Writes `v`; false once the text is past the limit.
fn write(v: &Value, out: &mut String) -> bool {
    if out.len() > GO_SYNTAX_MAX {
        return false;
    }
    match v {
        Value::Null(t) => {
            out.push_str("cty.NullVal(");
            out.push_str(&t.go_syntax());
            out.push(')');
        }
        Value::Unknown(u) if u.ty().is_dynamic() && u.refinement().is_none() => out.push_str("cty.DynamicVal"),
        Value::Unknown(u) => {
            out.push_str("cty.UnknownVal(");
            out.push_str(&u.ty().go_syntax());
            out.push(')');
            if let Some(r) = u.refinement() {
                let calls = refinement_calls(r);
                if calls == ".NotNull()" {
                    out.push_str(".RefineNotNull()");
                } else if !calls.is_empty() {
                    out.push_str(".Refine()");
                    out.push_str(&calls);
                    out.push_str(".NewValue()");
                }
            }
        }
        Value::Bool(true) => out.push_str("cty.True"),
        Value::Bool(false) => out.push_str("cty.False"),
        Value::Number(n) => {
            if n.is_integer() && !n.is_infinite() {
                out.push_str("cty.NumberIntVal(");
                out.push_str(&n.to_text().unwrap_or_default());
                out.push(')');
            } else if let Some(f) = exact_f64(n) {
                out.push_str("cty.NumberFloatVal(");
                out.push_str(&go_float_v(f));
                out.push(')');
            } else {
                out.push_str("cty.MustParseNumberVal(");
                crate::strings::write_go_quoted(out, &n.to_text().unwrap_or_default());
                out.push(')');
            }
        }
        Value::String(s) => {
            out.push_str("cty.StringVal(");
            crate::strings::write_go_quoted(out, s);
            out.push(')');
        }
        Value::List(l) if l.elems().is_empty() => {
            out.push_str("cty.ListValEmpty(");
            out.push_str(&l.element_type().go_syntax());
            out.push(')');
        }
        Value::Set(s) if s.elems().is_empty() => {
            out.push_str("cty.SetValEmpty(");
            out.push_str(&s.element_type().go_syntax());
            out.push(')');
        }
        Value::Map(m) if m.vals().is_empty() => {
            out.push_str("cty.MapValEmpty(");
            out.push_str(&m.element_type().go_syntax());
            out.push(')');
        }
        Value::Tuple(t) if t.elems().is_empty() => out.push_str("cty.EmptyTupleVal"),
        Value::Object(o) if o.vals().is_empty() => out.push_str("cty.EmptyObjectVal"),
        Value::List(_) | Value::Set(_) | Value::Tuple(_) => {
            out.push_str(match v {
                Value::List(_) => "cty.ListVal([]cty.Value{",
                Value::Set(_) => "cty.SetVal([]cty.Value{",
                _ => "cty.TupleVal([]cty.Value{",
            });
            for (i, e) in v.elements_slice().iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                if !crate::stack::guarded(|| write(e, out)) {
                    return false;
                }
            }
            out.push_str("})");
        }
        Value::Map(_) | Value::Object(_) => {
            out.push_str(if matches!(v, Value::Map(_)) {
                "cty.MapVal(map[string]cty.Value{"
            } else {
                "cty.ObjectVal(map[string]cty.Value{"
            });
            // Go prints map keys sorted, as cty stores them.
            for (i, (k, e)) in v.key_value_pairs().unwrap_or_default().into_iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                crate::strings::write_go_quoted(out, &k);
                out.push(':');
                if !crate::stack::guarded(|| write(e, out)) {
                    return false;
                }
            }
            out.push_str("})");
        }
    }
    out.len() <= GO_SYNTAX_MAX
}

/// The builder calls that would make a refinement (cty's GoString of it).
fn refinement_calls(r: &super::Refinement) -> String {
    let mut s = String::new();
    if r.not_null {
        s.push_str(".NotNull()");
    }
    match &r.facts {
        Facts::String { prefix } if !prefix.is_empty() => {
            s.push_str(".StringPrefixFull(");
            crate::strings::write_go_quoted(&mut s, prefix);
            s.push(')');
        }
        Facts::Number { lower, upper } => {
            for (b, name) in [(lower, "NumberLowerBound"), (upper, "NumberUpperBound")] {
                if let Some(b) = b {
                    s.push_str(&format!(".{name}({}, {})", Value::Number(b.value.clone()).go_string(), b.inclusive));
                }
            }
        }
        Facts::Collection { min_len, max_len } => {
            if *min_len != 0 {
                s.push_str(&format!(".CollectionLengthLowerBound({min_len})"));
            }
            if *max_len != super::UNBOUNDED_LEN {
                s.push_str(&format!(".CollectionLengthUpperBound({max_len})"));
            }
        }
        _ => {}
    }
    s
}

/// The first of cty's `TestConformance` errors for a value of type `given`
/// where `want` is expected (`None`: it conforms). cty collects attribute
/// problems in Go map order; here they come in name order.
pub fn conformance_error(given: &Type, want: &Type) -> Option<String> {
    if want.is_dynamic() || given == want {
        return None;
    }
    match (given, want) {
        (Type::Object(g), Type::Object(w)) => {
            for (name, _) in g.iter() {
                if w.attr_index(name).is_none() {
                    return Some(format!("unsupported attribute {}", crate::strings::go_quote(name)));
                }
            }
            for (name, _) in w.iter() {
                if g.attr_index(name).is_none() {
                    return Some(format!("missing required attribute {}", crate::strings::go_quote(name)));
                }
            }
            w.iter().find_map(|(name, wt)| g.attr_index(name).and_then(|i| crate::stack::guarded(|| conformance_error(&g.types()[i], wt))))
        }
        (Type::Tuple(g), Type::Tuple(w)) => {
            if g.len() != w.len() {
                return Some(format!("{} elements are required, but got {}", w.len(), g.len()));
            }
            g.elems().iter().zip(w.elems()).find_map(|(g, w)| crate::stack::guarded(|| conformance_error(g, w)))
        }
        (Type::List(g), Type::List(w)) | (Type::Map(g), Type::Map(w)) | (Type::Set(g), Type::Set(w)) => {
            crate::stack::guarded(|| conformance_error(g, w))
        }
        _ => Some(format!("{} required, but received {}", want.friendly_name(), given.friendly_name())),
    }
}

/// The number as a float64 when it is one exactly (big.Float's `Float64()`
/// with `Exact` accuracy).
fn exact_f64(n: &crate::number::Number) -> Option<f64> {
    let f = n.to_f64();
    let back = crate::number::Number::from_f64(f)?;
    (back.cmp(n) == std::cmp::Ordering::Equal).then_some(f)
}

/// Go's `%#v` of a float64: the shortest digits, in exponent form when the
/// exponent is below -4 or at least 6 (strconv's 'g' with precision -1).
fn go_float_v(f: f64) -> String {
    if f.is_infinite() {
        return if f > 0.0 { "+Inf".into() } else { "-Inf".into() };
    }
    let sci = format!("{:e}", f.abs());
    let (mant, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mant.chars().filter(|c| c.is_ascii_digit()).collect();
    let sign = if f.is_sign_negative() { "-" } else { "" };
    if !(-4..6).contains(&exp) {
        let (first, rest) = digits.split_at(1);
        let frac = if rest.is_empty() { String::new() } else { format!(".{rest}") };
        let (es, ea) = if exp < 0 { ('-', -exp) } else { ('+', exp) };
        return format!("{sign}{first}{frac}e{es}{ea:02}");
    }
    let dp = exp + 1;
    if dp <= 0 {
        return format!("{sign}0.{}{digits}", "0".repeat((-dp) as usize));
    }
    let dp = dp as usize;
    if digits.len() <= dp {
        format!("{sign}{digits}{}", "0".repeat(dp - digits.len()))
    } else {
        format!("{sign}{}.{}", &digits[..dp], &digits[dp..])
    }
}

#[cfg(test)]
mod tests {
    use super::go_float_v;

    #[test]
    fn floats_print_as_go_percent_sharp_v() {
        for (f, want) in [
            (0.5, "0.5"),
            (1.5, "1.5"),
            (1e6, "1e+06"),
            (123456.5, "123456.5"),
            (1e-5, "1e-05"),
            (0.0001, "0.0001"),
            (-2.25, "-2.25"),
            (1.2345678e21, "1.2345678e+21"),
        ] {
            assert_eq!(go_float_v(f), want, "{f}");
        }
    }
}
