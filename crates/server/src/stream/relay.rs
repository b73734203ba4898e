//! `--redis` for streams: several replicas, one poller per resource.
//!
//! Per resource three keys: a lease (`SET NX PX`, renewed by its holder at
//! a third of its lifetime through a script that touches it only while it
//! is the holder's), a bounded Redis Stream of the events the holder
//! publishes (`XADD MAXLEN ~`), and the last answer (a hash: the last
//! `snapshot` or `change`). An event's stream id is its `seq` (`SEQ-0`),
//! so Redis refuses a second writer's event of a number already taken,
//! and the publish script refuses an event from a replica whose lease
//! expired.
//!
//! Every replica whose clients watch a resource keeps a topic for it: it
//! starts from the last answer and the latest events (a client's
//! `Last-Event-ID` from another replica replays here), reads the events as
//! they come (`XREAD BLOCK`, a connection per topic, since a blocking read
//! holds its connection), and tries for the lease while it has viewers.
//! When the holder dies its lease runs out, another replica with viewers
//! takes it within a third of its lifetime, goes on numbering from the
//! last event, and, if the data went unpolled for longer than its
//! interval, says `stale` and polls at once; its first answer brings
//! `live`. A resource not yet due is polled when it is, from the last
//! answer published (a taking-over replica would otherwise queue the
//! polls of all it took over on the budget together).
//!
//! When Redis fails, each replica polls the resources its own clients
//! watch, each in a numbering of its own (a warning in the log, and in
//! `/metrics` the topics polled so). Once a background `PING` finds Redis
//! answering, new topics use it again and the running ones rejoin: they
//! follow what Redis holds of the resource (their subscribers get a
//! `resync` and the snapshot), and one replica takes the lease again.

use super::frame::{Frame, Kind};
use super::topic::{Mode, Topic};
use crate::proxy::shared::{DEADLINE, Health};
use redis::Value as R;
use redis::aio::{ConnectionManager, MultiplexedConnection};
use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// How long a read waits for an event before asking again.
const BLOCK: Duration = Duration::from_secs(2);
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
/// -1 when its number is taken (another replica published it).
const PUBLISH: &str = r"
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
local added = redis.pcall('XADD', KEYS[2], 'MAXLEN', '~', ARGV[3], ARGV[2],
  'epoch', ARGV[5], 'kind', ARGV[6], 'json', ARGV[7])
if type(added) == 'table' and added.err then
  return -1
end
redis.call('PEXPIRE', KEYS[2], ARGV[4])
if ARGV[8] == '1' then
  redis.call('HSET', KEYS[3], 'epoch', ARGV[5], 'seq', ARGV[9], 'kind', ARGV[6], 'json', ARGV[7])
  redis.call('PEXPIRE', KEYS[3], ARGV[4])
end
return 1
";

/// What a publish came to.
#[derive(Debug, PartialEq, Eq)]
pub enum Published {
    Done,
    /// The lease is another replica's, or the number was taken.
    Refused,
}

pub struct Relay {
    client: redis::Client,
    conn: ConnectionManager,
    hold: redis::Script,
    release: redis::Script,
    publish: redis::Script,
    /// Namespaces keys per upstream, as the proxy's budget and cache.
    prefix: String,
    /// This replica in the lease: its process id (so an operator, or a
    /// test, can tell which process polls) and a random part.
    me: String,
    pub lease: Duration,
    /// Events kept per resource in Redis (about: `MAXLEN ~`).
    max_events: usize,
    health: Arc<Health>,
    /// Resources this replica took over after their polls stopped for
    /// longer than their interval (`/metrics`).
    pub failovers: AtomicU64,
    pinger: tokio::task::JoinHandle<()>,
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.pinger.abort();
    }
}

impl Relay {
    /// Connects (with a timeout, so a wrong URL fails the start).
    pub async fn connect(
        url: &str,
        upstream_base: &str,
        lease: Duration,
        max_events: usize,
    ) -> Result<Arc<Relay>, String> {
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
        Ok(Arc::new(Relay {
            client,
            conn,
            hold: redis::Script::new(HOLD),
            release: redis::Script::new(RELEASE),
            publish: redis::Script::new(PUBLISH),
            prefix: format!("predmarket:proxy:{upstream_base}:stream:"),
            me: format!("{}:{:08x}", std::process::id(), u32::from_le_bytes(random)),
            lease: lease.max(Duration::from_millis(300)),
            max_events: max_events.max(1),
            health,
            failovers: AtomicU64::new(0),
            pinger,
        }))
    }

