//! Compile-and-evaluate fuzzing: input decoding ([`input`]), the invariants
//! ([`check`]; [`declared`] for declared variable types, [`yaml`] for
//! Packer's YAML functions on arbitrary text) and a metering allocator
//! ([`meter`]). This module uses only
//! the `hclvm` facade and std, so `tests/fuzz_regressions.rs` in the root
//! crate includes it by path and replays saved reproducers through the very
//! same checks.

pub mod check;
pub mod declared;
pub mod input;
pub mod meter;
pub mod yaml;
