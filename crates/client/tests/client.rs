//! The client's machinery against a scripted transport on a virtual clock:
//! every operation, retries, the rate budget, timeouts, cancellation,
//! coalescing and the cache. Deterministic, and no real time passes.

mod support;

use futures::future::join;
use predmarket_client::core::models::{League, PlatformId};
use predmarket_client::core::request::*;
use predmarket_client::{CallOptions, CancelToken, ErrorCode};
use std::time::Duration;
use support::{BASE, Fake, KEY, Reply, client, config, run};

fn fixture(name: &str) -> String {
    let path = format!(
        "{}/../core/tests/fixtures/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

const PLATFORMS: &str = r#"{"platforms":[{"id":"platform_a"}],"meta":{"total":1}}"#;

fn platforms_ok() -> Fake {
    Fake::new(|_, _| Reply::ok(PLATFORMS))
}

#[test]
fn every_operation_sends_its_path_and_decodes_its_answer() {
    let fake = Fake::new(|url, _| {
        let path = url.trim_start_matches(BASE);
        let name = match path.split('?').next().unwrap_or_default() {
            "/series" => "list_series",
            "/series/s1" => "get_series",
            "/markets" => "list_markets",
            "/markets/m1" => "get_market",
            "/markets/m1/orderbook" => "get_orderbook",
            "/events" => "list_events",
            "/events/e1" => "get_event",
            "/trades" => "list_trades",
            "/league-info" => "get_league_info",
            "/list-games" => "list_games",
            "/games/KCvSF20250209%40LGA" => "get_game",
            "/platforms" => "list_platforms",
            "/futures/f1" => "get_future",
            "/list-futures" => "list_futures",
            "/awards/a1" => "get_award",
            "/list-awards" => "list_awards",
            "/price-history" => "get_price_history",
            "/profile/info" => "get_profile_info",
            "/profile/trades" => "list_profile_trades",
            other => panic!("unexpected path {other}"),
        };
        Reply::ok(fixture(name))
    });
    let c = client(&fake, config());
    let a = PlatformId::PlatformA;
    run(&fake.clock, async {
        c.list_series(&ListSeries::default())
            .await
            .expect("listSeries");
        c.get_series(&GetSeries::new("s1"))
            .await
            .expect("getSeries");
        let markets = c
            .list_markets(&ListMarkets {
                limit: Some(50),
                ..Default::default()
            })
            .await
            .expect("listMarkets");
        assert!(!markets.markets.is_empty());
        c.get_market(&GetMarket::new("m1"))
            .await
            .expect("getMarket");
        c.get_orderbook(&GetOrderbook::new("m1"))
            .await
            .expect("getOrderbook");
        c.list_events(&ListEvents::default())
            .await
            .expect("listEvents");
        c.get_event(&GetEvent::new("e1")).await.expect("getEvent");
        c.list_trades(&ListTrades::new("m1"))
            .await
            .expect("listTrades");
        c.get_league_info(&GetLeagueInfo {
            league: Some(League::LeagueA),
            include_teams: Some(true),
        })
        .await
        .expect("getLeagueInfo");
        c.list_games(&ListGames::new(League::LeagueA))
            .await
            .expect("listGames");
        c.get_game(&GetGame::new("KCvSF20250209@LGA"))
            .await
            .expect("getGame");
        assert!(
            !c.list_platforms()
                .await
                .expect("listPlatforms")
                .platforms
                .is_empty()
        );
        c.get_future(&GetFuture::new("f1"))
            .await
            .expect("getFuture");
        c.list_futures(&ListFutures::new(League::LeagueA))
            .await
            .expect("listFutures");
        c.get_award(&GetAward::new("a1")).await.expect("getAward");
        c.list_awards(&ListAwards::new(League::LeagueA))
            .await
            .expect("listAwards");
        c.get_price_history(&GetPriceHistory::new(["m1", "m2"]))
            .await
            .expect("getPriceHistory");
        c.get_profile_info(&GetProfileInfo::new(a.clone(), "alice"))
            .await
            .expect("getProfileInfo");
        c.list_profile_trades(&ListProfileTrades::new(a, "alice"))
            .await
            .expect("listProfileTrades");
    });
    let sent = fake.sent();
    assert_eq!(sent.len(), 19);
    for s in &sent {
        assert_eq!(s.api_key.as_deref(), Some(KEY));
        assert!(!s.url.contains(KEY), "the key is never in a URL: {}", s.url);
    }
    assert!(
        sent[2].url.ends_with("/markets?limit=50"),
        "{}",
        sent[2].url
    );
    assert!(
        sent[16].url.contains("market_ids=m1%2Cm2"),
        "{}",
        sent[16].url
    );
}

#[test]
fn a_failed_check_is_reported_before_anything_is_sent() {
    let fake = platforms_ok();
    let c = client(&fake, config());
    let err = run(
        &fake.clock,
        c.list_markets(&ListMarkets {
            limit: Some(0),
            ..Default::default()
        }),
    )
    .expect_err("limit 0");
    assert_eq!(err.code(), ErrorCode::ValidationError);
    assert_eq!(err.parameter(), Some("limit"));
    let err = run(&fake.clock, c.get_game(&GetGame::new(" "))).expect_err("blank id");
    assert_eq!(err.parameter(), Some("game_id"));
    assert_eq!(fake.count(), 0);
}

#[test]
fn a_429_is_retried_after_its_retry_after() {
    let fake = Fake::new(|_, n| match n {
        0 => Reply::error(429, "RATE_LIMITED").header("retry-after", 2),
        _ => Reply::ok(PLATFORMS),
    });
    let c = client(&fake, config());
    run(&fake.clock, c.list_platforms()).expect("retried");
    let times = fake.times();
    assert_eq!(times.len(), 2);
    // Retry-After 2 s, plus at most 10 % jitter.
    assert!((2_000..=2_200).contains(&times[1]), "{times:?}");
}

#[test]
fn a_429_blocks_the_budget_for_every_call_not_just_the_one_retried() {
    let fake = Fake::new(|url, n| {
        if url.ends_with("/platforms") && n == 0 {
            Reply::error(429, "RATE_LIMITED").header("retry-after", 5)
        } else {
            Reply::ok(PLATFORMS)
        }
    });
    let c = client(&fake, config());
    run(&fake.clock, async {
        let first = c.list_platforms();
        let second = async {
            fake.clock.sleep(10).await;
            c.send(&GetMarket::new("x"), &CallOptions::default())
                .await
                .map(|_| ())
                .ok();
        };
        let (first, ()) = join(first, second).await;
        first.expect("retried");
    });
    let sent = fake.sent();
    let other = sent
        .iter()
        .find(|s| s.url.contains("/markets/x"))
        .expect("sent");
    assert!(
        other.at_ms >= 5_000,
        "waited for the service's Retry-After: {sent:?}"
    );
}

#[test]
fn server_errors_and_network_errors_are_retried_with_growing_backoff() {
    let fake = Fake::new(|_, n| match n {
        0 => Reply::error(500, "INTERNAL_ERROR"),
        1 => Reply::network(),
        2 => Reply::error(503, "PLATFORM_UNAVAILABLE"),
        _ => Reply::ok(PLATFORMS),
    });
    let c = client(&fake, config());
    run(&fake.clock, c.list_platforms()).expect("third retry succeeds");
    let t = fake.times();
    assert_eq!(t.len(), 4);
    let gaps: Vec<u64> = t.windows(2).map(|w| w[1] - w[0]).collect();
    // Ceilings 250, 500, 1000 ms; never below a tenth of them.
    for (gap, ceiling) in gaps.iter().zip([250u64, 500, 1000]) {
        assert!(*gap >= ceiling / 10 && *gap <= ceiling, "{gaps:?}");
    }
}

#[test]
fn retries_stop_at_max_retries_with_the_last_error() {
    let fake = Fake::new(|_, _| Reply::error(503, "PLATFORM_UNAVAILABLE"));
    let mut cfg = config();
    cfg.max_retries = 2;
    let c = client(&fake, cfg);
    let err = run(&fake.clock, c.list_platforms()).expect_err("gives up");
    assert_eq!(err.code(), ErrorCode::PlatformUnavailable);
    assert_eq!(err.status(), Some(503));
    assert_eq!(fake.count(), 3);
}

#[test]
fn client_errors_are_not_retried() {
    for (status, code) in [
        (400, "VALIDATION_ERROR"),
        (401, "UNAUTHORIZED"),
        (404, "NOT_FOUND"),
        (400, "INVALID_CURSOR"),
    ] {
        let fake = Fake::new(move |_, _| Reply::error(status, code));
        let c = client(&fake, config());
        let err = run(&fake.clock, c.list_platforms()).expect_err("fails");
        assert_eq!(err.code().as_str(), code);
        assert_eq!(err.status(), Some(status));
        assert_eq!(fake.count(), 1, "{code} is not retried");
    }
}

#[test]
fn a_retry_after_beyond_the_longest_wait_is_returned_not_waited_out() {
    let fake = Fake::new(|_, _| Reply::error(429, "RATE_LIMITED").header("retry-after", "1e300"));
    let c = client(&fake, config());
    let err = run(&fake.clock, c.list_platforms()).expect_err("not waited");
    assert_eq!(err.code(), ErrorCode::RateLimited);
    assert!(err.retry_after_ms().is_some());
    assert_eq!(fake.count(), 1);
    assert_eq!(fake.clock.now(), 0);
}

#[test]
fn the_budget_waits_instead_of_running_into_a_429() {
    let fake = Fake::new(|_, _| Reply::ok(PLATFORMS));
    let mut cfg = config();
    cfg.rate_limit_per_minute = 3;
    let c = client(&fake, cfg);
    run(&fake.clock, async {
        for _ in 0..7 {
            c.send(&ListPlatforms, &CallOptions::default())
                .await
                .expect("never a 429");
        }
    });
    let times = fake.times();
    assert_eq!(times, vec![0, 0, 0, 60_000, 60_000, 60_000, 120_000]);
    for window in times.windows(4) {
        assert!(
            window[3] - window[0] >= 60_000,
            "at most 3 in any minute: {times:?}"
        );
    }
}

#[test]
fn the_budget_learns_a_lower_limit_from_the_service() {
    let fake = Fake::new(|_, n| {
        let remaining = 1usize.saturating_sub(n);
        let reply = Reply::ok(PLATFORMS)
            .header("x-ratelimit-limit", 2)
            .header("x-ratelimit-remaining", remaining);
        if remaining == 0 {
            reply.header("x-ratelimit-reset", 60)
        } else {
            reply.header("x-ratelimit-reset", 0)
        }
    });
    let c = client(&fake, config());
    run(&fake.clock, async {
        for _ in 0..3 {
            c.list_platforms().await.expect("no 429");
        }
    });
    let times = fake.times();
    assert_eq!(times[..2], [0, 0]);
    assert!(times[2] >= 60_000, "{times:?}");
}

#[test]
fn a_slow_answer_times_out_and_is_retried() {
    let fake = Fake::new(|_, n| {
        if n == 0 {
            Reply::ok(PLATFORMS).delay(10_000)
        } else {
            Reply::ok(PLATFORMS)
        }
    });
    let mut cfg = config();
    cfg.timeout = Some(Duration::from_millis(1_000));
    let c = client(&fake, cfg.clone());
    run(&fake.clock, c.list_platforms()).expect("second attempt");
    let sent = fake.sent();
    assert!(sent[0].dropped, "the slow request was abandoned");
    assert!(sent[1].at_ms >= 1_000);

    let fake = Fake::new(|_, _| Reply::ok(PLATFORMS).delay(10_000));
    cfg.max_retries = 0;
    let c = client(&fake, cfg);
    let err = run(&fake.clock, c.list_platforms()).expect_err("times out");
    assert_eq!(err.code(), ErrorCode::Timeout);
    assert_eq!(fake.clock.now(), 1_000);
}

#[test]
fn cancelling_mid_flight_aborts_the_request() {
    let fake = Fake::new(|_, _| Reply::ok(PLATFORMS).delay(5_000));
    let c = client(&fake, config());
    let token = CancelToken::new();
    let (result, ()) = run(&fake.clock, async {
        let options = CallOptions::with_cancel(token.clone());
        let call = c.send(&ListPlatforms, &options);
        let cancel = async {
            fake.clock.sleep(100).await;
            token.cancel();
        };
        join(call, cancel).await
    });
    assert_eq!(result.expect_err("aborted").code(), ErrorCode::Aborted);
    assert_eq!(
        fake.clock.now(),
        100,
        "rejected at once, not after the answer"
    );
    assert!(fake.sent()[0].dropped, "the request itself was dropped");
    assert_eq!(c.in_flight(), 0);
}

#[test]
fn a_cancelled_token_sends_nothing_and_cancelling_during_a_wait_stops_it() {
    let fake =
        Fake::new(|_, _| Reply::error(503, "PLATFORM_UNAVAILABLE").header("retry-after", 30));
    let c = client(&fake, config());
    let token = CancelToken::new();
    token.cancel();
    let err = run(
        &fake.clock,
        c.send(&ListPlatforms, &CallOptions::with_cancel(token)),
    )
    .expect_err("aborted");
    assert_eq!(err.code(), ErrorCode::Aborted);
    assert_eq!(fake.count(), 0);

    let token = CancelToken::new();
    let (result, ()) = run(&fake.clock, async {
        let options = CallOptions::with_cancel(token.clone());
        let call = c.send(&ListPlatforms, &options);
        let cancel = async {
            fake.clock.sleep(1_000).await;
            token.cancel();
        };
        join(call, cancel).await
    });
    assert_eq!(result.expect_err("aborted").code(), ErrorCode::Aborted);
    assert_eq!(fake.count(), 1, "no retry after the cancel");
    assert_eq!(fake.clock.now(), 1_000);
}

#[test]
fn identical_calls_in_flight_share_one_request() {
    let fake = Fake::new(|_, _| Reply::ok(PLATFORMS).delay(200));
    let c = client(&fake, config());
    let (a, b) = run(&fake.clock, join(c.list_platforms(), c.list_platforms()));
    assert_eq!(a.expect("a"), b.expect("b"));
    assert_eq!(fake.count(), 1);
    // Done: the next call asks again (no cache by default).
    run(&fake.clock, c.list_platforms()).expect("again");
    assert_eq!(fake.count(), 2);
    // Different URLs are different requests.
    let (x, y) = run(
        &fake.clock,
        join(
            c.send(
                &ListMarkets {
                    limit: Some(1),
                    ..Default::default()
                },
                &CallOptions::default(),
            ),
            c.send(
                &ListMarkets {
                    limit: Some(2),
                    ..Default::default()
                },
                &CallOptions::default(),
            ),
        ),
    );
    assert!(
        x.is_err() && y.is_err(),
        "platforms JSON is not a markets page"
    );
    assert_eq!(fake.count(), 4);
}

#[test]
fn identical_calls_share_the_failure_too() {
    let fake = Fake::new(|_, _| Reply::error(404, "NOT_FOUND").delay(50));
    let c = client(&fake, config());
    let (a, b) = run(
        &fake.clock,
        join(
            c.get_market(&GetMarket::new("x")),
            c.get_market(&GetMarket::new("x")),
        ),
    );
    assert_eq!(a.expect_err("a").code(), ErrorCode::NotFound);
    assert_eq!(b.expect_err("b").code(), ErrorCode::NotFound);
    assert_eq!(fake.count(), 1);
}

#[test]
fn one_caller_giving_up_does_not_abort_the_shared_request() {
    let fake = Fake::new(|_, _| Reply::ok(PLATFORMS).delay(1_000));
    let c = client(&fake, config());
    let token = CancelToken::new();
    let (quitter, stayer, ()) = run(&fake.clock, async {
        let (quit, stay) = (
            CallOptions::with_cancel(token.clone()),
            CallOptions::default(),
        );
        let quitter = c.send(&ListPlatforms, &quit);
        let stayer = c.send(&ListPlatforms, &stay);
        let cancel = async {
            fake.clock.sleep(100).await;
            token.cancel();
        };
        futures::join!(quitter, stayer, cancel)
    });
    assert_eq!(quitter.expect_err("quit").code(), ErrorCode::Aborted);
    assert_eq!(stayer.expect("still answered").platforms.len(), 1);
    let sent = fake.sent();
    assert_eq!(sent.len(), 1);
    assert!(sent[0].answered);
}

#[test]
fn the_cache_is_off_by_default_and_serves_fresh_answers_when_on() {
    let fake = platforms_ok();
    let c = client(&fake, config());
    run(&fake.clock, async {
        c.list_platforms().await.expect("1");
        c.list_platforms().await.expect("2");
    });
    assert_eq!(fake.count(), 2, "no cache by default");

    let fake = platforms_ok();
    let mut cfg = config();
    cfg.cache_ttl = Some(Duration::from_millis(1_000));
    let c = client(&fake, cfg);
    run(&fake.clock, async {
        c.list_platforms().await.expect("miss");
        fake.clock.sleep(500).await;
        c.list_platforms().await.expect("hit");
        assert_eq!(fake.count(), 1);
        fake.clock.sleep(600).await;
        c.list_platforms().await.expect("expired");
        assert_eq!(fake.count(), 2);
        c.clear_cache();
        c.list_platforms().await.expect("cleared");
        assert_eq!(fake.count(), 3);
    });
}

#[test]
fn failures_are_not_cached() {
    let fake = Fake::new(|_, n| {
        if n == 0 {
            Reply::error(404, "NOT_FOUND")
        } else {
            Reply::ok(PLATFORMS)
        }
    });
    let mut cfg = config();
    cfg.cache_ttl = Some(Duration::from_secs(60));
    let c = client(&fake, cfg);
    run(&fake.clock, async {
        assert!(c.list_platforms().await.is_err());
        c.list_platforms().await.expect("asked again");
        c.list_platforms().await.expect("cached");
    });
    assert_eq!(fake.count(), 2);
    assert_eq!(c.cached(), 1);
}

#[test]
fn the_key_is_redacted_from_debug_output_and_errors() {
    let fake = Fake::new(|_, _| Reply::error(401, "UNAUTHORIZED"));
    let c = client(&fake, config());
    assert!(!format!("{:?}", c.config()).contains(KEY));
    let err = run(&fake.clock, c.list_platforms()).expect_err("401");
    assert!(!err.to_string().contains(KEY));
    assert!(!format!("{err:?}").contains(KEY));
}

#[test]
fn bad_configs_are_refused() {
    let fake = platforms_ok();
    let mut cfg = config();
    cfg.api_key = " ".into();
    assert_eq!(
        predmarket_client::Client::with_transport(cfg, fake.clone())
            .err()
            .and_then(|e| e.parameter().map(str::to_owned))
            .as_deref(),
        Some("apiKey")
    );
    let mut cfg = config();
    cfg.base_url = "ftp://x".into();
    assert!(predmarket_client::Client::with_transport(cfg, fake.clone()).is_err());
    let mut cfg = config();
    cfg.rate_limit_per_minute = 0;
    assert!(predmarket_client::Client::with_transport(cfg, fake).is_err());
}

#[test]
fn a_zero_reset_on_a_500_is_not_a_reason_to_retry_at_once() {
    // The reference server sends X-RateLimit-Reset on every answer.
    let fake = Fake::new(|_, n| match n {
        0 | 1 => Reply::error(500, "INTERNAL_ERROR")
            .header("x-ratelimit-limit", 100)
            .header("x-ratelimit-remaining", 90)
            .header("x-ratelimit-reset", 0),
        _ => Reply::ok(PLATFORMS),
    });
    let c = client(&fake, config());
    run(&fake.clock, c.list_platforms()).expect("retried");
    let t = fake.times();
    assert!(t[1] - t[0] >= 25 && t[2] - t[1] >= 50, "backed off: {t:?}");
}

#[test]
fn a_huge_reset_with_nothing_remaining_blocks_one_minute_at_most() {
    let fake = Fake::new(|_, n| match n {
        0 => Reply::ok(PLATFORMS)
            .header("x-ratelimit-remaining", 0)
            .header("x-ratelimit-reset", "1e15"),
        _ => Reply::ok(PLATFORMS),
    });
    let c = client(&fake, config());
    run(&fake.clock, async {
        c.list_platforms().await.expect("first");
        c.list_platforms()
            .await
            .expect("second, after the capped wait");
    });
    assert_eq!(fake.times(), vec![0, 60_000]);
}

#[test]
fn clients_get_different_jitter_seeds_unless_one_is_pinned() {
    // Two clients failing the same way: without a pinned seed their retries
    // are not in step; with one, they are.
    let gaps = |seed: Option<u64>, clients: usize| {
        let fake = Fake::new(|_, n| {
            if n < 3 {
                Reply::error(503, "PLATFORM_UNAVAILABLE")
            } else {
                Reply::ok(PLATFORMS)
            }
        });
        let mut cfg = config();
        cfg.jitter_seed = seed;
        // The transport hands every client it makes a new seed.
        let made: Vec<_> = (0..clients).map(|_| client(&fake, cfg.clone())).collect();
        let last = made.last().expect("a client");
        run(&fake.clock, last.list_platforms()).expect("retried");
        let t = fake.times();
        t.windows(2).map(|w| w[1] - w[0]).collect::<Vec<_>>()
    };
    assert_ne!(gaps(None, 1), gaps(None, 2));
    assert_eq!(gaps(Some(3), 1), gaps(Some(3), 2));
}

#[test]
fn redirects_are_followed_on_the_service_origin_and_refused_elsewhere() {
    let fake = Fake::new(|url, _| {
        if url.starts_with(BASE) && url.contains("/v2/") {
            Reply::status(307, "")
                .header("location", "https://elsewhere.test/p?k=pm_secret_test_key")
        } else if url.starts_with(BASE) {
            Reply::status(302, "").header("location", "/v2/platforms")
        } else {
            Reply::ok(PLATFORMS)
        }
    });
    let mut cfg = config();
    cfg.headers = vec![("x-app".into(), "demo".into())];
    let c = client(&fake, cfg);
    let err = run(&fake.clock, c.list_platforms()).expect_err("refused");
    let sent = fake.sent();
    assert_eq!(
        sent.len(),
        2,
        "nothing sent to the other origin, no retry: {sent:?}"
    );
    assert_eq!(sent[1].url, format!("{BASE}/v2/platforms"));
    assert_eq!(sent[1].api_key.as_deref(), Some(KEY), "same origin");
    assert_eq!(
        sent[1].headers,
        vec![("x-app".to_owned(), "demo".to_owned())]
    );
    assert_eq!(err.code(), ErrorCode::NetworkError);
    assert_eq!(err.status(), Some(307));
    match &err {
        predmarket_client::Error::Redirected { status, location } => {
            assert_eq!(*status, 307);
            assert_eq!(location, "https://elsewhere.test/p?k=<redacted>");
        }
        other => panic!("not a refused redirect: {other:?}"),
    }
    assert!(
        err.to_string().contains("https://elsewhere.test/p"),
        "{err}"
    );
    assert!(!err.to_string().contains(KEY), "{err}");
}

/// `Location` spellings that a hand split reads as the service's host
/// while the transport's URL parser goes elsewhere: all refused, unsent.
#[test]
fn redirect_spellings_that_leave_the_origin_are_refused() {
    for location in [
        "http://evil.test\\@fake.test/",
        "/\\evil.test/",
        "\\\\evil.test/",
        "http:\\\\evil.test/",
        "//evil.test\\@fake.test/",
        "http://fake.test@evil.test/",
        "https://fake.test/",
        "http://fake.test:8080/",
    ] {
        let fake = Fake::new(move |url, _| {
            if url.starts_with(BASE) {
                Reply::status(302, "").header("location", location)
            } else {
                Reply::ok(PLATFORMS)
            }
        });
        let c = client(&fake, config());
        let err = run(&fake.clock, c.list_platforms()).expect_err(location);
        assert!(
            matches!(err, predmarket_client::Error::Redirected { .. }),
            "{location}: {err:?}"
        );
        assert_eq!(fake.count(), 1, "{location}: {:?}", fake.sent());
    }
}

#[test]
fn same_origin_redirects_resolve_as_a_url_parser_does() {
    let fake = Fake::new(|url, _| {
        if url == format!("{BASE}/platforms") {
            // Credentials and a fragment are dropped, dot segments resolved.
            Reply::status(301, "")
                .header("location", "http://u:p@FAKE.test:80/a/../v2/./platforms#x")
        } else {
            Reply::ok(PLATFORMS)
        }
    });
    let c = client(&fake, config());
    run(&fake.clock, c.list_platforms()).expect("followed");
    let sent = fake.sent();
    assert_eq!(sent.len(), 2);
    assert_eq!(sent[1].url, format!("{BASE}/v2/platforms"));
    assert_eq!(sent[1].api_key.as_deref(), Some(KEY));
}

#[test]
fn a_redirect_loop_stops() {
    let fake = Fake::new(|_, _| Reply::status(302, "").header("location", "/markets"));
    let c = client(&fake, config());
    let err = run(&fake.clock, c.list_platforms()).expect_err("loop");
    assert_eq!(err.code(), ErrorCode::NetworkError);
}

#[test]
fn a_body_over_the_cap_is_a_typed_error_and_not_retried() {
    let fake = Fake::new(|_, _| Reply::ok(" ".repeat(2_000)));
    let mut cfg = config();
    cfg.max_body_bytes = 1_000;
    let c = client(&fake, cfg);
    let err = run(&fake.clock, c.list_platforms()).expect_err("too large");
    assert_eq!(err.code(), ErrorCode::ResponseTooLarge);
    assert_eq!(err.status(), Some(200));
    assert_eq!(fake.count(), 1);
}

#[test]
fn a_calls_timeout_bounds_its_budget_wait_too() {
    let fake = Fake::new(|_, _| Reply::ok(PLATFORMS));
    let mut cfg = config();
    cfg.rate_limit_per_minute = 1;
    let c = client(&fake, cfg);
    let err = run(&fake.clock, async {
        c.list_platforms().await.expect("first");
        let options = CallOptions {
            timeout: Some(Duration::from_millis(500)),
            ..CallOptions::default()
        };
        c.send(&GetMarket::new("x"), &options).await
    })
    .expect_err("budget wait outlasts the call's timeout");
    assert_eq!(err.code(), ErrorCode::Timeout);
    assert_eq!(fake.clock.now(), 500);
    assert_eq!(fake.count(), 1);
}

#[test]
fn a_calls_max_retries_and_headers_apply_to_it_alone() {
    let fake = Fake::new(|_, _| Reply::error(503, "PLATFORM_UNAVAILABLE"));
    let mut cfg = config();
    cfg.headers = vec![
        ("x-app".into(), "demo".into()),
        ("x-trace".into(), "client".into()),
    ];
    let c = client(&fake, cfg);
    let options = CallOptions {
        max_retries: Some(0),
        headers: vec![("X-Trace".into(), "call".into())],
        ..CallOptions::default()
    };
    run(&fake.clock, c.send(&ListPlatforms, &options)).expect_err("fails");
    assert_eq!(fake.count(), 1, "no retry");
    let sent = &fake.sent()[0];
    assert_eq!(
        sent.headers,
        vec![
            ("x-app".to_owned(), "demo".to_owned()),
            ("X-Trace".to_owned(), "call".to_owned())
        ]
    );
}

#[test]
fn no_header_can_replace_the_key() {
    let fake = platforms_ok();
    let mut cfg = config();
    cfg.headers = vec![("X-Api-Key".into(), "other".into())];
    let err = predmarket_client::Client::with_transport(cfg, fake.clone())
        .err()
        .expect("refused");
    assert_eq!(err.parameter(), Some("headers"));
    let c = client(&fake, config());
    let options = CallOptions {
        headers: vec![("x-api-key".into(), "other".into())],
        ..CallOptions::default()
    };
    let err = run(&fake.clock, c.send(&ListPlatforms, &options)).expect_err("refused");
    assert_eq!(err.code(), ErrorCode::ValidationError);
    assert_eq!(fake.count(), 0);
}

#[test]
fn events_tell_requests_answers_retries_and_waits() {
    use predmarket_client::{EventKind, WaitReason};
    use std::cell::RefCell;
    use std::rc::Rc;
    let fake = Fake::new(|_, n| match n {
        0 => Reply::error(503, "PLATFORM_UNAVAILABLE").header("x-request-id", "req-1"),
        _ => Reply::ok(PLATFORMS).header("x-request-id", "req-2"),
    });
    let seen = Rc::new(RefCell::new(Vec::new()));
    let mut cfg = config();
    cfg.rate_limit_per_minute = 1;
    let log = seen.clone();
    cfg.observer = Some(Rc::new(move |e| {
        log.borrow_mut().push((
            e.kind,
            e.attempt,
            e.status,
            e.reason,
            e.request_id.map(str::to_owned),
            e.url.to_owned(),
        ));
    }));
    let c = client(&fake, cfg);
    run(&fake.clock, c.list_platforms()).expect("retried");
    let seen = seen.borrow();
    let kinds: Vec<_> = seen.iter().map(|e| (e.0, e.1, e.2, e.3)).collect();
    assert_eq!(
        kinds,
        vec![
            (EventKind::Request, 0, None, None),
            (EventKind::Response, 0, Some(503), None),
            (EventKind::Retry, 1, Some(503), Some(WaitReason::Backoff)),
            // One request a minute: the retry waits for the budget.
            (EventKind::Wait, 1, None, Some(WaitReason::Budget)),
            (EventKind::Request, 1, None, None),
            (EventKind::Response, 1, Some(200), None),
        ]
    );
    assert_eq!(seen[5].4.as_deref(), Some("req-2"));
    assert!(
        seen.iter()
            .all(|e| e.5 == format!("{BASE}/platforms") && !e.5.contains(KEY))
    );
}

#[test]
fn raw_answers_carry_status_headers_and_request_id() {
    let fake = Fake::new(|_, _| Reply::ok(PLATFORMS).header("x-request-id", "abc"));
    let c = client(&fake, config());
    let http = ListPlatforms.to_http().expect("valid");
    let answer = run(
        &fake.clock,
        c.send_http_answer(&http, &CallOptions::default()),
    )
    .expect("ok");
    assert_eq!(answer.status, 200);
    assert_eq!(answer.request_id(), Some("abc"));
    assert_eq!(answer.body, PLATFORMS);
}

/// A store that keeps what it is given, in memory.
#[derive(Default)]
struct MemoryStore {
    puts: std::cell::RefCell<Vec<(String, String)>>,
}

impl predmarket_client::Store for MemoryStore {
    fn get(
        &self,
        url: &str,
    ) -> futures::future::LocalBoxFuture<'static, Option<predmarket_client::Stored>> {
        let found = self
            .puts
            .borrow()
            .iter()
            .rev()
            .find(|(u, _)| u == url)
            .map(|(_, text)| predmarket_client::Stored {
                text: text.clone(),
                stored_at_ms: 0.0,
            });
        Box::pin(async move { found })
    }

    fn put(&self, url: &str, text: &str) {
        self.puts
            .borrow_mut()
            .push((url.to_owned(), text.to_owned()));
    }

    fn clear(&self) -> futures::future::LocalBoxFuture<'static, ()> {
        self.puts.borrow_mut().clear();
        Box::pin(async {})
    }

    fn now_ms(&self) -> f64 {
        0.0
    }
}

