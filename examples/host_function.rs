//! Host functions: register Rust closures in the function table, with
//! state they capture — a lookup table shared read-only, and a counter that
//! every evaluation, on any thread, updates.
//!
//!     cargo run --example host_function

use hclvm::{Compiled, FnError, FunctionDef, Functions, Options, Param, Signature, Type, Value, Variables};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Start from the standard library so that `upper`, `format`, ... stay
    // available; `Functions::empty()` would give only the host's.
    let mut functions = Functions::stdlib();

    // `shop::price(sku)`: a lookup in a table the host owns, under a
    // namespaced name (as Terraform names provider functions,
    // `provider::aws::arn_parse`).
    let prices: Arc<HashMap<&str, i64>> = Arc::new([("apple", 120), ("pear", 95)].into_iter().collect());
    let table = prices.clone();
    functions.register(FunctionDef::with_static_type(
        "shop::price",
        Signature { params: vec![Param::new("sku", Type::String)], var_param: None, pure: false },
        Type::Number,
        Arc::new(move |args, _ty, _ctx| {
            let sku = args.first().and_then(Value::as_str).unwrap_or_default();
            table.get(sku).map(|p| Value::int(*p)).ok_or_else(|| FnError::arg(0, format!("no price for {sku:?}")))
        }),
    ))?;

    // `next_ticket()`: a counter shared by every evaluation. Not pure, so
    // the compiler never folds calls to it.
    let counter = Arc::new(AtomicU64::new(0));
    let tickets = counter.clone();
    functions.register(FunctionDef::with_static_type(
        "next_ticket",
        Signature { params: vec![], var_param: None, pure: false },
        Type::Number,
        Arc::new(move |_args, _ty, _ctx| Ok(Value::int(tickets.fetch_add(1, Ordering::Relaxed) as i64 + 1))),
    ))?;

    let order = Compiled::template(
        "ticket ${next_ticket()}: ${qty} x ${upper(sku)} = ${format(\"%.2f\", shop::price(sku) * qty / 100)}",
        &Options::new().functions(functions),
    )?;

    // Evaluate from several threads at once: the compiled template and the
    // captured state are shared.
    std::thread::scope(|scope| {
        for (sku, qty) in [("apple", 3), ("pear", 2), ("apple", 10), ("kiwi", 1)] {
            let order = &order;
            scope.spawn(move || {
                let vars = Variables::new().with("sku", sku).with("qty", Value::int(qty));
                let out = order.evaluate(&vars);
                match out.value().and_then(Value::as_str) {
                    Some(line) => println!("{line}"),
                    None => eprint!("{}", out.render_diagnostics(false)),
                }
            });
        }
    });
    println!("{} tickets issued", counter.load(Ordering::Relaxed));
    Ok(())
}
