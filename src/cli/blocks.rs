//! Runs a stream of input lines in blocks on several threads, writing the
//! blocks' results in input order: the one runner of `hclvm conformance`
//! (a case per line) and `hclvm batch` (a variable set per line).
//!
//! Every job reads its next block itself (under the reader's lock), runs
//! it, and writes it if it is the next one due, with any later blocks
//! already done (under the output's lock). No thread hands work to
//! another, so a block costs no wake-up: on two cores, a reader and a
//! writer thread beside the jobs cost 15% more CPU time than one job alone,
//! most of it in the kernel's wake-ups. A block holds what the input has at
//! hand (up to a limit) and what is written goes out whenever the next
//! block is not done yet, so a program feeding lines one at a time gets
//! each answer. The thread that starts a run only waits for its end; the
//! jobs are not joined, so after a write error a job still waiting for a
//! line of its input is left to end then, instead of holding the run
//! (once a run has stopped, its jobs read and write nothing more). A job
//! that cannot be started (no memory for its stack) leaves its share to
//! the others.

use crate::api::result_format::panic_message;
use crate::conformance::line_content;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read};
use std::ops::Range;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

/// Lines of one block: their numbers and ranges in `bytes`, one after
/// another. A job fills its block again and again (no regrowing it).
#[derive(Default)]
pub(super) struct Block {
    pub bytes: Vec<u8>,
    pub lines: Vec<(usize, Range<usize>)>,
}

/// More threads than this only cost memory.
const MAX_JOBS: usize = 256;

/// The number of jobs for `--jobs` (default: the available cores), within
/// 1 and [`MAX_JOBS`].
pub(super) fn job_count(asked: Option<usize>) -> usize {
    asked.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).clamp(1, MAX_JOBS)
}

/// The error of a panic: `what` panicked, with its message.
fn panic_error(what: &str, payload: &(dyn std::any::Any + Send)) -> std::io::Error {
    std::io::Error::other(format!("{what}: {}", panic_message(payload)))
}

/// The size of blocks and how far reading may run ahead of writing.
#[derive(Clone, Copy)]
pub(super) struct BlockLimits {
    /// Lines a block holds at most.
    pub lines: usize,
    /// A block ends after the line that reaches this many bytes (also the
    /// size of the reader's buffer, at least 8 KiB).
    pub bytes: usize,
    /// Blocks read ahead of the next one due, per job: enough to keep every
    /// job busy past a slow block, few enough to bound the memory held.
    pub ahead_per_job: usize,
}

/// Where the results of blocks go, in input order.
pub(super) trait BlockSink: Send + 'static {
    /// What running a block counts besides its text.
    type Counts: Send + 'static;
    fn write_block(&mut self, text: &str, counts: Self::Counts) -> std::io::Result<()>;
    fn flush(&mut self) -> std::io::Result<()>;
}

/// Splits the input into blocks of lines, scanning and copying each byte
/// once: complete lines straight from the reader's buffer into the block,
/// a line the buffer holds only part of through `partial`. Blank lines are
/// skipped (but counted), trailing `\r`s dropped.
struct BlockReader<R> {
    input: BufReader<R>,
    /// The start of a line whose end is not read yet.
    partial: Vec<u8>,
    line_no: usize,
    /// Bytes read so far (for a progress bar).
    consumed: u64,
    limits: BlockLimits,
}

impl<R: Read> BlockReader<R> {
    /// Fills `block` (cleared first) with the next lines: up to the limits,
    /// and no more than the input has at hand (the block ends rather than
    /// wait for more input, so that a line fed alone is run alone).
    /// `false` at the end of the input.
    fn next_block(&mut self, block: &mut Block) -> std::io::Result<bool> {
        block.lines.clear();
        block.bytes.clear();
        while block.lines.len() < self.limits.lines && block.bytes.len() < self.limits.bytes {
            let mut available = self.input.buffer();
            if available.is_empty() {
                if !block.lines.is_empty() {
                    break;
                }
                available = match self.input.fill_buf() {
                    Ok(available) => available,
                    // A signal interrupted the read: read again.
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(e),
                };
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
                    self.consumed += end as u64 + 1;
                }
                None => {
                    let n = available.len();
                    self.partial.extend_from_slice(available);
                    self.input.consume(n);
                    self.consumed += n as u64;
                }
            }
        }
        Ok(!block.lines.is_empty())
    }
}

