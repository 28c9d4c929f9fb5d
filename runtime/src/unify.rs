//! Type unification, as cty's `convert.Unify` / `convert.UnifyUnsafe`:
//! find one type that all given types convert to (used by conditionals,
//! collection constructors and function parameters), and the conversion
//! for each input (`None` where the input already has that type).
//!
//! Where cty walks object attributes in Go map order, they are walked in
//! name order here, which makes results deterministic where cty's may not
//! be (only for unusual mixes of attribute types).

use crate::convert::{get_conversion, get_conversion_unsafe, Conversion};
use crate::types::Type;
use std::cmp::Ordering;

/// The result of a successful unification: the common type and, per input
/// type, the conversion to it (`None`: no conversion needed).
pub type Unified = (Type, Vec<Option<Conversion>>);

/// cty `convert.Unify`: safe conversions only.
pub fn unify(types: &[Type]) -> Option<Unified> {
    unify_types(types, false)
}

/// cty `convert.UnifyUnsafe`: conversions that may fail are allowed.
pub fn unify_unsafe(types: &[Type]) -> Option<Unified> {
    unify_types(types, true)
}

fn conversion(from: &Type, to: &Type, allow_unsafe: bool) -> Option<Conversion> {
    if allow_unsafe {
        get_conversion_unsafe(from, to)
    } else {
        get_conversion(from, to)
    }
}

/// Conversions from each type to `target`: `None` entries for types equal
/// to it; the whole result `None` when some type cannot be converted.
fn conversions_to(types: &[Type], target: &Type, allow_unsafe: bool) -> Option<Vec<Option<Conversion>>> {
    let mut convs = Vec::with_capacity(types.len());
    for t in types {
        if t == target {
            convs.push(None);
        } else {
            convs.push(Some(conversion(t, target, allow_unsafe)?));
        }
    }
    Some(convs)
}

pub(crate) fn unify_types(types: &[Type], allow_unsafe: bool) -> Option<Unified> {
    if types.is_empty() {
        return None;
    }
    let n = types.len();
    // Identical types unify to themselves without conversions along every
    // path of cty's algorithm; checking it first avoids the quadratic
    // preference sort for long homogeneous tuples.
    // (Not so for optional attributes: cty builds object types anew,
    // without them.)
    if types[1..].iter().all(|t| *t == types[0]) && !types[0].has_optional_attributes() {
        return Some((types[0].clone(), vec![None; n]));
    }
    let unify = || if n > DEDUP_THRESHOLD { unify_distinct(types, allow_unsafe) } else { unify_all(types, allow_unsafe) };
    // Conversion plans nest only inside structural types.
    if types.iter().all(|t| t.shared_part().is_none()) {
        return unify();
    }
    crate::convert::with_plan_memo(unify)
}

/// cty's `unify` proper.
fn unify_all(types: &[Type], allow_unsafe: bool) -> Option<Unified> {
    let n = types.len();
    let count = |f: fn(&Type) -> bool| types.iter().filter(|t| f(t)).count();
    let (maps, lists, sets) = (count(Type::is_map), count(Type::is_list), count(Type::is_set));
    let (objects, tuples, dynamics) = (count(Type::is_object), count(Type::is_tuple), count(Type::is_dynamic));

    if maps > 0 && maps + dynamics == n {
        return unify_collections(types, CollectionKind::Map, allow_unsafe, dynamics > 0);
    } else if maps > 0 && maps + objects + dynamics == n {
        if let Some(r) = unify_objects_as_maps(types, allow_unsafe) {
            return Some(r);
        }
    } else if lists > 0 && lists + dynamics == n {
        return unify_collections(types, CollectionKind::List, allow_unsafe, dynamics > 0);
    } else if lists > 0 && lists + tuples + dynamics == n {
        if let Some(r) = unify_tuples_as_list(types, allow_unsafe) {
            return Some(r);
        }
    } else if sets > 0 && sets + dynamics == n {
        return unify_collections(types, CollectionKind::Set, allow_unsafe, dynamics > 0);
    } else if objects > 0 && objects + dynamics == n {
        return unify_object_types(types, allow_unsafe, dynamics > 0);
    } else if tuples > 0 && tuples + dynamics == n {
        return unify_tuple_types(types, allow_unsafe, dynamics > 0);
    } else if objects > 0 && tuples > 0 {
        return None;
    }

    // Try each type as the target, most preferred first.
    'preferences: for want_idx in sort_types(types) {
        let want = &types[want_idx];
        let mut convs = Vec::with_capacity(n);
        for (i, t) in types.iter().enumerate() {
            if i == want_idx || t == want {
                convs.push(None);
                continue;
            }
            match conversion(t, want, allow_unsafe) {
                Some(c) => convs.push(Some(c)),
                None => continue 'preferences,
            }
        }
        return Some((want.clone(), convs));
    }
    None
}

