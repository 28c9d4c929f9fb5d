//! A global allocator wrapper that tracks, per thread, the bytes currently
//! allocated and their peak, so a target can check that an evaluation's
//! memory stays near its size budget. Install it in a fuzz target (or test
//! binary) with `#[global_allocator]`; without it [`measure`] reports
//! `None`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The metering allocator (delegates to [`System`]).
pub struct MeteredAlloc;

thread_local! {
    // `const` initialisers without destructors: reading them from the
    // allocator never allocates.
    static CURRENT: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn grow(n: usize) {
    let _ = CURRENT.try_with(|c| {
        let now = c.get() + n as isize;
        c.set(now);
        let _ = PEAK.try_with(|p| {
            if now > p.get() {
                p.set(now)
            }
        });
    });
}

fn shrink(n: usize) {
    let _ = CURRENT.try_with(|c| c.set(c.get() - n as isize));
}

unsafe impl GlobalAlloc for MeteredAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            grow(layout.size());
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if !p.is_null() {
            grow(layout.size());
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        shrink(layout.size());
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() {
            shrink(layout.size());
            grow(new_size);
        }
        p
    }
}

/// Runs `f` and returns its result with the peak growth of this thread's
/// allocated bytes during the call (`None` when the metering allocator is
/// not installed).
pub fn measure<R>(f: impl FnOnce() -> R) -> (R, Option<usize>) {
    let start = CURRENT.with(Cell::get);
    PEAK.with(|p| p.set(start));
    // A probe allocation tells whether the meter is installed.
    let probe = std::hint::black_box(Box::new(0u64));
    let installed = CURRENT.with(Cell::get) != start;
    drop(probe);
    PEAK.with(|p| p.set(CURRENT.with(Cell::get)));
    let r = f();
    let peak = PEAK.with(Cell::get);
    (r, installed.then(|| (peak - start).max(0) as usize))
}
