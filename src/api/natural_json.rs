//! A body's natural value ([`BodyOutcome::to_value`]) written as JSON
//! without building it. Building it copies every name, label and value
//! into objects and tuples: for a body of 200,000 blocks that was some
//! 450 bytes a block, more than the rest of the evaluation together.
//!
//! The natural value's objects list their members sorted by name, and its
//! blocks are grouped by type and then label by label, bodies in source
//! order. So a stable sort of the blocks by type and labels puts every
//! group the value would make into one run, in the order it is written.

use super::error::Error;
use super::outcome::{BlockOutcome, BodyOutcome};
use super::plan::Attrs;
use runtime::json::{len_exceeds, member_len_exceeds, numbers_print, write_value, MAX_VALUE_TEXT};
use runtime::stack::guarded;
use runtime::strings::{write_json_string, JsonText};
use runtime::Value;

/// Writes the natural value of `body` as JSON, exactly as writing the
/// built value would, counted against the same limit. `None`, with
/// nothing written, when the value is not a plain arrangement of the body
/// (see [`Arrangement::of`]): building it then reports the problem or
/// normalizes the names.
pub(crate) fn write_natural_body<T: JsonText>(body: BodyOutcome<'_>, out: &mut T) -> Option<Result<(), Error>> {
    let top = Arrangement::of(body)?;
    if !top.blocks.iter().all(|b| regular(b.body)) {
        return None;
    }
    let mut left = MAX_VALUE_TEXT;
    if top.len_exceeds(&mut left) {
        return Some(Err(Error::Shape(runtime::json::too_long_detail())));
    }
    if T::PASSES_ON {
        if let Some(v) = top.first_unprintable() {
            return Some(Err(super::outcome::unprintable(v)));
        }
    }
    let len = MAX_VALUE_TEXT - left;
    // The text at once (and a little for escapes and a line end).
    out.reserve(len + len / 64 + 16);
    Some(top.write(out))
}

/// Whether the natural value of `body` and of every block in it is a
/// plain arrangement.
fn regular(body: BodyOutcome<'_>) -> bool {
    Arrangement::of(body).is_some_and(|a| a.blocks.iter().all(|b| guarded(|| regular(b.body))))
}

/// One body's members in the order its natural value lists them.
struct Arrangement<'e> {
    body: BodyOutcome<'e>,
    /// The body's attributes (read once, not per member).
    attrs: Attrs<'e>,
    /// By name: attribute `i` as `i`, the blocks of type `g` (in
    /// `groups`) as the number of attributes plus `g`.
    members: Vec<u32>,
    /// The blocks, sorted by type and then labels, stably.
    blocks: Vec<BlockOutcome<'e>>,
    /// Where each type's blocks start in `blocks` (and, last, their end).
    groups: Vec<u32>,
}

impl<'e> Arrangement<'e> {
    /// `None` when building the value would not simply arrange the body:
    /// a name or label is not ASCII (the object would normalize it), two
    /// attributes have one name, an attribute and a block type have one,
    /// or one block's labels begin another's of the same type (the value
    /// cannot nest them, and building it reports that).
    fn of(body: BodyOutcome<'e>) -> Option<Arrangement<'e>> {
        let attrs = body.plan.attrs();
        let n = attrs.len().min(body.outcomes.len());
        let name = |i: u32| attrs.get(i as usize).map_or("", |a| a.name());
        if attrs.clone().take(n).any(|a| !a.name().is_ascii()) {
            return None;
        }
        // A large body is usually in order already: not sorted again.
        let mut order: Vec<u32> = (0..n as u32).collect();
        if !order.windows(2).all(|w| name(w[0]) < name(w[1])) {
            order.sort_unstable_by(|&a, &b| name(a).cmp(name(b)));
            if order.windows(2).any(|w| name(w[0]) == name(w[1])) {
                return None;
            }
        }
        if body.plan.blocks().len() == 0 {
            return Some(Arrangement { body, attrs, members: order, blocks: Vec::new(), groups: Vec::new() });
        }
        let mut blocks: Vec<BlockOutcome<'e>> = body.blocks().collect();
        if blocks.iter().any(|b| !b.block_type().is_ascii() || b.labels().any(|l| !l.is_ascii())) {
            return None;
        }
        blocks.sort_by(|a, b| a.block_type().cmp(b.block_type()).then_with(|| a.labels().cmp(b.labels())));
        let mut groups: Vec<u32> = Vec::new();
        for (i, pair) in blocks.windows(2).enumerate() {
            let (a, b) = (&pair[0], &pair[1]);
            if a.block_type() != b.block_type() {
                groups.push(i as u32 + 1);
            } else if a.info().label_count() < b.info().label_count() && a.labels().zip(b.labels()).all(|(x, y)| x == y) {
                return None;
            }
        }
        groups.insert(0, 0);
        groups.push(blocks.len() as u32);
        // Attributes and types merged by name.
        let mut members = Vec::with_capacity(order.len() + groups.len() - 1);
        let type_name = |g: usize| blocks[groups[g] as usize].block_type();
        let (mut a, mut g) = (0, 0);
        while a < order.len() || g + 1 < groups.len() {
            let take_attr = match (order.get(a), g + 1 < groups.len()) {
                (Some(&i), true) => match name(i).cmp(type_name(g)) {
                    std::cmp::Ordering::Less => true,
                    std::cmp::Ordering::Greater => false,
                    std::cmp::Ordering::Equal => return None,
                },
                (Some(_), false) => true,
                (None, _) => false,
            };
            if take_attr {
                members.push(order[a]);
                a += 1;
            } else {
                members.push((n + g) as u32);
                g += 1;
            }
        }
        Some(Arrangement { body, attrs, members, blocks, groups })
    }

    /// What a member is: an attribute's name and value, or a type's name
    /// and blocks.
    fn member(&self, m: u32) -> Member<'e, '_> {
        let n = self.attrs.len().min(self.body.outcomes.len());
        match m.checked_sub(n as u32) {
            None => {
                let i = m as usize;
                Member::Attribute(self.attrs.get(i).map_or("", |a| a.name()), &self.body.outcomes[i].value)
            }
            Some(g) => {
                let (start, end) = (self.groups[g as usize] as usize, self.groups[g as usize + 1] as usize);
                let blocks = &self.blocks[start..end];
                Member::Blocks(blocks[0].block_type(), blocks)
            }
        }
    }

    /// What `encoded_len_within` counts for the value, taken from `left`:
    /// whether that goes past it.
    fn len_exceeds(&self, left: &mut usize) -> bool {
        for &m in &self.members {
            let exceeded = match self.member(m) {
                Member::Attribute(name, v) => member_len_exceeds(name.len(), v, left),
                Member::Blocks(name, blocks) => len_exceeds(left, name.len() + 4) || level_len_exceeds(blocks, 0, left),
            };
            if exceeded {
                return true;
            }
        }
        len_exceeds(left, 2)
    }

    /// The first value, in writing order, with a number that has no text.
    fn first_unprintable(&self) -> Option<&'e Value> {
        self.members.iter().find_map(|&m| match self.member(m) {
            Member::Attribute(_, v) => (!numbers_print(v)).then_some(v),
            Member::Blocks(_, blocks) => blocks.iter().find_map(|b| guarded(|| Arrangement::of(b.body)?.first_unprintable())),
        })
    }