/// Counts the line `head` + `tail` (without its `\n`) and adds its
/// content to `block` unless it is blank ([`line_content`]).
fn push_line(block: &mut Block, line_no: &mut usize, head: &[u8], tail: &[u8]) {
    *line_no += 1;
    let at = block.bytes.len();
    block.bytes.extend_from_slice(head);
    block.bytes.extend_from_slice(tail);
    match line_content(&block.bytes[at..]).map(<[u8]>::len) {
        Some(len) => {
            block.bytes.truncate(at + len);
            block.lines.push((*line_no, at..at + len));
        }
        None => block.bytes.truncate(at),
    }
}

/// Runs every line of `input` in blocks on `jobs` threads: `run` appends a
/// block's result text to the buffer it is given and returns its counts,
/// and `sink` gets the blocks in input order. `on_read` is told the bytes
/// read so far after each block read. Returns the sink once every block is
/// written; a read or write error, or a block whose run panicked, ends the
/// run with an error (the blocks before it written first). With one job
/// everything runs on this thread.
pub(super) fn run_blocks<R, S, F, P>(input: R, limits: BlockLimits, sink: S, jobs: usize, run: F, on_read: P) -> std::io::Result<S>
where
    R: Read + Send + 'static,
    S: BlockSink,
    F: Fn(&Block, &mut String) -> S::Counts + Send + Sync + 'static,
    P: Fn(u64) + Send + Sync + 'static,
{
    let reader = BlockReader {
        input: BufReader::with_capacity(limits.bytes.max(8 << 10), input),
        partial: Vec::new(),
        line_no: 0,
        consumed: 0,
        limits,
    };
    if jobs <= 1 {
        return run_here(reader, sink, &run, &on_read);
    }
    let shared = Arc::new(Shared {
        reader: Mutex::new(ReaderState { reader, seq: 0 }),
        out: Mutex::new(OutState {
            sink: Some(sink),
            pending: BTreeMap::new(),
            next: 0,
            end: None,
            read_error: None,
            error: None,
            stopped: false,
            waiting_for_room: 0,
            spare_texts: Vec::new(),
        }),
        room: Condvar::new(),
        over: Condvar::new(),
        ahead: jobs * limits.ahead_per_job.max(1),
        run,
        on_read,
    });
    // A job that cannot start (no memory for its stack) leaves more work
    // for the others; with none started, this thread is the job.
    let mut started = 0;
    for i in 0..jobs {
        let shared = shared.clone();
        let job = std::thread::Builder::new().name(format!("hclvm-job-{i}")).stack_size(super::WORKER_STACK_SIZE);
        if job.spawn(move || shared.job()).is_ok() {
            started += 1;
        }
    }
    if started == 0 {
        shared.job();
    }
    let mut out = shared.lock_out();
    loop {
        if out.stopped {
            // `stopped` stays set: the jobs see it and end.
            return Err(out.error.take().unwrap_or_else(|| std::io::Error::other("the run stopped")));
        }
        if out.end == Some(out.next) {
            // The jobs have ended or are about to (the input is read to its
            // end, every block written): the sink is theirs no more.
            let mut sink = out.sink.take().ok_or_else(|| std::io::Error::other("the results were taken twice"))?;
            sink.flush()?;
            return match out.read_error.take() {
                Some(e) => Err(e),
                None => Ok(sink),
            };
        }
        out = shared.over.wait(out).unwrap_or_else(PoisonError::into_inner);
    }
}