/// Above this many input types, unification runs over the distinct types
/// only. cty's preference sort is quadratic in the number of inputs (a
/// 100,000-element tuple would take minutes); conversions depend only on
/// the types, so each input gets its representative's conversion.
const DEDUP_THRESHOLD: usize = 64;

// `Type`'s hash and equality ignore the one thing in it that can change
// (an object type's cached `keys()` tuple, set once).
#[allow(clippy::mutable_key_type)]
fn unify_distinct(types: &[Type], allow_unsafe: bool) -> Option<Unified> {
    let mut distinct: Vec<Type> = Vec::new();
    let mut seen: std::collections::HashMap<&Type, usize> = std::collections::HashMap::new();
    let mut rep = Vec::with_capacity(types.len());
    for t in types {
        let i = *seen.entry(t).or_insert_with(|| {
            distinct.push(t.clone());
            distinct.len() - 1
        });
        rep.push(i);
    }
    if distinct.len() == types.len() {
        // Nothing to gain: run cty's algorithm as is (below the threshold
        // for every recursive call on fewer types).
        return unify_all(types, allow_unsafe);
    }
    let (target, convs) = unify_types(&distinct, allow_unsafe)?;
    let convs = types.iter().zip(rep).map(|(t, i)| if *t == target { None } else { convs[i].clone() }).collect();
    Some((target, convs))
}

#[derive(Clone, Copy)]
enum CollectionKind {
    List,
    Set,
    Map,
}

fn all_dynamic(n: usize) -> Unified {
    (Type::Dynamic, (0..n).map(|_| Some(Conversion::all_dynamic())).collect())
}

fn unify_collections(types: &[Type], kind: CollectionKind, allow_unsafe: bool, has_dynamic: bool) -> Option<Unified> {
    if has_dynamic {
        return Some(all_dynamic(types.len()));
    }
    let elems: Vec<Type> = types.iter().filter_map(|t| t.element_type().cloned()).collect();
    let (ety, _) = unify_types(&elems, allow_unsafe)?;
    let target = match kind {
        CollectionKind::List => Type::list(ety),
        CollectionKind::Set => Type::set(ety),
        CollectionKind::Map => Type::map(ety),
    };
    let convs = conversions_to(types, &target, allow_unsafe)?;
    Some((target, convs))
}

/// Object types with identical attribute names unify attribute-wise;
/// otherwise (or when that fails) they unify as a map.
fn unify_object_types(types: &[Type], allow_unsafe: bool, has_dynamic: bool) -> Option<Unified> {
    if has_dynamic {
        return Some(all_dynamic(types.len()));
    }
    let objs: Vec<_> = types.iter().filter_map(Type::object_type).collect();
    let first = objs.first()?;
    if objs.iter().any(|o| o.names() != first.names()) {
        return unify_object_types_to_map(types, allow_unsafe);
    }
    let mut attrs = Vec::with_capacity(first.len());
    for (i, name) in first.names().iter().enumerate() {
        let across: Vec<Type> = objs.iter().map(|o| o.types()[i].clone()).collect();
        let (t, _) = unify_types(&across, allow_unsafe)?;
        attrs.push((name.clone(), t));
    }
    let target = Type::object(attrs);
    match conversions_to(types, &target, allow_unsafe) {
        Some(convs) => Some((target, convs)),
        None => unify_object_types_to_map(types, allow_unsafe),
    }
}

