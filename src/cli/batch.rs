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

use super::eval::{compile_source, display_name, DiagArgs, Failure, ParseAs};
use super::{Status, WORKER_STACK_SIZE};
use crate::api::{Compiled, SourceKind};
use crate::conformance::write_simple_diag;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{BufRead, BufReader, BufWriter, IsTerminal, Write};
use std::ops::Range;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::collections::BTreeMap;
use std::sync::{mpsc, Mutex};
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
    output: DiagArgs,
}

/// More threads than this only cost memory.
const MAX_JOBS: usize = 256;
/// Lines a worker takes at a time.
const BLOCK_LINES: usize = 64;

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
    let compiled = match compile_source(&args.file, &src, kind, &args.output) {
        Ok(c) => c,
        Err(status) => return status,
    };
    let jobs = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).clamp(1, MAX_JOBS);

    let (input, input_len): (Box<dyn BufRead>, Option<u64>) = if args.vars_jsonl == "-" {
        (Box::new(std::io::stdin().lock()), None)
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
    let totals = match run_batch(&compiled, input, BufWriter::with_capacity(1 << 20, output), jobs, args.checksum, &progress) {
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

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// Adds one result line to the checksum `hclvm bench` and the reference's
/// bench mode compute: FNV-1a 64 over the line without its `"id":N,`
/// member, followed by a newline.
fn checksum_line(hash: &mut u64, line: &str) {
    let rest = line.strip_prefix("{\"id\":").and_then(|r| r.split_once(',')).map_or(line, |(_, rest)| rest);
    fnv1a(hash, b"{");
    fnv1a(hash, rest.as_bytes());
    fnv1a(hash, b"\n");
}

fn fnv1a(hash: &mut u64, bytes: &[u8]) {
    for b in bytes {
        *hash ^= u64::from(*b);
        *hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
}

/// A block of input lines: their bytes and, per line, its number and range.
#[derive(Default)]
struct Block {
    bytes: Vec<u8>,
    lines: Vec<(usize, Range<usize>)>,
}

/// Reads input lines into blocks of [`BLOCK_LINES`].
struct BlockReader<R> {
    input: R,
    line_no: usize,
    consumed: u64,
}

impl<R: BufRead> BlockReader<R> {
    /// The next block; `None` at the end of the input.
    fn next_block(&mut self) -> std::io::Result<Option<Block>> {
        let mut block = Block::default();
        while block.lines.len() < BLOCK_LINES {
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
/// job everything happens on this thread. With more, this thread reads,
/// `jobs` workers evaluate blocks as they come, and a writer thread puts
/// the results back in input order; a fixed number of blocks in flight
/// bounds memory even when one block is slow.
fn run_batch(
    compiled: &Compiled,
    input: impl BufRead,
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

fn run_parallel<R: BufRead, W: Write + Send>(
    compiled: &Compiled,
    mut reader: BlockReader<R>,
    mut writer: BlockWriter<W>,
    jobs: usize,
    progress: &ProgressBar,
) -> std::io::Result<Totals> {
    let in_flight = jobs * 8;
    // Output buffers go back to the workers once written, so that block
    // buffers are not allocated in one thread and freed in another.
    let spare_texts: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let spare_texts = &spare_texts;
    let (work_tx, work_rx) = mpsc::sync_channel::<(usize, Block)>(in_flight);
    let work_rx = Mutex::new(work_rx);
    let (done_tx, done_rx) = mpsc::channel::<(usize, BlockOut)>();
    // One token per block allowed in flight; the writer hands a token back
    // for every block it has written.
    let (token_tx, token_rx) = mpsc::sync_channel::<()>(in_flight);
    for _ in 0..in_flight {
        let _ = token_tx.send(());
    }
    std::thread::scope(|scope| {
        let write_thread = std::thread::Builder::new().name("hclvm-batch-writer".into()).spawn_scoped(scope, move || {
            let mut pending: BTreeMap<usize, BlockOut> = BTreeMap::new();
            let mut next = 0usize;
            for (seq, out) in done_rx {
                pending.insert(seq, out);
                while let Some(out) = pending.remove(&next) {
                    writer.write(&out)?;
                    next += 1;
                    let mut text = out.text;
                    text.clear();
                    if let Ok(mut spare) = spare_texts.lock() {
                        spare.push(text);
                    }
                    let _ = token_tx.send(());
                }
            }
            writer.output.flush()?;
            Ok::<_, std::io::Error>((writer.totals, next))
        });
        let write_thread = match write_thread {
            Ok(h) => h,
            Err(e) => return Err(e),
        };
        let mut workers = 0usize;
        for i in 0..jobs {
            let done_tx = done_tx.clone();
            let work_rx = &work_rx;
            let spawned = std::thread::Builder::new().name(format!("hclvm-batch-{i}")).stack_size(WORKER_STACK_SIZE).spawn_scoped(scope, move || loop {
                // The lock is held only while waiting for the next block.
                let next = match work_rx.lock() {
                    Ok(rx) => rx.recv(),
                    Err(_) => break,
                };
                let Ok((seq, block)) = next else { break };
                let text = spare_texts.lock().ok().and_then(|mut spare| spare.pop()).unwrap_or_default();
                if done_tx.send((seq, evaluate_block(compiled, &block, text))).is_err() {
                    break;
                }
            });
            workers += usize::from(spawned.is_ok());
        }
        drop(done_tx);

        let mut read_error = None;
        let mut seq = 0usize;
        loop {
            // No worker (none could start) or no writer left: stop reading.
            if workers == 0 || token_rx.recv().is_err() {
                break;
            }
            match reader.next_block() {
                Ok(Some(block)) => {
                    if work_tx.send((seq, block)).is_err() {
                        break;
                    }
                    seq += 1;
                    progress.set_position(reader.consumed);
                }
                Ok(None) => break,
                Err(e) => {
                    read_error = Some(e);
                    break;
                }
            }
        }
        drop(work_tx);
        let (totals, written) = match write_thread.join() {
            Ok(result) => result?,
            Err(panic) => std::panic::resume_unwind(panic),
        };
        if let Some(e) = read_error {
            return Err(e);
        }
        if written < seq || workers == 0 {
            return Err(std::io::Error::other("the evaluation threads stopped early"));
        }
        Ok(totals)
    })
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
fn evaluate_line(compiled: &Compiled, line: &[u8], line_no: usize, out: &mut String) -> bool {
    out.push_str("{\"id\":");
    out.push_str(&line_no.to_string());
    out.push(',');
    let result = catch_unwind(AssertUnwindSafe(|| match std::str::from_utf8(line) {
        Ok(text) => compiled.evaluate_json_str(text, true).map_err(|e| e.to_string()),
        Err(e) => Err(format!("invalid variables: the line is not UTF-8 ({e})")),
    }));
    let failed = match result {
        Ok(Ok(evaluation)) => {
            out.push_str(&evaluation.result_fields());
            evaluation.has_errors()
        }
        Ok(Err(message)) => {
            out.push_str("\"ok\":false,\"phase\":\"case\",\"line\":");
            out.push_str(&line_no.to_string());
            out.push_str(",\"diags\":");
            write_simple_diag(out, &message, "");
            true
        }
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            out.push_str("\"ok\":false,\"phase\":\"panic\",\"diags\":");
            write_simple_diag(out, &format!("panic: {what}"), "");
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
        assert_eq!(one, run(3));
        let (text, lines, errors, _) = one;
        assert_eq!(lines, 1000 - 11);
        assert_eq!(errors, 11);
        let first: Vec<&str> = text.lines().take(2).collect();
        assert!(first[0].starts_with(r#"{"id":1,"ok":false,"phase":"case","line":1,"diags":[{"severity":"error","summary":"invalid variables: invalid JSON: "#), "{}", first[0]);
        assert_eq!(first[1], r#"{"id":2,"ok":true,"type":"number","value":2}"#);
        assert!(text.contains("\n{\"id\":100,\"ok\":true,\"type\":\"number\",\"value\":198}\n"));
        assert!(!text.contains("\"id\":90,"), "blank line 90 has no result line");
    }
}