fn keeping(fake: &Fake) -> (predmarket_client::Client<Fake>, std::rc::Rc<MemoryStore>) {
    let store = std::rc::Rc::new(MemoryStore::default());
    let mut cfg = config();
    cfg.cache_ttl = Some(Duration::from_secs(60));
    cfg.store = Some(store.clone());
    (client(fake, cfg), store)
}

#[test]
fn an_answer_that_does_not_decode_is_neither_cached_nor_stored() {
    // Not JSON, JSON of another shape, then the good answer.
    let fake = Fake::new(|_, n| match n {
        0 => Reply::ok("<html>maintenance</html>"),
        1 => Reply::ok(r#"{"platforms":"soon"}"#),
        _ => Reply::ok(PLATFORMS),
    });
    let (c, store) = keeping(&fake);
    run(&fake.clock, async {
        let err = c.list_platforms().await.expect_err("not JSON");
        assert_eq!(err.code(), ErrorCode::DecodeError);
        assert_eq!(c.cached(), 0);
        let err = c.list_platforms().await.expect_err("not platforms");
        assert_eq!(err.code(), ErrorCode::DecodeError);
        assert_eq!(c.cached(), 0);
        assert!(store.puts.borrow().is_empty(), "{:?}", store.puts.borrow());
        c.list_platforms().await.expect("asked again, good");
        c.list_platforms().await.expect("from the cache");
    });
    assert_eq!(fake.count(), 3);
    assert_eq!(c.cached(), 1);
    let puts = store.puts.borrow();
    assert_eq!(puts.len(), 1);
    assert_eq!(puts[0], (format!("{BASE}/platforms"), PLATFORMS.to_owned()));
}

#[test]
fn a_raw_answer_is_kept_only_when_its_body_is_json() {
    let fake = Fake::new(|_, n| match n {
        0 => Reply::ok("{\"platforms\":[").delay(10),
        _ => Reply::ok(PLATFORMS).delay(10),
    });
    let (c, store) = keeping(&fake);
    let http = ListPlatforms.to_http().expect("valid");
    run(&fake.clock, async {
        // Two callers sharing one truncated answer: both get it (the raw
        // API does not decode), neither keeps it.
        let (a, b) = join(
            c.send_http_answer(&http, &CallOptions::default()),
            c.send_http_answer(&http, &CallOptions::default()),
        )
        .await;
        assert_eq!(a.expect("raw").body, "{\"platforms\":[");
        assert!(b.is_ok());
        assert_eq!(c.cached(), 0);
        assert!(store.puts.borrow().is_empty());
        // Two callers sharing a good one: kept once.
        let (a, b) = join(
            c.send_http_answer(&http, &CallOptions::default()),
            c.send_http_answer(&http, &CallOptions::default()),
        )
        .await;
        assert_eq!(a.expect("a").body, PLATFORMS);
        assert_eq!(b.expect("b").body, PLATFORMS);
    });
    assert_eq!(fake.count(), 2);
    assert_eq!(c.cached(), 1);
    assert_eq!(store.puts.borrow().len(), 1, "stored once for both callers");
}

#[test]
fn statuses_that_say_the_request_is_wrong_are_not_retried() {
    for status in [405, 413, 414, 422, 431, 402, 409, 410, 451, 499] {
        // Even with a code that reads as a server-side failure.
        let fake = Fake::new(move |_, _| Reply::error(status, "INTERNAL_ERROR"));
        let c = client(&fake, config());
        let err = run(&fake.clock, c.list_platforms()).expect_err("fails");
        assert_eq!(err.status(), Some(status));
        assert_eq!(fake.count(), 1, "{status} is not retried");
    }
    for status in [408, 429, 500, 502, 503, 504] {
        let fake = Fake::new(move |_, n| {
            if n == 0 {
                Reply::status(status, "")
            } else {
                Reply::ok(PLATFORMS)
            }
        });
        let c = client(&fake, config());
        run(&fake.clock, c.list_platforms()).expect("retried");
        assert_eq!(fake.count(), 2, "{status} is retried");
    }
}
