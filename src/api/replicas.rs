//! Per-thread copies of a compiled program.
//!
//! An evaluation clones and drops reference-counted data the program owns:
//! constants loaded into registers, the attribute names that variables
//! decoded from JSON share with the program's steps, types. When two
//! threads evaluate one program at once, each of those is an atomic update
//! of a counter the other core updates too, and the counter's cache line
//! travels between the cores every time. Measured on the policy workload
//! (`hclvm batch --jobs 2`, 100,000 requests): 9% more CPU time than the
//! same work done by two processes, which share nothing.
//!
//! So the first thread to evaluate a program evaluates it itself, and any
//! other thread, once it has spent several times the program's compile
//! time evaluating it, compiles its own copy from the same source and
//! options (the same results, nothing shared but the function table) and
//! evaluates that from then on. Until then it pays for two clock reads per
//! evaluation; a program another thread evaluates only a few times is
//! never copied.

use super::Compiled;
use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

/// A thread copies a program after evaluating it for this many times its
/// compile time (the copy then costs at most about what a tenth of that
/// evaluating time lost to sharing).
const COPY_AFTER_COMPILE_TIMES: u32 = 8;
/// Programs a thread keeps copies of (or counts time for), at most.
const PER_THREAD: usize = 8;
/// `owner` of a program nobody has evaluated yet.
const NO_OWNER: u64 = 0;
/// `owner` of a copy: it is only ever evaluated by the thread that made it.
const COPY: u64 = u64::MAX;

/// Which thread evaluates a program itself, and what another thread needs
/// to make its own copy.
pub(crate) struct Home {
    /// Unique per compiled program in this process; never reused.
    id: u64,
    /// The thread key of the first thread to evaluate it.
    owner: AtomicU64,
    /// Lets a thread's table notice the program is gone.
    alive: Arc<()>,
    /// How long a thread evaluates before copying.
    copy_after: Duration,
}

impl Home {
    pub(crate) fn new(compile_time: Duration) -> Home {
        static NEXT_ID: AtomicU64 = AtomicU64::new(1);
        Home {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            owner: AtomicU64::new(NO_OWNER),
            alive: Arc::new(()),
            copy_after: compile_time.saturating_mul(COPY_AFTER_COMPILE_TIMES),
        }
    }

    /// The home of a thread's copy: never copied again.
    pub(crate) fn for_copy() -> Home {
        let home = Home::new(Duration::ZERO);
        home.owner.store(COPY, Ordering::Relaxed);
        home
    }
}

/// A thread's copies and the evaluating time of programs not copied yet.
struct Entry {
    id: u64,
    alive: Weak<()>,
    spent: Duration,
    copy: Option<Arc<Compiled>>,
    /// Compiling the copy failed (it cannot, but then: stop trying).
    failed: bool,
}

