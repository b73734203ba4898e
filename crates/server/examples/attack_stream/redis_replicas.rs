//! Scenarios 9 to 11 of `main.rs`: the streams of two replicas sharing
//! their pollers through a real `redis-server` (`--redis`), attacked
//! through Redis: its connections, what it hands back, and a slow Redis.

use crate::*;

/// Redis connections one client watching many resources on both
/// replicas may add (a reader reconnecting; each resource one was 7 →
/// 263 in the finding).
const CONNECTION_SLACK: u64 = 2;
/// The slow Redis's delay each way: a round trip of 600 ms, within the
/// proxy's 1 s deadline for a Redis call (so Redis is not given up), and
/// 32 of them in turn (19 s) well past the request timeout.
const SLOW_REDIS: Duration = Duration::from_millis(300);
/// The proxy's request timeout (`--request-timeout`, its default): an
/// open on the slow Redis must answer well within it.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);
/// Room in the visitors' buckets, so that the attacker's topics are made.
const ROOMY: [&str; 4] = ["--visitor-misses", "60000", "--visitor-requests", "60000"];

/// Scenarios 9 to 11 and 13: `redis-server` started here (SKIPPED loudly when it
/// is not installed, a failure with `PREDMARKET_REQUIRE_REDIS`).
pub(crate) async fn through_redis(
    args: &Args,
    report: &Report,
    upstream: SocketAddr,
) -> Result<(), String> {
    let Some(redis) = redis_kit::start("the attacks on /stream's Redis (scenarios 9-11, 13)", &[])?
    else {
        return Ok(());
    };
    let replica = |redis_url: &str| {
        let mut flags = vec!["--redis", redis_url];
        flags.extend(ROOMY);
        Proxy::start(&args.server, upstream, &flags)
    };
    let a = replica(&redis.url)?;
    let b = replica(&redis.url)?;
    let mut probe = ::redis::Client::open(redis.url.as_str())
        .map_err(|e| e.to_string())?
        .get_multiplexed_async_connection()
        .await
        .map_err(|e| format!("redis: {e}"))?;
    connections(report, &a, &b, &mut probe).await?;
    forged(report, &a, &b, &mut probe).await?;
    too_large(report, &a, &b).await?;
    drop((a, b));
    let slow = slow_link(SocketAddr::from(([127, 0, 0, 1], redis.port)), SLOW_REDIS).await?;
    let slow_url = format!("redis://{slow}/");
    slow_redis(report, &replica(&slow_url)?).await
}

/// `connected_clients` of the Redis server.
async fn connected_clients(conn: &mut ::redis::aio::MultiplexedConnection) -> Result<u64, String> {
    let info: String = ::redis::cmd("INFO")
        .arg("clients")
        .query_async(conn)
        .await
        .map_err(|e| format!("INFO: {e}"))?;
    info.lines()
        .find_map(|l| l.strip_prefix("connected_clients:")?.trim().parse().ok())
        .ok_or_else(|| "no connected_clients in INFO".to_owned())
}

/// Scenario 9: one address watches 64 books (its quota) on each replica,
/// the same books on both (one replica polls, the other follows them all);
/// Redis's connections must not grow with the resources.
async fn connections(
    report: &Report,
    a: &Proxy,
    b: &Proxy,
    probe: &mut ::redis::aio::MultiplexedConnection,
) -> Result<(), String> {
    // The replicas' readers exist once something is followed: the good
    // viewer's book on both, first.
    let good = from(GOOD)?;
    let mut held = Vec::new();
    for proxy in [a, b] {
        let response = open(&good, proxy.addr, &["orderbook:good-r1".to_owned()], &[]).await?;
        held.push(read_all(response));
    }
    tokio::time::sleep(Duration::from_secs(3)).await;
    let before = connected_clients(probe).await?;
    let attacker = from("127.0.0.23")?;
    let (mut opened, mut refused) = (0, 0);
    for proxy in [a, b] {
        for s in 0..2 {
            let whole = live::MAX_RESOURCES;
            let books: Vec<String> = (s * whole..(s + 1) * whole)
                .map(|n| format!("orderbook:many-{n}"))
                .collect();
            let response = open(&attacker, proxy.addr, &books, &[]).await?;
            if response.status() == 200 {
                opened += 1;
                held.push(read_all(response));
            } else {
                refused += 1;
            }
        }
    }
    report.rule(opened == 4, || {
        format!(
            "redis connections: {opened} of the attacker's 4 streams opened ({refused} refused)"
        )
    });
    // Every topic polled and followed meanwhile.
    tokio::time::sleep(Duration::from_secs(5)).await;
    let after = connected_clients(probe).await?;
    report.rule(after <= before + CONNECTION_SLACK, || {
        format!("redis connections: {before} before one client watched 64 books on two replicas, {after} after")
    });
    report.figure(format!(
        "redis connections: {before} with the good viewer on both replicas, {after} with one client's 64 books on both"
    ));
    judge_good(
        report,
        "redis connections",
        good_viewer(b.addr, "good-r2").await,
    );
    for task in held {
        task.abort();
    }
    Ok(())
}

/// The stream that an attacker makes replica A poll, and whose Redis
/// entries it forges.
const FORGED: &str = "orderbook:forged-1";

