//! `hclvm batch FILE --vars-jsonl IN`: compile once, evaluate once per input
//! line (a JSON object of variables), in parallel, and write one result line
//! per input line, in input order, in the result format of
//! `hclvm conformance` with `id` = the input line number.
//!
//! Work goes in blocks of lines: the main thread reads blocks, worker
//! threads take them from a shared queue as they become free (so a slow
//! block does not stall the others), and a writer thread writes the results
//! back in input order. Blank input lines are skipped (they produce no output line but
//! keep their number). A line that is not a JSON object, or whose
//! variables do not convert, gets a phase `case` result line; nothing ends
//! the batch early except an I/O error.

use super::declare::DeclareArgs;
use super::eval::{compile_source, display_name, DiagArgs, EvalOptionArgs, Failure};
use super::ParseAs;
use super::{fnv1a, Status, FNV_OFFSET, WORKER_STACK_SIZE};
use crate::api::result_format::{panic_message, write_case_error, write_panic};
use crate::api::{Compiled, Options, SourceKind};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, BufWriter, IsTerminal, Write};
use std::ops::Range;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Condvar, Mutex};
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

/// More threads than this only cost memory.
const MAX_JOBS: usize = 256;
/// Lines a job takes at a time, at most.
const BLOCK_LINES: usize = 64;
/// A block ends after the line that reaches this many bytes, so that few
/// long lines (a thousand users per line) still spread over the jobs.
const BLOCK_BYTES: usize = 16 << 10;

/// The results of one block of lines.
#[derive(Default)]
struct BlockOut {
    text: String,
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
    // The program is compiled on a thread of its own, which then stays idle
    // until the batch is over. The allocator places a thread's allocations
    // together: had this thread compiled it, the values this thread
    // allocates while it evaluates (it is one of the jobs) would share
    // cache lines with the program's constants and names, which every job
    // reads, and each of its writes would take those lines away from the
    // other cores (measured: --jobs 2 at 1.5-1.65x --jobs 1 instead of
    // 1.8x on the shared policy and render workloads).
    std::thread::scope(|scope| {
        let (compiled_tx, compiled_rx) = std::sync::mpsc::channel();
        let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
        let (file, output, declare) = (&args.file, &args.output, &args.declare);
        let options = args.funcs.apply(args.evaluation.apply(Options::new()));
        let fallback_options = options.clone();
        let src = &src;
        let keeper =
            std::thread::Builder::new().name("hclvm-compile".into()).stack_size(WORKER_STACK_SIZE).spawn_scoped(scope, move || {
                let _ = compiled_tx.send(compile_source(file, src, kind, output, declare, options));
                // Idle (allocating nothing) until the batch ends.
                let _ = done_rx.recv();
            });
        let compiled = match keeper {
            Ok(_) => compiled_rx.recv().unwrap_or(Err(Status::UsageOrIo)),
            // No thread for it: compiled here, which only costs scaling.
            Err(_) => compile_source(file, src, kind, output, declare, fallback_options),
        };
        let status = match compiled {
            Ok(compiled) => run_compiled(&args, &compiled),
            Err(status) => status,
        };
        drop(done_tx);
        status
    })
}

