//! A boolean policy condition over pre-bound variables evaluates without
//! any heap allocation once the scratch space is warm.

use hclvm::{Compiled, Options, Value, Variables};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every method hands its arguments unchanged to `System`, so each
// pointer this allocator returns is one `System` returned for that layout,
// and each pointer it is given back (by the contract of `GlobalAlloc`, one
// of its own, with the layout it was allocated with) is one `System` can
// take. The only extra work is a relaxed atomic add, which neither
// allocates (no re-entry into the allocator) nor unwinds.
unsafe impl GlobalAlloc for Counting {
    #[deny(unsafe_op_in_unsafe_fn)]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller guarantees `layout` has a non-zero size, which
        // is all `System.alloc` requires.
        unsafe { System.alloc(layout) }
    }
    #[deny(unsafe_op_in_unsafe_fn)]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller guarantees `ptr` came from this allocator with
        // `layout`; this allocator's blocks are `System`'s, made with the
        // same layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    #[deny(unsafe_op_in_unsafe_fn)]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: `ptr` and `layout` are a `System` block as in `dealloc`;
        // the caller guarantees `new_size` is non-zero and does not overflow
        // when rounded up to `layout.align()`, as `System.realloc` requires.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn var(json: &str) -> Value {
    Variables::from_json_str(&format!(r#"{{"v":{json}}}"#)).unwrap().get("v").unwrap().clone()
}

/// Allocations of one evaluation of `src` with variables bound once.
fn allocations_per_eval(src: &str, names: &[&str], values: Vec<Value>) -> (usize, Value) {
    let program = Compiled::expression(src, &Options::new().variables(names.iter().copied())).unwrap();
    let vars = program.bind(&names.iter().copied().zip(values).collect());
    let first = program.evaluate_bound(&vars);
    assert!(first.diagnostics().is_empty(), "{:?}", first.diagnostics());
    let before = ALLOCS.load(Ordering::Relaxed);
    for _ in 0..100 {
        std::hint::black_box(program.evaluate_bound(&vars));
    }
    ((ALLOCS.load(Ordering::Relaxed) - before) / 100, first.value().unwrap().clone())
}

#[test]
fn boolean_conditions_do_not_allocate() {
    let (n, v) = allocations_per_eval(
        r#"(Origin == "MOW" || Country == "RU") && (Value >= 100 || Adults == 1)"#,
        &["Adults", "Country", "Origin", "Value"],
        vec![var("2"), var("\"RU\""), var("\"MOW\""), var("189")],
    );
    assert_eq!(v, Value::bool(true));
    assert_eq!(n, 0);

    let request = var(r#"{"user":{"role":"dev","mfa":true},"action":"delete","amount":120.5,"currency":"USD","time":{"hour":9}}"#);
    let (n, v) = allocations_per_eval(
        r#"request.amount <= (request.user.role == "admin" ? 100000 : 1000) && request.currency == "USD" && (request.action != "delete" || request.user.mfa) && request.time.hour >= 8 && !(request.time.hour >= 18)"#,
        &["request"],
        vec![request],
    );
    assert_eq!(v, Value::bool(true));
    assert_eq!(n, 0);
}
