//! What the proxy keeps: one entry per request as sent upstream (the
//! operation's typed request rendered, defaults dropped), bounded by bytes,
//! with a time to live per operation ([`Policy::of`]: the `cache(fresh,
//! revalidate)` of the operation's entry in the core's table, so a table
//! entry without one does not compile).
//!
//! Within "fresh" an entry is served as is (`X-Cache: HIT`). Past it but
//! within the revalidation window it is still served at once
//! (`X-Cache: UPDATING`) while one background request refreshes it
//! (stale-while-revalidate), so a hot key never waits on the upstream.
//! Past both, the visitor waits for the upstream; the old entry is kept
//! (up to `STALE_KEEP`) to be served, marked `X-Cache: STALE` and
//! `meta.stale: true`, when the upstream fails.
//!
//! Errors are never cached, except a 404 for `NEGATIVE_TTL`: an unknown id
//! asked for again and again then costs one upstream request per window.
//!
//! An entry is compressed once, gzip and brotli, when it is stored
//! ([`Entry::compressed`]); a hit is served those bytes, or the stored body
//! to a visitor who takes neither: a hit costs no compression and no
//! decompression.

use bytes::Bytes;
use predmarket_core::request::{HttpRequest, Operation};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// How long an entry is kept at most, as a fallback for upstream failures.
pub const STALE_KEEP: Duration = Duration::from_secs(600);
/// How long a 404 is remembered.
pub const NEGATIVE_TTL: Duration = Duration::from_secs(5);

/// Parameters whose value here is the operation's default: dropped, so that
/// `?include_raw=false` and no parameter share one entry. (Page sizes are
/// not dropped: their defaults differ by operation and are not in the spec.)
const DEFAULTS: [(&str, &str); 3] = [
    ("include_raw", "false"),
    ("include_nested", "false"),
    ("include_teams", "false"),
];

/// Time to live of one operation's answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy {
    pub fresh: Duration,
    /// Served while one background request refreshes it.
    pub revalidate: Duration,
}

impl Policy {
    const fn new(fresh: u64, revalidate: u64) -> Self {
        Self {
            fresh: Duration::from_secs(fresh),
            revalidate: Duration::from_secs(revalidate),
        }
    }

    /// Every lifetime times `factor` (`--cache-ttl-scale`).
    pub fn scaled(self, factor: f64) -> Self {
        Self {
            fresh: self.fresh.mul_f64(factor),
            revalidate: self.revalidate.mul_f64(factor),
        }
    }

    /// The policy of an operation: its lifetimes in the core's table.
    pub const fn of(op: Operation) -> Self {
        let lifetimes = op.lifetimes();
        Self::new(
            lifetimes.fresh_secs as u64,
            lifetimes.revalidate_secs as u64,
        )
    }
}

/// One upstream answer as kept and served.
#[derive(Debug)]
pub struct Entry {
    pub status: u16,
    pub body: Bytes,
    /// Unix milliseconds when it came from the upstream (wall clock, so
    /// replicas sharing entries through Redis agree on ages).
    pub fetched_ms: u64,
    /// Fresh for this long (the operation's TTL, or the negative TTL).
    pub fresh_ms: u64,
    /// Then served while revalidating for this long.
    pub revalidate_ms: u64,
    /// `Retry-After` to pass on (errors only).
    pub retry_after: Option<u64>,
    /// The body compressed, made at most once.
    pub compressed: OnceLock<Compressed>,
}

/// An entry's body in the content codings (`None`: the compressor failed,
/// and the body is served as is).
#[derive(Debug)]
pub struct Compressed {
    pub gzip: Option<Bytes>,
    pub brotli: Option<Bytes>,
}

impl Compressed {
    fn len(&self) -> usize {
        [&self.gzip, &self.brotli]
            .into_iter()
            .flatten()
            .map(Bytes::len)
            .sum()
    }
}

/// How an entry stands now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Freshness {
    Fresh,
    Revalidate,
    /// Only good as a fallback when the upstream fails.
    Stale,
}

impl Entry {
    /// The body compressed, compressing it on the first call only (each
    /// counted in `compressions`).
    pub fn compressed(&self, compressions: &AtomicU64) -> &Compressed {
        self.compressed.get_or_init(|| {
            compressions.fetch_add(1, Ordering::Relaxed);
            Compressed {
                gzip: crate::encoding::frame::gzip_whole(&self.body),
                brotli: crate::encoding::frame::brotli_whole(&self.body),
            }
        })
    }

    fn compressed_len(&self) -> usize {
        self.compressed.get().map_or(0, Compressed::len)
    }

    pub fn age_ms(&self, now_ms: u64) -> u64 {
        now_ms.saturating_sub(self.fetched_ms)
    }

    pub fn freshness(&self, now_ms: u64) -> Freshness {
        let age = self.age_ms(now_ms);
        if age < self.fresh_ms {
            Freshness::Fresh
        } else if self.status == 200 && age < self.fresh_ms + self.revalidate_ms {
            Freshness::Revalidate
        } else {
            Freshness::Stale
        }
    }

    /// Whether it may stand in for a failed upstream request.
    pub fn usable_stale(&self, now_ms: u64) -> bool {
        self.status == 200 && self.age_ms(now_ms) < STALE_KEEP.as_millis() as u64
    }

