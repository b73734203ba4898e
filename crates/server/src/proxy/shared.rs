//! `--redis URL`: one upstream budget and one cache for every replica.
//!
//! The budget's GCRA state is one Redis key updated by a Lua script, which
//! Redis runs atomically and on its own clock (`TIME`), so replicas on
//! different machines neither race nor disagree about time. Cache entries
//! are plain keys with an expiry (`STALE_KEEP`); a replica that misses
//! locally asks Redis before the upstream.
//!
//! When Redis fails (unreachable, too slow: every call on a visitor's way
//! waits at most `DEADLINE`, or an error such as a full Redis under
//! `noeviction`), it is marked down at once, and until a background `PING`
//! finds it answering again no visitor's request touches it: the budget
//! runs on this replica's share of the limit (`--redis-fallback-share`, so
//! that several replicas on their own together stay near one budget) and
//! the cache is this replica's memory. Each change is logged, the warnings
//! at most once a minute (`WARN_EVERY`), never per request, and never with
//! the URL (it may hold a password) or Redis's error text.
//!
//! Entries larger than `--redis-max-entry-kb` are kept in the local cache
//! only, so a few large answers cannot fill Redis.

use super::budget::Params;
use super::cache::{Entry, STALE_KEEP};
use redis::aio::ConnectionManager;
use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// How long a Redis call on a visitor's way may take; then Redis is down.
pub const DEADLINE: Duration = Duration::from_secs(1);
/// How often a down Redis is asked whether it answers again.
pub const RETRY_EVERY: Duration = Duration::from_secs(2);
/// Warnings about Redis at most this often.
pub const WARN_EVERY: Duration = Duration::from_secs(60);

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
    pub health: Arc<Health>,
    /// Share of the upstream limit this replica spends while Redis is down.
    fallback_share: f64,
    /// Encoded entries above this are not shared.
    max_entry_bytes: usize,
    pinger: tokio::task::JoinHandle<()>,
}

/// Whether a Redis connection is in use: the budget's store and the
/// streams' broker each keep one. A failed call marks it down (warned about
/// at most once per `WARN_EVERY`, never per request); while down, calls
/// are not made and a `PING` every `RETRY_EVERY` finds it back.
pub struct Health {
    down: AtomicBool,
    /// Unix ms of the last warning; 0: none yet.
    warned_ms: AtomicU64,
    /// Failures not warned about since the last warning.
    quiet_failures: AtomicU64,
    /// Redis errors, counted in `/metrics` (the URL may hold a password, so
    /// neither it nor the error text goes to the log).
    pub errors: AtomicU64,
    /// What the log says when Redis is lost (what this replica does
    /// meanwhile), and when it answers again.
    lost: String,
    back: &'static str,
}

impl Health {
    pub fn new(lost: String, back: &'static str) -> Self {
        Self {
            down: AtomicBool::new(false),
            warned_ms: AtomicU64::new(0),
            quiet_failures: AtomicU64::new(0),
            errors: AtomicU64::new(0),
            lost,
            back,
        }
    }

    /// Whether Redis is in use (not marked down).
    pub fn up(&self) -> bool {
        !self.down.load(Ordering::Relaxed)
    }

    /// Marks Redis down; warns at most once per `WARN_EVERY`.
    fn failed(&self, why: &str) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        if self.down.swap(true, Ordering::Relaxed) {
            return;
        }
        let now = super::cache::now_ms();
        let last = self.warned_ms.load(Ordering::Relaxed);
        let every = WARN_EVERY.as_millis() as u64;
        if last != 0 && now.saturating_sub(last) < every {
            self.quiet_failures.fetch_add(1, Ordering::Relaxed);
            return;
        }
        self.warned_ms.store(now, Ordering::Relaxed);
        let quiet = self.quiet_failures.swap(0, Ordering::Relaxed);
        tracing::warn!(reason = why, failures_not_logged = quiet, "{}", self.lost);
    }

    /// Runs one Redis call within `DEADLINE`; `None` (and Redis marked
    /// down) when it fails, and at once while Redis is down.
    pub async fn call<T>(&self, call: impl Future<Output = redis::RedisResult<T>>) -> Option<T> {
        if !self.up() {
            return None;
        }
        match tokio::time::timeout(DEADLINE, call).await {
            Ok(Ok(value)) => Some(value),
            Ok(Err(error)) => {
                self.failed(&format!("{:?}", error.kind()));
                None
            }
            Err(_) => {
                self.failed("no answer in time");
                None
            }
        }
    }

    /// Asks a down Redis every `RETRY_EVERY` whether it answers again; the
    /// owner aborts the task when it is dropped.
    pub fn watch(self: &Arc<Self>, mut conn: ConnectionManager) -> tokio::task::JoinHandle<()> {
        let health = self.clone();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(RETRY_EVERY).await;
                if health.up() {
                    continue;
                }
                let pong = tokio::time::timeout(
                    DEADLINE,
                    redis::cmd("PING").query_async::<String>(&mut conn),
                )
                .await;
                if matches!(pong, Ok(Ok(_))) {
                    health.down.store(false, Ordering::Relaxed);
                    tracing::info!("{}", health.back);
                }
            }
        })
    }
}

impl Drop for Shared {
    fn drop(&mut self) {
        self.pinger.abort();
    }
}