/// [`run`] once the program is compiled.
fn run_compiled(args: &BatchArgs, compiled: &Compiled) -> Status {
    let jobs = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).clamp(1, MAX_JOBS);

    let (input, input_len): (Box<dyn BufRead + Send>, Option<u64>) = if args.vars_jsonl == "-" {
        (Box::new(BufReader::with_capacity(1 << 20, std::io::stdin())), None)
    } else {
        match std::fs::File::open(&args.vars_jsonl) {
            Ok(f) => {
                let len = f.metadata().ok().map(|m| m.len());
                (Box::new(BufReader::with_capacity(1 << 20, f)), len)
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
        Ok(t) => t,
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

/// A block of input lines: their bytes and, per line, its number and range.
#[derive(Default)]
struct Block {
    bytes: Vec<u8>,
    lines: Vec<(usize, Range<usize>)>,
}

/// Reads input lines into blocks of at most [`BLOCK_LINES`] lines, ending
/// early after [`BLOCK_BYTES`].
struct BlockReader<R> {
    input: R,
    line_no: usize,
    consumed: u64,
}

impl<R: BufRead> BlockReader<R> {
    /// The next block; `None` at the end of the input.
    fn next_block(&mut self) -> std::io::Result<Option<Block>> {
        let mut block = Block::default();
        while block.lines.len() < BLOCK_LINES && block.bytes.len() < BLOCK_BYTES {
            let start = block.bytes.len();
            let n = self.input.read_until(b'\n', &mut block.bytes)?;
            if n == 0 {
                break;
            }
            self.consumed += n as u64;
            self.line_no += 1;
            let mut end = block.bytes.len();
            while end > start && matches!(block.bytes[end - 1], b'\n' | b'\r') {
                end -= 1;
            }
            if block.bytes[start..end].iter().all(u8::is_ascii_whitespace) {
                block.bytes.truncate(start);
                continue;
            }
            block.lines.push((self.line_no, start..end));
        }
        Ok(if block.lines.is_empty() { None } else { Some(block) })
    }
}

/// Writes result blocks and keeps the totals.
struct BlockWriter<W> {
    output: W,
    totals: Totals,
    checksum: bool,
}

impl<W: Write> BlockWriter<W> {
    fn write(&mut self, block: &BlockOut) -> std::io::Result<()> {
        self.output.write_all(block.text.as_bytes())?;
        self.totals.lines += block.lines;
        self.totals.errors += block.errors;
        if self.checksum {
            for line in block.text.lines() {
                checksum_line(&mut self.totals.checksum, line);
            }
        }
        Ok(())
    }
}

/// Reads, evaluates and writes every line; returns the totals. With one
/// job everything happens on this thread. With more, every job (this
/// thread among them) loops: take the next block from the input, evaluate
/// it, and write whatever blocks are ready in input order. Input and
/// output are each behind a mutex held only to read or write a block, so
/// in the steady state no thread sleeps or wakes another (no reader or
/// writer thread to hand blocks to). A bound on the blocks read ahead of
/// the output keeps memory bounded when one block is slow.
fn run_batch(
    compiled: &Compiled,
    input: impl BufRead + Send,
    output: impl Write + Send,
    jobs: usize,
    checksum: bool,
    progress: &ProgressBar,
) -> std::io::Result<Totals> {
    let mut reader = BlockReader { input, line_no: 0, consumed: 0 };
    let mut writer = BlockWriter { output, totals: Totals { lines: 0, errors: 0, checksum: FNV_OFFSET }, checksum };
    if jobs > 1 {
        return run_parallel(compiled, reader, writer, jobs, progress);
    }
    let mut spare = String::new();
    while let Some(block) = reader.next_block()? {
        let out = evaluate_block(compiled, &block, std::mem::take(&mut spare));
        writer.write(&out)?;
        spare = out.text;
        spare.clear();
        progress.set_position(reader.consumed);
    }
    writer.output.flush()?;
    Ok(writer.totals)
}

/// The input side of a parallel run.
struct Input<R> {
    reader: BlockReader<R>,
    /// Sequence number of the next block read.
    next_seq: usize,
    /// Set once the input is exhausted or failed (then `error`).
    done: bool,
    error: Option<std::io::Error>,
}

/// The output side of a parallel run: evaluated blocks wait in `pending`
/// until every block before them is written.
struct Output<W> {
    writer: BlockWriter<W>,
    pending: BTreeMap<usize, BlockOut>,
    /// Sequence number of the next block to write.
    next_seq: usize,
    error: Option<std::io::Error>,
    /// Emptied output buffers, reused by the jobs.
    spare: Vec<String>,
}

fn run_parallel<R: BufRead + Send, W: Write + Send>(
    compiled: &Compiled,
    reader: BlockReader<R>,
    writer: BlockWriter<W>,
    jobs: usize,
    progress: &ProgressBar,
) -> std::io::Result<Totals> {
    // Blocks read but not yet written, at most.
    let ahead = jobs * 8;
    let input = Mutex::new(Input { reader, next_seq: 0, done: false, error: None });
    let output = Mutex::new(Output { writer, pending: BTreeMap::new(), next_seq: 0, error: None, spare: Vec::new() });
    // Signalled whenever blocks are written (a job waiting for room to
    // read ahead) or the run stops.
    let written = Condvar::new();
    let job = || run_job(compiled, &input, &output, &written, ahead, progress);
    std::thread::scope(|scope| {
        // A job that cannot start only leaves more work for the others.
        for i in 1..jobs {
            let _ = std::thread::Builder::new().name(format!("hclvm-batch-{i}")).stack_size(WORKER_STACK_SIZE).spawn_scoped(scope, job);
        }
        job();
    });
    let input = input.into_inner().map_err(|_| std::io::Error::other("an evaluation thread failed"))?;
    let mut output = output.into_inner().map_err(|_| std::io::Error::other("an evaluation thread failed"))?;
    if let Some(e) = input.error.or(output.error) {
        return Err(e);
    }
    if output.next_seq < input.next_seq {
        return Err(std::io::Error::other("the evaluation threads stopped early"));
    }
    output.writer.output.flush()?;
    Ok(output.writer.totals)
}

/// One job of a parallel run: until the input ends or an I/O error stops
/// the run, take a block, evaluate it, write what is ready.
fn run_job<R: BufRead, W: Write>(
    compiled: &Compiled,
    input: &Mutex<Input<R>>,
    output: &Mutex<Output<W>>,
    written: &Condvar,
    ahead: usize,
    progress: &ProgressBar,
) {
    let mut spare = String::new();
    loop {
        // Wait for room: at most `ahead` blocks between the next one to
        // write and the next one to read (only a slow block makes a job
        // wait here).
        let next_seq = match input.lock() {
            Ok(i) if !i.done => i.next_seq,
            _ => break,
        };
        {
            let Ok(mut out) = output.lock() else { break };
            while out.error.is_none() && next_seq >= out.next_seq + ahead {
                out = match written.wait(out) {
                    Ok(o) => o,
                    Err(_) => return,
                };
            }
            if out.error.is_some() {
                break;
            }
            if spare.capacity() == 0 {
                spare = out.spare.pop().unwrap_or_default();
            }
        }
        let (seq, block) = {
            let Ok(mut i) = input.lock() else { break };
            if i.done {
                break;
            }
            match i.reader.next_block() {
                Ok(Some(block)) => {
                    let seq = i.next_seq;
                    i.next_seq += 1;
                    progress.set_position(i.reader.consumed);
                    (seq, block)
                }
                Ok(None) => {
                    i.done = true;
                    break;
                }
                Err(e) => {
                    i.done = true;
                    i.error = Some(e);
                    break;
                }
            }
        };
        let result = evaluate_block(compiled, &block, std::mem::take(&mut spare));
        drop(block);
        let Ok(mut out) = output.lock() else { break };
        out.pending.insert(seq, result);
        let before = out.next_seq;
        while out.error.is_none() {
            let next = out.next_seq;
            let Some(mut block_out) = out.pending.remove(&next) else { break };
            if let Err(e) = out.writer.write(&block_out) {
                out.error = Some(e);
                break;
            }
            out.next_seq += 1;
            block_out.text.clear();
            out.spare.push(block_out.text);
        }
        if out.next_seq != before || out.error.is_some() {
            written.notify_all();
        }
    }
    // Stopping (end of input or an error): wake jobs waiting for room.
    if let Ok(mut out) = output.lock() {
        if out.error.is_none() {
            if let Ok(i) = input.lock() {
                if i.error.is_some() {
                    out.error = Some(std::io::Error::other("read error"));
                }
            }
        }
        written.notify_all();
    }
}

fn evaluate_block(compiled: &Compiled, block: &Block, text: String) -> BlockOut {
    let mut out = BlockOut { text, lines: 0, errors: 0 };
    for (line_no, range) in &block.lines {
        let line = block.bytes.get(range.clone()).unwrap_or_default();
        if evaluate_line(compiled, line, *line_no, &mut out.text) {
            out.errors += 1;
        }
        out.lines += 1;
    }
    out
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
    fn long_lines_make_blocks_of_their_own() {
        let long = format!("{{\"s\": \"{}\"}}\n", "x".repeat(BLOCK_BYTES));
        let input = long.repeat(3) + "{\"s\": \"a\"}\n{\"s\": \"b\"}\n";
        let mut reader = BlockReader { input: input.as_bytes(), line_no: 0, consumed: 0 };
        let mut sizes = Vec::new();
        while let Some(block) = reader.next_block().expect("in-memory input") {
            sizes.push(block.lines.iter().map(|(n, _)| *n).collect::<Vec<_>>());
        }
        assert_eq!(sizes, [vec![1], vec![2], vec![3], vec![4, 5]]);
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
        let compiled = Compiled::expression("n", &crate::api::Options::new()).expect("valid expression");
        let input: String = (0..5000).map(|i| format!("{{\"n\": {i}}}\n")).collect();
        for jobs in [1, 2, 4] {
            let result =
                run_batch(&compiled, input.as_bytes(), std::io::BufWriter::with_capacity(16, Failing), jobs, false, &ProgressBar::hidden());
            assert_eq!(result.err().map(|e| e.to_string()), Some("disk full".to_string()), "{jobs} jobs");
        }
    }

    #[test]
    fn chunks_come_back_in_order_whatever_the_job_count() {
        let compiled = Compiled::expression("n * 2", &crate::api::Options::new()).expect("valid expression");
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
            let mut out = Vec::new();
            let totals = run_batch(&compiled, input.as_bytes(), &mut out, jobs, true, &ProgressBar::hidden()).expect("in-memory I/O");
            (String::from_utf8(out).expect("UTF-8"), totals.lines, totals.errors, totals.checksum)
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
