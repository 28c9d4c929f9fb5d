//! `hclvm conformance [CASES.jsonl|-]`: run conformance cases and print one
//! result line per case in the oracle's format. Exit 1 when some input line
//! was not a valid case (it still gets its phase `case` result line).

use super::Status;
use crate::conformance::{run_cases_with, RunOptions};
use clap::Args;
use std::io::{BufRead, BufReader, BufWriter, Read};

#[derive(Args, Debug)]
pub struct ConformanceArgs {
    /// Case file (JSON Lines); `-` or nothing reads standard input.
    #[arg(value_name = "CASES", default_value = "-")]
    cases: String,
    /// Evaluate `&&` and `||` as hcl ≥ v2.21 does (short-circuit), not as
    /// the reference (v2.20.0) does.
    #[arg(long)]
    short_circuit: bool,
}

pub fn run(args: ConformanceArgs) -> Status {
    let stdout = std::io::stdout();
    let output = BufWriter::new(stdout.lock());
    let run = RunOptions { short_circuit: args.short_circuit };
    let result = if args.cases == "-" {
        run_cases_with(Named { inner: std::io::stdin().lock(), name: "<stdin>" }, output, run)
    } else {
        match std::fs::File::open(&args.cases) {
            Ok(f) => run_cases_with(BufReader::new(Named { inner: f, name: &args.cases }), output, run),
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

/// The case input, whose read errors name it (a directory, a vanished
/// file), unlike errors writing the results.
struct Named<'a, R> {
    inner: R,
    name: &'a str,
}

impl<R: Read> Read for Named<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.inner.read(buf).map_err(|e| std::io::Error::new(e.kind(), format!("cannot read {}: {e}", self.name)))
    }
}

impl<R: BufRead> BufRead for Named<'_, R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        let name = self.name;
        self.inner.fill_buf().map_err(|e| std::io::Error::new(e.kind(), format!("cannot read {name}: {e}")))
    }
    fn consume(&mut self, amount: usize) {
        self.inner.consume(amount)
    }
}