/// [`run_blocks`] with one job, on this thread.
fn run_here<R: Read, S: BlockSink, F, P>(mut reader: BlockReader<R>, mut sink: S, run: &F, on_read: &P) -> std::io::Result<S>
where
    F: Fn(&Block, &mut String) -> S::Counts,
    P: Fn(u64),
{
    let mut block = Block::default();
    let mut text = String::new();
    // Panics are errors as with several jobs: a block's run's, and any
    // other (reading, writing).
    let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| -> std::io::Result<()> {
        while reader.next_block(&mut block)? {
            on_read(reader.consumed);
            text.clear();
            let counts = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(&block, &mut text)))
                .map_err(|panic| panic_error("a job panicked", &*panic))?;
            sink.write_block(&text, counts)?;
            // Written before the next block is read (which may wait for
            // input).
            sink.flush()?;
        }
        Ok(())
    }));
    match ran {
        Ok(Ok(())) => Ok(sink),
        Ok(Err(e)) => Err(e),
        Err(panic) => Err(panic_error("a job stopped", &*panic)),
    }
}

/// What the jobs of a run share.
struct Shared<R, S: BlockSink, F, P> {
    reader: Mutex<ReaderState<R>>,
    out: Mutex<OutState<S>>,
    /// Signalled when a block is written and a job waits for room to read
    /// ahead (`OutState::waiting_for_room`).
    room: Condvar,
    /// Signalled when the run is over (every block written, or an error),
    /// for the thread that started it. Not at every block: a wake-up is a
    /// system call, and waking that thread for nothing cost a context
    /// switch per block.
    over: Condvar,
    /// Blocks read ahead of the next one due, at most.
    ahead: usize,
    run: F,
    on_read: P,
}

struct ReaderState<R> {
    reader: BlockReader<R>,
    /// The number of the next block read.
    seq: usize,
}

/// A block run: its text and counts, or the error of its run.
type Done<C> = std::io::Result<(String, C)>;

struct OutState<S: BlockSink> {
    /// Taken by the thread that started the run once it is over.
    sink: Option<S>,
    /// Blocks done before the one due, by number.
    pending: BTreeMap<usize, Done<S::Counts>>,
    /// The number of the next block due.
    next: usize,
    /// The number of blocks, once the input is read to its end or to an
    /// error.
    end: Option<usize>,
    /// The error that ended the input: the run's, once every block before
    /// it is written.
    read_error: Option<std::io::Error>,
    /// The error that stopped the run: writing or flushing, a block's
    /// panic in its turn, a panic outside a block's run.
    error: Option<std::io::Error>,
    /// Set with `error`, and never cleared: the jobs stop reading and
    /// writing (the starting thread takes `error` to return it).
    stopped: bool,
    /// Jobs waiting on `Shared::room`.
    waiting_for_room: usize,
    /// Texts of blocks written, to fill again: a text grown anew for every
    /// block faults in fresh pages as it grows.
    spare_texts: Vec<String>,
}

