//! The `hclvm` command; see `hclvm --help` and [`hclvm::cli`].

// The one `unsafe` is the global allocator below (`GlobalAlloc` is an
// unsafe trait); the library crates forbid it.
#![deny(unsafe_code)]

fn main() -> std::process::ExitCode {
    // Before anything else allocates (see `allocator::configure`).
    allocator::configure(hclvm::cli::runs_many_inputs(std::env::args_os().nth(1).as_deref()));
    hclvm::cli::main()
}

/// The allocator: mimalloc (per-thread heaps, no allocator locks between
/// batch jobs, faster small allocations than glibc's malloc on evaluation
/// workloads) with the feature `mimalloc`, else the system's; either way,
/// an allocation that fails ends the process with a message and exit
/// status 3 instead of Rust's abort (a core dump): an input that needs
/// more memory than the process may have (`ulimit -v`, a container limit)
/// is an error like any other.
#[allow(unsafe_code)]
mod allocator {
    use std::alloc::{GlobalAlloc, Layout};
    use std::sync::atomic::{AtomicBool, Ordering};

    #[cfg(feature = "mimalloc")]
    type Inner = mimalloc::MiMalloc;
    #[cfg(feature = "mimalloc")]
    const INNER: Inner = mimalloc::MiMalloc;
    #[cfg(not(feature = "mimalloc"))]
    type Inner = std::alloc::System;
    #[cfg(not(feature = "mimalloc"))]
    const INNER: Inner = std::alloc::System;

    struct ExitOnFailure(Inner);

