//! The store phase: a judged answer is kept here and (with `--redis`) for
//! the other replicas, unless it would replace a good answer with an error.

use super::cache::{self, Entry, Freshness};
use super::state::ProxyState;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

impl ProxyState {
    /// Whether `entry` may take the place of what is cached for `key`: an
    /// error (a 404 remembered for a while) never replaces a good answer
    /// that is still served, fresh or while revalidating. A resource that
    /// is gone upstream then disappears when its entry ages out, rather than
    /// one revalidation wiping a good entry for everyone.
    pub(super) fn replaces(&self, key: &str, entry: &Entry, now_ms: u64) -> bool {
        entry.status == 200
            || self
                .cache
                .get(key)
                .is_none_or(|old| old.status != 200 || old.freshness(now_ms) == Freshness::Stale)
    }

    /// Keeps an answer, here and (with `--redis`) for the other replicas.
    pub(super) async fn store(&self, key: &str, entry: Arc<Entry>) {
        if !self.replaces(key, &entry, cache::now_ms()) {
            return;
        }
        compress_off_the_serving_thread(&entry, &self.cache.compressions).await;
        self.cache.insert(key, entry.clone());
        if let Some(shared) = &self.shared {
            shared.put(key, &entry).await;
        }
    }
}

/// Makes `entry`'s compressions (gzip and brotli of the whole body, a few
/// milliseconds for a page of markets) on tokio's blocking pool: the
/// flight that stored it runs on one of the serving runtimes (a runtime
/// per core, `runtimes`), whose every other connection would wait for
/// them. Should the pool fail, `Cache::insert` compresses it in place,
/// as before.
async fn compress_off_the_serving_thread(entry: &Arc<Entry>, compressions: &AtomicU64) {
    if entry.compressed.get().is_some() {
        return;
    }
    let compressing = entry.clone();
    let made = tokio::task::spawn_blocking(move || {
        let made = AtomicU64::new(0);
        compressing.compressed(&made);
        made.into_inner()
    })
    .await;
    compressions.fetch_add(made.unwrap_or(0), Ordering::Relaxed);
}
