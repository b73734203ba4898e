//! Pagers against the real server: a 10 000-market listing to the end,
//! both paging models, `maxItems`, mixing `nextPage` with iteration.

use super::*;
use predmarket_wasm::{
    AwardsPager, EventsPager, FuturesPager, GamesPager, MarketsPager, PagerIterator,
    ProfileTradesPager, SeriesPager, TradesPager,
};
use std::collections::HashSet;

/// `await iterator.next()`: the value, or `None` when done.
async fn next(iterator: &PagerIterator) -> Option<JsValue> {
    let result = resolve(iterator.next()).await;
    if get(&result, "done").as_bool() == Some(true) {
        None
    } else {
        Some(get(&result, "value"))
    }
}

fn pager_options(max_items: u32) -> JsValue {
    object(&[("maxItems", max_items.into())])
}

/// The listing's `pagination.total`, from one call: the generated 10 000
/// markets plus the cross-platform pairs labelled for the matcher's tests.
async fn markets_total(c: &predmarket_wasm::Client) -> f64 {
    let first = resolve(c.list_markets(object(&[("limit", 1.into())]), U)).await;
    let total = path(&first, &["pagination", "total"])
        .as_f64()
        .expect("total");
    assert!(total >= 10_000.0, "a listing of at least 10 000: {total}");
    total
}

#[wasm_bindgen_test]
async fn a_10000_market_listing_pages_to_the_end_with_no_item_lost_or_repeated() {
    let c = client();
    let total = markets_total(&c).await;
    let pager = c
        .markets(object(&[("limit", 250.into())]), U)
        .class::<MarketsPager>("markets");
    let iterator = pager.iterator();
    let mut seen = HashSet::new();
    let mut count = 0;
    while let Some(market) = next(&iterator).await {
        let id = string(&market, "id").expect("id");
        assert!(seen.insert(id.clone()), "repeated: {id}");
        count += 1;
    }
    assert_eq!(f64::from(count), total);
    assert_eq!(pager.delivered(), total);
    assert_eq!(pager.pages(), (total / 250.0).ceil());
    assert!(pager.done());
    assert!(next(&iterator).await.is_none(), "stays done");
}

#[wasm_bindgen_test]
async fn next_page_gives_items_and_the_page_and_max_items_cuts_the_last() {
    let c = client();
    let total = markets_total(&c).await;
    let pager = c
        .markets(object(&[("limit", 100.into())]), pager_options(250))
        .class::<MarketsPager>("pager");
    let mut sizes = Vec::new();
    loop {
        let page = resolve(pager.next_page()).await;
        if page.is_null() {
            break;
        }
        sizes.push(array(&get(&page, "items")).length());
        assert_eq!(
            path(&page, &["response", "pagination", "total"]).as_f64(),
            Some(total)
        );
    }
    assert_eq!(sizes, [100, 100, 50]);
    assert!(pager.done());
}

#[wasm_bindgen_test]
async fn offset_paging_of_futures_yields_the_whole_list() {
    let named = ids().await;
    let c = client();
    let first = resolve(c.list_futures(
        object(&[("league", named.league(0)), ("limit", 3.into())]),
        U,
    ))
    .await;
    let total = path(&first, &["data", "pagination", "total"])
        .as_f64()
        .expect("total");
    let pager = c
        .futures(
            object(&[("league", named.league(0)), ("limit", 3.into())]),
            U,
        )
        .class::<FuturesPager>("pager");
    let iterator = pager.iterator();
    let mut seen = HashSet::new();
    while let Some(future) = next(&iterator).await {
        assert!(seen.insert(string(&future, "id").expect("id")));
    }
    assert_eq!(seen.len() as f64, total);
    assert!(pager.pages() >= (total / 3.0).ceil());
}

