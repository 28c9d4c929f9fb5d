//! The parts of `vm::ops` results that expressions don't show: which part
//! of the expression each diagnostic blames, the value after an error, and
//! which sub-expression diagnostics a conditional keeps. (Values and
//! wording are checked against the reference by `tests/conformance.rs`.)

use runtime::{Type, Value};
use vm::ops::{self, Blame, CondBranch, ForCollector, ForKind, SplatFinish, SplatSource, TemplatePart};

fn blames(r: &ops::OpResult) -> Vec<(Blame, Option<Blame>)> {
    match r {
        Ok(_) => Vec::new(),
        Err(e) => e.diags.iter().map(|d| (d.subject, d.context)).collect(),
    }
}

fn fallback(r: ops::OpResult) -> Value {
    match r {
        Ok(v) => panic!("expected an error, got {v:?}"),
        Err(e) => e.fallback,
    }
}

#[test]
fn operator_blame_and_fallback() {
    use ops::BinaryOp::*;
    let s = Value::string("a");
    let n = Value::int(1);
    let null = Value::null(Type::Dynamic);
    let both = ops::binary(Add, &s, &s);
    assert_eq!(blames(&both), vec![(Blame::Operand(0), Some(Blame::Expr)), (Blame::Operand(1), Some(Blame::Expr))]);
    assert_eq!(fallback(both), Value::unknown(Type::Number));
    let failed = ops::binary(Lt, &null, &n);
    assert_eq!(blames(&failed), vec![(Blame::Expr, None)]);
    assert_eq!(fallback(failed), Value::unknown(Type::Bool));
    // After operand errors only conversion problems are reported.
    let r = ops::binary_checked(Add, &null, &n, true);
    assert!(blames(&r).is_empty());
    assert_eq!(fallback(r), Value::unknown(Type::Number));
    let r = ops::binary_checked(And, &s, &Value::dynamic_unknown(), true);
    assert_eq!(blames(&r), vec![(Blame::Operand(0), Some(Blame::Expr))]);
    let r = ops::unary_checked(ops::UnaryOp::Neg, &Value::Bool(true), false);
    assert_eq!(blames(&r), vec![(Blame::Operand(0), Some(Blame::Expr))]);
    assert_eq!(ops::binary(Eq, &null, &null).ok(), Some(Value::Bool(true)));
    // The unknown result of an operator function is known not to be null.
    assert_eq!(ops::binary(NotEq, &Value::dynamic_unknown(), &n).ok(), Some(Value::unknown(Type::Bool).refine_not_null()));
}

#[test]
fn access_blames_the_step() {
    let r = ops::index(&Value::string("x"), &Value::int(0));
    assert_eq!(blames(&r), vec![(Blame::Step, None)]);
    assert_eq!(fallback(r), Value::dynamic_unknown());
    let r = ops::get_attr(&Value::null(Type::Dynamic), "a");
    assert_eq!(blames(&r), vec![(Blame::Step, None)]);
    let t = Value::tuple(vec![Value::string("a"), Value::int(2)]);
    let idx = runtime::Number::parse("1").expect("number");
    assert_eq!(ops::legacy_index(&t, &idx).ok(), Some(Value::int(2)));
}

#[test]
fn conditional_keeps_the_chosen_side() {
    let one = Value::int(1);
    let s = Value::string("a");
    let c = ops::conditional(&Value::Bool(false), &one, &s);
    assert_eq!((c.keep, c.value, c.diag), (CondBranch::False, Value::string("a"), None));
    let c = ops::conditional(&Value::Bool(true), &one, &s);
    assert_eq!((c.keep, c.value), (CondBranch::True, Value::string("1")));
    let c = ops::conditional(&Value::Bool(true), &Value::empty_tuple(), &Value::empty_object());
    assert_eq!(c.keep, CondBranch::Nothing);
    assert_eq!(c.diag.map(|d| (d.subject, d.context)), Some((Blame::Between(1, 2), Some(Blame::Expr))));
    let c = ops::conditional(&Value::null(Type::Bool), &one, &one);
    assert_eq!((c.keep, c.value.clone()), (CondBranch::Condition, Value::unknown(Type::Number)));
    assert_eq!(c.diag.map(|d| d.subject), Some(Blame::Operand(0)));
    let c = ops::conditional(&Value::unknown(Type::Bool), &Value::null(Type::Dynamic), &s);
    assert_eq!((c.keep, c.value, c.diag), (CondBranch::Condition, Value::unknown(Type::String), None));
    // A failed conversion of the chosen result blames that result.
    let list = Value::list(vec![Value::string("x")]).expect("list");
    let tuple_num = Value::tuple(vec![Value::int(1)]);
    let c = ops::conditional(&Value::Bool(true), &tuple_num, &list);
    assert_eq!(c.value, Value::list(vec![Value::string("1")]).expect("list"));
    let c = ops::conditional(
        &Value::Bool(false),
        &Value::tuple(vec![Value::string("x")]),
        &Value::list_of(Type::Number, vec![]).expect("list"),
    );
    assert!(c.diag.is_none(), "{:?}", c.diag);
}