    /// mimalloc reserves address space in arenas of 1 GiB by default: under
    /// a limit on the address space (`ulimit -v 1048576`, as a container
    /// might set), that reservation fails or leaves too little for the
    /// input, and a 28 MB body that needs 550 MB ran out of memory. Without
    /// arena reservations mimalloc maps its segments as it needs them (no
    /// difference measured on the batch workloads).
    ///
    /// Memory freed goes back to the system at once (purge delay 0, not
    /// mimalloc v3's 1 s) for the commands that run one input: with the
    /// delay, what a large input's compilation frees (its tokens, the
    /// syntax tree's lists, code generation's tables) was still resident
    /// when the next stage allocated, so the peak depended on how fast the
    /// process ran (a body of a million attributes `kN = N`: 272 MB for
    /// `hclvm eval` with a delay of 200 ms, 208 MB without; `hclvm check`
    /// 141 and 116 MB).
    ///
    /// The commands that run many inputs (`many_inputs`: `conformance`,
    /// `batch`, `bench`) keep freed memory 100 ms: the next input reuses
    /// it. Returned at once, each input faulted its pages in again; the
    /// corpus one-shot (`benches/one_shot.py`) spent 8% more time, in 352
    /// `madvise` calls and the page faults after them.
    pub(crate) fn configure(many_inputs: bool) {
        #[cfg(not(feature = "mimalloc"))]
        let _ = many_inputs;
        // `mi_option_arena_reserve` and `mi_option_purge_delay` in
        // mimalloc v3's `mi_option_e` (the Rust bindings do not name
        // them); each set only when the option there holds its documented
        // default (1 GiB in KiB; 1000 ms in mimalloc v3's `options.c`,
        // 10 in older headers), so that a different mimalloc
        // cannot have another option changed.
        #[cfg(feature = "mimalloc")]
        const MI_OPTION_ARENA_RESERVE: libmimalloc_sys::mi_option_t = 23;
        #[cfg(feature = "mimalloc")]
        const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;
        #[cfg(feature = "mimalloc")]
        // SAFETY: reads and sets options by their enum values, as the C
        // API allows at any time (plain integers, no pointers).
        unsafe {
            if libmimalloc_sys::mi_option_get(MI_OPTION_ARENA_RESERVE) == 1 << 20 {
                libmimalloc_sys::mi_option_set(MI_OPTION_ARENA_RESERVE, 0);
            }
            if matches!(libmimalloc_sys::mi_option_get(MI_OPTION_PURGE_DELAY), 10 | 1000) {
                libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, if many_inputs { 100 } else { 0 });
            }
        }
    }

    #[global_allocator]
    static GLOBAL: ExitOnFailure = ExitOnFailure(INNER);

    /// mimalloc's blocks are aligned to a word at least: a page's first
    /// block to 16 bytes, and block sizes are whole words.
    #[cfg(feature = "mimalloc")]
    const WORD: usize = std::mem::size_of::<usize>();

    /// An allocation of the inner allocator. With mimalloc, one aligned to a
    /// word at most (nearly all) is a plain `mi_malloc`: the Rust binding
    /// asks for every allocation through `mi_malloc_aligned`, and mimalloc
    /// v3 serves that from its fast path only while the size's free list
    /// has a block at hand; otherwise a size whose class is not a power of
    /// two (48, 80, 96 bytes ...) is over-allocated, into a larger class,
    /// by its slow path (a `for` over three strings spent an eighth of its
    /// instructions there).
    #[inline(always)]
    unsafe fn inner_alloc(layout: Layout, zeroed: bool) -> *mut u8 {
        #[cfg(feature = "mimalloc")]
        if layout.align() <= WORD {
            // SAFETY: any size may be asked for; the block is aligned to a
            // word, which is all `layout` needs. It is freed by `mi_free`
            // (the inner `dealloc`), as an aligned one is, and resized by
            // `mi_realloc_aligned` (the inner `realloc`), which for an
            // alignment of a word or less is plain `mi_realloc`.
            return unsafe {
                if zeroed {
                    libmimalloc_sys::mi_zalloc(layout.size())
                } else {
                    libmimalloc_sys::mi_malloc(layout.size())
                }
            }
            .cast();
        }
        // SAFETY: the caller's contract for `alloc` is passed on as is.
        unsafe {
            if zeroed {
                INNER.alloc_zeroed(layout)
            } else {
                INNER.alloc(layout)
            }
        }
    }

    /// Set while the process is ending for lack of memory.
    static ENDING: AtomicBool = AtomicBool::new(false);

    #[cold]
    fn out_of_memory(layout: Layout) -> ! {
        if ENDING.swap(true, Ordering::SeqCst) {
            // Writing the message needed memory too: nothing more to try.
            std::process::abort();
        }
        use std::io::Write as _;
        // Unbuffered, and formats into a fixed-size stack buffer.
        let mut buf = [0u8; 160];
        let mut cursor = std::io::Cursor::new(&mut buf[..]);
        let _ = writeln!(
            cursor,
            "hclvm: out of memory (an allocation of {} bytes failed): the input needs more memory than this process may use",
            layout.size()
        );
        let n = cursor.position() as usize;
        let _ = std::io::stderr().write_all(&buf[..n]);
        std::process::exit(3)
    }

    // SAFETY: every method returns what the inner allocator returned for
    // the same arguments, except that a word-aligned allocation comes from
    // mimalloc's `mi_malloc`/`mi_zalloc` (`inner_alloc`), a block that the
    // inner allocator's `dealloc` (`mi_free`) frees and its `realloc`
    // resizes as one of its own; so the inner allocator's guarantees hold.
    // A null result (failure) does not return at all.
    unsafe impl GlobalAlloc for ExitOnFailure {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            // SAFETY: the caller's contract for `alloc` is passed on as is.
            let p = unsafe { inner_alloc(layout, false) };
            if p.is_null() {
                out_of_memory(layout);
            }
            p
        }

        unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
            // SAFETY: as for `alloc`.
            let p = unsafe { inner_alloc(layout, true) };
            if p.is_null() {
                out_of_memory(layout);
            }
            p
        }

        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            // SAFETY: `ptr` came from this allocator with `layout`: from the
            // inner one, or from `mi_malloc`/`mi_zalloc`, which `mi_free` frees.
            unsafe { self.0.dealloc(ptr, layout) }
        }

        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            // SAFETY: as for `dealloc`; the caller's contract for `realloc` is passed on.
            let p = unsafe { self.0.realloc(ptr, layout, new_size) };
            if p.is_null() {
                out_of_memory(Layout::from_size_align(new_size, layout.align()).unwrap_or(layout));
            }
            p
        }
    }
}
