//! length concat contains distinct element flatten keys values lookup merge
//! range slice chunklist coalesce coalescelist compact zipmap setproduct

use super::{go_int, values_equal, CallCtx, FnError, ELEMENT_COST};
use crate::convert::convert;
use crate::number::Number;
use crate::types::Type;
use crate::unify::unify_unsafe;
use crate::value::Value;
use std::collections::BTreeMap;
use std::sync::Arc;

fn list_value(ety: Type, elems: Vec<Value>) -> Result<Value, FnError> {
    Value::list_of(ety, elems).map_err(|e| FnError::new(format!("panic in function implementation: {e}")))
}

fn map_value<K: AsRef<str>>(ety: Type, entries: Vec<(K, Value)>) -> Result<Value, FnError> {
    Value::map_of(ety, entries).map_err(|e| FnError::new(format!("panic in function implementation: {e}")))
}

fn charge_elems(ctx: &mut CallCtx, n: usize) -> Result<(), FnError> {
    ctx.charge((n as u64).saturating_mul(ELEMENT_COST))
}

// ----- length ---------------------------------------------------------------

pub fn length_type(args: &[Value]) -> Result<Type, FnError> {
    let measurable = match &args[0] {
        Value::List(_) | Value::Map(_) | Value::Set(_) | Value::Tuple(_) => true,
        v @ (Value::Null(_) | Value::Unknown(_)) => {
            let t = v.null_or_unknown_type().unwrap_or(&Type::Dynamic);
            t.is_tuple() || t.is_list() || t.is_map() || t.is_set() || t.is_dynamic()
        }
        _ => false,
    };
    if !measurable {
        return Err(FnError::new("collection must be a list, a map or a tuple"));
    }
    Ok(Type::Number)
}

pub fn length(args: &[Value], _: &Type, _: &mut CallCtx) -> Result<Value, FnError> {
    Ok(args[0].cty_length())
}

// ----- concat ---------------------------------------------------------------

pub fn concat_type(args: &[Value]) -> Result<Type, FnError> {
    if args.is_empty() {
        return Err(FnError::new("at least one argument is required"));
    }
    if args[0].ty().is_list() {
        let tys: Vec<Type> = args.iter().map(Value::ty).collect();
        if tys.iter().all(Type::is_list) {
            if let Some((t, _)) = unify_unsafe(&tys) {
                return Ok(t);
            }
        }
    }
    let mut etys = Vec::new();
    for (i, v) in args.iter().enumerate() {
        match v.ty() {
            Type::Tuple(tt) => etys.extend(tt.elems().iter().cloned()),
            Type::List(e) => {
                if !v.is_known() {
                    return Ok(Type::Dynamic);
                }
                let n = v.length().unwrap_or(0);
                etys.extend(std::iter::repeat((*e).clone()).take(n));
            }
            t => return Err(FnError::arg(i, format!("all arguments must be lists or tuples; got {}", t.friendly_name()))),
        }
    }
    Ok(Type::tuple(etys))
}

pub fn concat(args: &[Value], ret: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let total: usize = args.iter().map(|a| a.elements_slice().len()).sum();
    charge_elems(ctx, total)?;
    let mut vals = Vec::with_capacity(total);
    match ret {
        Type::List(ety) => {
            for (i, l) in args.iter().enumerate() {
                let l = convert(l, ret).map_err(|e| FnError::arg(i, e.to_string()))?;
                vals.extend(l.elements_slice().iter().cloned());
            }
            list_value((**ety).clone(), vals)
        }
        _ => {
            for s in args {
                vals.extend(s.elements_slice().iter().cloned());
            }
            Ok(Value::tuple(vals))
        }
    }
}

// ----- contains, distinct, element --------------------------------------------

pub fn contains(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let searchable = match &args[0] {
        Value::List(_) | Value::Tuple(_) | Value::Set(_) => true,
        v @ (Value::Null(_) | Value::Unknown(_)) => {
            let t = v.null_or_unknown_type().unwrap_or(&Type::Dynamic);
            t.is_list() || t.is_tuple() || t.is_set()
        }
        _ => false,
    };
    if !searchable {
        return Err(FnError::new("argument must be list, tuple, or set"));
    }
    if args[0].is_null() {
        return Err(FnError::new("cannot search a nil list or set"));
    }
    if args[0].elements_slice().is_empty() {
        return Ok(Value::Bool(false));
    }
    if let (Value::Set(s), Value::String(_)) = (&args[0], &args[1]) {
        if s.element_type() == &Type::String && s.elems().iter().all(Value::is_known) {
            return Ok(Value::Bool(s.contains(&args[1])));
        }
    }
    let needle = &args[1];
    let mut unknown = false;
    let elems = args[0].elements_slice();
    for (compared, e) in elems.iter().enumerate() {
        // Two known strings are equal exactly when their (NFC) texts are,
        // which is what `equals_tri` decides for them too.
        let equal = match (needle, e) {
            (Value::String(a), Value::String(b)) if a.len() == b.len() && a.len() >= LONG_TEXT => {
                // Long texts of equal length are read to compare them.
                ctx.scan(a);
                if ctx.out_of_steps() {
                    return Err(ctx.stopped());
                }
                a == b
            }
            (Value::String(a), Value::String(b)) => a == b,
            _ => match needle.equals_tri(e) {
                crate::value::Tri::True => true,
                crate::value::Tri::Unknown => {
                    unknown = true;
                    false
                }
                crate::value::Tri::False => false,
            },
        };
        if equal {
            ctx.work(compared as u64 + 1);
            return Ok(Value::Bool(true));
        }
    }
    ctx.work(elems.len() as u64);
    Ok(if unknown { Value::unknown(Type::Bool) } else { Value::Bool(false) })
}

