//! What an evaluation produces: values with their diagnostics, attribute by
//! attribute for a body.

use super::compiled::Compiled;
use super::de::from_value;
use super::error::{render_with, write_with, Diagnostics, Error};
use super::plan::{AttrInfo, BlockInfo, BodyPlan};
use super::result_format::{self, write_value_result, ResultWriter};
use indexmap::IndexMap;
use runtime::strings::JsonText;
use runtime::{Diagnostic, Value};
use serde::de::DeserializeOwned;

/// The value of one expression or template, or of one attribute, with the
/// diagnostics its evaluation reported. With errors the value is an unknown
/// of dynamic type, as in hcl.
///
/// ```
/// let e = hclvm::Compiled::expression("n / 2", &hclvm::Options::new())?;
/// let good = e.evaluate(&hclvm::Variables::new().with("n", hclvm::Value::int(5)));
/// let good = good.outcome().unwrap();
/// assert_eq!(good.value().unwrap().as_number().unwrap().to_text().unwrap(), "2.5");
///
/// let bad = e.evaluate(&hclvm::Variables::new().with("n", "five"));
/// let bad = bad.outcome().unwrap();
/// assert!(bad.has_errors() && bad.value().is_none());
/// assert!(!bad.value_unchecked().is_known());
/// assert_eq!(bad.diagnostics()[0].summary, "Invalid operand");
/// # Ok::<(), hclvm::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Outcome {
    pub(crate) value: Value,
    pub(crate) diagnostics: OutcomeDiagnostics,
}

const _: () = assert!(std::mem::size_of::<Outcome>() == 32);

/// The diagnostics of an [`Outcome`]: most outcomes have none, and then
/// this is one null pointer (a body may have a million outcomes).
#[derive(Clone, Debug, Default)]
pub(crate) struct OutcomeDiagnostics(Option<Box<DiagnosticList>>);

#[derive(Clone, Debug)]
struct DiagnosticList(Vec<Diagnostic>);

impl From<Vec<Diagnostic>> for OutcomeDiagnostics {
    fn from(list: Vec<Diagnostic>) -> OutcomeDiagnostics {
        OutcomeDiagnostics((!list.is_empty()).then(|| Box::new(DiagnosticList(list))))
    }
}

impl std::ops::Deref for OutcomeDiagnostics {
    type Target = [Diagnostic];

    fn deref(&self) -> &[Diagnostic] {
        self.0.as_ref().map_or(&[], |list| &list.0)
    }
}

impl Outcome {
    /// The value, unless the evaluation reported errors.
    pub fn value(&self) -> Option<&Value> {
        if self.has_errors() {
            None
        } else {
            Some(&self.value)
        }
    }

    /// The value even when there were errors (then an unknown).
    pub fn value_unchecked(&self) -> &Value {
        &self.value
    }

    /// Errors and warnings, in the order reported.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// Whether any diagnostic is an error (the others are warnings).
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// One attribute of an evaluated body.
///
/// ```
/// let config = hclvm::Compiled::body("greeting = \"hi ${user.name}\"\n", &hclvm::Options::new())?;
/// let out = config.evaluate_json(&serde_json::json!({"user": {"name": "ann"}}))?;
/// let attr = out.body().unwrap().attributes().next().unwrap();
/// assert_eq!(attr.name(), "greeting");
/// assert_eq!(attr.references(), ["user.name"]);
/// assert_eq!(attr.outcome().value().and_then(|v| v.as_str()), Some("hi ann"));
/// # Ok::<(), hclvm::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct AttributeOutcome<'e> {
    pub(crate) info: AttrInfo<'e>,
    pub(crate) outcome: &'e Outcome,
}

impl<'e> AttributeOutcome<'e> {
    /// The attribute's name.
    pub fn name(&self) -> &'e str {
        self.info.name()
    }

    /// Its value and diagnostics.
    pub fn outcome(&self) -> &'e Outcome {
        self.outcome
    }

    /// The variable references of its expression (hcl's `Variables()`),
    /// rendered like `request.user["name"]`.
    pub fn references(&self) -> &'e [String] {
        self.info.references()
    }
}

