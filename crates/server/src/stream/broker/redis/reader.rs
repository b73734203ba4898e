//! One reader per replica for every resource it follows on Redis: one
//! blocking `XREAD` over all their streams, each from the number its
//! topic holds, on one connection of its own (a blocking read holds its
//! connection), instead of a read and a connection per resource. A
//! follower that joins while the read blocks wakes it (`CLIENT UNBLOCK`
//! of the reading connection), so its events need not wait out the block.

use super::{Redis, text};
use crate::stream::broker::follow::{Follower, Following};
use ::redis::Value as R;
use ::redis::aio::MultiplexedConnection;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::Duration;
use tokio::sync::Notify;

/// How long a read waits for an event before asking again.
const BLOCK: Duration = Duration::from_secs(2);
/// Entries read per stream and read.
const COUNT: usize = 256;

/// The followers of one replica, and its reading task.
pub struct Reader {
    followers: Mutex<Registrations>,
    /// Woken when a follower joins and nothing was read for it yet.
    joined: Notify,
    /// The reading connection's `CLIENT ID` (0: none yet).
    client_id: AtomicU64,
    task: Mutex<Option<tokio::task::JoinHandle<()>>>,
}

/// Per resource followed: the least number its followers hold, and them.
type Wanted = BTreeMap<String, (u64, Vec<Weak<dyn Follower>>)>;

#[derive(Default)]
struct Registrations {
    next: u64,
    by_id: BTreeMap<u64, (String, Weak<dyn Follower>)>,
}