pub fn same_type(args: &[Value]) -> Result<Type, FnError> {
    Ok(args[0].ty())
}

/// Texts this long are counted as scanned work when compared (shorter ones
/// compare in about a step).
const LONG_TEXT: usize = 256;

pub fn distinct(args: &[Value], ret: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let list = &args[0];
    ctx.work(list.elements_slice().len() as u64);
    if !list.is_wholly_known() {
        return Ok(Value::unknown(ret.clone()));
    }
    let elems = list.elements_slice();
    let mut out: Vec<Value> = Vec::new();
    if elems.iter().all(|e| matches!(e, Value::String(_))) {
        // A string shared by several elements is recognized by its storage
        // before its text is hashed; each text hashed is scanned work.
        let mut seen_storage = ahash::AHashSet::new();
        let mut seen = ahash::AHashSet::new();
        for e in elems {
            let Value::String(s) = e else { continue };
            if !seen_storage.insert(std::sync::Arc::as_ptr(s.as_arc()) as *const u8 as usize) {
                continue;
            }
            ctx.scan(s);
            if ctx.out_of_steps() {
                return Err(ctx.stopped());
            }
            if seen.insert(s.as_str()) {
                out.push(e.clone());
            }
        }
    } else {
        // cty compares each element with every one kept; equal values
        // share a hash of their equality text, so only those sharing one
        // are compared (comparing all took two minutes for 300,000
        // numbers). The text is hashed as it is written, never held: the
        // texts of values sharing parts may be far larger than the values.
        let seed = ahash::RandomState::new();
        let mut kept: ahash::AHashMap<u64, Vec<usize>> = ahash::AHashMap::new();
        for e in elems {
            let Some(key) = crate::value::equality_hash(e, &seed) else { return Err(ctx.stopped()) };
            let same = kept.entry(key).or_default();
            if !same.iter().any(|&i| values_equal(&out[i], e)) {
                same.push(out.len());
                out.push(e.clone());
            }
        }
    }
    let ety = ret.element_type().cloned().unwrap_or(Type::Dynamic);
    list_value(ety, out)
}

pub fn element_type(args: &[Value]) -> Result<Type, FnError> {
    let (list, index) = (&args[0], &args[1]);
    if let Value::Number(n) = index {
        if n.sign() < 0 {
            return Err(FnError::new("cannot use element function with a negative index"));
        }
    }
    match list.ty() {
        Type::List(e) => Ok((*e).clone()),
        Type::Tuple(tt) => {
            if !index.is_known() {
                return Ok(Type::Dynamic);
            }
            let i = go_int(index).map_err(|e| FnError::new(format!("invalid index: {e}")))?;
            if tt.is_empty() {
                return Err(FnError::new("cannot use element function with an empty list"));
            }
            Ok(tt.elems()[(i % tt.len() as i64) as usize].clone())
        }
        t => Err(FnError::new(format!("cannot read elements from {}", t.friendly_name()))),
    }
}

pub fn element(args: &[Value], ret: &Type, _: &mut CallCtx) -> Result<Value, FnError> {
    let i = go_int(&args[1]).map_err(|e| FnError::new(format!("invalid index: {e}")))?;
    if i < 0 {
        return Err(FnError::new("cannot use element function with a negative index"));
    }
    if !args[0].is_known() {
        return Ok(Value::unknown(ret.clone()));
    }
    let elems = args[0].elements_slice();
    if elems.is_empty() {
        return Err(FnError::new("cannot use element function with an empty list"));
    }
    Ok(elems[(i % elems.len() as i64) as usize].clone())
}

// ----- flatten ----------------------------------------------------------------

/// Why [`flattener`] stopped.
enum FlattenStop {
    /// The call is out of steps.
    Steps,
    /// More leaves than `room` units hold (at [`ELEMENT_COST`] each).
    Size,
}

