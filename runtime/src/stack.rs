//! Recursion over values and types that stays within the stack.
//!
//! Values nest as deeply as their JSON input may (10,000 levels, Go's
//! limit), and every algorithm over them (equality, conversion, encoding,
//! set hashing, type comparison) recurses once per level. They run on any
//! thread a host evaluates on, so each recursion step that descends into a
//! collection goes through [`guarded`], which moves to a fresh stack
//! segment when less than [`RED_ZONE`] is left. Checking costs a comparison
//! of the stack pointer with a thread-local bound; nothing is allocated
//! unless the stack really runs low.
//!
//! Dropping recurses only so deep: past [`DROP_DEPTH`] nested collection
//! drops, the rest is freed with a work list ([`drop_elements`]). Parsed JSON is dropped with a work list
//! ([`drop_json`]).

use crate::value::Value;

/// Stack left below which a recursion step moves to a new segment.
pub const RED_ZONE: usize = 128 * 1024;

/// The size of each new stack segment.
pub const SEGMENT: usize = 4 * 1024 * 1024;

/// Runs `f`, on a new stack segment if this one is nearly used up.
#[inline]
pub fn guarded<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(RED_ZONE, SEGMENT, f)
}

/// How deep drops recurse before the rest is freed with a work list.
const DROP_DEPTH: u32 = 64;

thread_local! {
    /// How many collection drops are running on this thread. (A `const`
    /// cell without a destructor: usable while the thread's other
    /// thread-locals are being destroyed, when values held in them drop.)
    static DROPPING: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// [`guarded`] for a recursion that counts its depth: the stack is checked
/// every 32 levels only (a check costs more than a level of most walks).
#[inline]
pub fn deeper<R>(depth: usize, f: impl FnOnce() -> R) -> R {
    if depth % 32 == 31 {
        guarded(f)
    } else {
        f()
    }
}

/// Drops the elements of a collection being dropped: recursively while
/// fewer than [`DROP_DEPTH`] drops are running on this thread, else with a
/// work list that never recurses. Shallow values (nearly all) pay one
/// thread-local counter.
pub(crate) fn drop_elements(elems: Box<[Value]>) {
    drop_counted(elems, <[Value]>::into_vec);
}

/// Drops `collection` inside the drop depth count, or, past the depth,
/// frees with the work list the elements `give_up` takes out of it (for
/// a collection that keeps its elements in its own block: `value::Node`).
pub(crate) fn drop_counted<T>(collection: T, give_up: impl FnOnce(T) -> Vec<Value>) {
    let depth = DROPPING.try_with(|d| d.get()).unwrap_or(DROP_DEPTH);
    if depth >= DROP_DEPTH {
        return drop_with_work_list(give_up(collection));
    }
    let _ = DROPPING.try_with(|d| d.set(depth + 1));
    drop(collection);
    let _ = DROPPING.try_with(|d| d.set(depth));
}

/// Frees `values` and everything only they hold, one collection at a
/// time: a collection this drop owns alone gives up its elements to the
/// work list before it is freed, so its own drop has nothing left to
/// recurse into.
fn drop_with_work_list(mut work: Vec<Value>) {
    while let Some(v) = work.pop() {
        v.give_up_sole_elements(&mut work);
    }
}

/// Drops a parsed JSON document without recursing (serde_json's own drop
/// recurses once per level).
pub fn drop_json(doc: serde_json::Value) {
    use serde_json::Value as J;
    let mut work = vec![doc];
    while let Some(v) = work.pop() {
        match v {
            J::Array(items) => work.extend(items),
            J::Object(map) => work.extend(map.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}
