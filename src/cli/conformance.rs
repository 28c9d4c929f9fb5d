//! `hclvm conformance [CASES.jsonl|-]`: run conformance cases and print one
//! result line per case in the oracle's format. Exit 1 when some input line
//! was not a valid case (it still gets its phase `case` result line).

use super::Status;
use crate::conformance::{default_evaluator, run_cases};
use clap::Args;
use std::io::{BufReader, BufWriter};

#[derive(Args, Debug)]
pub struct ConformanceArgs {
    /// Case file (JSON Lines); `-` or nothing reads standard input.
    #[arg(value_name = "CASES", default_value = "-")]
    cases: String,
}

pub fn run(args: ConformanceArgs) -> Status {
    let evaluator = default_evaluator();
    let stdout = std::io::stdout();
    let output = BufWriter::new(stdout.lock());
    let result = if args.cases == "-" {
        run_cases(std::io::stdin().lock(), output, &evaluator)
    } else {
        match std::fs::File::open(&args.cases) {
            Ok(f) => run_cases(BufReader::new(f), output, &evaluator),
            Err(e) => {
                eprintln!("hclvm: cannot read {}: {e}", args.cases);
                return Status::UsageOrIo;
            }
        }
    };
    match result {
        Ok(stats) if stats.malformed > 0 => {
            eprintln!("hclvm: {} of {} input lines were not valid cases", stats.malformed, stats.cases);
            Status::ProblemsFound
        }
        Ok(_) => Status::Ok,
        Err(e) => {
            eprintln!("hclvm: {e}");
            Status::UsageOrIo
        }
    }
}
