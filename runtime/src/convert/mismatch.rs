//! cty `MismatchMessage`: why no conversion exists from one type to
//! another, worded as cty words it.
//!
//! Where cty walks attributes in Go map order (so the message may vary
//! between runs when several attributes mismatch), they are walked in name
//! order here.

use super::plan::get_conversion;
use crate::strings::go_quote;
use crate::types::Type;

/// The message cty's `Convert` gives when no conversion from `got` to
/// `want` exists.
pub fn mismatch_message(got: &Type, want: &Type) -> String {
    match (got, want) {
        (Type::Object(_), Type::Object(_)) => objects(got, want),
        (Type::Tuple(_), Type::List(e)) if e.is_dynamic() => "all list elements must have the same type".to_string(),
        (Type::Tuple(_), Type::Set(e)) if e.is_dynamic() => "all set elements must have the same type".to_string(),
        (Type::Object(_), Type::Map(e)) if e.is_dynamic() => "all map elements must have the same type".to_string(),
        (Type::Tuple(_) | Type::Object(_), _) if want.is_collection() => from_structural(got, want),
        _ if got.is_collection() && want.is_collection() => from_collections(got, want),
        _ => required(want),
    }
}

fn required(want: &Type) -> String {
    format!("{} required", want.friendly_name_for_constraint())
}

fn objects(got: &Type, want: &Type) -> String {
    let (Some(got_o), Some(want_o)) = (got.object_type(), want.object_type()) else {
        return required(want);
    };
    let mut missing: Vec<&str> = Vec::new();
    let mut unsafe_mismatch: Option<String> = None;
    let mut safe_mismatch: Option<String> = None;
    for (i, (name, want_aty)) in want_o.iter().enumerate() {
        let Some(got_aty) = got_o.attr_type(name) else {
            if !want_o.is_optional(i) {
                missing.push(name);
            }
            continue;
        };
        if got_aty == want_aty || unsafe_mismatch.is_some() {
            continue;
        }
        if get_conversion(got_aty, want_aty, true).is_none() {
            unsafe_mismatch = Some(format!("attribute {}: {}", go_quote(name), mismatch_message(got_aty, want_aty)));
        }
        if safe_mismatch.is_some() {
            continue;
        }
        if get_conversion(got_aty, want_aty, false).is_none() {
            safe_mismatch = Some(format!("attribute {}: {}", go_quote(name), mismatch_message(got_aty, want_aty)));
        }
    }
    if !missing.is_empty() {
        missing.sort_unstable();
        return match missing.as_slice() {
            [one] => format!("attribute {} is required", go_quote(one)),
            [a, b] => format!("attributes {} and {} are required", go_quote(a), go_quote(b)),
            [init @ .., last] => {
                let mut list = String::new();
                for n in init {
                    list.push_str(&go_quote(n));
                    list.push_str(", ");
                }
                list.push_str("and ");
                list.push_str(&go_quote(last));
                format!("attributes {list} are required")
            }
            [] => String::new(),
        };
    }
    unsafe_mismatch.or(safe_mismatch).unwrap_or_else(|| "incorrect object attributes".to_string())
}

fn from_structural(got: &Type, want: &Type) -> String {
    let Some(want_ety) = want.element_type() else {
        return required(want);
    };
    match got {
        Type::Tuple(t) if !want.is_map() => {
            for (i, gety) in t.elems().iter().enumerate() {
                if gety == want_ety || get_conversion(gety, want_ety, true).is_some() {
                    continue;
                }
                return format!("element {i}: {}", mismatch_message(gety, want_ety));
            }
            format!("all elements must be {}", want_ety.friendly_name_for_constraint())
        }
        Type::Object(o) if want.is_map() => {
            for (name, gaty) in o.iter() {
                if gaty == want_ety || get_conversion(gaty, want_ety, true).is_some() {
                    continue;
                }
                return format!("element {}: {}", go_quote(name), mismatch_message(gaty, want_ety));
            }
            format!("all elements must be {}", want_ety.friendly_name_for_constraint())
        }
        _ => required(want),
    }
}

fn from_collections(got: &Type, want: &Type) -> String {
    let compatible = match want {
        Type::List(_) | Type::Set(_) => got.is_list() || got.is_set(),
        Type::Map(_) => got.is_map(),
        _ => false,
    };
    let (Some(gety), Some(wety)) = (got.element_type(), want.element_type()) else {
        return required(want);
    };
    if !compatible {
        return required(want);
    }
    let noun = match want {
        Type::List(_) => "list element type",
        Type::Set(_) => "set element type",
        _ => "map element type",
    };
    format!("incorrect {noun}: {}", mismatch_message(gety, wety))
}
