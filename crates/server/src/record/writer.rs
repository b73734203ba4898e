//! The writer: a thread of its own that turns pending answers into rows,
//! buffers them per partition and writes each buffer as one Parquet part
//! when it reaches its size or age (a temporary name, then a rename, so a
//! crash loses at most the rows not yet written). Before a part is
//! renamed into place the disk quota is kept by deleting the oldest parts.
//! A write that fails (a full disk, a path in the way) pauses recording
//! for a while: its rows and those arriving meanwhile are lost and their
//! resources marked `resync`, and serving never waits on any of it.

use super::continuity::{Placed, Tracks};
use super::layout::{self, Part};
use super::row::{self, Row};
use super::stats::{Stats, lock};
use super::store::Store;
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;
use predmarket_core::change::WatchKind;
use serde_json::Value;
use std::collections::{BTreeMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What the writer is bounded by (`--record-*`).
#[derive(Debug, Clone)]
pub struct Settings {
    pub dir: PathBuf,
    /// Parts on disk in all, at most (oldest deleted first); `None`: no cap.
    pub max_bytes: Option<u64>,
    /// A partition's buffer is written once its answers reach this size.
    pub part_bytes: usize,
    /// …or once its first row is this old.
    pub roll: Duration,
    /// How long recording pauses after a write failed.
    pub pause: Duration,
    /// Where finished parts are copied too (`store::Store::open`).
    pub store: Option<String>,
}

/// An answer on its way to becoming a row.
pub struct Pending {
    pub kind: WatchKind,
    pub id: String,
    pub received_ms: i64,
    pub age_ms: i64,
    pub wanted_ms: Option<i64>,
    pub place: Placed,
    pub body: Value,
}

pub enum Command {
    Row(Box<Pending>),
    /// Write every buffer now, then answer.
    Flush(Sender<()>),
}

/// Rows waiting for one partition's next part.
struct Buffer {
    rows: Vec<Row>,
    bytes: usize,
    since: Instant,
}

struct Writer {
    settings: Settings,
    store: Option<Store>,
    tracks: Arc<Mutex<Tracks>>,
    stats: Arc<Stats>,
    buffers: BTreeMap<PathBuf, Buffer>,
    /// Finished parts, oldest first (retention's order).
    parts: VecDeque<Part>,
    paused_until: Option<Instant>,
    written: u64,
}

/// Runs until every sender is gone, then writes what it holds.
pub fn run(
    settings: Settings,
    store: Option<Store>,
    commands: Receiver<Command>,
    tracks: Arc<Mutex<Tracks>>,
    stats: Arc<Stats>,
) {
    let parts: VecDeque<Part> = layout::parts(&settings.dir).into();
    stats
        .bytes_on_disk
        .store(parts.iter().map(|p| p.bytes).sum(), Ordering::Relaxed);
    let tick = settings
        .roll
        .min(Duration::from_secs(1))
        .max(Duration::from_millis(50));
    let mut writer = Writer {
        settings,
        store,
        tracks,
        stats,
        buffers: BTreeMap::new(),
        parts,
        paused_until: None,
        written: 0,
    };
    loop {
        match commands.recv_timeout(tick) {
            Ok(Command::Row(pending)) => writer.add(*pending),
            Ok(Command::Flush(done)) => {
                writer.write_due(true);
                let _ = done.send(());
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => {
                writer.write_due(true);
                return;
            }
        }
        writer.write_due(false);
    }
}

impl Writer {
    fn paused(&mut self) -> bool {
        match self.paused_until {
            Some(until) if Instant::now() < until => true,
            Some(_) => {
                self.paused_until = None;
                self.stats.paused.store(false, Ordering::Relaxed);
                tracing::info!("recording resumes in {}", self.settings.dir.display());
                false
            }
            None => false,
        }
    }

    fn add(&mut self, pending: Pending) {
        if self.paused() {
            self.lose(pending.kind, &pending.id, 1);
            return;
        }
        let parsed = row::parse(pending.kind, pending.body);
        let row = Row {
            kind: pending.kind,
            id: pending.id,
            platform: parsed.platform,
            as_of: parsed.as_of,
            received_ms: pending.received_ms,
            age_ms: pending.age_ms,
            wanted_ms: pending.wanted_ms,
            place: pending.place,
            levels: parsed.levels,
            mid: parsed.mid,
            values: parsed.values,
            answer: parsed.answer,
        };
        let dir = layout::partition(&self.settings.dir, row.kind, row.received_ms);
        let buffer = self.buffers.entry(dir).or_insert_with(|| Buffer {
            rows: Vec::new(),
            bytes: 0,
            since: Instant::now(),
        });
        buffer.bytes += row.answer.len() + 64 * (row.levels.len() + row.values.len()) + 128;
        buffer.rows.push(row);
    }

    /// Writes the buffers that are full or old enough (all, with `all`).
    fn write_due(&mut self, all: bool) {
        let due: Vec<PathBuf> = self
            .buffers
            .iter()
            .filter(|(_, b)| {
                all || b.bytes >= self.settings.part_bytes
                    || b.since.elapsed() >= self.settings.roll
            })
            .map(|(dir, _)| dir.clone())
            .collect();
        for dir in due {
            if let Some(buffer) = self.buffers.remove(&dir) {
                self.write(&dir, buffer.rows);
            }
        }
    }

    fn write(&mut self, dir: &Path, rows: Vec<Row>) {
        let (Some(first), false) = (rows.first(), self.paused()) else {
            self.lose_rows(&rows);
            return;
        };
        self.written += 1;
        // The earliest row, not the first queued (two pollers can queue
        // out of order by a few ms): readers skip a part by it.
        let first_ms = rows
            .iter()
            .map(|r| r.received_ms)
            .min()
            .unwrap_or(first.received_ms);
        let (name, temp) = layout::part_names(first_ms, self.written);
        let kind = first.kind;
        let temp = dir.join(temp);
        let result = write_part(dir, &temp, &rows).and_then(|bytes| {
            if !self.make_room(bytes) {
                return Err(std::io::Error::other(format!(
                    "a part of {bytes} bytes does not fit in --record-max-mb"
                )));
            }
            let path = dir.join(&name);
            std::fs::rename(&temp, &path)?;
            Ok(Part {
                path,
                kind,
                first_ms,
                bytes,
            })
        });
        match result {
            Ok(part) => {
                self.stats
                    .rows_written
                    .fetch_add(rows.len() as u64, Ordering::Relaxed);
                self.stats.parts_written.fetch_add(1, Ordering::Relaxed);
                self.stats
                    .bytes_on_disk
                    .fetch_add(part.bytes, Ordering::Relaxed);
                self.copy(&part.path);
                self.parts.push_back(part);
            }
            Err(error) => {
                let _ = std::fs::remove_file(&temp);
                self.stats.write_errors.fetch_add(1, Ordering::Relaxed);
                self.stats.paused.store(true, Ordering::Relaxed);
                self.paused_until = Some(Instant::now() + self.settings.pause);
                tracing::warn!(
                    "recording paused for {} s: a part could not be written in {}: {error}; serving goes on",
                    self.settings.pause.as_secs(),
                    dir.display()
                );
                self.lose_rows(&rows);
            }
        }
    }

    /// Copies a finished part to the object store, if there is one; a
    /// failure is counted and told, and the local part stays.
    fn copy(&self, path: &Path) {
        let Some(store) = &self.store else { return };
        let relative = path.strip_prefix(&self.settings.dir).unwrap_or(path);
        match store.put(path, relative) {
            Ok(()) => {
                self.stats.parts_stored.fetch_add(1, Ordering::Relaxed);
            }
            Err(error) => {
                self.stats.store_errors.fetch_add(1, Ordering::Relaxed);
                tracing::warn!("a part could not be copied to the object store: {error}");
            }
        }
    }

    /// Deletes the oldest parts until `bytes` more fit in the quota;
    /// false when they cannot fit at all.
    fn make_room(&mut self, bytes: u64) -> bool {
        let Some(max) = self.settings.max_bytes else {
            return true;
        };
        if bytes > max {
            return false;
        }
        while self.stats.bytes_on_disk.load(Ordering::Relaxed) + bytes > max {
            let Some(oldest) = self.parts.pop_front() else {
                return false;
            };
            // Gone already (removed by hand) counts as deleted.
            let _ = std::fs::remove_file(&oldest.path);
            self.stats.bytes_on_disk.fetch_sub(
                oldest
                    .bytes
                    .min(self.stats.bytes_on_disk.load(Ordering::Relaxed)),
                Ordering::Relaxed,
            );
            self.stats.parts_deleted.fetch_add(1, Ordering::Relaxed);
        }
        true
    }

    fn lose_rows(&self, rows: &[Row]) {
        for row in rows {
            self.lose(row.kind, &row.id, 1);
        }
    }

    fn lose(&self, kind: WatchKind, id: &str, n: u64) {
        self.stats.rows_lost.fetch_add(n, Ordering::Relaxed);
        lock(&self.tracks).lost(&super::continuity::key(kind, id));
    }
}

/// Writes `rows` as one Parquet file at `temp` (in `dir`, created if
/// missing), flushed to the disk; returns its size.
fn write_part(dir: &Path, temp: &Path, rows: &[Row]) -> std::io::Result<u64> {
    std::fs::create_dir_all(dir)?;
    let batch = super::schema::batch(rows).map_err(std::io::Error::other)?;
    let file = std::fs::File::create(temp)?;
    let properties = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .build();
    let mut writer = ArrowWriter::try_new(file, super::schema::SCHEMA.clone(), Some(properties))
        .map_err(std::io::Error::other)?;
    writer.write(&batch).map_err(std::io::Error::other)?;
    let file = writer.into_inner().map_err(std::io::Error::other)?;
    file.sync_all()?;
    Ok(file.metadata()?.len())
}
