//! The recorder's counters, shared by the handle that queues rows and
//! the writer that writes them.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64};

/// The recorder's counters (`/metrics`).
#[derive(Debug, Default)]
pub struct Stats {
    pub rows_written: AtomicU64,
    pub parts_written: AtomicU64,
    /// Parts deleted to keep the quota.
    pub parts_deleted: AtomicU64,
    /// Rows lost: the queue was full, or recording was paused.
    pub rows_lost: AtomicU64,
    pub write_errors: AtomicU64,
    pub bytes_on_disk: AtomicU64,
    /// Parts copied to the object store (`--record-store`), and copies
    /// that failed.
    pub parts_stored: AtomicU64,
    pub store_errors: AtomicU64,
    /// Set while recording pauses after a failed write.
    pub paused: AtomicBool,
}

/// A lock that a panic elsewhere does not poison for the recorder.
pub(crate) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
