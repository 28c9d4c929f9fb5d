//! `hclvm conformance [CASES.jsonl|-]`: run conformance cases and print one
//! result line per case in the oracle's format. Exit 1 when some input line
//! was not a valid case (it still gets its phase `case` result line).
//!
//! Cases run on `--jobs` threads (default: available cores). Each job reads
//! a block of lines (as many as the input has at hand, up to a limit), runs
//! it, and writes the results in input order when their turn comes,
//! flushing whenever the next result is not ready yet (a result is never
//! held back waiting for input, so a program feeding cases one at a time
//! gets each answer).

use super::Status;
use crate::api::result_format::panic_message;
use crate::conformance::{run_cases_with, run_line_into, RunOptions, RunStats};
use clap::Args;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

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
    let output = BufWriter::with_capacity(1 << 16, std::io::stdout());
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

/// Runs the cases of `input` on `jobs` threads, writing each result line
/// to `output` in input order (one thread: [`run_cases_with`]).
///
/// Every job reads its next block itself (under the reader's lock), runs
/// it, and writes it if it is the next one due, with any later blocks
/// already done (under the output's lock). No thread hands work to another,
/// so a block costs no wake-up: on two cores, a reader and a writer thread
/// beside the jobs cost 15% more CPU time than one job alone, most of it in
/// the kernel's wake-ups. This thread only waits for the end. The jobs are
/// not joined: after a write error, a job may still be waiting for a line
/// of its input; it is left to end then.
fn run_jobs<R: Read + Send + 'static, W: Write + Send + 'static>(
    input: BufReader<R>,
    output: W,
    run: RunOptions,
    jobs: usize,
) -> std::io::Result<RunStats> {
    if jobs == 1 {
        return run_cases_with(input, output, run);
    }
    let shared = Arc::new(Shared {
        reader: Mutex::new(ReaderState { reader: BlockReader { input, partial: Vec::new(), line_no: 0 }, seq: 0 }),
        out: Mutex::new(OutState {
            output,
            pending: BTreeMap::new(),
            next: 0,
            end: None,
            read_error: None,
            stats: RunStats::default(),
            error: None,
            waiting_for_room: 0,
            spare_texts: Vec::new(),
        }),
        room: Condvar::new(),
        over: Condvar::new(),
        ahead: jobs * AHEAD_PER_JOB,
        run,
    });
    for i in 0..jobs {
        let shared = shared.clone();
        spawn(&format!("hclvm-job-{i}"), move || shared.job())?;
    }
    let mut out = shared.lock_out();
    loop {
        if let Some(e) = out.error.take() {
            return Err(e);
        }
        if out.end == Some(out.next) {
            out.output.flush()?;
            return match out.read_error.take() {
                Some(e) => Err(e),
                None => Ok(out.stats),
            };
        }
        out = shared.over.wait(out).unwrap_or_else(PoisonError::into_inner);
    }
}

/// What the jobs share.
struct Shared<R, W> {
    reader: Mutex<ReaderState<R>>,
    out: Mutex<OutState<W>>,
    /// Signalled when a block is written and a job waits for room to read
    /// ahead (`OutState::waiting_for_room`).
    room: Condvar,
    /// Signalled when the run is over (every block written, or an error),
    /// for the thread that started it. Not at every block: a wake-up is a
    /// system call, and waking that thread for nothing cost a context
    /// switch per block.
    over: Condvar,
    /// Blocks read ahead of the next one due at most: enough to keep every
    /// job busy past a slow case, few enough to bound the memory held.
    ahead: usize,
    run: RunOptions,
}

struct ReaderState<R> {
    reader: BlockReader<R>,
    /// The number of the next block read.
    seq: usize,
}

struct OutState<W> {
    output: W,
    /// Blocks done before the one due, by number.
    pending: BTreeMap<usize, std::io::Result<BlockOut>>,
    /// The number of the next block due.
    next: usize,
    /// The number of blocks, once the input is read to its end or to an
    /// error.
    end: Option<usize>,
    /// The error that ended the input: the run's, once every block before
    /// it is written.
    read_error: Option<std::io::Error>,
    stats: RunStats,
    /// The error that stopped the run: writing, or a block's panic in its
    /// turn.
    error: Option<std::io::Error>,
    /// Jobs waiting on `Shared::room`.
    waiting_for_room: usize,
    /// Texts of blocks written, to fill again: a text grown anew for every
    /// block faults in fresh pages as it grows.
    spare_texts: Vec<String>,
}

