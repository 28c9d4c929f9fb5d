//! Ending evaluations from another thread.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A cancellation handle: clones share one flag, which any thread may set
/// with [`CancelToken::cancel`]. An evaluation that watches it (given to
/// [`Compiled::evaluate_cancellable`](crate::Compiled::evaluate_cancellable)
/// for one evaluation, or to [`Options::cancel_token`](crate::Options::cancel_token)
/// for every evaluation of what the options compile) ends soon after it is
/// set, failing with the error "Evaluation cancelled".
///
/// Watching costs next to nothing: the evaluation borrows the flag (no
/// reference count changes hands) and reads it every thousand or so steps
/// of evaluation (at block runs and loop iterations, not per instruction;
/// a long call to one function is not interrupted). Once set, a token
/// stays set: use a new one for the next evaluation.
///
/// ```
/// use hclvm::{CancelToken, Compiled, Options, Variables};
/// use std::time::{Duration, Instant};
///
/// // Ten billion loop iterations, without budgets to stop them: hours.
/// let unbounded = Options::new().max_steps(u64::MAX).max_size(u64::MAX);
/// let slow = Compiled::expression("[for x in xs : x if length([for y in xs : y if y < 0]) > 0]", &unbounded)?;
/// let vars = Variables::new().with("xs", hclvm::Value::tuple((0..100_000).map(hclvm::Value::int).collect()));
///
/// let token = CancelToken::new();
/// let remote = token.clone();
/// std::thread::spawn(move || {
///     std::thread::sleep(Duration::from_millis(20));
///     remote.cancel();
/// });
/// let started = Instant::now();
/// let out = slow.evaluate_cancellable(&vars, &token);
/// assert_eq!(out.diagnostics()[0].summary, "Evaluation cancelled");
/// assert!(started.elapsed() < Duration::from_secs(30));
/// # Ok::<(), hclvm::Error>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct CancelToken(Arc<AtomicBool>);

impl CancelToken {
    /// A token not cancelled yet.
    ///
    /// ```
    /// assert!(!hclvm::CancelToken::new().is_cancelled());
    /// ```
    pub fn new() -> CancelToken {
        CancelToken::default()
    }

    /// Cancels every evaluation watching this token or a clone of it, now
    /// and from now on.
    ///
    /// ```
    /// let token = hclvm::CancelToken::new();
    /// token.clone().cancel();
    /// assert!(token.is_cancelled());
    /// ```
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether [`CancelToken::cancel`] was called on this token or a clone.
    ///
    /// ```
    /// let e = hclvm::Compiled::expression("[for i in range(3) : i]", &hclvm::Options::new())?;
    /// let token = hclvm::CancelToken::new();
    /// token.cancel();
    /// assert!(token.is_cancelled());
    /// // A cancelled token ends the evaluation at its first check.
    /// assert!(e.evaluate_cancellable(&hclvm::Variables::new(), &token).has_errors());
    /// # Ok::<(), hclvm::Error>(())
    /// ```
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// The flag, for the VM to watch.
    pub(crate) fn flag(&self) -> &AtomicBool {
        &self.0
    }
}
