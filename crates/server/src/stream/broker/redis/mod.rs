//! The broker of `--redis`: replicas of one upstream share their pollers.
//!
//! Per resource four keys: a lease (`SET NX PX`, renewed by its holder
//! through a script that touches it only while it is the holder's), a
//! bounded Redis Stream of the events the holder publishes (`XADD MAXLEN
//! ~`), the last answer (a hash: the last `snapshot` or `change`; never
//! an `error`), and the answers those events carry, each once
//! (`entry`). An event's stream id is its `seq` (`SEQ-0`), so Redis
//! refuses a second writer's event of a number already taken, and the
//! publish script refuses an event from a replica whose lease expired.
//! An event larger than the cap is not kept ([`Published::Refused`] is
//! not what it gets: `replicate` publishes a `stale` in its place).
//!
//! One reader per replica takes in the events of every resource it
//! follows (`reader`: one blocking `XREAD` over all their streams),
//! on one connection; every other call shares one managed connection. A
//! failed call marks Redis down (`proxy::shared::Health`): topics then
//! poll for their own subscribers until a background `PING` finds it back.

mod entry;
mod reader;

use super::follow::{Follower, Following};
use super::{Broker, History, Lease, Limits, Published};
use crate::proxy::shared::Health;
use crate::stream::frame::{Frame, Kind};
use ::redis::Value as R;
use ::redis::aio::ConnectionManager;
use entry::{Split, Stored, Unsplit};
use futures::future::BoxFuture;
use reader::Reader;
use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Weak};
use std::time::Duration;

/// How long a resource's events and last answer stay in Redis after its
/// last holder stopped renewing them.
const KEEP: Duration = Duration::from_secs(600);

/// Takes the lease (2), renews it and the resource's keys (1), or finds
/// another replica's (0).
const HOLD: &str = r"
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  redis.call('PEXPIRE', KEYS[2], ARGV[3])
  redis.call('PEXPIRE', KEYS[3], ARGV[3])
  redis.call('PEXPIRE', KEYS[4], ARGV[3])
  return 1
end
if not holder then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 2
end
return 0
";

/// Gives the lease up, if it is still the caller's.
const RELEASE: &str = r"
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
";

/// Publishes one event: 1; 0 when the caller no longer holds the lease;
/// -1 when its number is taken (another replica published it). An event
/// with an answer keeps the answer once, becomes the last answer, and
/// drops the answers no kept event names any more.
const PUBLISH: &str = r"
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
local added = redis.pcall('XADD', KEYS[2], 'MAXLEN', '~', ARGV[3], ARGV[2],
  'epoch', ARGV[5], 'kind', ARGV[6], 'json', ARGV[7], 'answer', ARGV[9])
if type(added) == 'table' and added.err then
  return -1
end
redis.call('PEXPIRE', KEYS[2], ARGV[4])
if ARGV[9] ~= '' then
  redis.call('HSET', KEYS[4], ARGV[9], ARGV[10])
  redis.call('PEXPIRE', KEYS[4], ARGV[4])
  redis.call('HSET', KEYS[3], 'epoch', ARGV[5], 'seq', ARGV[8], 'kind', ARGV[6],
    'json', ARGV[7], 'answer', ARGV[9])
  redis.call('PEXPIRE', KEYS[3], ARGV[4])
  local named = {}
  named[ARGV[9]] = true
  for _, entry in ipairs(redis.call('XRANGE', KEYS[2], '-', '+')) do
    local fields = entry[2]
    for i = 1, #fields, 2 do
      if fields[i] == 'answer' then named[fields[i + 1]] = true end
    end
  end
  for _, hash in ipairs(redis.call('HKEYS', KEYS[4])) do
    if not named[hash] then redis.call('HDEL', KEYS[4], hash) end
  end
end
return 1
";

/// The broker of one replica on Redis.
pub struct Redis {
    pub(super) conn: ConnectionManager,
    hold: ::redis::Script,
    release: ::redis::Script,
    publish: ::redis::Script,
    /// Namespaces keys per upstream, as the proxy's budget and cache.
    prefix: String,
    /// This replica in the lease: its process id (so an operator, or a
    /// test, can tell which process polls) and a random part.
    me: String,
    lease: Duration,
    /// Events kept per resource (about: `MAXLEN ~`).
    max_events: usize,
    /// The largest event kept (its JSON whole, bytes).
    max_event_bytes: usize,
    pub(super) health: Arc<Health>,
    reader: Arc<Reader>,
    pinger: tokio::task::JoinHandle<()>,
}

impl Drop for Redis {
    fn drop(&mut self) {
        self.pinger.abort();
    }
}

