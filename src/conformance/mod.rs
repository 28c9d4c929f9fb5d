//! The conformance runner: reads test cases in the oracle's JSON Lines format
//! (see `tests/data/conformance/` and the oracle's README), compiles and
//! evaluates each with [`Compiled`] as its mode, function table and
//! variables say, and writes one result line per case in the oracle's
//! result format (`api::result_format`).
//!
//! Only the case format lives here (decoding a case line, converting its
//! variables, comparing result lines); compiling, evaluating and writing
//! results are the embedding API's.

mod bind;
mod case;
pub mod compare;

pub use bind::bind_values;
pub use case::{decode_case, Case, CaseError, FuncTable, Mode};
pub use compare::{compare_results, CompareOptions};

use crate::api::result_format::{panic_message, write_case_error, write_panic, write_simple_diag};
use crate::api::{Compiled, Error, Options, SourceKind, Variables};
use runtime::strings::write_json_string;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// What the oracle reports for a source on which the reference parser
/// dereferences the missing expression of a malformed function selector.
pub const REFERENCE_NIL_PANIC: &str = "panic: runtime error: invalid memory address or nil pointer dereference";

/// How cases are run: as the reference runs them (the default), or with
/// a later hcl's semantics the API offers as an option.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunOptions {
    /// [`Options::short_circuit`]: `&&` and `||` as hcl ≥ v2.21 evaluates
    /// them (compare with an oracle built with that release's
    /// `hclsyntax/expression_ops.go`, `tests/data/short_circuit/`).
    pub short_circuit: bool,
}

/// The compile options a case asks for: its function table, and its
/// variables (those it sets) as the declared names.
fn case_options(case: &Case, names: impl IntoIterator<Item = String>, run: RunOptions) -> Options {
    let options = Options::new()
        .variables(names)
        .declarations(case.declare.iter().map(|(n, t)| (n.as_str(), t.as_str())))
        .short_circuit(run.short_circuit);
    match case.funcs {
        FuncTable::Stdlib => options,
        FuncTable::Packer => options.functions(packer_table()),
        FuncTable::None => options.functions(runtime::func::Functions::empty()),
        FuncTable::Nil => options.without_functions(),
    }
}

/// Packer's table as the oracle has it (file functions unrestricted),
/// built once per process.
fn packer_table() -> std::sync::Arc<runtime::func::Functions> {
    static T: std::sync::OnceLock<std::sync::Arc<runtime::func::Functions>> = std::sync::OnceLock::new();
    T.get_or_init(|| std::sync::Arc::new(runtime::func::Functions::packer(runtime::func::FileAccess::Unrestricted))).clone()
}

/// Runs one decoded case and returns the result fields after `"id":..,`;
/// `Err` is a malformed case (its variables do not convert), with the
/// oracle's message.
pub fn run_case(case: &Case) -> Result<String, String> {
    run_case_with(case, RunOptions::default())
}

/// [`run_case`] with [`RunOptions`].
pub fn run_case_with(case: &Case, run: RunOptions) -> Result<String, String> {
    let mut out = String::new();
    run_case_into(case, run, &mut out)?;
    Ok(out)
}

