//! cty's type system: primitives, collections (list, set, map), structural
//! types (object, tuple) and the dynamic pseudo-type.
//!
//! Types are cheap to clone (at most one `Arc` increment) and compare
//! structurally. Object attributes are kept sorted by name (byte order, as
//! cty iterates them), so an attribute has a stable position that the VM can
//! resolve once and then index.

use crate::strings::{normalize_nfc, write_json_string};
use std::cell::OnceCell;
use std::fmt;
use std::sync::{Arc, OnceLock};

/// The longest text [`Type::go_syntax`] writes out whole.
pub const GO_SYNTAX_MAX: usize = 1 << 20;

/// Appends `text`; false once `out` is past [`GO_SYNTAX_MAX`].
fn push_capped(out: &mut String, text: &str) -> bool {
    out.push_str(text);
    out.len() <= GO_SYNTAX_MAX
}

/// A cty type.
#[derive(Clone)]
pub enum Type {
    String,
    Number,
    Bool,
    /// `cty.DynamicPseudoType`: "any type", the type of a value whose type
    /// is not yet known.
    Dynamic,
    List(Arc<Type>),
    Set(Arc<Type>),
    Map(Arc<Type>),
    Object(Arc<ObjectType>),
    Tuple(Arc<TupleType>),
}

const _: () = assert!(std::mem::size_of::<Type>() == 16);

// Types nest as deeply as values: comparing, hashing and dropping them go
// through `crate::stack` rather than the derived recursion.
impl PartialEq for Type {
    fn eq(&self, other: &Type) -> bool {
        type_eq(self, other, 0)
    }
}

/// Structural equality; the stack is checked every 32 levels (a check per
/// level costs more than the comparison itself).
fn type_eq(a: &Type, b: &Type, depth: u32) -> bool {
    match (a, b) {
        (Type::String, Type::String) | (Type::Number, Type::Number) | (Type::Bool, Type::Bool) | (Type::Dynamic, Type::Dynamic) => true,
        (Type::List(x), Type::List(y)) | (Type::Set(x), Type::Set(y)) | (Type::Map(x), Type::Map(y)) => {
            Arc::ptr_eq(x, y) || type_eq_deeper(x, y, depth)
        }
        (Type::Object(x), Type::Object(y)) => {
            Arc::ptr_eq(x, y)
                || (x.dynamic == y.dynamic
                    && x.names == y.names
                    && x.optional == y.optional
                    && x.types.iter().zip(y.types.iter()).all(|(p, q)| type_eq_deeper(p, q, depth)))
        }
        (Type::Tuple(x), Type::Tuple(y)) => {
            Arc::ptr_eq(x, y)
                || (x.dynamic == y.dynamic
                    && x.elems.len() == y.elems.len()
                    && x.elems.iter().zip(y.elems.iter()).all(|(p, q)| type_eq_deeper(p, q, depth)))
        }
        _ => false,
    }
}

#[inline]
fn type_eq_deeper(a: &Type, b: &Type, depth: u32) -> bool {
    if depth % 32 == 31 {
        crate::stack::guarded(|| type_eq(a, b, depth + 1))
    } else {
        type_eq(a, b, depth + 1)
    }
}

impl Eq for Type {}

impl std::hash::Hash for Type {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        std::mem::discriminant(self).hash(state);
        match self {
            Type::String | Type::Number | Type::Bool | Type::Dynamic => {}
            Type::List(e) | Type::Set(e) | Type::Map(e) => crate::stack::guarded(|| e.hash(state)),
            Type::Object(o) => crate::stack::guarded(|| o.hash(state)),
            Type::Tuple(t) => crate::stack::guarded(|| t.hash(state)),
        }
    }
}

/// Drops types without recursing: a type part nobody else holds is taken
/// apart and its parts queued.
fn drop_types(first: Vec<Type>) {
    let mut work = first;
    while let Some(t) = work.pop() {
        match t {
            Type::List(mut a) | Type::Set(mut a) | Type::Map(mut a) => {
                if let Some(inner) = Arc::get_mut(&mut a) {
                    work.push(std::mem::replace(inner, Type::Dynamic));
                }
            }
            Type::Object(mut a) => {
                if let Some(o) = Arc::get_mut(&mut a) {
                    work.extend(std::mem::take(&mut o.types).into_vec());
                }
            }
            Type::Tuple(mut a) => {
                if let Some(t) = Arc::get_mut(&mut a) {
                    work.extend(std::mem::take(&mut t.elems).into_vec());
                }
            }
            _ => {}
        }
    }
}

fn has_type_parts(types: &[Type]) -> bool {
    types.iter().any(|t| !matches!(t, Type::String | Type::Number | Type::Bool | Type::Dynamic))
}

impl Drop for ObjectType {
    fn drop(&mut self) {
        if has_type_parts(&self.types) {
            drop_types(std::mem::take(&mut self.types).into_vec());
        }
    }
}

impl Drop for TupleType {
    fn drop(&mut self) {
        if has_type_parts(&self.elems) {
            drop_types(std::mem::take(&mut self.elems).into_vec());
        }
    }
}