impl Redis {
    /// Connects (with a timeout, so a wrong URL fails the start).
    pub async fn connect(
        url: &str,
        upstream_base: &str,
        limits: Limits,
    ) -> Result<Arc<Redis>, String> {
        let (client, conn) = crate::proxy::shared::open(url).await?;
        let mut random = [0u8; 4];
        let _ = getrandom::fill(&mut random);
        let health = Arc::new(Health::new(
            "Redis is unavailable for streams: each replica now polls the resources its own \
             clients watch, with its own event numbers, until Redis answers again"
                .to_owned(),
            "Redis answers again; resources watched from now on are polled by one replica again",
        ));
        let pinger = health.watch(conn.clone());
        let redis = Arc::new(Redis {
            conn,
            hold: ::redis::Script::new(HOLD),
            release: ::redis::Script::new(RELEASE),
            publish: ::redis::Script::new(PUBLISH),
            prefix: format!("predmarket:proxy:{upstream_base}:stream:"),
            me: format!("{}:{:08x}", std::process::id(), u32::from_le_bytes(random)),
            lease: limits.lease.max(Duration::from_millis(300)),
            max_events: limits.max_events.max(1),
            max_event_bytes: limits.max_event_bytes,
            health,
            reader: Reader::new(),
            pinger,
        });
        // Started once the broker is whole: its task reads through it.
        redis.reader.start(client, Arc::downgrade(&redis));
        Ok(redis)
    }

    /// The lease's key of resource `key` (`kind:id`).
    pub fn lease_key(&self, key: &str) -> String {
        format!("{}{key}:lease", self.prefix)
    }

    /// The key of the resource's events (a Redis Stream).
    pub fn events_key(&self, key: &str) -> String {
        format!("{}{key}:events", self.prefix)
    }

    fn last_key(&self, key: &str) -> String {
        format!("{}{key}:last", self.prefix)
    }

    /// The key of the answers the resource's events carry, each once.
    pub fn answers_key(&self, key: &str) -> String {
        format!("{}{key}:answers", self.prefix)
    }

    /// One Redis call within the shared `DEADLINE`; `None` (Redis marked
    /// down) when it fails.
    pub(super) async fn call<T>(
        &self,
        call: impl Future<Output = ::redis::RedisResult<T>>,
    ) -> Option<T> {
        self.health.call(call).await
    }

    /// The highest entry number of `entries` (an `XRANGE`-shaped reply),
    /// entries refused included.
    pub(super) fn top_id(entries: &R) -> Option<u64> {
        let R::Array(items) = entries else {
            return None;
        };
        items
            .iter()
            .filter_map(|item| {
                let R::Array(parts) = item else { return None };
                text(parts.first()?)?.split('-').next()?.parse().ok()
            })
            .max()
    }

    /// The events of `entries` (an `XRANGE`-shaped reply) of `key`, their
    /// answers from `answers` (an `HGETALL`-shaped reply).
    pub(super) fn frames(key: &str, entries: &R, answers: &R) -> Vec<Arc<Frame>> {
        let answers: HashMap<&str, &str> = pairs(answers)
            .unwrap_or_default()
            .into_iter()
            .filter_map(|(k, v)| Some((text(k)?, text(v)?)))
            .collect();
        let R::Array(items) = entries else {
            return Vec::new();
        };
        items
            .iter()
            .filter_map(|item| {
                let R::Array(parts) = item else { return None };
                let [id, fields] = parts.as_slice() else {
                    return None;
                };
                let seq = text(id)?.split('-').next()?.parse().ok()?;
                frame(key, seq, &pairs(fields)?, &answers)
            })
            .collect()
    }
}

/// A reply's field-value pairs (a flat array in RESP2, a map in RESP3).
pub(super) fn pairs(value: &R) -> Option<Vec<(&R, &R)>> {
    match value {
        R::Array(items) if items.len() % 2 == 0 => {
            Some(items.chunks(2).map(|p| (&p[0], &p[1])).collect())
        }
        R::Map(items) => Some(items.iter().map(|(k, v)| (k, v)).collect()),
        _ => None,
    }
}

pub(super) fn text(value: &R) -> Option<&str> {
    match value {
        R::BulkString(bytes) => std::str::from_utf8(bytes).ok(),
        R::SimpleString(s) => Some(s),
        _ => None,
    }
}

fn field<'a>(fields: &[(&'a R, &'a R)], name: &str) -> Option<&'a str> {
    fields
        .iter()
        .find(|(k, _)| text(k) == Some(name))
        .and_then(|(_, v)| text(v))
}

/// The event of one entry's fields and number (`entry::join`).
fn frame(
    key: &str,
    seq: u64,
    fields: &[(&R, &R)],
    answers: &HashMap<&str, &str>,
) -> Option<Arc<Frame>> {
    let answer = field(fields, "answer")
        .filter(|hash| !hash.is_empty())
        .map(|hash| answers.get(hash).copied());
    entry::join(
        key,
        &Stored {
            seq,
            epoch: field(fields, "epoch")?,
            kind: field(fields, "kind")?,
            json: field(fields, "json")?,
            answer,
        },
    )
}

