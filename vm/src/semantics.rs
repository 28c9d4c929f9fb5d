//! Wording of conditional type mismatches ("Inconsistent conditional
//! result types"), as `hclsyntax` describes them. Operator semantics live
//! in [`crate::ops`].

use runtime::Type;

/// Why two conditional result types do not unify, in the reference's words.
pub fn describe_mismatch(t: &Type, f: &Type) -> String {
    describe(t, f, 0)
}

fn describe(t: &Type, f: &Type, depth: u32) -> String {
    if depth < 64 {
        if let (Some(to), Some(fo)) = (t.object_type(), f.object_type()) {
            for (name, aty) in to.iter() {
                match fo.attr_type(name) {
                    None => {
                        return format!(
                            "The 'true' value includes object attribute {}, which is absent in the 'false' value",
                            runtime::strings::go_quote(name)
                        )
                    }
                    Some(faty) if faty != aty => {
                        return format!(
                            "Type mismatch for object attribute {}: {}",
                            runtime::strings::go_quote(name),
                            describe(aty, faty, depth + 1)
                        )
                    }
                    _ => {}
                }
            }
            for (name, _) in fo.iter() {
                if to.attr_type(name).is_none() {
                    return format!(
                        "The 'false' value includes object attribute {}, which is absent in the 'true' value",
                        runtime::strings::go_quote(name)
                    );
                }
            }
        } else if let (Some(tt), Some(ft)) = (t.tuple_type(), f.tuple_type()) {
            if tt.len() != ft.len() {
                return format!("The 'true' tuple has length {}, but the 'false' tuple has length {}", tt.len(), ft.len());
            }
            for (i, (a, b)) in tt.elems().iter().zip(ft.elems()).enumerate() {
                if a != b {
                    return format!("Type mismatch for tuple element {i}: {}", describe(a, b, depth + 1));
                }
            }
        } else if t.is_collection() && f.is_collection() {
            let same_kind = (t.is_list() && f.is_list()) || (t.is_map() && f.is_map()) || (t.is_set() && f.is_set());
            if let (true, Some(te), Some(fe)) = (same_kind, t.element_type(), f.element_type()) {
                if (te.is_object() && fe.is_object()) || (te.is_tuple() && fe.is_tuple()) {
                    let noun = if t.is_list() {
                        "list"
                    } else if t.is_set() {
                        "set"
                    } else {
                        "map"
                    };
                    return format!("Mismatched {noun} element types: {}", describe(te, fe, depth + 1));
                }
            }
        }
    }
    let (tn, fnm) = (t.friendly_name(), f.friendly_name());
    if tn == fnm {
        return "At least one deeply-nested attribute or element is not compatible across both the 'true' and the 'false' value".into();
    }
    format!("The 'true' value is {tn}, but the 'false' value is {fnm}")
}
