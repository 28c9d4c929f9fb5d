//! Loading a workload of the shared bench folder (source + vars JSON Lines)
//! into compiled programs and bound variable sets, as `hclvm bench` does.

use hclvm::{BoundVariables, Compiled, Options, SourceKind, Variables};

pub struct Workload {
    pub compiled: Compiled,
    pub vars: Vec<BoundVariables>,
}

#[path = "../../tests/support/data.rs"]
mod data;

/// Where the shared workloads live: `../shared/bench` beside the repository
/// (override with `HCLVM_BENCH_DIR`).
pub use data::bench_dir;

/// Loads `mode` (expr, template, body) source `src` with at most
/// `max_lines` variable sets; `None` when the files are not there.
pub fn load(mode: &str, src: &str, vars: &str, max_lines: usize) -> Option<Workload> {
    let dir = bench_dir();
    let src = std::fs::read(dir.join(src)).ok()?;
    let text = std::fs::read_to_string(dir.join(vars)).ok()?;
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).take(max_lines).collect();
    let mut names: Vec<String> = Vec::new();
    for line in &lines {
        names.extend(Variables::from_typed_json(&serde_json::from_str(line).ok()?).ok()?.names().map(str::to_string));
    }
    let kind = match mode {
        "body" => SourceKind::Body,
        "template" => SourceKind::Template,
        _ => SourceKind::Expression,
    };
    let compiled = Compiled::compile(kind, &src, &Options::new().variables(names)).ok()?;
    // Decoded for the program, as hosts feeding it JSON decode them.
    let vars = lines.iter().map(|l| Some(compiled.bind(&compiled.variables_from_json_str(l, true).ok()?))).collect::<Option<_>>()?;
    Some(Workload { compiled, vars })
}

impl Workload {
    /// One evaluation as the oracle counts it: every program for one vars set.
    pub fn eval_one(&self, i: usize) {
        std::hint::black_box(self.compiled.evaluate_bound(&self.vars[i % self.vars.len()]));
    }
}
