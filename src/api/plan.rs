//! A compiled body's plan: the static facts of every attribute and block
//! of a file (names, labels, the fixed parts of result lines) beside the
//! attributes' programs, in a few flat lists for the whole file.
//!
//! Flat because a file may have 200,000 blocks: a tree of plans cost a
//! node, a label string and an attribute list of its own per block, about
//! twice what these lists hold. Bodies are listed depth first, each
//! before its blocks, and attributes in the order their programs were
//! compiled (a body's own, then each block's, depth first): so a body's
//! own attributes, and those of its whole subtree, are each one run of the
//! list, and a body's blocks follow it, each followed by its own.

use super::result_format::{write_block_head, write_value_result, ResultWriter};
use runtime::strings::write_json_string;
use runtime::{Diagnostic, Value};
use std::sync::OnceLock;
use vm::Program;

/// The plan of a compiled body, its programs included.
#[derive(Default)]
pub(crate) struct FilePlan {
    /// Every attribute of the file, in program order.
    attrs: Box<[AttrEntry]>,
    /// Each attribute's name as a JSON string (the static part of every
    /// result line, encoded once), then, if JSON escaped any of it, the
    /// name itself; attribute after attribute.
    attr_text: Box<str>,
    /// Parallel to `attrs` once attached ([`FilePlan::attach_programs`]).
    programs: Box<[Program]>,
    /// Every body, depth first: the file's own first.
    bodies: Box<[BodyEntry]>,
    /// Each block's labels one after another, then its result lines'
    /// `{"type":..,"labels":[..],"body":`; block after block.
    text: Box<str>,
    /// Where each label ends in `text`, block after block.
    label_ends: Box<[u32]>,
    /// Block type names, each once.
    types: Box<[Box<str>]>,
}

/// One body of [`FilePlan::bodies`]: where its parts end in the plan's
/// lists. Each starts where the previous body's ends (bodies are added
/// depth first, each body's own attributes before its first block), so
/// only the ends are kept ([`FilePlan::span`]).
#[derive(Clone, Copy, Debug, Default)]
struct BodyEntry {
    /// Into `types` (the file's own body has none).
    block_type: u32,
    /// Its labels' ends in `label_ends`.
    labels_end: u32,
    /// Its part of `text`: labels, then the result-line head.
    text_end: u32,
    /// Its own attributes. (Its subtree's end with those of its last
    /// body, which has no blocks: [`BodyPlan::attribute_count`].)
    own_attrs_end: u32,
    /// Its blocks' bodies (and theirs) end before this index of `bodies`.
    bodies_end: u32,
    /// How many blocks it has (not counting theirs).
    block_count: u32,
}

const _: () = assert!(std::mem::size_of::<BodyEntry>() == 24);

/// One attribute of [`FilePlan::attrs`]: where its text ends (it starts
/// where the previous attribute's ends) and its references. 16 bytes: a
/// body may have a million attributes.
#[derive(Debug)]
struct AttrEntry {
    text_end: u32,
    /// Where the name starts in its text; 0 when the text is the JSON
    /// name alone, the name being that without its quotes (a name that
    /// JSON writes as it is, nearly every one, is not stored twice).
    name_at: u32,
    /// `None` when the expression references no variables.
    references: Option<Box<References>>,
}

const _: () = assert!(std::mem::size_of::<AttrEntry>() == 16);

#[derive(Debug)]
struct References {
    /// `Variables()` of the expression as the JSON array of result lines,
    /// rendered as the reference does.
    json: Box<str>,
    /// The same decoded, when first asked for (result lines need only the
    /// JSON).
    list: OnceLock<Box<[String]>>,
}

/// Where one body's parts start and end in a [`FilePlan`]'s lists.
#[derive(Clone, Copy, Default)]
struct BodySpan {
    entry: BodyEntry,
    labels_at: u32,
    text_start: u32,
    attrs_start: u32,
}

