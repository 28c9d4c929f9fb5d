//! Replays the reproducers the `eval_*` fuzz targets found (saved under
//! `fuzz/regressions/<target>/`) through the very checks the targets run
//! (`fuzz/src/eval`, included by path), so a fixed crash stays fixed without
//! building the fuzz workspace. Every saved file must have a test here.

#[path = "../fuzz/src/eval/mod.rs"]
#[allow(dead_code)]
mod eval;

use hclvm::{SourceKind, Value};
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[global_allocator]
static ALLOC: eval::meter::MeteredAlloc = eval::meter::MeteredAlloc;

fn regressions_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions")
}

fn kind_of(target: &str) -> SourceKind {
    match target {
        "eval_expression" => SourceKind::Expression,
        "eval_template" => SourceKind::Template,
        "eval_body" => SourceKind::Body,
        other => panic!("no eval target named {other}"),
    }
}

/// How long one replay may take. The fuzz targets allow 5 s (optimised,
/// under ASan); this is generous enough for unoptimised test builds while
/// still catching a hang.
const REPLAY_TIME_LIMIT: Duration = Duration::from_secs(60);

/// Runs one saved input through the target's checks, on a thread with the
/// main thread's stack size (libFuzzer runs inputs on the main thread).
fn replay(target: &'static str, file: &'static str) {
    let data = std::fs::read(regressions_dir().join(target).join(file)).expect("saved reproducer");
    let start = Instant::now();
    std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(move || match target {
            "eval_declared" => eval::declared::check(&data),
            _ => eval::check::check(kind_of(target), &data),
        })
        .expect("thread")
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e));
    let took = start.elapsed();
    assert!(took <= REPLAY_TIME_LIMIT, "{target}/{file} took {took:?}, beyond {REPLAY_TIME_LIMIT:?}");
}

/// One test per reproducer: `name: "target" / "file";`, with an optional
/// `#[ignore = "why"]` for one whose fix belongs elsewhere.
macro_rules! reproducers {
    ($($(#[$attr:meta])* $name:ident: $target:literal / $file:literal;)*) => {
        const LISTED: &[(&str, &str)] = &[$(($target, $file)),*];
        $(
            #[test]
            $(#[$attr])*
            fn $name() {
                replay($target, $file);
            }
        )*
    };
}

reproducers! {
    /// `toset` over 20,000 structured elements that each hold an unknown
    /// (equal set hash texts, never equal to each other) took ~48 s in
    /// release builds: set deduplication compared each element with every
    /// earlier one of its hash group. Fixed in `runtime/src/value/set.rs`
    /// (such elements skip the comparison).
    eval_expression_hang_toset_unknown_structured: "eval_expression" / "hang-toset-unknown-structured";
    /// Written for the harness's register poisoning (not found by the
    /// fuzzer): the first `for` exhausts the size budget, after which
    /// blocks no longer ran, and the nested `for` took its collection from
    /// a register this evaluation never wrote (fresh in the first run, the
    /// poison string in the second, which added "Iteration over
    /// non-iterable value"). Fixed in `vm/src/interp.rs` (`Machine::block`
    /// yields `D` once a limit is hit).
    eval_expression_limit_stale_register: "eval_expression" / "limit-stale-register";
    /// Sets of huge numbers (1e100000 and the like) in the variables took
    /// more than 10 s to build in the fuzz build (ASan), before any
    /// evaluation: a set keys each number by its decimal text, whose cost
    /// grows with its digits. The harness now weighs a number beyond
    /// f64's range as an eighth of a set's allowance (`fuzz/src/eval/input.rs`).
    eval_declared_timeout_set_of_huge_numbers: "eval_declared" / "timeout-set-of-huge-numbers";
}

#[test]
fn every_saved_reproducer_has_a_test() {
    let mut missing = Vec::new();
    let targets = std::fs::read_dir(regressions_dir()).unwrap_or_else(|e| panic!("fuzz/regressions is missing: {e}"));
    let mut saved = 0;
    for t in targets.flatten().filter(|t| t.path().is_dir()) {
        let target = t.file_name().to_string_lossy().into_owned();
        for f in std::fs::read_dir(t.path()).expect("regressions folder").flatten() {
            let file = f.file_name().to_string_lossy().into_owned();
            saved += 1;
            if !LISTED.iter().any(|&(lt, lf)| lt == target && lf == file) {
                missing.push(format!("{target}/{file}"));
            }
        }
    }
    assert!(saved >= LISTED.len(), "{saved} reproducers under fuzz/regressions, {} listed here", LISTED.len());
    assert!(missing.is_empty(), "reproducers without a test in tests/fuzz_regressions.rs: {missing:?}");
}

/// The input layout and the variable spec decode as `fuzz/seed.sh` encodes
/// them (a broken decoder would silently fuzz without variables).
#[test]
fn spec_decodes_names_types_and_values() {
    // a = 12 (number, known, i8 form); l = list(string) ["x", "x"]; u = unknown number.
    let spec: &[u8] = &[0, 1, 0, 0, 12, 6, 4, 0, 0, 2, 0, 0, 2, 0, 0, 2, 14, 1, 7];
    let vars = eval::input::variables(spec);
    assert_eq!(vars.get("a").and_then(|v| v.as_number()?.to_i64()), Some(12));
    let l = vars.get("l").expect("l");
    assert_eq!(l.ty().to_json_string(), r#"["list","string"]"#);
    assert_eq!(l.elements_slice().iter().map(|e| e.as_str().unwrap_or("?")).collect::<Vec<_>>(), ["x", "x"]);
    assert_eq!(vars.get("u"), Some(&Value::unknown(hclvm::Type::Number)));

    let mut data = (spec.len() as u16).to_le_bytes().to_vec();
    data.extend_from_slice(spec);
    data.extend_from_slice(b"a + length(l)");
    let (s, src) = eval::input::split(&data);
    assert_eq!((s, src), (spec, &b"a + length(l)"[..]));
}

/// The checks accept ordinary evaluations of each kind, and the metering
/// allocator sees allocations.
#[test]
fn checks_pass_on_ordinary_sources() {
    let vars = eval::input::variables(&[0, 1, 0, 0, 12]);
    eval::check::check_source(SourceKind::Expression, b"[for i in range(a) : \"${i}\"]", &vars);
    eval::check::check_source(SourceKind::Template, b"%{ for i in range(a) }${i}%{ endfor }", &vars);
    eval::check::check_source(SourceKind::Body, b"x = a\nb {\n  y = upper(\"e\\u0301\")\n}\n", &vars);
    eval::check::check_source(SourceKind::Expression, b"nope +", &vars);
    let (_, peak) = eval::meter::measure(|| vec![0u8; 1 << 16]);
    assert!(peak.is_some_and(|p| p >= 1 << 16), "meter saw {peak:?}");
}

/// The YAML target's checks accept decodable and failing texts, deep
/// nesting (an error at the limit) and stale simple keys.
#[test]
fn yaml_checks_pass_on_hard_texts() {
    let texts = [
        "a: [1, {b: c}]\nd: !!binary aGk=\n".to_string(),
        "{a: 1, b\n: 2}".to_string(),
        format!("[{}: 1]", "k".repeat(1030)),
        "[".repeat(12_000),
        format!("{}x{}", "[".repeat(9_000), "]".repeat(9_000)),
        "a: &x [1, 2]\nb: [*x, *x, *x]\n".to_string(),
    ];
    for text in texts {
        eval::yaml::check(text.as_bytes());
    }
}