/// One nested block of an evaluated body.
///
/// ```
/// let config = hclvm::Compiled::body("resource \"bucket\" \"logs\" {\n  size = 10\n}\n", &hclvm::Options::new())?;
/// let out = config.evaluate(&hclvm::Variables::new());
/// let block = out.body().unwrap().blocks().next().unwrap();
/// assert_eq!(block.block_type(), "resource");
/// assert_eq!(block.labels().collect::<Vec<_>>(), ["bucket", "logs"]);
/// assert!(block.body().attribute("size").is_some());
/// # Ok::<(), hclvm::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct BlockOutcome<'e> {
    pub(crate) body: BodyOutcome<'e>,
}

impl<'e> BlockOutcome<'e> {
    /// The block's type and labels (its body's plan knows them).
    pub(crate) fn info(&self) -> BlockInfo<'e> {
        self.body.plan.block_info()
    }

    /// The block type (`resource` in `resource "a" "b" {}`).
    pub fn block_type(&self) -> &'e str {
        self.info().block_type()
    }

    /// The labels, in order.
    pub fn labels(&self) -> impl ExactSizeIterator<Item = &'e str> {
        self.info().labels()
    }

    /// The block's evaluated body.
    pub fn body(&self) -> BodyOutcome<'e> {
        self.body
    }
}

/// An evaluated body: every attribute in source order, then every nested
/// block in source order (hcl evaluates them the same way, one attribute
/// at a time: an error in one does not stop the others). A view into an
/// [`Evaluation`]: cheap to copy.
///
/// ```
/// let src = "name = \"svc\"\nport \"http\" { number = 80 }\nport \"admin\" { number = base + 1 }\n";
/// let config = hclvm::Compiled::body(src, &hclvm::Options::new())?;
/// let out = config.evaluate(&hclvm::Variables::new());
/// let body = out.body().unwrap();
/// assert_eq!(body.attribute("name").and_then(|o| o.value()).and_then(|v| v.as_str()), Some("svc"));
/// assert_eq!(body.blocks_of_type("port").count(), 2);
/// // `base` is not set: that attribute fails, the others do not.
/// assert!(body.has_errors());
/// assert_eq!(body.diagnostics().count(), 1);
/// assert!(body.blocks().next().unwrap().body().attribute("number").unwrap().value().is_some());
/// # Ok::<(), hclvm::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct BodyOutcome<'e> {
    pub(crate) plan: BodyPlan<'e>,
    /// The outcomes of every attribute of the body and its blocks, in the
    /// plan's order: the body's own attributes, then each block's.
    pub(crate) outcomes: &'e [Outcome],
}

impl<'e> BodyOutcome<'e> {
    /// The attributes in source order.
    pub fn attributes(&self) -> impl ExactSizeIterator<Item = AttributeOutcome<'e>> + 'e {
        self.plan.attrs().zip(self.outcomes).map(|(info, outcome)| AttributeOutcome { info, outcome })
    }