#[wasm_bindgen_test]
async fn every_list_has_a_pager() {
    let named = ids().await;
    let c = client();
    let market = resolve(c.list_markets(
        object(&[("platform", named.platform(0)), ("limit", 1.into())]),
        U,
    ))
    .await;
    let market = array(&get(&market, "markets")).get(0);
    let market_id = string(&market, "id").expect("id");
    let trades = resolve(c.list_trades(market_id.clone().into(), U)).await;
    let user = path(&array(&get(&trades, "trades")).get(0), &["user", "name"])
        .as_string()
        .expect("user");

    let cap = || pager_options(30);
    let iterators = [
        c.events(object(&[("limit", 25.into())]), cap())
            .class::<EventsPager>("events")
            .iterator(),
        c.series(object(&[("limit", 25.into())]), cap())
            .class::<SeriesPager>("series")
            .iterator(),
        c.trades(market_id.into(), cap())
            .class::<TradesPager>("trades")
            .iterator(),
        c.games(object(&[("league", named.league(1))]), cap())
            .class::<GamesPager>("games")
            .iterator(),
        c.awards(
            object(&[("league", named.league(0)), ("limit", 2.into())]),
            cap(),
        )
        .class::<AwardsPager>("awards")
        .iterator(),
        c.profile_trades(
            object(&[
                ("platform", named.platform(0)),
                ("user", user.into()),
                ("limit", 20.into()),
            ]),
            cap(),
        )
        .class::<ProfileTradesPager>("profile trades")
        .iterator(),
    ];
    for (i, iterator) in iterators.iter().enumerate() {
        let mut n = 0;
        while next(iterator).await.is_some() {
            n += 1;
        }
        assert!(n > 0 && n <= 30, "pager {i}: {n} items");
    }
}

#[wasm_bindgen_test]
async fn iteration_and_next_page_share_one_position() {
    let c = client();
    let pager = c
        .markets(object(&[("limit", 10.into())]), pager_options(25))
        .class::<MarketsPager>("pager");
    let iterator = pager.iterator();
    let mut ids = Vec::new();
    for _ in 0..3 {
        ids.push(string(&next(&iterator).await.expect("item"), "id").expect("id"));
    }
    let rest = resolve(pager.next_page()).await;
    let rest = array(&get(&rest, "items"));
    assert_eq!(rest.length(), 7, "the rest of the first page");
    ids.extend(rest.iter().map(|m| string(&m, "id").expect("id")));
    while let Some(m) = next(&iterator).await {
        ids.push(string(&m, "id").expect("id"));
    }
    assert_eq!(ids.len(), 25);
    assert_eq!(ids.iter().collect::<HashSet<_>>().len(), 25);
}

#[wasm_bindgen_test]
async fn return_ends_the_iteration() {
    let c = client();
    let pager = c
        .markets(object(&[("limit", 5.into())]), U)
        .class::<MarketsPager>("pager");
    let iterator = pager.iterator();
    assert!(next(&iterator).await.is_some());
    let result = resolve(iterator.finish()).await;
    assert_eq!(get(&result, "done").as_bool(), Some(true));
    assert!(pager.done());
    assert!(next(&iterator).await.is_none());
    assert!(resolve(pager.next_page()).await.is_null());
}

#[wasm_bindgen_test]
async fn a_foreign_cursor_restarts_the_listing_from_the_first_page() {
    let c = client();
    let pager = c
        .markets(
            object(&[("limit", 5.into()), ("cursor", "not-a-cursor".into())]),
            pager_options(5),
        )
        .class::<MarketsPager>("pager");
    let page = resolve(pager.next_page()).await;
    assert_eq!(array(&get(&page, "items")).length(), 5);
    let first = resolve(c.list_markets(object(&[("limit", 5.into())]), U)).await;
    let ids = |list: &JsValue| {
        array(list)
            .iter()
            .map(|m| string(&m, "id"))
            .collect::<Vec<_>>()
    };
    assert_eq!(ids(&get(&page, "items")), ids(&get(&first, "markets")));
}

#[wasm_bindgen_test]
fn a_pager_with_bad_parameters_throws_where_it_is_created() {
    let c = client();
    let parameter = |result: Result<(), JsValue>| match result {
        Ok(()) => panic!("must throw"),
        Err(e) => {
            assert_eq!(code(&e), "VALIDATION_ERROR");
            string(&e, "parameter").unwrap_or_default()
        }
    };
    assert_eq!(
        parameter(c.markets(object(&[("limit", "many".into())]), U).map(drop)),
        "limit"
    );
    assert_eq!(
        parameter(c.markets(U, object(&[("maxItems", (-1).into())])).map(drop)),
        "maxItems"
    );
    assert_eq!(parameter(c.games(object(&[]), U).map(drop)), "league");
    assert_eq!(
        parameter(
            c.events(object(&[("platform", "platform_a,platform_b".into())]), U)
                .map(drop)
        ),
        "platform"
    );
}
