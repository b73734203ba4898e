//! Two proxy replicas (the real binary, as processes) sharing their
//! stream pollers through a real `redis-server`, in front of the local
//! server: one poller per book whichever replica its viewers use, the
//! same numbered events on both, a `Last-Event-ID` of one replica
//! replayed by the other, and, when the polling replica is killed, the
//! other's viewers told `stale` then `live` with no gap in the numbers;
//! a book not yet due when its replica dies is polled by the other when
//! it is due, its viewers told nothing.
//! Waits poll for a condition under a generous ceiling; nothing is timed.

mod common;

#[path = "common/process.rs"]
mod process_kit;
#[path = "common/redis.rs"]
mod redis_kit;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long the test waits for something that should happen, at most.
const CEILING: Duration = Duration::from_secs(90);
const VISITOR: &str = "replicas-visitor";
/// Each replica has its own upstream key, so the upstream can tell which
/// one asked.
const KEYS: [&str; 2] = ["replica-a-upstream", "replica-b-upstream"];
const BOOKS: usize = 3;
const STREAMS: usize = 24;

/// Upstream requests for order books, by key and path.
type Asked = Arc<Mutex<BTreeMap<(String, String), usize>>>;

async fn count(State(asked): State<Asked>, request: Request, next: Next) -> Response {
    let path = request.uri().path().to_owned();
    if path.ends_with("/orderbook") {
        let key = request
            .headers()
            .get("x-api-key")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        *asked.lock().unwrap().entry((key, path)).or_default() += 1;
    }
    next.run(request).await
}

/// One replica: the binary, the lines of its stderr, its address and
/// its `/metrics` address.
struct Replica {
    child: std::process::Child,
    log: Arc<Mutex<Vec<String>>>,
    base: String,
    metrics: String,
}

impl Drop for Replica {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn replica(upstream: SocketAddr, redis: &str, key: &str) -> Replica {
    // Books polled every 500 ms.
    replica_polling(upstream, redis, key, "0.1")
}

/// A replica whose pollers' intervals are the kinds' times `scale`.
fn replica_polling(upstream: SocketAddr, redis: &str, key: &str, scale: &str) -> Replica {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_predmarket-server"))
        .args(["--addr", "127.0.0.1:0", "--log-format", "json", "--quiet"])
        .args(["--api-key", &format!("{VISITOR}:unlimited")])
        .args(["--upstream", &format!("http://{upstream}")])
        .args(["--upstream-limit", "100000", "--redis", redis])
        // Answers cached for a few ms: every poll reaches the upstream,
        // so it counts the pollers.
        .args(["--stream-interval-scale", scale, "--stream-heartbeat", "1"])
        .args(["--cache-ttl-scale", "0.001"])
        .args(["--metrics-addr", "127.0.0.1:0"])
        .env_clear()
        .env("PREDMARKET_UPSTREAM_KEY", key)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the server binary starts");
    let log = process_kit::collect_stderr(&mut child);
    let address = |after: &str| {
        let patience = Patience::new();
        loop {
            let found = log.lock().unwrap().iter().find_map(|line| {
                let rest = line.split(after).nth(1)?;
                rest.split([',', ' ', '"', '/']).next().map(str::to_owned)
            });
            if let Some(addr) = found {
                break format!("http://{addr}");
            }
            patience.left(format_args!(
                "the replica to listen: {:?}",
                log.lock().unwrap()
            ));
            std::thread::sleep(Duration::from_millis(20));
        }
    };
    let base = address("listening on http://");
    let metrics = address("metrics on http://");
    Replica {
        child,
        log,
        base,
        metrics,
    }
}

impl Replica {
    /// The value of `name` (with its labels) in the replica's `/metrics`.
    async fn metric(&self, name: &str) -> f64 {
        let text = reqwest::get(format!("{}/metrics", self.metrics))
            .await
            .expect("/metrics")
            .text()
            .await
            .expect("/metrics text");
        text.lines()
            .find_map(|line| line.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
            .unwrap_or_else(|| panic!("no {name} in {text}"))
    }

    /// Topics by mode: (leader, follower, local).
    async fn modes(&self) -> (f64, f64, f64) {
        let mode = |m: &str| format!("predmarket_proxy_stream_topics{{mode=\"{m}\"}}");
        (
            self.metric(&mode("leader")).await,
            self.metric(&mode("follower")).await,
            self.metric(&mode("local")).await,
        )
    }

    fn logged(&self, text: &str) -> bool {
        self.log.lock().unwrap().iter().any(|l| l.contains(text))
    }
}

/// One Server-Sent Event.
#[derive(Debug, Clone)]
struct Event {
    name: String,
    id: String,
    data: Value,
}

impl Event {
    fn resource(&self) -> &str {
        self.data["resource"].as_str().unwrap_or_default()
    }