/// The attributes of an object type, sorted by name (bytewise).
pub struct ObjectType {
    /// Shared between object types of one name set where that saves
    /// reference counting (see `json_text::shapes`).
    names: Arc<[Arc<str>]>,
    types: Box<[Type]>,
    /// `keys()` of an object of this type (a tuple of the names), built on
    /// first use: it depends on the type alone, and the types of variable
    /// values are shared across evaluations.
    keys: OnceLock<crate::value::Value>,
    /// Whether an attribute type has the dynamic pseudo-type in it.
    dynamic: bool,
    /// Which attributes are optional (cty `ObjectWithOptionalAttrs`, the
    /// `optional(...)` of a type constraint), parallel to `names`; `None`
    /// when none is (every object type but a type constraint's).
    optional: Option<Box<[bool]>>,
    /// Whether this type or a type inside it has optional attributes.
    optional_deep: bool,
}

impl PartialEq for ObjectType {
    fn eq(&self, other: &ObjectType) -> bool {
        self.names == other.names && self.optional == other.optional && self.types == other.types
    }
}

/// Whether any of `types` has the dynamic pseudo-type in it (each object
/// and tuple type knows this of itself, so this is shallow for them).
fn any_dynamic(types: &[Type]) -> bool {
    types.iter().any(Type::has_dynamic_types)
}

/// Whether any of `types` has optional object attributes in it.
fn any_optional(types: &[Type]) -> bool {
    types.iter().any(Type::has_optional_attributes)
}

impl Eq for ObjectType {}

impl std::hash::Hash for ObjectType {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.names.hash(state);
        self.optional.hash(state);
        self.types.hash(state);
    }
}

/// The element types of a tuple type.
pub struct TupleType {
    elems: Box<[Type]>,
    /// Whether an element type has the dynamic pseudo-type in it.
    dynamic: bool,
    /// Whether an element type has optional object attributes in it.
    optional_deep: bool,
}

impl PartialEq for TupleType {
    fn eq(&self, other: &TupleType) -> bool {
        self.elems == other.elems
    }
}

impl Eq for TupleType {}

impl std::hash::Hash for TupleType {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.elems.hash(state);
    }
}

impl ObjectType {
    /// Builds an object type; names are NFC-normalized and sorted, and a
    /// repeated name keeps the last type given (as a Go map would).
    pub fn new<N: AsRef<str>>(attrs: impl IntoIterator<Item = (N, Type)>) -> ObjectType {
        let mut pairs: Vec<(Arc<str>, Type)> = attrs.into_iter().map(|(n, t)| (Arc::from(normalize_nfc(n.as_ref()).as_ref()), t)).collect();
        sort_dedup_last_wins(&mut pairs);
        let (names, types): (Vec<_>, Vec<_>) = pairs.into_iter().unzip();
        ObjectType::build(names.into(), types, None)
    }

    /// The one constructor: flags computed from the attribute types.
    fn build(names: Arc<[Arc<str>]>, types: Vec<Type>, optional: Option<Box<[bool]>>) -> ObjectType {
        let optional = optional.filter(|o| o.iter().any(|&b| b));
        ObjectType {
            dynamic: any_dynamic(&types),
            optional_deep: optional.is_some() || any_optional(&types),
            names,
            types: types.into(),
            keys: OnceLock::new(),
            optional,
        }
    }

    /// cty `ObjectWithOptionalAttrs`: an object type whose attributes named
    /// in `optional` may be absent from a value converted to it (they are
    /// null then). `None` when `optional` names an attribute the type does
    /// not have (cty panics).
    pub fn with_optional<N: AsRef<str>, O: AsRef<str>>(
        attrs: impl IntoIterator<Item = (N, Type)>,
        optional: impl IntoIterator<Item = O>,
    ) -> Option<ObjectType> {
        let plain = ObjectType::new(attrs);
        let mut flags = vec![false; plain.len()].into_boxed_slice();
        for o in optional {
            let i = plain.attr_index(&normalize_nfc(o.as_ref()))?;
            flags[i] = true;
        }
        Some(ObjectType::build(plain.names.clone(), plain.types.to_vec(), Some(flags)))
    }

    /// Builds an object type from names that are already NFC, sorted and
    /// unique (checked; returns `None` otherwise).
    pub fn from_sorted(names: Vec<Arc<str>>, types: Vec<Type>) -> Option<ObjectType> {
        if names.len() != types.len()
            || names.windows(2).any(|w| w[0].as_bytes() >= w[1].as_bytes())
            || names.iter().any(|n| matches!(normalize_nfc(n), std::borrow::Cow::Owned(_)))
        {
            return None;
        }
        Some(ObjectType::build(names.into(), types, None))
    }

    /// For names already sorted, unique and NFC (internal callers only).
    /// [`ObjectType::from_sorted_unchecked`] with a name list shared with
    /// other object types.
    pub(crate) fn with_shared_names(names: Arc<[Arc<str>]>, types: Vec<Type>) -> ObjectType {
        debug_assert!(names.len() == types.len() && names.windows(2).all(|w| w[0].as_bytes() < w[1].as_bytes()));
        ObjectType::build(names, types, None)
    }

    /// The shared name list ([`ObjectType::with_shared_names`]).
    pub(crate) fn shared_names(&self) -> &Arc<[Arc<str>]> {
        &self.names
    }

