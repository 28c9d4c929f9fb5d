//! `hclvm conformance [CASES.jsonl|-]`: run conformance cases and print one
//! result line per case in the oracle's format. Exit 1 when some input line
//! was not a valid case (it still gets its phase `case` result line).
//!
//! Cases run on `--jobs` threads (default: available cores): a reader
//! thread hands out blocks of lines (as many as the input has at hand, up
//! to a limit), each job runs whole blocks, and this thread writes the
//! results in input order, flushing whenever the next result is not ready
//! yet (a result is never held back waiting for input, so a program
//! feeding cases one at a time gets each answer).

use super::Status;
use crate::api::result_format::panic_message;
use crate::conformance::{run_cases_with, run_line_into, RunOptions, RunStats};
use clap::Args;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::sync::mpsc::{self, TryRecvError};
use std::sync::{Arc, Mutex};

#[derive(Args, Debug)]
pub struct ConformanceArgs {
    /// Case file (JSON Lines); `-` or nothing reads standard input.
    #[arg(value_name = "CASES", default_value = "-")]
    cases: String,
    /// Evaluate `&&` and `||` as hcl ≥ v2.21 does (short-circuit), not as
    /// the reference (v2.20.0) does.
    #[arg(long)]
    short_circuit: bool,
    /// Worker threads (default: available cores).
    #[arg(long, short = 'j', value_name = "N")]
    jobs: Option<usize>,
}

/// More threads than this only cost memory.
const MAX_JOBS: usize = 256;
/// Blocks read ahead of the results written, per job: enough to keep every
/// job busy past a slow case, few enough to bound the memory held.
const AHEAD_PER_JOB: usize = 4;
/// Cases a block holds at most.
const BLOCK_LINES: usize = 64;
/// A block ends after the case that reaches this many bytes.
const BLOCK_BYTES: usize = 64 << 10;

pub fn run(args: ConformanceArgs) -> Status {
    let stdout = std::io::stdout();
    let output = BufWriter::with_capacity(1 << 16, stdout.lock());
    let run = RunOptions { short_circuit: args.short_circuit };
    let jobs = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).clamp(1, MAX_JOBS);
    let result = if args.cases == "-" {
        run_jobs(BufReader::with_capacity(BLOCK_BYTES, Named { inner: std::io::stdin(), name: "<stdin>".into() }), output, run, jobs)
    } else {
        match std::fs::File::open(&args.cases) {
            Ok(f) => run_jobs(BufReader::with_capacity(BLOCK_BYTES, Named { inner: f, name: args.cases.clone() }), output, run, jobs),
            Err(e) => {
                eprintln!("hclvm conformance: cannot read {}: {e}", args.cases);
                return Status::UsageOrIo;
            }
        }
    };
    match result {
        Ok(stats) if stats.malformed > 0 => {
            eprintln!("hclvm conformance: {} of {} input lines were not valid cases", stats.malformed, stats.cases);
            Status::ProblemsFound
        }
        Ok(_) => Status::Ok,
        Err(e) => {
            eprintln!("hclvm conformance: {e}");
            Status::UsageOrIo
        }
    }
}

/// Cases of one block: their line numbers and texts, one after another
/// in `bytes`. Blocks go back to the reader once run, and their buffers
/// are filled again: no regrowing them block after block.
#[derive(Default)]
struct Block {
    lines: Vec<(usize, std::ops::Range<usize>)>,
    bytes: Vec<u8>,
}

/// The result lines of one block (each with its newline) and its counts.
/// Texts go back to the jobs once written, for the same reason.
struct BlockOut {
    text: String,
    stats: RunStats,
}

/// Splits the input into blocks of case lines, scanning and copying each
/// byte once: complete lines straight from the reader's buffer into the
/// block, a line the buffer holds only part of through `partial`.
struct BlockReader<R> {
    input: BufReader<R>,
    /// The start of a line whose end is not read yet.
    partial: Vec<u8>,
    line_no: usize,
}