/// cty's flattener: the leaves of `list` (elements that are not lists,
/// sets or tuples) into `out`; `Ok(false)` when a nested length is
/// unknown. A step is noted per leaf and per collection entered, and the
/// walk stops once the call is out of steps or the leaves would not fit
/// `room` (shared parts repeat their leaves: 1,024 references to a
/// 100,000-element list took 12 s and 4.7 GB).
fn flattener(list: &Value, out: &mut Vec<Value>, room: u64) -> Result<bool, FlattenStop> {
    if !list.cty_length().is_known() {
        return Ok(false);
    }
    let elems = list.elements_slice();
    crate::work::note(elems.len() as u64 + 1);
    if crate::work::exhausted() {
        return Err(FlattenStop::Steps);
    }
    let mut known = true;
    for v in elems {
        if v.unknown_type().is_some_and(Type::is_dynamic) {
            known = false;
        }
        let t = v.ty();
        if !v.is_null() && (t.is_list() || t.is_set() || t.is_tuple()) {
            if !v.is_known() {
                known = false;
                continue;
            }
            if !crate::stack::guarded(|| flattener(v, out, room))? {
                known = false;
            }
        } else {
            if (out.len() as u64 + 1).saturating_mul(ELEMENT_COST) > room {
                return Err(FlattenStop::Size);
            }
            out.push(v.clone());
        }
    }
    Ok(known)
}

pub fn flatten_type(args: &[Value]) -> Result<Type, FnError> {
    if !args[0].is_wholly_known() {
        return Ok(Type::Dynamic);
    }
    let t = args[0].ty();
    if !t.is_list() && !t.is_set() && !t.is_tuple() {
        return Err(FnError::new("can only flatten lists, sets and tuples"));
    }
    let mut out = Vec::new();
    match flattener(&args[0], &mut out, crate::work::room()) {
        Ok(true) => Ok(Type::tuple(out.iter().map(Value::ty).collect())),
        Ok(false) => Ok(Type::Dynamic),
        Err(FlattenStop::Steps) => Err(FnError::new(crate::work::OUT_OF_STEPS)),
        // Left to the call, which refuses it (spending the budget, so that
        // the evaluation ends there as any call out of budget ends it).
        Err(FlattenStop::Size) => Ok(Type::Dynamic),
    }
}

pub fn flatten(args: &[Value], ret: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    if args[0].elements_slice().is_empty() {
        return Ok(Value::empty_tuple());
    }
    let mut out = Vec::new();
    match flattener(&args[0], &mut out, ctx.remaining()) {
        Ok(true) => {}
        Ok(false) => return Ok(Value::unknown(ret.clone())),
        Err(FlattenStop::Steps) => return Err(ctx.stopped()),
        Err(FlattenStop::Size) => return Err(ctx.too_large()),
    }
    charge_elems(ctx, out.len())?;
    Ok(Value::tuple(out))
}

/// setproduct's unknown result when an argument's length is unknown: its
/// length is at most the product of the arguments' largest lengths (when
/// that is small), and at least one unless that is zero.
fn setproduct_unknown(args: &[Value], ret: &Type) -> Value {
    let mut max_len: u64 = 1;
    for a in args {
        let ty = a.ty();
        let arg_max = if ty.is_collection() {
            a.length_bounds().1
        } else if let Some(n) = ty.tuple_len() {
            n as u64
        } else {
            return Value::unknown(ret.clone());
        };
        if arg_max > 1024 {
            return Value::unknown(ret.clone());
        }
        max_len *= arg_max;
        if max_len > 2048 {
            return Value::unknown(ret.clone());
        }
    }
    let mut b = Value::unknown(ret.clone()).refine();
    if max_len == 0 {
        b.collection_length(0);
    } else {
        b.collection_length_lower_bound(1).collection_length_upper_bound(max_len);
    }
    b.into_value()
}

// ----- keys, values, lookup -------------------------------------------------------

pub fn keys_type(args: &[Value]) -> Result<Type, FnError> {
    let object_type = match &args[0] {
        Value::Object(o) => o.object_type(),
        v @ (Value::Null(_) | Value::Unknown(_)) => match v.null_or_unknown_type() {
            Some(Type::Object(ot)) => ot,
            Some(Type::Map(_)) => return Ok(Type::list(Type::String)),
            _ => return Err(FnError::arg(0, "must have map or object type")),
        },
        Value::Map(_) => return Ok(Type::list(Type::String)),
        _ => return Err(FnError::arg(0, "must have map or object type")),
    };
    // The type of the (cached) keys tuple: a tuple of as many strings.
    Ok(object_type.keys_tuple().ty())
}

