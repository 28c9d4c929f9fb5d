//! Number benchmarks: the i64 fast path, 512-bit decimal arithmetic, big
//! magnitudes, and Go-exact text output.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use runtime::Number;

fn lit(s: &str) -> Number {
    Number::parse(s).expect("bench literal")
}

fn small_ints(c: &mut Criterion) {
    let (a, b) = (lit("123456"), lit("789"));
    c.bench_function("small/add", |bch| bch.iter(|| black_box(&a).add(black_box(&b))));
    c.bench_function("small/mul", |bch| bch.iter(|| black_box(&a).mul(black_box(&b))));
    c.bench_function("small/cmp", |bch| bch.iter(|| black_box(&a).cmp(black_box(&b))));
    c.bench_function("small/equals", |bch| bch.iter(|| black_box(&a).equals(black_box(&b))));
    c.bench_function("small/to_text", |bch| bch.iter(|| black_box(&a).to_text()));
    c.bench_function("small/parse", |bch| bch.iter(|| Number::parse(black_box("123456"))));
}

fn decimals(c: &mut Criterion) {
    let (x, y) = (lit("0.1"), lit("0.2"));
    let third = lit("1").div(&lit("3")).expect("1/3");
    c.bench_function("decimal/parse 0.1", |bch| bch.iter(|| Number::parse(black_box("0.1"))));
    c.bench_function("decimal/parse 3.14159e-5", |bch| bch.iter(|| Number::parse(black_box("3.14159e-5"))));
    c.bench_function("decimal/add", |bch| bch.iter(|| black_box(&x).add(black_box(&y))));
    c.bench_function("decimal/mul", |bch| bch.iter(|| black_box(&x).mul(black_box(&y))));
    c.bench_function("decimal/div", |bch| bch.iter(|| black_box(&x).div(black_box(&y))));
    c.bench_function("decimal/rem", |bch| bch.iter(|| lit("10").rem(black_box(&lit("3.3")))));
    c.bench_function("decimal/cmp", |bch| bch.iter(|| black_box(&x).cmp(black_box(&y))));
    c.bench_function("decimal/equals same prec", |bch| bch.iter(|| black_box(&x).equals(black_box(&y))));
    let xf = Number::from_f64(0.1).expect("finite");
    c.bench_function("decimal/equals mixed prec", |bch| bch.iter(|| black_box(&x).equals(black_box(&xf))));
    c.bench_function("decimal/to_text 0.1", |bch| bch.iter(|| black_box(&x).to_text()));
    c.bench_function("decimal/to_text 1/3", |bch| bch.iter(|| black_box(&third).to_text()));
    c.bench_function("decimal/hash_text 1/3", |bch| bch.iter(|| black_box(&third).hash_text()));
    let spec = runtime::number::GoFormatSpec { verb: 'f', precision: Some(2), width: Some(8), ..Default::default() };
    c.bench_function("decimal/go_format %8.2f 1/3", |bch| bch.iter(|| black_box(&third).go_format(&spec)));
}

fn big_values(c: &mut Criterion) {
    let (a, b) = (lit("1e400"), lit("123456789012345678901234567890"));
    c.bench_function("big/parse 1e400", |bch| bch.iter(|| Number::parse(black_box("1e400"))));
    c.bench_function("big/add", |bch| bch.iter(|| black_box(&a).add(black_box(&b))));
    c.bench_function("big/mul", |bch| bch.iter(|| black_box(&a).mul(black_box(&b))));
    c.bench_function("big/to_text 1e400", |bch| bch.iter(|| black_box(&a).to_text()));
    c.bench_function("big/parse 1e-400400 (hostile)", |bch| bch.iter(|| Number::parse(black_box("1e-400400"))));
}

criterion_group!(benches, small_ints, decimals, big_values);
criterion_main!(benches);