impl Drop for Reader {
    fn drop(&mut self) {
        if let Some(task) = lock(&self.task).take() {
            task.abort();
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Reader {
    /// A reader with nothing to read yet (`start` runs it).
    pub fn new() -> Arc<Reader> {
        Arc::new(Reader {
            followers: Mutex::new(Registrations::default()),
            joined: Notify::new(),
            client_id: AtomicU64::new(0),
            task: Mutex::new(None),
        })
    }

    /// Reads for the broker `redis` through `client`'s connections until
    /// the broker is dropped.
    pub fn start(self: &Arc<Self>, client: ::redis::Client, redis: Weak<Redis>) {
        // Built outside a runtime (a router made for inspection), nothing
        // is followed.
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            let task = runtime.spawn(read(client, redis, Arc::downgrade(self)));
            *lock(&self.task) = Some(task);
        }
    }

    /// Registers `follower` of resource `key`.
    pub fn follow(self: &Arc<Self>, key: &str, follower: Weak<dyn Follower>) -> Following {
        let id = {
            let mut followers = lock(&self.followers);
            followers.next += 1;
            let id = followers.next;
            followers.by_id.insert(id, (key.to_owned(), follower));
            id
        };
        self.joined.notify_one();
        Box::new(Unfollow {
            reader: Arc::downgrade(self),
            id,
        })
    }

    /// Resources followed now, each with the least number its followers
    /// hold, and those followers.
    fn wanted(&self) -> Wanted {
        let mut wanted = Wanted::new();
        for (key, weak) in lock(&self.followers).by_id.values() {
            let Some(seq) = weak.upgrade().and_then(|f| f.following_from()) else {
                continue;
            };
            let slot = wanted.entry(key.clone()).or_insert((seq, Vec::new()));
            slot.0 = slot.0.min(seq);
            slot.1.push(weak.clone());
        }
        wanted
    }
}

/// A follower's registration with the reader.
struct Unfollow {
    reader: Weak<Reader>,
    id: u64,
}

impl Drop for Unfollow {
    fn drop(&mut self) {
        if let Some(reader) = self.reader.upgrade() {
            lock(&reader.followers).by_id.remove(&self.id);
        }
    }
}

/// The reading connection, with its `CLIENT ID` told to the reader.
async fn connect(client: &::redis::Client, reader: &Reader) -> Option<MultiplexedConnection> {
    let config = ::redis::AsyncConnectionConfig::new()
        .set_connection_timeout(Some(Duration::from_secs(2)))
        .set_response_timeout(Some(BLOCK + crate::proxy::shared::DEADLINE));
    let mut conn = tokio::time::timeout(
        Duration::from_secs(3),
        client.get_multiplexed_async_connection_with_config(&config),
    )
    .await
    .ok()?
    .ok()?;
    let id: u64 = ::redis::cmd("CLIENT")
        .arg("ID")
        .query_async(&mut conn)
        .await
        .ok()?;
    reader.client_id.store(id, Ordering::Relaxed);
    Some(conn)
}

/// The reading loop: while anything is followed and Redis is up, one
/// `XREAD` of every followed stream; its events delivered in order.
async fn read(client: ::redis::Client, redis: Weak<Redis>, reader: Weak<Reader>) {
    let mut conn: Option<MultiplexedConnection> = None;
    // Per resource, the highest entry read: an entry refused (forged)
    // is read once, not again at every read.
    let mut read_to: BTreeMap<String, u64> = BTreeMap::new();
    loop {
        let (Some(broker), Some(reader)) = (redis.upgrade(), reader.upgrade()) else {
            return;
        };
        let mut wanted = reader.wanted();
        read_to.retain(|key, _| wanted.contains_key(key));
        for (key, (seq, _)) in &mut wanted {
            *seq = (*seq).max(read_to.get(key).copied().unwrap_or(0));
        }
        if wanted.is_empty() || !broker.health.up() {
            drop(broker);
            let _ = tokio::time::timeout(Duration::from_secs(1), reader.joined.notified()).await;
            continue;
        }
        let Some(c) = conn.as_mut() else {
            conn = connect(&client, &reader).await;
            if conn.is_none() {
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
            continue;
        };
        let mut xread = ::redis::cmd("XREAD");
        xread
            .arg("COUNT")
            .arg(COUNT)
            .arg("BLOCK")
            .arg(BLOCK.as_millis() as u64);
        xread.arg("STREAMS");
        for key in wanted.keys() {
            xread.arg(broker.events_key(key));
        }
        for (seq, _) in wanted.values() {
            xread.arg(format!("{seq}-0"));
        }
        // A follower joining from now on wakes the read.
        let woken = wake_on_join(&broker, &reader);
        let read: ::redis::RedisResult<R> = xread.query_async(c).await;
        drop(woken);
        match read {
            Ok(reply) => deliver(&broker, &wanted, &reply, &mut read_to).await,
            Err(_) => {
                conn = None;
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
    }
}

/// A task that, when a follower joins, unblocks the reading connection's
/// `XREAD` (through the shared connection); aborted when the read ends.
fn wake_on_join(broker: &Arc<Redis>, reader: &Arc<Reader>) -> crate::proxy::AbortOnDrop {
    let broker = Arc::downgrade(broker);
    let reader = Arc::downgrade(reader);
    crate::proxy::AbortOnDrop(tokio::spawn(async move {
        let Some(joined) = reader.upgrade() else {
            return;
        };
        joined.joined.notified().await;
        let id = joined.client_id.load(Ordering::Relaxed);
        drop(joined);
        let Some(broker) = broker.upgrade() else {
            return;
        };
        let mut conn = broker.conn.clone();
        let _: Option<i64> = broker
            .call(
                ::redis::cmd("CLIENT")
                    .arg("UNBLOCK")
                    .arg(id)
                    .query_async(&mut conn),
            )
            .await;
    }))
}

/// The events of an `XREAD` reply (`[[key, entries], …]`, a map in
/// RESP3; nothing when the read timed out or was woken), their answers
/// read in one round trip, delivered to each resource's followers.
async fn deliver(broker: &Redis, wanted: &Wanted, reply: &R, read_to: &mut BTreeMap<String, u64>) {
    let streams = streams(reply);
    let by_events_key: BTreeMap<String, &String> =
        wanted.keys().map(|k| (broker.events_key(k), k)).collect();
    let read: Vec<(&String, &R)> = streams
        .into_iter()
        .filter_map(|(k, entries)| Some((*by_events_key.get(text(k)?)?, entries)))
        .collect();
    if read.is_empty() {
        return;
    }
    for (key, entries) in &read {
        if let Some(top) = Redis::top_id(entries) {
            read_to.insert((*key).clone(), top);
        }
    }
    let mut pipe = ::redis::pipe();
    for (key, _) in &read {
        pipe.cmd("HGETALL").arg(broker.answers_key(key));
    }
    let mut conn = broker.conn.clone();
    let Some(answers): Option<Vec<R>> = broker.call(pipe.query_async(&mut conn)).await else {
        return;
    };
    for ((key, entries), answers) in read.into_iter().zip(answers) {
        let frames = Redis::frames(key, entries, &answers);
        let Some((_, followers)) = wanted.get(key) else {
            continue;
        };
        for follower in followers.iter().filter_map(Weak::upgrade) {
            for frame in &frames {
                follower.deliver(frame.clone());
            }
        }
    }
}

/// The streams of an `XREAD` reply, each `(key, entries)`: an array of
/// pairs in RESP2, a map in RESP3, nothing when the read timed out.
fn streams(reply: &R) -> Vec<(&R, &R)> {
    match reply {
        R::Array(streams) => streams
            .iter()
            .filter_map(|s| match s {
                R::Array(parts) if parts.len() == 2 => Some((&parts[0], &parts[1])),
                _ => None,
            })
            .collect(),
        R::Map(streams) => streams.iter().map(|(k, v)| (k, v)).collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bulk(s: &str) -> R {
        R::BulkString(s.as_bytes().to_vec())
    }

    #[test]
    fn read_replies_are_read_in_both_protocols_and_answers_joined() {
        let key = "orderbook:a";
        let entry = |id: &str, kind: &str, seq: u64, answer: &str| {
            R::Array(vec![
                bulk(id),
                R::Array(vec![
                    bulk("epoch"),
                    bulk("7"),
                    bulk("kind"),
                    bulk(kind),
                    bulk("json"),
                    bulk(&format!(r#"{{"resource":"{key}","seq":{seq}}}"#)),
                    bulk("answer"),
                    bulk(answer),
                ]),
            ])
        };
        let list = R::Array(vec![
            entry("4-0", "change", 4, "h1"),
            entry("5-0", "live", 5, ""),
        ]);
        let answers = R::Array(vec![bulk("h1"), bulk(r#"{"data":{"x":1}}"#)]);
        let resp2 = R::Array(vec![R::Array(vec![bulk("k"), list.clone()])]);
        let resp3 = R::Map(vec![(bulk("k"), list)]);
        for reply in [resp2, resp3] {
            let read = streams(&reply);
            assert_eq!(read.len(), 1);
            assert_eq!(text(read[0].0), Some("k"));
            assert_eq!(Redis::top_id(read[0].1), Some(5));
            let frames = Redis::frames(key, read[0].1, &answers);
            let seen: Vec<(u32, u64, &str)> = frames
                .iter()
                .map(|f| (f.epoch, f.seq, f.kind.name()))
                .collect();
            assert_eq!(seen, [(7, 4, "change"), (7, 5, "live")]);
            assert_eq!(
                frames[0].json(),
                format!(r#"{{"resource":"{key}","seq":4,"data":{{"data":{{"x":1}}}}}}"#).as_bytes()
            );
        }
        assert!(streams(&R::Nil).is_empty());
        // An entry naming an answer Redis no longer holds is left out.
        let orphan = R::Array(vec![entry("6-0", "change", 6, "gone")]);
        assert!(Redis::frames(key, &orphan, &answers).is_empty());
    }
}