    pub(crate) fn from_sorted_unchecked(names: Vec<Arc<str>>, types: Vec<Type>) -> ObjectType {
        debug_assert!(names.windows(2).all(|w| w[0].as_bytes() < w[1].as_bytes()));
        ObjectType::build(names.into(), types, None)
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
    /// Attribute names in cty order (sorted).
    pub fn names(&self) -> &[Arc<str>] {
        &self.names
    }
    /// Attribute types, parallel to [`ObjectType::names`].
    pub fn types(&self) -> &[Type] {
        &self.types
    }
    /// Position of an attribute (its index in [`ObjectType::names`]).
    #[inline]
    pub fn attr_index(&self, name: &str) -> Option<usize> {
        if self.names.len() <= 8 {
            return self.names.iter().position(|n| n.as_ref() == name);
        }
        self.names.binary_search_by(|n| n.as_bytes().cmp(name.as_bytes())).ok()
    }
    pub fn attr_type(&self, name: &str) -> Option<&Type> {
        self.attr_index(name).map(|i| &self.types[i])
    }
    /// Whether attribute `i` is optional (cty `AttributeOptional`).
    #[inline]
    pub fn is_optional(&self, i: usize) -> bool {
        self.optional.as_ref().is_some_and(|o| o.get(i).copied().unwrap_or(false))
    }
    /// Whether any attribute is optional (cty `OptionalAttributes` is not
    /// empty).
    #[inline]
    pub fn has_optional(&self) -> bool {
        self.optional.is_some()
    }
    /// The optional attributes' names, sorted.
    pub fn optional_names(&self) -> impl Iterator<Item = &Arc<str>> + '_ {
        self.names.iter().enumerate().filter(|(i, _)| self.is_optional(*i)).map(|(_, n)| n)
    }
    pub fn iter(&self) -> impl Iterator<Item = (&Arc<str>, &Type)> + '_ {
        self.names.iter().zip(self.types.iter())
    }
    /// Attribute name `i` as a string value sharing the name's storage
    /// (names are NFC by construction).
    pub fn name_value(&self, i: usize) -> Option<crate::value::Value> {
        let n = self.names.get(i)?;
        Some(crate::value::Value::String(crate::value::Str::from_nfc_arc(n.clone())))
    }
    /// The attribute names as a tuple of strings (cty `keys` of an object
    /// of this type), computed once per type.
    pub fn keys_tuple(&self) -> &crate::value::Value {
        self.keys.get_or_init(|| {
            crate::value::Value::tuple(
                self.names.iter().map(|n| crate::value::Value::String(crate::value::Str::from_nfc_arc(n.clone()))).collect(),
            )
        })
    }
}

impl TupleType {
    pub fn new(elems: Vec<Type>) -> TupleType {
        TupleType { dynamic: any_dynamic(&elems), optional_deep: any_optional(&elems), elems: elems.into() }
    }
    pub fn elems(&self) -> &[Type] {
        &self.elems
    }
    pub fn len(&self) -> usize {
        self.elems.len()
    }
    pub fn is_empty(&self) -> bool {
        self.elems.is_empty()
    }
}

/// Sorts `(name, x)` pairs by name bytes; for equal names the last one wins.
pub fn sort_dedup_last_wins<K: AsRef<str>, T>(pairs: &mut Vec<(K, T)>) {
    fn key<K: AsRef<str>, T>(pair: &(K, T)) -> &[u8] {
        pair.0.as_ref().as_bytes()
    }
    // Already sorted and unique (the common case for literal objects whose
    // keys were written in order): nothing to do.
    if pairs.windows(2).all(|w| key(&w[0]) < key(&w[1])) {
        return;
    }
    pairs.reverse();
    // Stable sort over the reversed input keeps the last-given duplicate first.
    pairs.sort_by(|a, b| key(a).cmp(key(b)));
    pairs.dedup_by(|later, earlier| key(later) == key(earlier));
}

// The shared types below are kept per thread: an `Arc` every thread
// clones and drops would have its count bounce between the cores, which
// costs more than the allocations it saves once evaluations run in
// parallel (`hclvm batch --jobs N`). Equal types compare equal whichever
// thread made them; sharing only saves allocations and comparisons.

/// `f` applied to this thread's copy of a shared value (to a fresh one
/// while the thread's copies are being destroyed).
pub(crate) fn per_thread<T: Clone + 'static>(key: &'static std::thread::LocalKey<T>, fresh: impl FnOnce() -> T) -> T {
    key.try_with(T::clone).unwrap_or_else(|_| fresh())
}

fn new_empty_object_type() -> Arc<ObjectType> {
    Arc::new(ObjectType::build(Arc::new([]), Vec::new(), None))
}

pub(crate) fn empty_object_type() -> Arc<ObjectType> {
    thread_local! { static EMPTY: Arc<ObjectType> = new_empty_object_type(); }
    per_thread(&EMPTY, new_empty_object_type)
}

fn new_empty_tuple_type() -> Arc<TupleType> {
    Arc::new(TupleType { elems: Box::new([]), dynamic: false, optional_deep: false })
}

pub(crate) fn empty_tuple_type() -> Arc<TupleType> {
    thread_local! { static EMPTY: Arc<TupleType> = new_empty_tuple_type(); }
    per_thread(&EMPTY, new_empty_tuple_type)
}

/// One `Arc` per primitive or dynamic element type (per thread), so that
/// `list(string)` and friends (built on every regexall, join argument
/// conversion, split, ...) do not allocate, and compare by pointer first.
fn shared_elem(elem: &Type) -> Option<Arc<Type>> {
    thread_local! {
        static CELLS: [Arc<Type>; 4] =
            [Arc::new(Type::String), Arc::new(Type::Number), Arc::new(Type::Bool), Arc::new(Type::Dynamic)];
    }
    let i = match elem {
        Type::String => 0,
        Type::Number => 1,
        Type::Bool => 2,
        Type::Dynamic => 3,
        _ => return None,
    };
    CELLS.try_with(|c| c[i].clone()).ok()
}

/// Longest tuple whose all-string/number/bool type is shared.
const SHARED_TUPLE_MAX: usize = 16;

