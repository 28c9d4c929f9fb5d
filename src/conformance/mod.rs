//! The conformance runner: reads test cases in the oracle's JSON Lines format
//! (see `tests/data/conformance/` and the oracle's README), parses each in its
//! mode, hands the parsed tree to an [`Evaluator`] and writes one result line
//! per case in the oracle's result format.
//!
//! Parsing, case checking and result encoding live here; evaluation is the
//! [`Evaluator`]'s job. [`NoEvaluator`] is the stand-in used until the VM is
//! wired in: it reports every case that parses as an `eval` failure.

mod bind;
mod case;
pub mod compare;
mod json_in;
mod result;

pub use bind::bind_values;
pub use case::{decode_case, Case, CaseError, FuncTable, Mode};
pub use compare::{compare_results, CompareOptions};
pub use json_in::{parse_json, MAX_JSON_DEPTH};
pub use result::{write_json_string, write_simple_diag, ResultWriter};

use compiler::{ast, Interner};
use runtime::diag::DiagnosticsExt;
use runtime::Diagnostic;
use std::io::{self, BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The parsed source of a case, as the evaluator receives it.
pub struct Parsed<'a> {
    pub src: &'a [u8],
    pub tree: Tree<'a>,
    pub interner: &'a Interner,
    /// The parser's diagnostics: warnings only (a case with parse errors never
    /// reaches the evaluator). The oracle reports them next to the result.
    pub diags: &'a [Diagnostic],
}

/// What the case's source parsed to, by mode.
#[derive(Clone, Copy)]
pub enum Tree<'a> {
    Expr(&'a ast::Expr<'a>),
    Template(&'a ast::Expr<'a>),
    Body(&'a ast::Body<'a>),
}

/// Evaluation, the part of a case run that comes after parsing.
pub trait Evaluator {
    /// The case's variables converted to values.
    type Bindings;

    /// Converts `case.vars` (TYPED JSON) and `case.unknowns` (type JSON).
    /// An `Err` is a malformed case: its text becomes the summary of a
    /// phase `case` result, e.g. `vars.x: invalid type: ...`.
    fn bind(&self, case: &Case) -> Result<Self::Bindings, String>;

    /// Evaluates a case whose source parsed without errors and writes the
    /// result fields after `"id":..,`: `"ok":true,"type":..,"value":..` (plus
    /// `"known":false`, plus warnings as `"diags"`), a body result, or a
    /// failure (`out.failure("eval", &diags)`).
    fn evaluate(&self, case: &Case, bindings: &Self::Bindings, parsed: &Parsed<'_>, out: &mut ResultWriter<'_>);
}

/// The evaluator of a build that cannot evaluate yet: every case that
/// parses fails in phase `eval` with one diagnostic saying so.
pub struct NoEvaluator;

impl Evaluator for NoEvaluator {
    type Bindings = Vec<(String, runtime::Value)>;

    /// Still converts the variables, so that a malformed case is reported
    /// as one.
    fn bind(&self, case: &Case) -> Result<Self::Bindings, String> {
        bind_values(case)
    }

    fn evaluate(&self, _case: &Case, _bindings: &Self::Bindings, _parsed: &Parsed<'_>, out: &mut ResultWriter<'_>) {
        out.failure("eval", &[Diagnostic::error("Evaluation not available", "this build of hclvm cannot evaluate yet", None)]);
    }
}

/// The evaluator that `hclvm conformance` and the conformance tests use: the
/// best this build has.
pub fn default_evaluator() -> impl Evaluator {
    crate::engine::VmEvaluator
}

/// What the oracle reports for a source on which the reference parser
/// dereferences the missing expression of a malformed function selector.
pub const REFERENCE_NIL_PANIC: &str = "panic: runtime error: invalid memory address or nil pointer dereference";

/// Runs one decoded case and returns the result fields after `"id":..,`.
pub fn run_case<E: Evaluator>(case: &Case, evaluator: &E) -> Result<String, String> {
    let bindings = evaluator.bind(case)?;
    let arena = bumpalo::Bump::new();
    let mut interner = Interner::new();
    let src: &[u8] = &case.src;
    let filename = compiler::DEFAULT_FILENAME;
    let (tree, diags, crash) = match case.mode {
        Mode::Expr => {
            let p = compiler::parse_expression_full(&arena, src, filename, &mut interner);
            (Tree::Expr(p.tree), p.diags, p.reference_crash)
        }
        Mode::Template => {
            let p = compiler::parse_template_full(&arena, src, filename, &mut interner);
            (Tree::Template(p.tree), p.diags, p.reference_crash)
        }
        Mode::Body => {
            let p = compiler::parse_body_full(&arena, src, filename, &mut interner);
            (Tree::Body(arena.alloc(p.tree)), p.diags, p.reference_crash)
        }
    };
    if crash.is_some() {
        // The reference crashes on this source (see `compiler::Parse`); the
        // oracle reports the recovered Go panic.
        let mut out = String::from("\"ok\":false,\"phase\":\"panic\",\"diags\":");
        write_simple_diag(&mut out, REFERENCE_NIL_PANIC, "");
        return Ok(out);
    }
    let mut out = ResultWriter::new(src).template(matches!(tree, Tree::Template(_)));
    if diags.has_errors() {
        out.failure("parse", &diags);
    } else {
        let parsed = Parsed { src, tree, interner: &interner, diags: &diags };
        evaluator.evaluate(case, &bindings, &parsed, &mut out);
    }
    Ok(out.into_string())
}

/// Runs one non-blank input line (1-based `line_no`) and returns its whole
/// result line (without the newline). A panic inside parsing or evaluation
/// is reported as phase `panic`, as the oracle reports a crash, so one bad
/// case does not end a run.
pub fn run_line<E: Evaluator>(line: &[u8], line_no: usize, evaluator: &E) -> String {
    run_line_counted(line, line_no, evaluator).0
}