#[test]
fn object_builder_blames_key_or_value() {
    let mut b = ops::ObjectBuilder::new();
    assert!(b.push(&Value::string("a"), false, Value::int(1)).is_none());
    assert!(b.push(&Value::int(2), false, Value::int(2)).is_none());
    assert!(b.push(&Value::string("a"), false, Value::int(3)).is_none());
    assert_eq!(b.finish(), Value::object(vec![("2", Value::int(2)), ("a", Value::int(3))]));
    let mut b = ops::ObjectBuilder::new();
    assert_eq!(b.push(&Value::null(Type::String), false, Value::int(1)).map(|d| d.subject), Some(Blame::Operand(1)));
    assert_eq!(b.push(&Value::empty_tuple(), false, Value::int(1)).map(|d| d.subject), Some(Blame::Operand(0)));
    assert_eq!(b.finish(), Value::dynamic_unknown());
    let mut b = ops::ObjectBuilder::new();
    assert!(b.push(&Value::int(1), true, Value::int(1)).is_none());
    assert_eq!(b.finish(), Value::dynamic_unknown());
}

#[test]
fn for_collector_reports_first_problem_only() {
    let mut f = ForCollector::new(ForKind::Object { group: false });
    let (k, d) = f.key(Value::null(Type::String));
    assert!(k.is_none());
    assert_eq!(d.map(|d| (d.subject, d.context)), Some((Blame::Operand(1), Some(Blame::Expr))));
    let (k, d) = f.key(Value::empty_tuple());
    assert!(k.is_none() && d.is_none(), "only the first unusable key is reported");
    assert_eq!(f.finish(), Value::dynamic_unknown());

    let mut f = ForCollector::new(ForKind::Object { group: false });
    let key = f.key(Value::int(1)).0.expect("key");
    assert!(f.push(Some(key.clone()), Value::string("first")).is_none());
    let dup = f.push(Some(key), Value::string("second"));
    assert_eq!(dup.map(|d| d.summary), Some("Duplicate object key"));
    assert_eq!(f.finish(), Value::object(vec![("1", Value::string("first"))]));

    // An object element without a key is left out; the others keep their
    // values, sized for from the start or not.
    for mut f in [ForCollector::new(ForKind::Object { group: false }), ForCollector::for_elements(ForKind::Object { group: false }, 3)] {
        assert!(f.push(None, Value::string("lost")).is_none());
        for (k, v) in [("b", 2), ("a", 1)] {
            let key = f.key(Value::string(k)).0.expect("key");
            assert!(f.push(Some(key), Value::int(v)).is_none());
        }
        assert_eq!(f.finish(), Value::object(vec![("a", Value::int(1)), ("b", Value::int(2))]));
    }

    let mut f = ForCollector::new(ForKind::Object { group: true });
    for v in ["x", "y"] {
        let key = f.key(Value::string("g")).0.expect("key");
        assert!(f.push(Some(key), Value::string(v)).is_none());
    }
    assert_eq!(f.finish(), Value::object(vec![("g", Value::tuple(vec![Value::string("x"), Value::string("y")]))]));

    // Tuple results skip unknown conditions of any type; object results
    // reject those that can't be bools.
    let ul = Value::unknown(Type::list(Type::Number));
    let mut t = ForCollector::new(ForKind::Tuple);
    assert_eq!(t.condition(&ul), (false, None));
    let mut o = ForCollector::new(ForKind::Object { group: false });
    assert!(o.condition(&ul).1.is_some());
    assert!(ForCollector::precheck_condition(&Value::dynamic_unknown()).is_none());
    assert!(ForCollector::precheck_condition(&Value::string("maybe")).is_some());

    let set = Value::set(vec![Value::string("b"), Value::string("a")]).expect("set");
    assert_eq!(ops::for_element(&set, 0), Some((Value::string("a"), Value::string("a"))));
    assert!(ops::for_element(&set, 2).is_none());
    // Without a key, the same values (in the same order), and the same end.
    let obj = Value::object(vec![("y", Value::int(2)), ("x", Value::int(1))]);
    let list = Value::list(vec![Value::int(7), Value::int(8)]).expect("list");
    let tuple = Value::tuple(vec![Value::int(7), Value::string("t")]);
    let map = Value::map(vec![("b", Value::int(2)), ("a", Value::int(1))]).expect("map");
    for coll in [&set, &obj, &list, &tuple, &map] {
        for i in 0..3 {
            assert_eq!(ops::for_value(coll, i).cloned(), ops::for_element(coll, i).map(|(_, v)| v));
        }
    }
    assert_eq!(ops::for_value(&obj, 0), Some(&Value::int(1)));
    // The key alone: an index, the set element, a map's or object's key
    // (sorted), and `for_element` is the two together.
    for coll in [&set, &obj, &list, &tuple, &map] {
        for i in 0..2 {
            let v = ops::for_value(coll, i).expect("element");
            assert_eq!(ops::for_element(coll, i), Some((ops::for_key(coll, i, v), v.clone())));
        }
    }
    assert_eq!(ops::for_key(&map, 1, &Value::int(2)), Value::string("b"));
    assert_eq!(ops::for_key(&obj, 0, &Value::int(1)), Value::string("x"));
    assert_eq!(ops::for_key(&list, 1, &Value::int(8)), Value::int(1));
    assert_eq!(ops::for_key(&set, 1, &Value::string("b")), Value::string("b"));
    assert_eq!(ops::for_value(&Value::int(1), 0), None);
    assert!(matches!(ops::for_source(Value::unknown(Type::list(Type::String))), Ok(ops::ForSource::Unknown)));
    let e = ops::for_source(Value::int(1)).expect_err("not iterable");
    assert_eq!(e.diags[0].subject, Blame::Operand(0));
}