/// The type of a tuple of `len` elements all of primitive type `elem`
/// (0 string, 1 number, 2 bool), shared (per thread) for short tuples:
/// `keys`, `for` results and regex captures build such tuples on every
/// evaluation.
/// Longer ones get their own, made without asking each element for its
/// type.
pub(crate) fn uniform_tuple_type(elem: usize, len: usize) -> Option<Arc<TupleType>> {
    thread_local! {
        static CELLS: [[OnceCell<Arc<TupleType>>; SHARED_TUPLE_MAX]; 3] =
            const { [const { [const { OnceCell::new() }; SHARED_TUPLE_MAX] }; 3] };
    }
    let ety = [Type::String, Type::Number, Type::Bool].get(elem)?.clone();
    // A primitive element type has neither the dynamic pseudo-type nor
    // optional attributes in it.
    let make = || Arc::new(TupleType { elems: vec![ety.clone(); len].into(), dynamic: false, optional_deep: false });
    match len.checked_sub(1).filter(|&i| i < SHARED_TUPLE_MAX) {
        Some(i) => CELLS.try_with(|c| c[elem][i].get_or_init(make).clone()).ok(),
        None => Some(make()),
    }
}

/// The types [`Type::deep_copy_sharing`] copied, by the address (and kind)
/// of the original's shared part. The originals are borrowed for as long
/// as the copies are kept, so an address is not reused meanwhile.
#[derive(Default)]
pub(crate) struct TypeCopies(ahash::AHashMap<SharedPart, Type>);

/// [`Type::shared_part`]: an address and a kind.
pub(crate) type SharedPart = (usize, std::mem::Discriminant<Type>);

impl Type {
    /// An equal type that shares no allocation with this one (see
    /// [`Value::deep_copy`](crate::Value::deep_copy)).
    pub fn deep_copy(&self) -> Type {
        self.deep_copy_sharing(&mut TypeCopies::default())
    }

    /// [`Type::deep_copy`] with the copies made so far: a part shared in
    /// this type (or in others copied with the same `copies`) is copied
    /// once and shared in the copies too. (A value nested `d` deep holds
    /// its type at every level, each containing the next: copied apart,
    /// they took memory quadratic in `d`.)
    pub(crate) fn deep_copy_sharing(&self, copies: &mut TypeCopies) -> Type {
        self.deep_copy_at(0, copies)
    }

    /// The address and kind of this type's shared part (`None` for the
    /// primitive types): equal for two types that share it. (The kind too:
    /// a list and a set of one element type share the element.)
    pub(crate) fn shared_part(&self) -> Option<SharedPart> {
        let at = match self {
            Type::List(e) | Type::Set(e) | Type::Map(e) => Arc::as_ptr(e) as usize,
            Type::Object(o) => Arc::as_ptr(o) as usize,
            Type::Tuple(t) => Arc::as_ptr(t) as usize,
            Type::String | Type::Number | Type::Bool | Type::Dynamic => return None,
        };
        Some((at, std::mem::discriminant(self)))
    }

    fn deep_copy_at(&self, depth: usize, copies: &mut TypeCopies) -> Type {
        let Some(key) = self.shared_part() else { return self.clone() };
        if let Some(copy) = copies.0.get(&key) {
            return copy.clone();
        }
        let copy = crate::stack::deeper(depth, || match self {
            Type::String | Type::Number | Type::Bool | Type::Dynamic => self.clone(),
            Type::List(e) => Type::List(Arc::new(e.deep_copy_at(depth + 1, copies))),
            Type::Set(e) => Type::Set(Arc::new(e.deep_copy_at(depth + 1, copies))),
            Type::Map(e) => Type::Map(Arc::new(e.deep_copy_at(depth + 1, copies))),
            Type::Object(o) => Type::Object(Arc::new(ObjectType {
                names: o.names.iter().map(|n| Arc::from(&**n)).collect(),
                types: o.types.iter().map(|t| t.deep_copy_at(depth + 1, copies)).collect(),
                keys: OnceLock::new(),
                dynamic: o.dynamic,
                optional: o.optional.clone(),
                optional_deep: o.optional_deep,
            })),
            Type::Tuple(t) => Type::Tuple(Arc::new(TupleType {
                elems: t.elems.iter().map(|e| e.deep_copy_at(depth + 1, copies)).collect(),
                dynamic: t.dynamic,
                optional_deep: t.optional_deep,
            })),
        });
        copies.0.insert(key, copy.clone());
        copy
    }

    pub fn list(elem: Type) -> Type {
        Type::List(shared_elem(&elem).unwrap_or_else(|| Arc::new(elem)))
    }
    pub fn set(elem: Type) -> Type {
        Type::Set(shared_elem(&elem).unwrap_or_else(|| Arc::new(elem)))
    }
    pub fn map(elem: Type) -> Type {
        Type::Map(shared_elem(&elem).unwrap_or_else(|| Arc::new(elem)))
    }
    /// An object type from `(name, type)` pairs in any order.
    pub fn object<N: AsRef<str>>(attrs: impl IntoIterator<Item = (N, Type)>) -> Type {
        let ot = ObjectType::new(attrs);
        if ot.is_empty() {
            return Type::empty_object();
        }
        Type::Object(Arc::new(ot))
    }
    pub fn tuple(elems: Vec<Type>) -> Type {
        if elems.is_empty() {
            return Type::empty_tuple();
        }
        Type::Tuple(Arc::new(TupleType::new(elems)))
    }
    pub fn empty_object() -> Type {
        Type::Object(empty_object_type())
    }
    pub fn empty_tuple() -> Type {
        Type::Tuple(empty_tuple_type())
    }