    /// The lease's key of resource `key` (`kind:id`).
    pub fn lease_key(&self, key: &str) -> String {
        format!("{}{key}:lease", self.prefix)
    }

    fn events_key(&self, key: &str) -> String {
        format!("{}{key}:events", self.prefix)
    }

    fn last_key(&self, key: &str) -> String {
        format!("{}{key}:last", self.prefix)
    }

    pub fn up(&self) -> bool {
        self.health.up()
    }

    /// How often a holder renews its lease, and a follower tries for it.
    pub fn renew_every(&self) -> Duration {
        self.lease / 3
    }

    /// One Redis call within the shared `DEADLINE`; `None` (Redis marked
    /// down) when it fails.
    async fn call<T>(&self, call: impl Future<Output = redis::RedisResult<T>>) -> Option<T> {
        self.health.call(call).await
    }

    /// Takes or renews the lease of `key`: `Some(true)` when this replica
    /// holds it now, `None` when Redis failed.
    pub async fn hold(&self, key: &str) -> Option<(bool, bool)> {
        let mut conn = self.conn.clone();
        let got: i64 = self
            .call(
                self.hold
                    .key(self.lease_key(key))
                    .key(self.events_key(key))
                    .key(self.last_key(key))
                    .arg(&self.me)
                    .arg(self.lease.as_millis() as u64)
                    .arg(KEEP.as_millis() as u64)
                    .invoke_async(&mut conn),
            )
            .await?;
        // (holds it, just took it)
        Some((got > 0, got == 2))
    }

    /// Gives the lease of `key` up, so another replica's viewers need not
    /// wait for it to run out.
    pub async fn release(&self, key: &str) {
        let mut conn = self.conn.clone();
        let _: Option<i64> = self
            .call(
                self.release
                    .key(self.lease_key(key))
                    .arg(&self.me)
                    .invoke_async(&mut conn),
            )
            .await;
    }

    /// Forgets what Redis holds of `key`: its numbering starts anew.
    pub async fn clear(&self, key: &str) -> Option<()> {
        let mut conn = self.conn.clone();
        self.call(
            redis::cmd("DEL")
                .arg(self.events_key(key))
                .arg(self.last_key(key))
                .query_async::<i64>(&mut conn),
        )
        .await
        .map(drop)
    }

    /// Publishes one event of `key`; `None` when Redis failed.
    pub async fn publish(&self, key: &str, frame: &Frame) -> Option<Published> {
        let mut conn = self.conn.clone();
        let last = matches!(frame.kind, Kind::Snapshot | Kind::Change | Kind::Error);
        let got: i64 = self
            .call(
                self.publish
                    .key(self.lease_key(key))
                    .key(self.events_key(key))
                    .key(self.last_key(key))
                    .arg(&self.me)
                    .arg(format!("{}-0", frame.seq))
                    .arg(self.max_events)
                    .arg(KEEP.as_millis() as u64)
                    .arg(frame.epoch)
                    .arg(frame.kind.name())
                    .arg(frame.json())
                    .arg(if last { "1" } else { "0" })
                    .arg(frame.seq)
                    .invoke_async(&mut conn),
            )
            .await?;
        Some(if got == 1 {
            Published::Done
        } else {
            Published::Refused
        })
    }

    /// What Redis holds of `key`: the last answer, and the latest `count`
    /// events, oldest first; `None` when Redis failed.
    pub async fn load(
        &self,
        key: &str,
        count: usize,
    ) -> Option<(Option<Arc<Frame>>, Vec<Arc<Frame>>)> {
        let mut conn = self.conn.clone();
        let (last, events): (R, R) = self
            .call(
                redis::pipe()
                    .atomic()
                    .cmd("HGETALL")
                    .arg(self.last_key(key))
                    .cmd("XREVRANGE")
                    .arg(self.events_key(key))
                    .arg("+")
                    .arg("-")
                    .arg("COUNT")
                    .arg(count)
                    .query_async(&mut conn),
            )
            .await?;
        let last = pairs(&last).and_then(|fields| {
            let seq = text(field(&fields, "seq")?)?.parse().ok()?;
            entry(&fields, seq)
        });
        let mut events = entries(&events);
        events.reverse();
        Some((last, events))
    }

