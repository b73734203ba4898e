//! Continuity: whether a reader may carry a resource's state from its
//! previous row to this one. Decided per resource as rows are made, from
//! what the recorder saw between them (a failed poll, rows it could not
//! write, a silence much longer than the interval wanted).

use predmarket_core::change::WatchKind;
use std::collections::HashMap;

/// A row more than this many wanted intervals after the resource's
/// previous one is a gap, whatever the polls said: the data was not
/// observed as often as wanted (a retired topic watched again, a
/// stretched budget), and a book rebuilt from changes across it is a
/// guess.
pub const GAP_FACTOR: f64 = 3.0;

/// A resource's name in the tracks: `kind:id`, as a stream watches it.
pub fn key(kind: WatchKind, id: &str) -> String {
    kind.resource(id)
}

pub use predmarket_core::history::Continuity;

/// What is known of one resource between its rows.
#[derive(Debug, Default, Clone, Copy)]
struct Track {
    /// The number of its last row (the first is 1).
    seq: i64,
    last_ms: Option<i64>,
    /// Since the last row: a poll failed.
    missed: bool,
    /// Since the last row: a row of it was lost.
    lost: bool,
}

/// Where the row a resource is about to get stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placed {
    pub seq: i64,
    pub continuity: Continuity,
    /// Milliseconds since the previous row (the interval got).
    pub got_ms: Option<i64>,
}

/// Every resource's track, keyed by `kind:id`.
#[derive(Debug, Default)]
pub struct Tracks {
    tracks: HashMap<String, Track>,
}

impl Tracks {
    /// The next row of `key`, received at `received_ms`, whose polls want
    /// `wanted_ms` between them (`None`: no cadence, never a time gap).
    pub fn place(&mut self, key: &str, received_ms: i64, wanted_ms: Option<i64>) -> Placed {
        let track = self.tracks.entry(key.to_owned()).or_default();
        let got_ms = track.last_ms.map(|last| (received_ms - last).max(0));
        let continuity = match got_ms {
            None => Continuity::First,
            Some(_) if track.lost => Continuity::Resync,
            Some(got) if track.missed => Continuity::Gap(got),
            Some(got) if wanted_ms.is_some_and(|w| got as f64 > GAP_FACTOR * w as f64) => {
                Continuity::Gap(got)
            }
            Some(_) => Continuity::Continues,
        };
        track.seq += 1;
        track.last_ms = Some(received_ms);
        track.missed = false;
        track.lost = false;
        Placed {
            seq: track.seq,
            continuity,
            got_ms,
        }
    }

    /// A poll of `key` failed: its next row follows a gap.
    pub fn missed(&mut self, key: &str) {
        if let Some(track) = self.tracks.get_mut(key) {
            track.missed = true;
        }
    }

    /// A row of `key` was lost: its next row starts over.
    pub fn lost(&mut self, key: &str) {
        if let Some(track) = self.tracks.get_mut(key) {
            track.lost = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_told_apart_by_what_happened_between_them() {
        let mut t = Tracks::default();
        let wanted = Some(1_000);
        let first = t.place("orderbook:a", 10_000, wanted);
        assert_eq!(
            (first.seq, first.continuity, first.got_ms),
            (1, Continuity::First, None)
        );
        assert_eq!(
            t.place("orderbook:a", 11_000, wanted).continuity,
            Continuity::Continues
        );
        t.missed("orderbook:a");
        let after_failure = t.place("orderbook:a", 15_000, wanted);
        assert_eq!(after_failure.continuity, Continuity::Gap(4_000));
        assert_eq!(after_failure.seq, 3);
        // Silent for more than GAP_FACTOR intervals: a gap though no poll failed.
        assert_eq!(
            t.place("orderbook:a", 18_001, wanted).continuity,
            Continuity::Gap(3_001)
        );
        assert_eq!(
            t.place("orderbook:a", 21_000, wanted).continuity,
            Continuity::Continues
        );
        // A lost row outranks a failure: the reader must start over.
        t.missed("orderbook:a");
        t.lost("orderbook:a");
        assert_eq!(
            t.place("orderbook:a", 22_000, wanted).continuity,
            Continuity::Resync
        );
        // Without a cadence, silence is no gap; other resources are apart.
        assert_eq!(t.place("market:b", 0, None).continuity, Continuity::First);
        assert_eq!(
            t.place("market:b", 999_999, None).continuity,
            Continuity::Continues
        );
    }
}