/// Scenario 10: whoever can write the Redis adds entries to a resource's
/// events that smuggle SSE fields (a forged `error` aimed at the good
/// viewer's own book) and one that is untidy but valid JSON. The good
/// viewer, on replica B following that resource beside its book, must see
/// no forged field, and the untidy entry written anew.
async fn forged(
    report: &Report,
    a: &Proxy,
    b: &Proxy,
    probe: &mut ::redis::aio::MultiplexedConnection,
) -> Result<(), String> {
    let attacker = from("127.0.0.24")?;
    let target = [FORGED.to_owned()];
    let held = read_all(open(&attacker, a.addr, &target, &[]).await?);
    // A polls it and publishes its snapshot.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let transcript = Mutex::new(String::new());
    let (watched, forging) = tokio::join!(
        good_viewer_with(b.addr, "good-r3", &target, Some(&transcript)),
        async {
            // Once B follows it.
            tokio::time::sleep(Duration::from_secs(2)).await;
            forge(probe).await
        }
    );
    held.abort();
    let numbers = forging?;
    let text = transcript.lock().map(|t| t.clone()).unwrap_or_default();
    report.rule(!text.contains("FORGED"), || {
        format!("redis forged entry: the good viewer got the forged field: {text:.600}")
    });
    let broken: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .filter(|json| serde_json::from_str::<Value>(json).is_err())
        .collect();
    report.rule(broken.is_empty(), || {
        format!("redis forged entry: data lines that are not JSON: {broken:?}")
    });
    let rewritten = format!(
        r#"{{"resource":"{FORGED}","seq":{},"message":"re\nwritten"}}"#,
        numbers.1
    );
    report.rule(text.contains(&rewritten), || {
        format!(
            "redis forged entry: the untidy entry was not written anew ({rewritten}): {text:.600}"
        )
    });
    report.figure(format!(
        "redis forged entry: entries {} (smuggling an `error` of the good viewer's book) and {} (untidy) added; the good viewer got neither the forged field nor a broken line",
        numbers.0, numbers.1
    ));
    judge_good(report, "redis forged entry", watched);
    Ok(())
}

/// Adds the two forged entries after the last of `FORGED`'s events, in
/// its numbering's epoch; their numbers.
async fn forge(conn: &mut ::redis::aio::MultiplexedConnection) -> Result<(u64, u64), String> {
    let keys: Vec<String> = ::redis::cmd("KEYS")
        .arg(format!("*:stream:{FORGED}:events"))
        .query_async(conn)
        .await
        .map_err(|e| format!("KEYS: {e}"))?;
    let key = keys
        .first()
        .ok_or("no events of the forged resource in Redis")?;
    let last: Vec<(String, Vec<String>)> = ::redis::cmd("XREVRANGE")
        .arg(key)
        .arg("+")
        .arg("-")
        .arg("COUNT")
        .arg(1)
        .query_async(conn)
        .await
        .map_err(|e| format!("XREVRANGE: {e}"))?;
    let (id, fields) = last.first().ok_or("no event of the forged resource")?;
    let top: u64 = id
        .split('-')
        .next()
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| format!("an entry id {id}"))?;
    let epoch = fields
        .chunks(2)
        .find(|pair| pair[0] == "epoch")
        .and_then(|pair| pair.get(1))
        .ok_or("no epoch in the entry")?
        .clone();
    let (smuggling, untidy) = (top + 1, top + 2);
    let entries = [
        (
            smuggling,
            format!(
                "{{\"resource\":\"{FORGED}\",\"seq\":{smuggling}}}\n\nevent: error\ndata: {{\"resource\":\"orderbook:good-r3\",\"seq\":99,\"code\":\"FORGED\"}}"
            ),
        ),
        (
            untidy,
            format!(
                "{{ \"resource\" : \"{FORGED}\" , \"seq\" : {untidy} , \"message\" : \"re\\u000awritten\" }}"
            ),
        ),
    ];
    for (seq, json) in entries {
        let _: String = ::redis::cmd("XADD")
            .arg(key)
            .arg(format!("{seq}-0"))
            .arg("epoch")
            .arg(&epoch)
            .arg("kind")
            .arg(Kind::Change.name())
            .arg("json")
            .arg(json)
            .arg("answer")
            .arg("")
            .query_async(conn)
            .await
            .map_err(|e| format!("XADD: {e}"))?;
    }
    Ok((smuggling, untidy))
}

/// Scenario 11: an open of 32 new books on a replica whose Redis answers
/// `SLOW_REDIS` late each way: their readiness is awaited together, so
/// the open answers well within the request timeout (each in turn took
/// 32 times as long).
async fn slow_redis(report: &Report, proxy: &Proxy) -> Result<(), String> {
    let attacker = from("127.0.0.25")?;
    let books: Vec<String> = (0..live::MAX_RESOURCES)
        .map(|n| format!("orderbook:slow-{n}"))
        .collect();
    let started = Instant::now();
    let response = open(&attacker, proxy.addr, &books, &[]).await?;
    let answered = started.elapsed();
    let status = response.status().as_u16();
    let held = read_all(response);
    report.rule(status == 200 && answered < REQUEST_TIMEOUT, || {
        format!(
            "slow redis: the open of {} new books got {status} after {} ms (the request timeout is {} s)",
            books.len(),
            answered.as_millis(),
            REQUEST_TIMEOUT.as_secs()
        )
    });
    report.figure(format!(
        "slow redis (+{} ms each way): an open of {} new books answered {status} in {} ms",
        SLOW_REDIS.as_millis(),
        books.len(),
        answered.as_millis()
    ));
    judge_good(
        report,
        "slow redis",
        good_viewer(proxy.addr, "good-r4").await,
    );
    held.abort();
    Ok(())
}
