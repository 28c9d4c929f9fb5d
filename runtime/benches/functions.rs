//! Function-call throughput through the table's full calling convention.

use criterion::{criterion_group, criterion_main, Criterion};
use runtime::func::{FunctionTable, Functions, SizeBudget};
use runtime::Value;
use std::hint::black_box;

fn strings(n: usize) -> Value {
    Value::list((0..n).map(|i| Value::from_string(format!("item-{i}"))).collect()).unwrap()
}

/// A named call to time.
type Case = (&'static str, Box<dyn Fn(&Functions) -> Value>);

fn bench(c: &mut Criterion) {
    let t = Functions::stdlib();
    let call = |name: &str, args: Vec<Value>| {
        let id = t.lookup(name).unwrap();
        move |t: &Functions| {
            let mut b = SizeBudget::new(1 << 30);
            t.call_unconverted(id, black_box(&args), &mut b).unwrap()
        }
    };
    let list = strings(100);
    let obj = Value::object((0..50).map(|i| (format!("k{i}"), Value::int(i))).collect());
    let cases: Vec<Case> = vec![
        ("contains/100", Box::new(call("contains", vec![list.clone(), Value::string("item-99")]))),
        ("length/100", Box::new(call("length", vec![list.clone()]))),
        ("lookup/object50", Box::new(call("lookup", vec![obj.clone(), Value::string("k25"), Value::int(0)]))),
        ("join/100", Box::new(call("join", vec![Value::string(","), list.clone()]))),
        (
            "format/mixed",
            Box::new(call(
                "format",
                vec![Value::string("%s-%d-%.2f-%v"), Value::string("x"), Value::int(42), Value::int(3), Value::Bool(true)],
            )),
        ),
        ("regexall/const", Box::new(call("regexall", vec![Value::string("[a-z]+-([0-9]+)"), Value::string("ab-12 cd-34 ef-56 gh-78")]))),
    ];
    for (name, f) in &cases {
        c.bench_function(name, |b| b.iter(|| f(&t)));
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
