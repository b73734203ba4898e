//! The recorder (`--record DIR`): every answer the streams' pollers get
//! for a watched resource, kept as a row of a gap-labelled history in
//! Parquet (see docs/record.md).
//!
//! It hooks into the live layer as a `Source` around the pollers' own
//! (`source::Recording`): a poll is recorded where it is made, so with
//! `--redis` only the replica holding a resource's lease records it. Each
//! row says how it follows the resource's previous one (`continuity`), so
//! a reader knows when not to carry state across rows. Rows are parsed
//! and written on a thread of their own (`writer`) behind a bounded
//! queue: when the queue is full or the disk fails, rows are lost and
//! counted, never waited for.

pub mod archive;
pub mod continuity;
pub mod history;
pub mod layout;
pub mod replay;
pub mod replay_mode;
pub mod resource;
pub mod row;
pub mod schema;
pub mod settings;
pub mod source;
pub mod stats;
pub mod store;
pub mod unrecorded;
pub mod writer;

pub use settings::RecordArgs;
pub use stats::Stats;

use continuity::{Tracks, key};
use predmarket_core::change::WatchKind;
use serde_json::Value;
use stats::lock;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use writer::{Command, Pending};

/// Answers waiting for the writer, at most; further ones are lost (and
/// their resources marked `resync`) rather than held in memory.
pub const QUEUE: usize = 4_096;

/// How long shutting down waits for the writer to write what it holds.
pub const FLUSH_PATIENCE: Duration = Duration::from_secs(10);

/// A running recorder; its writer stops (writing what it holds) when the
/// last handle is dropped.
pub struct Recorder {
    queue: SyncSender<Command>,
    dir: std::path::PathBuf,
    tracks: Arc<Mutex<Tracks>>,
    pub stats: Arc<Stats>,
    /// Multiplies each kind's wanted interval (`--stream-interval-scale`).
    interval_scale: f64,
}

impl Recorder {
    /// Starts recording into `settings.dir` (created if missing).
    pub fn start(
        settings: writer::Settings,
        interval_scale: f64,
    ) -> std::io::Result<Arc<Recorder>> {
        std::fs::create_dir_all(&settings.dir)?;
        let dir = settings.dir.clone();
        let (queue, commands) = std::sync::mpsc::sync_channel(QUEUE);
        let tracks = Arc::new(Mutex::new(Tracks::default()));
        let stats = Arc::new(Stats::default());
        let (t, s) = (tracks.clone(), stats.clone());
        let store = match &settings.store {
            Some(url) => Some(store::Store::open(url).map_err(std::io::Error::other)?),
            None => None,
        };
        std::thread::Builder::new()
            .name("predmarket-record".into())
            .spawn(move || writer::run(settings, store, commands, t, s))?;
        Ok(Arc::new(Recorder {
            queue,
            dir,
            tracks,
            stats,
            interval_scale,
        }))
    }

    /// Starts the recorder `args` ask for, if any; a directory that cannot
    /// be made is told and nothing is recorded (`serve` refuses it first).
    pub fn from_args(args: &RecordArgs, interval_scale: f64) -> Option<Arc<Recorder>> {
        let settings = args.settings()?;
        match Recorder::start(settings, interval_scale) {
            Ok(recorder) => Some(recorder),
            Err(error) => {
                tracing::warn!("not recording: {error}");
                None
            }
        }
    }

    /// Where the archive is.
    pub fn dir(&self) -> &std::path::Path {
        &self.dir
    }

    /// How often `kind` wants polling here (ms).
    fn wanted_ms(&self, kind: WatchKind) -> i64 {
        (kind.default_interval_ms() * self.interval_scale).round() as i64
    }

    /// A poll of `kind` `id` answered `body` at `received_ms`, `age_ms` old.
    pub fn answered(&self, kind: WatchKind, id: &str, received_ms: i64, age_ms: i64, body: Value) {
        let key = key(kind, id);
        let wanted_ms = self.wanted_ms(kind);
        let place = lock(&self.tracks).place(&key, received_ms, Some(wanted_ms));
        let pending = Pending {
            kind,
            id: id.to_owned(),
            received_ms,
            age_ms,
            wanted_ms: Some(wanted_ms),
            place,
            body,
        };
        match self.queue.try_send(Command::Row(Box::new(pending))) {
            Ok(()) => {}
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => {
                self.stats.rows_lost.fetch_add(1, Ordering::Relaxed);
                lock(&self.tracks).lost(&key);
            }
        }
    }

    /// A poll of `kind` `id` failed: its next row follows a gap.
    pub fn failed(&self, kind: WatchKind, id: &str) {
        lock(&self.tracks).missed(&key(kind, id));
    }

    /// Writes every buffered row now; waits for the writer up to `patience`.
    pub fn flush(&self, patience: Duration) -> bool {
        let (done, wait) = std::sync::mpsc::channel();
        self.queue.send(Command::Flush(done)).is_ok() && wait.recv_timeout(patience).is_ok()
    }

    /// The recorder's part of `/metrics` (Prometheus text), after `out`.
    pub fn render_metrics(&self, out: &mut String) {
        use std::fmt::Write;
        let s = &self.stats;
        let figures = [
            (
                "predmarket_record_rows_written_total",
                "counter",
                "Rows written to the archive.",
                s.rows_written.load(Ordering::Relaxed),
            ),
            (
                "predmarket_record_parts_written_total",
                "counter",
                "Parquet parts written.",
                s.parts_written.load(Ordering::Relaxed),
            ),
            (
                "predmarket_record_parts_deleted_total",
                "counter",
                "Parts deleted, oldest first, to keep --record-max-mb.",
                s.parts_deleted.load(Ordering::Relaxed),
            ),
            (
                "predmarket_record_rows_lost_total",
                "counter",
                "Rows not recorded: the writer's queue was full or recording was paused.",
                s.rows_lost.load(Ordering::Relaxed),
            ),
            (
                "predmarket_record_write_errors_total",
                "counter",
                "Parts that could not be written (a full disk); each pauses recording.",
                s.write_errors.load(Ordering::Relaxed),
            ),
            (
                "predmarket_record_parts_stored_total",
                "counter",
                "Parts copied to the object store (--record-store).",
                s.parts_stored.load(Ordering::Relaxed),
            ),
            (
                "predmarket_record_store_errors_total",
                "counter",
                "Parts that could not be copied to the object store (the local part stays).",
                s.store_errors.load(Ordering::Relaxed),
            ),
            (
                "predmarket_record_bytes",
                "gauge",
                "Bytes of the archive's parts on disk.",
                s.bytes_on_disk.load(Ordering::Relaxed),
            ),
            (
                "predmarket_record_paused",
                "gauge",
                "1 while recording pauses after a failed write; serving goes on.",
                u64::from(s.paused.load(Ordering::Relaxed)),
            ),
        ];
        for (name, kind, help, value) in figures {
            let _ = write!(
                out,
                "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {value}\n"
            );
        }
    }
}
