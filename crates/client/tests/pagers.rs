//! Pagers over both paging models against a scripted service: every item
//! once and in order, `max_items`, the loop guard, the restart after an
//! expired cursor, retries and cancellation in the middle of a listing.

mod support;

use futures::StreamExt;
use predmarket_client::core::models::League;
use predmarket_client::core::request::{ListFutures, ListMarkets};
use predmarket_client::{CallOptions, CancelToken, ErrorCode};
use serde_json::json;
use std::cell::Cell;
use std::rc::Rc;
use support::{Fake, Reply, client, config, run};

fn query<'a>(url: &'a str, name: &str) -> Option<&'a str> {
    url.split_once('?')?
        .1
        .split('&')
        .find_map(|pair| pair.strip_prefix(name)?.strip_prefix('='))
}

/// A cursor service over `total` markets; the cursor is the next index,
/// disguised. Pages of `limit` (default 25).
fn markets_page(url: &str, total: usize) -> Reply {
    let start = match query(url, "cursor") {
        Some(c) => match c.strip_prefix("cur").and_then(|n| n.parse::<usize>().ok()) {
            Some(n) => n,
            None => return Reply::error(400, "INVALID_CURSOR"),
        },
        None => 0,
    };
    let limit = query(url, "limit")
        .and_then(|l| l.parse().ok())
        .unwrap_or(25);
    let end = (start + limit).min(total);
    let more = end < total;
    let markets: Vec<_> = (start..end)
        .map(|i| json!({ "id": format!("m{i}") }))
        .collect();
    Reply::ok(
        json!({
            "pagination": { "total": total, "limit": limit, "has_more": more, "next_cursor": more.then(|| format!("cur{end}")) },
            "markets": markets,
        })
        .to_string(),
    )
}

fn futures_page(url: &str, total: usize) -> Reply {
    let start: usize = query(url, "offset")
        .and_then(|o| o.parse().ok())
        .unwrap_or(0);
    let limit = query(url, "limit")
        .and_then(|l| l.parse().ok())
        .unwrap_or(25);
    let end = (start + limit).min(total);
    let more = end < total;
    let futures: Vec<_> = (start..end)
        .map(|i| json!({ "id": format!("f{i}") }))
        .collect();
    Reply::ok(
        json!({
            "data": {
                "futures": futures,
                "pagination": { "total": total, "limit": limit, "offset": start, "has_more": more, "next_offset": more.then_some(end) },
            },
            "meta": { "platform_errors": {} },
        })
        .to_string(),
    )
}

fn ids(n: usize, prefix: &str) -> Vec<String> {
    (0..n).map(|i| format!("{prefix}{i}")).collect()
}

#[test]
fn a_cursor_listing_yields_every_item_once_in_order() {
    let fake = Fake::new(|url, _| markets_page(url, 1_000));
    let c = client(&fake, config());
    let request = ListMarkets {
        limit: Some(250),
        ..Default::default()
    };
    let got: Vec<String> = run(&fake.clock, async {
        c.markets(request)
            .into_items()
            .map(|m| m.expect("item").id)
            .collect()
            .await
    });
    assert_eq!(got, ids(1_000, "m"));
    assert_eq!(fake.count(), 4);
}

#[test]
fn an_offset_listing_yields_every_item_once_in_order() {
    let fake = Fake::new(|url, _| futures_page(url, 60));
    let c = client(&fake, config());
    let got = run(
        &fake.clock,
        c.futures(ListFutures::new(League::LeagueA)).collect_items(),
    )
    .expect("all");
    let got: Vec<String> = got.into_iter().map(|f| f.id).collect();
    assert_eq!(got, ids(60, "f"));
    let urls: Vec<String> = fake.sent().into_iter().map(|s| s.url).collect();
    assert!(
        urls[1].ends_with("offset=25") && urls[2].ends_with("offset=50"),
        "{urls:?}"
    );
}

#[test]
fn max_items_caps_the_listing_and_the_requests() {
    let fake = Fake::new(|url, _| markets_page(url, 1_000));
    let c = client(&fake, config());
    let request = ListMarkets {
        limit: Some(250),
        ..Default::default()
    };
    let got = run(
        &fake.clock,
        c.markets(request).max_items(260).collect_items(),
    )
    .expect("capped");
    assert_eq!(got.len(), 260);
    assert_eq!(got[259].id, "m259");
    assert_eq!(fake.count(), 2);
}

