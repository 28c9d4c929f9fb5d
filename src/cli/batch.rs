//! `hclvm batch FILE --vars-jsonl IN`: compile once, evaluate once per input
//! line (a JSON object of variables), in parallel, and write one result line
//! per input line, in input order, in the result format of
//! `hclvm conformance` with `id` = the input line number.
//!
//! Work goes in blocks of lines on `--jobs` threads, each job reading,
//! evaluating and writing its blocks itself ([`super::blocks`], the
//! runner `hclvm conformance` uses too). Blank input lines are skipped
//! (they produce no output line but keep their number). A line that is not
//! a JSON object, or whose variables do not convert, gets a phase `case`
//! result line; nothing ends the batch early except an I/O error.

use super::blocks::{job_count, run_blocks, Block, BlockLimits, BlockSink};
use super::declare::DeclareArgs;
use super::eval::{compile_source, display_name, DiagArgs, EvalOptionArgs, Failure};
use super::ParseAs;
use super::{fnv1a, Status, FNV_OFFSET};
use crate::api::result_format::{panic_message, write_case_error, write_panic};
use crate::api::{Compiled, Options, SourceKind};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{BufWriter, IsTerminal, Read, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct BatchArgs {
    /// Source file, compiled once.
    #[arg(value_name = "FILE")]
    file: String,
    /// Variables, one JSON object per line (`-` reads standard input).
    /// `{"type": T, "value": V}` gives a value exactly type T.
    #[arg(long = "vars-jsonl", value_name = "IN")]
    vars_jsonl: String,
    /// Write result lines here instead of standard output.
    #[arg(long, value_name = "OUT")]
    out: Option<String>,
    /// Worker threads (default: available cores).
    #[arg(long, short = 'j', value_name = "N")]
    jobs: Option<usize>,
    /// How to read FILE (`auto`: `.tpl`, `.tftpl`, `.tmpl` are templates, the rest bodies).
    #[arg(long, value_enum, default_value_t = ParseAs::Auto)]
    mode: ParseAs,
    /// Same as `--mode template`.
    #[arg(long, conflicts_with = "mode")]
    template: bool,
    /// Also print the `result_checksum` of `hclvm bench` and the reference's
    /// bench mode (FNV-1a over the result lines without `id`) in the summary.
    #[arg(long)]
    checksum: bool,
    #[command(flatten)]
    declare: DeclareArgs,
    #[command(flatten)]
    evaluation: EvalOptionArgs,
    #[command(flatten)]
    funcs: super::FuncArgs,
    #[command(flatten)]
    output: DiagArgs,
}

/// Lines of a block at most, and its bytes (a block ends after the line
/// that reaches them, so that few long lines, a thousand users per line,
/// still spread over the jobs); blocks read ahead per job.
const LIMITS: BlockLimits = BlockLimits { lines: 64, bytes: 16 << 10, ahead_per_job: 8 };

/// The counts of one block's result lines.
#[derive(Clone, Copy, Default)]
struct LineCounts {
    lines: usize,
    errors: usize,
}

/// Totals of a run.
struct Totals {
    lines: usize,
    errors: usize,
    checksum: u64,
}

pub fn run(args: BatchArgs) -> Status {
    let kind = if args.template { SourceKind::Template } else { args.mode.kind_for(&args.file) };
    let src = match super::eval::read_source(&args.file) {
        Ok(s) => s,
        Err(f) => return f.report("batch"),
    };
    // Compiled on this thread, which then only waits while the jobs
    // evaluate (`run_blocks`): the allocator places a thread's allocations
    // together, and a job's allocations next to the program's constants and
    // names, which every job reads, would take those cache lines away from
    // the other cores at each write (measured when this thread was one of
    // the jobs: --jobs 2 at 1.5-1.65x --jobs 1 instead of 1.8x).
    let options = args.funcs.apply(args.evaluation.apply(Options::new()));
    match compile_source(&args.file, &src, kind, &args.output, &args.declare, options) {
        Ok(compiled) => run_compiled(&args, Arc::new(compiled)),
        Err(status) => status,
    }
}

/// [`run`] once the program is compiled.
fn run_compiled(args: &BatchArgs, compiled: Arc<Compiled>) -> Status {
    let jobs = job_count(args.jobs);

    let (input, input_len): (Box<dyn Read + Send>, Option<u64>) = if args.vars_jsonl == "-" {
        (Box::new(std::io::stdin()), None)
    } else {
        match std::fs::File::open(&args.vars_jsonl) {
            Ok(f) => {
                let len = f.metadata().ok().map(|m| m.len());
                (Box::new(f), len)
            }
            Err(e) => return Failure::usage(format!("cannot read {}: {e}", display_name(&args.vars_jsonl))).report("batch"),
        }
    };
    let output: Box<dyn Write + Send> = match &args.out {
        Some(path) => match std::fs::File::create(path) {
            Ok(f) => Box::new(f),
            Err(e) => return Failure::usage(format!("cannot write {path}: {e}")).report("batch"),
        },
        None => Box::new(std::io::stdout()),
    };
    let progress = progress_bar(input_len);

    let started = Instant::now();
    let totals = match run_batch(compiled, input, BufWriter::with_capacity(1 << 20, output), jobs, args.checksum, &progress) {
        Ok(writer) => writer.totals,
        Err(e) => {
            progress.finish_and_clear();
            return Failure::usage(format!("I/O error: {e}")).report("batch");
        }
    };
    progress.finish_and_clear();
    let secs = started.elapsed().as_secs_f64();
    let checksum = if args.checksum { format!("; result_checksum {:016x}", totals.checksum) } else { String::new() };
    eprintln!(
        "hclvm batch: {} lines, {} with errors, {:.3} s, {:.0} lines/s ({} job{}){checksum}",
        totals.lines,
        totals.errors,
        secs,
        totals.lines as f64 / secs.max(1e-9),
        jobs,
        if jobs == 1 { "" } else { "s" },
    );
    if totals.errors > 0 {
        Status::ProblemsFound
    } else {
        Status::Ok
    }
}

fn progress_bar(input_len: Option<u64>) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    match input_len {
        Some(len) => {
            let bar = ProgressBar::new(len);
            if let Ok(style) = ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} ({bytes_per_sec}, eta {eta})") {
                bar.set_style(style);
            }
            bar
        }
        None => ProgressBar::new_spinner(),
    }
}

