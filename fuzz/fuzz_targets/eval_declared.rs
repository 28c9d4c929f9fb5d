//! Declares an arbitrary type constraint for a variable, binds arbitrary
//! variables to it and evaluates it; see `hclvm_fuzz::eval::declared`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[global_allocator]
static ALLOC: hclvm_fuzz::eval::meter::MeteredAlloc = hclvm_fuzz::eval::meter::MeteredAlloc;

fuzz_target!(|data: &[u8]| {
    hclvm_fuzz::eval::declared::check(data);
});