    /// Bytes for Redis: fetched, fresh and revalidate (u64 BE), status (u16
    /// BE), then the body.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(26 + self.body.len());
        out.extend_from_slice(&self.fetched_ms.to_be_bytes());
        out.extend_from_slice(&self.fresh_ms.to_be_bytes());
        out.extend_from_slice(&self.revalidate_ms.to_be_bytes());
        out.extend_from_slice(&self.status.to_be_bytes());
        out.extend_from_slice(&self.body);
        out
    }

    /// `None` for bytes that are not an `encode`d entry.
    pub fn decode(bytes: &[u8]) -> Option<Self> {
        let u64_at = |i: usize| -> Option<u64> {
            Some(u64::from_be_bytes(bytes.get(i..i + 8)?.try_into().ok()?))
        };
        let status = u16::from_be_bytes(bytes.get(24..26)?.try_into().ok()?);
        Some(Self {
            fetched_ms: u64_at(0)?,
            fresh_ms: u64_at(8)?,
            revalidate_ms: u64_at(16)?,
            status,
            body: Bytes::copy_from_slice(bytes.get(26..)?),
            retry_after: None,
            compressed: OnceLock::new(),
        })
    }
}

pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// The request as it is sent and cached: the rendered request (its
/// parameters in declaration order, so one request has one spelling) with
/// parameters at their default value dropped.
pub fn canonical(mut http: HttpRequest) -> HttpRequest {
    http.query
        .retain(|(k, v)| !DEFAULTS.iter().any(|(dk, dv)| k == dk && v == dv));
    http
}

/// The local cache: moka (TinyLFU admission, LRU eviction) bounded by the
/// bytes of keys and bodies (plain, gzip and brotli).
pub struct Cache {
    inner: moka::sync::Cache<Arc<str>, Arc<Entry>>,
    /// Bodies compressed, here and for answers that are not stored.
    pub compressions: AtomicU64,
}

impl Cache {
    pub fn new(max_bytes: u64) -> Self {
        let inner = moka::sync::Cache::builder()
            .max_capacity(max_bytes)
            .weigher(|key: &Arc<str>, entry: &Arc<Entry>| {
                // Plus the bookkeeping of one entry, roughly.
                u32::try_from(key.len() + entry.body.len() + entry.compressed_len() + 128)
                    .unwrap_or(u32::MAX)
            })
            .time_to_live(STALE_KEEP)
            .build();
        Self {
            inner,
            compressions: AtomicU64::new(0),
        }
    }

    pub fn get(&self, key: &str) -> Option<Arc<Entry>> {
        self.inner.get(key)
    }

    /// Stores `entry`, compressed first (once: an entry from another
    /// flight or from Redis is compressed on its first insert only).
    pub fn insert(&self, key: &str, entry: Arc<Entry>) {
        entry.compressed(&self.compressions);
        self.inner.insert(Arc::from(key), entry);
    }

    /// Bytes held (approximate: moka settles its counts lazily).
    pub fn weighted_bytes(&self) -> u64 {
        self.inner.weighted_size()
    }

    pub fn entries(&self) -> u64 {
        self.inner.entry_count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_rendered_requests_without_defaults() {
        use predmarket_core::request::{ListMarkets, Request};
        let key = |query: &str| {
            let request = ListMarkets::from_query(&[], query).unwrap();
            canonical(request.to_http().unwrap()).path_and_query()
        };
        assert_eq!(
            key("status=open&limit=5&include_raw=false"),
            "/markets?limit=5&status=open"
        );
        assert_eq!(key("limit=5&status=open"), key("status=open&limit=5"));
        // Undeclared parameters (a key pasted into the query, a cache
        // buster) are not part of the request.
        assert_eq!(key("api_key=s3cr3t&bust=1"), "/markets");
        assert_eq!(
            key("query=a%20b&cursor=x%2By"),
            "/markets?cursor=x%2By&query=a%20b"
        );
    }

    #[test]
    fn lists_live_shorter_than_directories() {
        for &op in Operation::ALL {
            let policy = Policy::of(op);
            assert!(policy.fresh > Duration::ZERO, "{op}");
            if op.paging().is_some() {
                assert!(policy.fresh < Policy::of(Operation::ListPlatforms).fresh);
            }
        }
    }

    #[test]
    fn entries_round_trip_and_age() {
        let entry = Entry {
            status: 200,
            body: Bytes::from_static(b"{\"a\":1}"),
            fetched_ms: 1_000,
            fresh_ms: 5_000,
            revalidate_ms: 10_000,
            retry_after: None,
            compressed: OnceLock::new(),
        };
        let back = Entry::decode(&entry.encode()).unwrap();
        assert_eq!(back.body, entry.body);
        assert_eq!(back.fetched_ms, 1_000);
        assert_eq!(back.freshness(2_000), Freshness::Fresh);
        assert_eq!(back.freshness(7_000), Freshness::Revalidate);
        assert_eq!(back.freshness(17_000), Freshness::Stale);
        assert!(back.usable_stale(17_000));
        assert!(Entry::decode(b"short").is_none());
    }
}