/// Adds one result line to the checksum `hclvm bench` and the reference's
/// bench mode compute: FNV-1a 64 over the line without its `"id":N,`
/// member, followed by a newline.
fn checksum_line(hash: &mut u64, line: &str) {
    let rest = line.strip_prefix("{\"id\":").and_then(|r| r.split_once(',')).map_or(line, |(_, rest)| rest);
    fnv1a(hash, b"{");
    fnv1a(hash, rest.as_bytes());
    fnv1a(hash, b"\n");
}

/// Writes result blocks and keeps the totals.
struct BlockWriter<W> {
    output: W,
    totals: Totals,
    checksum: bool,
}

impl<W: Write + Send + 'static> BlockSink for BlockWriter<W> {
    type Counts = LineCounts;

    fn write_block(&mut self, text: &str, counts: LineCounts) -> std::io::Result<()> {
        self.output.write_all(text.as_bytes())?;
        self.totals.lines += counts.lines;
        self.totals.errors += counts.errors;
        if self.checksum {
            for line in text.lines() {
                checksum_line(&mut self.totals.checksum, line);
            }
        }
        Ok(())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.output.flush()
    }
}

/// Reads, evaluates and writes every line on `jobs` threads
/// ([`run_blocks`]); returns the writer with the totals.
fn run_batch<R: Read + Send + 'static, W: Write + Send + 'static>(
    compiled: Arc<Compiled>,
    input: R,
    output: W,
    jobs: usize,
    checksum: bool,
    progress: &ProgressBar,
) -> std::io::Result<BlockWriter<W>> {
    let writer = BlockWriter { output, totals: Totals { lines: 0, errors: 0, checksum: FNV_OFFSET }, checksum };
    let progress = progress.clone();
    run_blocks(
        input,
        LIMITS,
        writer,
        jobs,
        move |block: &Block, text: &mut String| evaluate_block(&compiled, block, text),
        move |read| progress.set_position(read),
    )
}

fn evaluate_block(compiled: &Compiled, block: &Block, text: &mut String) -> LineCounts {
    let mut counts = LineCounts::default();
    for (line_no, range) in &block.lines {
        let line = block.bytes.get(range.clone()).unwrap_or_default();
        if evaluate_line(compiled, line, *line_no, text) {
            counts.errors += 1;
        }
        counts.lines += 1;
    }
    counts
}

