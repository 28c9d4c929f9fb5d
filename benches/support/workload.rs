//! Loading a workload of the shared bench folder (source + vars JSON Lines)
//! into compiled programs and bound variable sets, as `hclvm bench` does.

use hclvm::compiler::lower::CompileEnv;
use hclvm::compiler::Interner;
use hclvm::engine::{compile, compile_body, stdlib_table, CompiledBody, SourceKind};
use hclvm::runtime::json::value_from_case_var;
use hclvm::vm::{BodyEvaluation, Program, Scratch, Vars};

pub struct Workload {
    pub programs: Vec<Program>,
    pub vars: Vec<Vars>,
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
    let mut lines = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()).take(max_lines) {
        let json: serde_json::Value = serde_json::from_str(line).ok()?;
        let obj = json.as_object()?;
        let vals: Vec<(String, hclvm::runtime::Value)> =
            obj.iter().map(|(k, v)| Some((k.clone(), value_from_case_var(v).ok()?))).collect::<Option<_>>()?;
        lines.push(vals);
    }
    let mut names: Vec<String> = lines.iter().flat_map(|l| l.iter().map(|(n, _)| n.clone())).collect();
    names.sort();
    names.dedup();
    let env = CompileEnv::new(names.iter(), Some(stdlib_table()));
    let arena = bumpalo::Bump::new();
    let mut interner = Interner::new();
    let programs = match mode {
        "body" => {
            let (body, _) = hclvm::compiler::parse_body(&arena, &src, &mut interner);
            let compiled: CompiledBody = compile_body(&body, &src, &interner, &env);
            compiled.into_programs()
        }
        "template" => {
            let (e, _) = hclvm::compiler::parse_template(&arena, &src, &mut interner);
            vec![compile(e, &src, SourceKind::Template, &interner, &env)]
        }
        _ => {
            let (e, _) = hclvm::compiler::parse_expression(&arena, &src, &mut interner);
            vec![compile(e, &src, SourceKind::Expr, &interner, &env)]
        }
    };
    let mut shapes = hclvm::engine::ShapeCache::new();
    let vars = lines
        .iter()
        .map(|l| {
            let mut v = Vars::with_slots(names.len());
            for (n, val) in l {
                if let Ok(i) = names.binary_search(n) {
                    v.set(i as u32, shapes.share(val));
                }
            }
            v
        })
        .collect();
    Some(Workload { programs, vars })
}

impl Workload {
    /// One evaluation as the oracle counts it: every program for one vars set.
    pub fn eval_one(&self, i: usize, scratch: &mut Scratch) {
        let vars = &self.vars[i % self.vars.len()];
        let mut run = BodyEvaluation::new(scratch, vars);
        for p in &self.programs {
            std::hint::black_box(run.evaluate(p));
        }
    }
}
