//! How far a long computation (the exact analysis, a simulation) has got, shared with
//! another thread that shows it or cancels the work.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Units done out of the total (zero while the work is being prepared), and a request to
/// stop that the work honours between units.
#[derive(Debug, Default)]
pub struct Progress {
    done: AtomicU64,
    total: AtomicU64,
    cancelled: AtomicBool,
}

impl Progress {
    pub fn new() -> Progress {
        Progress::default()
    }

    /// (units done, units in all); the total is 0 until the work is prepared.
    pub fn get(&self) -> (u64, u64) {
        (self.done.load(Ordering::Relaxed), self.total.load(Ordering::Relaxed))
    }

    /// Asks the work to stop; it then returns its "cancelled" error.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }

    pub(crate) fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }

    pub(crate) fn start(&self, total: u64) {
        self.total.store(total, Ordering::Relaxed);
    }

    pub(crate) fn advance(&self, units: u64) {
        self.done.fetch_add(units, Ordering::Relaxed);
    }
}
