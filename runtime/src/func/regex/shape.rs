//! The two limits Go's regexp parser puts on the shape of the tree a
//! pattern parses to, followed while `syntax.rs` translates the pattern
//! (it writes text, it builds no tree):
//!
//! - a counted repetition of 2 or more (`x{2}`, `x{2,5}`, `x{3,}`) may not
//!   multiply, with the counted repetitions inside it, to more than 1,000
//!   copies of anything (Go's `repeatIsValid`: `(a{500}){3}` is refused,
//!   "invalid repeat count" naming the outer count);
//! - the tree may be at most 1,000 levels high (Go's `checkHeight`:
//!   "expression nests too deeply", naming the whole pattern).
//!
//! The height is that of Go's tree: a capture, a repetition, a
//! concatenation of two or more pieces and an alternation of two or more
//! branches each add a level; a non-capturing group adds none, and
//! consecutive literal characters are one piece. (Go also factors common
//! prefixes out of alternations, which this does not follow: it can move a
//! pattern 1,000 levels deep by a level or two.)

/// Go's limit on the copies a nest of counted repetitions makes.
const MAX_COPIES: u64 = 1000;
/// Go's limit on the height of the tree.
pub(super) const MAX_HEIGHT: u32 = 1000;

/// One piece of a concatenation: its height, and the most copies a path
/// of counted repetitions through it makes (0 once one counts `{0}`,
/// which Go stops at).
#[derive(Clone, Copy)]
struct Piece {
    height: u32,
    copies: u64,
    /// Characters of an unrepeated literal run (0: not a literal).
    literal: u32,
    /// A class of characters (`[a-z]`, `.`, `\d`): an alternation of
    /// classes and single characters only is one class to Go.
    class: bool,
}

const ATOM: Piece = Piece { height: 1, copies: 1, literal: 0, class: false };

/// An open group (the whole pattern is the outermost).
#[derive(Default)]
struct Group {
    capture: bool,
    /// Branches finished (before each `|`): how many, their greatest
    /// height and copies.
    branches: u32,
    branches_height: u32,
    branches_copies: u64,
    /// The pieces of the branch being read, before the last: how many,
    /// their greatest height and copies.
    pieces: u32,
    pieces_height: u32,
    pieces_copies: u64,
    /// The last piece, which a repetition would take.
    last: Option<Piece>,
    /// The finished branches are one literal run and nothing else.
    only_literal: bool,
    /// Some finished branch is more than a class or a single character
    /// (Go makes one class of the others), or is not empty.
    not_all_classes: bool,
    not_all_empty: bool,
}

impl Group {
    fn settle_last(&mut self) {
        if let Some(p) = self.last.take() {
            self.pieces += 1;
            self.pieces_height = self.pieces_height.max(p.height);
            self.pieces_copies = self.pieces_copies.max(p.copies);
        }
    }

    fn end_branch(&mut self) {
        let alone = if self.pieces == 0 { self.last } else { None };
        let literal = alone.is_some_and(|p| p.literal > 0);
        self.not_all_classes |= !alone.is_some_and(|p| p.class || p.literal == 1);
        self.not_all_empty |= self.pieces > 0 || self.last.is_some();
        self.settle_last();
        let (height, copies) = match self.pieces {
            // An empty branch is Go's empty-match leaf.
            0 => (1, 1),
            1 => (self.pieces_height, self.pieces_copies),
            _ => (1 + self.pieces_height, self.pieces_copies),
        };
        self.only_literal = self.branches == 0 && literal;
        self.branches += 1;
        self.branches_height = self.branches_height.max(height);
        self.branches_copies = self.branches_copies.max(copies);
        self.pieces = 0;
        self.pieces_height = 0;
        self.pieces_copies = 0;
    }

    /// Ends the group: its height and copies.
    fn finish(mut self) -> Piece {
        self.end_branch();
        // Go collapses an alternation of classes and single characters
        // into one class, and one of empty branches into one.
        let alternation = u32::from(self.branches >= 2 && self.not_all_classes && self.not_all_empty);
        let literal = u32::from(self.only_literal && self.branches == 1 && !self.capture);
        Piece { height: self.branches_height + alternation + u32::from(self.capture), copies: self.branches_copies, literal, class: false }
    }
}

/// Why a pattern's shape is refused.
#[derive(Debug, PartialEq)]
pub(super) enum ShapeError {
    /// Go's "invalid repeat count" (of the repetition just read).
    TooManyCopies,
    /// Go's "expression nests too deeply".
    TooDeep,
}

