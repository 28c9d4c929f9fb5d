//! Conversion plans: what cty's `getConversion` closures do, as data.

use super::{ConvError, PathStep};
use crate::number::Number;
use crate::strings::go_quote;
use crate::types::{ObjectType, SharedPart, Type};
use crate::unify::unify_types;
use crate::value::Value;
use std::sync::Arc;

/// A conversion between two types (cty's `getConversion` result): unknown
/// and null inputs become unknown/null of the output type, everything else
/// goes through `known`.
pub(crate) struct Plan {
    out: Type,
    /// `out` less its optional attributes, when it has some: the type of
    /// unknown and null results.
    out_required: Option<Type>,
    known: Known,
}

/// An attribute of an object-to-object conversion.
enum AttrConv {
    /// Taken from the input's attribute (converted when a plan is given).
    From(Option<Arc<Plan>>),
    /// An optional attribute the input type lacks: null.
    Absent(Type),
}

/// An attribute of a map-to-object conversion.
enum MapAttrConv {
    /// The map's element, converted when a plan is given.
    Elem(Option<Arc<Plan>>),
    /// An optional attribute the map's elements cannot convert to: an
    /// error if the map has it, null otherwise.
    Incompatible,
}

/// What happens to a known, non-null input.
enum Known {
    /// To dynamic: the value as is.
    Passthrough,
    /// Unsafe conversion from dynamic: `Convert(v, want)` at run time.
    DynamicFixup(Type),
    NumberToString,
    BoolToString,
    StringToNumber,
    StringToBool,
    /// Attribute conversions parallel to the output type's names; input
    /// attributes absent from the output are dropped.
    ObjectToObject {
        out: Arc<ObjectType>,
        attrs: Vec<AttrConv>,
    },
    TupleToTuple(Vec<Option<Arc<Plan>>>),
    /// From a list or set (cty also reaches these with other sequences).
    CollectionToList {
        ety: Type,
        conv: Option<Arc<Plan>>,
    },
    CollectionToSet {
        ety: Type,
        conv: Option<Arc<Plan>>,
    },
    CollectionToMap {
        ety: Type,
        conv: Option<Arc<Plan>>,
    },
    EmptyList(Type),
    EmptySet(Type),
    EmptyMap(Type),
    TupleToList {
        ety: Type,
        convs: Vec<Option<Arc<Plan>>>,
        allow_unsafe: bool,
    },
    TupleToSet {
        convs: Vec<Option<Arc<Plan>>>,
    },
    /// Attribute conversions parallel to the input object's names.
    ObjectToMap {
        ety: Type,
        names: Arc<ObjectType>,
        convs: Vec<Option<Arc<Plan>>>,
        allow_unsafe: bool,
    },
    /// Conversions parallel to the output type's names.
    MapToObject {
        out: Arc<ObjectType>,
        convs: Vec<MapAttrConv>,
    },
}

/// A planned conversion, or a conversion produced by unification.
#[derive(Clone)]
pub struct Conversion(ConvKind);

#[derive(Clone)]
enum ConvKind {
    Plan(Arc<Plan>),
    /// Unification with dynamic members: every value becomes `DynamicVal`.
    AllDynamic,
    /// cty composes a tuple→list step with a list→list step but feeds the
    /// original value to the second one; the first only contributes errors.
    CheckThen(Box<Conversion>, Box<Conversion>),
}

impl Conversion {
    pub(crate) fn from_plan(p: Arc<Plan>) -> Conversion {
        Conversion(ConvKind::Plan(p))
    }
    pub(crate) fn all_dynamic() -> Conversion {
        Conversion(ConvKind::AllDynamic)
    }
    pub(crate) fn check_then(first: Conversion, then: Conversion) -> Conversion {
        Conversion(ConvKind::CheckThen(Box::new(first), Box::new(then)))
    }

    /// Converts `v`, which should have the conversion's input type.
    pub fn apply(&self, v: &Value) -> Result<Value, ConvError> {
        match &self.0 {
            ConvKind::Plan(p) => p.apply(v, &mut Vec::new()),
            ConvKind::AllDynamic => Ok(Value::dynamic_unknown()),
            ConvKind::CheckThen(first, then) => {
                first.apply(v)?;
                then.apply(v)
            }
        }
    }
}

