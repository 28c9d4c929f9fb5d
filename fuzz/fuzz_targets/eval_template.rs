//! Compiles and evaluates an arbitrary template with arbitrary variables under the
//! default budgets and the standard library; see `hclvm_fuzz::eval`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[global_allocator]
static ALLOC: hclvm_fuzz::eval::meter::MeteredAlloc = hclvm_fuzz::eval::meter::MeteredAlloc;

fuzz_target!(|data: &[u8]| {
    hclvm_fuzz::eval::check::check(hclvm::SourceKind::Template, data);
});