/// The shape of the tree read so far.
pub(super) struct TreeShape {
    /// Open groups, innermost last; the first is the whole pattern.
    groups: Vec<Group>,
}

impl TreeShape {
    pub(super) fn new() -> TreeShape {
        TreeShape { groups: vec![Group::default()] }
    }

    fn top(&mut self) -> &mut Group {
        if self.groups.is_empty() {
            self.groups.push(Group::default());
        }
        let last = self.groups.len() - 1;
        &mut self.groups[last]
    }

    /// A literal character (Go merges consecutive ones into one piece).
    pub(super) fn literal(&mut self) {
        let g = self.top();
        match &mut g.last {
            Some(p) if p.literal > 0 => p.literal += 1,
            _ => {
                g.settle_last();
                g.last = Some(Piece { literal: 1, ..ATOM });
            }
        }
    }

    /// Any other single piece: a class of characters (`class`), or an
    /// anchor.
    pub(super) fn atom(&mut self, class: bool) {
        let g = self.top();
        g.settle_last();
        g.last = Some(Piece { class, ..ATOM });
    }

    /// A group opens. (The piece before it stays the last: a group that
    /// is a literal run joins it when it closes.)
    pub(super) fn open(&mut self, capture: bool) {
        self.groups.push(Group { capture, ..Group::default() });
    }

    pub(super) fn bar(&mut self) {
        self.top().end_branch();
    }

    /// The group read ends; refused when it makes the tree too high.
    pub(super) fn close(&mut self) -> Result<(), ShapeError> {
        let group = self.groups.pop().unwrap_or_default().finish();
        check_height(group.height)?;
        let g = self.top();
        match (&mut g.last, group.literal) {
            // `x(?:yz)` is one literal run, as `xyz`.
            (Some(p), 1) if p.literal > 0 => p.literal += 1,
            _ => {
                g.settle_last();
                g.last = Some(group);
            }
        }
        Ok(())
    }

    /// A repetition of the last piece: `count` is Go's count of a counted
    /// repetition (its maximum, or its minimum when it has none; `None`
    /// for `*`, `+` and `?`, which Go does not count), `checked` whether
    /// Go checks its copies (a count of 2 or more).
    pub(super) fn repeat(&mut self, count: Option<u64>, max_is_zero: bool, checked: bool) -> Result<(), ShapeError> {
        let g = self.top();
        let mut sub = g.last.take().unwrap_or(ATOM);
        if sub.literal >= 2 {
            // `abc*` repeats the `c` alone: `ab` stays a piece of its own.
            g.pieces += 1;
            g.pieces_height = g.pieces_height.max(1);
            g.pieces_copies = g.pieces_copies.max(1);
            sub = ATOM;
        }
        // Go checks the new node's height first, then its copies.
        let height = sub.height + 1;
        check_height(height)?;
        let copies = if max_is_zero { 0 } else { count.unwrap_or(1).max(1).saturating_mul(sub.copies) };
        if checked && copies > MAX_COPIES {
            return Err(ShapeError::TooManyCopies);
        }
        g.last = Some(Piece { height, copies, ..ATOM });
        Ok(())
    }

    /// The pattern ends; refused when its tree is too high.
    pub(super) fn finish(mut self) -> Result<(), ShapeError> {
        // Go collapses what the innermost open group holds (all of the
        // pattern when every group is closed) and checks it, before it
        // finds a group left open.
        let mut innermost = self.groups.pop().unwrap_or_default();
        innermost.capture = false;
        check_height(innermost.finish().height)
    }
}