impl std::fmt::Debug for Conversion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            ConvKind::Plan(p) => write!(f, "Conversion(to {:?})", p.out),
            ConvKind::AllDynamic => f.write_str("Conversion(to DynamicVal)"),
            ConvKind::CheckThen(a, b) => write!(f, "Conversion({a:?} then {b:?})"),
        }
    }
}

/// cty `getConversion`.
pub(crate) fn get_conversion(from: &Type, to: &Type, allow_unsafe: bool) -> Option<Arc<Plan>> {
    let known = get_known(from, to, allow_unsafe)?;
    let out_required = to.has_optional_attributes().then(|| to.without_optional_attributes());
    Some(Arc::new(Plan { out: to.clone(), out_required, known }))
}

/// Element conversion inside a collection conversion: none needed when
/// the types are equal.
fn elem_conv(from: &Type, to: &Type, allow_unsafe: bool) -> Planned {
    let key = match (from.shared_part(), to.shared_part()) {
        (Some(f), Some(t)) => Some((f, t, allow_unsafe)),
        _ => None,
    };
    if let Some(planned) = key.and_then(|key| PLANS.with(|p| p.borrow().as_ref().and_then(|m| m.plans.get(&key).cloned()))) {
        return planned;
    }
    let planned = if from == to { Ok(None) } else { get_conversion(from, to, allow_unsafe).map(Some).ok_or(()) };
    if let Some(key) = key {
        PLANS.with(|p| {
            if let Some(m) = p.borrow_mut().as_mut() {
                m.plans.insert(key, planned.clone());
                m.kept.extend([from.clone(), to.clone()]);
            }
        });
    }
    planned
}

/// An element conversion: none needed, a plan, or none possible.
type Planned = Result<Option<Arc<Plan>>, ()>;

/// Element conversions planned during one unification, by the shared
/// parts of their types: unification plans the conversions of every level
/// of nested types to its target, each containing the next level's, so
/// without these a type nested `d` deep took some d³ steps (a conditional
/// between two tuples 1,000 deep that differ at the leaf: 1.3 s).
struct PlanMemo {
    plans: ahash::AHashMap<(SharedPart, SharedPart, bool), Planned>,
    /// The types planned for, kept so that their addresses stay theirs.
    kept: Vec<Type>,
}

thread_local! {
    static PLANS: std::cell::RefCell<Option<PlanMemo>> = const { std::cell::RefCell::new(None) };
}

/// Runs `f` (a unification) with element conversions remembered for its
/// duration (an enclosing one's, if any).
pub(crate) fn with_plan_memo<R>(f: impl FnOnce() -> R) -> R {
    let outer = PLANS.with(|p| p.borrow().is_some());
    if outer {
        return f();
    }
    PLANS.with(|p| *p.borrow_mut() = Some(PlanMemo { plans: ahash::AHashMap::new(), kept: Vec::new() }));
    // Taken away again even if `f` panics (a later unification must not
    // find plans keyed by addresses since reused).
    struct Clear;
    impl Drop for Clear {
        fn drop(&mut self) {
            let _ = PLANS.try_with(|p| p.borrow_mut().take());
        }
    }
    let _clear = Clear;
    f()
}

/// The element conversions of a tuple's elements, `(from, to)` in order:
/// an element whose types are those of the one before shares its plan (a
/// tuple of many references to one large tuple would otherwise plan the
/// large one's conversion once per reference).
fn elem_convs<'t>(pairs: impl Iterator<Item = (&'t Type, &'t Type)>, allow_unsafe: bool) -> Option<Vec<Option<Arc<Plan>>>> {
    let mut convs = Vec::new();
    let mut last: Option<(&Type, &Type)> = None;
    for (from, to) in pairs {
        let conv = match (last, convs.last()) {
            (Some((f, t)), Some(conv)) if f == from && t == to => Option::clone(conv),
            _ => elem_conv(from, to, allow_unsafe).ok()?,
        };
        last = Some((from, to));
        convs.push(conv);
    }
    Some(convs)
}