    pub fn is_primitive(&self) -> bool {
        matches!(self, Type::String | Type::Number | Type::Bool)
    }
    pub fn is_dynamic(&self) -> bool {
        matches!(self, Type::Dynamic)
    }
    /// The element count of a tuple type.
    pub fn tuple_len(&self) -> Option<usize> {
        match self {
            Type::Tuple(tt) => Some(tt.len()),
            _ => None,
        }
    }
    pub fn is_list(&self) -> bool {
        matches!(self, Type::List(_))
    }
    pub fn is_set(&self) -> bool {
        matches!(self, Type::Set(_))
    }
    pub fn is_map(&self) -> bool {
        matches!(self, Type::Map(_))
    }
    pub fn is_object(&self) -> bool {
        matches!(self, Type::Object(_))
    }
    pub fn is_tuple(&self) -> bool {
        matches!(self, Type::Tuple(_))
    }
    /// List, set or map.
    pub fn is_collection(&self) -> bool {
        matches!(self, Type::List(_) | Type::Set(_) | Type::Map(_))
    }
    /// The element type of a list, set or map.
    pub fn element_type(&self) -> Option<&Type> {
        match self {
            Type::List(e) | Type::Set(e) | Type::Map(e) => Some(e),
            _ => None,
        }
    }
    pub fn object_type(&self) -> Option<&Arc<ObjectType>> {
        match self {
            Type::Object(o) => Some(o),
            _ => None,
        }
    }
    pub fn tuple_type(&self) -> Option<&Arc<TupleType>> {
        match self {
            Type::Tuple(t) => Some(t),
            _ => None,
        }
    }

    /// Whether the dynamic pseudo-type occurs anywhere in this type.
    pub fn has_dynamic_types(&self) -> bool {
        match self {
            Type::Dynamic => true,
            Type::String | Type::Number | Type::Bool => false,
            Type::List(e) | Type::Set(e) | Type::Map(e) => crate::stack::guarded(|| e.has_dynamic_types()),
            Type::Object(o) => o.dynamic,
            Type::Tuple(t) => t.dynamic,
        }
    }

    /// Whether an object type with optional attributes occurs anywhere in
    /// this type (only type constraints have them).
    /// (A loop down collection element types: no recursion, and no stack
    /// check on the hot path of argument conversion.)
    #[inline]
    pub fn has_optional_attributes(&self) -> bool {
        let mut t = self;
        loop {
            match t {
                Type::String | Type::Number | Type::Bool | Type::Dynamic => return false,
                Type::List(e) | Type::Set(e) | Type::Map(e) => t = e,
                Type::Object(o) => return o.optional_deep,
                Type::Tuple(tt) => return tt.optional_deep,
            }
        }
    }

    /// cty `WithoutOptionalAttributesDeep`: the type with every object
    /// type's attributes required. The type itself (shared) when it has no
    /// optional attributes.
    pub fn without_optional_attributes(&self) -> Type {
        if !self.has_optional_attributes() {
            return self.clone();
        }
        match self {
            Type::List(e) => Type::list(crate::stack::guarded(|| e.without_optional_attributes())),
            Type::Set(e) => Type::set(crate::stack::guarded(|| e.without_optional_attributes())),
            Type::Map(e) => Type::map(crate::stack::guarded(|| e.without_optional_attributes())),
            Type::Object(o) => {
                let types = o.types.iter().map(|t| crate::stack::guarded(|| t.without_optional_attributes())).collect();
                Type::Object(Arc::new(ObjectType::build(o.names.clone(), types, None)))
            }
            Type::Tuple(t) => Type::tuple(t.elems.iter().map(|e| crate::stack::guarded(|| e.without_optional_attributes())).collect()),
            _ => self.clone(),
        }
    }

    /// cty `TestConformance(want) == nil`: `self` matches `want`, where
    /// dynamic in `want` matches anything.
    pub fn conforms_to(&self, want: &Type) -> bool {
        match (self, want) {
            (_, Type::Dynamic) => true,
            (Type::List(a), Type::List(b)) | (Type::Set(a), Type::Set(b)) | (Type::Map(a), Type::Map(b)) => {
                crate::stack::guarded(|| a.conforms_to(b))
            }
            (Type::Object(a), Type::Object(b)) => {
                a.names == b.names && a.types.iter().zip(b.types.iter()).all(|(x, y)| crate::stack::guarded(|| x.conforms_to(y)))
            }
            (Type::Tuple(a), Type::Tuple(b)) => {
                a.elems.len() == b.elems.len()
                    && a.elems.iter().zip(b.elems.iter()).all(|(x, y)| crate::stack::guarded(|| x.conforms_to(y)))
            }
            _ => self == want,
        }
    }

    /// cty `FriendlyName`: "string", "list of number", "object", "tuple", "dynamic".
    pub fn friendly_name(&self) -> String {
        let mut s = String::new();
        self.write_friendly(&mut s, false);
        s
    }

    /// cty `FriendlyNameForConstraint`: like [`Type::friendly_name`] but the
    /// dynamic pseudo-type is "any type" ("any single type" as an element).
    pub fn friendly_name_for_constraint(&self) -> String {
        let mut s = String::new();
        self.write_friendly(&mut s, true);
        s
    }

