//! `hclvm conformance [CASES.jsonl|-]`: run conformance cases and print one
//! result line per case in the oracle's format. Exit 1 when some input line
//! was not a valid case (it still gets its phase `case` result line).
//!
//! Cases run on `--jobs` threads (default: available cores) in blocks of
//! lines, their results written in input order ([`super::blocks`]: a
//! result is never held back waiting for input, so a program feeding cases
//! one at a time gets each answer).

use super::blocks::{job_count, run_blocks, Block, BlockLimits, BlockSink};
use super::Status;
use crate::conformance::{run_case_line, RunOptions, RunStats};
use clap::Args;
use std::io::{BufWriter, Read, Stdout, Write};

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

/// Cases of a block at most, and its bytes (a block ends after the case
/// that reaches them); blocks read ahead of the results written, per job.
const LIMITS: BlockLimits = BlockLimits { lines: 64, bytes: 64 << 10, ahead_per_job: 4 };

pub fn run(args: ConformanceArgs) -> Status {
    let sink = CaseResults { output: BufWriter::with_capacity(1 << 16, std::io::stdout()), stats: RunStats::default() };
    let options = RunOptions { short_circuit: args.short_circuit };
    let input: Named<Box<dyn Read + Send>> = if args.cases == "-" {
        Named { inner: Box::new(std::io::stdin()), name: "<stdin>".into() }
    } else {
        match std::fs::File::open(&args.cases) {
            Ok(f) => Named { inner: Box::new(f), name: args.cases.clone() },
            Err(e) => {
                eprintln!("hclvm conformance: cannot read {}: {e}", args.cases);
                return Status::UsageOrIo;
            }
        }
    };
    let run = move |block: &Block, text: &mut String| run_block(block, options, text);
    let result = run_blocks(input, LIMITS, sink, job_count(args.jobs), run, |_| {});
    match result.map(|sink| sink.stats) {
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

/// Runs a block's cases, appending their result lines to `text`; their
/// counts.
fn run_block(block: &Block, options: RunOptions, text: &mut String) -> RunStats {
    let mut stats = RunStats::default();
    for (line_no, range) in &block.lines {
        run_case_line(&block.bytes[range.clone()], *line_no, options, text, &mut stats);
    }
    stats
}

/// Standard output, and the counts of the result lines written to it.
struct CaseResults {
    output: BufWriter<Stdout>,
    stats: RunStats,
}

impl BlockSink for CaseResults {
    type Counts = RunStats;

    fn write_block(&mut self, text: &str, counts: RunStats) -> std::io::Result<()> {
        self.output.write_all(text.as_bytes())?;
        self.stats += counts;
        Ok(())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.output.flush()
    }
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
