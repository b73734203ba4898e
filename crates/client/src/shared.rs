//! What a client may share with other clients of the same key beyond its
//! own life: the rate budget (other tabs of an origin) and a persistent
//! store of answers (reloads). Both are traits, so the client stays one
//! type; the browser's implementations are in `browser` (wasm only).

use futures::future::LocalBoxFuture;

/// A rate budget kept with other clients of the same key (the tabs of an
/// origin): every client asks it for a slot before each request.
pub trait SharedBudget {
    /// Takes a slot under `limit` requests a minute, or says how long to
    /// wait (milliseconds) before asking again.
    fn acquire(&self, limit: u32) -> LocalBoxFuture<'_, Result<(), f64>>;

    /// A 429 arrived: every client sharing the budget holds off for
    /// `wait_ms`.
    fn block_for(&self, wait_ms: f64);

    /// Requests left now under `limit`, as far as it can tell at once.
    fn remaining(&self, limit: u32) -> u32;
}

/// An answer kept by a [`Store`].
#[derive(Debug, Clone, PartialEq)]
pub struct Stored {
    /// The body as the service sent it.
    pub text: String,
    /// Wall-clock milliseconds (`Date.now()`) when it was received.
    pub stored_at_ms: f64,
}

/// Successful answers kept across reloads, by URL (which never holds the
/// key). Bounded and clearable by the implementation.
pub trait Store {
    fn get(&self, url: &str) -> LocalBoxFuture<'static, Option<Stored>>;

    /// Keeps `text` for `url`; done in the background, failures ignored
    /// (a store is an optimisation: the service has the data).
    fn put(&self, url: &str, text: &str);

    /// Forgets everything.
    fn clear(&self) -> LocalBoxFuture<'static, ()>;

    /// The wall clock of `stored_at_ms`.
    fn now_ms(&self) -> f64;
}