/// cty `getConversionKnown`.
fn get_known(from: &Type, to: &Type, allow_unsafe: bool) -> Option<Known> {
    match (from, to) {
        (_, Type::Dynamic) => Some(Known::Passthrough),
        (Type::Dynamic, _) if allow_unsafe => Some(Known::DynamicFixup(to.clone())),
        (Type::Number, Type::String) => Some(Known::NumberToString),
        (Type::Bool, Type::String) => Some(Known::BoolToString),
        (Type::String, Type::Number) if allow_unsafe => Some(Known::StringToNumber),
        (Type::String, Type::Bool) if allow_unsafe => Some(Known::StringToBool),
        (Type::Object(fo), Type::Object(to_ty)) => {
            let mut attrs = Vec::with_capacity(to_ty.len());
            for (i, (name, out_aty)) in to_ty.iter().enumerate() {
                match fo.attr_type(name) {
                    Some(in_aty) => attrs.push(AttrConv::From(elem_conv(in_aty, out_aty, allow_unsafe).ok()?)),
                    None if to_ty.is_optional(i) => attrs.push(AttrConv::Absent(out_aty.without_optional_attributes())),
                    None => return None,
                }
            }
            Some(Known::ObjectToObject { out: required_object(to_ty), attrs })
        }
        (Type::Tuple(ft), Type::Tuple(tt)) => {
            if ft.len() != tt.len() {
                return None;
            }
            let convs = elem_convs(ft.elems().iter().zip(tt.elems()), allow_unsafe)?;
            Some(Known::TupleToTuple(convs))
        }
        (Type::List(fe) | Type::Set(fe), Type::List(te)) => {
            let conv = elem_conv(fe, te, allow_unsafe).ok()?;
            Some(Known::CollectionToList { ety: (**te).clone(), conv })
        }
        (Type::List(fe) | Type::Set(fe), Type::Set(te)) => {
            if from.is_list() && !allow_unsafe {
                return None;
            }
            let conv = elem_conv(fe, te, allow_unsafe).ok()?;
            Some(Known::CollectionToSet { ety: (**te).clone(), conv })
        }
        (Type::Map(fe), Type::Map(te)) => {
            // cty asks for an element conversion even for equal types, and
            // there is none between equal primitive types.
            let conv = get_conversion(fe, te, allow_unsafe)?;
            Some(Known::CollectionToMap { ety: (**te).clone(), conv: Some(conv) })
        }
        (Type::Tuple(ft), Type::List(te) | Type::Set(te)) => {
            let to_list = to.is_list();
            if ft.is_empty() {
                return Some(if to_list { Known::EmptyList((**te).clone()) } else { Known::EmptySet((**te).clone()) });
            }
            let mut ety = (**te).clone();
            if ety.is_dynamic() {
                let (unified, _) = unify_types(ft.elems(), allow_unsafe)?;
                if unified.is_dynamic() && !ft.elems().iter().all(Type::is_dynamic) {
                    return None;
                }
                ety = unified;
            }
            let convs = elem_convs(ft.elems().iter().map(|e| (e, &ety)), allow_unsafe)?;
            Some(if to_list { Known::TupleToList { ety, convs, allow_unsafe } } else { Known::TupleToSet { convs } })
        }
        (Type::Object(fo), Type::Map(te)) => {
            if fo.is_empty() {
                return Some(Known::EmptyMap((**te).clone()));
            }
            let mut ety = (**te).clone();
            if ety.is_dynamic() {
                let (unified, _) = unify_types(fo.types(), allow_unsafe)?;
                ety = unified;
            }
            let convs = fo.types().iter().map(|a| elem_conv(a, &ety, allow_unsafe)).collect::<Result<Vec<_>, ()>>().ok()?;
            Some(Known::ObjectToMap { ety, names: fo.clone(), convs, allow_unsafe })
        }
        (Type::Map(fe), Type::Object(to_ty)) if allow_unsafe => {
            let mut convs = Vec::with_capacity(to_ty.len());
            for (i, a) in to_ty.types().iter().enumerate() {
                match elem_conv(fe, a, allow_unsafe) {
                    Ok(c) => convs.push(MapAttrConv::Elem(c)),
                    Err(()) if to_ty.is_optional(i) => convs.push(MapAttrConv::Incompatible),
                    Err(()) => return None,
                }
            }
            Some(Known::MapToObject { out: to_ty.clone(), convs })
        }
        _ => None,
    }
}

fn apply_opt(conv: &Option<Arc<Plan>>, v: &Value, path: &mut Vec<PathStep>) -> Result<Value, ConvError> {
    match conv {
        Some(c) => c.apply(v, path),
        None => Ok(v.clone()),
    }
}