impl FilePlan {
    /// The file's own body.
    pub(crate) fn body(&self) -> BodyPlan<'_> {
        BodyPlan { file: self, at: 0 }
    }

    /// Gives the attributes their programs, in the attributes' order.
    pub(crate) fn attach_programs(&mut self, programs: Vec<Program>) {
        debug_assert_eq!(programs.len(), self.attrs.len(), "a program per attribute");
        self.programs = programs.into_boxed_slice();
    }

    /// Every program, in the attributes' order: a body's own, then each
    /// block's, depth first.
    pub(crate) fn programs(&self) -> &[Program] {
        &self.programs
    }

    /// Attributes of the whole file.
    pub(crate) fn attribute_count(&self) -> usize {
        self.attrs.len()
    }

    /// Label `i` of the block whose body spans `s`: each label starts
    /// where the one before ends; the first, where the block's text starts.
    fn label_in(&self, s: &BodySpan, i: usize) -> Option<&str> {
        let at = (s.labels_at as usize).checked_add(i).filter(|&at| at < s.entry.labels_end as usize)?;
        let start = if i == 0 { s.text_start as usize } else { *self.label_ends.get(at - 1)? as usize };
        self.text.get(start..*self.label_ends.get(at)? as usize)
    }

    /// Body `at`'s entry and where its parts start: where the previous
    /// body's end.
    fn span(&self, at: u32) -> BodySpan {
        let Some(&entry) = self.bodies.get(at as usize) else { return BodySpan::default() };
        match at.checked_sub(1).and_then(|p| self.bodies.get(p as usize)) {
            None => BodySpan { entry, ..BodySpan::default() },
            Some(prev) => BodySpan { entry, labels_at: prev.labels_end, text_start: prev.text_end, attrs_start: prev.own_attrs_end },
        }
    }
}

impl std::fmt::Debug for FilePlan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.body().fmt(f)
    }
}

/// One body of a [`FilePlan`]: the file's own or a block's. Cheap to copy.
#[derive(Clone, Copy)]
pub(crate) struct BodyPlan<'p> {
    file: &'p FilePlan,
    at: u32,
}

impl<'p> BodyPlan<'p> {
    /// Its own attributes, in source order.
    pub(crate) fn attrs(&self) -> Attrs<'p> {
        let s = self.file.span(self.at);
        let end = s.entry.own_attrs_end.min(self.file.attrs.len() as u32);
        let start = s.attrs_start.min(end);
        Attrs { file: self.file, start, next: start, end }
    }

    /// Its own attributes' programs (parallel to [`BodyPlan::attrs`]).
    pub(crate) fn programs(&self) -> &'p [Program] {
        let s = self.file.span(self.at);
        self.file.programs.get(s.attrs_start as usize..s.entry.own_attrs_end as usize).unwrap_or_default()
    }

    /// Attributes in this body and its blocks, at any depth: up to the
    /// end of the own attributes of the last body of its subtree.
    pub(crate) fn attribute_count(&self) -> usize {
        let s = self.file.span(self.at);
        let last = s.entry.bodies_end.saturating_sub(1).max(self.at);
        let end = self.file.bodies.get(last as usize).map_or(s.attrs_start, |e| e.own_attrs_end);
        end.saturating_sub(s.attrs_start) as usize
    }

    /// The facts of the block this is the body of (for the file's own
    /// body, which has none, no labels and the first type's name: callers
    /// ask only blocks' bodies).
    pub(crate) fn block_info(&self) -> BlockInfo<'p> {
        BlockInfo { file: self.file, at: self.at }
    }

    /// Its blocks in source order, each as its facts and its body.
    pub(crate) fn blocks(&self) -> Blocks<'p> {
        let e = self.file.span(self.at).entry;
        Blocks { file: self.file, next: self.at + 1, left: e.block_count }
    }
}

impl std::fmt::Debug for BodyPlan<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BodyPlan")
            .field("attrs", &self.attrs().map(|info| info.name()).collect::<Vec<_>>())
            .field("blocks", &self.blocks().collect::<Vec<_>>())
            .finish()
    }
}

/// [`BodyPlan::attrs`]: a run of the file's attributes.
#[derive(Clone)]
pub(crate) struct Attrs<'p> {
    file: &'p FilePlan,
    start: u32,
    /// The next to iterate.
    next: u32,
    end: u32,
}

impl<'p> Attrs<'p> {
    /// The `i`th of the run (however far it has been iterated).
    pub(crate) fn get(&self, i: usize) -> Option<AttrInfo<'p>> {
        let at = u32::try_from(i).ok()?.checked_add(self.start)?;
        (at < self.end).then_some(AttrInfo { file: self.file, at })
    }
}

impl<'p> Iterator for Attrs<'p> {
    type Item = AttrInfo<'p>;

