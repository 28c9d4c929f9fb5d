//! Value model benchmarks: construction, clone, equality, conversion,
//! set building and the result encoding.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use runtime::convert::convert;
use runtime::json::write_typed_value;
use runtime::{Type, Value};

fn object10() -> Value {
    let attrs: Vec<(String, Value)> = (0..10)
        .map(|i| {
            let v = if i % 2 == 0 { Value::int(i) } else { Value::string(&format!("value-{i}")) };
            (format!("attr_{i}"), v)
        })
        .collect();
    Value::object(attrs)
}

fn strings(n: usize) -> Vec<Value> {
    (0..n).map(|i| Value::string(&format!("item-{i:04}"))).collect()
}

fn construction(c: &mut Criterion) {
    c.bench_function("construct/object of 10 attrs", |b| b.iter(object10));
    let items = strings(100);
    c.bench_function("construct/list of 100 strings", |b| b.iter(|| Value::list(black_box(items.clone()))));
    c.bench_function("construct/tuple of 100 strings", |b| b.iter(|| Value::tuple(black_box(items.clone()))));
    c.bench_function("construct/set of 100 strings", |b| b.iter(|| Value::set(black_box(items.clone()))));
    let nums: Vec<Value> = (0..100).map(|i| Value::int((i * 7919) % 1000)).collect();
    c.bench_function("construct/set of 100 numbers", |b| b.iter(|| Value::set(black_box(nums.clone()))));
    let objs: Vec<Value> = (0..20).map(|i| Value::object(vec![("k", Value::int(i % 7))])).collect();
    c.bench_function("construct/set of 20 objects", |b| b.iter(|| Value::set(black_box(objs.clone()))));
    let keyed: Vec<(runtime::Str, Value)> = (0..10).map(|i| (runtime::Str::new(&format!("attr_{i}")), Value::int(i))).collect();
    c.bench_function("construct/object of 10 attrs from Str keys", |b| b.iter(|| Value::object_from_strs(black_box(keyed.clone()))));
    let shape = object10().ty().object_type().cloned().unwrap();
    let vals: Vec<Value> = object10().elements_slice().to_vec();
    c.bench_function("construct/object of 10 attrs from a cached shape", |b| {
        b.iter(|| Value::object_like(black_box(&shape), black_box(vals.clone())))
    });
    c.bench_function("construct/ascii string", |b| b.iter(|| Value::string(black_box("hello, world"))));
    c.bench_function("construct/non-NFC string", |b| b.iter(|| Value::string(black_box("cafe\u{301} au lait"))));
}

fn clone_and_access(c: &mut Criterion) {
    let o = object10();
    let l = Value::list(strings(100)).unwrap();
    c.bench_function("clone/object of 10", |b| b.iter(|| black_box(&o).clone()));
    c.bench_function("clone/list of 100", |b| b.iter(|| black_box(&l).clone()));
    c.bench_function("access/get_attr by name", |b| b.iter(|| black_box(&o).get_attr(black_box("attr_7")).is_some()));
    let idx = o.ty().object_type().and_then(|t| t.attr_index("attr_7")).unwrap_or(0);
    c.bench_function("access/attr_at index", |b| b.iter(|| black_box(&o).attr_at(black_box(idx)).is_some()));
    let set = Value::set(strings(1000)).unwrap();
    let needle = Value::string("item-0777");
    c.bench_function("access/set of 1000 strings contains", |b| {
        b.iter(|| black_box(&set).as_set().map(|s| s.contains(black_box(&needle))))
    });
    c.bench_function("access/index 50", |b| b.iter(|| black_box(&l).index(black_box(50)).is_some()));
}

fn equality(c: &mut Criterion) {
    let (a, b2) = (object10(), object10());
    c.bench_function("equals/object of 10 (equal, distinct allocations)", |b| b.iter(|| black_box(&a).equals(black_box(&b2))));
    let (l1, l2) = (Value::list(strings(100)).unwrap(), Value::list(strings(100)).unwrap());
    c.bench_function("equals/list of 100 strings", |b| b.iter(|| black_box(&l1).equals(black_box(&l2))));
    let (x, y) = (Value::int(42), Value::int(42));
    c.bench_function("equals/small numbers", |b| b.iter(|| black_box(&x).equals(black_box(&y))));
    let (s1, s2) = (Value::string("some string"), Value::string("some string"));
    c.bench_function("equals/strings", |b| b.iter(|| black_box(&s1).equals(black_box(&s2))));
}

fn conversion(c: &mut Criterion) {
    let t = Value::tuple(strings(100));
    let want = Type::list(Type::String);
    c.bench_function("convert/tuple of 100 strings -> list(string)", |b| b.iter(|| convert(black_box(&t), &want)));
    let nums = Value::tuple((0..100).map(Value::int).collect());
    c.bench_function("convert/tuple of 100 numbers -> list(string)", |b| b.iter(|| convert(black_box(&nums), &want)));
    let o = object10();
    let m = Type::map(Type::String);
    c.bench_function("convert/object of 10 -> map(string)", |b| b.iter(|| convert(black_box(&o), &m)));
    let n = Value::int(12345);
    c.bench_function("convert/number -> string", |b| b.iter(|| convert(black_box(&n), &Type::String)));
}

fn encoding(c: &mut Criterion) {
    let o = object10();
    let l = Value::list(strings(100)).unwrap();
    let mut out = String::with_capacity(4096);
    c.bench_function("encode/object of 10", |b| {
        b.iter(|| {
            out.clear();
            write_typed_value(&mut out, black_box(&o)).is_ok()
        })
    });
    c.bench_function("encode/list of 100 strings", |b| {
        b.iter(|| {
            out.clear();
            write_typed_value(&mut out, black_box(&l)).is_ok()
        })
    });
}

criterion_group!(benches, construction, clone_and_access, equality, conversion, encoding);
criterion_main!(benches);