fn with_step<T>(path: &mut Vec<PathStep>, step: PathStep, f: impl FnOnce(&mut Vec<PathStep>) -> T) -> T {
    path.push(step);
    let r = f(path);
    path.pop();
    r
}

/// Converts element `i`, extending the error path only when a conversion
/// runs (an absent conversion cannot fail).
fn convert_at(path: &mut Vec<PathStep>, i: usize, conv: &Option<Arc<Plan>>, e: &Value) -> Result<Value, ConvError> {
    match conv {
        Some(c) => with_step(path, index_step(i), |p| c.apply(e, p)),
        None => Ok(e.clone()),
    }
}

fn index_step(i: usize) -> PathStep {
    PathStep::Index(Value::int(i as i64))
}

impl Plan {
    /// Applies the conversion (cty's wrapper around the known conversion).
    pub(crate) fn apply(&self, v: &Value, path: &mut Vec<PathStep>) -> Result<Value, ConvError> {
        if self.out.is_dynamic() {
            return Ok(v.clone());
        }
        let out = self.out_required.as_ref().unwrap_or(&self.out);
        match v {
            Value::Unknown(u) => return Ok(super::prepare_unknown_result(v, dynamic_replace(u.ty(), out))),
            Value::Null(t) => return Ok(Value::Null(dynamic_replace(t, out))),
            _ => {}
        }
        self.apply_known(v, path)
    }