pub fn keys(args: &[Value], ret: &Type, _: &mut CallCtx) -> Result<Value, FnError> {
    let object_type = match &args[0] {
        Value::Object(o) => Some(o.object_type()),
        v @ (Value::Null(_) | Value::Unknown(_)) if matches!(v.null_or_unknown_type(), Some(Type::Object(_))) => {
            match v.null_or_unknown_type() {
                Some(Type::Object(ot)) => Some(ot),
                _ => None,
            }
        }
        _ => None,
    };
    match object_type {
        // Depends on the type alone; built once per object type.
        Some(ot) => Ok(ot.keys_tuple().clone()),
        None => {
            let Some(m) = args[0].as_map() else {
                return Ok(Value::unknown(ret.clone()));
            };
            list_value(Type::String, m.keys().iter().map(|k| Value::String(k.clone())).collect())
        }
    }
}

pub fn values_type(args: &[Value]) -> Result<Type, FnError> {
    match args[0].ty() {
        Type::Map(e) => Ok(Type::list((*e).clone())),
        Type::Object(ot) => Ok(Type::tuple(ot.types().to_vec())),
        _ => Err(FnError::new("values() requires a map as the first argument")),
    }
}

pub fn values(args: &[Value], ret: &Type, _: &mut CallCtx) -> Result<Value, FnError> {
    let vals = args[0].elements_slice().to_vec();
    match ret {
        Type::Tuple(_) => Ok(Value::tuple(vals)),
        _ => list_value(ret.element_type().cloned().unwrap_or(Type::Dynamic), vals),
    }
}

pub fn lookup_type(args: &[Value]) -> Result<Type, FnError> {
    // Borrow the collection's type instead of cloning it from `ty()`.
    let (object, map_elem) = match &args[0] {
        Value::Object(o) => (Some(&**o.object_type()), None),
        Value::Map(m) => (None, Some(m.element_type())),
        v @ (Value::Null(_) | Value::Unknown(_)) if matches!(v.null_or_unknown_type(), Some(Type::Object(_) | Type::Map(_))) => {
            match v.null_or_unknown_type() {
                Some(Type::Object(ot)) => (Some(&**ot), None),
                Some(Type::Map(e)) => (None, Some(&**e)),
                _ => (None, None),
            }
        }
        _ => (None, None),
    };
    if let Some(ot) = object {
        let Some(key) = args[1].as_str() else {
            return Ok(Type::Dynamic);
        };
        return match ot.attr_type(key) {
            Some(t) => Ok(t.clone()),
            None => Ok(args[2].ty()),
        };
    }
    match map_elem {
        Some(e) => {
            if !args[2].has_type(e) && convert(&args[2], e).is_err() {
                return Err(FnError::arg(2, "the default value must have the same type as the map elements"));
            }
            Ok(e.clone())
        }
        None => Err(FnError::arg(0, "lookup() requires a map as the first argument")),
    }
}

pub fn lookup(args: &[Value], ret: &Type, _: &mut CallCtx) -> Result<Value, FnError> {
    let key = args[1].as_str().unwrap_or("");
    if !args[0].is_wholly_known() {
        return Ok(Value::unknown(ret.clone()));
    }
    // String values are NFC by construction, as are attribute names and
    // map keys, so the key is used as it is.
    let found = match &args[0] {
        Value::Object(o) => o.get(key),
        Value::Map(m) => m.get(key),
        _ => None,
    };
    if let Some(v) = found {
        return Ok(v.clone());
    }
    convert(&args[2], ret).map_err(|e| FnError::new(e.to_string()))
}

// ----- merge --------------------------------------------------------------------

pub fn merge_type(args: &[Value]) -> Result<Type, FnError> {
    if args.is_empty() {
        return Ok(Type::empty_object());
    }
    // Arguments all of one map or object type: that is the result's type,
    // found without placing every key (which the loop below does to build
    // the type of differing ones).
    let first_ty = args[0].ty();
    if (first_ty.is_map() || first_ty.is_object()) && args[1..].iter().all(|a| a.ty() == first_ty) {
        return Ok(first_ty);
    }
    // Names are shared (they are NFC already, as type names and map keys).
    let mut attrs: LastWins<Arc<str>, Type> = LastWins::default();
    let mut first: Option<Type> = None;
    let mut matching = true;
    let mut attrs_known = true;
    for a in args {
        let t = a.ty();
        if t.is_dynamic() {
            return Ok(Type::Dynamic);
        }
        match &t {
            Type::Object(ot) => {
                if !a.is_null() {
                    for (n, at) in ot.iter() {
                        attrs.insert(n.clone(), at.clone());
                    }
                }
            }
            Type::Map(e) => match a {
                Value::Null(_) => {}
                Value::Map(m) => {
                    crate::work::note(m.keys().len() as u64);
                    if crate::work::exhausted() {
                        return Err(FnError::new(crate::work::OUT_OF_STEPS));
                    }
                    for k in m.keys() {
                        attrs.insert(k.as_arc().clone(), (**e).clone());
                    }
                }
                _ => attrs_known = false,
            },
            _ => {
                return Err(FnError::new(format!(
                    "arguments must be maps or objects, got {}",
                    crate::strings::go_quote(&t.friendly_name())
                )))
            }
        }
        match &first {
            None => first = Some(t),
            Some(f) => {
                if *f != t {
                    matching = false;
                }
            }
        }
    }
    if matching {
        return Ok(first.unwrap_or_else(Type::empty_object));
    }
    if !attrs_known {
        return Ok(Type::Dynamic);
    }
    if attrs.is_empty() {
        return Ok(Type::empty_object());
    }
    let mut attrs = attrs.entries;
    crate::types::sort_dedup_last_wins(&mut attrs);
    let (names, types): (Vec<Arc<str>>, Vec<Type>) = attrs.into_iter().unzip();
    Ok(Type::Object(Arc::new(crate::types::ObjectType::from_sorted_unchecked(names, types))))
}

