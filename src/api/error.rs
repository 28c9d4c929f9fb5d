//! Errors of the embedding API, and diagnostics bundled with their source.

use super::de::DeError;
use super::result_format::write_lent;
use crate::diagnostic_text::{render_diagnostics, write_diagnostics, SourceFile};
use runtime::{Diagnostic, LineIndex, Pos, Severity, Span};
use std::fmt;
use std::sync::Arc;

/// Anything the embedding API can fail with.
///
/// ```
/// use hclvm::{Compiled, Error, Options, Variables};
/// assert!(matches!(Compiled::body("a = (", &Options::new()), Err(Error::Compile(_))));
/// assert!(matches!(Variables::from_json_str("[]"), Err(Error::Variables(_))));
/// let e = Compiled::expression("x", &Options::new())?;
/// assert!(matches!(e.evaluate(&Variables::new()).check(), Err(Error::Evaluation(_))));
/// assert!(matches!(e.evaluate(&Variables::new().with("x", "s")).deserialize::<bool>(), Err(Error::Deserialize(_))));
/// # Ok::<(), Error>(())
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The source has syntax errors (nothing was compiled).
    Compile(Diagnostics),
    /// A declared type constraint ([`Options::declare`](crate::Options::declare))
    /// does not parse or is not a valid type: the diagnostics of each
    /// declaration with errors, in name order, each placed in its
    /// constraint's text (nothing was compiled).
    Declaration(Vec<Diagnostics>),
    /// Values given for declared variables do not fit their types: one
    /// "Invalid value for variable" error per variable, without a subject
    /// (nothing was evaluated). [`Evaluation::check`](crate::Evaluation::check)
    /// reports it.
    InvalidVariables(Diagnostics),
    /// The variables could not be read or converted (bad JSON, a value
    /// that does not fit its declared type, ...).
    Variables(String),
    /// The evaluation reported errors.
    Evaluation(Diagnostics),
    /// A result does not fit the Rust type asked for.
    Deserialize(DeError),
    /// A body has no single-value form (see
    /// [`BodyOutcome::to_value`](crate::BodyOutcome::to_value)), or a
    /// number is too large to write out, or the whole value's JSON text
    /// would be over `runtime::json::MAX_VALUE_TEXT`.
    Shape(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Compile(d) | Error::Evaluation(d) | Error::InvalidVariables(d) => d.fmt(f),
            Error::Declaration(list) => {
                let Some(first) = list.first() else { return f.write_str("invalid declarations") };
                first.fmt(f)?;
                match list.len() {
                    1 => Ok(()),
                    2 => f.write_str("; and 1 other declaration with errors"),
                    n => write!(f, "; and {} other declarations with errors", n - 1),
                }
            }
            Error::Variables(m) => write!(f, "invalid variables: {m}"),
            Error::Deserialize(e) => write!(f, "cannot convert the result: {e}"),
            Error::Shape(m) => write!(f, "the result has no single-value form: {m}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Deserialize(e) => Some(e),
            _ => None,
        }
    }
}

impl From<DeError> for Error {
    fn from(e: DeError) -> Error {
        Error::Deserialize(e)
    }
}

/// The source a compiled program came from, kept to place diagnostics.
#[derive(Debug)]
pub(crate) struct SourceInfo {
    pub(crate) filename: Arc<str>,
    pub(crate) src: Arc<[u8]>,
    /// Top-level block headers, for the "in resource "a" "b"" context.
    pub(crate) block_headers: crate::diagnostic_text::BlockHeaders,
    /// A bare template (scanned in template mode), not a config file or
    /// an expression: token boundaries decide columns.
    pub(crate) template: bool,
    /// The source as programs keep it (where columns count grapheme
    /// clusters anew, the line index made when a position is first asked
    /// for): one for the compiler and the programs (the positions `try`
    /// prints) and for placing diagnostics, made when either first needs
    /// it.
    pub(crate) lines: std::sync::OnceLock<Arc<vm::program::SourceLines>>,
}

impl SourceInfo {
    /// How the source is scanned.
    pub(crate) fn lex_mode(&self) -> compiler::lexer::LexMode {
        if self.template {
            compiler::lexer::LexMode::Template
        } else {
            compiler::lexer::LexMode::Normal
        }
    }

    /// A writer of results in the reference's format, placing
    /// diagnostics in this source.
    pub(crate) fn result_writer(&self, buffer: String) -> super::result_format::ResultWriter<'_> {
        super::result_format::ResultWriter::for_source(self, buffer)
    }

    /// Where `span` starts and ends (see [`Diagnostics::range`]).
    pub(crate) fn range(&self, span: Span) -> (Pos, Pos) {
        let lines = self.line_index();
        lines.span_pos(&self.src, span)
    }

    /// Its line index, columns counted token by token as hcl counts them.
    pub(crate) fn line_index(&self) -> &LineIndex {
        self.source_lines().line_index()
    }

    /// The source as programs keep it.
    pub(crate) fn source_lines(&self) -> &Arc<vm::program::SourceLines> {
        self.lines.get_or_init(|| Arc::new(compiler::lower::source_lines(self.src.clone(), self.lex_mode())))
    }
}