    fn next(&mut self) -> Option<AttrInfo<'p>> {
        if self.next >= self.end {
            return None;
        }
        let info = AttrInfo { file: self.file, at: self.next };
        self.next += 1;
        Some(info)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.end.saturating_sub(self.next) as usize;
        (left, Some(left))
    }
}

impl ExactSizeIterator for Attrs<'_> {}

/// Static facts about one attribute, shared by all its outcomes: its name
/// and references. Cheap to copy.
#[derive(Clone, Copy)]
pub(crate) struct AttrInfo<'p> {
    file: &'p FilePlan,
    at: u32,
}

impl<'p> AttrInfo<'p> {
    fn entry(&self) -> Option<&'p AttrEntry> {
        self.file.attrs.get(self.at as usize)
    }

    /// Its JSON name and name.
    fn text(&self) -> &'p str {
        let start = match self.at.checked_sub(1).and_then(|p| self.file.attrs.get(p as usize)) {
            Some(prev) => prev.text_end as usize,
            None => 0,
        };
        let end = self.entry().map_or(start, |e| e.text_end as usize);
        self.file.attr_text.get(start..end).unwrap_or("")
    }

    pub(crate) fn name(&self) -> &'p str {
        let text = self.text();
        match self.entry().map_or(0, |e| e.name_at as usize) {
            0 => text.get(1..text.len().saturating_sub(1)).unwrap_or(""),
            name_at => text.get(name_at..).unwrap_or(""),
        }
    }

    fn json_name(&self) -> &'p str {
        let text = self.text();
        match self.entry().map_or(0, |e| e.name_at as usize) {
            0 => text,
            name_at => text.get(..name_at).unwrap_or(""),
        }
    }

    /// The rendered references, in order.
    pub(crate) fn references(&self) -> &'p [String] {
        match self.entry().and_then(|e| e.references.as_deref()) {
            None => &[],
            Some(r) => r.list.get_or_init(|| serde_json::from_str::<Vec<String>>(&r.json).unwrap_or_default().into()),
        }
    }

    /// `NAME:{RESULT,"vars":[..]}`: this attribute's member of a body
    /// result line.
    pub(crate) fn write_result(&self, w: &mut ResultWriter<'_>, value: &Value, diagnostics: &[Diagnostic]) {
        w.raw(self.json_name());
        w.raw(":{");
        write_value_result(w, value, diagnostics, None);
        w.raw(",\"vars\":");
        w.raw(self.entry().and_then(|e| e.references.as_deref()).map_or("[]", |r| &r.json));
        w.raw("}");
    }
}

impl std::fmt::Debug for AttrInfo<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AttrInfo").field("name", &self.name()).field("references", &self.references()).finish()
    }
}

/// [`BodyPlan::blocks`].
#[derive(Clone)]
pub(crate) struct Blocks<'p> {
    file: &'p FilePlan,
    next: u32,
    /// Blocks not yet given.
    left: u32,
}

impl<'p> Iterator for Blocks<'p> {
    type Item = (BlockInfo<'p>, BodyPlan<'p>);

    fn next(&mut self) -> Option<Self::Item> {
        if self.left == 0 {
            return None;
        }
        let at = self.next;
        let body = BodyPlan { file: self.file, at };
        // Past the block's own blocks.
        self.next = self.file.span(at).entry.bodies_end.max(at + 1);
        self.left -= 1;
        Some((body.block_info(), body))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left as usize, Some(self.left as usize))
    }
}

impl ExactSizeIterator for Blocks<'_> {}

/// Static facts about one block: its type and labels. Cheap to copy.
#[derive(Clone, Copy)]
pub(crate) struct BlockInfo<'p> {
    file: &'p FilePlan,
    at: u32,
}