    fn apply_known(&self, v: &Value, path: &mut Vec<PathStep>) -> Result<Value, ConvError> {
        // Converting a collection visits each element ([`crate::work`]);
        // a conversion with more elements (counting shared parts each
        // time) than its evaluation has steps left stops.
        crate::work::note(v.elements_slice().len() as u64);
        if crate::work::exhausted() {
            return Err(ConvError::new(path, crate::work::OUT_OF_STEPS));
        }
        match &self.known {
            Known::Passthrough => Ok(v.clone()),
            Known::DynamicFixup(want) => super::convert(v, want).map_err(|e| {
                let mut full = path.clone();
                full.extend(e.path);
                ConvError { path: full, message: e.message }
            }),
            Known::NumberToString => match v {
                Value::Number(n) => {
                    // Writing a number out costs some eight steps.
                    crate::work::note(8);
                    let text = n.to_text().map_err(|e| ConvError::new(path, e.to_string()))?;
                    Ok(Value::from_string(text))
                }
                _ => Err(wrong_input(path)),
            },
            Known::BoolToString => match v {
                Value::Bool(b) => Ok(Value::string(if *b { "true" } else { "false" })),
                _ => Err(wrong_input(path)),
            },
            Known::StringToNumber => match v {
                Value::String(s) => {
                    // A step per byte read: decimal text of many digits
                    // takes some 80 ns a digit to read (a loop adding a
                    // 500,000-digit string to numbers took seconds,
                    // uncounted).
                    crate::work::note(s.len() as u64);
                    match Number::parse(s) {
                        Ok(n) => Ok(Value::Number(n)),
                        Err(_) => Err(ConvError::new(path, "a number is required")),
                    }
                }
                _ => Err(wrong_input(path)),
            },
            Known::StringToBool => match v {
                Value::String(s) => match s.as_str() {
                    "true" | "1" => Ok(Value::Bool(true)),
                    "false" | "0" => Ok(Value::Bool(false)),
                    other => Err(ConvError::new(path, super::string_to_bool_error(other))),
                },
                _ => Err(wrong_input(path)),
            },
            Known::ObjectToObject { out, attrs } => {
                let mut vals = Vec::with_capacity(out.len());
                for (name, conv) in out.names().iter().zip(attrs) {
                    let conv = match conv {
                        AttrConv::From(c) => c,
                        AttrConv::Absent(t) => {
                            vals.push(Value::Null(t.clone()));
                            continue;
                        }
                    };
                    let Some(av) = v.get_attr(name) else {
                        return Err(wrong_input(path));
                    };
                    let cv = with_step(path, PathStep::Attr(name.clone()), |p| apply_opt(conv, av, p))?;
                    vals.push(required_null(cv));
                }
                Value::object_like(out, vals).map_err(|_| wrong_input(path))
            }
            Known::TupleToTuple(convs) => {
                let elems = v.elements_slice();
                if elems.len() != convs.len() {
                    return Err(wrong_input(path));
                }
                let mut out = Vec::with_capacity(elems.len());
                for (i, (e, conv)) in elems.iter().zip(convs).enumerate() {
                    out.push(convert_at(path, i, conv, e)?);
                }
                Ok(Value::tuple(out))
            }
            Known::CollectionToList { ety, conv } | Known::CollectionToSet { ety, conv } => {
                let to_list = matches!(self.known, Known::CollectionToList { .. });
                if to_list && !v.cty_length().is_known() {
                    // cty gives up on a set whose length is unknown, typing
                    // the result by the *input* element type.
                    let in_ety = v.ty().element_type().cloned().unwrap_or(Type::Dynamic);
                    return Ok(Value::unknown(Type::list(in_ety)));
                }
                let elems = v.elements_slice();
                if elems.is_empty() {
                    let ety = if ety.is_dynamic() {
                        v.ty().element_type().cloned().unwrap_or(Type::Dynamic)
                    } else {
                        ety.without_optional_attributes()
                    };
                    return Ok(if to_list { Value::list_empty(ety) } else { Value::set_empty(ety) });
                }
                // Same element type, nothing to convert: a list stays itself
                // and a set's elements (already typed `ety`) are listed.
                if conv.is_none() && to_list && !ety.is_dynamic() {
                    match v {
                        Value::List(l) if l.element_type() == ety => return Ok(v.clone()),
                        Value::Set(s) if s.element_type() == ety => return Ok(Value::list_unchecked(ety.clone(), elems.to_vec())),
                        _ => {}
                    }
                }
                let mut out = Vec::with_capacity(elems.len());
                for (i, e) in elems.iter().enumerate() {
                    out.push(required_null(convert_at(path, i, conv, e)?));
                }
                if to_list {
                    Value::list(out).map_err(|_| ConvError::new(path, "element types must all match for conversion to list"))
                } else {
                    Value::set(out).map_err(|_| ConvError::new(path, "element types must all match for conversion to set"))
                }
            }
            Known::CollectionToMap { ety, conv } => {
                let Some(pairs) = v.key_value_pairs() else {
                    return Err(wrong_input(path));
                };
                if pairs.is_empty() {
                    let ety = if ety.is_dynamic() { v.ty().element_type().cloned().unwrap_or(Type::Dynamic) } else { ety.clone() };
                    return Ok(Value::map_empty(ety));
                }
                let mut out = Vec::with_capacity(pairs.len());
                for (k, e) in pairs {
                    let cv = with_step(path, PathStep::Index(Value::String(k.clone())), |p| apply_opt(conv, e, p))?;
                    out.push((k, cv));
                }
                if ety.is_collection() || ety.is_object() {
                    out = unify_map_elements(out, path, false)?;
                }
                map_from_pairs(out).map_err(|_| ConvError::new(path, "element types must all match for conversion to map"))
            }
            Known::EmptyList(ety) => Ok(Value::list_empty(ety.without_optional_attributes())),
            Known::EmptySet(ety) => Ok(Value::set_empty(ety.without_optional_attributes())),
            Known::EmptyMap(ety) => Ok(Value::map_empty(ety.without_optional_attributes())),
            Known::TupleToList { ety, convs, allow_unsafe } => {
                let elems = v.elements_slice();
                // Every element already has the list's element type (that is
                // what an absent element conversion means), so the
                // unification step cty runs next cannot change anything.
                if !ety.is_dynamic() && convs.iter().all(Option::is_none) && matches!(v, Value::Tuple(_)) && elems.len() == convs.len() {
                    return Ok(Value::list_unchecked(ety.clone(), elems.to_vec()));
                }
                let mut out = Vec::with_capacity(elems.len());
                for (i, e) in elems.iter().enumerate() {
                    let conv = convs.get(i).ok_or_else(|| wrong_input(path))?;
                    out.push(convert_at(path, i, conv, e)?);
                }
                // cty passes the path of the last element here, so errors
                // from this step carry it.
                let last = elems.len().saturating_sub(1);
                let out = with_step(path, index_step(last), |p| unify_list_elements(out, p, *allow_unsafe))?;
                Value::list(out).map_err(|_| ConvError::new(path, "element types must all match for conversion to list"))
            }
            Known::TupleToSet { convs } => {
                let elems = v.elements_slice();
                let mut out = Vec::with_capacity(elems.len());
                for (i, e) in elems.iter().enumerate() {
                    let conv = convs.get(i).ok_or_else(|| wrong_input(path))?;
                    out.push(required_null(convert_at(path, i, conv, e)?));
                }
                Value::set(out).map_err(|_| ConvError::new(path, "element types must all match for conversion to set"))
            }
            Known::ObjectToMap { ety, names, convs, allow_unsafe } => {
                let Some(pairs) = v.key_value_pairs() else {
                    return Err(wrong_input(path));
                };
                let mut out = Vec::with_capacity(pairs.len());
                for (k, e) in pairs {
                    let conv = names.attr_index(&k).and_then(|i| convs.get(i)).ok_or_else(|| wrong_input(path))?;
                    let cv = with_step(path, PathStep::Index(Value::String(k.clone())), |p| apply_opt(conv, e, p))?;
                    out.push((k, cv));
                }
                if ety.is_collection() || ety.is_object() {
                    out = unify_map_elements(out, path, *allow_unsafe)?;
                }
                map_from_pairs(out).map_err(|_| ConvError::new(path, "attribute types must all match for conversion to map"))
            }
            Known::MapToObject { out, convs } => {
                let Some(m) = v.as_map() else {
                    return Err(wrong_input(path));
                };
                // cty converts the present elements first and only then
                // reports a missing one.
                let mut vals: Vec<Option<Value>> = Vec::with_capacity(out.len());
                for (i, (name, conv)) in out.names().iter().zip(convs).enumerate() {
                    let Some(e) = m.get(name) else {
                        vals.push(None);
                        continue;
                    };
                    let conv = match conv {
                        MapAttrConv::Elem(c) => c,
                        MapAttrConv::Incompatible => {
                            let message = format!(
                                "map element type is incompatible with attribute {}: {}",
                                go_quote(name),
                                super::mismatch_message(&e.ty(), &out.types()[i])
                            );
                            return Err(ConvError::new(path, message));
                        }
                    };
                    let key = PathStep::Index(Value::string(name));
                    let cv = with_step(path, key, |p| apply_opt(conv, e, p))?;
                    vals.push(Some(required_null(cv)));
                }
                let mut present = Vec::with_capacity(vals.len());
                for (i, (v, name)) in vals.into_iter().zip(out.names()).enumerate() {
                    match v {
                        Some(v) => present.push(v),
                        // cty's null of the attribute type as declared.
                        None if out.is_optional(i) => present.push(Value::Null(out.types()[i].clone())),
                        None => return Err(ConvError::new(path, format!("map has no element for required attribute {}", go_quote(name)))),
                    }
                }
                Value::object_like(&required_object(out), present).map_err(|_| wrong_input(path))
            }
        }
    }
}