    fn write<T: JsonText>(&self, out: &mut T) -> Result<(), Error> {
        out.push('{');
        for (k, &m) in self.members.iter().enumerate() {
            if k > 0 {
                out.push(',');
            }
            match self.member(m) {
                Member::Attribute(name, v) => {
                    write_json_string(out, name);
                    out.push(':');
                    write_value(out, v).map_err(|e| Error::Shape(e.to_string()))?;
                }
                Member::Blocks(name, blocks) => {
                    write_json_string(out, name);
                    out.push(':');
                    write_level(blocks, 0, out)?;
                }
            }
        }
        out.push('}');
        Ok(())
    }
}

enum Member<'e, 'a> {
    Attribute(&'e str, &'e Value),
    /// Blocks of one type, sorted by labels.
    Blocks(&'e str, &'a [BlockOutcome<'e>]),
}

/// The runs of `blocks` (sorted by labels, none of whose labels begin
/// another's) that share their label at `depth`: the members of the
/// object at that depth. `None` when the blocks end at `depth`: they are
/// the bodies of a tuple.
fn runs<'b, 'e>(blocks: &'b [BlockOutcome<'e>], depth: usize) -> Option<impl Iterator<Item = (&'e str, &'b [BlockOutcome<'e>])>> {
    let label = move |b: &BlockOutcome<'e>| b.info().label(depth);
    blocks.first().and_then(label)?;
    let mut rest = blocks;
    Some(std::iter::from_fn(move || {
        let first = label(rest.first()?).unwrap_or("");
        let end = rest.iter().position(|b| label(b) != Some(first)).unwrap_or(rest.len());
        let (run, after) = rest.split_at(end);
        rest = after;
        Some((first, run))
    }))
}

/// (Recursion is by label and by nested body: a block may have 100,000
/// labels, so each level may take a new stack segment.)
fn level_len_exceeds(blocks: &[BlockOutcome<'_>], depth: usize, left: &mut usize) -> bool {
    guarded(|| level_len_exceeds_here(blocks, depth, left))
}

fn level_len_exceeds_here(blocks: &[BlockOutcome<'_>], depth: usize, left: &mut usize) -> bool {
    match runs(blocks, depth) {
        Some(mut runs) => {
            runs.any(|(label, run)| len_exceeds(left, label.len() + 4) || level_len_exceeds(run, depth + 1, left)) || len_exceeds(left, 2)
        }
        None => blocks.iter().any(|b| Arrangement::of(b.body).map_or(true, |a| a.len_exceeds(left))) || len_exceeds(left, blocks.len() + 2),
    }
}

fn write_level<T: JsonText>(blocks: &[BlockOutcome<'_>], depth: usize, out: &mut T) -> Result<(), Error> {
    guarded(|| write_level_here(blocks, depth, out))
}

fn write_level_here<T: JsonText>(blocks: &[BlockOutcome<'_>], depth: usize, out: &mut T) -> Result<(), Error> {
    match runs(blocks, depth) {
        Some(runs) => {
            out.push('{');
            for (k, (label, run)) in runs.enumerate() {
                if k > 0 {
                    out.push(',');
                }
                write_json_string(out, label);
                out.push(':');
                write_level(run, depth + 1, out)?;
            }
            out.push('}');
        }
        None => {
            out.push('[');
            for (k, b) in blocks.iter().enumerate() {
                if k > 0 {
                    out.push(',');
                }
                // Checked regular before anything was written.
                let Some(a) = Arrangement::of(b.body) else {
                    return Err(Error::Shape("a block body changed while it was written".into()));
                };
                a.write(out)?;
            }
            out.push(']');
        }
    }
    Ok(())
}