    fn seq(&self) -> u64 {
        self.data["seq"].as_u64().unwrap_or(0)
    }
}

fn parse(block: &str) -> Option<Event> {
    let (mut name, mut id, mut data) = (None, String::new(), None);
    for line in block.lines() {
        if let Some(v) = line.strip_prefix("event: ") {
            name = Some(v.to_owned());
        } else if let Some(v) = line.strip_prefix("id: ") {
            id = v.to_owned();
        } else if let Some(v) = line.strip_prefix("data: ") {
            data = serde_json::from_str(v).ok();
        }
    }
    Some(Event {
        name: name?,
        id,
        data: data?,
    })
}

/// A stream read in the background into `events` until dropped.
struct Watcher {
    replica: usize,
    books: Vec<String>,
    events: Arc<Mutex<Vec<Event>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Watcher {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Watcher {
    async fn open(base: &str, replica: usize, books: Vec<String>, last: Option<&str>) -> Watcher {
        let mut query = form_urlencoded::Serializer::new(String::new());
        for book in &books {
            query.append_pair("watch", book);
        }
        let mut request = reqwest::Client::new()
            .get(format!("{base}/stream?{}", query.finish()))
            .header("X-API-Key", VISITOR);
        if let Some(id) = last {
            request = request.header("Last-Event-ID", id);
        }
        let mut response = request.send().await.expect("the stream opens");
        assert_eq!(response.status(), 200);
        let events = Arc::new(Mutex::new(Vec::new()));
        let sink = events.clone();
        let task = tokio::spawn(async move {
            let mut buffer = String::new();
            while let Ok(Some(chunk)) = response.chunk().await {
                buffer.push_str(&String::from_utf8_lossy(&chunk));
                while let Some(end) = buffer.find("\n\n") {
                    let block: String = buffer.drain(..end + 2).collect();
                    if let Some(event) = parse(&block) {
                        sink.lock().unwrap().push(event);
                    }
                }
            }
        });
        Watcher {
            replica,
            books,
            events,
            task,
        }
    }

    fn events(&self) -> Vec<Event> {
        self.events.lock().unwrap().clone()
    }

    fn of(&self, book: &str) -> Vec<Event> {
        self.events()
            .into_iter()
            .filter(|e| e.resource() == book)
            .collect()
    }

    fn changes(&self, book: &str) -> usize {
        self.of(book).iter().filter(|e| e.name == "change").count()
    }
}

/// A wait's generous ceiling: a wait that is still not over when the
/// ceiling passes fails the test, saying what it waited for. Not a
/// duration under test.
struct Patience {
    started: Instant,
}

impl Patience {
    fn new() -> Self {
        Self {
            started: Instant::now(),
        }
    }

    /// Fails the test once the ceiling has passed.
    fn left(&self, what: impl std::fmt::Display) {
        if self.started.elapsed() >= CEILING {
            panic!("waited in vain for {what}");
        }
    }
}

/// Waits for `done` under the ceiling.
async fn until(what: &str, mut done: impl FnMut() -> bool) {
    let patience = Patience::new();
    while !done() {
        patience.left(what);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The process id of the replica holding `book`'s lease.
async fn holder(redis: &mut redis::aio::MultiplexedConnection, book: &str) -> Option<u32> {
    let keys: Vec<String> = redis::cmd("KEYS")
        .arg(format!("*:stream:{book}:lease"))
        .query_async(redis)
        .await
        .ok()?;
    let value: Option<String> = redis::cmd("GET")
        .arg(keys.first()?)
        .query_async(redis)
        .await
        .ok()?;
    value?.split(':').next()?.parse().ok()
}

/// Every watcher's events of each book are numbered without a gap from its
/// first, which is a snapshot, and an event of a given number is the same
/// on every watcher (snapshots aside: each tells its own age).
fn assert_one_numbering(watchers: &[Watcher]) {
    let mut by_number: HashMap<(String, u64), Value> = HashMap::new();
    for w in watchers {
        for book in &w.books {
            let events = w.of(book);
            assert_eq!(
                events.first().map(|e| e.name.as_str()),
                Some("snapshot"),
                "{book}"
            );
            for pair in events.windows(2) {
                assert_eq!(
                    pair[1].seq(),
                    pair[0].seq() + 1,
                    "a gap or repeat on replica {}: {:?} then {:?}",
                    w.replica,
                    pair[0],
                    pair[1]
                );
            }
            for e in events.iter().filter(|e| e.name != "snapshot") {
                let known = by_number
                    .entry((book.clone(), e.seq()))
                    .or_insert_with(|| e.data.clone());
                assert_eq!(known, &e.data, "event {} of {book} differs", e.seq());
            }
        }
    }
}

/// The local server as the upstream (counting who asks for which book),
/// and the first `BOOKS` order books it has.
async fn upstream() -> (SocketAddr, Asked, Vec<String>) {
    let mut config = common::config();
    config.api_key = KEYS.iter().map(|k| format!("{k}:unlimited")).collect();
    config.api_key.push(format!("{VISITOR}:unlimited"));
    let asked: Asked = Arc::default();
    let app = predmarket_server::app_with_data(&config, common::default_data())
        .layer(axum::middleware::from_fn_with_state(asked.clone(), count));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let upstream = listener.local_addr().expect("addr");
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    let markets: Value = reqwest::Client::new()
        .get(format!(
            "http://{upstream}/markets?status=open&limit=50&platform=platform_a"
        ))
        .header("X-API-Key", VISITOR)
        .send()
        .await
        .expect("markets")
        .json()
        .await
        .expect("JSON");
    let books: Vec<String> = markets["markets"]
        .as_array()
        .expect("markets")
        .iter()
        .filter_map(|m| m["id"].as_str())
        .take(BOOKS)
        .map(|id| format!("orderbook:{id}"))
        .collect();
    assert_eq!(books.len(), BOOKS);
    (upstream, asked, books)
}

/// How many times each key asked for `book` between `before` and `after`.
fn grew(
    before: &BTreeMap<(String, String), usize>,
    after: &BTreeMap<(String, String), usize>,
    key: &str,
    book: &str,
) -> usize {
    let id = book.trim_start_matches("orderbook:");
    let k = (key.to_owned(), format!("/markets/{id}/orderbook"));
    after.get(&k).copied().unwrap_or(0) - before.get(&k).copied().unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    redis_missing,
    ignore = "needs redis-server, not installed here (`cargo xtask setup` installs it; see build.rs)"
)]
async fn replicas_share_one_poller_per_book_replay_each_other_and_fail_over() {
    let Some(redis) =
        redis_kit::start("streams shared by replicas", &[]).unwrap_or_else(|e| panic!("{e}"))
    else {
        return;
    };
    let (upstream, asked, books) = upstream().await;

    let mut replicas = [
        Some(replica(upstream, &redis.url, KEYS[0])),
        Some(replica(upstream, &redis.url, KEYS[1])),
    ];
    let bases: Vec<String> = replicas.iter().flatten().map(|r| r.base.clone()).collect();
    let pids: Vec<u32> = replicas.iter().flatten().map(|r| r.child.id()).collect();
    let mut watchers = Vec::new();
    for i in 0..STREAMS {
        let watched = vec![books[i % BOOKS].clone(), books[(i + 1) % BOOKS].clone()];
        watchers.push(Watcher::open(&bases[i % 2], i % 2, watched, None).await);
    }
    let changes_everywhere = |watchers: &[Watcher], n: usize| {
        watchers
            .iter()
            .all(|w| w.books.iter().all(|b| w.changes(b) >= n))
    };
    until("a change of every book on every stream", || {
        changes_everywhere(&watchers, 1)
    })
    .await;

    // One poller per book: the holder of its lease, whose key alone asks
    // the upstream for it while the lease stays put.
    let client = redis::Client::open(redis.url.as_str()).expect("redis URL");
    let mut conn = client
        .get_multiplexed_async_connection()
        .await
        .expect("a connection to redis-server");
    let mut holders = Vec::new();
    for book in &books {
        let pid = holder(&mut conn, book).await.expect("a lease");
        assert!(pids.contains(&pid), "{pid} is neither replica");
        holders.push(pid);
    }
    let before = asked.lock().unwrap().clone();
    until("three more changes of every book on every stream", || {
        changes_everywhere(&watchers, 4)
    })
    .await;
    let after = asked.lock().unwrap().clone();
    for (book, pid) in books.iter().zip(&holders) {
        assert_eq!(
            holder(&mut conn, book).await,
            Some(*pid),
            "the lease stayed"
        );
        let (mine, other) = if *pid == pids[0] {
            (KEYS[0], KEYS[1])
        } else {
            (KEYS[1], KEYS[0])
        };
        assert!(
            grew(&before, &after, mine, book) > 0,
            "the holder polled {book}: {after:?}"
        );
        assert_eq!(
            grew(&before, &after, other, book),
            0,
            "only the holder polled {book}: {after:?}"
        );
    }
    assert_one_numbering(&watchers);
    // `/metrics` tells the same: each book led by one replica and followed
    // by the other, half the streams on each, polls made.
    let mut leading = 0.0;
    for (i, r) in replicas.iter().flatten().enumerate() {
        let (leader, follower, local) = r.modes().await;
        let led = holders.iter().filter(|pid| **pid == pids[i]).count() as f64;
        assert_eq!((leader, follower, local), (led, BOOKS as f64 - led, 0.0));
        leading += leader;
        assert_eq!(
            r.metric("predmarket_proxy_streams_open").await,
            (STREAMS / 2) as f64
        );
        let polls = r.metric("predmarket_proxy_stream_polls_total").await;
        assert_eq!(polls > 0.0, led > 0.0, "polls {polls}, leading {led}");
        assert_eq!(
            r.metric("predmarket_proxy_stream_failovers_total").await,
            0.0
        );
    }
    assert_eq!(leading, BOOKS as f64);

    // A client of replica 0 reconnects to replica 1 with its Last-Event-ID:
    // what it missed is replayed there.
    let left = watchers.remove(0);
    assert_eq!(left.replica, 0);
    let last = left.events().last().expect("events").clone();
    let seen: Vec<u64> = left
        .books
        .iter()
        .map(|b| left.of(b).last().map_or(0, Event::seq))
        .collect();
    let books_left = left.books.clone();
    drop(left);
    until("two more changes of the books the client left", || {
        books_left.iter().all(|b| {
            watchers
                .iter()
                .filter(|w| w.replica == 1 && w.books.contains(b))
                .all(|w| w.changes(b) >= 6)
        })
    })
    .await;
    let back = Watcher::open(&bases[1], 1, books_left.clone(), Some(&last.id)).await;
    until("the replay of both books", || {
        books_left.iter().all(|b| back.changes(b) >= 1)
    })
    .await;
    for (book, seen) in books_left.iter().zip(&seen) {
        let replayed = back.of(book);
        assert!(
            replayed
                .iter()
                .all(|e| !["snapshot", "resync"].contains(&e.name.as_str())),
            "replayed, not restarted: {replayed:?}"
        );
        assert_eq!(replayed[0].seq(), seen + 1, "{replayed:?}");
    }
    drop(back);

    // The replica polling the first book dies; the other's viewers of the
    // books it polled are told stale, then live, and changes go on.
    let dead = pids
        .iter()
        .position(|p| *p == holders[0])
        .expect("a replica");
    let survivor = 1 - dead;
    let orphaned: Vec<String> = books
        .iter()
        .zip(&holders)
        .filter(|(_, pid)| **pid == pids[dead])
        .map(|(b, _)| b.clone())
        .collect();
    let marks: Vec<usize> = watchers.iter().map(|w| w.events().len()).collect();
    if let Some(mut replica) = replicas[dead].take() {
        let _ = replica.child.kill();
        let _ = replica.child.wait();
    }
    let after_kill = |w: &Watcher, mark: usize| -> Vec<Event> { w.events().split_off(mark) };
    until("stale, live and a change on the surviving replica", || {
        watchers
            .iter()
            .zip(&marks)
            .filter(|(w, _)| w.replica == survivor)
            .all(|(w, mark)| {
                let events = after_kill(w, *mark);
                w.books.iter().filter(|b| orphaned.contains(b)).all(|b| {
                    let names: Vec<&str> = events
                        .iter()
                        .filter(|e| e.resource() == b)
                        .map(|e| e.name.as_str())
                        .skip_while(|n| *n != "stale")
                        .collect();
                    let live = names.iter().position(|n| *n == "live");
                    let change = names.iter().rposition(|n| *n == "change");
                    names.first() == Some(&"stale")
                        && matches!((live, change), (Some(l), Some(c)) if l < c)
                })
            })
    })
    .await;
    for (w, mark) in watchers.iter().zip(&marks) {
        if w.replica != survivor {
            continue;
        }
        for event in after_kill(w, *mark) {
            assert!(
                !["snapshot", "resync", "error"].contains(&event.name.as_str()),
                "a failover is not a restart: {event:?}"
            );
            if event.name == "stale" && orphaned.iter().any(|b| b == event.resource()) {
                assert_eq!(event.data["code"], "REPLICA_FAILOVER", "{event:?}");
            }
        }
    }
    let survivors: Vec<Watcher> = watchers
        .into_iter()
        .filter(|w| w.replica == survivor)
        .collect();
    assert_one_numbering(&survivors);
    let new_holder = holder(&mut conn, &books[0]).await;
    assert_eq!(new_holder, Some(pids[survivor]));
    if let Some(r) = &replicas[survivor] {
        assert_eq!(
            r.metric("predmarket_proxy_stream_failovers_total").await,
            orphaned.len() as f64
        );
        assert_eq!(r.modes().await, (BOOKS as f64, 0.0, 0.0));
    }
    let log = replicas[survivor]
        .as_ref()
        .map(|r| r.log.lock().unwrap().clone());
    assert!(
        log.iter()
            .flatten()
            .all(|line| !line.contains("Redis is unavailable")),
        "{log:?}"
    );
}

/// The replica polling a book dies just after a poll: the other takes the
/// lease without polling the book at once (it is not due: its interval,
/// 30 s here, runs from the last answer published) or telling its viewers
/// `stale`, and polls it later, when due. The only order relied on is that
/// the lease moves (a few seconds) well before the book is due.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    redis_missing,
    ignore = "needs redis-server, not installed here (`cargo xtask setup` installs it; see build.rs)"
)]
async fn a_replica_taking_over_polls_a_book_when_due_not_at_once() {
    let Some(redis) = redis_kit::start("a takeover before the book is due", &[])
        .unwrap_or_else(|e| panic!("{e}"))
    else {
        return;
    };
    let (upstream, asked, books) = upstream().await;
    let book = books[0].clone();
    // Books polled every 30 s.
    let mut replicas = [
        Some(replica_polling(upstream, &redis.url, KEYS[0], "6")),
        Some(replica_polling(upstream, &redis.url, KEYS[1], "6")),
    ];
    let bases: Vec<String> = replicas.iter().flatten().map(|r| r.base.clone()).collect();
    let pids: Vec<u32> = replicas.iter().flatten().map(|r| r.child.id()).collect();
    let watchers = [
        Watcher::open(&bases[0], 0, vec![book.clone()], None).await,
        Watcher::open(&bases[1], 1, vec![book.clone()], None).await,
    ];
    until("the snapshot on both replicas", || {
        watchers.iter().all(|w| !w.of(&book).is_empty())
    })
    .await;
    let client = redis::Client::open(redis.url.as_str()).expect("redis URL");
    let mut conn = client
        .get_multiplexed_async_connection()
        .await
        .expect("a connection to redis-server");
    let pid = holder(&mut conn, &book).await.expect("a lease");
    let dead = pids.iter().position(|p| *p == pid).expect("a replica");
    let survivor = 1 - dead;
    let asked_by = |key: &str| grew(&BTreeMap::new(), &asked.lock().unwrap(), key, &book);
    assert_eq!(asked_by(KEYS[survivor]), 0, "only the holder polled");
    let mark = watchers[survivor].events().len();
    if let Some(mut replica) = replicas[dead].take() {
        let _ = replica.child.kill();
        let _ = replica.child.wait();
    }
    let patience = Patience::new();
    while holder(&mut conn, &book).await != Some(pids[survivor]) {
        patience.left("the other replica to take the lease");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(
        asked_by(KEYS[survivor]),
        0,
        "the book was not due: not polled on taking the lease"
    );
    until("the survivor polls the book when due", || {
        asked_by(KEYS[survivor]) > 0
    })
    .await;
    // When it polled is not asserted (a duration, the machine's load's to
    // decide): the order is, the lease taken with no poll, then the poll,
    // and the survivor counting no failover (it judged the book not due).
    let Some(r) = &replicas[survivor] else {
        unreachable!("the survivor was not killed")
    };
    assert_eq!(r.modes().await, (1.0, 0.0, 0.0), "it leads the book");
    assert_eq!(
        r.metric("predmarket_proxy_stream_failovers_total").await,
        0.0,
        "not overdue: no failover told"
    );
    let after: Vec<Event> = watchers[survivor].events().split_off(mark);
    assert!(
        after.iter().all(|e| e.name != "stale"),
        "the data never went older than its interval: {after:?}"
    );
    assert_one_numbering(&watchers[survivor..=survivor]);
}

/// The events of each watcher's books after its `mark`-th event and the
/// last `resync` there (a numbering started again), checked as
/// `assert_one_numbering` checks whole streams, by numbering (replicas
/// that poll apart number apart).
fn assert_one_numbering_since(watchers: &[Watcher], marks: &[usize]) {
    let mut by_number: HashMap<(String, String, u64), Value> = HashMap::new();
    for (w, mark) in watchers.iter().zip(marks) {
        let events = w.events().split_off(*mark);
        for (i, book) in w.books.iter().enumerate() {
            // The numbering: the epoch in the event's position.
            let epoch = |e: &Event| {
                let at = e.id.split(',').nth(i).unwrap_or_default();
                at.split(':').next().unwrap_or_default().to_owned()
            };
            let of: Vec<&Event> = events.iter().filter(|e| e.resource() == book).collect();
            let start = of
                .iter()
                .rposition(|e| e.name == "resync")
                .map_or(0, |i| i + 1);
            let of = &of[start..];
            assert_eq!(
                of.first().map(|e| e.name.as_str()),
                Some("snapshot"),
                "{book}: {of:?}"
            );
            for pair in of.windows(2) {
                assert_eq!(
                    pair[1].seq(),
                    pair[0].seq() + 1,
                    "{:?} then {:?}",
                    pair[0],
                    pair[1]
                );
            }
            for e in of.iter().filter(|e| e.name != "snapshot") {
                let known = by_number
                    .entry((book.clone(), epoch(e), e.seq()))
                    .or_insert_with(|| e.data.clone());
                assert_eq!(known, &e.data, "event {} of {book} differs", e.seq());
            }
        }
    }
}

/// Redis is killed under two replicas: each goes on polling the books its
/// own clients watch, and they get every change; Redis started again, the
/// books are shared again (one poller each), without the viewers leaving.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    redis_missing,
    ignore = "needs redis-server, not installed here (`cargo xtask setup` installs it; see build.rs)"
)]
async fn without_redis_each_replica_polls_for_its_clients_and_shares_again_when_it_is_back() {
    let Some(redis) =
        redis_kit::start("streams when Redis fails", &[]).unwrap_or_else(|e| panic!("{e}"))
    else {
        return;
    };
    let (upstream, asked, books) = upstream().await;
    let replicas = [
        replica(upstream, &redis.url, KEYS[0]),
        replica(upstream, &redis.url, KEYS[1]),
    ];
    let mut watchers = Vec::new();
    for i in 0..8 {
        let watched = vec![books[i % BOOKS].clone(), books[(i + 1) % BOOKS].clone()];
        watchers.push(Watcher::open(&replicas[i % 2].base, i % 2, watched, None).await);
    }
    let changes_since = |w: &Watcher, mark: usize, book: &str| {
        w.events()
            .split_off(mark)
            .iter()
            .filter(|e| e.resource() == book && e.name == "change")
            .count()
    };
    let all_changed = |watchers: &[Watcher], marks: &[usize], n: usize| {
        watchers
            .iter()
            .zip(marks)
            .all(|(w, m)| w.books.iter().all(|b| changes_since(w, *m, b) >= n))
    };
    let zero = vec![0; watchers.len()];
    until("a change of every book on every stream", || {
        all_changed(&watchers, &zero, 1)
    })
    .await;

    // Redis dies: each replica polls for its own clients.
    let port = redis.port;
    redis.signal("-KILL").unwrap_or_else(|e| panic!("{e}"));
    drop(redis);
    let marks: Vec<usize> = watchers.iter().map(|w| w.events().len()).collect();
    let before = asked.lock().unwrap().clone();
    until(
        "two changes of every book on every stream without Redis",
        || all_changed(&watchers, &marks, 2),
    )
    .await;
    let after = asked.lock().unwrap().clone();
    for book in &books {
        for key in KEYS {
            assert!(
                grew(&before, &after, key, book) > 0,
                "both replicas polled {book} for their clients: {after:?}"
            );
        }
    }
    for r in &replicas {
        assert!(r.logged("Redis is unavailable"), "a warning");
        assert_eq!(r.modes().await, (0.0, 0.0, BOOKS as f64));
        assert_eq!(
            r.metric("predmarket_proxy_stream_topics_redis_down").await,
            BOOKS as f64
        );
    }
    assert_one_numbering_since(&watchers, &marks);
    let down = marks;

    // Redis is back (empty): the books are shared again, one poller each,
    // the viewers still connected.
    let redis = redis_kit::start_on("streams when Redis is back", port, &[])
        .unwrap_or_else(|e| panic!("{e}"))
        .expect("redis-server ran a moment ago");
    let client = redis::Client::open(redis.url.as_str()).expect("redis URL");
    let mut conn = client
        .get_multiplexed_async_connection()
        .await
        .expect("a connection to redis-server");
    let patience = Patience::new();
    loop {
        let mut shared = 0;
        for r in &replicas {
            let (leader, follower, _) = r.modes().await;
            shared += (leader + follower) as usize;
        }
        let mut held = 0;
        for book in &books {
            held += usize::from(holder(&mut conn, book).await.is_some());
        }
        if shared == 2 * BOOKS && held == BOOKS {
            break;
        }
        patience.left("the books to be shared again");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let marks: Vec<usize> = watchers.iter().map(|w| w.events().len()).collect();
    until(
        "a change of every book on every stream after the rejoin",
        || all_changed(&watchers, &marks, 1),
    )
    .await;
    let before = asked.lock().unwrap().clone();
    let holders: Vec<Option<u32>> = {
        let mut h = Vec::new();
        for book in &books {
            h.push(holder(&mut conn, book).await);
        }
        h
    };
    until("two more changes of every book on every stream", || {
        all_changed(&watchers, &marks, 3)
    })
    .await;
    let after = asked.lock().unwrap().clone();
    let pids: Vec<u32> = replicas.iter().map(|r| r.child.id()).collect();
    for (book, pid) in books.iter().zip(&holders) {
        assert_eq!(holder(&mut conn, book).await, *pid, "the lease stayed");
        let polled: Vec<usize> = KEYS
            .iter()
            .map(|k| grew(&before, &after, k, book))
            .collect();
        let mine = pids
            .iter()
            .position(|p| Some(*p) == *pid)
            .expect("a replica holds it");
        assert!(polled[mine] > 0, "{book}: {polled:?}");
        assert_eq!(
            polled[1 - mine],
            0,
            "one poller of {book} again: {polled:?}"
        );
    }
    // Since the rejoin's `resync`: one numbering on both replicas.
    assert_one_numbering_since(&watchers, &down);
}
