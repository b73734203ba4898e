//! The state every handler of local mode shares: the data, the keys, the
//! injected faults, the cursor key.

use crate::data::Dataset;
use crate::{auth, cursor, encoding, faults};
use std::sync::Arc;
use std::time::Instant;

/// Everything a handler needs, shared.
pub struct AppState {
    pub data: Arc<Dataset>,
    pub keys: auth::Keys,
    pub faults: faults::Faults,
    pub cursors: cursor::CursorKey,
    pub started: Instant,
    /// `/openapi.json`, built on first request (it names ids of the data).
    pub openapi: std::sync::OnceLock<Vec<u8>>,
    /// Searches running at once on the blocking pool (see `guard::offload`).
    pub searches: Arc<tokio::sync::Semaphore>,
    /// The answers' kept middles (`encoding`): the lists' handlers find
    /// theirs here, the compression layer (`layers::wrap`) the others.
    pub answers: Arc<encoding::Answers>,
}

pub type SharedState = Arc<AppState>;