pub fn merge(args: &[Value], ret: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let mut out: LastWins<crate::value::Str, Value> = LastWins::default();
    for a in args {
        if a.is_null() {
            continue;
        }
        if let Some(pairs) = a.key_value_pairs() {
            // A step per comparison placing a key may make (a thousand
            // references to one large object merged took 18 s).
            let levels = u64::from(usize::BITS - (out.len() + pairs.len()).leading_zeros()) + 1;
            ctx.work((pairs.len() as u64).saturating_mul(levels));
            if ctx.out_of_steps() {
                return Err(ctx.stopped());
            }
            for (k, v) in pairs {
                out.insert(k, v.clone());
            }
            continue;
        }
        // Only a dynamic argument before it lets a value other than a map or
        // object get here (the result type is then dynamic, unchecked).
        // cty iterates it anyway and reads each key as a string: a set's
        // keys are its elements, a list's or tuple's are numbers, anything
        // else cannot be iterated.
        let panic = |what: &str| Err(FnError::new(format!("panic in function implementation: {what}")));
        match a {
            Value::Set(_) => {
                for v in a.elements_slice() {
                    match v {
                        Value::String(k) => {
                            out.insert(k.clone(), v.clone());
                        }
                        Value::Null(Type::String) => return panic("value is null"),
                        Value::Unknown(u) if u.ty() == &Type::String => return panic("value is unknown"),
                        _ => return panic("not a string"),
                    }
                }
            }
            Value::List(_) | Value::Tuple(_) => {
                if !a.elements_slice().is_empty() {
                    return panic("not a string");
                }
            }
            _ => return panic("attempt to iterate on non-collection, non-tuple type"),
        }
    }
    charge_elems(ctx, out.len())?;
    // (The value constructors sort the names themselves.)
    let out = out.entries;
    match ret {
        Type::Map(e) => map_value((**e).clone(), out.into_iter().map(|(k, v)| (k.to_string(), v)).collect()),
        _ => Ok(Value::object_from_strs(out)),
    }
}

/// What merging maps and objects keeps: each name once, with the last
/// value given for it, in the order names first came (the value and type
/// constructors sort them, with [`crate::types::sort_dedup_last_wins`]).
/// Placing a name is a hash lookup, and the names are sorted once, there
/// (a `BTreeMap` compared each name with a dozen others as it went:
/// merging a thousand one-attribute objects took 1.2 M instructions to
/// place the names).
struct LastWins<K, T> {
    index: ahash::AHashMap<K, usize>,
    entries: Vec<(K, T)>,
}

impl<K, T> Default for LastWins<K, T> {
    fn default() -> Self {
        LastWins { index: ahash::AHashMap::new(), entries: Vec::new() }
    }
}

impl<K: std::hash::Hash + Eq + Clone, T> LastWins<K, T> {
    fn insert(&mut self, name: K, value: T) {
        match self.index.entry(name) {
            std::collections::hash_map::Entry::Occupied(e) => {
                if let Some(entry) = self.entries.get_mut(*e.get()) {
                    entry.1 = value;
                }
            }
            std::collections::hash_map::Entry::Vacant(e) => {
                self.entries.push((e.key().clone(), value));
                e.insert(self.entries.len() - 1);
            }
        }
    }

    fn len(&self) -> usize {
        self.entries.len()
    }

    fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

// ----- range --------------------------------------------------------------------

const RANGE_LIMIT: usize = 1024;

pub fn range(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let nums: Vec<&Number> = args.iter().filter_map(Value::as_number).collect();
    if nums.len() != args.len() {
        return Err(FnError::new("a number is required"));
    }
    let zero = Number::zero();
    let one = Number::from_i64(1);
    let minus_one = Number::from_i64(-1);
    let (start, end, step) = match nums.as_slice() {
        [end] => (zero.clone(), (*end).clone(), if end.cmp(&zero).is_lt() { minus_one } else { one }),
        [start, end] => ((*start).clone(), (*end).clone(), if end.cmp(start).is_lt() { minus_one } else { one }),
        [start, end, step] => ((*start).clone(), (*end).clone(), (*step).clone()),
        _ => return Err(FnError::new("must have one, two, or three arguments")),
    };
    let down = step.cmp(&zero).is_lt();
    if down {
        if end.cmp(&start).is_gt() {
            return Err(FnError::arg(1, "end must be less than start when step is negative"));
        }
    } else if end.cmp(&start).is_lt() {
        return Err(FnError::arg(1, "end must be greater than start when step is positive"));
    }
    let mut vals = Vec::new();
    let mut num = start;
    loop {
        let done = if down { num.cmp(&end).is_le() } else { num.cmp(&end).is_ge() };
        if done {
            break;
        }
        if vals.len() >= RANGE_LIMIT {
            return Err(FnError::new(
                "more than 1024 values were generated; either decrease the difference between start and end or use a smaller step",
            ));
        }
        charge_elems(ctx, 1)?;
        let next = num.add(&step).map_err(|e| FnError::new(format!("panic in function implementation: {e}")))?;
        vals.push(Value::Number(num));
        num = next;
    }
    list_value(Type::Number, vals)
}

// ----- slice --------------------------------------------------------------------

/// cty's sliceIndexes: (start, end, both known).
fn slice_indexes(args: &[Value]) -> Result<(usize, usize, bool), FnError> {
    let list = &args[0];
    let length = match list {
        Value::Unknown(u) if matches!(u.ty(), Type::Tuple(_)) => u.ty().tuple_len(),
        Value::Unknown(_) => None,
        _ => list.length(),
    };
    let mut start = None;
    let mut end = None;
    if args[1].is_known() {
        let s = go_int(&args[1]).map_err(|e| FnError::arg(1, format!("invalid start index: {e}")))?;
        if s < 0 {
            return Err(FnError::arg(1, "start index must not be less than zero"));
        }
        if matches!(length, Some(l) if s as u64 > l as u64) {
            return Err(FnError::arg(1, "start index must not be greater than the length of the list"));
        }
        start = Some(s as usize);
    }
    if args[2].is_known() {
        let e = go_int(&args[2]).map_err(|e| FnError::arg(2, format!("invalid end index: {e}")))?;
        if e < 0 {
            return Err(FnError::arg(2, "end index must not be less than zero"));
        }
        if matches!(length, Some(l) if e as u64 > l as u64) {
            return Err(FnError::arg(2, "end index must not be greater than the length of the list"));
        }
        end = Some(e as usize);
    }
    if let (Some(s), Some(e)) = (start, end) {
        if s > e {
            return Err(FnError::arg(1, "start index must not be greater than end index"));
        }
        return Ok((s, e, true));
    }
    Ok((start.unwrap_or(0), end.unwrap_or(0), false))
}

pub fn slice_type(args: &[Value]) -> Result<Type, FnError> {
    let t = args[0].ty();
    if t.is_set() {
        return Err(FnError::arg(
            0,
            "cannot slice a set, because its elements do not have indices; explicitly convert to a list if the ordering of the result is not important",
        ));
    }
    if !t.is_list() && !t.is_tuple() {
        return Err(FnError::arg(0, "must be a list or tuple value"));
    }
    let (s, e, known) = slice_indexes(args)?;
    match &t {
        Type::Tuple(tt) if known => Ok(Type::tuple(tt.elems().get(s..e).unwrap_or(&[]).to_vec())),
        Type::Tuple(_) => Ok(Type::Dynamic),
        _ => Ok(t),
    }
}

pub fn slice(args: &[Value], ret: &Type, _: &mut CallCtx) -> Result<Value, FnError> {
    if ret.is_dynamic() {
        return Ok(Value::dynamic_unknown());
    }
    let (s, e, _) = slice_indexes(args)?;
    let part = args[0].elements_slice().get(s..e).unwrap_or(&[]).to_vec();
    match ret {
        Type::Tuple(_) => Ok(Value::tuple(part)),
        _ => list_value(ret.element_type().cloned().unwrap_or(Type::Dynamic), part),
    }
}

// ----- chunklist ------------------------------------------------------------------

pub fn chunklist_type(args: &[Value]) -> Result<Type, FnError> {
    Ok(Type::list(args[0].ty()))
}

pub fn chunklist(args: &[Value], _: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let list = &args[0];
    let size = go_int(&args[1]).map_err(|e| FnError::new(format!("invalid size: {e}")))?;
    if size < 0 {
        return Err(FnError::new("the size argument must be positive"));
    }
    let elems = list.elements_slice();
    if elems.is_empty() {
        return Ok(Value::list_empty(list.ty()));
    }
    if size == 0 {
        return list_value(list.ty(), vec![list.clone()]);
    }
    let size = usize::try_from(size).unwrap_or(usize::MAX);
    let ety = list.ty().element_type().cloned().unwrap_or(Type::Dynamic);
    let chunks = elems.len().div_ceil(size);
    charge_elems(ctx, chunks.saturating_add(elems.len()))?;
    let mut out = Vec::with_capacity(chunks);
    for c in elems.chunks(size) {
        out.push(list_value(ety.clone(), c.to_vec())?);
    }
    list_value(list.ty(), out)
}

// ----- coalesce, coalescelist, compact ------------------------------------------------

pub fn coalesce_type(args: &[Value]) -> Result<Type, FnError> {
    let tys: Vec<Type> = args.iter().map(Value::ty).collect();
    match unify_unsafe(&tys) {
        Some((t, _)) if !tys.is_empty() => Ok(t),
        _ => Err(FnError::new("all arguments must have the same type")),
    }
}

pub fn coalesce(args: &[Value], ret: &Type, _: &mut CallCtx) -> Result<Value, FnError> {
    for a in args {
        if !a.is_known() {
            return Ok(Value::unknown(ret.clone()));
        }
        if a.is_null() {
            continue;
        }
        return convert(a, ret).map_err(|e| FnError::new(e.to_string()));
    }
    Err(FnError::new("no non-null arguments"))
}

pub fn coalescelist_type(args: &[Value]) -> Result<Type, FnError> {
    if args.is_empty() {
        return Err(FnError::new("at least one argument is required"));
    }
    let mut tys = Vec::with_capacity(args.len());
    for a in args {
        if !a.is_known() {
            return Ok(Type::Dynamic);
        }
        let t = a.ty();
        if !t.is_list() && !t.is_tuple() {
            return Err(FnError::new("coalescelist arguments must be lists or tuples"));
        }
        tys.push(t);
    }
    if tys.iter().all(|t| *t == tys[0]) {
        return Ok(tys.swap_remove(0));
    }
    Ok(Type::Dynamic)
}

pub fn coalescelist(args: &[Value], ret: &Type, _: &mut CallCtx) -> Result<Value, FnError> {
    for a in args {
        if !a.is_known() {
            return Ok(Value::unknown(ret.clone()));
        }
        if a.is_null() {
            continue;
        }
        if !a.elements_slice().is_empty() {
            return Ok(a.clone());
        }
    }
    Err(FnError::new("no non-null arguments"))
}

pub fn compact(args: &[Value], ret: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    ctx.work(args[0].elements_slice().len() as u64);
    if !args[0].is_wholly_known() {
        return Ok(Value::unknown(ret.clone()));
    }
    let out: Vec<Value> = args[0].elements_slice().iter().filter(|v| matches!(v.as_str(), Some(s) if !s.is_empty())).cloned().collect();
    list_value(Type::String, out)
}

// ----- zipmap ---------------------------------------------------------------------

/// Notes the work of placing key `k` among `n` keys: it may be read by a
/// comparison at each level of the search (long keys shared by many
/// elements were copied and compared whole, unnoted).
fn note_key_work(k: &str, n: usize) {
    if k.len() >= LONG_TEXT {
        let levels = u64::from(usize::BITS - n.leading_zeros()) + 1;
        crate::work::note((k.len() as u64).saturating_mul(levels) / crate::work::SCAN_BYTES_PER_STEP);
    }
}

pub fn zipmap_type(args: &[Value]) -> Result<Type, FnError> {
    let (keys, values) = (&args[0], &args[1]);
    match values.ty() {
        Type::List(e) => Ok(Type::map((*e).clone())),
        Type::Tuple(tt) => {
            if !keys.is_wholly_known() {
                return Ok(Type::Dynamic);
            }
            let ks = keys.elements_slice();
            if ks.len() != tt.len() {
                return Err(FnError::new(format!("number of keys ({}) does not match number of values ({})", ks.len(), tt.len())));
            }
            let mut attrs: BTreeMap<&str, Type> = BTreeMap::new();
            for (i, k) in ks.iter().enumerate() {
                let Some(k) = k.as_str() else {
                    return Err(FnError::new(format!("keys list has null value at index {i}")));
                };
                note_key_work(k, ks.len());
                if crate::work::exhausted() {
                    return Err(FnError::new(crate::work::OUT_OF_STEPS));
                }
                attrs.insert(k, tt.elems()[i].clone());
            }
            Ok(Type::object(attrs))
        }
        _ => Err(FnError::new("values argument must be a list or tuple value")),
    }
}

pub fn zipmap(args: &[Value], ret: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let (keys, values) = (&args[0], &args[1]);
    if !keys.is_wholly_known() {
        return Ok(Value::unknown(ret.clone()));
    }
    let (ks, vs) = (keys.elements_slice(), values.elements_slice());
    if ks.len() != vs.len() {
        return Err(FnError::new(format!("number of keys ({}) does not match number of values ({})", ks.len(), vs.len())));
    }
    charge_elems(ctx, ks.len())?;
    let mut out: BTreeMap<&str, Value> = BTreeMap::new();
    for (k, v) in ks.iter().zip(vs) {
        let k = k.as_str().ok_or_else(|| FnError::new("panic in function implementation: value is null"))?;
        note_key_work(k, ks.len());
        if ctx.out_of_steps() {
            return Err(ctx.stopped());
        }
        out.insert(k, v.clone());
    }
    match ret {
        Type::Map(e) => map_value((**e).clone(), out.into_iter().collect()),
        Type::Object(_) => Ok(Value::object(out.into_iter().collect())),
        t => Err(FnError::new(format!("internally selected incorrect result type {} (this is a bug)", t.friendly_name()))),
    }
}

// ----- setproduct -------------------------------------------------------------------

pub fn setproduct_type(args: &[Value]) -> Result<Type, FnError> {
    if args.len() < 2 {
        return Err(FnError::new("at least two arguments are required"));
    }
    let mut list_count = 0;
    let mut etys = Vec::with_capacity(args.len());
    for (i, a) in args.iter().enumerate() {
        match a.ty() {
            Type::Set(e) => etys.push((*e).clone()),
            Type::List(e) => {
                etys.push((*e).clone());
                list_count += 1;
            }
            Type::Tuple(tt) => {
                list_count += 1;
                if tt.is_empty() {
                    etys.push(Type::Dynamic);
                    continue;
                }
                match unify_unsafe(tt.elems()) {
                    Some((t, _)) => etys.push(t),
                    None => return Err(FnError::arg(i, "all elements must be of the same type")),
                }
            }
            _ => return Err(FnError::arg(i, "a set or a list is required")),
        }
    }
    if list_count == args.len() {
        Ok(Type::list(Type::tuple(etys)))
    } else {
        Ok(Type::set(Type::tuple(etys)))
    }
}

pub fn setproduct(args: &[Value], ret: &Type, ctx: &mut CallCtx) -> Result<Value, FnError> {
    let Some(ety) = ret.element_type().cloned() else {
        // Called with a dynamic-typed argument (it takes unknowns).
        return Err(FnError::new("panic in function implementation: not a collection type"));
    };
    let mut total: u64 = 1;
    let mut unknown_len = false;
    for a in args {
        match a.is_known().then(|| a.cty_length()) {
            Some(Value::Number(n)) => total = total.saturating_mul(n.to_u64().unwrap_or(u64::MAX)),
            _ => unknown_len = true,
        }
    }
    if unknown_len {
        return Ok(setproduct_unknown(args, ret));
    }
    if total == 0 {
        return Ok(if ret.is_list() { Value::list_empty(ety) } else { Value::set_empty(ety) });
    }
    ctx.charge(total.saturating_mul(ELEMENT_COST.saturating_mul(args.len() as u64 + 1)))?;
    let sub_tys: Vec<Type> = ety.tuple_type().map(|tt| tt.elems().to_vec()).unwrap_or_default();
    // Each argument's elements converted once to their place's type (not
    // once per tuple they appear in: each is in many).
    let mut lists: Vec<Vec<Value>> = Vec::with_capacity(args.len());
    for (j, a) in args.iter().enumerate() {
        let want = sub_tys.get(j).cloned().unwrap_or(Type::Dynamic);
        let mut list = Vec::with_capacity(a.elements_slice().len());
        for (n, v) in a.elements_slice().iter().enumerate() {
            list.push(if v.has_type(&want) {
                v.clone()
            } else {
                convert(v, &want).map_err(|_| {
                    FnError::new(format!("failed to convert argVals[{j}][{n}] to {}; this is a bug in cty", want.friendly_name()))
                })?
            });
            if ctx.out_of_steps() {
                return Err(ctx.stopped());
            }
        }
        lists.push(list);
    }
    let mut idx = vec![0usize; args.len()];
    let mut product = Vec::with_capacity(total as usize);
    for _ in 0..total {
        let mut tuple = Vec::with_capacity(args.len());
        for (j, &n) in idx.iter().enumerate() {
            tuple.push(lists[j][n].clone());
        }
        product.push(Value::tuple(tuple));
        for j in (0..idx.len()).rev() {
            idx[j] += 1;
            if idx[j] < lists[j].len() {
                break;
            }
            idx[j] = 0;
        }
    }
    // cty's `ListVal` and `SetVal`: the element type is the first
    // element's, not the declared one (which the call checks after).
    let v = if ret.is_list() { Value::list(product) } else { Value::set(product) };
    v.map_err(|e| FnError::new(format!("panic in function implementation: {e}")))
}