    /// The attribute called `name`.
    pub fn attribute(&self, name: &str) -> Option<&'e Outcome> {
        self.attributes().find(|a| a.name() == name).map(|a| a.outcome)
    }

    /// The nested blocks in source order.
    pub fn blocks(&self) -> impl ExactSizeIterator<Item = BlockOutcome<'e>> + 'e {
        let mut at = self.plan.attrs().len();
        let outcomes = self.outcomes;
        self.plan.blocks().map(move |(_, plan)| {
            let end = (at + plan.attribute_count()).min(outcomes.len());
            let body = BodyOutcome { plan, outcomes: outcomes.get(at..end).unwrap_or_default() };
            at = end;
            BlockOutcome { body }
        })
    }

    /// The nested blocks of one type, in source order.
    pub fn blocks_of_type(&self, block_type: &'e str) -> impl Iterator<Item = BlockOutcome<'e>> + 'e {
        self.blocks().filter(move |b| b.block_type() == block_type)
    }

    /// Whether any attribute, at any depth, has an error.
    pub fn has_errors(&self) -> bool {
        self.outcomes.iter().any(Outcome::has_errors)
    }

    /// Every diagnostic, attributes before blocks, depth first.
    pub fn diagnostics(&self) -> impl Iterator<Item = &'e Diagnostic> + 'e {
        self.outcomes.iter().flat_map(|o| o.diagnostics.iter())
    }

    /// The body as one value, in the shape of Terraform's JSON syntax:
    /// an object whose members are the attributes and, per block type,
    /// the blocks nested one object level per label, ending in a tuple of
    /// the block bodies in source order. `rule "a" { x = 1 }` becomes
    /// `{"rule": {"a": [{"x": 1}]}}`; an unlabelled `tags { }` becomes
    /// `{"tags": [{}]}`. Attributes with errors are unknown.
    ///
    /// Fails when the shape is ambiguous: an attribute and a block type of
    /// the same name, or blocks of one type with different label counts.
    ///
    /// ```
    /// let config = hclvm::Compiled::body("rule \"a\" { x = 1 }\ntags {}\n", &hclvm::Options::new())?;
    /// let out = config.evaluate(&hclvm::Variables::new());
    /// let value = out.body().unwrap().to_value()?;
    /// assert_eq!(value.get_attr("rule").and_then(|r| r.get_attr("a")).and_then(|a| a.length()), Some(1));
    /// assert_eq!(value.get_attr("tags").and_then(|t| t.length()), Some(1));
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn to_value(&self) -> Result<Value, Error> {
        natural_value(*self)
    }

    /// `BODY` of a result line.
    fn write_result(&self, w: &mut ResultWriter<'_>) {
        result_format::write_body(
            w,
            &mut (),
            self.attributes(),
            self.blocks(),
            |_, w, a| a.info.write_result(w, &a.outcome.value, &a.outcome.diagnostics),
            |_, w, b| {
                w.raw(b.info().json_head());
                b.body.write_result(w);
                w.raw("}");
            },
        );
    }
}

/// Everything one evaluation of a [`Compiled`](crate::Compiled) produced.
///
/// ```
/// use hclvm::{Compiled, Options, Variables};
///
/// let config = Compiled::body("name = upper(n)\nsize = 2 * k\n", &Options::new())?;
/// let out = config.evaluate(&Variables::new().with("n", "web").with("k", "x"));
/// assert!(out.has_errors());
/// let body = out.body().unwrap();
/// assert_eq!(body.attribute("name").and_then(|o| o.value()).and_then(|v| v.as_str()), Some("WEB"));
/// assert_eq!(out.diagnostics()[0].summary, "Invalid operand");
/// # Ok::<(), hclvm::Error>(())
/// ```
///
/// It borrows the program (its source, attribute names and block labels):
/// evaluating writes nothing the program owns, so threads evaluating one
/// program at once share its memory without contending for it.
#[derive(Clone, Debug)]
pub struct Evaluation<'c> {
    pub(crate) compiled: &'c Compiled,
    pub(crate) result: Evaluated,
}

#[derive(Clone, Debug)]
pub(crate) enum Evaluated {
    Value(Outcome),
    /// Every attribute's outcome, in the order of the program's body plan.
    Body(Vec<Outcome>),
    /// Values of declared variables that do not fit their types (one
    /// error each): nothing was evaluated.
    Rejected(Vec<Diagnostic>),
}

impl<'c> Evaluation<'c> {
    /// The value of an expression or template, unless there were errors.
    /// `None` for a body (see [`Evaluation::body`] and
    /// [`Evaluation::to_value`]).
    ///
    /// ```
    /// let e = hclvm::Compiled::expression("true && !false", &hclvm::Options::new())?;
    /// assert_eq!(e.evaluate(&hclvm::Variables::new()).value().and_then(|v| v.as_bool()), Some(true));
    /// let b = hclvm::Compiled::body("a = 1\n", &hclvm::Options::new())?;
    /// assert!(b.evaluate(&hclvm::Variables::new()).value().is_none());
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn value(&self) -> Option<&Value> {
        match &self.result {
            Evaluated::Value(o) => o.value(),
            Evaluated::Body(_) | Evaluated::Rejected(_) => None,
        }
    }

    /// The outcome of an expression or template.
    ///
    /// ```
    /// let e = hclvm::Compiled::expression("1", &hclvm::Options::new())?;
    /// assert!(e.evaluate(&hclvm::Variables::new()).outcome().is_some());
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn outcome(&self) -> Option<&Outcome> {
        match &self.result {
            Evaluated::Value(o) => Some(o),
            Evaluated::Body(_) | Evaluated::Rejected(_) => None,
        }
    }