impl<R: Read> BlockReader<R> {
    /// Fills `block` (cleared first) with the next cases: up to
    /// [`BLOCK_LINES`] or [`BLOCK_BYTES`], and no more than the input has
    /// at hand (the block ends rather than wait for more input, so that a
    /// case fed alone is run alone). `false` at the end of the input.
    /// Blank lines are skipped (but counted), a trailing `\r` dropped.
    fn next_block(&mut self, block: &mut Block) -> std::io::Result<bool> {
        block.lines.clear();
        block.bytes.clear();
        while block.lines.len() < BLOCK_LINES && block.bytes.len() < BLOCK_BYTES {
            let mut available = self.input.buffer();
            if available.is_empty() {
                if !block.lines.is_empty() {
                    break;
                }
                available = self.input.fill_buf()?;
                if available.is_empty() {
                    // The end: a last line without a line break.
                    if !self.partial.is_empty() {
                        push_line(block, &mut self.line_no, &self.partial, &[]);
                        self.partial.clear();
                    }
                    break;
                }
            }
            match memchr::memchr(b'\n', available) {
                Some(end) => {
                    push_line(block, &mut self.line_no, &self.partial, &available[..end]);
                    self.partial.clear();
                    self.input.consume(end + 1);
                }
                None => {
                    let n = available.len();
                    self.partial.extend_from_slice(available);
                    self.input.consume(n);
                }
            }
        }
        Ok(!block.lines.is_empty())
    }
}

/// Counts the line `head` + `tail` (without its `\n`) and adds it to
/// `block` unless it is blank.
fn push_line(block: &mut Block, line_no: &mut usize, head: &[u8], tail: &[u8]) {
    *line_no += 1;
    let mut line = (head, tail);
    // A trailing `\r` (or several, as `next_case_line` drops them).
    loop {
        match line {
            (h, [t @ .., b'\r']) => line = (h, t),
            ([h @ .., b'\r'], []) => line = (h, &[]),
            _ => break,
        }
    }
    let (head, tail) = line;
    if head.iter().chain(tail).all(|b| b.is_ascii_whitespace()) {
        return;
    }
    let at = block.bytes.len();
    block.bytes.extend_from_slice(head);
    block.bytes.extend_from_slice(tail);
    block.lines.push((*line_no, at..block.bytes.len()));
}

/// Runs a block's cases, appending their result lines to `out.text`.
fn run_block(block: &Block, run: RunOptions, out: &mut BlockOut) {
    for (line_no, range) in &block.lines {
        let malformed = run_line_into(&block.bytes[range.clone()], *line_no, run, &mut out.text);
        out.text.push('\n');
        out.stats.cases += 1;
        out.stats.malformed += usize::from(malformed);
    }
}

/// What a job (or the reader, for a read error) sends back for the block
/// numbered `.0`.
type Done = (usize, std::io::Result<BlockOut>);

