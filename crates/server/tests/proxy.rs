//! Proxy mode over real loopback HTTP: a local predmarket-server
//! is the upstream (with its faults on, renamed ids, its own per-key rate
//! limit), a proxy built by `proxy_mode::build` stands in front of it, and the
//! upstream counts what reaches it (`common/counted_upstream.rs`). What
//! becomes of the upstream key is `proxy_key.rs`'s.

use counted_upstream::{
    CEILING, UPSTREAM_KEY, VISITOR, VISITOR_B, assert_typed, direct, get, proxy, proxy_config,
    upstream, upstream_with, without_meta,
};
use std::time::{Duration, Instant};

mod common;
#[path = "common/counted_upstream.rs"]
mod counted_upstream;
#[path = "common/proxy_kit.rs"]
mod proxy_kit;
#[path = "common/redis.rs"]
mod redis_kit;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_operation_passes_through_with_renamed_ids_and_nothing_lost() {
    let upstream = upstream(100, |_| {}).await;
    let proxy = proxy(proxy_config(upstream.addr)).await;
    let client = reqwest::Client::new();
    let ok = |path: String| {
        let client = client.clone();
        async move {
            let (status, _, body, _) = get(&client, proxy.addr, &path, Some(VISITOR)).await;
            assert_eq!(status, 200, "{path}: {body}");
            body
        }
    };
    let platforms = ok("/platforms".into()).await;
    let platform = platforms["platforms"][0]["id"].as_str().unwrap().to_owned();
    assert_eq!(platform, "kestrel", "renamed ids pass through");
    let leagues = ok("/league-info".into()).await;
    let league = leagues["data"]["leagues"][0]["id"]
        .as_str()
        .or_else(|| leagues["data"][0]["id"].as_str())
        .unwrap_or_else(|| panic!("a league id in {leagues:.300}"))
        .to_owned();
    let market = ok(format!("/markets?limit=5&platform={platform}")).await["markets"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let event = ok("/events?limit=1".into()).await["events"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let series = ok("/series?limit=1".into()).await["series"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let games = ok(format!("/list-games?league={league}&limit=1")).await;
    let game = games["data"]["games"][0]["id"]
        .as_str()
        .unwrap()
        .replace('@', "%40");
    let futures = ok(format!("/list-futures?league={league}")).await;
    let future = futures["data"]["futures"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let awards = ok(format!("/list-awards?league={league}")).await;
    let award = awards["data"]["awards"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let trades = ok(format!("/trades?market_id={market}&limit=1")).await;
    let user = trades["trades"][0]["user"]["name"]
        .as_str()
        .unwrap()
        .to_owned();
    for path in [
        format!("/markets/{market}"),
        format!("/markets/{market}/orderbook"),
        format!("/events/{event}"),
        format!("/series/{series}"),
        format!("/games/{game}"),
        format!("/futures/{future}"),
        format!("/awards/{award}"),
        format!("/price-history?market_ids={market}&limit=10"),
        format!("/profile/info?platform={platform}&user={user}"),
        format!("/profile/trades?platform={platform}&user={user}"),
    ] {
        let through = ok(path.clone()).await;
        assert_eq!(
            without_meta(through),
            without_meta(direct(&upstream, &path).await),
            "{path}"
        );
    }
    // Nothing lost: paging every market through the proxy gives exactly
    // the upstream's markets.
    let mut through = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let path = match &cursor {
            Some(c) => format!("/markets?limit=250&cursor={}", common::enc(c)),
            None => "/markets?limit=250".into(),
        };
        let page = ok(path).await;
        through.extend(
            page["markets"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["id"].as_str().unwrap().to_owned()),
        );
        match page["pagination"]["next_cursor"].as_str() {
            Some(next) if page["pagination"]["has_more"] == true => cursor = Some(next.into()),
            _ => break,
        }
    }
    let mut expected = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let path = match &cursor {
            Some(c) => format!("/markets?limit=250&cursor={}", common::enc(c)),
            None => "/markets?limit=250".into(),
        };
        let page = direct(&upstream, &path).await;
        expected.extend(
            page["markets"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["id"].as_str().unwrap().to_owned()),
        );
        match page["pagination"]["next_cursor"].as_str() {
            Some(next) if page["pagination"]["has_more"] == true => cursor = Some(next.into()),
            _ => break,
        }
    }
    assert!(expected.len() > 1000, "{}", expected.len());
    assert_eq!(through, expected);
    let seen = upstream.log.lock().unwrap();
    assert_eq!(seen.real_429s(), 0);
    assert!(seen.max_per_minute() <= 100, "{}", seen.max_per_minute());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn visitors_need_a_proxy_key_unless_public_and_the_cache_serves_repeats() {
    let upstream = upstream(100, |_| {}).await;
    let mut config = proxy_config(upstream.addr);
    // Lists fresh for minutes, not seconds: the HIT below must not depend
    // on how fast the machine sends the second request.
    config.proxy.cache_ttl_scale = 100.0;
    let proxy_ = proxy(config).await;
    let client = reqwest::Client::new();
    let (status, _, body, _) = get(&client, proxy_.addr, "/platforms", None).await;
    assert_eq!(status, 401, "{body}");
    assert_typed("/platforms", status, &body);
    // The upstream's own key is no key of the proxy's.
    let (status, _, _, _) = get(&client, proxy_.addr, "/platforms", Some(UPSTREAM_KEY)).await;
    assert_eq!(status, 401);
    assert_eq!(upstream.log.lock().unwrap().count(), 0);

    let (status, how, first, _) = get(
        &client,
        proxy_.addr,
        "/markets?limit=3&status=open",
        Some(VISITOR),
    )
    .await;
    assert_eq!((status, how.as_str()), (200, "MISS"));
    // Same request, parameters in another order, a default spelled out:
    // one entry.
    let (status, how, second, _) = get(
        &client,
        proxy_.addr,
        "/markets?status=open&include_raw=false&limit=3",
        Some(VISITOR_B),
    )
    .await;
    assert_eq!((status, how.as_str()), (200, "HIT"));
    assert_eq!(first, second);
    assert_eq!(upstream.log.lock().unwrap().count(), 1);

    // A 404 is remembered for a short while; a request that fails the
    // core's checks is refused by the proxy itself, as the server would
    // refuse it, and never sent.
    for _ in 0..3 {
        let (status, _, body, _) = get(
            &client,
            proxy_.addr,
            "/markets/no-such-market",
            Some(VISITOR),
        )
        .await;
        assert_eq!(status, 404);
        assert_typed("404", status, &body);
        let (status, _, body, _) =
            get(&client, proxy_.addr, "/markets?limit=0", Some(VISITOR)).await;
        assert_eq!(status, 400);
        assert_eq!(body["error"]["code"], "VALIDATION_ERROR");
        assert_eq!(body["error"]["details"]["parameter"], "limit", "{body}");
    }
    assert_eq!(upstream.log.lock().unwrap().count(), 1 + 1);

    let mut config = proxy_config(upstream.addr);
    config.api_key.clear();
    let err = predmarket_server::proxy_mode::build(&config)
        .await
        .err()
        .unwrap();
    assert!(err.contains("--public-proxy"), "{err}");
    config.proxy.public_proxy = true;
    let public = proxy(config).await;
    let (status, _, body, _) = get(&client, public.addr, "/platforms", None).await;
    assert_eq!(status, 200, "{body}");
    // `/metrics` is not on the visitors' address, with a key or without.
    for proxy_ in [&proxy_, &public] {
        for key in [Some(VISITOR), None] {
            let mut request = client.get(format!("http://{}/metrics", proxy_.addr));
            if let Some(key) = key {
                request = request.header("X-API-Key", key);
            }
            let response = request.send().await.unwrap();
            let status = response.status().as_u16();
            let text = response.text().await.unwrap();
            assert!(
                !text.contains("predmarket_proxy_"),
                "/metrics on the visitors' address: {status} {text}"
            );
            assert!(status == 404 || status == 401, "{status} {text}");
        }
    }
    let metrics = client
        .get(format!("http://{}/metrics", public.metrics_addr))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        metrics.contains("predmarket_proxy_upstream_requests_total{status=\"200\"} 1"),
        "{metrics}"
    );
    assert!(
        metrics.contains("predmarket_proxy_budget_left"),
        "{metrics}"
    );
    assert!(
        metrics.contains("predmarket_proxy_queue_length 0"),
        "{metrics}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn identical_requests_in_flight_make_one_upstream_request() {
    // The upstream answers only once all forty are waiting, so every one
    // after the first finds the request in flight, however slow the
    // machine is to send them.
    let (open, gate) = tokio::sync::watch::channel(false);
    let upstream = upstream_with(100, |_| {}, Some(gate)).await;
    let mut config = proxy_config(upstream.addr);
    config.proxy.upstream_timeout_secs = CEILING.as_secs_f64() * 2.0;
    config.request_timeout_secs = CEILING.as_secs_f64() * 4.0;
    let proxy = proxy(config).await;
    let client = reqwest::Client::new();
    let mut tasks = Vec::new();
    for i in 0..40 {
        let client = client.clone();
        let key = if i % 2 == 0 { VISITOR } else { VISITOR_B };
        tasks.push(tokio::spawn(async move {
            get(&client, proxy.addr, "/markets?limit=7", Some(key)).await
        }));
    }
    let joined = || {
        proxy
            .state
            .metrics
            .joined
            .load(std::sync::atomic::Ordering::Relaxed)
    };
    let all_joined = tokio::time::timeout(CEILING, async {
        while joined() < 39 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    assert!(
        all_joined.is_ok(),
        "{} joined the request in flight",
        joined()
    );
    let _ = open.send(true);
    for task in tasks {
        let (status, _, body, _) = task.await.unwrap();
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["markets"].as_array().map(Vec::len), Some(7));
    }
    assert_eq!(upstream.log.lock().unwrap().count(), 1);
    assert_eq!(joined(), 39);
}

// Session 23's CI once saw two upstream requests for this entry 11 ms
// apart: a caller that read the old entry just before the first refresh
// stored its answer started a second flight just after that one left the
// flights' map. `ProxyState::flight` now looks for a fresh entry under
// the map's lock before it starts one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hot_entry_is_refreshed_once_per_freshness_and_nobody_waits_for_it() {
    let upstream = upstream(10_000, |_| {}).await;
    let mut config = proxy_config(upstream.addr);
    // Lists: fresh for 300 ms, then served while revalidating for 1.5 s,
    // longer than one refresh takes on a busy machine.
    config.proxy.cache_ttl_scale = 0.06;
    let fresh = Duration::from_millis(300);
    let proxy = proxy(config).await;
    let client = reqwest::Client::new();
    let page = "/markets?limit=6";
    let (status, how, _, _) = get(&client, proxy.addr, page, Some(VISITOR)).await;
    assert_eq!((status, how.as_str()), (200, "MISS"));
    let first = upstream.log.lock().unwrap().requests[0].0;
    // Four visitors asking back to back for six freshness periods, both
    // kinds of client: every answer the entry, at once (HIT or UPDATING),
    // never a wait on the upstream (MISS).
    let mut tasks = Vec::new();
    for i in 0..4 {
        let client = client.clone();
        let addr = proxy.addr;
        tasks.push(tokio::spawn(async move {
            let mut seen = Vec::new();
            while first.elapsed() < fresh * 6 {
                let mut request = client
                    .get(format!("http://{addr}{page}"))
                    .header("X-API-Key", VISITOR);
                if i % 2 == 1 {
                    request = request.header("Accept-Encoding", "gzip, br");
                }
                let response = request.send().await.expect("request");
                let how = response.headers().get("x-cache").cloned();
                seen.push((response.status().as_u16(), how));
                let _ = response.bytes().await;
            }
            seen
        }));
    }
    let mut updating = 0;
    for task in tasks {
        for (status, how) in task.await.unwrap() {
            let how = how.as_ref().and_then(|h| h.to_str().ok()).unwrap_or("");
            assert_eq!(status, 200);
            assert!(["HIT", "UPDATING"].contains(&how), "{how}");
            updating += usize::from(how == "UPDATING");
        }
    }
    assert!(updating > 0, "the entry was never past its freshness");
    // One upstream request per freshness at most: a refresh is asked for
    // only once the entry it replaces is past its freshness, counted from
    // when its answer came back (after the upstream logged it), so two
    // requests reach the upstream at least 300 ms apart (less 5 ms: the
    // entry's time is wall-clock milliseconds, truncated).
    let log = upstream.log.lock().unwrap();
    let times: Vec<Instant> = log.requests.iter().map(|r| r.0).collect();
    assert!(times.len() >= 2, "never refreshed: {}", times.len());
    for pair in times.windows(2) {
        assert!(
            pair[1] - pair[0] >= fresh - Duration::from_millis(5),
            "two upstream requests {:?} apart",
            pair[1] - pair[0]
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stale_data_is_served_marked_when_the_upstream_fails() {
    let upstream_ = upstream(100, |_| {}).await;
    let mut config = proxy_config(upstream_.addr);
    // Lists: fresh for 50 ms, revalidated up to 250 ms.
    config.proxy.cache_ttl_scale = 0.01;
    config.proxy.breaker_failures = 2;
    // Open for longer than the test can take, busy machine or not.
    config.proxy.breaker_cooldown_secs = 3_600.0;
    let proxy = proxy(config).await;
    let client = reqwest::Client::new();
    let (status, how, fresh, _) = get(&client, proxy.addr, "/markets?limit=4", Some(VISITOR)).await;
    assert_eq!((status, how.as_str()), (200, "MISS"));
    drop(upstream_);
    // Fresh, then served while refreshing, until the entry is past both
    // and the failed refresh leaves only the stale copy: asked until then.
    let asked = Instant::now();
    loop {
        let (status, how, body, _) =
            get(&client, proxy.addr, "/markets?limit=4", Some(VISITOR)).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["markets"], fresh["markets"]);
        if how == "STALE" {
            break;
        }
        assert!(["HIT", "UPDATING"].contains(&how.as_str()), "{how}");
        assert!(asked.elapsed() < CEILING, "never served stale");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    for _ in 0..4 {
        let (status, how, body, _) =
            get(&client, proxy.addr, "/markets?limit=4", Some(VISITOR)).await;
        assert_eq!((status, how.as_str()), (200, "STALE"), "{body}");
        assert_eq!(body["meta"]["stale"], true);
        assert_eq!(body["markets"], fresh["markets"]);
    }
    // Nothing cached: a typed 503, and the circuit is open by now (two
    // failures), so no request goes out at all.
    let (status, _, body, headers) =
        get(&client, proxy.addr, "/markets?limit=5", Some(VISITOR)).await;
    assert_typed("uncached", status, &body);
    assert_eq!(
        body["error"]["details"]["reason"], "upstream_circuit_open",
        "{body}"
    );
    assert!(headers.contains("retry-after"), "{headers}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn faults_become_typed_errors_and_the_budget_holds() {
    // The upstream allows the proxy's key 30 requests a minute and fails
    // a third of them on purpose (5xx, 429, malformed bodies).
    let limit = 30;
    let upstream = upstream(limit, |c| {
        c.latency_ms = 20;
        c.fault_5xx = 0.15;
        c.fault_429 = 0.1;
        c.fault_malformed = 0.1;
    })
    .await;
    let mut config = proxy_config(upstream.addr);
    config.proxy.upstream_limit = limit;
    config.proxy.max_wait_secs = 2.0;
    // Failures are random here: keep the circuit out of the way.
    config.proxy.breaker_failures = 1000;
    let proxy = proxy(config).await;
    let client = reqwest::Client::new();
    let started = Instant::now();
    let mut tasks = Vec::new();
    for client_no in 0..10 {
        let client = client.clone();
        tasks.push(tokio::spawn(async move {
            let mut statuses = Vec::new();
            for page in 0..8 {
                let path = format!("/markets?limit={}", 1 + client_no * 8 + page);
                // Answered, whatever the upstream did: never left hanging.
                let (status, _, body, headers) =
                    tokio::time::timeout(CEILING, get(&client, proxy.addr, &path, Some(VISITOR)))
                        .await
                        .unwrap_or_else(|_| panic!("{path} hung"));
                if status != 200 {
                    assert_typed(&path, status, &body);
                    if status == 429 {
                        assert!(headers.contains("retry-after"), "{headers}");
                    }
                } else {
                    assert!(body["markets"].is_array(), "{body}");
                }
                statuses.push(status);
            }
            statuses
        }));
    }
    let mut ok = 0;
    for task in tasks {
        ok += task.await.unwrap().iter().filter(|s| **s == 200).count();
    }
    let seen = upstream.log.lock().unwrap();
    let elapsed = started.elapsed().as_secs_f64();
    assert_eq!(seen.real_429s(), 0, "the proxy overspent");
    let params = predmarket_server::proxy::budget::Params::for_limit(limit);
    let allowed = f64::from(params.burst) + elapsed * 1000.0 / params.t_ms + 1.0;
    assert!(
        (seen.count() as f64) <= allowed,
        "{} upstream requests in {elapsed:.1} s, at most {allowed:.1}",
        seen.count()
    );
    assert!(ok > 0, "some answers got through");
}

/// A real `redis-server`, or `None` (SKIPPED loudly) when it is missing
/// and not required.
fn redis_server() -> Option<redis_kit::Redis> {
    redis_kit::start("the shared budget of two proxy replicas", &[])
        .unwrap_or_else(|e| panic!("{e}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    redis_missing,
    ignore = "needs redis-server, not installed here (`cargo xtask setup` installs it; see build.rs)"
)]
async fn two_replicas_with_redis_hold_one_budget_and_share_the_cache() {
    let Some(redis) = redis_server() else {
        return;
    };
    let limit = 20;
    let upstream = upstream(limit, |_| {}).await;
    let replica = |_: u8| {
        let mut config = proxy_config(upstream.addr);
        config.proxy.upstream_limit = limit;
        config.proxy.max_wait_secs = 2.0;
        config.proxy.redis = Some(redis.url.clone());
        proxy(config)
    };
    let a = replica(0).await;
    let b = replica(1).await;
    let client = reqwest::Client::new();
    let (status, how, from_a, _) = get(&client, a.addr, "/platforms", Some(VISITOR)).await;
    assert_eq!((status, how.as_str()), (200, "MISS"));
    let (status, _, from_b, _) = get(&client, b.addr, "/platforms", Some(VISITOR)).await;
    assert_eq!(status, 200);
    assert_eq!(from_a, from_b);
    assert_eq!(
        upstream.log.lock().unwrap().count(),
        1,
        "B answered from Redis"
    );
    assert_eq!(
        b.state
            .metrics
            .shared_hits
            .load(std::sync::atomic::Ordering::Relaxed),
        1
    );

    // Both replicas hammered with distinct requests for 12 s (longer if a
    // busy machine has not yet spent any of the budget by then): together
    // they stay within one budget (two budgets would allow about twice).
    let started = Instant::now();
    let mut tasks = Vec::new();
    for n in 0..16u32 {
        let client = client.clone();
        let addr = if n % 2 == 0 { a.addr } else { b.addr };
        let log = upstream.log.clone();
        tasks.push(tokio::spawn(async move {
            let mut i = 0;
            let going = || {
                let elapsed = started.elapsed();
                elapsed < Duration::from_secs(12)
                    || (log.lock().unwrap().count() < 3 && elapsed < CEILING)
            };
            while going() {
                i += 1;
                let path = format!("/markets?limit={}", 1 + (n * 1000 + i) % 250);
                let (status, _, body, _) = get(&client, addr, &path, Some(VISITOR)).await;
                if status != 200 {
                    assert_typed(&path, status, &body);
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            }
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
    let elapsed = started.elapsed().as_secs_f64();
    let seen = upstream.log.lock().unwrap();
    let params = predmarket_server::proxy::budget::Params::for_limit(limit);
    // The first request (the platforms) plus one budget's burst and rate.
    let allowed = 1.0 + f64::from(params.burst) + elapsed * 1000.0 / params.t_ms + 1.0;
    assert_eq!(seen.real_429s(), 0, "the replicas overspent");
    assert!(
        seen.count() as f64 <= allowed,
        "{} upstream requests in {elapsed:.1} s from two replicas, one budget allows {allowed:.1}",
        seen.count()
    );
    assert!(seen.count() >= 3, "the budget was used: {}", seen.count());
}