/// [`run_line`], also telling whether the line was a malformed case.
fn run_line_counted<E: Evaluator>(line: &[u8], line_no: usize, evaluator: &E) -> (String, bool) {
    let mut out = String::from("{\"id\":");
    let case = match decode_case(line) {
        Ok(case) => case,
        Err(e) => {
            push_id(&mut out, e.id.as_deref());
            push_case_error(&mut out, line_no, &e.message);
            return (out, true);
        }
    };
    push_id(&mut out, Some(&case.id));
    match catch_unwind(AssertUnwindSafe(|| run_case(&case, evaluator))) {
        Ok(Ok(fields)) => out.push_str(&fields),
        Ok(Err(message)) => {
            push_case_error(&mut out, line_no, &message);
            return (out, true);
        }
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            out.push_str("\"ok\":false,\"phase\":\"panic\",\"diags\":");
            write_simple_diag(&mut out, &format!("panic: {what}"), "");
        }
    }
    out.push('}');
    (out, false)
}

fn push_id(out: &mut String, id: Option<&str>) {
    match id {
        Some(id) => write_json_string(out, id),
        None => out.push_str("null"),
    }
    out.push(',');
}

fn push_case_error(out: &mut String, line_no: usize, message: &str) {
    out.push_str("\"ok\":false,\"phase\":\"case\",\"line\":");
    out.push_str(&line_no.to_string());
    out.push_str(",\"diags\":");
    write_simple_diag(out, message, "");
    out.push('}');
}

/// Counts of one run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunStats {
    /// Result lines written (one per non-blank input line).
    pub cases: usize,
    /// Lines that were not valid cases (phase `case`).
    pub malformed: usize,
}

/// Reads cases from `input` (one per line; blank lines skipped, trailing
/// `\r` ignored) and writes one result line per case to `output`, flushing
/// after each so that partial output survives an abort.
pub fn run_cases<E: Evaluator>(mut input: impl BufRead, mut output: impl Write, evaluator: &E) -> io::Result<RunStats> {
    let mut stats = RunStats::default();
    let mut line = Vec::new();
    let mut line_no = 0usize;
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        line_no += 1;
        while matches!(line.last(), Some(b'\n' | b'\r')) {
            line.pop();
        }
        if line.iter().all(|b| b.is_ascii_whitespace()) {
            continue;
        }
        let (result, malformed) = run_line_counted(&line, line_no, evaluator);
        stats.malformed += usize::from(malformed);
        stats.cases += 1;
        output.write_all(result.as_bytes())?;
        output.write_all(b"\n")?;
        output.flush()?;
    }
    Ok(stats)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(input: &str) -> (Vec<String>, RunStats) {
        let mut out = Vec::new();
        let stats = run_cases(input.as_bytes(), &mut out, &NoEvaluator).expect("in-memory I/O");
        let text = String::from_utf8(out).expect("UTF-8 output");
        (text.lines().map(str::to_string).collect(), stats)
    }

    #[test]
    fn blank_lines_are_skipped_but_counted_and_crlf_is_ignored() {
        let (lines, stats) = run("\r\n{\"id\":\"a\",\"mode\":\"expr\",\"src\":\"1 +\"}\r\n   \n{\"id\":\"b\"}\n");
        assert_eq!(stats, RunStats { cases: 2, malformed: 1 });
        assert!(lines[0].starts_with(r#"{"id":"a","ok":false,"phase":"parse","diags":[{"severity":"error""#), "{}", lines[0]);
        assert_eq!(
            lines[1],
            r#"{"id":"b","ok":false,"phase":"case","line":4,"diags":[{"severity":"error","summary":"\"mode\" must be \"expr\", \"template\" or \"body\"","detail":"","subject":null}]}"#
        );
    }

    #[test]
    fn cases_that_parse_reach_the_evaluator() {
        let (lines, _) = run(r#"{"id":"ok","mode":"body","src":"a = 1\n","vars":{"x":1},"unknowns":{"u":"string"}}"#);
        assert_eq!(
            lines[0],
            r#"{"id":"ok","ok":false,"phase":"eval","diags":[{"severity":"error","summary":"Evaluation not available","detail":"this build of hclvm cannot evaluate yet","subject":null}]}"#
        );
    }

    #[test]
    fn variables_that_do_not_convert_are_case_errors() {
        let (lines, stats) = run(r#"{"id":"v","mode":"expr","src":"x","vars":{"x":{"type":"number","value":"nan"}}}"#);
        assert_eq!(stats.malformed, 1);
        assert!(lines[0].starts_with(r#"{"id":"v","ok":false,"phase":"case","line":1,"diags":[{"severity":"error","summary":"vars.x: "#), "{}", lines[0]);
    }

    /// An evaluator that panics: the run goes on and reports phase `panic`.
    struct Panicking;

    impl Evaluator for Panicking {
        type Bindings = ();
        fn bind(&self, _case: &Case) -> Result<(), String> {
            Ok(())
        }
        fn evaluate(&self, _case: &Case, _bindings: &(), _parsed: &Parsed<'_>, _out: &mut ResultWriter<'_>) {
            panic!("boom");
        }
    }

    #[test]
    fn a_panic_is_reported_and_the_run_continues() {
        let line = br#"{"id":"p","mode":"expr","src":"1"}"#;
        let result = run_line(line, 1, &Panicking);
        assert_eq!(result, r#"{"id":"p","ok":false,"phase":"panic","diags":[{"severity":"error","summary":"panic: boom","detail":"","subject":null}]}"#);
    }
}
