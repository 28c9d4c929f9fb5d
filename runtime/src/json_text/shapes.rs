//! The types of decoded values, shared per thread by shape.
//!
//! A host that decodes one JSON document per request decodes the same few
//! object shapes again and again (`{"user": {"name", "role"}, ...}`).
//! Building an object type per decoded object costs two allocations, and
//! naming its attributes with the program's attribute names (so that the
//! program's steps find them by pointer, see [`AttrNames`]) updates the
//! reference counts of those names, which every thread decoding for the
//! program updates too: each such update takes the count's cache line
//! away from the other cores.
//!
//! So each thread keeps one copy of each attribute name it decodes, and
//! the name lists and types it built. A name list is first made of this
//! thread's copies; once the same names come again it is made once more
//! with the program's names (found by pointer by the program's steps), and
//! every object type with those names shares that one list: an object
//! type holds its names behind one reference-counted list, so a new type
//! costs one count of this thread's, not one per name of the program's.
//! Types are kept by shape too: the names (by pointer) and the identities
//! of the attributes' types (primitives by kind, objects and tuples by the
//! pointer of their shared type); other types (an unknown, a list) are not
//! shared. A document whose name lists never recur (a header object with
//! new keys each time) never touches the program's counts. Each order in
//! which a document writes an object's names keeps the permutation that
//! sorts them, so a recurring shape is put in order without comparing
//! names. The tables are bounded; when full they start over.

use crate::names::AttrNames;
use crate::types::{ObjectType, TupleType, Type};
use crate::value::Value;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::sync::Arc;

/// Entries (names, name lists, object and tuple types, name orders) a
/// thread keeps at most.
const MAX_ENTRIES: usize = 4096;

/// A name list, as this thread's copies (by pointer) and as object types
/// use it.
struct NameList {
    names: Box<[usize]>,
    list: Arc<[Arc<str>]>,
    /// Made with the program's names.
    recurring: bool,
}

/// An object type for one shape.
struct ObjectEntry {
    /// This thread's copies of the names, by pointer (the copies live as
    /// long as the tables).
    names: Box<[usize]>,
    ty: Arc<ObjectType>,
}

/// One thread's shared types of decoded values.
#[derive(Default)]
pub(super) struct Shapes {
    /// Every attribute name decoded, one copy each.
    names: HashMap<Box<str>, Arc<str>, ahash::RandomState>,
    name_lists: HashMap<u64, Vec<NameList>, ahash::RandomState>,
    objects: HashMap<u64, Vec<ObjectEntry>, ahash::RandomState>,
    tuples: HashMap<u64, Vec<Arc<TupleType>>, ahash::RandomState>,
    /// How each order of names seen in a document sorts ([`Shapes::sort_attrs`]).
    orders: HashMap<u64, Vec<NameOrder>, ahash::RandomState>,
    entries: usize,
}

/// Objects of more attributes than this are sorted each time: a
/// permutation is kept only for those whose visited positions fit a
/// `u64`.
const MAX_KEPT_ORDER: usize = 64;

/// An order of names as a document wrote them (this thread's copies,
/// compared by pointer and held, so that no other name takes their
/// address while the order is kept), and where each name goes when
/// sorted: position `k` of the sorted object takes the attribute written
/// at `from[k]`.
struct NameOrder {
    names: Box<[Arc<str>]>,
    from: Box<[u8]>,
}

thread_local! {
    static SHAPES: std::cell::RefCell<Shapes> = std::cell::RefCell::new(Shapes::default());
}

/// Runs `f` with this thread's tables (with empty ones when they are in
/// use or gone: a decoding started from inside `f` cannot happen, the
/// end of a thread can). `R::default()` is only the impossible outcome
/// of `f` taken but not run.
pub(super) fn with_shapes<R: Default>(f: impl FnOnce(&mut Shapes) -> R) -> R {
    let mut f = Some(f);
    let mut result = None;
    let _ = SHAPES.try_with(|cell| {
        if let (Ok(mut shapes), Some(f)) = (cell.try_borrow_mut(), f.take()) {
            result = Some(f(&mut shapes));
        }
    });
    match (result, f) {
        (Some(r), _) => r,
        (None, Some(f)) => f(&mut Shapes::default()),
        (None, None) => R::default(),
    }
}