fn unify_object_types_to_map(types: &[Type], allow_unsafe: bool) -> Option<Unified> {
    let atys: Vec<Type> = types.iter().filter_map(Type::object_type).flat_map(|o| o.types().iter().cloned()).collect();
    let (ety, _) = unify_types(&atys, allow_unsafe)?;
    let target = Type::map(ety);
    let convs = conversions_to(types, &target, allow_unsafe)?;
    Some((target, convs))
}

fn unify_tuple_types(types: &[Type], allow_unsafe: bool, has_dynamic: bool) -> Option<Unified> {
    if has_dynamic {
        return Some(all_dynamic(types.len()));
    }
    let tups: Vec<_> = types.iter().filter_map(Type::tuple_type).collect();
    let first = tups.first()?;
    if tups.iter().any(|t| t.len() != first.len()) {
        return unify_tuple_types_to_list(types, allow_unsafe);
    }
    let mut elems = Vec::with_capacity(first.len());
    for i in 0..first.len() {
        let across: Vec<Type> = tups.iter().map(|t| t.elems()[i].clone()).collect();
        let (t, _) = unify_types(&across, allow_unsafe)?;
        elems.push(t);
    }
    let target = Type::tuple(elems);
    match conversions_to(types, &target, allow_unsafe) {
        Some(convs) => Some((target, convs)),
        None => unify_tuple_types_to_list(types, allow_unsafe),
    }
}

fn unify_tuple_types_to_list(types: &[Type], allow_unsafe: bool) -> Option<Unified> {
    let etys: Vec<Type> = types.iter().filter_map(Type::tuple_type).flat_map(|t| t.elems().iter().cloned()).collect();
    let (ety, _) = unify_types(&etys, allow_unsafe)?;
    let target = Type::list(ety);
    let convs = conversions_to(types, &target, allow_unsafe)?;
    Some((target, convs))
}

/// Lists mixed with tuples: the tuples unify to a list first, then all the
/// lists together.
fn unify_tuples_as_list(types: &[Type], allow_unsafe: bool) -> Option<Unified> {
    unify_structural_as_collection(types, allow_unsafe, Type::is_tuple, unify_tuple_types_to_list, Type::is_list)
}

/// Maps mixed with objects: the objects unify to a map first, then all the
/// maps together.
fn unify_objects_as_maps(types: &[Type], allow_unsafe: bool) -> Option<Unified> {
    unify_structural_as_collection(types, allow_unsafe, Type::is_object, unify_object_types_to_map, Type::is_map)
}

fn unify_structural_as_collection(
    types: &[Type],
    allow_unsafe: bool,
    is_structural: fn(&Type) -> bool,
    to_collection: fn(&[Type], bool) -> Option<Unified>,
    is_collection: fn(&Type) -> bool,
) -> Option<Unified> {
    let idxs: Vec<usize> = (0..types.len()).filter(|&i| is_structural(&types[i])).collect();
    let structural: Vec<Type> = idxs.iter().map(|&i| types[i].clone()).collect();
    let (coll_ty, structural_convs) = to_collection(&structural, allow_unsafe)?;
    if !is_collection(&coll_ty) {
        return None;
    }
    let mut replaced = types.to_vec();
    for &i in &idxs {
        replaced[i] = coll_ty.clone();
    }
    let (target, mut convs) = unify_types(&replaced, allow_unsafe)?;
    if !is_collection(&target) {
        return None;
    }
    for (&i, first) in idxs.iter().zip(structural_convs) {
        convs[i] = match (first, convs[i].take()) {
            (first, None) => first,
            (None, then) => then,
            // cty applies the second step to the original value; the first
            // only contributes its errors.
            (Some(first), Some(then)) => Some(Conversion::check_then(first, then)),
        };
    }
    Some((target, convs))
}