/// The object type with its attributes required (itself when they are).
fn required_object(o: &Arc<ObjectType>) -> Arc<ObjectType> {
    if !o.has_optional() && !o.types().iter().any(Type::has_optional_attributes) {
        return o.clone();
    }
    match Type::Object(o.clone()).without_optional_attributes() {
        Type::Object(r) => r,
        _ => o.clone(),
    }
}

/// cty strips optional attributes from the type of a null element or
/// attribute a conversion produced.
#[inline]
fn required_null(v: Value) -> Value {
    match v {
        Value::Null(t) if t.has_optional_attributes() => Value::Null(t.without_optional_attributes()),
        v => v,
    }
}

/// A conversion applied to a value that is not of its input type. cty
/// panics in these situations (they arise only from its composed
/// unification conversions); here they are ordinary errors.
fn wrong_input(path: &[PathStep]) -> ConvError {
    ConvError::new(path, "value does not have the type this conversion expects")
}

fn map_from_pairs(pairs: Vec<(crate::value::Str, Value)>) -> Result<Value, crate::value::ValueError> {
    Value::map(pairs.into_iter().map(|(k, v)| (k.as_arc().clone(), v)).collect::<Vec<(Arc<str>, Value)>>())
}

/// cty `conversionUnifyCollectionElements`.
fn unify_map_elements(
    elems: Vec<(crate::value::Str, Value)>,
    path: &mut Vec<PathStep>,
    allow_unsafe: bool,
) -> Result<Vec<(crate::value::Str, Value)>, ConvError> {
    let types: Vec<Type> = elems.iter().map(|(_, v)| v.ty()).collect();
    let Some((unified, _)) = unify_types(&types, allow_unsafe) else {
        return Err(ConvError::new(path, "cannot find a common base type for all elements"));
    };
    let mut out = Vec::with_capacity(elems.len());
    for ((k, v), t) in elems.into_iter().zip(types) {
        if t == unified {
            out.push((k, v));
            continue;
        }
        let Some(conv) = get_conversion(&t, &unified, allow_unsafe) else {
            return Err(ConvError::new(path, "cannot find a common base type for all elements"));
        };
        let cv = with_step(path, PathStep::Index(Value::String(k.clone())), |p| conv.apply(&v, p))?;
        out.push((k, cv));
    }
    Ok(out)
}

