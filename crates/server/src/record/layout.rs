//! Where parts live: `DIR/kind=KIND/date=YYYY-MM-DD/part-FIRSTMS-N.parquet`
//! (hive partitions, so DuckDB, pyarrow and polars read the kind and the
//! day as columns), written first under a dotted temporary name that no
//! reader's `*.parquet` glob matches, then renamed.

use predmarket_core::change::WatchKind;
use std::path::{Path, PathBuf};

/// What a finished part's name ends with.
pub const PART_SUFFIX: &str = ".parquet";

/// One finished part on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    pub path: PathBuf,
    pub kind: WatchKind,
    /// When its first row arrived (unix ms): the order retention deletes in.
    pub first_ms: i64,
    pub bytes: u64,
}

/// The UTC day of `ms`, as the `date=` partition names it.
pub fn date_of(ms: i64) -> String {
    let text = crate::data::time::iso8601(ms.div_euclid(1000));
    text.get(..10).unwrap_or(&text).to_owned()
}

/// The partition of `kind` on the day of `ms`.
pub fn partition(root: &Path, kind: WatchKind, ms: i64) -> PathBuf {
    root.join(format!("kind={}", kind.name()))
        .join(format!("date={}", date_of(ms)))
}

/// The name of the `n`th part whose first row arrived at `first_ms`, and
/// the temporary name it is written under.
pub fn part_names(first_ms: i64, n: u64) -> (String, String) {
    let name = format!("part-{first_ms:013}-{n}{PART_SUFFIX}");
    let temp = format!(".{name}.tmp");
    (name, temp)
}

/// Every finished part under `root`, oldest first. Directories and files
/// that are not the recorder's are passed over.
pub fn parts(root: &Path) -> Vec<Part> {
    let mut found = Vec::new();
    for kind in WatchKind::ALL {
        let kind_dir = root.join(format!("kind={}", kind.name()));
        for date in read_dir(&kind_dir) {
            for file in read_dir(&date) {
                let Some(first_ms) = file
                    .file_name()
                    .and_then(|n| n.to_str())
                    .and_then(|n| n.strip_prefix("part-"))
                    .and_then(|n| n.strip_suffix(PART_SUFFIX))
                    .and_then(|n| n.split('-').next())
                    .and_then(|n| n.parse::<i64>().ok())
                else {
                    continue;
                };
                let bytes = std::fs::metadata(&file).map_or(0, |m| m.len());
                found.push(Part {
                    path: file,
                    kind,
                    first_ms,
                    bytes,
                });
            }
        }
    }
    found.sort_by(|a, b| {
        a.first_ms
            .cmp(&b.first_ms)
            .then_with(|| a.path.cmp(&b.path))
    });
    found
}

fn read_dir(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    paths.sort();
    paths
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_are_named_to_sort_and_dated_in_utc() {
        assert_eq!(date_of(0), "1970-01-01");
        assert_eq!(date_of(86_400_000 - 1), "1970-01-01");
        let (name, temp) = part_names(1_700_000_000_000, 3);
        assert_eq!(name, "part-1700000000000-3.parquet");
        assert!(temp.starts_with('.') && !temp.ends_with(PART_SUFFIX));
        assert_eq!(
            partition(Path::new("/a"), WatchKind::Orderbook, 0),
            Path::new("/a/kind=orderbook/date=1970-01-01")
        );
    }
}