impl<'p> BlockInfo<'p> {
    pub(crate) fn block_type(&self) -> &'p str {
        self.file.types.get(self.file.span(self.at).entry.block_type as usize).map_or("", |t| t)
    }

    /// The labels, in order.
    pub(crate) fn labels(&self) -> impl ExactSizeIterator<Item = &'p str> + Clone {
        // (The block's span found once.)
        let (file, s) = (self.file, self.file.span(self.at));
        (0..s.entry.labels_end.saturating_sub(s.labels_at) as usize).map(move |i| file.label_in(&s, i).unwrap_or(""))
    }

    pub(crate) fn label(&self, i: usize) -> Option<&'p str> {
        self.file.label_in(&self.file.span(self.at), i)
    }

    pub(crate) fn label_count(&self) -> usize {
        let s = self.file.span(self.at);
        s.entry.labels_end.saturating_sub(s.labels_at) as usize
    }

    /// `{"type":..,"labels":[..],"body":` of this block in a result line.
    pub(crate) fn json_head(&self) -> &'p str {
        let s = self.file.span(self.at);
        // The head follows the block's last label, if it has one.
        let start = match s.entry.labels_end.checked_sub(1) {
            Some(last) if last >= s.labels_at => self.file.label_ends.get(last as usize).map_or(0, |&end| end as usize),
            _ => s.text_start as usize,
        };
        self.file.text.get(start..s.entry.text_end as usize).unwrap_or("")
    }
}

impl std::fmt::Debug for BlockInfo<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BlockInfo").field("type", &self.block_type()).field("labels", &self.labels().collect::<Vec<_>>()).finish()
    }
}

/// The plan's text grew past what its `u32` offsets reach.
#[derive(Debug)]
pub(crate) struct PlanTooLarge;

/// Builds a [`FilePlan`] body by body, depth first: [`PlanBuilder::open`]
/// a body, add its own attributes, then its blocks (each opened and
/// closed in turn), then [`PlanBuilder::close`] it.
#[derive(Default)]
pub(crate) struct PlanBuilder {
    attrs: Vec<AttrEntry>,
    attr_text: String,
    bodies: Vec<BodyEntry>,
    text: String,
    label_ends: Vec<u32>,
    types: Vec<Box<str>>,
}

impl PlanBuilder {
    pub(crate) fn with_capacity(attrs: usize, bodies: usize) -> PlanBuilder {
        PlanBuilder { attrs: Vec::with_capacity(attrs), bodies: Vec::with_capacity(bodies), ..PlanBuilder::default() }
    }

    /// A block type name's index, for [`PlanBuilder::open`]: each name is
    /// to be added once.
    pub(crate) fn add_type(&mut self, name: &str) -> u32 {
        self.types.push(name.into());
        (self.types.len() - 1) as u32
    }

    /// Starts a body of `own_attrs` attributes (to be added next) and
    /// `blocks` blocks: the file's own (`block` `None`, first of all), or
    /// that of a block of `block_type` (from [`PlanBuilder::add_type`])
    /// with `labels`. Returns its index.
    pub(crate) fn open(&mut self, block: Option<(u32, &[&str])>, own_attrs: usize, blocks: usize) -> Result<u32, PlanTooLarge> {
        let offset = |n: usize| u32::try_from(n).map_err(|_| PlanTooLarge);
        let block_type = match block {
            None => 0,
            Some((block_type, labels)) => {
                let name = self.types.get(block_type as usize).map_or("", |t| t);
                let raw: usize = labels.iter().map(|l| l.len()).sum();
                // Escapes aside, the labels then the head, reserved at once.
                self.text.reserve(2 * raw + 33 + name.len() + 3 * labels.len());
                for l in labels {
                    self.text.push_str(l);
                    self.label_ends.push(offset(self.text.len())?);
                }
                write_block_head(&mut self.text, name, labels);
                block_type
            }
        };
        let text_end = offset(self.text.len())?;
        let labels_end = offset(self.label_ends.len())?;
        let own_attrs_end = offset(self.attrs.len() + own_attrs)?;
        let at = offset(self.bodies.len())?;
        let block_count = offset(blocks)?;
        self.bodies.push(BodyEntry { block_type, labels_end, text_end, own_attrs_end, bodies_end: at + 1, block_count });
        Ok(at)
    }

    /// Adds an attribute of the body opened last: its name, and its
    /// expression's references as the JSON array of result lines
    /// (`None` for none).
    pub(crate) fn attr(&mut self, name: &str, json_references: Option<Box<str>>) -> Result<(), PlanTooLarge> {
        let start = self.attr_text.len();
        write_json_string(&mut self.attr_text, name);
        let json_len = self.attr_text.len() - start;
        let name_at = if json_len == name.len() + 2 {
            // Nothing escaped: the name is inside the quotes.
            0
        } else {
            self.attr_text.push_str(name);
            u32::try_from(json_len).map_err(|_| PlanTooLarge)?
        };
        let text_end = u32::try_from(self.attr_text.len()).map_err(|_| PlanTooLarge)?;
        let references = json_references.map(|json| Box::new(References { json, list: OnceLock::new() }));
        self.attrs.push(AttrEntry { text_end, name_at, references });
        Ok(())
    }