/// [`run_case_with`], appending the result fields to `out` (which is left
/// as it was when the case is malformed).
fn run_case_into(case: &Case, run: RunOptions, out: &mut String) -> Result<(), String> {
    let bindings = bind_values(case)?;
    let options = case_options(case, bindings.iter().map(|(n, _)| n.clone()), run);
    let kind = match case.mode {
        Mode::Expr => SourceKind::Expression,
        Mode::Template => SourceKind::Template,
        Mode::Body => SourceKind::Body,
    };
    // Each case is run once: compiled, evaluated and written in one go
    // unless its options need the program kept (declarations).
    let vars: Variables = bindings.into_iter().collect();
    match Compiled::write_once(kind, &case.src, &options, &vars, out) {
        Some(false) => return Ok(()),
        // As below: no declarations, so no values rejected first.
        Some(true) => {
            write_reference_crash(out);
            return Ok(());
        }
        None => {}
    }
    let (compiled, reference_crash) = Compiled::compile_noting_crash(kind, &case.src, &options);
    if reference_crash || matches!(compiled, Err(Error::Compile(_))) {
        // The oracle converts the declared variables' values before it
        // parses the source: values that do not fit win.
        if let Some(rejected) = rejected_before_parsing(case, &options, &vars) {
            out.push_str(&rejected);
            return Ok(());
        }
    }
    if reference_crash {
        write_reference_crash(out);
        return Ok(());
    }
    match compiled {
        Ok(compiled) => {
            compiled.write_result(&compiled.bind(&vars), out);
        }
        Err(Error::Compile(diags)) => diags.write_failure("parse", out),
        Err(Error::Declaration(list)) => {
            // One array of the diagnostics of every declaration (each
            // placed in its own constraint text), as the oracle reports
            // them: phase "declare".
            out.push_str("\"ok\":false,\"phase\":\"declare\",\"diags\":[");
            for (i, diags) in list.iter().filter(|d| !d.as_slice().is_empty()).enumerate() {
                if i > 0 {
                    out.push(',');
                }
                diags.write_items(out);
            }
            out.push(']');
        }
        Err(e) => return Err(e.to_string()),
    }
    Ok(())
}

/// The result of a case whose source the reference crashes on (see
/// `compiler::Parse`): the oracle reports the recovered Go panic.
fn write_reference_crash(out: &mut String) {
    out.push_str("\"ok\":false,\"phase\":\"panic\",\"diags\":");
    write_simple_diag(out, REFERENCE_NIL_PANIC, "");
}

/// The result of a case whose declared variables were given values that do
/// not fit their types (phase `vars`), found without the source.
fn rejected_before_parsing(case: &Case, options: &Options, vars: &Variables) -> Option<String> {
    if case.declare.is_empty() {
        return None;
    }
    let probe = Compiled::expression("null", options).ok()?;
    let bound = probe.bind(vars);
    if bound.rejected().is_empty() {
        return None;
    }
    let mut out = String::new();
    probe.write_result(&bound, &mut out);
    Some(out)
}

/// Runs one non-blank input line (1-based `line_no`) and returns its whole
/// result line (without the newline). A panic inside parsing or evaluation
/// is reported as phase `panic`, as the oracle reports a crash, so one bad
/// case does not end a run.
pub fn run_line(line: &[u8], line_no: usize) -> String {
    run_line_with(line, line_no, RunOptions::default())
}

/// [`run_line`] with [`RunOptions`].
pub fn run_line_with(line: &[u8], line_no: usize, run: RunOptions) -> String {
    let mut out = String::new();
    run_line_into(line, line_no, run, &mut out);
    out
}

/// [`run_line_with`], appending the result line to `out` (a buffer
/// reused from line to line, or holding a whole block's lines, keeps its
/// capacity: no regrowing it for every line, no copying lines into it).
/// The writers that take `out`'s text for a while give it back even when
/// the case panics (`result_format::write_lent`), so the lines before
/// this one stay.
pub(crate) fn run_line_into(line: &[u8], line_no: usize, run: RunOptions, out: &mut String) -> bool {
    let start = out.len();
    out.push_str("{\"id\":");
    let case = match decode_case(line) {
        Ok(case) => case,
        Err(e) => {
            push_id(out, e.id.as_deref());
            write_case_error(out, line_no, &e.message);
            out.push('}');
            return true;
        }
    };
    push_id(out, Some(&case.id));
    // The result is written in place; a malformed case (or a panic) has
    // what was written of it taken back.
    let mark = out.len();
    let malformed = match catch_unwind(AssertUnwindSafe(|| run_case_into(&case, run, out))) {
        Ok(Ok(())) => false,
        Ok(Err(message)) => {
            out.truncate(mark);
            write_case_error(out, line_no, &message);
            true
        }
        Err(payload) => {
            runtime::work::reset();
            // The line starts again.
            assert!(out.len() >= start, "a result buffer was not given back after a panic");
            out.truncate(start);
            out.push_str("{\"id\":");
            push_id(out, Some(&case.id));
            write_panic(out, &panic_message(&*payload));
            false
        }
    };
    out.push('}');
    malformed
}

