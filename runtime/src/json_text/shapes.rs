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
//! So each thread keeps one copy of each attribute name it decodes and
//! the object and tuple types it built, by shape. A shape is its
//! attribute names (this thread's copies, by pointer) and the identities
//! of its attributes' types (primitives by kind, objects and tuples by the
//! pointer of their shared type); other types (an unknown, a list) are not
//! shared. A shape seen once gets a type named with this thread's copies;
//! seen again, it is recurring, and its type is made once more with the
//! program's names, which the steps then find by pointer. A document
//! whose shapes never recur (a header object with new keys each time)
//! thus never touches the program's counts. The tables are bounded; when
//! full they start over.

use crate::names::AttrNames;
use crate::types::{ObjectType, TupleType, Type};
use crate::value::Value;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::sync::Arc;

/// Entries (names, object and tuple types) a thread keeps at most.
const MAX_ENTRIES: usize = 4096;

/// An object type for one shape.
struct ObjectEntry {
    /// This thread's copies of the names, by pointer (the copies live as
    /// long as the tables).
    names: Box<[usize]>,
    ty: Arc<ObjectType>,
    /// Named with the program's names.
    recurring: bool,
}

/// One thread's shared types of decoded values.
#[derive(Default)]
pub(super) struct Shapes {
    /// Every attribute name decoded, one copy each.
    names: HashMap<Box<str>, Arc<str>, ahash::RandomState>,
    objects: HashMap<u64, Vec<ObjectEntry>, ahash::RandomState>,
    tuples: HashMap<u64, Vec<Arc<TupleType>>, ahash::RandomState>,
    entries: usize,
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
        let mut h = self.objects.hasher().build_hasher();
        for (name, v) in attrs {
            h.write_usize(Arc::as_ptr(name) as *const u8 as usize);
            match type_identity(v) {
                Some(id) => h.write_u64(id),
                None => return object_type_named(attrs, None),
            }
        }
        let key = h.finish();
        let matches = |e: &ObjectEntry| {
            e.names.len() == attrs.len()
                && e.names.iter().zip(attrs).all(|(n, (name, _))| *n == Arc::as_ptr(name) as *const u8 as usize)
                && e.ty.types().iter().zip(attrs).all(|(ty, (_, v))| same_type(ty, v))
        };
        if let Some(e) = self.objects.get_mut(&key).and_then(|es| es.iter_mut().find(|e| matches(e))) {
            if !e.recurring {
                e.ty = object_type_named(attrs, program);
                e.recurring = true;
            }
            return e.ty.clone();
        }
        let ty = object_type_named(attrs, None);
        self.make_room();
        let names = attrs.iter().map(|(n, _)| Arc::as_ptr(n) as *const u8 as usize).collect();
        self.objects.entry(key).or_default().push(ObjectEntry { names, ty: ty.clone(), recurring: false });
        self.entries += 1;
        ty
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

    /// Starts over when the tables are full (values keep their types).
    fn make_room(&mut self) {
        if self.entries >= MAX_ENTRIES {
            *self = Shapes::default();
        }
    }
}

/// An object type for `attrs` (sorted, unique), named with `program`'s
/// names where it has them, else with the names in `attrs`.
fn object_type_named(attrs: &[(Arc<str>, Value)], program: Option<&AttrNames>) -> Arc<ObjectType> {
    let names = attrs.iter().map(|(n, _)| program.and_then(|p| p.get(n)).unwrap_or(n).clone()).collect();
    let types = attrs.iter().map(|(_, v)| v.ty()).collect();
    Arc::new(ObjectType::from_sorted_unchecked(names, types))
}