#[test]
fn splat_plans() {
    match ops::splat_source(&Value::null(Type::list(Type::String))) {
        SplatSource::Error(e) => assert_eq!(e.diags[0].context, Some(Blame::Between(0, 1))),
        other => panic!("{other:?}"),
    }
    assert!(matches!(ops::splat_source(&Value::null(Type::String)), SplatSource::Done(v) if v == Value::empty_tuple()));
    let SplatSource::Iterate(plan) = ops::splat_source(&Value::unknown(Type::String)) else { panic!("plan") };
    assert!(!plan.source_unknown());
    assert_eq!(plan.items().len(), 1);
    assert!(matches!(plan.finish(vec![Value::int(1)], false), Ok(SplatFinish::Value(v)) if v == Value::dynamic_unknown()));
    let SplatSource::Iterate(plan) = ops::splat_source(&Value::list_empty(Type::String)) else { panic!("plan") };
    assert!(matches!(plan.finish(vec![], false), Ok(SplatFinish::EmptyListOfProbedType)));
    assert_eq!(plan.probe_types(), vec![Type::String]);
    assert_eq!(plan.empty_list(&[Type::Number]), Value::list_empty(Type::Number));
    let SplatSource::Iterate(plan) = ops::splat_source(&Value::unknown(Type::tuple(vec![Type::Bool]))) else { panic!("plan") };
    assert!(plan.source_unknown());
    assert_eq!(plan.unknown_result(&[Type::String]), Value::unknown(Type::tuple(vec![Type::String])));
}

#[test]
fn template_parts_and_join() {
    assert_eq!(ops::template_part(&Value::int(5)), Ok(TemplatePart::Text(runtime::value::Str::new("5"))));
    assert_eq!(ops::template_part(&Value::unknown(Type::list(Type::Bool))), Ok(TemplatePart::Unknown));
    let d = ops::template_part(&Value::null(Type::String)).expect_err("null");
    assert_eq!((d.subject, d.context), (Blame::Operand(0), Some(Blame::Expr)));
    let parts = Value::tuple(vec![Value::string("a"), Value::null(Type::String), Value::empty_tuple(), Value::Bool(true)]);
    let e = ops::template_join(&parts).expect_err("bad parts");
    assert_eq!(e.diags.len(), 2);
    assert_eq!(e.fallback, Value::string("atrue"));
    let parts = Value::tuple(vec![Value::string("a"), Value::unknown(Type::Number)]);
    assert_eq!(ops::template_join(&parts).ok(), Some(Value::unknown(Type::String)));
}