    fn write_friendly(&self, out: &mut String, constraint: bool) {
        let (prefix, elem) = match self {
            Type::String => return out.push_str("string"),
            Type::Number => return out.push_str("number"),
            Type::Bool => return out.push_str("bool"),
            Type::Dynamic => return out.push_str(if constraint { "any type" } else { "dynamic" }),
            Type::Object(_) => return out.push_str("object"),
            Type::Tuple(_) => return out.push_str("tuple"),
            Type::List(e) => ("list of ", e),
            Type::Set(e) => ("set of ", e),
            Type::Map(e) => ("map of ", e),
        };
        out.push_str(prefix);
        if constraint && elem.is_dynamic() {
            out.push_str("any single type");
        } else {
            crate::stack::guarded(|| elem.write_friendly(out, constraint));
        }
    }

    /// The type as Go's `%#v` prints a cty type (its `GoString`):
    /// `cty.String`, `cty.List(cty.Number)`, `cty.EmptyObject`,
    /// `cty.Object(map[string]cty.Type{"a":cty.Number, "b":cty.Bool})` (keys
    /// sorted, as fmt prints maps), `cty.Tuple([]cty.Type{cty.Bool})`,
    /// `cty.DynamicPseudoType`. cty panics embed it in their messages.
    ///
    /// Types share their parts, so a short expression can describe a type
    /// whose text is exponentially long: past [`GO_SYNTAX_MAX`] bytes the
    /// text is cut (`...`), where the reference would print it whole.
    pub fn go_syntax(&self) -> String {
        let mut s = String::new();
        if !self.write_go_syntax(&mut s) {
            let mut cut = GO_SYNTAX_MAX.min(s.len());
            while !s.is_char_boundary(cut) {
                cut -= 1;
            }
            s.truncate(cut);
            s.push_str("...");
        }
        s
    }