impl<R: Read, W: Write> Shared<R, W> {
    /// A job: blocks read, run and delivered until the input ends or the
    /// run stops. The block and text buffers are filled again block after
    /// block.
    fn job(&self) {
        // A panic outside a block's run (reading, writing) would leave its
        // block never written and this thread's caller waiting for it: it
        // ends the run instead.
        if let Err(panic) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.run_blocks())) {
            let e = std::io::Error::other(format!("a conformance job stopped: {}", panic_message(&*panic)));
            self.stop(&mut self.lock_out(), e);
        }
    }

    fn run_blocks(&self) {
        let mut block = Block::default();
        let mut text = String::new();
        while let Some(seq) = self.read_block(&mut block) {
            let mut out = BlockOut { text: std::mem::take(&mut text), stats: RunStats::default() };
            // A case's panics are its results (`run_line_counted`); one
            // that escapes is this block's result: an error, reported once
            // the blocks before it are written.
            let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run_block(&block, self.run, &mut out)))
                .map(|()| out)
                .map_err(|panic| std::io::Error::other(format!("a conformance job panicked: {}", panic_message(&*panic))));
            text = self.deliver(seq, ran);
        }
    }

    /// Reads the next block into `block` once there is room for it; its
    /// number, or `None` at the end of the input or when the run stopped.
    fn read_block(&self, block: &mut Block) -> Option<usize> {
        let mut reader = self.reader.lock().unwrap_or_else(PoisonError::into_inner);
        let mut out = self.lock_out();
        while out.error.is_none() && out.end.is_none() && reader.seq - out.next >= self.ahead {
            out.waiting_for_room += 1;
            out = self.room.wait(out).unwrap_or_else(PoisonError::into_inner);
            out.waiting_for_room -= 1;
        }
        if out.error.is_some() || out.end.is_some() {
            return None;
        }
        // The input is read without the output's lock: a job that finishes
        // meanwhile writes its block, even while this one waits for input.
        drop(out);
        match reader.reader.next_block(block) {
            Ok(true) => {
                reader.seq += 1;
                Some(reader.seq - 1)
            }
            Ok(false) => {
                let mut out = self.lock_out();
                out.end = Some(reader.seq);
                self.signal(&out);
                None
            }
            Err(e) => {
                // The error ends the run in its turn, once the blocks
                // before it are written.
                let mut out = self.lock_out();
                out.end = Some(reader.seq);
                out.read_error = Some(e);
                self.signal(&out);
                None
            }
        }
    }

    /// Writes block `seq`'s results if it is the next due, with the blocks
    /// after it already done; else keeps them for their turn. Returns a
    /// cleared text buffer for the job's next block.
    fn deliver(&self, seq: usize, done: std::io::Result<BlockOut>) -> String {
        let mut out = self.lock_out();
        if seq != out.next {
            out.pending.insert(seq, done);
            return out.spare_texts.pop().unwrap_or_default();
        }
        let mut block = Some(done);
        while let Some(done) = block {
            let o = &mut *out;
            let mut done = match done.and_then(|done| o.output.write_all(done.text.as_bytes()).map(|()| done)) {
                Ok(done) => done,
                Err(e) => {
                    self.stop(o, e);
                    return String::new();
                }
            };
            o.stats.cases += done.stats.cases;
            o.stats.malformed += done.stats.malformed;
            o.next += 1;
            done.text.clear();
            o.spare_texts.push(done.text);
            block = o.pending.remove(&o.next);
        }
        // Nothing more is ready: what is written so far goes out before
        // the next block is done (a case fed alone gets its answer).
        if let Err(e) = out.output.flush() {
            self.stop(&mut out, e);
        }
        self.signal(&out);
        out.spare_texts.pop().unwrap_or_default()
    }

    /// Ends the run with `e` (the first error is the one reported).
    fn stop(&self, out: &mut OutState<W>, e: std::io::Error) {
        out.error.get_or_insert(e);
        self.signal(out);
    }

    /// Wakes the jobs waiting for room, if any (a wake-up is a system
    /// call: none when nobody waits), and the starting thread once the run
    /// is over.
    fn signal(&self, out: &OutState<W>) {
        if out.waiting_for_room > 0 {
            self.room.notify_all();
        }
        if out.error.is_some() || out.end == Some(out.next) {
            self.over.notify_one();
        }
    }

    fn lock_out(&self) -> MutexGuard<'_, OutState<W>> {
        self.out.lock().unwrap_or_else(PoisonError::into_inner)
    }
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