fn check_height(height: u32) -> Result<(), ShapeError> {
    if height > MAX_HEIGHT {
        Err(ShapeError::TooDeep)
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{ShapeError, TreeShape};

    /// Reads a pattern of literals, `.`, groups, `|`, `*` and `{n}` /
    /// `{n,}` / `{n,m}` counts into a shape.
    fn shape(p: &str) -> Result<(), ShapeError> {
        let mut s = TreeShape::new();
        let b = p.as_bytes();
        let mut i = 0;
        while i < b.len() {
            match b[i] {
                b'(' if p[i..].starts_with("(?:") => {
                    s.open(false);
                    i += 2;
                }
                b'(' => s.open(true),
                b')' => s.close()?,
                b'|' => s.bar(),
                b'.' => s.atom(true),
                b'^' => s.atom(false),
                b'*' => s.repeat(None, false, false)?,
                b'{' => {
                    let end = p[i..].find('}').unwrap() + i;
                    let body = &p[i + 1..end];
                    let (lo, hi) = match body.split_once(',') {
                        None => (body.parse::<u64>().unwrap(), Some(body.parse::<u64>().unwrap())),
                        Some((lo, "")) => (lo.parse().unwrap(), None),
                        Some((lo, hi)) => (lo.parse().unwrap(), Some(hi.parse().unwrap())),
                    };
                    s.repeat(Some(hi.unwrap_or(lo)), hi == Some(0), lo >= 2 || hi.is_some_and(|h| h >= 2))?;
                    i = end;
                }
                _ => s.literal(),
            }
            i += 1;
        }
        s.finish()
    }

    #[test]
    fn nested_counts_multiply_to_at_most_a_thousand() {
        use ShapeError::TooManyCopies as Refused;
        let rows: &[(&str, Result<(), ShapeError>)] = &[
            ("(a{500}){3}", Err(Refused)),
            ("(a{500}){2}", Ok(())),
            ("((((((((((x{2}){2}){2}){2}){2}){2}){2}){2}){2}){2})", Err(Refused)),
            ("(((((((((x{2}){2}){2}){2}){2}){2}){2}){2}){2})", Ok(())),
            ("(((x{7}){11}){13})", Err(Refused)),
            ("(((x{7}){11}){12})", Ok(())),
            ("(a{2}|b{600}){2}", Err(Refused)),
            // `{0}` stops the count; `{0,}` passes it through.
            ("((b{600}){0}){2}", Ok(())),
            ("((a{600}){0,}){2}", Err(Refused)),
            ("((a{600}){1,}){2}", Err(Refused)),
            // Counts of 1 or less are not checked, but count.
            ("(a{1000}){1}", Ok(())),
            ("(a{1000}){0,1}", Ok(())),
            ("(a{1000}){1,2}", Err(Refused)),
            // `*` is not counted: the count inside goes through it.
            ("((?:a{600})*){2}", Err(Refused)),
            ("((){600}){2}", Err(Refused)),
            ("(?:ab{600}){2}", Err(Refused)),
            ("(?:a{2}b{500}){2}", Ok(())),
        ];
        for (p, want) in rows {
            assert_eq!(&shape(p), want, "{p}");
        }
    }

    #[test]
    fn the_tree_is_at_most_a_thousand_high() {
        let nest = |n: usize, open: &str, close: &str, inner: &str| format!("{}{inner}{}", open.repeat(n), close.repeat(n));
        assert_eq!(shape(&nest(999, "(", ")", "a")), Ok(()));
        assert_eq!(shape(&nest(1000, "(", ")", "a")), Err(ShapeError::TooDeep));
        assert_eq!(shape(&nest(999, "(", ")", "")), Ok(()));
        // Non-capturing groups add no level; repetitions do.
        assert_eq!(shape(&nest(3000, "(?:", ")", "a")), Ok(()));
        assert_eq!(shape(&nest(999, "(?:", ")*", "")), Ok(()));
        assert_eq!(shape(&nest(1000, "(?:", ")*", "")), Err(ShapeError::TooDeep));
        // A concatenation adds a level, a literal run does not.
        assert_eq!(shape(&nest(999, "(", ")", "ab")), Ok(()));
        assert_eq!(shape(&nest(999, "(", ")", "a.")), Err(ShapeError::TooDeep));
        assert_eq!(shape(&nest(998, "(", ")", "a*")), Ok(()));
        assert_eq!(shape(&nest(998, "(", ")", "ab*")), Err(ShapeError::TooDeep));
        assert_eq!(shape(&format!("{}x", nest(999, "(", ")", "a"))), Err(ShapeError::TooDeep));
        assert_eq!(shape(&nest(999, "(", ")", "x(?:ab)")), Ok(()));
        // Alternatives that are all single characters are one class.
        assert_eq!(shape(&nest(999, "(", ")", "a|b|.")), Ok(()));
        assert_eq!(shape(&nest(999, "(", ")", "a|b|^")), Err(ShapeError::TooDeep));
        assert_eq!(shape(&nest(999, "(", ")", "a|bc")), Err(ShapeError::TooDeep));
        assert_eq!(shape(&nest(999, "(", ")", "|")), Ok(()));
    }
}
