//! One connection of the live stream as the client reads it, sans-IO:
//! the text its body brings, in chunks as they arrive, turned into what
//! the stream's owner is told (the server's `retry`, and each event not
//! seen before: replays of a resumed stream are left out), and, when it
//! goes quiet past its deadline, the `stale` (`silent`) each of its
//! resources is told, its positions forgotten (a reopened stream starts
//! from snapshots). The browser's fetch loop (`live`) only moves bytes and
//! timers through it; the live vectors (`tests/fixtures/live/`) run
//! through it natively in `crates/client/tests/live_vectors.rs`.

use predmarket_core::live::{Kind, StreamEvent};
use predmarket_core::sse::{Positions, Read, Reader, Seen, TooLarge};

/// What a chunk of the stream tells its owner.
#[derive(Debug, Clone, PartialEq)]
pub enum Told {
    /// The wait before reopening the stream the server asks for (ms).
    Retry(u64),
    /// An event of one resource, not seen before.
    Event(Kind, Box<StreamEvent>),
}

/// One open stream of `resources`.
#[derive(Debug)]
pub struct Connection {
    reader: Reader,
}

impl Connection {
    /// A stream of `resources` that answered at `now_ms`.
    pub fn new(resources: Vec<String>, now_ms: f64) -> Self {
        Self {
            reader: Reader::new(resources, now_ms),
        }
    }

    pub fn resources(&self) -> &[String] {
        self.reader.resources()
    }

    /// The next `text` of the body, at `now_ms`; `positions` (the client's,
    /// across connections) move with the events' ids. An event larger
    /// than the bound ends the connection (`TooLarge`).
    pub fn chunk(
        &mut self,
        text: &str,
        now_ms: f64,
        positions: &mut Positions,
    ) -> Result<Vec<Told>, TooLarge> {
        let reads = self.reader.feed(text, now_ms, positions)?;
        Ok(reads
            .into_iter()
            .filter_map(|read| match read {
                Read::Retry(ms) => Some(Told::Retry(ms)),
                Read::Event {
                    kind,
                    body,
                    seen: Seen::New,
                } => Some(Told::Event(kind, body)),
                Read::Event { .. } => None,
            })
            .collect())
    }

    /// When the stream is silent unless it says something before.
    pub fn deadline_ms(&self) -> f64 {
        self.reader.deadline_ms()
    }

    pub fn is_silent(&self, now_ms: f64) -> bool {
        self.reader.is_silent(now_ms)
    }

    /// The stream stayed open but said nothing past its deadline: its
    /// positions are forgotten (not trusted), and each of its resources is
    /// told `stale` (`silent`).
    pub fn silence(&self, positions: &mut Positions, now_ms: f64) -> Vec<StreamEvent> {
        for resource in self.reader.resources() {
            positions.forget(resource);
        }
        self.reader.silent_events(now_ms)
    }
}
