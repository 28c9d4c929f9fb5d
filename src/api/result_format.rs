//! The reference's result format (the `hcl-oracle` tool's, which
//! `hclvm conformance`, `hclvm batch` and [`Evaluation::write_result_json`]
//! write), byte for byte: the same members in the same order, strings
//! escaped as its Go `encoding/json` encoder escapes them (HTML escaping
//! off), positions counted as hcl counts them.
//!
//! A result is `"ok":true,"type":T,"value":V` (plus `"known":false` and
//! warnings as `"diags"`), `"ok":true,"body":BODY` for a configuration
//! body, or `"ok":false,"phase":P,"diags":[...]`; a result line is
//! `{"id":ID,` + result + `}`.
//!
//! [`Evaluation::write_result_json`]: super::Evaluation::write_result_json

use runtime::diag::DiagnosticsExt;
use runtime::strings::write_json_string;
use runtime::{Diagnostic, LineIndex, Pos, Value};

/// Writes the result fields of one case (everything after `"id":..,`) for
/// one source text; positions in diagnostics are computed from that source.
pub struct ResultWriter<'s> {
    out: String,
    src: &'s [u8],
    lines: Lines<'s>,
}

/// Where a writer finds the source's line index.
enum Lines<'s> {
    /// Its own, made when first needed, of a source scanned in normal mode.
    Own(Option<LineIndex>),
    /// The compiled source's ([`super::error::SourceInfo::line_index`]):
    /// made once for every result written about that source.
    Shared(&'s super::error::SourceInfo),
}