/// The client of `--redis` and a managed connection of it: short timeouts,
/// and a start that fails within 5 s on a wrong URL instead of hanging.
/// The budget's store and the streams' broker connect through it alike.
pub async fn open(url: &str) -> Result<(redis::Client, ConnectionManager), String> {
    let client =
        redis::Client::open(url).map_err(|_| "--redis is not a valid redis:// URL".to_owned())?;
    let config = redis::aio::ConnectionManagerConfig::new()
        .set_connection_timeout(Some(Duration::from_secs(2)))
        .set_response_timeout(Some(Duration::from_secs(2)))
        .set_number_of_retries(2);
    let conn = tokio::time::timeout(
        Duration::from_secs(5),
        ConnectionManager::new_with_config(client.clone(), config),
    )
    .await
    .map_err(|_| "--redis: no connection within 5 s".to_owned())?
    .map_err(|e| format!("--redis: cannot connect ({:?})", e.kind()))?;
    Ok((client, conn))
}

impl Shared {
    /// Connects (with a timeout, so a wrong URL fails the start instead of
    /// hanging it).
    pub async fn connect(
        url: &str,
        upstream_base: &str,
        fallback_share: f64,
        max_entry_bytes: usize,
    ) -> Result<Arc<Self>, String> {
        let (_, conn) = open(url).await?;
        let health = Arc::new(Health::new(
            format!(
                "Redis is unavailable: until it answers again, the budget runs on this \
                 replica's share of the limit (--redis-fallback-share {fallback_share}) and the \
                 cache is this replica's own"
            ),
            "Redis answers again; the budget and the cache are shared again",
        ));
        let pinger = health.watch(conn.clone());
        Ok(Arc::new(Self {
            conn,
            take: redis::Script::new(TAKE),
            defer: redis::Script::new(DEFER),
            refund: redis::Script::new(REFUND),
            prefix: format!("predmarket:proxy:{upstream_base}:"),
            last_tat: AtomicU64::new(0),
            health,
            fallback_share,
            max_entry_bytes,
            pinger,
        }))
    }

    fn budget_key(&self) -> String {
        format!("{}budget", self.prefix)
    }

    pub fn last_tat(&self) -> f64 {
        self.last_tat.load(Ordering::Relaxed) as f64
    }

    /// Whether Redis is in use (not marked down).
    pub fn up(&self) -> bool {
        self.health.up()
    }

    /// The limit this replica spends alone while Redis is down.
    pub fn fallback_limit(&self, limit: u32) -> u32 {
        ((f64::from(limit) * self.fallback_share).floor() as u32).max(1)
    }

    async fn call<T>(&self, call: impl Future<Output = redis::RedisResult<T>>) -> Option<T> {
        self.health.call(call).await
    }

    /// Takes a slot: `Ok`, or `Err(ms)` until one frees; `None` when
    /// Redis failed (the budget then decides locally).
    pub async fn take(&self, p: Params) -> Option<Result<(), f64>> {
        let mut conn = self.conn.clone();
        let (granted, wait_ms, tat): (i64, i64, i64) = self
            .call(
                self.take
                    .key(self.budget_key())
                    .arg(p.t_ms.ceil() as i64)
                    .arg(p.tau_ms.floor() as i64)
                    .invoke_async(&mut conn),
            )
            .await?;
        self.last_tat.store(tat.max(0) as u64, Ordering::Relaxed);
        Some(if granted == 1 {
            Ok(())
        } else {
            Err(wait_ms.max(1) as f64)
        })
    }

    pub async fn defer(&self, pause_ms: f64, p: Params) {
        let mut conn = self.conn.clone();
        let tat: Option<i64> = self
            .call(
                self.defer
                    .key(self.budget_key())
                    .arg(pause_ms.ceil() as i64)
                    .arg(p.tau_ms.floor() as i64)
                    .invoke_async(&mut conn),
            )
            .await;
        if let Some(tat) = tat {
            self.last_tat.store(tat.max(0) as u64, Ordering::Relaxed);
        }
    }

    pub async fn refund(&self, p: Params) {
        let mut conn = self.conn.clone();
        let _: Option<i64> = self
            .call(
                self.refund
                    .key(self.budget_key())
                    .arg(p.t_ms.ceil() as i64)
                    .invoke_async(&mut conn),
            )
            .await;
    }

    /// The shared entry of `key`, if any (none while Redis is down).
    pub async fn get(&self, key: &str) -> Option<Entry> {
        let mut conn = self.conn.clone();
        let bytes: Option<Vec<u8>> = self
            .call(
                redis::cmd("GET")
                    .arg(format!("{}cache:{key}", self.prefix))
                    .query_async(&mut conn),
            )
            .await?;
        bytes.and_then(|b| Entry::decode(&b))
    }

    /// Shares `entry`, unless it is larger than `--redis-max-entry-kb`.
    pub async fn put(&self, key: &str, entry: &Entry) {
        let bytes = entry.encode();
        if bytes.len() > self.max_entry_bytes || !self.up() {
            return;
        }
        let mut conn = self.conn.clone();
        let _: Option<()> = self
            .call(
                redis::cmd("SET")
                    .arg(format!("{}cache:{key}", self.prefix))
                    .arg(bytes)
                    .arg("PX")
                    .arg(STALE_KEEP.as_millis() as u64)
                    .query_async(&mut conn),
            )
            .await;
    }
}
