//! Writing result lines in the oracle's format, byte for byte: the same key
//! order and the same string escaping as its Go `encoding/json` encoder (with
//! HTML escaping off).

use runtime::{Diagnostic, LineIndex, Pos};

/// Appends `s` as a JSON string escaped exactly as Go's encoder does with
/// `SetEscapeHTML(false)`: `"`, `\`, `\n`, `\r`, `\t` by name, other control
/// characters as `\u00XX`, and U+2028/U+2029 as `\u2028`/`\u2029`.
pub fn write_json_string(out: &mut String, s: &str) {
    out.reserve(s.len() + 2);
    out.push('"');
    let mut plain_from = 0;
    for (i, c) in s.char_indices() {
        let escape: Option<&str> = match c {
            '"' => Some("\\\""),
            '\\' => Some("\\\\"),
            '\n' => Some("\\n"),
            '\r' => Some("\\r"),
            '\t' => Some("\\t"),
            '\u{2028}' => Some("\\u2028"),
            '\u{2029}' => Some("\\u2029"),
            c if (c as u32) < 0x20 => None,
            _ => continue,
        };
        out.push_str(&s[plain_from..i]);
        match escape {
            Some(e) => out.push_str(e),
            None => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                let b = c as u32 as usize;
                out.push_str("\\u00");
                out.push(HEX[b >> 4] as char);
                out.push(HEX[b & 0xf] as char);
            }
        }
        plain_from = i + c.len_utf8();
    }
    out.push_str(&s[plain_from..]);
    out.push('"');
}

/// Writes the result fields of one case (everything after `"id":..,`) for
/// one source text; positions in diagnostics are computed from that source.
pub struct ResultWriter<'s> {
    out: String,
    src: &'s [u8],
    lines: Option<LineIndex>,
    /// How the source was scanned (its token boundaries decide columns).
    lexed_as: compiler::lexer::LexMode,
}

impl<'s> ResultWriter<'s> {
    pub fn new(src: &'s [u8]) -> ResultWriter<'s> {
        ResultWriter::with_buffer(src, String::new())
    }

    /// Appends to `out` (reusing its allocation) instead of a new string.
    pub fn with_buffer(src: &'s [u8], out: String) -> ResultWriter<'s> {
        ResultWriter { out, src, lines: None, lexed_as: compiler::lexer::LexMode::Normal }
    }

    /// The source is a bare template (scanned in template mode; the
    /// default is a config file or an expression).
    pub fn template(mut self, is_template: bool) -> ResultWriter<'s> {
        if is_template {
            self.lexed_as = compiler::lexer::LexMode::Template;
        }
        self
    }

    /// The text written so far.
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

    /// Appends a JSON string.
    pub fn string(&mut self, s: &str) {
        write_json_string(&mut self.out, s);
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
        for (i, d) in diags.iter().enumerate() {
            if i > 0 {
                self.out.push(',');
            }
            self.out.push_str("{\"severity\":");
            write_json_string(&mut self.out, d.severity.as_str());
            self.out.push_str(",\"summary\":");
            write_json_string(&mut self.out, &d.summary);
            self.out.push_str(",\"detail\":");
            write_json_string(&mut self.out, &d.detail);
            self.out.push_str(",\"subject\":");
            match d.subject {
                None => self.out.push_str("null"),
                Some(span) => {
                    let src = self.src;
                    let mode = self.lexed_as;
                    let lines = self.lines.get_or_insert_with(|| LineIndex::with_breaks(src, compiler::lexer::cluster_breaks(src, mode)));
                    let start = lines.pos(src, span.start);
                    let end = lines.pos(src, span.end);
                    self.out.push_str("{\"start\":");
                    write_pos(&mut self.out, start);
                    self.out.push_str(",\"end\":");
                    write_pos(&mut self.out, end);
                    self.out.push('}');
                }
            }
            self.out.push('}');
        }
        self.out.push(']');
    }
}

fn write_pos(out: &mut String, p: Pos) {
    use std::fmt::Write as _;
    let _ = write!(out, "{{\"line\":{},\"column\":{},\"byte\":{}}}", p.line, p.column, p.byte);
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

#[cfg(test)]
mod tests {
    use super::*;
    use runtime::Span;

    #[test]
    fn strings_escape_like_go() {
        let table = [
            ("plain", "\"plain\""),
            ("a\"b\\c", r#""a\"b\\c""#),
            ("\n\r\t", r#""\n\r\t""#),
            ("\u{0}\u{8}\u{c}\u{1f}\u{7f}", "\"\\u0000\\u0008\\u000c\\u001f\u{7f}\""),
            ("<&>", "\"<&>\""),
            ("x\u{2028}y\u{2029}", "\"x\\u2028y\\u2029\""),
            ("é€😀", "\"é€😀\""),
        ];
        for (input, want) in table {
            let mut out = String::new();
            write_json_string(&mut out, input);
            assert_eq!(out, want, "{input:?}");
        }
    }

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
