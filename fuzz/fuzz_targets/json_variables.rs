//! Fuzzes the JSON variables fast path against the full decoder; see
//! `hclvm_fuzz::json_variables`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    hclvm_fuzz::json_variables::check(data);
});