#[test]
fn pages_report_what_is_new_to_the_caller() {
    let fake = Fake::new(|url, _| markets_page(url, 30));
    let c = client(&fake, config());
    let mut pages = c.markets(ListMarkets::default()).max_items(27);
    run(&fake.clock, async {
        let first = pages.next_page().await.expect("ok").expect("page");
        assert_eq!(first.items().len(), 25);
        assert_eq!(
            first.response.pagination.as_ref().and_then(|p| p.total),
            Some(30.0)
        );
        let second = pages.next_page().await.expect("ok").expect("page");
        assert_eq!(second.items().len(), 2, "truncated at max_items");
        assert_eq!(second.clone().into_items()[1].id, "m26");
        assert!(pages.next_page().await.expect("ok").is_none());
    });
    assert_eq!(pages.pager().delivered(), 27);
    assert_eq!(pages.pager().pages(), 2);
}

#[test]
fn a_kept_pager_goes_on_where_its_paginator_stopped() {
    let fake = Fake::new(|url, _| futures_page(url, 60));
    let c = client(&fake, config());
    let mut first = c.futures(ListFutures::new(League::LeagueA));
    let page = run(&fake.clock, first.next_page())
        .expect("ok")
        .expect("page");
    assert_eq!(page.items().len(), 25);
    // Kept between two clicks of "load more", then resumed.
    let kept = first.into_pager();
    let mut again = c.paginate_from(kept);
    let second = run(&fake.clock, again.next_page())
        .expect("ok")
        .expect("page");
    assert_eq!(second.items()[0].id, "f25", "from next_offset, not again");
    assert_eq!(again.pager().pages(), 2);
    let urls: Vec<String> = fake.sent().into_iter().map(|s| s.url).collect();
    assert!(urls[1].ends_with("offset=25"), "{urls:?}");
}

#[test]
fn a_repeated_cursor_ends_the_listing_with_a_pagination_loop() {
    let fake = Fake::new(|_, _| {
        Reply::ok(
            r#"{"pagination":{"has_more":true,"next_cursor":"stuck"},"markets":[{"id":"x"}]}"#,
        )
    });
    let c = client(&fake, config());
    let results: Vec<_> = run(
        &fake.clock,
        c.markets(ListMarkets::default())
            .into_items()
            .collect::<Vec<_>>(),
    );
    assert_eq!(
        results.len(),
        3,
        "two pages delivered, then the error: {results:?}"
    );
    assert!(results[..2].iter().all(Result::is_ok));
    let err = results[2].as_ref().expect_err("loop");
    assert_eq!(err.code(), ErrorCode::PaginationLoop);
    assert_eq!(fake.count(), 2);
}

#[test]
fn an_expired_cursor_restarts_once_and_still_yields_every_item_once() {
    let expired_once = Rc::new(Cell::new(false));
    let flag = expired_once.clone();
    let fake = Fake::new(move |url, _| {
        if query(url, "cursor") == Some("cur50") && !flag.get() {
            flag.set(true);
            return Reply::error(400, "INVALID_CURSOR");
        }
        markets_page(url, 100)
    });
    let c = client(&fake, config());
    let got = run(
        &fake.clock,
        c.markets(ListMarkets::default()).collect_items(),
    )
    .expect("restarted");
    let got: Vec<String> = got.into_iter().map(|m| m.id).collect();
    assert_eq!(got, ids(100, "m"));
    let cursors: Vec<Option<String>> = fake
        .sent()
        .iter()
        .map(|s| query(&s.url, "cursor").map(str::to_owned))
        .collect();
    let expected: Vec<Option<String>> = [
        None,
        Some("cur25"),
        Some("cur50"),
        None,
        Some("cur25"),
        Some("cur50"),
        Some("cur75"),
    ]
    .into_iter()
    .map(|c| c.map(str::to_owned))
    .collect();
    assert_eq!(cursors, expected);
}

