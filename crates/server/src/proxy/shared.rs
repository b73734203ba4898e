//! `--redis URL`: one upstream budget and one cache for every replica.
//!
//! The budget's GCRA state is one Redis key updated by a Lua script, which
//! Redis runs atomically and on its own clock (`TIME`), so replicas on
//! different machines neither race nor disagree about time. Cache entries
//! are plain keys with an expiry (`STALE_KEEP`); a replica that misses
//! locally asks Redis before the upstream.
//!
//! When Redis is unreachable the budget answers "no slot" (visitors get
//! stale data or a 429) rather than fall back to a local budget: several
//! replicas each spending the whole budget would be the 429 storm the
//! shared budget exists to prevent. The cache just misses.

use super::budget::Params;
use super::cache::{Entry, STALE_KEEP};
use redis::aio::ConnectionManager;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Takes a slot: `{1, 0, tat}` or `{0, wait_ms, tat}`.
const TAKE: &str = r"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local period = tonumber(ARGV[1])
local tau = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
if now < tat - tau then
  return {0, math.ceil(tat - tau - now), math.floor(tat)}
end
tat = tat + period
redis.call('SET', KEYS[1], string.format('%.0f', tat), 'PX', math.ceil(tat - now) + 60000)
return {1, 0, math.floor(tat)}
";

/// Pushes the budget back: no slot for `ARGV[1]` ms.
const DEFER: &str = r"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
local want = now + tonumber(ARGV[1]) + tonumber(ARGV[2])
if want > tat then
  redis.call('SET', KEYS[1], string.format('%.0f', want), 'PX', math.ceil(want - now) + 60000)
  tat = want
end
return math.floor(tat)
";

/// Gives a slot back (every waiter had left).
const REFUND: &str = r"
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat > 0 then
  tat = tat - tonumber(ARGV[1])
  redis.call('SET', KEYS[1], string.format('%.0f', tat), 'KEEPTTL')
end
return math.floor(tat)
";

pub struct Shared {
    conn: ConnectionManager,
    take: redis::Script,
    defer: redis::Script,
    refund: redis::Script,
    /// Namespaces keys per upstream, so two proxies of different upstreams
    /// can share a Redis.
    prefix: String,
    /// The TAT the script last reported, for wait estimates and `/metrics`.
    last_tat: AtomicU64,
    /// Redis errors, counted in `/metrics` (the URL may hold a password, so
    /// neither it nor the error text goes to the log).
    pub errors: AtomicU64,
}

impl Shared {
    /// Connects (with a timeout, so a wrong URL fails the start instead of
    /// hanging it).
    pub async fn connect(url: &str, upstream_base: &str) -> Result<Arc<Self>, String> {
        let client = redis::Client::open(url)
            .map_err(|_| "--redis is not a valid redis:// URL".to_owned())?;
        let config = redis::aio::ConnectionManagerConfig::new()
            .set_connection_timeout(Some(Duration::from_secs(2)))
            .set_response_timeout(Some(Duration::from_secs(2)))
            .set_number_of_retries(2);
        let conn = tokio::time::timeout(
            Duration::from_secs(5),
            ConnectionManager::new_with_config(client, config),
        )
        .await
        .map_err(|_| "--redis: no connection within 5 s".to_owned())?
        .map_err(|e| format!("--redis: cannot connect ({:?})", e.kind()))?;
        Ok(Arc::new(Self {
            conn,
            take: redis::Script::new(TAKE),
            defer: redis::Script::new(DEFER),
            refund: redis::Script::new(REFUND),
            prefix: format!("predmarket:proxy:{upstream_base}:"),
            last_tat: AtomicU64::new(0),
            errors: AtomicU64::new(0),
        }))
    }

    fn budget_key(&self) -> String {
        format!("{}budget", self.prefix)
    }

    pub fn last_tat(&self) -> f64 {
        self.last_tat.load(Ordering::Relaxed) as f64
    }

    fn failed(&self) {
        self.errors.fetch_add(1, Ordering::Relaxed);
    }

    pub async fn take(&self, p: Params) -> Result<(), f64> {
        let mut conn = self.conn.clone();
        let reply: Result<(i64, i64, i64), _> = self
            .take
            .key(self.budget_key())
            .arg(p.t_ms.ceil() as i64)
            .arg(p.tau_ms.floor() as i64)
            .invoke_async(&mut conn)
            .await;
        match reply {
            Ok((granted, wait_ms, tat)) => {
                self.last_tat.store(tat.max(0) as u64, Ordering::Relaxed);
                if granted == 1 {
                    Ok(())
                } else {
                    Err(wait_ms.max(1) as f64)
                }
            }
            Err(_) => {
                self.failed();
                Err(1000.0)
            }
        }
    }

    pub async fn defer(&self, pause_ms: f64, p: Params) {
        let mut conn = self.conn.clone();
        let reply: Result<i64, _> = self
            .defer
            .key(self.budget_key())
            .arg(pause_ms.ceil() as i64)
            .arg(p.tau_ms.floor() as i64)
            .invoke_async(&mut conn)
            .await;
        match reply {
            Ok(tat) => self.last_tat.store(tat.max(0) as u64, Ordering::Relaxed),
            Err(_) => self.failed(),
        }
    }

    pub async fn refund(&self, p: Params) {
        let mut conn = self.conn.clone();
        let reply: Result<i64, _> = self
            .refund
            .key(self.budget_key())
            .arg(p.t_ms.ceil() as i64)
            .invoke_async(&mut conn)
            .await;
        if reply.is_err() {
            self.failed();
        }
    }

    /// The shared entry of `key`, if any.
    pub async fn get(&self, key: &str) -> Option<Entry> {
        let mut conn = self.conn.clone();
        let reply: Result<Option<Vec<u8>>, _> = redis::cmd("GET")
            .arg(format!("{}cache:{key}", self.prefix))
            .query_async(&mut conn)
            .await;
        match reply {
            Ok(bytes) => bytes.and_then(|b| Entry::decode(&b)),
            Err(_) => {
                self.failed();
                None
            }
        }
    }

    pub async fn put(&self, key: &str, entry: &Entry) {
        let mut conn = self.conn.clone();
        let reply: Result<(), _> = redis::cmd("SET")
            .arg(format!("{}cache:{key}", self.prefix))
            .arg(entry.encode())
            .arg("PX")
            .arg(STALE_KEEP.as_millis() as u64)
            .query_async(&mut conn)
            .await;
        if reply.is_err() {
            self.failed();
        }
    }
}