    /// The evaluated body, when a body was compiled.
    ///
    /// ```
    /// let b = hclvm::Compiled::body("a = 1\n", &hclvm::Options::new())?;
    /// assert_eq!(b.evaluate(&hclvm::Variables::new()).body().unwrap().attributes().len(), 1);
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn body(&self) -> Option<BodyOutcome<'_>> {
        match (&self.result, self.compiled.plan()) {
            (Evaluated::Body(outcomes), Some(plan)) => Some(BodyOutcome { plan, outcomes }),
            _ => None,
        }
    }

    /// Whether anything failed.
    ///
    /// ```
    /// let e = hclvm::Compiled::expression("tonumber(s)", &hclvm::Options::new())?;
    /// assert!(!e.evaluate(&hclvm::Variables::new().with("s", "12")).has_errors());
    /// assert!(e.evaluate(&hclvm::Variables::new().with("s", "twelve")).has_errors());
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn has_errors(&self) -> bool {
        match &self.result {
            Evaluated::Value(o) => o.has_errors(),
            Evaluated::Body(outcomes) => outcomes.iter().any(Outcome::has_errors),
            Evaluated::Rejected(_) => true,
        }
    }

    /// Every diagnostic (for a body: its parser warnings, then each
    /// attribute's, attributes before blocks, depth first).
    ///
    /// ```
    /// let b = hclvm::Compiled::body("a = x\nb = y\n", &hclvm::Options::new())?;
    /// let out = b.evaluate(&hclvm::Variables::new());
    /// assert!(out.has_errors());
    /// let summaries: Vec<_> = out.diagnostics().iter().map(|d| d.detail.as_str()).collect();
    /// assert_eq!(summaries, ["There is no variable named \"x\".", "There is no variable named \"y\"."]);
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn diagnostics(&self) -> Vec<&Diagnostic> {
        match &self.result {
            Evaluated::Value(o) => o.diagnostics.iter().collect(),
            Evaluated::Rejected(d) => d.iter().collect(),
            Evaluated::Body(outcomes) => {
                self.compiled.warnings().iter().chain(outcomes.iter().flat_map(|o| o.diagnostics.iter())).collect()
            }
        }
    }

    /// `Err` with every diagnostic when anything failed.
    ///
    /// ```
    /// let e = hclvm::Compiled::expression("1 + true", &hclvm::Options::new())?;
    /// let err = e.evaluate(&hclvm::Variables::new()).check().unwrap_err();
    /// assert!(err.to_string().starts_with("input.hcl:1,5-9: Invalid operand; "));
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn check(&self) -> Result<(), Error> {
        if let Evaluated::Rejected(d) = &self.result {
            return Err(Error::InvalidVariables(Diagnostics::new(d.clone(), self.compiled.source().clone())));
        }
        if self.has_errors() {
            Err(Error::Evaluation(Diagnostics::new(self.diagnostics().into_iter().cloned().collect(), self.compiled.source().clone())))
        } else {
            Ok(())
        }
    }

    /// The result as one value: the expression's value, or the body in the
    /// shape [`BodyOutcome::to_value`] describes. Errors first fail as in
    /// [`Evaluation::check`].
    ///
    /// ```
    /// let b = hclvm::Compiled::body("a = [1, 2]\n", &hclvm::Options::new())?;
    /// let v = b.evaluate(&hclvm::Variables::new()).to_value()?;
    /// assert_eq!(v.get_attr("a").and_then(|a| a.length()), Some(2));
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn to_value(&self) -> Result<Value, Error> {
        self.check()?;
        match (&self.result, self.body()) {
            (Evaluated::Value(o), _) => Ok(o.value.clone()),
            (_, Some(b)) => b.to_value(),
            (Evaluated::Body(_) | Evaluated::Rejected(_), None) => Err(Error::Shape("a body evaluation without its body".into())),
        }
    }

    /// The result converted to a Rust type with serde (see
    /// [`from_value`]).
    ///
    /// ```
    /// #[derive(serde::Deserialize)]
    /// struct Service { name: String, ports: Vec<u16> }
    ///
    /// let config = hclvm::Compiled::body("name = \"api\"\nports = [80, 443]\n", &hclvm::Options::new())?;
    /// let service: Service = config.evaluate(&hclvm::Variables::new()).deserialize()?;
    /// assert_eq!((service.name.as_str(), service.ports), ("api", vec![80, 443]));
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn deserialize<T: DeserializeOwned>(&self) -> Result<T, Error> {
        let v = self.to_value()?;
        Ok(from_value(&v)?)
    }

    /// Where `span` (a diagnostic's subject or context) starts and ends in
    /// the source, lines and columns as hcl counts them.
    ///
    /// ```
    /// let e = hclvm::Compiled::expression("1 + x", &hclvm::Options::new())?;
    /// let out = e.evaluate(&hclvm::Variables::new().with("x", "y"));
    /// let (start, end) = out.range(out.diagnostics()[0].subject.unwrap());
    /// assert_eq!((start.line, start.column, end.column), (1, 5, 6));
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn range(&self, span: runtime::Span) -> (runtime::Pos, runtime::Pos) {
        self.compiled.source().range(span)
    }

    /// The diagnostics as hcl's text writer prints them.
    ///
    /// ```
    /// let e = hclvm::Compiled::expression("-\"x\"", &hclvm::Options::new().filename("neg.hcl"))?;
    /// let text = e.evaluate(&hclvm::Variables::new()).render_diagnostics(false);
    /// assert!(text.starts_with("Error: Invalid operand\n\n  on neg.hcl line 1:\n   1: -\"x\"\n"), "{text}");
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn render_diagnostics(&self, color: bool) -> String {
        render_with(self.compiled.source(), self.diagnostics(), color)
    }

    /// [`Evaluation::render_diagnostics`] written to `w` as they are
    /// rendered, without holding the whole text (an evaluation may report
    /// as many diagnostics as its size budget allows).
    pub fn write_diagnostics(&self, w: &mut dyn std::io::Write, color: bool) -> std::io::Result<()> {
        write_with(w, self.compiled.source(), self.diagnostics(), color)
    }

    /// Appends the reference's result encoding (the format of the
    /// `hcl-oracle` tool and of `hclvm conformance`) without the `id`:
    /// `{"ok":true,"type":T,"value":V}` (plus `"known":false` and warnings),
    /// `{"ok":true,"body":{...}}`, or `{"ok":false,"phase":"eval","diags":[...]}`
    /// (`"phase":"vars"` when declared variables were given values that do
    /// not fit their types).
    ///
    /// ```
    /// let e = hclvm::Compiled::expression("[1, \"a\"]", &hclvm::Options::new())?;
    /// let mut line = String::new();
    /// e.evaluate(&hclvm::Variables::new()).write_result_json(&mut line);
    /// assert_eq!(line, r#"{"ok":true,"type":["tuple",["number","string"]],"value":[1,"a"]}"#);
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn write_result_json(&self, out: &mut String) {
        out.push('{');
        out.push_str(&self.result_fields());
        out.push('}');
    }

    /// The result fields without braces (what follows `"id":..,`).
    pub(crate) fn result_fields(&self) -> String {
        let mut w = self.compiled.source().result_writer(String::new());
        match (&self.result, self.body()) {
            (Evaluated::Value(o), _) => write_value_result(&mut w, &o.value, &o.diagnostics, Some("eval")),
            (Evaluated::Rejected(d), _) => w.failure("vars", d),
            (_, body) => {
                w.raw("\"ok\":true,\"body\":");
                if let Some(b) = body {
                    b.write_result(&mut w);
                }
                let warnings = self.compiled.warnings();
                if !warnings.is_empty() {
                    w.raw(",\"diags\":");
                    w.diags(warnings);
                }
            }
        }
        w.into_string()
    }

    /// Appends the result as plain JSON: values in the reference's encoding
    /// without types (exact numbers, `{"$unknown":true}` for unknowns,
    /// `{"$number":"+Inf"}` for infinities), a body in the shape of
    /// [`BodyOutcome::to_value`]. Errors first fail as in
    /// [`Evaluation::check`].
    ///
    /// ```
    /// let config = hclvm::Compiled::body("a = 1/3 > 0.3\nb { c = \"d\" }\n", &hclvm::Options::new())?;
    /// let mut json = String::new();
    /// config.evaluate(&hclvm::Variables::new()).write_plain_json(&mut json)?;
    /// assert_eq!(json, r#"{"a":true,"b":[{"c":"d"}]}"#);
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn write_plain_json(&self, out: &mut String) -> Result<(), Error> {
        self.write_plain_json_to(out)
    }

    /// [`Evaluation::write_plain_json`] to any [`JsonText`]. A sink that
    /// passes the text on as it grows ([`JsonText::PASSES_ON`]) gets
    /// nothing when writing fails: what could fail half-way is checked
    /// first.
    pub(crate) fn write_plain_json_to<T: JsonText>(&self, out: &mut T) -> Result<(), Error> {
        if let (Evaluated::Body(_), Some(body)) = (&self.result, self.body()) {
            self.check()?;
            if let Some(done) = super::natural_json::write_natural_body(body, out) {
                return done;
            }
        }
        let v = self.to_value()?;
        let Some(len) = runtime::json::encoded_len_within(&v, runtime::json::MAX_VALUE_TEXT) else {
            return Err(Error::Shape(runtime::json::too_long_detail()));
        };
        if T::PASSES_ON && !runtime::json::numbers_print(&v) {
            return Err(unprintable(&v));
        }
        // The text at once (and a little for escapes and a line end), not
        // by doubling: a large result would otherwise take twice its size.
        out.reserve(len + len / 64 + 16);
        runtime::json::write_value(out, &v).map_err(|e| Error::Shape(e.to_string()))
    }
}