/// Appends the result line of one input line; true when it is a failure.
/// The result is written in place; a line whose variables are refused (or
/// whose evaluation panics) has what was written of it taken back.
fn evaluate_line(compiled: &Compiled, line: &[u8], line_no: usize, out: &mut String) -> bool {
    use std::fmt::Write as _;
    let _ = write!(out, "{{\"id\":{line_no},");
    let mark = out.len();
    let result = catch_unwind(AssertUnwindSafe(|| match std::str::from_utf8(line) {
        Ok(text) => match compiled.variables_from_json_str(text, true) {
            Ok(vars) => Ok(compiled.write_result(&compiled.bind(&vars), out)),
            Err(e) => Err(e.to_string()),
        },
        Err(e) => Err(format!("invalid variables: the line is not UTF-8 ({e})")),
    }));
    let failed = match result {
        Ok(Ok(errors)) => errors,
        Ok(Err(message)) => {
            out.truncate(mark);
            write_case_error(out, line_no, &message);
            true
        }
        Err(payload) => {
            runtime::work::reset();
            out.truncate(mark);
            write_panic(out, &panic_message(&*payload));
            true
        }
    };
    out.push_str("}\n");
    failed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checksum_skips_the_id_member() {
        let mut with_id = FNV_OFFSET;
        checksum_line(&mut with_id, r#"{"id":12,"ok":true,"type":"bool","value":true}"#);
        let mut reference = FNV_OFFSET;
        fnv1a(&mut reference, b"{\"ok\":true,\"type\":\"bool\",\"value\":true}\n");
        assert_eq!(with_id, reference);
    }

    #[test]
    fn streamed_results_equal_the_evaluation_encoding() {
        use crate::api::Options;
        let sources = [
            (SourceKind::Body, "a = x + 1\nb = \"${y}!\"\nblk \"l\" {\n  c = [for v in z : v * 2]\n  d = nope\n}\ninner {}\n"),
            (SourceKind::Body, "a = 1\n"),
            (SourceKind::Expression, "x > 1 ? y : \"small\""),
            (SourceKind::Template, "%{ for v in z }${v},%{ endfor }${y}"),
        ];
        let lines = [
            r#"{"x": 2, "y": "why", "z": [1, 2, 3]}"#,
            r#"{"x": "two", "y": null, "z": {"type": ["set", "number"], "value": [3, 1]}}"#,
            r#"{"x": 0, "z": []}"#,
            r#"{"y": "only y", "xx": 1}"#,
            r#"{}"#,
            r#"{"x": 1, "y": "a", "z": "not a collection"}"#,
        ];
        for (kind, src) in sources {
            let compiled = Compiled::compile(kind, src.as_bytes(), &Options::new()).expect("valid source");
            for line in lines {
                let evaluation = compiled.evaluate_json_str(line, true).expect("valid variables");
                let mut streamed = String::from("prefix,");
                let vars = compiled.variables_from_json_str(line, true).expect("valid variables");
                let errors = compiled.write_result(&compiled.bind(&vars), &mut streamed);
                assert_eq!(streamed, format!("prefix,{}", evaluation.result_fields()), "{src} with {line}");
                assert_eq!(errors, evaluation.has_errors(), "{src} with {line}");
            }
        }
    }

    #[test]
    fn write_errors_end_the_run_whatever_the_job_count() {
        struct Failing;
        impl Write for Failing {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::Error::other("disk full"))
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let compiled = Arc::new(Compiled::expression("n", &crate::api::Options::new()).expect("valid expression"));
        let input: String = (0..5000).map(|i| format!("{{\"n\": {i}}}\n")).collect();
        for jobs in [1, 2, 4] {
            let input = std::io::Cursor::new(input.clone().into_bytes());
            let result =
                run_batch(compiled.clone(), input, std::io::BufWriter::with_capacity(16, Failing), jobs, false, &ProgressBar::hidden());
            assert_eq!(result.err().map(|e| e.to_string()), Some("disk full".to_string()), "{jobs} jobs");
        }
    }

    #[test]
    fn blocks_come_back_in_order_whatever_the_job_count() {
        let compiled = Arc::new(Compiled::expression("n * 2", &crate::api::Options::new()).expect("valid expression"));
        let mut input = String::new();
        for i in 0..1000 {
            if i % 97 == 0 {
                input.push_str("not json\n");
            } else if i % 89 == 0 {
                input.push_str("   \n");
            } else {
                input.push_str(&format!("{{\"n\": {i}}}\n"));
            }
        }
        let run = |jobs| {
            let input = std::io::Cursor::new(input.clone().into_bytes());
            let writer = run_batch(compiled.clone(), input, Vec::new(), jobs, true, &ProgressBar::hidden()).expect("in-memory I/O");
            (String::from_utf8(writer.output).expect("UTF-8"), writer.totals.lines, writer.totals.errors, writer.totals.checksum)
        };
        let one = run(1);
        assert_eq!(one, run(2));
        assert_eq!(one, run(3));
        assert_eq!(one, run(16));
        let (text, lines, errors, _) = one;
        assert_eq!(lines, 1000 - 11);
        assert_eq!(errors, 11);
        let first: Vec<&str> = text.lines().take(2).collect();
        assert!(
            first[0].starts_with(
                r#"{"id":1,"ok":false,"phase":"case","line":1,"diags":[{"severity":"error","summary":"invalid variables: invalid JSON: "#
            ),
            "{}",
            first[0]
        );
        assert_eq!(first[1], r#"{"id":2,"ok":true,"type":"number","value":2}"#);
        assert!(text.contains("\n{\"id\":100,\"ok\":true,\"type\":\"number\",\"value\":198}\n"));
        assert!(!text.contains("\"id\":90,"), "blank line 90 has no result line");
    }
}