impl<'s> ResultWriter<'s> {
    pub fn new(src: &'s [u8]) -> ResultWriter<'s> {
        ResultWriter::with_buffer(src, String::new())
    }

    /// Appends to `out` (reusing its allocation) instead of a new string.
    pub fn with_buffer(src: &'s [u8], out: String) -> ResultWriter<'s> {
        ResultWriter { out, src, lines: Lines::Own(None) }
    }

    /// A writer placing diagnostics in a compiled source.
    pub(crate) fn for_source(source: &'s super::error::SourceInfo, out: String) -> ResultWriter<'s> {
        ResultWriter { out, src: &source.src, lines: Lines::Shared(source) }
    }

    /// The text written so far.
    #[cfg(test)]
    pub fn as_str(&self) -> &str {
        &self.out
    }

    pub fn into_string(self) -> String {
        self.out
    }

    /// Appends with `write` (which may fail), or leaves the output as it
    /// was when it fails.
    pub fn attempt<E>(&mut self, write: impl FnOnce(&mut String) -> Result<(), E>) -> Result<(), E> {
        let mark = self.out.len();
        let result = write(&mut self.out);
        if result.is_err() {
            self.out.truncate(mark);
        }
        result
    }

    /// Appends text that is already JSON (e.g. an encoded value).
    pub fn raw(&mut self, json: &str) {
        self.out.push_str(json);
    }

    /// The text written so far, to append JSON to.
    pub(crate) fn text(&mut self) -> &mut String {
        &mut self.out
    }

    /// `"ok":false,"phase":PHASE,"diags":[...]`
    pub fn failure(&mut self, phase: &str, diags: &[Diagnostic]) {
        self.out.push_str("\"ok\":false,\"phase\":");
        write_json_string(&mut self.out, phase);
        self.out.push_str(",\"diags\":");
        self.diags(diags);
    }

    /// A diagnostics array: `[{"severity","summary","detail","subject"}...]`.
    pub fn diags(&mut self, diags: &[Diagnostic]) {
        self.out.push('[');
        self.diag_items(diags);
        self.out.push(']');
    }

    /// The members of a diagnostics array, comma-separated, without the
    /// brackets (for arrays whose diagnostics are placed in several
    /// sources).
    pub fn diag_items(&mut self, diags: &[Diagnostic]) {
        for (i, d) in diags.iter().enumerate() {
            if i > 0 {
                self.out.push(',');
            }
            // A severity's name needs no escaping.
            self.out.push_str("{\"severity\":\"");
            self.out.push_str(d.severity.as_str());
            self.out.push_str("\",\"summary\":");
            write_json_string(&mut self.out, &d.summary);
            self.out.push_str(",\"detail\":");
            write_json_string(&mut self.out, &d.detail);
            self.out.push_str(",\"subject\":");
            match d.subject {
                None => self.out.push_str("null"),
                Some(span) => {
                    let src = self.src;
                    let lines = match &mut self.lines {
                        Lines::Own(own) => &*own.get_or_insert_with(|| {
                            LineIndex::with_breaks(src, compiler::lexer::cluster_breaks(src, compiler::lexer::LexMode::Normal))
                        }),
                        Lines::Shared(source) => source.line_index(),
                    };
                    let (start, end) = lines.span_pos(src, span);
                    self.out.push_str("{\"start\":");
                    write_pos(&mut self.out, start);
                    self.out.push_str(",\"end\":");
                    write_pos(&mut self.out, end);
                    self.out.push('}');
                }
            }
            self.out.push('}');
        }
    }
}

/// Runs `write` on the writer `make` builds around `out`'s text (appending
/// to it), and gives the text back to `out` however `write` ends, a panic
/// included: callers that keep several results in one buffer (the
/// conformance runner, `hclvm batch`) lose none of the lines written
/// before a case that panics.
pub(crate) fn write_lent<'s, R>(
    out: &mut String,
    make: impl FnOnce(String) -> ResultWriter<'s>,
    write: impl FnOnce(&mut ResultWriter<'s>) -> R,
) -> R {
    /// Gives the writer's text back when dropped (also while unwinding).
    struct Lent<'o, 's> {
        w: ResultWriter<'s>,
        out: &'o mut String,
    }
    impl Drop for Lent<'_, '_> {
        fn drop(&mut self) {
            *self.out = std::mem::replace(&mut self.w, ResultWriter::new(&[])).into_string();
        }
    }
    let mut lent = Lent { w: make(std::mem::take(out)), out };
    write(&mut lent.w)
}

fn write_pos(out: &mut String, p: Pos) {
    out.push_str("{\"line\":");
    push_u32(out, p.line);
    out.push_str(",\"column\":");
    push_u32(out, p.column);
    out.push_str(",\"byte\":");
    push_u32(out, p.byte);
    out.push('}');
}

/// Appends `n` in decimal (a position is written three times per
/// diagnostic: without the formatting machinery).
fn push_u32(out: &mut String, n: u32) {
    out.push_str(itoa::Buffer::new().format(n));
}

/// The one-diagnostic array the oracle writes for its own problems (a bad
/// case line, a panic): severity error, no subject.
pub fn write_simple_diag(out: &mut String, summary: &str, detail: &str) {
    out.push_str("[{\"severity\":\"error\",\"summary\":");
    write_json_string(out, summary);
    out.push_str(",\"detail\":");
    write_json_string(out, detail);
    out.push_str(",\"subject\":null}]");
}

/// The result of an input line that is not a valid case (or variable set):
/// `"ok":false,"phase":"case","line":N,"diags":[MESSAGE]`.
pub fn write_case_error(out: &mut String, line_no: usize, message: &str) {
    use std::fmt::Write as _;
    let _ = write!(out, "\"ok\":false,\"phase\":\"case\",\"line\":{line_no},\"diags\":");
    write_simple_diag(out, message, "");
}

/// The result of a case whose run panicked (the oracle reports a crash of
/// the reference the same way): `"ok":false,"phase":"panic","diags":[...]`
/// with the summary `panic: MESSAGE`.
pub fn write_panic(out: &mut String, message: &str) {
    out.push_str("\"ok\":false,\"phase\":\"panic\",\"diags\":");
    write_simple_diag(out, &format!("panic: {message}"), "");
}

/// The message of a caught panic's payload.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string())
}

/// A value's result: `"ok":true,"type":T,"value":V` (plus warnings), or a
/// failure when `diags` has errors — in `phase` when given (an expression
/// or template), else `"ok":false,"diags":[...]` (an attribute of a body).
/// A value whose text would exceed [`runtime::json::MAX_VALUE_TEXT`] or
/// that cannot be printed is an "Unprintable result" failure.
pub fn write_value_result(out: &mut ResultWriter<'_>, v: &Value, diags: &[Diagnostic], phase: Option<&str>) {
    if diags.has_errors() {
        return write_failure(out, diags, phase);
    }
    if runtime::json::encoding_exceeds(v, runtime::json::MAX_VALUE_TEXT) {
        let detail = runtime::json::too_long_detail();
        return write_failure(out, &[Diagnostic::error("Unprintable result", detail, None)], phase);
    }
    // Written in place; a number too long to print takes the text back.
    let written = out.attempt(|buf| {
        buf.push_str("\"ok\":true,");
        runtime::json::write_typed_value(buf, v)
    });
    match written {
        Ok(()) if diags.is_empty() => {}
        Ok(()) => {
            out.raw(",\"diags\":");
            out.diags(diags);
        }
        Err(e) => write_failure(out, &[Diagnostic::error("Unprintable result", e.to_string(), None)], phase),
    }
}

fn write_failure(out: &mut ResultWriter<'_>, diags: &[Diagnostic], phase: Option<&str>) {
    match phase {
        Some(p) => out.failure(p, diags),
        None => {
            out.raw("\"ok\":false,\"diags\":");
            out.diags(diags);
        }
    }
}

/// `BODY`: `{"attrs":{NAME:{RESULT,"vars":[..]},..},"blocks":[{"type":..,
/// "labels":[..],"body":BODY},..]}`, whatever holds the attributes and
/// blocks (an evaluated body, or a plan evaluated as it is written):
/// `attr` writes one attribute's member, `block` one block's object, both
/// with the caller's state `cx`.
pub fn write_body<C, A, B>(
    out: &mut ResultWriter<'_>,
    cx: &mut C,
    attrs: impl IntoIterator<Item = A>,
    blocks: impl IntoIterator<Item = B>,
    attr: impl Fn(&mut C, &mut ResultWriter<'_>, A),
    block: impl Fn(&mut C, &mut ResultWriter<'_>, B),
) {
    out.raw("{\"attrs\":{");
    for (i, a) in attrs.into_iter().enumerate() {
        if i > 0 {
            out.raw(",");
        }
        attr(cx, out, a);
    }
    out.raw("},\"blocks\":[");
    for (i, b) in blocks.into_iter().enumerate() {
        if i > 0 {
            out.raw(",");
        }
        block(cx, out, b);
    }
    out.raw("]}");
}

/// `{"type":TYPE,"labels":[LABELS],"body":`: a block's member of a body
/// result line, up to its body.
pub fn write_block_head(out: &mut String, block_type: &str, labels: &[&str]) {
    out.push_str("{\"type\":");
    write_json_string(out, block_type);
    // (Sized at once for labels without escapes.)
    out.reserve(22 + labels.iter().map(|l| l.len() + 3).sum::<usize>());
    out.push_str(",\"labels\":[");
    for (i, label) in labels.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_json_string(out, label);
    }
    out.push_str("],\"body\":");
}

#[cfg(test)]
mod tests {
    use super::*;
    use runtime::Span;

    #[test]
    fn failure_lists_every_diagnostic_with_positions() {
        let src = "a = \"é\" +\n";
        let mut w = ResultWriter::new(src.as_bytes());
        let diags = [
            Diagnostic::error("Invalid expression", "Expected the start of an expression.", Some(Span::new(10, 11))),
            Diagnostic::warning("W", "", None),
        ];
        w.failure("parse", &diags);
        assert_eq!(
            w.as_str(),
            r#""ok":false,"phase":"parse","diags":[{"severity":"error","summary":"Invalid expression","detail":"Expected the start of an expression.","subject":{"start":{"line":1,"column":10,"byte":10},"end":{"line":2,"column":1,"byte":11}}},{"severity":"warning","summary":"W","detail":"","subject":null}]"#
        );
    }
}