/// The error writing `v` fails with (some number in it has no text).
#[cold]
pub(crate) fn unprintable(v: &Value) -> Error {
    let mut scratch = String::new();
    match runtime::json::write_value(&mut scratch, v) {
        Err(e) => Error::Shape(e.to_string()),
        Ok(()) => Error::Shape("a number has no text".into()),
    }
}

/// Blocks of one type on the way to the natural shape: one object level
/// per label, bodies in source order at the end. (Labels and types are
/// found by hash: a body of 100,000 blocks of distinct labels searched
/// its list of labels for each, 28 s.)
enum Nest<'e> {
    Bodies(Vec<Value>),
    Labels(IndexMap<&'e str, Nest<'e>>),
}

impl<'e> Nest<'e> {
    fn new(labels_left: usize) -> Nest<'e> {
        if labels_left == 0 {
            Nest::Bodies(Vec::new())
        } else {
            Nest::Labels(IndexMap::new())
        }
    }

    fn insert(&mut self, mut labels: impl ExactSizeIterator<Item = &'e str>, body: Value) -> Result<(), ()> {
        match (self, labels.next()) {
            (Nest::Bodies(bodies), None) => {
                bodies.push(body);
                Ok(())
            }
            (Nest::Labels(children), Some(first)) => {
                let rest = labels.len();
                // (A level per label: a block may have 100,000.)
                runtime::stack::guarded(|| children.entry(first).or_insert_with(|| Nest::new(rest)).insert(labels, body))
            }
            _ => Err(()),
        }
    }

    fn into_value(self) -> Value {
        match self {
            Nest::Bodies(bodies) => Value::tuple(bodies),
            Nest::Labels(children) => {
                Value::object(children.into_iter().map(|(l, n)| (l, runtime::stack::guarded(|| n.into_value()))).collect())
            }
        }
    }
}

fn natural_value(body: BodyOutcome<'_>) -> Result<Value, Error> {
    let mut members: Vec<(&str, Value)> = body.attributes().map(|a| (a.name(), a.outcome.value.clone())).collect();
    let attribute_names: std::collections::HashSet<&str> = members.iter().map(|(n, _)| *n).collect();
    let mut types: IndexMap<&str, Nest> = IndexMap::new();
    for b in body.blocks() {
        let name: &str = b.info().block_type();
        if attribute_names.contains(name) {
            return Err(Error::Shape(format!("{name:?} is both an attribute and a block type")));
        }
        let value = natural_value(b.body)?;
        types
            .entry(name)
            .or_insert_with(|| Nest::new(b.info().label_count()))
            .insert(b.info().labels(), value)
            .map_err(|()| Error::Shape(format!("blocks of type {name:?} have different numbers of labels")))?;
    }
    members.extend(types.into_iter().map(|(t, n)| (t, n.into_value())));
    Ok(Value::object(members))
}