thread_local! {
    static THREAD_KEY: u64 = {
        static NEXT_KEY: AtomicU64 = AtomicU64::new(1);
        NEXT_KEY.fetch_add(1, Ordering::Relaxed)
    };
    static COPIES: RefCell<Vec<Entry>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` with the program this thread should evaluate instead of
/// `compiled`: itself, or this thread's copy of it.
pub(crate) fn on_this_thread<R>(compiled: &Compiled, f: impl FnOnce(&Compiled) -> R) -> R {
    let home = compiled.home();
    let owner = home.owner.load(Ordering::Relaxed);
    if owner == COPY {
        return f(compiled);
    }
    // A thread being torn down has no key: it evaluates the program itself.
    let Ok(me) = THREAD_KEY.try_with(|k| *k) else { return f(compiled) };
    if owner == me || (owner == NO_OWNER && home.owner.compare_exchange(NO_OWNER, me, Ordering::Relaxed, Ordering::Relaxed).is_ok()) {
        return f(compiled);
    }
    match lookup(home) {
        Some(copy) => f(&copy),
        None => {
            let started = Instant::now();
            let result = f(compiled);
            spent(compiled, started.elapsed());
            result
        }
    }
}

/// This thread's copy of the program, if it has made one.
fn lookup(home: &Home) -> Option<Arc<Compiled>> {
    COPIES
        .try_with(|cell| {
            let table = cell.try_borrow().ok()?;
            table.iter().find(|e| e.id == home.id)?.copy.clone()
        })
        .ok()
        .flatten()
}

/// Adds evaluating time to the program's entry (making one first); makes
/// the copy once the time is reached.
fn spent(compiled: &Compiled, time: Duration) {
    let home = compiled.home();
    let due = COPIES
        .try_with(|cell| {
            let Ok(mut table) = cell.try_borrow_mut() else { return false };
            let i = match table.iter().position(|e| e.id == home.id) {
                Some(i) => i,
                None => {
                    table.retain(|e| e.alive.strong_count() > 0);
                    if table.len() >= PER_THREAD {
                        table.remove(0);
                    }
                    table.push(Entry { id: home.id, alive: Arc::downgrade(&home.alive), spent: Duration::ZERO, copy: None, failed: false });
                    table.len() - 1
                }
            };
            let entry = &mut table[i];
            entry.spent = entry.spent.saturating_add(time);
            !entry.failed && entry.copy.is_none() && entry.spent >= home.copy_after
        })
        .unwrap_or(false);
    if !due {
        return;
    }
    // Compiled outside the table's borrow: compiling may call host
    // functions (pure calls are folded), which may evaluate programs.
    let copy = compiled.copy_for_this_thread().map(Arc::new);
    let _ = COPIES.try_with(|cell| {
        if let Ok(mut table) = cell.try_borrow_mut() {
            if let Some(entry) = table.iter_mut().find(|e| e.id == home.id) {
                entry.failed = copy.is_none();
                entry.copy = copy;
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{Options, Variables};

    /// Whether this thread evaluates `compiled` through a copy.
    fn has_copy(compiled: &Compiled) -> bool {
        lookup(compiled.home()).is_some()
    }

    #[test]
    fn the_first_thread_evaluates_the_program_itself_and_another_makes_a_copy() {
        let src = "allowed = contains(user.groups, \"ops\") || user.role == \"admin\"\nname = upper(user.role)\n";
        let compiled = Arc::new(Compiled::body(src, &Options::new()).expect("valid body"));
        let vars = Variables::from_json_str(r#"{"user": {"role": "dev", "groups": ["web", "ops"]}}"#).expect("valid JSON");
        let expected = compiled.evaluate(&vars).result_fields();
        assert!(!has_copy(&compiled));
        let other = {
            let compiled = compiled.clone();
            std::thread::spawn(move || {
                let vars = Variables::from_json_str(r#"{"user": {"role": "dev", "groups": ["web", "ops"]}}"#).expect("valid JSON");
                let mut results = Vec::new();
                // Evaluates until the copy is made (the time it takes
                // depends on the machine), then once more through it.
                for _ in 0..1_000_000 {
                    results.push(compiled.evaluate(&vars).result_fields());
                    if has_copy(&compiled) {
                        break;
                    }
                }
                assert!(has_copy(&compiled), "no copy after a million evaluations");
                results.push(compiled.evaluate(&vars).result_fields());
                results.push(compiled.evaluate_json_str(r#"{"user": {"role": "admin", "groups": []}}"#, false).expect("valid JSON").result_fields());
                results
            })
        };
        let results = other.join().expect("no panic");
        let (last, same) = results.split_last().expect("results");
        assert!(same.iter().all(|r| *r == expected), "{same:?} vs {expected}");
        assert_eq!(*last, compiled.evaluate_json_str(r#"{"user": {"role": "admin", "groups": []}}"#, false).expect("valid JSON").result_fields());
        // The first thread never copies.
        assert!(!has_copy(&compiled));
    }

    #[test]
    fn a_thread_forgets_programs_that_are_gone() {
        std::thread::spawn(|| {
            for i in 0..(PER_THREAD * 3) {
                let compiled = Compiled::expression(&format!("x + {i}"), &Options::new()).expect("valid expression");
                // Another thread owns it, so this one keeps an entry.
                std::thread::scope(|s| {
                    s.spawn(|| compiled.evaluate(&Variables::from_json_str(r#"{"x": 1}"#).expect("valid JSON")));
                });
                let e = compiled.evaluate(&Variables::from_json_str(r#"{"x": 1}"#).expect("valid JSON"));
                assert_eq!(e.value().and_then(|v| v.as_number()?.to_i64()), Some(1 + i as i64));
            }
            COPIES.with(|cell| assert!(cell.borrow().len() <= 1, "dead programs are dropped from the table"));
        })
        .join()
        .expect("no panic");
    }
}