/// The identity of a value's type for shape keys; `None`: not shared.
fn type_identity(v: &Value) -> Option<u64> {
    Some(match v {
        Value::String(_) => 1,
        Value::Number(_) => 2,
        Value::Bool(_) => 3,
        Value::Null(Type::Dynamic) => 4,
        Value::Object(o) => Arc::as_ptr(o.object_type()) as usize as u64,
        Value::Tuple(t) => Arc::as_ptr(t.tuple_type()) as usize as u64,
        _ => return None,
    })
}

/// Whether `t` is the type `v` has, compared as [`type_identity`] does.
fn same_type(t: &Type, v: &Value) -> bool {
    match (t, v) {
        (Type::String, Value::String(_)) | (Type::Number, Value::Number(_)) | (Type::Bool, Value::Bool(_)) => true,
        (Type::Dynamic, Value::Null(Type::Dynamic)) => true,
        (Type::Object(a), Value::Object(o)) => Arc::ptr_eq(a, o.object_type()),
        (Type::Tuple(a), Value::Tuple(t)) => Arc::ptr_eq(a, t.tuple_type()),
        _ => false,
    }
}

impl Shapes {
    /// This thread's copy of the attribute name `name`; `None` when it is
    /// not NFC (cty finds no attribute under that spelling, an error the
    /// full decoder words).
    pub(super) fn name(&mut self, name: &str) -> Option<Arc<str>> {
        if let Some(n) = self.names.get(name) {
            return Some(n.clone());
        }
        if matches!(crate::strings::normalize_nfc(name), std::borrow::Cow::Owned(_)) {
            return None;
        }
        self.make_room();
        let n: Arc<str> = Arc::from(name);
        self.names.insert(name.into(), n.clone());
        self.entries += 1;
        Some(n)
    }

    /// The type of an object of `attrs` (sorted by name, unique, named
    /// with [`Shapes::name`]) decoded for a program whose names are
    /// `program`.
    pub(super) fn object_type(&mut self, program: Option<&AttrNames>, attrs: &[(Arc<str>, Value)]) -> Arc<ObjectType> {
        let list = self.name_list(program, attrs);
        let mut h = self.objects.hasher().build_hasher();
        for (name, v) in attrs {
            h.write_usize(ptr(name));
            match type_identity(v) {
                Some(id) => h.write_u64(id),
                None => return Arc::new(ObjectType::with_shared_names(list, attrs.iter().map(|(_, v)| v.ty()).collect())),
            }
        }
        let key = h.finish();
        let matches = |e: &ObjectEntry| {
            e.names.len() == attrs.len()
                && e.names.iter().zip(attrs).all(|(n, (name, _))| *n == ptr(name))
                && e.ty.types().iter().zip(attrs).all(|(ty, (_, v))| same_type(ty, v))
        };
        if let Some(e) = self.objects.get_mut(&key).and_then(|es| es.iter_mut().find(|e| matches(e))) {
            if !Arc::ptr_eq(e.ty.shared_names(), &list) {
                // The name list recurred since: the type takes it.
                e.ty = Arc::new(ObjectType::with_shared_names(list, e.ty.types().to_vec()));
            }
            return e.ty.clone();
        }
        let ty = Arc::new(ObjectType::with_shared_names(list, attrs.iter().map(|(_, v)| v.ty()).collect()));
        self.make_room();
        let names = attrs.iter().map(|(n, _)| ptr(n)).collect();
        self.objects.entry(key).or_default().push(ObjectEntry { names, ty: ty.clone() });
        self.entries += 1;
        ty
    }

    /// The name list of `attrs`: this thread's copies the first time, the
    /// program's names (where it has them) from the second time on.
    fn name_list(&mut self, program: Option<&AttrNames>, attrs: &[(Arc<str>, Value)]) -> Arc<[Arc<str>]> {
        let mut h = self.name_lists.hasher().build_hasher();
        for (name, _) in attrs {
            h.write_usize(ptr(name));
        }
        let key = h.finish();
        let matches = |l: &NameList| l.names.len() == attrs.len() && l.names.iter().zip(attrs).all(|(n, (name, _))| *n == ptr(name));
        if let Some(l) = self.name_lists.get_mut(&key).and_then(|ls| ls.iter_mut().find(|l| matches(l))) {
            if !l.recurring {
                l.list = attrs.iter().map(|(n, _)| program.and_then(|p| p.get(n)).unwrap_or(n).clone()).collect();
                l.recurring = true;
            }
            return l.list.clone();
        }
        let list: Arc<[Arc<str>]> = attrs.iter().map(|(n, _)| n.clone()).collect();
        self.make_room();
        let names = attrs.iter().map(|(n, _)| ptr(n)).collect();
        self.name_lists.entry(key).or_default().push(NameList { names, list: list.clone(), recurring: false });
        self.entries += 1;
        list
    }