    /// A connection of its own for a topic's blocking reads.
    async fn reader(&self) -> Option<MultiplexedConnection> {
        let config = redis::AsyncConnectionConfig::new()
            .set_connection_timeout(Some(Duration::from_secs(2)))
            .set_response_timeout(Some(BLOCK + DEADLINE));
        tokio::time::timeout(
            Duration::from_secs(3),
            self.client
                .get_multiplexed_async_connection_with_config(&config),
        )
        .await
        .ok()?
        .ok()
    }
}

/// A reply's field-value pairs (a flat array in RESP2, a map in RESP3).
fn pairs(value: &R) -> Option<Vec<(&R, &R)>> {
    match value {
        R::Array(items) if items.len() % 2 == 0 => {
            Some(items.chunks(2).map(|p| (&p[0], &p[1])).collect())
        }
        R::Map(items) => Some(items.iter().map(|(k, v)| (k, v)).collect()),
        _ => None,
    }
}

fn text(value: &R) -> Option<&str> {
    match value {
        R::BulkString(bytes) => std::str::from_utf8(bytes).ok(),
        R::SimpleString(s) => Some(s),
        _ => None,
    }
}

fn field<'a>(fields: &[(&'a R, &'a R)], name: &str) -> Option<&'a R> {
    fields
        .iter()
        .find(|(k, _)| text(k) == Some(name))
        .map(|(_, v)| *v)
}

/// An event from its fields (`epoch`, `kind`, `json`) and number.
fn entry(fields: &[(&R, &R)], seq: u64) -> Option<Arc<Frame>> {
    let epoch = text(field(fields, "epoch")?)?.parse().ok()?;
    let kind = Kind::from_name(text(field(fields, "kind")?)?)?;
    let json = text(field(fields, "json")?)?;
    Some(Arc::new(Frame::from_json(kind, epoch, seq, json)))
}

/// The events of an `XRANGE`-shaped reply: `[[id, [field, value, …]], …]`.
fn entries(value: &R) -> Vec<Arc<Frame>> {
    let R::Array(items) = value else {
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
            entry(&pairs(fields)?, seq)
        })
        .collect()
}

/// The events of an `XREAD` of one stream: `[[key, entries]]` (a map in
/// RESP3), nothing when the read timed out.
fn read_reply(value: &R) -> Vec<Arc<Frame>> {
    match value {
        R::Array(streams) => streams
            .iter()
            .filter_map(|s| match s {
                R::Array(parts) if parts.len() == 2 => Some(entries(&parts[1])),
                _ => None,
            })
            .flatten()
            .collect(),
        R::Map(streams) => streams.iter().flat_map(|(_, v)| entries(v)).collect(),
        _ => Vec::new(),
    }
}