#[test]
fn a_second_expired_cursor_ends_the_listing() {
    let fake = Fake::new(|url, _| {
        if query(url, "cursor") == Some("cur50") {
            return Reply::error(400, "INVALID_CURSOR");
        }
        markets_page(url, 100)
    });
    let c = client(&fake, config());
    let err = run(
        &fake.clock,
        c.markets(ListMarkets::default()).collect_items(),
    )
    .expect_err("gives up");
    assert_eq!(err.code(), ErrorCode::InvalidCursor);
}

#[test]
fn a_transient_failure_in_the_middle_is_retried_without_losing_items() {
    let fake = Fake::new(|url, n| {
        if query(url, "cursor") == Some("cur25") && n < 2 {
            return Reply::error(503, "PLATFORM_UNAVAILABLE").header("retry-after", 1);
        }
        markets_page(url, 60)
    });
    let c = client(&fake, config());
    let got = run(
        &fake.clock,
        c.markets(ListMarkets::default()).collect_items(),
    )
    .expect("retried");
    assert_eq!(got.len(), 60);
    assert_eq!(fake.count(), 5);
}

#[test]
fn a_listing_can_be_cancelled() {
    let fake = Fake::new(|url, _| markets_page(url, 1_000).delay(100));
    let c = client(&fake, config());
    let token = CancelToken::new();
    let pages = c
        .markets(ListMarkets::default())
        .with_options(CallOptions::with_cancel(token.clone()));
    let (results, ()) = run(&fake.clock, async {
        let items = pages.into_items().collect::<Vec<_>>();
        let cancel = async {
            fake.clock.sleep(250).await;
            token.cancel();
        };
        futures::join!(items, cancel)
    });
    // Pages at 100 and 200 ms were delivered; the third was cut off.
    assert_eq!(results.len(), 51);
    assert_eq!(
        results[50].as_ref().expect_err("aborted").code(),
        ErrorCode::Aborted
    );
    assert!(fake.sent()[2].dropped);
}

#[test]
fn every_named_pager_walks_its_operation() {
    use predmarket_client::core::models::PlatformId;
    use predmarket_client::core::request::*;
    let fake = Fake::new(|url, _| {
        let path = url.split('?').next().unwrap_or_default();
        let body = match path.rsplit('/').next().unwrap_or_default() {
            "events" => r#"{"events":[{"id":"e"}],"pagination":{"has_more":false}}"#,
            "series" => r#"{"series":[{"id":"s"}],"pagination":{"has_more":false}}"#,
            "trades" if path.ends_with("/profile/trades") => {
                r#"{"data":{"trades":[{"trade_id":"p"}],"pagination":{"has_more":false}}}"#
            }
            "trades" => r#"{"trades":[{"trade_id":"t"}],"pagination":{"has_more":false}}"#,
            "list-games" => {
                r#"{"data":{"games":[{"id":"KCvSF20250209@LGA"}],"pagination":{"has_more":false}}}"#
            }
            "list-awards" => {
                r#"{"data":{"awards":[{"id":"a"}],"pagination":{"has_more":false,"next_offset":null}}}"#
            }
            other => panic!("unexpected {other}"),
        };
        Reply::ok(body)
    });
    let c = client(&fake, config());
    run(&fake.clock, async {
        assert_eq!(
            c.events(ListEvents::default())
                .collect_items()
                .await
                .expect("events")
                .len(),
            1
        );
        assert_eq!(
            c.series(ListSeries::default())
                .collect_items()
                .await
                .expect("series")
                .len(),
            1
        );
        assert_eq!(
            c.trades(ListTrades::new("m"))
                .collect_items()
                .await
                .expect("trades")
                .len(),
            1
        );
        assert_eq!(
            c.games(ListGames::new(League::LeagueA))
                .collect_items()
                .await
                .expect("games")
                .len(),
            1
        );
        assert_eq!(
            c.awards(ListAwards::new(League::LeagueA))
                .collect_items()
                .await
                .expect("awards")
                .len(),
            1
        );
        let profile = ListProfileTrades::new(PlatformId::PlatformA, "alice");
        assert_eq!(
            c.profile_trades(profile)
                .collect_items()
                .await
                .expect("profile")
                .len(),
            1
        );
    });
}