    /// Writes the Go syntax; false once the text is past [`GO_SYNTAX_MAX`]
    /// (the writing then stops).
    fn write_go_syntax(&self, out: &mut String) -> bool {
        let (wrap, elem) = match self {
            Type::String => return push_capped(out, "cty.String"),
            Type::Number => return push_capped(out, "cty.Number"),
            Type::Bool => return push_capped(out, "cty.Bool"),
            Type::Dynamic => return push_capped(out, "cty.DynamicPseudoType"),
            Type::Object(o) if o.is_empty() => return push_capped(out, "cty.EmptyObject"),
            Type::Tuple(t) if t.is_empty() => return push_capped(out, "cty.EmptyTuple"),
            Type::Object(o) => {
                out.push_str(if o.has_optional() {
                    "cty.ObjectWithOptionalAttrs(map[string]cty.Type{"
                } else {
                    "cty.Object(map[string]cty.Type{"
                });
                for (i, (name, ty)) in o.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    crate::strings::write_go_quoted(out, name);
                    out.push(':');
                    if !crate::stack::guarded(|| ty.write_go_syntax(out)) {
                        return false;
                    }
                }
                if o.has_optional() {
                    out.push_str("}, []string{");
                    for (i, name) in o.optional_names().enumerate() {
                        if i > 0 {
                            out.push_str(", ");
                        }
                        crate::strings::write_go_quoted(out, name);
                    }
                }
                return push_capped(out, "})");
            }
            Type::Tuple(t) => {
                out.push_str("cty.Tuple([]cty.Type{");
                for (i, ty) in t.elems().iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    if !crate::stack::guarded(|| ty.write_go_syntax(out)) {
                        return false;
                    }
                }
                return push_capped(out, "})");
            }
            Type::List(e) => ("cty.List(", e),
            Type::Set(e) => ("cty.Set(", e),
            Type::Map(e) => ("cty.Map(", e),
        };
        out.push_str(wrap);
        crate::stack::guarded(|| elem.write_go_syntax(out)) && push_capped(out, ")")
    }

    /// Appends the cty JSON form of the type (`"string"`, `["list","number"]`,
    /// `["object",{"a":"string"}]`, `["tuple",[...]]`, `"dynamic"`), compact,
    /// as the oracle writes it.
    pub fn write_json(&self, out: &mut String) {
        match self {
            Type::String => out.push_str("\"string\""),
            Type::Number => out.push_str("\"number\""),
            Type::Bool => out.push_str("\"bool\""),
            Type::Dynamic => out.push_str("\"dynamic\""),
            Type::List(e) | Type::Set(e) | Type::Map(e) => {
                out.push_str(match self {
                    Type::List(_) => "[\"list\",",
                    Type::Set(_) => "[\"set\",",
                    _ => "[\"map\",",
                });
                crate::stack::guarded(|| e.write_json(out));
                out.push(']');
            }
            Type::Object(o) => {
                out.push_str("[\"object\",{");
                for (i, (n, t)) in o.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_json_string(out, n);
                    out.push(':');
                    crate::stack::guarded(|| t.write_json(out));
                }
                out.push('}');
                if o.has_optional() {
                    out.push_str(",[");
                    for (i, n) in o.optional_names().enumerate() {
                        if i > 0 {
                            out.push(',');
                        }
                        write_json_string(out, n);
                    }
                    out.push(']');
                }
                out.push(']');
            }
            Type::Tuple(t) => {
                out.push_str("[\"tuple\",[");
                for (i, e) in t.elems.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    crate::stack::guarded(|| e.write_json(out));
                }
                out.push_str("]]");
            }
        }
    }

    /// The cty JSON form as a compact string.
    pub fn to_json_string(&self) -> String {
        let mut s = String::new();
        self.write_json(&mut s);
        s
    }

    /// The cty JSON form as a `serde_json::Value`.
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::Value as J;
        match self {
            Type::String => J::from("string"),
            Type::Number => J::from("number"),
            Type::Bool => J::from("bool"),
            Type::Dynamic => J::from("dynamic"),
            Type::List(e) => J::Array(vec![J::from("list"), crate::stack::guarded(|| e.to_json())]),
            Type::Set(e) => J::Array(vec![J::from("set"), crate::stack::guarded(|| e.to_json())]),
            Type::Map(e) => J::Array(vec![J::from("map"), crate::stack::guarded(|| e.to_json())]),
            Type::Object(o) => {
                let attrs = o.iter().map(|(n, t)| (n.to_string(), crate::stack::guarded(|| t.to_json()))).collect();
                let mut parts = vec![J::from("object"), J::Object(attrs)];
                if o.has_optional() {
                    parts.push(J::Array(o.optional_names().map(|n| J::from(n.to_string())).collect()));
                }
                J::Array(parts)
            }
            Type::Tuple(t) => J::Array(vec![J::from("tuple"), J::Array(t.elems.iter().map(Type::to_json).collect())]),
        }
    }

    /// Parses the cty JSON type form (as `ctyjson.UnmarshalType`), optional
    /// object attributes (a third array element naming them) included.
    pub fn from_json(j: &serde_json::Value) -> Result<Type, String> {
        Self::from_json_depth(j, 0)
    }

    fn from_json_depth(j: &serde_json::Value, depth: usize) -> Result<Type, String> {
        use serde_json::Value as J;
        if depth > crate::value::MAX_NESTING {
            return Err("type is nested too deeply".to_string());
        }
        match j {
            J::String(s) => match s.as_str() {
                "string" => Ok(Type::String),
                "number" => Ok(Type::Number),
                "bool" => Ok(Type::Bool),
                "dynamic" => Ok(Type::Dynamic),
                other => Err(format!("invalid primitive type name {other:?}")),
            },
            J::Array(items) => {
                let kind = match items.first() {
                    Some(J::String(k)) => k.as_str(),
                    _ => return Err("invalid complex type description".to_string()),
                };
                let arg = items.get(1).ok_or_else(|| format!("missing type argument for {kind}"))?;
                if let ("object", 3) = (kind, items.len()) {
                    let J::Array(opt) = &items[2] else {
                        return Err("optional attributes must be an array of names".to_string());
                    };
                    let names: Vec<&str> =
                        opt.iter().map(|n| n.as_str().ok_or("optional attribute names must be strings")).collect::<Result<_, _>>()?;
                    let Type::Object(plain) = Self::from_json_depth(&J::Array(items[..2].to_vec()), depth)? else {
                        return Err("invalid object type".to_string());
                    };
                    let attrs: Vec<(Arc<str>, Type)> = plain.iter().map(|(n, t)| (n.clone(), t.clone())).collect();
                    return match ObjectType::with_optional(attrs, names) {
                        Some(o) => Ok(Type::Object(Arc::new(o))),
                        None => Err("optional contains undeclared attribute".to_string()),
                    };
                }
                match (kind, items.len()) {
                    ("list", 2) => Ok(Type::list(crate::stack::guarded(|| Self::from_json_depth(arg, depth + 1))?)),
                    ("set", 2) => Ok(Type::set(crate::stack::guarded(|| Self::from_json_depth(arg, depth + 1))?)),
                    ("map", 2) => Ok(Type::map(crate::stack::guarded(|| Self::from_json_depth(arg, depth + 1))?)),
                    ("object", 2) => {
                        let J::Object(attrs) = arg else {
                            return Err("object type requires an object of attribute types".to_string());
                        };
                        let mut pairs = Vec::with_capacity(attrs.len());
                        for (n, t) in attrs {
                            pairs.push((n.as_str(), crate::stack::guarded(|| Self::from_json_depth(t, depth + 1))?));
                        }
                        Ok(Type::object(pairs))
                    }
                    ("tuple", 2) => {
                        let J::Array(elems) = arg else {
                            return Err("tuple type requires an array of element types".to_string());
                        };
                        let elems = elems
                            .iter()
                            .map(|t| crate::stack::guarded(|| Self::from_json_depth(t, depth + 1)))
                            .collect::<Result<Vec<_>, _>>()?;
                        Ok(Type::tuple(elems))
                    }
                    _ => Err(format!("invalid type kind {kind:?}")),
                }
            }
            _ => Err("invalid type description".to_string()),
        }
    }
}

impl fmt::Display for Type {
    /// The cty friendly name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.friendly_name())
    }
}