/// cty `sortTypes`: indices of `types`, most preferred conversion target
/// first (a topological order of the "converts to" preference graph;
/// indices left out of the order, which cty leaves as zero, are index 0).
///
/// Every pair is compared, a step of work per two (a comparison takes
/// some 10 ns): thousands of distinct
/// types (a tuple of objects each with its own attributes, converted to a
/// list) took seconds and hundreds of megabytes of edges. Once the
/// evaluation is out of steps the order is left unsorted (the evaluation
/// ends when this call returns, without its result).
fn sort_types(types: &[Type]) -> Vec<usize> {
    let n = types.len();
    // (Indices as u32: the edges are up to half the pairs.)
    let mut edges: Vec<Vec<u32>> = vec![Vec::new(); n];
    for i in 0..n {
        crate::work::note((n - i - 1) as u64 / 2);
        if crate::work::exhausted() {
            return (0..n).collect();
        }
        for j in i + 1..n {
            match compare_types(&types[i], &types[j]) {
                Ordering::Less => edges[i].push(j as u32),
                Ordering::Greater => edges[j].push(i as u32),
                Ordering::Equal => {}
            }
        }
    }
    let mut in_degree = vec![0usize; n];
    for outs in &edges {
        for &j in outs {
            in_degree[j as usize] += 1;
        }
    }
    let mut order: Vec<usize> = (0..n).filter(|&i| in_degree[i] == 0).collect();
    let mut head = 0;
    while head < order.len() {
        let i = order[head];
        head += 1;
        for &j in &edges[i] {
            let j = j as usize;
            in_degree[j] -= 1;
            if in_degree[j] == 0 {
                order.push(j);
            }
        }
    }
    order.resize(n, 0);
    order
}

/// cty `compareTypes`: `Less` when `a` is the preferred target (values of
/// `b` convert to `a`), `Greater` for the reverse, `Equal` when neither.
fn compare_types(a: &Type, b: &Type) -> Ordering {
    use Ordering::*;
    if a.is_dynamic() || b.is_dynamic() {
        return match (a.is_dynamic(), b.is_dynamic()) {
            (false, true) => Less,
            (true, false) => Greater,
            _ => Equal,
        };
    }
    if a.is_primitive() && b.is_primitive() && (*a == Type::String || *b == Type::String) {
        return match (*a == Type::String, *b == Type::String) {
            (false, true) => Greater,
            (true, false) => Less,
            _ => Equal,
        };
    }
    match (a, b) {
        (Type::List(x), Type::List(y)) | (Type::Set(x), Type::Set(y)) | (Type::Map(x), Type::Map(y)) => {
            return crate::stack::guarded(|| compare_types(x, y))
        }
        _ => {}
    }
    let swapped =
        (a.is_tuple() && b.is_list()) || (a.is_object() && b.is_map()) || (a.is_set() && b.is_tuple()) || (a.is_set() && b.is_list());
    let (a, b, flip) = if swapped { (b, a, true) } else { (a, b, false) };
    let oriented = |o: Ordering| if flip { o.reverse() } else { o };
    if b.is_set() && (a.is_tuple() || a.is_list()) {
        return oriented(Less);
    }
    if a.is_list() && b.is_tuple() {
        return oriented(Less);
    }
    if a.is_map() && b.is_object() {
        return oriented(Less);
    }
    let supers = |pairs: &mut dyn Iterator<Item = (&Type, &Type)>| {
        let (mut a_super, mut b_super) = (false, false);
        for (x, y) in pairs {
            match crate::stack::guarded(|| compare_types(x, y)) {
                Less => a_super = true,
                Greater => b_super = true,
                Equal => {}
            }
        }
        match (a_super, b_super) {
            (true, false) => oriented(Less),
            (false, true) => oriented(Greater),
            _ => Equal,
        }
    };
    match (a, b) {
        (Type::Object(x), Type::Object(y)) => {
            if x.names() != y.names() {
                return Equal;
            }
            supers(&mut x.types().iter().zip(y.types()))
        }
        (Type::Tuple(x), Type::Tuple(y)) => {
            if x.len() != y.len() {
                return Equal;
            }
            supers(&mut x.elems().iter().zip(y.elems()))
        }
        _ => Equal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preference_order() {
        let types = [Type::Number, Type::String, Type::Bool];
        assert_eq!(sort_types(&types)[0], 1);
        let types = [Type::Dynamic, Type::Number];
        assert_eq!(sort_types(&types), vec![1, 0]);
    }
}