    /// The type of a tuple of `elems` (not empty), when it has a shared
    /// one.
    pub(super) fn tuple_type(&mut self, elems: &[Value]) -> Option<Arc<TupleType>> {
        let mut h = self.tuples.hasher().build_hasher();
        for v in elems {
            h.write_u64(type_identity(v)?);
        }
        let key = h.finish();
        let matches = |t: &Arc<TupleType>| t.len() == elems.len() && t.elems().iter().zip(elems).all(|(ty, v)| same_type(ty, v));
        if let Some(t) = self.tuples.get(&key).and_then(|ts| ts.iter().find(|t| matches(t))) {
            return Some(t.clone());
        }
        let t = Arc::new(TupleType::new(elems.iter().map(Value::ty).collect()));
        self.make_room();
        self.tuples.entry(key).or_default().push(t.clone());
        self.entries += 1;
        Some(t)
    }

    /// Sorts `attrs` (named with [`Shapes::name`], in the document's
    /// order) by name; `false` when two have the same name. An order of
    /// names that recurs (one per shape of object a host's requests
    /// have) is sorted once: after that its permutation is applied,
    /// without comparing a name.
    pub(super) fn sort_attrs(&mut self, attrs: &mut [(Arc<str>, Value)]) -> bool {
        let n = attrs.len();
        if n < 2 {
            return true;
        }
        if n > MAX_KEPT_ORDER {
            return sort_by_name(attrs);
        }
        let mut h = self.orders.hasher().build_hasher();
        for (name, _) in attrs.iter() {
            h.write_usize(ptr(name));
        }
        let key = h.finish();
        let same = |o: &NameOrder| o.names.len() == n && o.names.iter().zip(attrs.iter()).all(|(kept, (name, _))| ptr(kept) == ptr(name));
        if let Some(o) = self.orders.get(&key).and_then(|os| os.iter().find(|o| same(o))) {
            permute(attrs, &o.from);
            return true;
        }
        let mut from: Vec<u8> = (0..n as u8).collect();
        from.sort_unstable_by(|&i, &j| attrs[usize::from(i)].0.as_bytes().cmp(attrs[usize::from(j)].0.as_bytes()));
        if from.windows(2).any(|w| attrs[usize::from(w[0])].0 == attrs[usize::from(w[1])].0) {
            return false;
        }
        self.make_room();
        let names = attrs.iter().map(|(name, _)| name.clone()).collect();
        permute(attrs, &from);
        self.orders.entry(key).or_default().push(NameOrder { names, from: from.into() });
        self.entries += 1;
        true
    }

    /// Starts over when the tables are full (values keep their types).
    /// (Emptied in place: the maps keep their hashers, so a key hashed
    /// before starting over still finds what is stored under it after.)
    fn make_room(&mut self) {
        if self.entries >= MAX_ENTRIES {
            self.names.clear();
            self.name_lists.clear();
            self.objects.clear();
            self.tuples.clear();
            self.orders.clear();
            self.entries = 0;
        }
    }
}

/// Sorts `attrs` by name; `false` when two have the same name.
fn sort_by_name(attrs: &mut [(Arc<str>, Value)]) -> bool {
    attrs.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    !attrs.windows(2).any(|w| w[0].0 == w[1].0)
}

/// Puts at each position `k` of `attrs` the element that was at
/// `from[k]` (`from` a permutation of at most [`MAX_KEPT_ORDER`]
/// positions), following each cycle of the permutation with swaps.
fn permute(attrs: &mut [(Arc<str>, Value)], from: &[u8]) {
    let mut placed: u64 = 0;
    for start in 0..from.len() {
        if placed & (1 << start) != 0 {
            continue;
        }
        // Each swap brings position `k` its element and carries the one
        // that was at `start` on, to the position whose source it is.
        let mut k = start;
        loop {
            placed |= 1 << k;
            let src = usize::from(from[k]);
            if src == start {
                break;
            }
            attrs.swap(k, src);
            k = src;
        }
    }
}

/// A name's identity: this thread's copy, by address.
fn ptr(name: &Arc<str>) -> usize {
    Arc::as_ptr(name) as *const u8 as usize
}
