//! The contract of `GET /history`, stated once: a watched resource's
//! recorded answers, served where a server records or replays (a
//! documented extension, `x-history` in `/openapi.json`; docs/record.md).
//! The server checks a request against these bounds and writes each row's
//! [`Continuity`]; the demo and the npm package ask by [`PATH`] and read
//! the same words back.

/// Where a service serves its recorded history, on its base URL.
pub const PATH: &str = "/history";
/// The longest window one request reads: a day.
pub const MAX_WINDOW_MS: i64 = 86_400_000;
/// Rows one answer holds at most.
pub const MAX_LIMIT: usize = 1_000;
/// Rows when the request does not say.
pub const DEFAULT_LIMIT: usize = 100;
/// The window when the request gives no `from`: the hour before `to`.
pub const DEFAULT_WINDOW_MS: i64 = 3_600_000;

/// How a row follows the resource's previous row: whether a reader may
/// carry the resource's state from one to the other.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Continuity {
    /// The resource's first row since the recorder started: nothing is
    /// known before it.
    First,
    /// Follows the previous row at the cadence wanted.
    Continues,
    /// Polls failed (or none were made) for this long (ms) since the
    /// previous row: the state between the two is unknown.
    Gap(i64),
    /// Rows were lost in between (the recorder paused or fell behind):
    /// start over from this row.
    Resync,
}

impl Continuity {
    /// The word a row carries in its `continuity` field (and the
    /// archive's column).
    pub fn name(self) -> &'static str {
        match self {
            Continuity::First => "first",
            Continuity::Continues => "continues",
            Continuity::Gap(_) => "gap",
            Continuity::Resync => "resync",
        }
    }

    /// The gap's length, for the `gap_ms` field.
    pub fn gap_ms(self) -> Option<i64> {
        match self {
            Continuity::Gap(ms) => Some(ms),
            _ => None,
        }
    }

    /// Read back from a row's `continuity` and `gap_ms` (a gap whose
    /// length is missing is one of unknown length, 0); `None` for a word
    /// this contract does not have.
    pub fn parse(name: &str, gap_ms: Option<i64>) -> Option<Continuity> {
        Some(match name {
            "first" => Continuity::First,
            "continues" => Continuity::Continues,
            "gap" => Continuity::Gap(gap_ms.unwrap_or(0)),
            "resync" => Continuity::Resync,
            _ => return None,
        })
    }

    /// Whether a reader may not carry state (or draw a line) from the
    /// previous row to this one.
    pub fn breaks(self) -> bool {
        self != Continuity::Continues
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_lengths_read_back_as_written() {
        for c in [
            Continuity::First,
            Continuity::Continues,
            Continuity::Gap(7),
            Continuity::Resync,
        ] {
            assert_eq!(Continuity::parse(c.name(), c.gap_ms()), Some(c));
        }
        assert_eq!(Continuity::parse("gap", None), Some(Continuity::Gap(0)));
        assert_eq!(Continuity::parse("skipped", None), None);
        assert!(!Continuity::Continues.breaks());
        assert!(Continuity::Gap(1).breaks() && Continuity::First.breaks());
    }
}