/// Takes in the events another replica publishes of `topic`, from the
/// topic's last number on, until the topic's poller stops (it aborts this
/// task) or the topic falls back to polling without Redis.
pub async fn follow(relay: Arc<Relay>, topic: Arc<Topic>) {
    let mut conn: Option<MultiplexedConnection> = None;
    let events = relay.events_key(&topic.key);
    loop {
        if topic.mode() == Mode::Degraded {
            return;
        }
        if !relay.up() || topic.mode() == Mode::Leader {
            // A leader's own events come in as Redis takes them.
            tokio::time::sleep(relay.renew_every()).await;
            continue;
        }
        let Some(c) = conn.as_mut() else {
            conn = relay.reader().await;
            if conn.is_none() {
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
            continue;
        };
        let from = format!("{}-0", topic.seq());
        let read: redis::RedisResult<R> = redis::cmd("XREAD")
            .arg("COUNT")
            .arg(256)
            .arg("BLOCK")
            .arg(BLOCK.as_millis() as u64)
            .arg("STREAMS")
            .arg(&events)
            .arg(&from)
            .query_async(c)
            .await;
        match read {
            Ok(reply) => {
                for frame in read_reply(&reply) {
                    topic.ingest(frame);
                }
            }
            Err(_) => {
                conn = None;
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
    }
}

/// Holds (or tries for) `topic`'s lease every third of its lifetime while
/// the topic lives: a follower with viewers takes it when it is free; a
/// leader renews it, and publishes its events (`write`).
pub async fn keep_lease(relay: Arc<Relay>, topic: Arc<Topic>) {
    let mut writer: Option<crate::proxy::AbortOnDrop> = None;
    loop {
        let mode = topic.mode();
        if mode == Mode::Degraded {
            return;
        }
        let watched = topic.subscribers.load(Ordering::SeqCst) > 0;
        if mode == Mode::Leader || watched {
            match relay.hold(&topic.key).await {
                None => {
                    drop(writer.take());
                    topic.degrade();
                    return;
                }
                Some((true, _)) if mode == Mode::Leader && writer.is_some() => {}
                Some((true, _)) => {
                    // Whatever was published before this replica led is
                    // taken in first, so its numbers go on from there.
                    if catch_up(&relay, &topic).await.is_none() {
                        topic.degrade();
                        return;
                    }
                    if topic.seq() == 0 && relay.clear(&topic.key).await.is_none() {
                        topic.degrade();
                        return;
                    }
                    let (outbox, inbox) = tokio::sync::mpsc::unbounded_channel();
                    writer = Some(crate::proxy::AbortOnDrop(tokio::spawn(write(
                        relay.clone(),
                        topic.clone(),
                        inbox,
                    ))));
                    topic.lead(outbox);
                    if topic.took_over(super::topic::unix_ms()) {
                        relay.failovers.fetch_add(1, Ordering::Relaxed);
                    }
                }
                Some((false, _)) => {
                    if mode == Mode::Leader {
                        topic.follow();
                    }
                    drop(writer.take());
                }
            }
        }
        tokio::time::sleep(relay.renew_every()).await;
    }
}

/// Takes in the events published after the topic's last number.
async fn catch_up(relay: &Relay, topic: &Topic) -> Option<()> {
    let mut conn = relay.conn.clone();
    let reply: R = relay
        .call(
            redis::cmd("XRANGE")
                .arg(relay.events_key(&topic.key))
                .arg(format!("({}-0", topic.seq()))
                .arg("+")
                .query_async(&mut conn),
        )
        .await?;
    for frame in entries(&reply) {
        topic.ingest(frame);
    }
    Some(())
}

/// Publishes the leader's events in order until it stops leading; each
/// reaches the leader's own subscribers once Redis took it, as it reaches
/// the other replicas'.
async fn write(
    relay: Arc<Relay>,
    topic: Arc<Topic>,
    mut inbox: tokio::sync::mpsc::UnboundedReceiver<Arc<Frame>>,
) {
    while let Some(frame) = inbox.recv().await {
        match relay.publish(&topic.key, &frame).await {
            // Only now do this replica's subscribers see it.
            Some(Published::Done) => topic.ingest(frame),
            Some(Published::Refused) => {
                tracing::info!(
                    // Escaped: a watched id is the visitor's text.
                    resource = ?topic.key,
                    "another replica polls this resource now; this one follows it"
                );
                topic.follow();
                return;
            }
            None => {
                topic.degrade();
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bulk(s: &str) -> R {
        R::BulkString(s.as_bytes().to_vec())
    }

    #[test]
    fn stream_replies_are_read_in_both_protocols() {
        let entry = |id: &str, kind: &str| {
            R::Array(vec![
                bulk(id),
                R::Array(vec![
                    bulk("epoch"),
                    bulk("7"),
                    bulk("kind"),
                    bulk(kind),
                    bulk("json"),
                    bulk(r#"{"seq":1}"#),
                ]),
            ])
        };
        let list = R::Array(vec![entry("4-0", "change"), entry("5-0", "live")]);
        let resp2 = R::Array(vec![R::Array(vec![bulk("k"), list.clone()])]);
        let resp3 = R::Map(vec![(bulk("k"), list)]);
        for reply in [resp2, resp3] {
            let got = read_reply(&reply);
            let seen: Vec<(u32, u64, &str)> = got
                .iter()
                .map(|f| (f.epoch, f.seq, f.kind.name()))
                .collect();
            assert_eq!(seen, [(7, 4, "change"), (7, 5, "live")]);
            assert_eq!(got[0].json(), br#"{"seq":1}"#);
        }
        assert!(read_reply(&R::Nil).is_empty());
        // A malformed entry is skipped, not fatal.
        let bad = R::Array(vec![R::Array(vec![bulk("x-0"), R::Array(vec![])])]);
        assert!(entries(&bad).is_empty());
    }
}