/// Diagnostics together with the source they are about, so that they can be
/// rendered the way hcl's text writer renders them.
///
/// ```
/// let err = hclvm::Compiled::body("a = 1 2\n", &hclvm::Options::new()).unwrap_err();
/// let hclvm::Error::Compile(diags) = err else { unreachable!() };
/// assert_eq!(diags.to_string(), "input.hcl:1,7-8: Missing newline after argument; An argument definition must end with a newline.");
/// assert!(diags.render(false).contains("  on input.hcl line 1:\n   1: a = 1 2\n"));
/// ```
#[derive(Clone, Debug)]
pub struct Diagnostics {
    list: Vec<Diagnostic>,
    source: Arc<SourceInfo>,
}

impl Diagnostics {
    pub(crate) fn new(list: Vec<Diagnostic>, source: Arc<SourceInfo>) -> Diagnostics {
        Diagnostics { list, source }
    }

    /// Appends `"ok":false,"phase":PHASE,"diags":[...]` in the
    /// reference's result format.
    pub(crate) fn write_failure(&self, phase: &str, out: &mut String) {
        write_lent(out, |buf| self.source.result_writer(buf), |w| w.failure(phase, &self.list));
    }

    /// Appends the members of the reference's diagnostics array for these
    /// diagnostics (no brackets; positions placed in their source).
    pub(crate) fn write_items(&self, out: &mut String) {
        write_lent(out, |buf| self.source.result_writer(buf), |w| w.diag_items(&self.list));
    }

    /// The diagnostics, in the order they were reported.
    ///
    /// ```
    /// let hclvm::Error::Compile(d) = hclvm::Compiled::expression("(", &hclvm::Options::new()).unwrap_err() else { unreachable!() };
    /// assert!(!d.as_slice().is_empty() && d.has_errors());
    /// assert_eq!(d.filename(), "input.hcl");
    /// assert_eq!(d.clone().into_vec().len(), d.as_slice().len());
    /// ```
    pub fn as_slice(&self) -> &[Diagnostic] {
        &self.list
    }

    /// Whether any is an error (the rest are warnings).
    pub fn has_errors(&self) -> bool {
        self.list.iter().any(Diagnostic::is_error)
    }

    /// The source text the diagnostics are placed in.
    pub(crate) fn source_text(&self) -> &[u8] {
        &self.source.src
    }

    /// The file name the diagnostics refer to.
    pub fn filename(&self) -> &str {
        &self.source.filename
    }

    /// Where `span` (a diagnostic's subject or context) starts and ends in
    /// the source: lines and columns as hcl counts them (columns by
    /// grapheme cluster), and byte offsets.
    ///
    /// ```
    /// let hclvm::Error::Compile(d) = hclvm::Compiled::body("a = 1\nb = \n", &hclvm::Options::new()).unwrap_err() else { unreachable!() };
    /// let (start, _end) = d.range(d.as_slice()[0].subject.unwrap());
    /// assert_eq!((start.line, start.column), (2, 5));
    /// ```
    pub fn range(&self, span: Span) -> (Pos, Pos) {
        self.source.range(span)
    }

    /// The text hcl's diagnostic writer would print, with ANSI colour when
    /// `color` holds.
    pub fn render(&self, color: bool) -> String {
        render_with(&self.source, &self.list, color)
    }

    /// Writes the text [`Diagnostics::render`] builds to `w` as it renders
    /// it, without holding the whole text (an error-dense source has tens
    /// of times its size of it). Source bytes that are not UTF-8 are
    /// written as they are, as hcl's writer does; `render`, which returns
    /// a `String`, has U+FFFD in their place.
    pub fn write(&self, w: &mut dyn std::io::Write, color: bool) -> std::io::Result<()> {
        write_with(w, &self.source, &self.list, color)
    }

    /// Takes the diagnostics out.
    pub fn into_vec(self) -> Vec<Diagnostic> {
        self.list
    }
}

pub(crate) fn render_with<'d>(source: &SourceInfo, diags: impl IntoIterator<Item = &'d Diagnostic>, color: bool) -> String {
    let mut out = Vec::new();
    render_diagnostics(&mut out, &source_file(source), diags, color);
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// [`render_with`], written to `w` as it is rendered.
pub(crate) fn write_with<'d>(
    w: &mut dyn std::io::Write,
    source: &SourceInfo,
    diags: impl IntoIterator<Item = &'d Diagnostic>,
    color: bool,
) -> std::io::Result<()> {
    write_diagnostics(w, &source_file(source), diags, color)
}

fn source_file(source: &SourceInfo) -> SourceFile<'_> {
    SourceFile::with_lines(&source.filename, &source.src, source.line_index()).with_block_headers(&source.block_headers)
}

/// hcl's one-line `Diagnostics.Error()` form: the first diagnostic as
/// `file:line,col-col: summary; detail`, and how many others there are.
impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(first) = self.list.iter().find(|d| d.severity == Severity::Error).or(self.list.first()) else {
            return f.write_str("no diagnostics");
        };
        if let Some(subject) = first.subject {
            write!(f, "{}: ", self.source.line_index().range_text(&self.source.src, &self.source.filename, subject))?;
        }
        write!(f, "{}; {}", first.summary, first.detail)?;
        match self.list.len() {
            0 | 1 => Ok(()),
            2 => f.write_str(", and 1 other diagnostic"),
            n => write!(f, ", and {} other diagnostics", n - 1),
        }
    }
}