    /// Body `at` and its blocks are all added.
    pub(crate) fn close(&mut self, at: u32) {
        let bodies_end = self.bodies.len() as u32;
        if let Some(e) = self.bodies.get_mut(at as usize) {
            e.bodies_end = bodies_end;
        }
    }

    pub(crate) fn finish(self) -> FilePlan {
        FilePlan {
            attrs: self.attrs.into_boxed_slice(),
            attr_text: self.attr_text.into_boxed_str(),
            programs: Box::default(),
            bodies: self.bodies.into_boxed_slice(),
            text: self.text.into_boxed_str(),
            label_ends: self.label_ends.into_boxed_slice(),
            types: self.types.into_boxed_slice(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line per body, as the plan reads it back: its attributes and
    /// their count at any depth, then each block's type, labels and
    /// result head, its body indented.
    fn shape(body: BodyPlan<'_>, indent: &str, out: &mut String) {
        let attrs: Vec<String> = body
            .attrs()
            .map(|a| match a.references() {
                [] => a.name().to_string(),
                refs => format!("{} <- {}", a.name(), refs.join(" ")),
            })
            .collect();
        let mut list = body.attrs();
        assert!(list.next().is_none() || list.get(0).map(|a| a.name()) == body.attrs().next().map(|a| a.name()));
        let json_names: String = body.attrs().map(|a| a.json_name()).collect();
        assert_eq!(json_names, body.attrs().map(|a| format!("{:?}", a.name())).collect::<String>());
        out.push_str(&format!("{indent}{attrs:?} of {}\n", body.attribute_count()));
        for (info, inner) in body.blocks() {
            let labels: Vec<&str> = info.labels().collect();
            assert_eq!(info.label_count(), labels.len());
            assert_eq!(info.label(labels.len()), None);
            out.push_str(&format!("{indent}{} {labels:?} {}\n", info.block_type(), info.json_head()));
            shape(inner, &format!("{indent}  "), out);
        }
    }

    /// Bodies nested and side by side, with and without attributes and
    /// labels: each reads back its own parts, though the plan keeps only
    /// where they end.
    #[test]
    fn bodies_read_back_their_parts() {
        let mut b = PlanBuilder::default();
        let (rule, tag) = (b.add_type("rule"), b.add_type("tag"));
        let attr = |b: &mut PlanBuilder, name: &str| b.attr(name, None).unwrap();
        let top = b.open(None, 2, 2).unwrap();
        attr(&mut b, "x");
        attr(&mut b, "y");
        // rule "a" { p = 1  tag { }  tag "t" "u\"" { q = 1 } }
        let a = b.open(Some((rule, &["a"])), 1, 2).unwrap();
        attr(&mut b, "p");
        let t1 = b.open(Some((tag, &[])), 0, 0).unwrap();
        b.close(t1);
        let t2 = b.open(Some((tag, &["t", "u\""])), 1, 0).unwrap();
        b.attr("q", Some(r#"["var.x","y[\"k\"]"]"#.into())).unwrap();
        b.close(t2);
        b.close(a);
        // rule "" { r = 1  "s\"" = 1 } (a name JSON escapes is kept
        // beside its JSON form)
        let e = b.open(Some((rule, &[""])), 2, 0).unwrap();
        attr(&mut b, "r");
        attr(&mut b, "s\"");
        b.close(e);
        b.close(top);
        let plan = b.finish();
        assert_eq!(plan.attribute_count(), 6);
        let mut out = String::new();
        shape(plan.body(), "", &mut out);
        let expected = r#"["x", "y"] of 6
rule ["a"] {"type":"rule","labels":["a"],"body":
  ["p"] of 2
  tag [] {"type":"tag","labels":[],"body":
    [] of 0
  tag ["t", "u\""] {"type":"tag","labels":["t","u\""],"body":
    ["q <- var.x y[\"k\"]"] of 1
rule [""] {"type":"rule","labels":[""],"body":
  ["r", "s\""] of 2
"#;
        assert_eq!(out, expected);
    }
}