impl Broker for Redis {
    fn up(&self) -> bool {
        self.health.up()
    }

    fn shared(&self) -> bool {
        true
    }

    fn lease(&self) -> Duration {
        self.lease
    }

    fn hold<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Option<Lease>> {
        Box::pin(async move {
            let mut conn = self.conn.clone();
            let got: i64 = self
                .call(
                    self.hold
                        .key(self.lease_key(key))
                        .key(self.events_key(key))
                        .key(self.last_key(key))
                        .key(self.answers_key(key))
                        .arg(&self.me)
                        .arg(self.lease.as_millis() as u64)
                        .arg(KEEP.as_millis() as u64)
                        .invoke_async(&mut conn),
                )
                .await?;
            Some(match got {
                0 => Lease::Other,
                taken => Lease::Held { taken: taken == 2 },
            })
        })
    }

    fn release<'a>(&'a self, key: &'a str) -> BoxFuture<'a, ()> {
        Box::pin(async move {
            let mut conn = self.conn.clone();
            let _: Option<i64> = self
                .call(
                    self.release
                        .key(self.lease_key(key))
                        .arg(&self.me)
                        .invoke_async(&mut conn),
                )
                .await;
        })
    }

    fn publish<'a>(
        &'a self,
        key: &'a str,
        frame: &'a Arc<Frame>,
    ) -> BoxFuture<'a, Option<Published>> {
        Box::pin(async move {
            let Split { json, answer } = match entry::split(frame, self.max_event_bytes) {
                Ok(split) => split,
                Err(Unsplit::TooLarge(_) | Unsplit::Unreadable) => {
                    return Some(Published::TooLarge);
                }
            };
            let (hash, answer) = answer.unwrap_or_default();
            let mut conn = self.conn.clone();
            let got: i64 = self
                .call(
                    self.publish
                        .key(self.lease_key(key))
                        .key(self.events_key(key))
                        .key(self.last_key(key))
                        .key(self.answers_key(key))
                        .arg(&self.me)
                        .arg(format!("{}-0", frame.seq))
                        .arg(self.max_events)
                        .arg(KEEP.as_millis() as u64)
                        .arg(frame.epoch)
                        .arg(frame.kind.name())
                        .arg(json)
                        .arg(frame.seq)
                        .arg(hash)
                        .arg(answer)
                        .invoke_async(&mut conn),
                )
                .await?;
            Some(if got == 1 {
                Published::Done
            } else {
                Published::Refused
            })
        })
    }

    fn history<'a>(&'a self, key: &'a str, count: usize) -> BoxFuture<'a, Option<History>> {
        Box::pin(async move {
            let mut conn = self.conn.clone();
            let (last, events, answers): (R, R, R) = self
                .call(
                    ::redis::pipe()
                        .atomic()
                        .cmd("HGETALL")
                        .arg(self.last_key(key))
                        .cmd("XREVRANGE")
                        .arg(self.events_key(key))
                        .arg("+")
                        .arg("-")
                        .arg("COUNT")
                        .arg(count)
                        .cmd("HGETALL")
                        .arg(self.answers_key(key))
                        .query_async(&mut conn),
                )
                .await?;
            let answers_by_hash: HashMap<&str, &str> = pairs(&answers)
                .unwrap_or_default()
                .into_iter()
                .filter_map(|(k, v)| Some((text(k)?, text(v)?)))
                .collect();
            let last = pairs(&last).and_then(|fields| {
                let seq = field(&fields, "seq")?.parse().ok()?;
                frame(key, seq, &fields, &answers_by_hash)
                    .filter(|f| matches!(f.kind, Kind::Snapshot | Kind::Change))
            });
            let mut events = Self::frames(key, &events, &answers);
            events.reverse();
            Some(History { last, events })
        })
    }

    fn since<'a>(&'a self, key: &'a str, seq: u64) -> BoxFuture<'a, Option<Vec<Arc<Frame>>>> {
        Box::pin(async move {
            let mut conn = self.conn.clone();
            let (events, answers): (R, R) = self
                .call(
                    ::redis::pipe()
                        .atomic()
                        .cmd("XRANGE")
                        .arg(self.events_key(key))
                        .arg(format!("({seq}-0"))
                        .arg("+")
                        .cmd("HGETALL")
                        .arg(self.answers_key(key))
                        .query_async(&mut conn),
                )
                .await?;
            Some(Self::frames(key, &events, &answers))
        })
    }

    fn clear<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Option<()>> {
        Box::pin(async move {
            let mut conn = self.conn.clone();
            self.call(
                ::redis::cmd("DEL")
                    .arg(self.events_key(key))
                    .arg(self.last_key(key))
                    .arg(self.answers_key(key))
                    .query_async::<i64>(&mut conn),
            )
            .await
            .map(drop)
        })
    }

    fn follow(&self, key: &str, follower: Weak<dyn Follower>) -> Following {
        self.reader.follow(key, follower)
    }
}
