//! What the proxy keeps: one entry per normalized request, bounded by
//! bytes, with a time to live per operation.
//!
//! | operation                              | fresh | revalidated in background |
//! |----------------------------------------|-------|---------------------------|
//! | `/platforms`, `/league-info`           | 300 s | 300 s more                |
//! | lists (markets, events, series, games, futures, awards) | 5 s | 25 s more |
//! | one market, event, series, game, future, award | 10 s | 50 s more        |
//! | `/markets/{id}/orderbook`              | 2 s   | 3 s more                  |
//! | `/trades`, `/profile/trades`           | 5 s   | 10 s more                 |
//! | `/price-history`                       | 30 s  | 90 s more                 |
//! | `/profile/info`                        | 60 s  | 120 s more                |
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

use bytes::Bytes;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// How long an entry is kept at most, as a fallback for upstream failures.
pub const STALE_KEEP: Duration = Duration::from_secs(600);
/// How long a 404 is remembered.
pub const NEGATIVE_TTL: Duration = Duration::from_secs(5);

/// Query parameters never forwarded: a visitor who put a key into the query
/// string would otherwise send it to the upstream (and into its logs).
const SECRET_PARAMS: [&str; 6] = ["api_key", "apikey", "key", "x-api-key", "token", "secret"];

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
    /// The operation's name in `/metrics` and the log.
    pub op: &'static str,
    pub fresh: Duration,
    /// Served while one background request refreshes it.
    pub revalidate: Duration,
}

impl Policy {
    const fn new(op: &'static str, fresh: u64, revalidate: u64) -> Self {
        Self {
            op,
            fresh: Duration::from_secs(fresh),
            revalidate: Duration::from_secs(revalidate),
        }
    }

    /// Every lifetime times `factor` (`--cache-ttl-scale`).
    pub fn scaled(self, factor: f64) -> Self {
        Self {
            op: self.op,
            fresh: self.fresh.mul_f64(factor),
            revalidate: self.revalidate.mul_f64(factor),
        }
    }

    /// The policy of a request path, `None` for a path that is no operation.
    pub fn of(path: &str) -> Option<Self> {
        let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        Some(match segments.as_slice() {
            ["platforms"] => Self::new("platforms", 300, 300),
            ["league-info"] => Self::new("league-info", 300, 300),
            ["markets"] => Self::new("markets", 5, 25),
            ["events"] => Self::new("events", 5, 25),
            ["series"] => Self::new("series", 5, 25),
            ["list-games"] => Self::new("list-games", 5, 25),
            ["list-futures"] => Self::new("list-futures", 5, 25),
            ["list-awards"] => Self::new("list-awards", 5, 25),
            ["markets", _] => Self::new("market", 10, 50),
            ["events", _] => Self::new("event", 10, 50),
            ["series", _] => Self::new("series-one", 10, 50),
            ["games", _] => Self::new("game", 10, 50),
            ["futures", _] => Self::new("future", 10, 50),
            ["awards", _] => Self::new("award", 10, 50),
            ["markets", _, "orderbook"] => Self::new("orderbook", 2, 3),
            ["trades"] => Self::new("trades", 5, 10),
            ["profile", "trades"] => Self::new("profile-trades", 5, 10),
            ["price-history"] => Self::new("price-history", 30, 90),
            ["profile", "info"] => Self::new("profile-info", 60, 120),
            _ => return None,
        })
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
        })
    }
}

pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// The cache key and the path sent upstream: the path, then the query
/// parameters sorted by name (values of one name keep their order), with
/// secret parameters and default values dropped.
pub fn normalize(path: &str, query: Option<&str>) -> String {
    let mut pairs: Vec<(String, String)> = query
        .map(|q| {
            form_urlencoded::parse(q.as_bytes())
                .filter(|(k, v)| {
                    !SECRET_PARAMS.iter().any(|s| k.eq_ignore_ascii_case(s))
                        && !DEFAULTS.iter().any(|(dk, dv)| k == dk && v == dv)
                })
                .map(|(k, v)| (k.into_owned(), v.into_owned()))
                .collect()
        })
        .unwrap_or_default();
    if pairs.is_empty() {
        return path.to_owned();
    }
    pairs.sort_by(|a, b| a.0.cmp(&b.0));
    let mut query = form_urlencoded::Serializer::new(String::new());
    for (k, v) in &pairs {
        query.append_pair(k, v);
    }
    format!("{path}?{}", query.finish())
}

/// The local cache: moka (TinyLFU admission, LRU eviction) bounded by the
/// bytes of keys and bodies.
pub struct Cache {
    inner: moka::sync::Cache<Arc<str>, Arc<Entry>>,
}

impl Cache {
    pub fn new(max_bytes: u64) -> Self {
        let inner = moka::sync::Cache::builder()
            .max_capacity(max_bytes)
            .weigher(|key: &Arc<str>, entry: &Arc<Entry>| {
                // Plus the bookkeeping of one entry, roughly.
                u32::try_from(key.len() + entry.body.len() + 128).unwrap_or(u32::MAX)
            })
            .time_to_live(STALE_KEEP)
            .build();
        Self { inner }
    }

    pub fn get(&self, key: &str) -> Option<Arc<Entry>> {
        self.inner.get(key)
    }

    pub fn insert(&self, key: &str, entry: Arc<Entry>) {
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
    fn keys_ignore_order_defaults_and_secrets() {
        assert_eq!(
            normalize("/markets", Some("status=open&limit=5&include_raw=false")),
            "/markets?limit=5&status=open"
        );
        assert_eq!(
            normalize("/markets", Some("limit=5&status=open")),
            normalize("/markets", Some("status=open&limit=5"))
        );
        assert_eq!(normalize("/markets", Some("api_key=s3cr3t")), "/markets");
        assert_eq!(normalize("/platforms", None), "/platforms");
        assert_eq!(
            normalize("/markets", Some("query=a%20b&cursor=x%2By")),
            "/markets?cursor=x%2By&query=a+b"
        );
    }

    #[test]
    fn every_operation_has_a_policy() {
        for path in [
            "/series",
            "/series/s1",
            "/markets",
            "/markets/m1",
            "/markets/m1/orderbook",
            "/events",
            "/events/e1",
            "/trades",
            "/price-history",
            "/profile/info",
            "/profile/trades",
            "/platforms",
            "/league-info",
            "/list-games",
            "/games/g1",
            "/list-futures",
            "/futures/f1",
            "/list-awards",
            "/awards/a1",
        ] {
            assert!(Policy::of(path).is_some(), "{path}");
        }
        assert_eq!(Policy::of("/nope"), None);
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
