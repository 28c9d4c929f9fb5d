//! Decodes (and re-encodes) arbitrary text with Packer's `yamldecode` and
//! `yamlencode`; see `hclvm_fuzz::eval::yaml`.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[global_allocator]
static ALLOC: hclvm_fuzz::eval::meter::MeteredAlloc = hclvm_fuzz::eval::meter::MeteredAlloc;

fuzz_target!(|data: &[u8]| {
    hclvm_fuzz::eval::yaml::check(data);
});
