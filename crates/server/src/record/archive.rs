//! Reading an archive back: the rows of the parts under a directory,
//! filtered by resource and time, in the order they were received. What
//! replay and `/history` stand on.

use super::layout;
use super::schema::{self, Stored};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use predmarket_core::change::WatchKind;
use std::path::{Path, PathBuf};

const DAY_MS: i64 = 86_400_000;

/// Why an archive could not be read.
#[derive(Debug)]
pub enum ArchiveError {
    Io(PathBuf, std::io::Error),
    /// A part that is not Parquet of the archive's schema.
    Part(PathBuf, String),
}

impl std::fmt::Display for ArchiveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ArchiveError::Io(path, e) => write!(f, "{}: {e}", path.display()),
            ArchiveError::Part(path, e) => {
                write!(f, "{}: not a part of this archive: {e}", path.display())
            }
        }
    }
}

impl std::error::Error for ArchiveError {}

/// One row read back, with its kind (from its partition).
#[derive(Debug, Clone, PartialEq)]
pub struct Recorded {
    pub kind: WatchKind,
    pub row: Stored,
}

/// Which rows to read.
#[derive(Debug, Clone, Default)]
pub struct Filter<'a> {
    pub kind: Option<WatchKind>,
    pub id: Option<&'a str>,
    /// Received at or after (unix ms).
    pub from_ms: Option<i64>,
    /// Received before (unix ms).
    pub to_ms: Option<i64>,
}

impl Filter<'_> {
    fn keeps(&self, kind: WatchKind, row: &Stored) -> bool {
        self.kind.is_none_or(|k| k == kind)
            && self.id.is_none_or(|id| id == row.id)
            && self.from_ms.is_none_or(|from| row.received_ms >= from)
            && self.to_ms.is_none_or(|to| row.received_ms < to)
    }
}

/// The rows under `root` that `filter` keeps, by time received (then
/// resource and number), at most `limit`. What it holds at once is
/// bounded by `limit` and one part (`--record-part-mb`), not by the
/// archive: after each part only the first `limit` rows are kept, and a
/// part that starts after the last of a full set is not read.
pub fn read(root: &Path, filter: &Filter<'_>, limit: usize) -> Result<Vec<Recorded>, ArchiveError> {
    read_listed(layout::parts(root), filter, limit)
}

/// `read` over parts listed a moment before. A part that is gone when it
/// is opened was deleted in between by the recorder's quota, oldest
/// first: the archive is read as if listed after that deletion, as a
/// `/history` request on a recording proxy must be (its visitor gets the
/// rows that remain, not a 500). A part that is there but unreadable is
/// still an error.
fn read_listed(
    mut parts: Vec<layout::Part>,
    filter: &Filter<'_>,
    limit: usize,
) -> Result<Vec<Recorded>, ArchiveError> {
    let mut rows = Vec::new();
    parts.sort_by_key(|p| p.first_ms);
    for part in parts {
        // A part holds rows of its partition's day only: days wholly
        // before the window are not read.
        let day_end = part.first_ms - part.first_ms.rem_euclid(DAY_MS) + DAY_MS;
        let after_a_full_set = rows.len() >= limit
            && rows
                .iter()
                .map(|r: &Recorded| r.row.received_ms)
                .max()
                .is_some_and(|last| part.first_ms > last);
        if filter.kind.is_some_and(|k| k != part.kind)
            || filter.to_ms.is_some_and(|to| part.first_ms >= to)
            || filter.from_ms.is_some_and(|from| day_end <= from)
            || after_a_full_set
        {
            continue;
        }
        let part_rows = match read_part(&part.path) {
            Err(ArchiveError::Io(_, e)) if e.kind() == std::io::ErrorKind::NotFound => continue,
            read => read?,
        };
        for row in part_rows {
            if filter.keeps(part.kind, &row) {
                rows.push(Recorded {
                    kind: part.kind,
                    row,
                });
            }
        }
        // Cut only when over: a whole read (replay's) sorts once.
        if rows.len() > limit {
            in_order(&mut rows);
            rows.truncate(limit);
        }
    }
    in_order(&mut rows);
    Ok(rows)
}

/// By time received, then resource and number.
fn in_order(rows: &mut [Recorded]) {
    rows.sort_by(|a, b| {
        (a.row.received_ms, a.kind.name(), &a.row.id, a.row.seq).cmp(&(
            b.row.received_ms,
            b.kind.name(),
            &b.row.id,
            b.row.seq,
        ))
    });
}

/// Every row of one part.
pub fn read_part(path: &Path) -> Result<Vec<Stored>, ArchiveError> {
    let part = |e: &dyn std::fmt::Display| ArchiveError::Part(path.to_owned(), e.to_string());
    let file = std::fs::File::open(path).map_err(|e| ArchiveError::Io(path.to_owned(), e))?;
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .and_then(|b| b.build())
        .map_err(|e| part(&e))?;
    let mut rows = Vec::new();
    for batch in reader {
        let batch = batch.map_err(|e| part(&e))?;
        rows.extend(schema::stored(&batch).map_err(|e| part(&e))?);
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listed(path: PathBuf) -> layout::Part {
        layout::Part {
            path,
            kind: WatchKind::Orderbook,
            first_ms: 1_700_000_000_000,
            bytes: 0,
        }
    }

    #[test]
    fn a_part_deleted_after_the_listing_is_passed_over_and_an_unreadable_one_is_an_error() {
        let dir = std::env::temp_dir().join(format!("archive-gone-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let gone = dir.join("part-1700000000000-0.parquet");
        let rows = read_listed(vec![listed(gone)], &Filter::default(), 10);
        assert!(matches!(rows.as_deref(), Ok([])), "{rows:?}");
        let garbage = dir.join("part-1700000000000-1.parquet");
        std::fs::write(&garbage, b"not parquet").expect("written");
        let rows = read_listed(vec![listed(garbage)], &Filter::default(), 10);
        assert!(matches!(rows, Err(ArchiveError::Part(..))), "{rows:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
