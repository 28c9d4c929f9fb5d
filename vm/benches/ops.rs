//! Cost of the hot `vm::ops` operations on their own, outside the
//! interpreter: operators on small numbers and strings, index and attribute
//! access, an access error, template parts and a conditional that unifies
//! its results. `cargo bench -p hclvm-vm --bench ops`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use runtime::Value;
use vm::ops::{self, BinaryOp};

fn operators(c: &mut Criterion) {
    let (a, b) = (Value::int(40), Value::int(2));
    c.bench_function("binary add small ints", |bench| bench.iter(|| ops::binary(BinaryOp::Add, black_box(&a), black_box(&b))));
    c.bench_function("binary lt small ints", |bench| bench.iter(|| ops::binary(BinaryOp::Lt, black_box(&a), black_box(&b))));
    let (s1, s2) = (Value::string("abc"), Value::string("abd"));
    c.bench_function("binary eq strings", |bench| bench.iter(|| ops::binary(BinaryOp::Eq, black_box(&s1), black_box(&s2))));
    let sn = Value::string("12");
    c.bench_function("binary add string operand", |bench| bench.iter(|| ops::binary(BinaryOp::Add, black_box(&sn), black_box(&b))));
}

fn access(c: &mut Criterion) {
    let list = Value::list((0..100).map(Value::int).collect()).expect("list");
    let k = Value::int(57);
    c.bench_function("index list[57]", |bench| bench.iter(|| ops::index(black_box(&list), black_box(&k))));
    let obj = Value::object((0..20).map(|i| (format!("attr{i}"), Value::int(i))).collect());
    c.bench_function("get_attr object(20)", |bench| bench.iter(|| ops::get_attr(black_box(&obj), "attr13")));
    let bad = Value::string("x");
    c.bench_function("index error (string[57])", |bench| bench.iter(|| ops::index(black_box(&bad), black_box(&k))));
}

fn templates_and_conditionals(c: &mut Criterion) {
    let k = Value::int(57);
    c.bench_function("template_part number", |bench| bench.iter(|| ops::template_part(black_box(&k))));
    let (t, f) = (Value::int(1), Value::string("a"));
    let cond = Value::Bool(true);
    c.bench_function("conditional (unify num/str)", |bench| bench.iter(|| ops::conditional(&cond, black_box(&t), black_box(&f))));
}

criterion_group!(benches, operators, access, templates_and_conditionals);
criterion_main!(benches);
