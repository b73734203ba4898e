//! The recorder's and the replay's flags, and the settings they give
//! (each part's own: `config.rs` only composes them).

use super::replay::{Clock, Timeline};
use super::writer;
use std::path::PathBuf;
use std::time::Duration;

/// The recorder's flags.
#[derive(Debug, Clone, clap::Args)]
pub struct RecordArgs {
    /// Record every answer the streams' pollers get into this directory
    /// (Parquet, partitioned kind=…/date=…/).
    #[arg(id = "record_dir", long = "record", env = "PREDMARKET_RECORD")]
    pub dir: Option<PathBuf>,
    /// Megabytes the archive may take; the oldest parts are deleted first.
    #[arg(long = "record-max-mb", default_value_t = 1_024)]
    pub max_mb: u64,
    /// Megabytes of answers in one part at most.
    #[arg(long = "record-part-mb", default_value_t = 32)]
    pub part_mb: u64,
    /// Seconds a part collects rows at most before it is written.
    #[arg(long = "record-roll-secs", default_value_t = 300.0)]
    pub roll_secs: f64,
    /// Seconds recording pauses after a part could not be written (a
    /// full disk).
    #[arg(long = "record-pause-secs", default_value_t = 60.0)]
    pub pause_secs: f64,
    /// Also copy every part to this object store (`file:///dir`, or
    /// `s3://bucket/prefix` with AWS_* settings and `?endpoint=…`), under
    /// the same kind=…/date=…/ path.
    #[arg(long = "record-store")]
    pub store: Option<String>,
}

impl Default for RecordArgs {
    fn default() -> Self {
        Self {
            dir: None,
            max_mb: 1_024,
            part_mb: 32,
            roll_secs: 300.0,
            pause_secs: 60.0,
            store: None,
        }
    }
}

impl RecordArgs {
    /// The writer's settings, when recording is on.
    pub fn settings(&self) -> Option<writer::Settings> {
        let secs = |s: f64| Duration::from_secs_f64(if s.is_finite() { s.max(0.05) } else { 60.0 });
        Some(writer::Settings {
            dir: self.dir.clone()?,
            max_bytes: Some(self.max_mb.saturating_mul(1024 * 1024)),
            part_bytes: usize::try_from(self.part_mb.saturating_mul(1024 * 1024))
                .unwrap_or(usize::MAX),
            roll: secs(self.roll_secs),
            pause: secs(self.pause_secs),
            store: self.store.clone(),
        })
    }
}

/// The replay's flags.
#[derive(Debug, Clone, clap::Args)]
pub struct ReplayArgs {
    /// Serve the recorded resources of this archive (`--record DIR`)
    /// instead of generated data.
    #[arg(id = "replay_dir", long = "replay")]
    pub dir: Option<PathBuf>,
    /// The replay starts at this instant (ISO 8601 or unix seconds or ms);
    /// default: the archive's first answer.
    #[arg(long = "at", requires = "replay_dir")]
    pub at: Option<String>,
    /// How many times as fast as recorded the replay runs (0 holds it at
    /// --at).
    #[arg(long = "speed", default_value_t = 1.0, requires = "replay_dir")]
    pub speed: f64,
}

impl Default for ReplayArgs {
    fn default() -> Self {
        Self {
            dir: None,
            at: None,
            speed: 1.0,
        }
    }
}

impl ReplayArgs {
    /// The replay's clock over `timeline`.
    pub fn clock(&self, timeline: &Timeline) -> Result<Clock, String> {
        let at = match &self.at {
            Some(text) => predmarket_core::time::timestamp_ms(text).ok_or_else(|| {
                format!("--at {text}: not an instant (ISO 8601, or unix seconds or ms)")
            })?,
            None => timeline.first_ms().unwrap_or(0),
        };
        Ok(Clock::new(at, self.speed))
    }
}

#[cfg(test)]
mod tests {
    use clap::{CommandFactory, Parser};

    #[test]
    fn the_flags_parse_beside_every_other_flag() {
        crate::config::Config::command().debug_assert();
        let config = crate::config::Config::parse_from([
            "predmarket-server",
            "--replay",
            "/a",
            "--at",
            "2026-11-27T10:00:00Z",
            "--speed",
            "0",
            "--record",
            "/b",
            "--record-max-mb",
            "5",
        ]);
        assert_eq!(
            config.replay.dir.as_deref(),
            Some(std::path::Path::new("/a"))
        );
        assert_eq!(config.replay.speed, 0.0);
        let settings = config.record.settings().expect("recording");
        assert_eq!(settings.max_bytes, Some(5 * 1024 * 1024));
        // --at means nothing without --replay.
        assert!(crate::config::Config::try_parse_from(["predmarket-server", "--at", "1"]).is_err());
    }
}
