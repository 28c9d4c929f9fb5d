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

// SAFETY: every method hands its arguments unchanged to `System` and
// returns what `System` returns, so each block this allocator hands out is
// a `System` block of the requested layout, and each block it is given back
// (by the contract of `GlobalAlloc`, one of its own, with the layout it
// was made with) is one `System` can take. The bookkeeping around the calls
// touches only `const`-initialised thread-locals without destructors,
// through `try_with` (so not after the thread's locals are gone): it never
// allocates, so it cannot re-enter the allocator, and it never unwinds.
unsafe impl GlobalAlloc for MeteredAlloc {
    #[deny(unsafe_op_in_unsafe_fn)]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller guarantees `layout` has a non-zero size, which
        // is all `System.alloc` requires.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grow(layout.size());
        }
        p
    }
    #[deny(unsafe_op_in_unsafe_fn)]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as in `alloc`.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grow(layout.size());
        }
        p
    }
    #[deny(unsafe_op_in_unsafe_fn)]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller guarantees `ptr` came from this allocator with
        // `layout`; this allocator's blocks are `System`'s, made with the
        // same layout.
        unsafe { System.dealloc(ptr, layout) };
        shrink(layout.size());
    }
    #[deny(unsafe_op_in_unsafe_fn)]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` and `layout` are a `System` block as in `dealloc`;
        // the caller guarantees `new_size` is non-zero and does not overflow
        // when rounded up to `layout.align()`, as `System.realloc` requires.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
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
