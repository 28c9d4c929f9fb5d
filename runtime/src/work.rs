//! Work that the step budget's one step per instruction does not measure:
//! elements a function compares or converts, text it scans, element pairs
//! `==` compares. Noted here, on the thread doing it, and taken by the VM
//! after each instruction that can do such work, which adds it to the
//! evaluation's steps: a loop whose body does work proportional to a large
//! input then ends at the step budget instead of running for minutes.
//!
//! Units are steps: one per element compared or converted, one per
//! [`SCAN_BYTES_PER_STEP`] bytes of text scanned (about what a step of the
//! VM costs).

use std::cell::Cell;

/// Bytes of text scanned per step of work.
pub const SCAN_BYTES_PER_STEP: u64 = 64;

thread_local! {
    static NOTED: Cell<u64> = const { Cell::new(0) };
    /// The work the running call may note before its evaluation is out of
    /// steps (see [`allow`]).
    static ALLOWED: Cell<u64> = const { Cell::new(u64::MAX) };
    /// The size budget's units left to the running call (see [`set_room`]).
    static ROOM: Cell<u64> = const { Cell::new(u64::MAX) };
}

/// Sets the size budget's units left to the call about to run, for its
/// type step, which has no budget of its own to charge: one whose type
/// grows with the result (`flatten`) refuses a result that could not fit.
#[inline]
pub fn set_room(units: u64) {
    ROOM.with(|r| r.set(units));
}

/// The units [`set_room`] set for the running call's type step (no limit
/// outside one: [`take`] lifts it).
#[inline]
pub fn room() -> u64 {
    ROOM.with(Cell::get)
}

/// What a function or conversion that stopped because of [`exhausted`]
/// says (the evaluation's end is what is reported).
pub const OUT_OF_STEPS: &str = "the evaluation ran out of steps";

/// The work the running call may still note before [`exhausted`].
#[inline]
pub fn left() -> u64 {
    ALLOWED.with(Cell::get).saturating_sub(NOTED.with(Cell::get))
}

/// Runs `f`, an evaluation of its own inside a call (a template a
/// function renders), with this thread's account set aside: `f` starts
/// with none noted and no allowance, and the call's are back after it.
pub fn isolated<R>(f: impl FnOnce() -> R) -> R {
    let saved = (NOTED.with(|n| n.replace(0)), ALLOWED.with(|a| a.replace(u64::MAX)), ROOM.with(|r| r.replace(u64::MAX)));
    let r = f();
    NOTED.with(|n| n.set(saved.0));
    ALLOWED.with(|a| a.set(saved.1));
    ROOM.with(|r| r.set(saved.2));
    r
}

/// Sets how much work the call about to run may note (the steps its
/// evaluation has left): a function doing long work checks [`exhausted`]
/// as it goes and stops early, instead of finishing work whose steps
/// would end the evaluation as soon as it returned.
#[inline]
pub fn allow(steps: u64) {
    ALLOWED.with(|a| a.set(steps));
}

/// Whether the work noted since the last [`take`] is more than [`allow`]
/// allowed: the evaluation will end once the call returns.
#[inline]
pub fn exhausted() -> bool {
    NOTED.with(Cell::get) > ALLOWED.with(Cell::get)
}

/// Notes `steps` of work.
#[inline]
pub fn note(steps: u64) {
    if steps > 0 {
        NOTED.with(|n| n.set(n.get().saturating_add(steps)));
    }
}

/// Notes the work of scanning `text`.
#[inline]
pub fn note_scan(text: &str) {
    note(text.len() as u64 / SCAN_BYTES_PER_STEP);
}

/// Bytes of text split into grapheme clusters per step of work (the
/// segmenter takes some 20 ns per byte, several VM steps' time).
pub const SEGMENT_BYTES_PER_STEP: u64 = 2;

/// Bytes of text per step of a pass that does real work per byte: a
/// pattern search with captures (some 5 ns a byte), a digest (1-2 ns).
pub const SEARCH_BYTES_PER_STEP: u64 = 8;

/// Notes the work of searching or digesting `text`.
#[inline]
pub fn note_search(text: &str) {
    note_searched(text.len());
}

/// Notes the work of searching `bytes` bytes of text.
#[inline]
pub fn note_searched(bytes: usize) {
    note(bytes as u64 / SEARCH_BYTES_PER_STEP);
}

/// Notes the work of splitting `text` into grapheme clusters.
#[inline]
pub fn note_segmenting(text: &str) {
    note(text.len() as u64 / SEGMENT_BYTES_PER_STEP);
}

/// Forgets what a call left (its allowance and the work it noted): for
/// code that goes on after catching a panic that unwound through a call,
/// which would otherwise leave the next values built outside an
/// evaluation (variables bound to declared types) limited by the allowance
/// of a call that no longer runs, and stopping short (sets keyed in part).
pub fn reset() {
    let _ = take();
}

/// The work noted since the last call (which resets it, and lifts the
/// allowance and room of the call that noted it: work a host does itself,
/// calling functions directly, is not limited).
#[inline]
pub fn take() -> u64 {
    ALLOWED.with(|a| a.set(u64::MAX));
    ROOM.with(|r| r.set(u64::MAX));
    NOTED.with(|n| n.replace(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_calls_allowance_ends_with_the_take_after_it() {
        take();
        allow(10);
        note(10);
        assert!(!exhausted());
        note(1);
        assert!(exhausted());
        assert_eq!(take(), 11);
        // Work after that (a host calling a function itself) has no limit.
        note(1_000_000);
        assert!(!exhausted());
        take();
    }
}