/// cty `conversionUnifyListElements`.
fn unify_list_elements(elems: Vec<Value>, path: &mut Vec<PathStep>, allow_unsafe: bool) -> Result<Vec<Value>, ConvError> {
    let types: Vec<Type> = elems.iter().map(Value::ty).collect();
    let Some((unified, _)) = unify_types(&types, allow_unsafe) else {
        return Err(ConvError::new(path, "cannot find a common base type for all elements"));
    };
    let mut out = Vec::with_capacity(elems.len());
    for (i, (v, t)) in elems.into_iter().zip(types).enumerate() {
        if t == unified {
            out.push(v);
            continue;
        }
        let Some(conv) = get_conversion(&t, &unified, allow_unsafe) else {
            return Err(ConvError::new(path, "cannot find a common base type for all elements"));
        };
        out.push(with_step(path, index_step(i), |p| conv.apply(&v, p))?);
    }
    Ok(out)
}

/// cty `dynamicReplace`: the type an unknown or null input of type `from`
/// gets when converted to `to`, keeping what `from` knows where `to` is
/// dynamic.
pub fn dynamic_replace(from: &Type, to: &Type) -> Type {
    if from.is_dynamic() {
        return to.clone();
    }
    match to {
        Type::Dynamic => from.clone(),
        Type::String | Type::Number | Type::Bool => to.clone(),
        Type::Map(te) => {
            let elem = match from {
                Type::Map(fe) => crate::stack::guarded(|| dynamic_replace(fe, te)),
                Type::Object(fo) => {
                    let unified = unify_types(fo.types(), true).map(|(t, _)| t);
                    match unified {
                        Some(u) => crate::stack::guarded(|| dynamic_replace(&u, te)),
                        // cty's "no type" is replaced by the wanted type.
                        None => (**te).clone(),
                    }
                }
                _ => Type::Dynamic,
            };
            Type::map(elem)
        }
        Type::Object(to_ty) => {
            let attrs: Vec<(Arc<str>, Type)> = to_ty
                .iter()
                .map(|(name, aty)| {
                    let t = match from {
                        Type::Map(fe) => crate::stack::guarded(|| dynamic_replace(fe, aty)),
                        Type::Object(fo) => match fo.attr_type(name) {
                            Some(fa) => crate::stack::guarded(|| dynamic_replace(fa, aty)),
                            None => aty.clone(),
                        },
                        _ => Type::Dynamic,
                    };
                    (name.clone(), t)
                })
                .collect();
            Type::object(attrs)
        }
        Type::Set(te) | Type::List(te) => {
            let elem = match from {
                Type::Set(fe) | Type::List(fe) => crate::stack::guarded(|| dynamic_replace(fe, te)),
                Type::Tuple(ft) => match unify_types(ft.elems(), true) {
                    Some((u, _)) => crate::stack::guarded(|| dynamic_replace(&u, te)),
                    None => (**te).clone(),
                },
                _ => Type::Dynamic,
            };
            if to.is_set() {
                Type::set(elem)
            } else {
                Type::list(elem)
            }
        }
        Type::Tuple(tt) => {
            let elems = tt
                .elems()
                .iter()
                .enumerate()
                .map(|(i, te)| match from {
                    Type::Tuple(ft) => match ft.elems().get(i) {
                        Some(fe) => crate::stack::guarded(|| dynamic_replace(fe, te)),
                        None => te.clone(),
                    },
                    _ => te.clone(),
                })
                .collect();
            Type::tuple(elems)
        }
    }
}