impl<R, S, F, P> Shared<R, S, F, P>
where
    R: Read,
    S: BlockSink,
    F: Fn(&Block, &mut String) -> S::Counts,
    P: Fn(u64),
{
    /// A job. A panic outside a block's run (reading, writing) would leave
    /// its block never written and the starting thread waiting for it: it
    /// ends the run instead.
    fn job(&self) {
        if let Err(panic) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.job_loop())) {
            let e = panic_error("a job stopped", &*panic);
            self.stop(&mut self.lock_out(), e);
        }
    }

    /// Blocks read, run and delivered until the input ends or the run
    /// stops. The block and text buffers are filled again block after
    /// block.
    fn job_loop(&self) {
        let mut block = Block::default();
        let mut text = String::new();
        while let Some(seq) = self.read_block(&mut block) {
            text.clear();
            // A block whose run panics (its lines' own panics are caught
            // where they are run) is an error, reported once the blocks
            // before it are written.
            let done = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (self.run)(&block, &mut text)))
                .map_err(|panic| panic_error("a job panicked", &*panic));
            text = self.deliver(seq, done.map(|counts| (std::mem::take(&mut text), counts)));
        }
    }

    /// Reads the next block into `block` once there is room for it; its
    /// number, or `None` at the end of the input or when the run stopped.
    fn read_block(&self, block: &mut Block) -> Option<usize> {
        let mut reader = self.reader.lock().unwrap_or_else(PoisonError::into_inner);
        let mut out = self.lock_out();
        while !out.stopped && out.end.is_none() && reader.seq - out.next >= self.ahead {
            out.waiting_for_room += 1;
            out = self.room.wait(out).unwrap_or_else(PoisonError::into_inner);
            out.waiting_for_room -= 1;
        }
        if out.stopped || out.end.is_some() {
            return None;
        }
        // The input is read without the output's lock: a job that finishes
        // meanwhile writes its block, even while this one waits for input.
        drop(out);
        match reader.reader.next_block(block) {
            Ok(true) => {
                reader.seq += 1;
                (self.on_read)(reader.reader.consumed);
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

    /// Writes block `seq` if it is the next due, with the blocks after it
    /// already done; else keeps it for its turn. Returns an empty text
    /// buffer for the job's next block.
    fn deliver(&self, seq: usize, done: Done<S::Counts>) -> String {
        let mut out = self.lock_out();
        if out.stopped {
            // Nothing is written once the run has stopped.
            return String::new();
        }
        if seq != out.next {
            out.pending.insert(seq, done);
            return out.spare_texts.pop().unwrap_or_default();
        }
        let mut block = Some(done);
        while let Some(done) = block {
            let o = &mut *out;
            let written = done.and_then(|(mut text, counts)| match o.sink.as_mut() {
                Some(sink) => sink.write_block(&text, counts).map(|()| {
                    text.clear();
                    text
                }),
                None => Err(std::io::Error::other("the run is over")),
            });
            match written {
                Ok(text) => o.spare_texts.push(text),
                Err(e) => {
                    self.stop(o, e);
                    return String::new();
                }
            }
            o.next += 1;
            block = o.pending.remove(&o.next);
        }
        // Nothing more is ready: what is written so far goes out before
        // the next block is done (a line fed alone gets its answer).
        if let Some(Err(e)) = out.sink.as_mut().map(BlockSink::flush) {
            self.stop(&mut out, e);
        }
        self.signal(&out);
        out.spare_texts.pop().unwrap_or_default()
    }

    /// Ends the run with `e` (the first error is the one reported).
    fn stop(&self, out: &mut OutState<S>, e: std::io::Error) {
        out.error.get_or_insert(e);
        out.stopped = true;
        self.signal(out);
    }

    /// Wakes the jobs waiting for room, if any (a wake-up is a system
    /// call: none when nobody waits), and the starting thread once the run
    /// is over.
    fn signal(&self, out: &OutState<S>) {
        if out.waiting_for_room > 0 {
            self.room.notify_all();
        }
        if out.stopped || out.end == Some(out.next) {
            self.over.notify_one();
        }
    }

    fn lock_out(&self) -> MutexGuard<'_, OutState<S>> {
        self.out.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: BlockLimits = BlockLimits { lines: 3, bytes: 16, ahead_per_job: 1 };

    fn blocks(input: &'static [u8]) -> Vec<Vec<(usize, String)>> {
        let mut reader = BlockReader { input: BufReader::new(input), partial: Vec::new(), line_no: 0, consumed: 0, limits: LIMITS };
        let mut block = Block::default();
        let mut out = Vec::new();
        while reader.next_block(&mut block).expect("in-memory input") {
            out.push(block.lines.iter().map(|(n, r)| (*n, String::from_utf8_lossy(&block.bytes[r.clone()]).into_owned())).collect());
        }
        assert_eq!(reader.consumed, input.len() as u64);
        out
    }

    #[test]
    fn blocks_end_at_their_limits_and_skip_blank_lines() {
        let long = "x".repeat(20);
        let input = format!("{long}\n{long}\na\r\n\n  \nb\nc\nd\ne");
        let input: &'static [u8] = Box::leak(input.into_bytes().into_boxed_slice());
        let got = blocks(input);
        let line = |n: usize, s: &str| (n, s.to_string());
        assert_eq!(
            got,
            [
                // A long line makes a block of its own; blank lines keep
                // their numbers; `\r` is dropped; a block holds 3 lines.
                vec![line(1, &long)],
                vec![line(2, &long)],
                vec![line(3, "a"), line(6, "b"), line(7, "c")],
                // A line without its line break is complete only at the
                // end of the input: the block before it does not wait.
                vec![line(8, "d")],
                vec![line(9, "e")],
            ]
        );
    }

    /// The results of one run of `n` lines on `jobs` jobs, with a block's
    /// run panicking at `panic_at` (a line number).
    fn run_lines(n: usize, jobs: usize, panic_at: Option<usize>) -> std::io::Result<String> {
        struct Collect(String);
        impl BlockSink for Collect {
            type Counts = usize;
            fn write_block(&mut self, text: &str, _: usize) -> std::io::Result<()> {
                self.0.push_str(text);
                Ok(())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let input: String = (1..=n).map(|i| format!("{i}\n")).collect();
        let run = move |block: &Block, text: &mut String| {
            for (line_no, _) in &block.lines {
                assert!(Some(*line_no) != panic_at, "line {line_no}");
                text.push_str(&format!("<{line_no}>"));
            }
            block.lines.len()
        };
        let limits = BlockLimits { lines: 4, bytes: 1 << 10, ahead_per_job: 2 };
        run_blocks(std::io::Cursor::new(input.into_bytes()), limits, Collect(String::new()), jobs, run, |_| {}).map(|c| c.0)
    }

    #[test]
    fn results_come_in_input_order_whatever_the_job_count() {
        let want: String = (1..=1000).map(|i| format!("<{i}>")).collect();
        for jobs in [1, 2, 3, 8] {
            assert_eq!(run_lines(1000, jobs, None).expect("in-memory I/O"), want, "{jobs} jobs");
        }
    }

    /// A sink whose writes or flushes fail from the `fail_at`-th on,
    /// counting the writes it is asked for.
    struct Failing {
        writes: Arc<std::sync::atomic::AtomicUsize>,
        fail_at: usize,
        flush_fails: bool,
    }

    impl BlockSink for Failing {
        type Counts = ();
        fn write_block(&mut self, _: &str, _: ()) -> std::io::Result<()> {
            let n = self.writes.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
            if !self.flush_fails && n >= self.fail_at {
                return Err(std::io::Error::other("disk full"));
            }
            Ok(())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            if self.flush_fails && self.writes.load(std::sync::atomic::Ordering::SeqCst) >= self.fail_at {
                return Err(std::io::Error::other("broken pipe"));
            }
            Ok(())
        }
    }

    #[test]
    fn nothing_is_written_once_a_write_or_flush_failed() {
        let input: String = (1..=20_000).map(|i| format!("{i}\n")).collect();
        for flush_fails in [false, true] {
            for jobs in [1, 2, 4] {
                let writes = Arc::new(std::sync::atomic::AtomicUsize::new(0));
                let sink = Failing { writes: writes.clone(), fail_at: 3, flush_fails };
                let limits = BlockLimits { lines: 4, bytes: 1 << 10, ahead_per_job: 2 };
                let run = |block: &Block, _: &mut String| {
                    // Slow enough that the other jobs are still at work
                    // when the run stops.
                    std::thread::sleep(std::time::Duration::from_micros(50 * block.lines.len() as u64));
                };
                let result = run_blocks(std::io::Cursor::new(input.clone().into_bytes()), limits, sink, jobs, run, |_| {});
                assert!(result.is_err(), "flush fails: {flush_fails}, {jobs} jobs");
                let at_return = writes.load(std::sync::atomic::Ordering::SeqCst);
                std::thread::sleep(std::time::Duration::from_millis(100));
                let later = writes.load(std::sync::atomic::Ordering::SeqCst);
                assert_eq!(later, at_return, "flush fails: {flush_fails}, {jobs} jobs: written after the run ended");
                // The writes up to the failing one; a failing flush comes
                // after the blocks already done, at most the read-ahead.
                let most = if flush_fails { 2 + jobs * limits.ahead_per_job } else { 3 };
                assert!(at_return <= most, "flush fails: {flush_fails}, {jobs} jobs: {at_return} writes");
            }
        }
    }

    #[test]
    fn a_panicking_block_ends_the_run_with_an_error() {
        for jobs in [1, 2, 4] {
            let e = run_lines(1000, jobs, Some(500)).expect_err("the run fails");
            assert!(e.to_string().contains("line 500"), "{jobs} jobs: {e}");
        }
    }
}