impl fmt::Debug for Type {
    /// The compact JSON type form, which is unambiguous.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_json_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn friendly_names() {
        let cases = [
            (Type::String, "string", "string"),
            (Type::Dynamic, "dynamic", "any type"),
            (Type::list(Type::Number), "list of number", "list of number"),
            (Type::map(Type::Dynamic), "map of dynamic", "map of any single type"),
            (Type::set(Type::list(Type::Dynamic)), "set of list of dynamic", "set of list of any single type"),
            (Type::object([("a", Type::String)]), "object", "object"),
            (Type::tuple(vec![]), "tuple", "tuple"),
        ];
        for (t, name, constraint) in cases {
            assert_eq!(t.friendly_name(), name);
            assert_eq!(t.friendly_name_for_constraint(), constraint);
        }
    }

    #[test]
    fn json_round_trip() {
        let cases = [
            r#""string""#,
            r#"["list","number"]"#,
            r#"["object",{"a":"string","b":["set","bool"]}]"#,
            r#"["tuple",["dynamic",["map","string"]]]"#,
            r#"["object",{}]"#,
            r#"["tuple",[]]"#,
        ];
        for c in cases {
            let j: serde_json::Value = serde_json::from_str(c).unwrap();
            let t = Type::from_json(&j).unwrap();
            assert_eq!(t.to_json_string(), c);
            assert_eq!(t.to_json(), j);
        }
        let j: serde_json::Value = serde_json::from_str(r#"["object",{"b":"string","a":"number"}]"#).unwrap();
        assert_eq!(Type::from_json(&j).unwrap().to_json_string(), r#"["object",{"a":"number","b":"string"}]"#);
        for bad in [r#""str""#, r#"["list"]"#, r#"["foo","string"]"#, "1", r#"["object",{"a":"string"},["b"]]"#] {
            let j: serde_json::Value = serde_json::from_str(bad).unwrap();
            assert!(Type::from_json(&j).is_err(), "{bad}");
        }
    }

    #[test]
    fn object_attrs_sorted_and_indexed() {
        let t = ObjectType::new([("b", Type::String), ("a", Type::Number), ("b", Type::Bool)]);
        assert_eq!(t.names().iter().map(|n| n.as_ref()).collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(t.attr_type("b"), Some(&Type::Bool));
        assert_eq!(t.attr_index("a"), Some(0));
        assert_eq!(t.attr_index("c"), None);
    }

    #[test]
    fn from_sorted_requires_nfc_sorted_unique_names() {
        let n = |s: &str| -> Arc<str> { Arc::from(s) };
        assert!(ObjectType::from_sorted(vec![n("a"), n("b")], vec![Type::String, Type::Bool]).is_some());
        assert!(ObjectType::from_sorted(vec![n("b"), n("a")], vec![Type::String, Type::Bool]).is_none());
        // "e" + combining acute is not NFC: keys() shares these names as strings.
        assert!(ObjectType::from_sorted(vec![n("e\u{301}")], vec![Type::String]).is_none());
        assert!(ObjectType::from_sorted(vec![n("\u{e9}")], vec![Type::String]).is_some());
    }

    #[test]
    fn keys_tuple_is_the_names_and_ignored_by_equality() {
        let a = ObjectType::new([("y", Type::Number), ("x", Type::String)]);
        let b = ObjectType::new([("x", Type::String), ("y", Type::Number)]);
        let k = a.keys_tuple().clone();
        assert_eq!(k.ty(), Type::tuple(vec![Type::String, Type::String]));
        let names: Vec<&str> = k.elements_slice().iter().filter_map(|v| v.as_str()).collect();
        assert_eq!(names, ["x", "y"]);
        assert!(a == b, "a built keys cache must not affect equality");
        assert!(ObjectType::new(Vec::<(&str, Type)>::new()).keys_tuple().elements_slice().is_empty());
    }

    #[test]
    fn primitive_collection_types_share_their_element() {
        for e in [Type::String, Type::Number, Type::Bool, Type::Dynamic] {
            match (Type::list(e.clone()), Type::list(e.clone()), Type::set(e.clone()), Type::map(e.clone())) {
                (Type::List(a), Type::List(b), Type::Set(c), Type::Map(d)) => {
                    assert!(Arc::ptr_eq(&a, &b) && Arc::ptr_eq(&a, &c) && Arc::ptr_eq(&a, &d));
                    assert_eq!(*a, e);
                }
                other => panic!("unexpected {other:?}"),
            }
        }
        assert_eq!(Type::list(Type::list(Type::String)), Type::list(Type::list(Type::String)));
    }

    #[test]
    fn optional_attributes() {
        let opt = Type::Object(Arc::new(ObjectType::with_optional([("a", Type::String), ("b", Type::Number)], ["b"]).unwrap()));
        let plain = Type::object([("a", Type::String), ("b", Type::Number)]);
        assert_ne!(opt, plain);
        assert!(opt.has_optional_attributes() && !plain.has_optional_attributes());
        assert_eq!(opt.without_optional_attributes(), plain);
        assert_eq!(opt.to_json_string(), r#"["object",{"a":"string","b":"number"},["b"]]"#);
        let j: serde_json::Value = serde_json::from_str(&opt.to_json_string()).unwrap();
        assert_eq!(Type::from_json(&j).unwrap(), opt);
        assert_eq!(opt.to_json(), j);
        let nested = Type::list(opt.clone());
        assert!(nested.has_optional_attributes());
        assert_eq!(nested.without_optional_attributes(), Type::list(plain.clone()));
        assert_eq!(opt.go_syntax(), r#"cty.ObjectWithOptionalAttrs(map[string]cty.Type{"a":cty.String, "b":cty.Number}, []string{"b"})"#);
        assert!(ObjectType::with_optional([("a", Type::String)], ["c"]).is_none());
        // No optional name: a plain object type.
        assert_eq!(
            Type::Object(Arc::new(ObjectType::with_optional([("a", Type::String)], Vec::<&str>::new()).unwrap())),
            Type::object([("a", Type::String)])
        );
    }

    #[test]
    fn conformance() {
        let lo = Type::list(Type::object([("a", Type::Dynamic)]));
        assert!(Type::list(Type::object([("a", Type::String)])).conforms_to(&lo));
        assert!(!Type::list(Type::object([("b", Type::String)])).conforms_to(&lo));
        assert!(!lo.conforms_to(&Type::list(Type::object([("a", Type::String)]))));
    }
}
