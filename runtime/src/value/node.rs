//! A collection's storage: a header (its type) and its elements in one
//! reference-counted block.
//!
//! An object of one attribute was, besides the `Value` that holds it, two
//! blocks: the object (count, weak count, type, pointer to and length of
//! its values) and its values. As a [`Node`] it is one block of a count,
//! the type and the values: 24 bytes and one allocation less per object,
//! and one pointer less to follow to reach an attribute. (`triomphe`'s
//! `Arc` has no weak count, which values never need.)

use super::Value;
use triomphe::{Arc, HeaderSlice};

/// A header `H` and elements, shared: cloning is a count increment.
///
/// (The block is in an `Option` only so that dropping a node is one call,
/// [`release`], that takes the block; it is `None` nowhere else.)
pub(crate) struct Node<H>(Option<Block<H>>);

type Block<H> = Arc<HeaderSlice<H, [Value]>>;

impl<H> Node<H> {
    /// Moves `elems` into a new block after `header`.
    pub(crate) fn new(header: H, elems: Vec<Value>) -> Node<H> {
        Node(Some(Arc::from_header_and_vec(header, elems)))
    }

    /// A new block of `header` and the elements `elems` yields.
    pub(crate) fn from_iter(header: H, elems: impl ExactSizeIterator<Item = Value>) -> Node<H> {
        Node(Some(Arc::from_header_and_iter(header, elems)))
    }

    #[inline]
    fn block(&self) -> &HeaderSlice<H, [Value]> {
        match &self.0 {
            Some(block) => block,
            None => unreachable!("a node is empty only while it drops"),
        }
    }

    #[inline]
    pub(crate) fn header(&self) -> &H {
        &self.block().header
    }

    #[inline]
    pub(crate) fn elems(&self) -> &[Value] {
        &self.block().slice
    }

    /// The header and the elements, when this is the only holder.
    pub(crate) fn get_mut(&mut self) -> Option<(&mut H, &mut [Value])> {
        let block = Arc::get_mut(self.0.as_mut()?)?;
        Some((&mut block.header, &mut block.slice))
    }

    /// Moves the elements out to `out` when this is the only holder (the
    /// node is then freed with nothing left to drop in it).
    pub(crate) fn give_up_elements(mut self, out: &mut Vec<Value>) {
        if let Some(block) = self.0.take() {
            give_up_elements(block, out);
        }
    }
}

fn give_up_elements<H>(mut block: Block<H>, out: &mut Vec<Value>) {
    if let Some(block) = Arc::get_mut(&mut block) {
        // (A bool left in each place: it needs no drop.)
        out.extend(block.slice.iter_mut().map(|v| std::mem::replace(v, Value::Bool(false))));
    }
}

/// The elements of a block held only here, taken out of it.
fn take_elements<H>(block: Block<H>) -> Vec<Value> {
    let mut out = Vec::with_capacity(block.slice.len());
    give_up_elements(block, &mut out);
    out
}

impl<H> Clone for Node<H> {
    #[inline]
    fn clone(&self) -> Self {
        Node(self.0.clone())
    }
}

impl<H> Drop for Node<H> {
    #[inline]
    fn drop(&mut self) {
        if let Some(block) = self.0.take() {
            release(block);
        }
    }
}

/// Lets go of a block: the last holder frees it inside the drop depth
/// count (see `crate::stack::drop_elements`), or, past the depth, moves
/// its elements to the work list first. (Out of line, so that dropping a
/// value of any kind stays a jump to the kind's own drop.) Two threads
/// letting go of one block at once may both find it shared: the block is
/// then freed by the count alone, outside the depth count, which is one
/// level of recursion; its elements, held by it alone, are counted again.
#[inline(never)]
fn release<H>(block: Block<H>) {
    if block.is_unique() && !block.slice.is_empty() {
        crate::stack::drop_counted(block, take_elements);
    }
}