/// Runs the cases of `input` on `jobs` threads, writing each result line
/// to `output` in input order (one thread: [`run_cases_with`]). Cases go
/// in blocks (fewer hand-overs between threads), read, run and written in
/// turn. The reader and the jobs are threads of their own that end once
/// the input is read or the results are no longer wanted (after a write
/// error the reader may still be waiting for a line of its input; it is
/// left to end then).
fn run_jobs<R: std::io::Read + Send + 'static>(
    input: BufReader<R>,
    mut output: impl Write,
    run: RunOptions,
    jobs: usize,
) -> std::io::Result<RunStats> {
    if jobs == 1 {
        return run_cases_with(input, output, run);
    }
    let ahead = jobs * AHEAD_PER_JOB;
    // Room for `ahead` blocks between reading and writing: the reader takes
    // a permit per block, the writer gives one back per block written.
    let (permit_tx, permit_rx) = mpsc::sync_channel::<()>(ahead);
    let (block_tx, block_rx) = mpsc::sync_channel::<(usize, Block)>(ahead);
    let block_rx = Arc::new(Mutex::new(block_rx));
    let (done_tx, done_rx) = mpsc::channel::<Done>();
    // Buffers to fill again: blocks run (to the reader), texts written (to
    // the jobs).
    let (spare_block_tx, spare_block_rx) = mpsc::channel::<Block>();
    let (spare_text_tx, spare_text_rx) = mpsc::channel::<String>();
    let spare_text_rx = Arc::new(Mutex::new(spare_text_rx));
    let reader_done = done_tx.clone();
    spawn("hclvm-read", move || {
        let mut reader = BlockReader { input, partial: Vec::new(), line_no: 0 };
        let mut seq = 0;
        loop {
            let mut block = spare_block_rx.try_recv().unwrap_or_default();
            match reader.next_block(&mut block) {
                Ok(true) => {}
                Ok(false) => break,
                Err(e) => {
                    let _ = reader_done.send((seq, Err(e)));
                    break;
                }
            }
            if permit_tx.send(()).is_err() || block_tx.send((seq, block)).is_err() {
                break;
            }
            seq += 1;
        }
    })?;
    for i in 0..jobs {
        let (blocks, done, spare_blocks, spare_texts) = (block_rx.clone(), done_tx.clone(), spare_block_tx.clone(), spare_text_rx.clone());
        spawn(&format!("hclvm-job-{i}"), move || loop {
            let next = match blocks.lock() {
                Ok(blocks) => blocks.recv(),
                Err(_) => break,
            };
            let Ok((seq, block)) = next else { break };
            let text = spare_texts.lock().ok().and_then(|texts| texts.try_recv().ok()).unwrap_or_default();
            let mut out = BlockOut { text, stats: RunStats::default() };
            // A case's panics are its results (`run_line_counted`); one
            // that escapes is this block's error, not a block never done.
            let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run_block(&block, run, &mut out)))
                .map(|()| out)
                .map_err(|panic| std::io::Error::other(format!("a conformance job panicked: {}", panic_message(&*panic))));
            let _ = spare_blocks.send(block);
            if done.send((seq, out)).is_err() {
                break;
            }
        })?;
    }
    drop((done_tx, spare_block_tx));
    let mut stats = RunStats::default();
    let (mut pending, mut next) = (BTreeMap::new(), 0);
    loop {
        let (seq, result) = match done_rx.try_recv() {
            Ok(done) => done,
            Err(TryRecvError::Empty) => {
                // Nothing more is ready: what is written so far goes out
                // before waiting.
                output.flush()?;
                match done_rx.recv() {
                    Ok(done) => done,
                    Err(_) => break,
                }
            }
            Err(TryRecvError::Disconnected) => break,
        };
        pending.insert(seq, result);
        while let Some(result) = pending.remove(&next) {
            let mut block = result?;
            output.write_all(block.text.as_bytes())?;
            stats.cases += block.stats.cases;
            stats.malformed += block.stats.malformed;
            block.text.clear();
            let _ = spare_text_tx.send(block.text);
            next += 1;
            let _ = permit_rx.try_recv();
        }
    }
    output.flush()?;
    if !pending.is_empty() {
        return Err(std::io::Error::other("a conformance job stopped early"));
    }
    Ok(stats)
}

/// Starts a named thread with the CLI's worker stack (cases recurse as
/// deep as their nesting).
fn spawn(name: &str, f: impl FnOnce() + Send + 'static) -> std::io::Result<()> {
    std::thread::Builder::new().name(name.into()).stack_size(super::WORKER_STACK_SIZE).spawn(f).map(drop)
}

/// The case input, whose read errors name it (a directory, a vanished
/// file), unlike errors writing the results.
struct Named<R> {
    inner: R,
    name: String,
}

impl<R: Read> Read for Named<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.inner.read(buf).map_err(|e| std::io::Error::new(e.kind(), format!("cannot read {}: {e}", self.name)))
    }
}
