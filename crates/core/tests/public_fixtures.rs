//! The real-shaped fixtures of tests/fixtures/public (written from
//! docs/spec/public-service-facts.md; the same files are type-checked
//! against the npm package's declarations and served to it by
//! tests/node/fixtures.test.mjs) decode with the core's response types,
//! with the values they hold. docs/public-service-facts-coverage.md maps
//! each fact to the assertion that covers it.

use predmarket_core::models::*;
use predmarket_core::time::timestamp_ms;
use predmarket_core::{Error, ErrorCode};
use serde::de::DeserializeOwned;

fn text(name: &str) -> String {
    let path = format!(
        "{}/../../tests/fixtures/public/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn load<T: DeserializeOwned>(name: &str) -> T {
    serde_json::from_str(&text(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

const SEP_4_18H: i64 = 1_757_008_800_000; // 2025-09-04T18:00:00Z

#[test]
fn markets_nulls_numeric_strings_timestamps_and_raw_fields() {
    let r: MarketsResponse = load("list_markets.json");
    assert!(r.skipped.is_empty());
    assert_eq!(r.markets.len(), 2);
    let p = r.pagination.as_ref().expect("pagination");
    assert_eq!(p.next(), None, "next_cursor null ends the list");

    let m = &r.markets[0];
    assert_eq!(m.platform, Some(PlatformId::from("polymarket")));
    assert_eq!(m.platform.as_ref().map(|p| p.is_known()), Some(false));
    assert_eq!(m.event_id.as_deref(), Some(""), "event_id \"\" kept");
    for absent in [&m.event_name, &m.event_slug, &m.category, &m.subcategory] {
        assert_eq!(absent, &None);
    }
    assert_eq!(m.tags, None);
    assert_eq!(
        (m.volume_7d, m.open_interest, m.unique_traders),
        (None, None, None)
    );
    assert_eq!(
        (m.fee_rate, m.trading_fee, m.withdrawal_fee),
        (None, None, None)
    );
    assert_eq!(
        (m.resolved_at.as_deref(), m.last_trades.as_ref()),
        (None, None)
    );
    assert_eq!(m.volume_24h, Some(125_000.5), "numeric string");
    assert_eq!(m.liquidity, Some(0.13), "\"0.1300\"");
    assert_eq!(m.volume_total, Some(4_200_000.0));
    assert_eq!(m.current_price("yes"), Some(0.87));
    let md = m.metadata.as_ref().expect("metadata");
    let tokens = md.clob_token_ids.as_ref().expect("clobTokenIds");
    assert_eq!(tokens.len(), 2, "JSON-encoded string array");
    assert!(tokens[0].starts_with("713210456"));
    assert_eq!((md.best_bid, md.best_ask), (Some(0.86), Some(0.88)));
    assert_eq!(md.extra.get("takerOnly"), Some(&serde_json::json!(false)));
    // Every timestamp form, one normalized value.
    let ms = |t: &Option<String>| t.as_deref().and_then(timestamp_ms);
    assert_eq!(ms(&m.last_synced_at), Some(SEP_4_18H + 123), "ms, Z");
    assert_eq!(ms(&m.created_at), Some(1_748_779_200_000), "µs, +00:00");
    assert_eq!(
        ms(&m.trading_end_at),
        Some(1_758_132_000_000),
        "no fraction"
    );
    assert_eq!(ms(&m.resolution_date), Some(1_758_067_200_000), "date only");

    let k = &r.markets[1];
    assert_eq!(
        k.status,
        Some(MarketStatus::from("active")),
        "unknown status kept"
    );
    assert_eq!(
        k.last_synced_at.as_deref(),
        Some("1757008800"),
        "Unix seconds"
    );
    assert_eq!(ms(&k.last_synced_at), Some(SEP_4_18H));
    assert_eq!(
        ms(&k.trading_end_at),
        Some(1_758_132_000_000),
        "Unix ms string"
    );
    assert_eq!(k.volume_24h, Some(0.0), "\"0\"");
    assert_eq!(k.outcomes.as_ref().map(|o| o[0].name.clone()), Some(None));
}

#[test]
fn one_bad_item_is_skipped_and_reported() {
    let r: MarketsResponse = load("list_markets_one_bad_item.json");
    let ids: Vec<&str> = r.markets.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, ["m1", "m3", "m4"]);
    assert_eq!(
        r.markets[1].outcomes, None,
        "a malformed field reads as absent"
    );
    assert_eq!(r.markets[2].platform, None);
    assert_eq!(r.markets[2].status, None);
    assert_eq!(r.skipped.len(), 2);
    assert_eq!(Skipped::skipped(&r).len(), 2);
    assert_eq!(r.skipped[0].index, 1);
    assert!(
        r.skipped[0].reason.contains("missing field `id`"),
        "{:?}",
        r.skipped
    );
    assert_eq!(r.skipped[1].index, 4);
    // The page still pages on.
    assert_eq!(
        r.pagination.as_ref().and_then(|p| p.next()),
        Some("eyJvZmZzZXQiOjR9")
    );
}

#[test]
fn orderbook_numeric_strings_and_unsorted_sides() {
    let r: OrderbookResponse = load("get_orderbook.json");
    let yes = r.data.yes.as_ref().expect("yes");
    let bids: Vec<f64> = yes.bids.iter().map(|l| l.price).collect();
    assert_eq!(bids, [0.85, 0.86, 0.84], "kept as sent");
    assert_eq!(yes.bids[1].size, 350.5);
    let book = predmarket_core::orderbook::Book::new(yes);
    assert_eq!(
        book.best_bid().map(|l| l.price),
        Some(0.86),
        "sorted before use"
    );
    assert_eq!(book.best_ask().map(|l| l.price), Some(0.88));
    let no = r.data.no.as_ref().expect("no");
    assert!(
        no.bids.is_empty() && no.asks.is_empty(),
        "asks: null reads as empty"
    );
    let md = r.data.metadata.as_ref().expect("metadata");
    assert_eq!((md.tick_size, md.min_order_size), (Some(0.001), Some(5.0)));
    assert_eq!(
        r.data.timestamp.as_deref().and_then(timestamp_ms),
        Some(SEP_4_18H + 123)
    );
}

#[test]
fn trades_wrapped_in_data() {
    let r: TradesResponse = load("list_trades_wrapped.json");
    assert_eq!(r.trades.len(), 2);
    assert_eq!(r.trades[0].timestamp, Some(1_757_008_800.0));
    assert_eq!(r.trades[0].size, Some(120.0));
    assert_eq!(
        r.trades[0]
            .user
            .as_ref()
            .and_then(|u| u.pseudonym.as_deref()),
        Some("Quiet-Otter")
    );
    let t = &r.trades[1];
    assert_eq!(
        (
            t.outcome.as_deref(),
            t.user.as_ref(),
            t.transaction_hash.as_deref()
        ),
        (None, None, None)
    );
    assert_eq!((t.taker, t.price), (None, Some(0.61)));
    assert_eq!(r.pagination.as_ref().and_then(|p| p.next()), Some("t2"));
    // The inner `meta` says the market and platform, the outer the time.
    let meta = r.meta.as_ref().expect("both meta objects, merged");
    assert_eq!(meta.market_id.as_deref(), Some("0x8f2a1c3d"));
    assert_eq!(meta.platform, Some(PlatformId::from("polymarket")));
    assert_eq!(meta.request_time, Some(31.0));
}

#[test]
fn futures_without_pagination_and_odds_in_both_forms() {
    let r: ListFuturesResponse = load("list_futures.json");
    assert!(r.data.pagination.is_none(), "2.0.0: no pagination object");
    assert!(Skipped::skipped(&r).is_empty());
    let f = &r.data.futures[0];
    assert_eq!(f.league, Some(League::from("nfl")));
    assert_eq!(f.season, Some(2025.0), "\"2025\"");
    let outcomes = f.markets.as_ref().expect("markets")[0]
        .outcomes
        .as_ref()
        .expect("outcomes");
    assert_eq!(outcomes[0].team_id(), Some("nfl_kc"), "team_polyrouter_id");
    let odds = outcomes[0].odds.as_ref().expect("odds");
    assert_eq!(odds.american.as_deref(), Some("+450"));
    assert_eq!(odds.decimal, Some(5.5));
    assert_eq!(outcomes[0].last_trade_price, Some(0.18));
    assert_eq!(outcomes[1].team_id(), None, "null team id");
    assert_eq!(
        outcomes[1]
            .odds
            .as_ref()
            .and_then(|o| o.american.as_deref()),
        Some("-110")
    );
    let meta = r.meta.as_ref().expect("meta");
    assert!(meta.is_partial());
    assert_eq!(
        meta.platform_errors
            .as_ref()
            .and_then(|e| e["kalshi"].code.as_deref()),
        Some("PLATFORM_ERROR")
    );
    assert_eq!(
        f.metadata
            .as_ref()
            .and_then(|m| m.deadline.as_deref())
            .and_then(timestamp_ms),
        Some(1_770_508_800_000)
    );
}

#[test]
fn awards_with_offset_pagination_nested_in_data() {
    let r: ListAwardsResponse = load("list_awards_nested_pagination.json");
    let p = r.data.pagination.as_ref().expect("nested pagination");
    assert_eq!(
        (p.offset, p.has_more, p.next()),
        (Some(0.0), Some(false), None)
    );
    let c = &r.data.awards[0].markets.as_ref().expect("markets")[0]
        .candidates
        .as_ref()
        .expect("candidates");
    assert_eq!(c[0].volume_24h, Some(1500.25));
    assert_eq!(
        c[1].odds.as_ref().and_then(|o| o.american.as_deref()),
        Some("+400")
    );
    assert_eq!(c[1].team_id(), None);
}

#[test]
fn league_info_leagues_array_seasons_and_arena() {
    let r: LeagueInfoResponse = load("league_info.json");
    let leagues = r.data.leagues();
    assert_eq!(leagues.len(), 1, "an array even for one");
    let l = &leagues[0];
    assert_eq!(
        (l.id.as_str(), l.abbreviation.as_deref()),
        ("nfl", Some("NFL"))
    );
    let season = l.season.as_ref().expect("season");
    assert_eq!(season.year, Some(2025.0));
    assert_eq!(
        season.start_date.as_deref().and_then(timestamp_ms),
        Some(1_756_944_000_000)
    );
    let teams = l.teams.as_ref().expect("teams");
    assert_eq!(teams[0].service_id, "nfl_kc", "polyrouter_id");
    assert_eq!(teams[1].service_id, "PIT");
    let md = teams[0].metadata.as_ref().expect("metadata");
    assert_eq!(
        md.stadium.as_deref(),
        Some("GEHA Field at Arrowhead Stadium"),
        "arena"
    );
    assert_eq!((md.logo_url.as_deref(), md.founded), (None, Some(1960.0)));
}

#[test]
fn list_games_at_the_top_level() {
    let r: ListGamesResponse = load("list_games_top_level.json");
    let g = &r.data.games[0];
    assert_eq!(g.id, "KCvSF20250209", "no @LEAGUE suffix");
    assert_eq!(g.league, Some(League::from("NFL")));
    assert_eq!(
        g.scheduled_at.as_deref().and_then(timestamp_ms),
        Some(1_739_143_800_000)
    );
    assert_eq!(r.data.pagination.as_ref().and_then(|p| p.next()), None);
    assert_eq!(
        r.meta.as_ref().and_then(|m| m.request_time),
        Some(15.0),
        "top-level meta"
    );
}

#[test]
fn game_2_0_0_with_markets_inside() {
    let r: GameResponse = load("get_game.json");
    assert_eq!(r.data.game.id, "KCvSF20250209@NFL");
    assert_eq!(r.data.game.scheduled_at.as_deref(), Some("1739143800"));
    let m = &r.data.markets[0];
    assert_eq!(m.platform, Some(PlatformId::from("polymarket")));
    let o = &m.outcomes.as_ref().expect("outcomes")[0];
    assert_eq!(o.name.as_deref(), Some("Chiefs"), "`name`");
    assert_eq!(o.team_id(), Some("nfl_kc"));
    assert_eq!(o.price, Some(0.455));
    assert_eq!(
        o.odds.as_ref().and_then(|x| x.american.as_deref()),
        Some("+120")
    );
    assert!(
        !r.meta.as_ref().expect("meta").is_partial(),
        "empty platform_errors"
    );
}

#[test]
fn price_history_ohlc_bid_ask_and_numbers() {
    let r: PriceHistoryResponse = load("price_history.json");
    assert_eq!(r.data.len(), 2);
    let a = &r.data[0];
    assert_eq!(a.timestamp, Some(1_757_005_200.0));
    assert_eq!(a.open_interest, Some(250_000.0));
    let ba = a.bid_ask.as_ref().expect("bidAsk");
    assert_eq!(
        (ba.bid_close(), ba.ask_close()),
        (Some(0.86), Some(0.88)),
        "OHLC: close"
    );
    assert_eq!(
        ba.bid,
        Some(PriceBar {
            close: Some(0.86),
            open: Some(0.84),
            high: Some(0.87),
            low: Some(0.83)
        }),
        "OHLC: the whole bar is kept"
    );
    assert!(
        a.market_id.as_deref().is_some_and(|id| id.len() > 70),
        "token id"
    );
    let b = &r.data[1];
    assert_eq!(b.timestamp, Some(1_757_008_800.0), "string seconds");
    assert_eq!(b.price.as_ref().and_then(|p| p.close), Some(0.88));
    let ba = b.bid_ask.as_ref().expect("bidAsk");
    assert_eq!(
        (ba.bid.clone(), ba.ask.clone()),
        (Some(PriceBar::from(0.87)), Some(PriceBar::from(0.89))),
        "numbers: a bar of its close"
    );
    // A bar that is only a price goes back on the wire as the spec's number.
    assert_eq!(
        serde_json::to_value(ba).expect("serialize"),
        serde_json::json!({"bid": 0.87, "ask": 0.89})
    );
    let range = r
        .meta
        .as_ref()
        .and_then(|m| m.time_range.as_ref())
        .expect("range");
    assert_eq!(
        (range.start, range.end),
        (Some(1_757_001_600.0), Some(1_757_008_800.0))
    );
    assert_eq!(r.points_of("KXFEDDECISION-25SEP-C25").count(), 1);
}

#[test]
fn profiles_wrapped_with_success_and_iso_trade_times() {
    let r: ProfileInfoResponse = load("profile_info.json");
    let p = r.data.profile.as_ref().expect("profile");
    assert_eq!(p.display_name, None);
    assert_eq!(p.following_count, Some(3.0));
    assert_eq!(
        p.joined_at.as_deref().and_then(timestamp_ms),
        Some(1_705_312_800_000)
    );
    let m = r.data.metrics.as_ref().expect("metrics");
    assert_eq!(
        (m.volume, m.pnl, m.roi),
        (Some(15_234.56), Some(-120.5), None)
    );

    let t: ProfileTradesResponse = load("profile_trades.json");
    let trade = &t.data.trades[0];
    assert_eq!(
        trade.timestamp,
        Some(1_757_008_800.0),
        "ISO string to Unix seconds"
    );
    assert_eq!(trade.side, Some(TradeSide::from("BUY")));
    assert_eq!(trade.price, Some(0.87));
    assert_eq!(t.data.pagination.as_ref().and_then(|p| p.next()), None);
}

#[test]
fn events_under_the_markets_key() {
    let r: EventsResponse = load("list_events_markets_key.json");
    assert_eq!(r.events.len(), 1);
    let e = &r.events[0];
    assert_eq!(e.id, "fed-decision-september");
    assert_eq!(e.market_count, Some(4.0));
    assert_eq!(e.markets, None);
    assert_eq!(
        e.event_start_at.as_deref().and_then(timestamp_ms),
        Some(1_748_736_000_000)
    );
}

#[test]
fn platforms_with_lowercase_ids() {
    let r: PlatformsResponse = load("list_platforms.json");
    let ids: Vec<&str> = r.platforms.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["polymarket", "kalshi"]);
    assert_eq!(
        r.platforms[0]
            .health
            .as_ref()
            .and_then(|h| h.response_time_ms),
        Some(120.0)
    );
    assert_eq!(r.platforms[1].health, None);
}

#[test]
fn both_error_envelopes_and_validation_errors_as_map_or_array() {
    let e = Error::from_response(400, &text("error_validation_map.json"), None);
    assert_eq!(e.code(), ErrorCode::ValidationError);
    let fields: Vec<Option<String>> = e
        .failure()
        .map(|f| f.validation_errors().into_iter().map(|v| v.field).collect())
        .unwrap_or_default();
    assert_eq!(
        fields,
        [Some("league".to_owned()), Some("limit".to_owned())]
    );

    let e = Error::from_response(400, &text("error_validation_array.json"), None);
    assert_eq!(
        e.code(),
        ErrorCode::ValidationError,
        "INVALID_PARAMETERS by status"
    );
    assert_eq!(
        e.failure().map(|f| f.code.as_str()),
        Some("INVALID_PARAMETERS")
    );
    let errors = e
        .failure()
        .map(|f| f.validation_errors())
        .unwrap_or_default();
    assert_eq!(errors.len(), 1);
    assert_eq!(
        (errors[0].field.as_deref(), errors[0].message.as_str()),
        (Some("user"), "is required")
    );

    let e = Error::from_response(503, &text("error_platform_unavailable.json"), None);
    assert_eq!(e.code(), ErrorCode::PlatformUnavailable);
    assert_eq!(
        e.retry_after_ms(),
        Some(30_000),
        "details.retry_after seconds"
    );
}

#[test]
fn a_pager_ends_on_a_list_without_pagination() {
    use predmarket_core::Pager;
    use predmarket_core::request::ListFutures;
    let mut pager = Pager::new(ListFutures::new(League::from("nfl")));
    assert!(pager.next_request().expect("first").is_some());
    let items = pager
        .on_page(load::<ListFuturesResponse>("list_futures.json"))
        .expect("page");
    assert_eq!(items.len(), 1);
    assert!(
        pager.next_request().expect("no error").is_none(),
        "ended cleanly"
    );
    assert!(pager.is_done());
}

// ---- The shapes of the public service's older pages and of 2.0.0 that
// the first fixtures did not show. ----

#[test]
fn older_list_games_ids_teams_and_offset_paging() {
    let r: ListGamesResponse = load("list_games_older.json");
    assert!(r.data.skipped.is_empty(), "{:?}", r.data.skipped);
    let ids: Vec<&str> = r.data.games.iter().map(|g| g.id.as_str()).collect();
    assert_eq!(ids, ["BUFvATL20251013", "KCvDET20251012"], "polyrouter_id");
    let g = &r.data.games[0];
    assert_eq!(
        g.teams.as_deref(),
        Some(&["BUF".to_owned(), "ATL".to_owned()][..])
    );
    assert_eq!(g.status, Some(GameStatus::Live));
    let away = g.away_team.as_ref().expect("away_team");
    assert_eq!(
        (away.id(), away.name.as_deref()),
        (Some("nfl_buf"), Some("Buffalo Bills"))
    );
    assert_eq!(
        r.data.games[1].teams.as_deref(),
        Some(&["KC".to_owned(), "Detroit Lions".to_owned()][..]),
        "a team without an abbreviation is named"
    );
    let p = r.data.pagination.as_ref().expect("pagination");
    assert_eq!((p.next(), p.next_offset()), (None, Some(2)));
    assert_eq!(
        p.next_position(),
        Some(predmarket_core::PagePosition::Offset(2))
    );
}

#[test]
fn older_game_envelope_merges_same_id_objects_into_boards() {
    use predmarket_core::odds::{BoardKind, game_boards};
    let r: GameResponse = load("get_game_older.json");
    assert_eq!(r.data.game.id, "BUFvATL20251013");
    assert_eq!(r.data.game.status, Some(GameStatus::Live));
    assert_eq!(r.data.markets.len(), 2, "both objects' markets");
    let kalshi = &r.data.markets[0];
    assert_eq!(
        (kalshi.volume(), kalshi.volume_24h()),
        (Some(95_242.0), Some(20_311.5))
    );
    assert_eq!(r.pagination.as_ref().map(|p| p.has_more), Some(Some(false)));
    let boards = game_boards(&r.data.markets);
    let kinds: Vec<&BoardKind> = boards.iter().map(|b| &b.kind).collect();
    assert_eq!(
        kinds,
        [
            &BoardKind::Market {
                kind: GameMarketType::Moneyline,
                line: None
            },
            &BoardKind::Market {
                kind: GameMarketType::Spread,
                line: Some(3.5)
            },
            &BoardKind::Market {
                kind: GameMarketType::Total,
                line: Some(48.5)
            },
            &BoardKind::Event {
                platform: Some(PlatformId::from("kalshi")),
                event_id: Some("KXNFLGAME-25OCT13BUFATL".into()),
                name: Some("Buffalo at Atlanta".into())
            },
        ]
    );
    // Moneyline: matched across platforms by name (no team ids here),
    // "MONEYLINE" read as moneyline; best price is the cheaper one.
    let ml = &boards[0];
    assert_eq!(
        ml.rows.len(),
        4,
        "Buffalo/Bills and Atlanta/Falcons differ by name"
    );
    let buffalo = &ml.rows[0];
    assert_eq!(buffalo.label, "Buffalo");
    assert_eq!(buffalo.cells[0].volume, Some(51_230.0));
    // Spread: both sides of 3.5 on one board, the line kept per row.
    let lines: Vec<Option<f64>> = boards[1].rows.iter().map(|r| r.line).collect();
    assert_eq!(lines, [Some(-3.5), Some(3.5)]);
    let fair: f64 = boards[1].rows.iter().filter_map(|r| r.fair).sum();
    assert!((fair - 1.0).abs() < 1e-12);
    assert_eq!(
        boards[3].rows[0].label, "Josh Allen 2+ TDs",
        "a prop on its event's board"
    );
    assert_eq!(boards[3].rows[0].fair, None);
}

#[test]
fn game_2_0_0_without_kinds_boards_per_event_and_sorted_books() {
    use predmarket_core::odds::{BoardKind, game_boards};
    use predmarket_core::orderbook::Book;
    let r: GameResponse = load("get_game_2_0_0.json");
    let m = &r.data.markets[0];
    assert_eq!(m.name(), Some("Bills vs. Falcons"));
    assert_eq!(m.event_slug.as_deref(), Some("nfl-buf-atl-2025-10-13"));
    assert_eq!(
        m.volume(),
        Some(182_345.12 + 90_321.0),
        "the outcomes' volumes"
    );
    assert_eq!(m.liquidity(), Some(45_210.5));
    let bills = &m.outcomes()[0];
    let book = Book::new(&bills.order_book.as_ref().expect("book").yes_side());
    assert_eq!(
        book.best_bid().map(|l| (l.price, l.size)),
        Some((0.71, 300.0))
    );
    assert_eq!(
        book.best_ask().map(|l| (l.price, l.size)),
        Some((0.72, 800.0)),
        "qty as text"
    );
    assert_eq!(m.outcomes()[1].price, Some(0.3));
    let boards = game_boards(&r.data.markets);
    assert_eq!(boards.len(), 2, "one board per platform event");
    assert!(
        boards
            .iter()
            .all(|b| matches!(b.kind, BoardKind::Event { .. }))
    );
    assert_eq!(boards[1].rows[0].cells[0].price, 0.7);
    assert_eq!(boards[1].rows[0].cells[0].status.as_deref(), Some("active"));
}

#[test]
fn trades_at_the_yes_price_and_both_metas() {
    let r: TradesResponse = load("list_trades_yes_price.json");
    let shown: Vec<Option<f64>> = r.trades.iter().map(Trade::shown_price).collect();
    assert_eq!(shown, [Some(0.13), Some(0.86), Some(0.15)]);
    assert_eq!(r.trades[0].price, Some(0.0013), "the price as sent is kept");
    assert_eq!(
        (r.trades[0].yes_price, r.trades[0].no_price),
        (Some(0.13), Some(0.87))
    );
    let meta = r.meta.as_ref().expect("meta");
    assert_eq!(
        meta.market_id.as_deref(),
        Some("KXFEDDECISION-25SEP-C25"),
        "inner meta"
    );
    assert_eq!(meta.platform, Some(PlatformId::from("kalshi")));
    assert_eq!(meta.request_time, Some(64.0), "outer meta");
}

#[test]
fn futures_and_awards_say_their_platforms() {
    let r: ListFuturesResponse = load("list_futures_platform_markets.json");
    let ids: Vec<String> = r.data.futures[0]
        .platform_ids()
        .iter()
        .map(|p| p.as_str().to_owned())
        .collect();
    assert_eq!(ids, ["kalshi", "novig", "polymarket"], "platform_markets");
    assert!(r.data.futures[1].platform_ids().is_empty());
    assert!(r.data.pagination.is_none());

    let r: ListAwardsResponse = load("list_awards_older.json");
    assert_eq!(r.data.awards[0].platform_ids().len(), 2, "platforms");
    let meta = r.meta.as_ref().expect("meta");
    assert!(meta.data_freshness.is_some(), "meta inside data");
    assert_eq!(meta.request_time, Some(33.0));
    let p = r.data.pagination.as_ref().expect("pagination");
    assert_eq!(p.next(), Some(2), "has_more + next_offset");
    let md = r.data.awards[0].metadata.as_ref().expect("metadata");
    assert_eq!(
        (md.total_volume, md.volume_24h),
        (Some(1_250_000.0), Some(31_000.5))
    );
}

#[test]
fn older_future_and_award_envelopes_merge_one_item() {
    let f: FutureResponse = load("get_future_older.json");
    assert_eq!(f.data.id, "nfl_super_bowl_2026");
    assert_eq!(f.data.markets.as_ref().map(Vec::len), Some(2));
    let ids: Vec<String> = f
        .data
        .platform_ids()
        .iter()
        .map(|p| p.as_str().to_owned())
        .collect();
    assert_eq!(ids, ["polymarket", "kalshi"]);
    let quotes = predmarket_core::odds::future_quotes(&f.data);
    let best = predmarket_core::odds::best_prices(&quotes);
    assert_eq!(best["nfl_kc"].decimal, 5.5, "matched by team_polyrouter_id");

    let a: AwardResponse = load("get_award_older.json");
    assert_eq!(
        a.data.markets.as_ref().map(Vec::len),
        Some(2),
        "one award, two platforms"
    );
    assert_eq!(
        a.data.metadata.as_ref().and_then(|m| m.total_volume),
        Some(2_500_000.5)
    );
    let best = predmarket_core::odds::best_prices(&predmarket_core::odds::award_quotes(&a.data));
    assert_eq!(best["josh allen"].decimal, 4.0, "+300 beats +275");
}

#[test]
fn older_platform_directory() {
    let r: PlatformsResponse = load("list_platforms_older.json");
    let ids: Vec<&str> = r.platforms.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["polymarket", "kalshi", "prophetx"], "each once");
    let poly = &r.platforms[0];
    assert_eq!(poly.name.as_deref(), Some("Polymarket"), "display_name");
    let endpoints = poly.endpoints.as_ref().expect("endpoints").available();
    assert!(
        endpoints.contains(&("games", true)),
        "both sections' endpoints"
    );
    assert!(endpoints.contains(&("orderbook", true)));
    let sports = r.sports.as_ref().expect("sports");
    assert_eq!(sports.health_of("prophetx"), Some("degraded"));
    assert_eq!(sports.total_platforms, Some(2.0));
    assert_eq!(
        r.meta.as_ref().and_then(|m| m.extra.get("version")),
        Some(&serde_json::json!("0.3.1"))
    );
}

#[test]
fn slugs_nested_series_markets_freshness_and_profile_platforms() {
    let e: EventsResponse = load("list_events_offset.json");
    assert_eq!(e.events[0].slug(), Some("fed-decision-in-october"));
    assert_eq!(
        e.pagination.as_ref().and_then(|p| p.next_position()),
        Some(predmarket_core::PagePosition::Offset(12))
    );
    let s: SeriesResponse = load("list_series_nested_markets.json");
    assert_eq!(s.series[0].slug(), Some("kxhighny"));
    let markets = s.series[0].markets.as_ref().expect("nested markets");
    assert_eq!(markets[0].current_price("yes"), Some(0.22));
    assert_eq!(s.pagination.as_ref().and_then(|p| p.next_position()), None);
    let l: LeagueInfoResponse = load("league_info_freshness.json");
    assert!(
        l.meta
            .as_ref()
            .and_then(|m| m.data_freshness.as_deref())
            .is_some()
    );
    let p: ProfileInfoResponse = load("profile_info_kalshi.json");
    assert_eq!(
        p.data.profile.as_ref().and_then(|p| p.platform.clone()),
        Some(PlatformId::from("kalshi"))
    );
    assert_eq!(p.success, Some(true));
    let t: ProfileTradesResponse = load("profile_trades_platform.json");
    assert_eq!(t.data.trades[0].platform, Some(PlatformId::from("kalshi")));
    let m: MarketsResponse = load("list_markets_offset.json");
    assert_eq!(
        m.markets[0]
            .extra
            .get("raw_data")
            .and_then(|r| r.get("conditionId")),
        Some(&serde_json::json!("0x8f2a1c3d"))
    );
}

#[test]
fn a_walk_continues_on_next_offset_of_a_list_without_cursors() {
    use predmarket_core::{PagePosition, Walk};
    let first: EventsResponse = load("list_events_offset.json");
    let mut walk = Walk::new(Some(PagePosition::Offset(10)));
    let next = first.pagination.as_ref().and_then(|p| p.next_position());
    assert_eq!(walk.accept_page(first.events.len(), next), Ok(0..2));
    assert_eq!(
        walk.next_position(),
        Ok(Some(Some(PagePosition::Offset(12)))),
        "Load more asks for offset 12"
    );
    let last: SeriesResponse = load("list_series_nested_markets.json");
    let next = last.pagination.as_ref().and_then(|p| p.next_position());
    assert_eq!(walk.accept_page(last.series.len(), next), Ok(0..1));
    assert_eq!(walk.next_position(), Ok(None), "has_more false ends it");
}
