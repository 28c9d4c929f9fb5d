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
//! Dropping does not recurse at all: collection nodes give their elements
//! to [`drop_values`], which dismantles deep values with a work list.

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

/// Drops values without recursing: a collection that nobody else holds is
/// taken apart and its elements queued, so a value nested 10,000 levels
/// deep is freed in a loop.
pub(crate) fn drop_values(first: impl IntoIterator<Item = Value>) {
    let mut work: Vec<Value> = Vec::new();
    let queue = |v: Value, work: &mut Vec<Value>| {
        if v.is_collection_node() {
            work.push(v);
        }
        // Anything else drops here without recursion into values.
    };
    for v in first {
        queue(v, &mut work);
    }
    while let Some(v) = work.pop() {
        for child in v.take_children_if_unique() {
            queue(child, &mut work);
        }
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