fn push_id(out: &mut String, id: Option<&str>) {
    match id {
        Some(id) => write_json_string(out, id),
        None => out.push_str("null"),
    }
    out.push(',');
}

/// Counts of one run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunStats {
    /// Result lines written (one per non-blank input line).
    pub cases: usize,
    /// Lines that were not valid cases (phase `case`).
    pub malformed: usize,
}

impl std::ops::AddAssign for RunStats {
    fn add_assign(&mut self, other: RunStats) {
        self.cases += other.cases;
        self.malformed += other.malformed;
    }
}

/// Appends the result line of the case on input line `line` (number
/// `line_no`), with its line break, to `out`, and counts it in `stats`.
pub(crate) fn run_case_line(line: &[u8], line_no: usize, run: RunOptions, out: &mut String, stats: &mut RunStats) {
    let malformed = run_line_into(line, line_no, run, out);
    out.push('\n');
    *stats += RunStats { cases: 1, malformed: usize::from(malformed) };
}

/// What an input line (without its `\n`) holds: `None` for a blank line
/// (skipped, but counted), else the line without trailing `\r`s. The one
/// rule of every JSON Lines input (cases, `hclvm batch` variable sets).
pub(crate) fn line_content(line: &[u8]) -> Option<&[u8]> {
    let end = line.iter().rposition(|&b| b != b'\r' && b != b'\n').map_or(0, |i| i + 1);
    let line = &line[..end];
    (!line.iter().all(u8::is_ascii_whitespace)).then_some(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The result lines of `input`'s cases, read as `hclvm conformance`
    /// reads them (`line_content`, `run_case_line`).
    fn run(input: &str) -> (Vec<String>, RunStats) {
        let mut out = String::new();
        let mut stats = RunStats::default();
        for (i, line) in input.split('\n').enumerate() {
            if let Some(line) = line_content(line.as_bytes()) {
                run_case_line(line, i + 1, RunOptions::default(), &mut out, &mut stats);
            }
        }
        (out.lines().map(str::to_string).collect(), stats)
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
    fn cases_are_evaluated_with_their_variables_and_table() {
        let (lines, _) = run(concat!(
            r#"{"id":"ok","mode":"body","src":"a = x + 1\n","vars":{"x":1},"unknowns":{"u":"string"}}"#,
            "\n",
            r#"{"id":"none","mode":"expr","src":"upper(\"a\")","funcs":"none"}"#,
            "\n",
            r#"{"id":"nil","mode":"expr","src":"upper(\"a\")","funcs":"nil"}"#,
        ));
        assert_eq!(
            lines[0],
            r#"{"id":"ok","ok":true,"body":{"attrs":{"a":{"ok":true,"type":"number","value":2,"vars":["x"]}},"blocks":[]}}"#
        );
        assert!(lines[1].contains(r#""summary":"Call to unknown function""#), "{}", lines[1]);
        assert!(lines[2].contains(r#""summary":"Function calls not allowed""#), "{}", lines[2]);
    }

    #[test]
    fn variables_that_do_not_convert_are_case_errors() {
        let (lines, stats) = run(r#"{"id":"v","mode":"expr","src":"x","vars":{"x":{"type":"number","value":"nan"}}}"#);
        assert_eq!(stats.malformed, 1);
        assert!(
            lines[0].starts_with(r#"{"id":"v","ok":false,"phase":"case","line":1,"diags":[{"severity":"error","summary":"vars.x: "#),
            "{}",
            lines[0]
        );
    }

    #[test]
    fn a_source_the_reference_crashes_on_is_reported_as_its_panic() {
        let (lines, _) = run(r#"{"id":"p","mode":"expr","src":"-a::b"}"#);
        assert_eq!(
            lines[0],
            format!(
                r#"{{"id":"p","ok":false,"phase":"panic","diags":[{{"severity":"error","summary":"{REFERENCE_NIL_PANIC}","detail":"","subject":null}}]}}"#
            )
        );
    }
}
