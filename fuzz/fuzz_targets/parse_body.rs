//! Fuzzes `compiler::parse_body` with arbitrary bytes; see `hclvm_fuzz::check`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    hclvm_fuzz::check(hclvm_fuzz::Entry::Body, data);
});
