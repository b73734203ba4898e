//! The OpenAPI 3.1 document at `/openapi.json`: every operation, parameter,
//! response and error as this server serves them, and the choices made
//! where service.md is silent (in `info.description` and
//! `x-where-the-spec-is-silent`).
//!
//! Built by hand with `serde_json` rather than derived: the core's models
//! stay free of OpenAPI dependencies, and the document says what the
//! server does (caps, defaults, cursor policy), which no derive knows.
//! The tests check that every route is documented and that answers match
//! these schemas' required fields.

use crate::SharedState;
use crate::data::names::Names;
use crate::data::platforms::{EVENTS, HISTORY, MARKETS, ORDERBOOK, PROFILES, SPORTS, TRADES};
use crate::data::sports::LEAGUES;
use crate::data::{Dataset, MarketSort};
use crate::routes::{events, markets, profiles, sports, trades};
use axum::extract::State;
use axum::response::Response;
use predmarket_core::models::{
    AwardType, FutureType, GameStatus, MarketStatus, OddsFormat, PriceInterval, SortOrder,
};
use predmarket_core::request::{
    EVENTS_MAX_LIMIT, LIST_MAX_LIMIT, MARKETS_MAX_LIMIT, PRICE_HISTORY_MAX_LIMIT,
    PRICE_HISTORY_MAX_MARKETS, PROFILE_TRADES_MAX_LIMIT, PROFILE_USER_MAX_CHARS, SERIES_MAX_LIMIT,
    TRADES_MAX_LIMIT,
};
use serde_json::{Map, Value, json};

pub async fn serve(State(state): State<SharedState>) -> Response {
    let bytes = state.openapi.get_or_init(|| {
        let mut doc = document();
        add_examples(&mut doc, &state.data);
        rename_ids(&mut doc, state.data.options.names);
        serde_json::to_vec(&doc).unwrap_or_default()
    });
    crate::routes::bytes_response(bytes.clone())
}

/// The document as a server started with `--rename-ids` speaks: every
/// label in enums, examples and prose replaced by its wire id.
fn rename_ids(doc: &mut Value, names: Names) {
    match doc {
        Value::String(text) => *text = names.in_text(text),
        Value::Array(items) => items.iter_mut().for_each(|v| rename_ids(v, names)),
        Value::Object(members) => members.values_mut().for_each(|v| rename_ids(v, names)),
        _ => {}
    }
}

/// Ids that exist in this server's data, as parameter examples, so that
/// tools generating requests from the document reach real resources.
fn add_examples(doc: &mut Value, data: &Dataset) {
    let catalog = &data.catalog;
    let market = data
        .market_order(MarketSort::Volume24h)
        .iter()
        .map(|&i| &catalog.markets[i as usize])
        .find(|m| m.platform == 0)
        .map(|m| m.id.to_string());
    let user = data
        .profiles
        .users
        .first()
        .and_then(|users| users.first())
        .map(|u| u.user_id.clone());
    let examples: [(&str, &str, Option<String>); 12] = [
        (
            "/series/{id}",
            "id",
            catalog.series.first().map(|s| s.id.to_string()),
        ),
        ("/markets/{id}", "id", market.clone()),
        ("/markets/{id}/orderbook", "id", market.clone()),
        (
            "/events/{id}",
            "id",
            catalog.events.first().map(|e| e.id.to_string()),
        ),
        ("/trades", "market_id", market.clone()),
        ("/price-history", "market_ids", market),
        ("/profile/info", "user", user.clone()),
        ("/profile/trades", "user", user),
        (
            "/games/{game_id}",
            "game_id",
            data.sports.games.first().map(|g| g.model.id.clone()),
        ),
        (
            "/futures/{id}",
            "id",
            data.sports.futures.first().map(|f| f.model.id.clone()),
        ),
        (
            "/awards/{id}",
            "id",
            data.sports.awards.first().map(|a| a.model.id.clone()),
        ),
        ("/profile/info", "platform", Some("platform_a".to_owned())),
    ];
    for (path, name, example) in examples {
        let Some(example) = example else { continue };
        let Some(parameters) = doc["paths"][path]["get"]["parameters"].as_array_mut() else {
            continue;
        };
        for parameter in parameters {
            if parameter["name"] == name {
                parameter["example"] = Value::from(example.clone());
            }
        }
    }
}

/// Where service.md is silent, what this server does.
pub const CHOICES: &[(&str, &str)] = &[
    (
        "cursor",
        "Cursors are opaque (base64url), signed with HMAC-SHA256 under a secret drawn at \
         start-up, bound to the operation and to every filter of the request (not to `limit`, \
         which may change between pages), and valid for 15 minutes (`--cursor-ttl`). A cursor \
         that does not verify is refused with 400 INVALID_CURSOR, never silently restarted: \
         `error.details.reason` is `malformed`, `tampered`, `other_operation`, \
         `filters_changed` or `expired`. A restarted server refuses the cursors of the \
         previous run. Pages are offsets into a fixed snapshot, so walking all pages yields \
         every item exactly once.",
    ),
    (
        "limits",
        "`limit` must be a positive integer: 0, negative and non-numeric values are 400 \
         VALIDATION_ERROR with `details.parameter = limit`; values above the maximum are \
         capped, not refused, and `pagination.limit` says the size applied. Maxima: markets \
         250, trades 1000, events 25, series 25 (the spec says 100 and 25; 25 is the later \
         statement), list-games/list-futures/list-awards 25, profile trades 100, price \
         history 5000. Defaults: 25 for lists, 100 for trades, 50 for profile trades, 1000 \
         for price history.",
    ),
    (
        "platform",
        "`platform` takes exactly one value; a comma-separated list is 400 VALIDATION_ERROR. \
         Repeating any parameter is 400 as well. A platform made to fail (`--fail-platform`) \
         answers 503 PLATFORM_UNAVAILABLE when queried alone, and appears in \
         `meta.platform_errors` (`{platform: {code, message}}`) when queried with others; \
         its data is left out of the rest of the answer.",
    ),
    (
        "errors",
        "Every error is JSON: `{error: {code, message, details, timestamp}, meta: \
         {request_time}}` (401 without `meta`). 400 VALIDATION_ERROR or INVALID_CURSOR, 401 \
         INVALID_API_KEY, 404 NOT_FOUND (unknown ids and paths), 405 for methods other than GET, \
         429 RATE_LIMITED with Retry-After and X-RateLimit-Limit/Remaining/Reset, 500 \
         INTERNAL_ERROR, 503 PLATFORM_UNAVAILABLE. Unknown query parameters are ignored. \
         A typed parameter (enum, true/false, integer, date) that is present but empty is \
         400; an empty free-text parameter (query, category, ids) or cursor counts as absent.",
    ),
    (
        "rate_limit",
        "100 requests per minute per key by default (rolling window), configurable per key \
         (`--api-key KEY:N`). Every answer behind a key carries X-RateLimit-Limit, \
         X-RateLimit-Remaining and X-RateLimit-Reset (seconds).",
    ),
    (
        "units",
        "`request_time` and `response_time_ms` are milliseconds; the integer `timestamp` of \
         trades and price points is Unix seconds; other timestamps are ISO 8601 UTC \
         (`2025-02-09T23:30:00Z`). `data_freshness` is ISO 8601.",
    ),
    (
        "markets",
        "GET /markets filters: platform (platform_a to platform_e), status (open, closed, \
         resolved; other known statuses match nothing here), query (every word must occur in \
         the title, any case), category, event_id, series_id; sort (volume_24h, volume_7d, \
         volume_total, liquidity, open_interest, created_at, trading_end_at) with order \
         (desc by default, asc); without sort: volume_24h desc. MVE (multivariate combo) \
         markets of platform_b are never served, by id either. `include_raw=true` puts the \
         platform's own record under `metadata._raw`. `current_prices`, `price_24h_changes`, \
         `price_7d_changes` and `last_trades` are keyed by outcome (`yes`, `no`); prices are \
         `{price, bid, ask}` for open markets.",
    ),
    (
        "market_ids",
        "Market ids tell their platform: platform_a digits only; platform_b an upper-case \
         ticker with dashes; platform_c `0x` and 40 hex digits; platform_d a lower-case slug \
         with dashes; platform_e 12 mixed-case letters and digits. The orderbook detects the \
         platform from this format when `platform` is absent.",
    ),
    (
        "orderbook",
        "Prices are whole cents (tick 0.01). The best yes bid/ask equal the market's \
         `metadata.bestBid`/`bestAsk`; `no` mirrors `yes` (no bid = 1 - yes ask). `depth` is \
         the total size resting on both sides of that outcome. Closed and resolved markets \
         have empty books. Orderbooks exist for platform_a to platform_d.",
    ),
    (
        "events_series",
        "GET /events filters: platform (platform_a, platform_b), query, series_id. \
         `include_nested=true` nests the markets of each event. GET /series: platform and \
         query (search mode: every word in the series' title, description, category or tags, \
         or in the title of one of its events); `include_nested=true` nests its events \
         (without their markets). `include_raw` applies to nested markets. Counts \
         (`market_count`, `event_count`, `total_volume`) are those of the served children.",
    ),
    (
        "trades",
        "GET /trades serves platform_a and platform_b markets (others: 400); newest first; \
         `takerOnly=true` keeps taker trades on platform_a and is ignored elsewhere, as the \
         spec says. The newest trade is at the market's last price.",
    ),
    (
        "price_history",
        "GET /price-history: market_ids (comma-separated, at most 10; platform_a, platform_b, \
         platform_c), start_ts and end_ts (Unix seconds), interval (1m, 5m, 1h, 4h, 1d; \
         default 1h), limit (per market). Without a range: the newest `limit` bars up to now. \
         Each point's `timestamp` is the end of its bar; the newest `close` is the market's \
         last price. History covers the last 30 days.",
    ),
    (
        "profiles",
        "GET /profile/info: platform (required), user (user id or display name, any case, 1 \
         to 100 characters, required), include_metrics (default true). GET /profile/trades: \
         platform, user, limit, cursor; newest first. Metrics are computed from the user's \
         trades.",
    ),
    (
        "sports",
        "League ids are the labels league_a to league_d; team ids are `<league>_<code>` \
         (`service_id`; `team_service_id` in outcomes). league-info without `league` answers \
         `data` as an array of all leagues. GET /list-games: league (required), status, from \
         and to (YYYY-MM-DD, the game's local day), limit, cursor; by time. GET /games/{id} \
         accepts `{Away}v{Home}{YYYYMMDD}@{LEAGUE}` (abbreviation or label, any case) and the \
         form without suffix (first league in label order); a malformed id is 400, an \
         unknown one 404. Its `data` is `{game, markets}`: moneyline, spread and total \
         markets of each sports platform (platform_a, platform_b, platform_f, platform_g, \
         platform_h).",
    ),
    (
        "futures_awards",
        "GET /list-futures (league required, future_type, season) and GET /list-awards \
         (league required, award_type, season) page by offset: `{total, limit, offset, \
         has_more, next_offset}`; both also take platform and odds_format. Ids look like \
         `league_a_championship_2025`, `league_a_mvp_2025`. Odds: the American line is \
         whole-numbered; decimal and implied_probability derive from it (4 places). With \
         `odds_format` only that notation is sent (`probability` sends \
         implied_probability). Platforms price the same probabilities with their own margin, \
         so prices differ; the first division future of league_b is priced with a real \
         cross-platform arbitrage (its best prices sum below 1).",
    ),
    (
        "meta",
        "`cache_hit` is always false (data is generated in memory); `data_freshness` is the \
         data's sync time. Sports answers carry `platforms_queried` and `platform_errors` \
         (an empty object when every platform answered); market, event and series lists \
         carry `platforms_queried`, and `platform_errors` when a platform failed.",
    ),
];

fn string() -> Value {
    json!({"type": "string"})
}
fn number() -> Value {
    json!({"type": "number"})
}
fn integer() -> Value {
    json!({"type": "integer"})
}
fn boolean() -> Value {
    json!({"type": "boolean"})
}
fn array(items: Value) -> Value {
    json!({"type": "array", "items": items})
}
fn reference(name: &str) -> Value {
    json!({"$ref": format!("#/components/schemas/{name}")})
}
fn map_of(values: Value) -> Value {
    json!({"type": "object", "additionalProperties": values})
}
fn nullable(kind: &str) -> Value {
    json!({"type": [kind, "null"]})
}
fn described(mut schema: Value, description: &str) -> Value {
    schema["description"] = Value::from(description);
    schema
}

/// An object schema: `required` names, then (name, schema) properties.
fn object(required: &[&str], properties: &[(&str, Value)]) -> Value {
    let mut props = Map::new();
    for (name, schema) in properties {
        props.insert((*name).to_owned(), schema.clone());
    }
    let mut out = json!({"type": "object", "properties": props});
    if !required.is_empty() {
        out["required"] = json!(required);
    }
    out
}

fn strings(names: &[&str]) -> Vec<(String, Value)> {
    names.iter().map(|n| ((*n).to_owned(), string())).collect()
}

fn object_owned(required: &[&str], properties: Vec<(String, Value)>) -> Value {
    let props: Map<String, Value> = properties.into_iter().collect();
    let mut out = json!({"type": "object", "properties": props});
    if !required.is_empty() {
        out["required"] = json!(required);
    }
    out
}

fn schemas() -> Value {
    let mut market = strings(&[
        "platform",
        "platform_id",
        "title",
        "status",
        "market_type",
        "last_synced_at",
        "event_id",
        "event_name",
        "event_slug",
        "series_id",
        "slug",
        "market_slug",
        "description",
        "category",
        "subcategory",
        "source_url",
        "image_url",
        "created_at",
        "trading_start_at",
        "trading_end_at",
        "resolution_date",
        "resolved_at",
        "resolution_criteria",
        "resolution_source",
    ]);
    market.push(("id".into(), string()));
    market.push((
        "outcomes".into(),
        array(object(&["id"], &[("id", string()), ("name", string())])),
    ));
    for name in [
        "current_prices",
        "price_24h_changes",
        "price_7d_changes",
        "last_trades",
    ] {
        market.push((name.into(), json!({"type": "object"})));
    }
    market.push(("tags".into(), array(string())));
    for name in [
        "volume_24h",
        "volume_7d",
        "volume_total",
        "liquidity",
        "liquidity_score",
        "open_interest",
        "fee_rate",
        "trading_fee",
        "withdrawal_fee",
    ] {
        market.push((name.into(), number()));
    }
    market.push(("unique_traders".into(), integer()));
    market.push((
        "metadata".into(),
        object(
            &[],
            &[
                ("conditionId", string()),
                ("ammType", string()),
                ("marketType", string()),
                ("formatType", string()),
                ("competitive", number()),
                ("score", number()),
                ("bestBid", number()),
                ("bestAsk", number()),
                ("spread", number()),
                ("clobTokenIds", array(string())),
                (
                    "_raw",
                    described(
                        json!({"type": "object"}),
                        "The platform's own record (include_raw=true).",
                    ),
                ),
            ],
        ),
    ));

    let mut event = strings(&[
        "id",
        "platform",
        "platform_id",
        "title",
        "last_synced_at",
        "series_id",
        "slug",
        "description",
        "image_url",
        "resolution_source_url",
        "event_start_at",
        "event_end_at",
    ]);
    event.push(("market_count".into(), integer()));
    event.push(("total_volume".into(), number()));
    event.push(("markets".into(), array(reference("Market"))));

    let mut series = strings(&[
        "id",
        "platform",
        "platform_id",
        "title",
        "last_synced_at",
        "slug",
        "description",
        "image_url",
        "category",
    ]);
    series.push(("tags".into(), array(string())));
    series.push(("event_count".into(), integer()));
    series.push(("market_count".into(), integer()));
    series.push(("total_volume".into(), number()));
    series.push(("events".into(), array(reference("Event"))));

    let odds = object(
        &[],
        &[
            ("american", described(string(), "e.g. \"+250\", \"-110\"")),
            ("decimal", number()),
            ("implied_probability", number()),
        ],
    );
    let platform_error = object(&[], &[("code", string()), ("message", string())]);
    let level = object(
        &["price", "size"],
        &[("price", number()), ("size", number())],
    );
    let side = object(
        &["bids", "asks"],
        &[
            ("bids", array(reference("PriceLevel"))),
            ("asks", array(reference("PriceLevel"))),
            ("depth", number()),
        ],
    );
    let team = object(
        &["service_id"],
        &[
            ("service_id", described(string(), "<league>_<team_code>")),
            ("name", string()),
            ("abbreviation", string()),
            ("city", string()),
            ("state", string()),
            ("conference", string()),
            ("division", string()),
            ("platform_ids", map_of(string())),
            (
                "metadata",
                object(
                    &[],
                    &[
                        ("logo_url", string()),
                        ("colors", array(string())),
                        ("founded", integer()),
                        ("stadium", string()),
                    ],
                ),
            ),
        ],
    );
    let league_info = object(
        &["id"],
        &[
            ("id", string()),
            ("name", string()),
            ("abbreviation", string()),
            ("sport", string()),
            (
                "season",
                object(
                    &[],
                    &[
                        ("year", integer()),
                        ("start_date", string()),
                        ("end_date", string()),
                    ],
                ),
            ),
            (
                "endpoints",
                object(
                    &[],
                    &[
                        ("awards", boolean()),
                        ("futures", boolean()),
                        ("games", boolean()),
                        ("list_games", boolean()),
                        ("list_awards", boolean()),
                        ("list_futures", boolean()),
                    ],
                ),
            ),
            (
                "counts",
                object(
                    &[],
                    &[
                        ("teams", integer()),
                        ("awards", integer()),
                        ("futures", integer()),
                    ],
                ),
            ),
            ("status", string()),
            ("teams", array(reference("Team"))),
        ],
    );
    let game = object(
        &["id"],
        &[
            (
                "id",
                described(string(), "{Away}v{Home}{YYYYMMDD}@{LEAGUE}"),
            ),
            ("title", string()),
            ("sport", string()),
            ("league", string()),
            ("description", string()),
            ("category", string()),
            ("image_url", string()),
            ("teams", array(string())),
            ("scheduled_at", string()),
            ("status", string()),
            ("tags", array(string())),
            ("metadata", json!({"type": "object"})),
            (
                "markets",
                described(
                    array(reference("GameMarket")),
                    "GET /games/{game_id} only: each platform's moneyline, spread and total.",
                ),
            ),
        ],
    );
    let game_outcome = object(
        &[],
        &[
            ("outcome_name", string()),
            ("team_service_id", string()),
            ("price", number()),
            ("odds", reference("Odds")),
            ("line", number()),
            ("volume_24h", number()),
        ],
    );
    let game_market = object(
        &[],
        &[
            ("platform", string()),
            ("market_id", string()),
            (
                "market_type",
                described(string(), "moneyline, spread, total"),
            ),
            ("title", string()),
            ("status", string()),
            ("line", number()),
            ("outcomes", array(reference("GameOutcome"))),
            ("volume_24h", number()),
            ("liquidity", number()),
            ("last_synced_at", string()),
            ("source_url", string()),
        ],
    );
    let priced = |name_field: &str| {
        object(
            &[],
            &[
                (name_field, string()),
                ("odds", reference("Odds")),
                ("team_service_id", string()),
                ("volume_24h", number()),
                ("last_trade_price", number()),
                ("metadata", json!({"type": "object"})),
            ],
        )
    };
    let future = object(
        &["id"],
        &[
            ("id", string()),
            ("future_name", string()),
            ("league", string()),
            ("future_type", string()),
            ("category", string()),
            ("season", integer()),
            (
                "markets",
                array(object(
                    &[],
                    &[
                        ("platform", string()),
                        ("market_id", string()),
                        ("outcomes", array(reference("FutureOutcome"))),
                    ],
                )),
            ),
            (
                "metadata",
                object(
                    &[],
                    &[
                        ("deadline", string()),
                        ("description", string()),
                        ("eligible_teams", array(string())),
                    ],
                ),
            ),
        ],
    );
    let award = object(
        &["id"],
        &[
            ("id", string()),
            ("award_name", string()),
            ("league", string()),
            ("award_type", string()),
            ("season", integer()),
            (
                "markets",
                array(object(
                    &[],
                    &[
                        ("platform", string()),
                        ("market_id", string()),
                        ("candidates", array(reference("Candidate"))),
                    ],
                )),
            ),
            (
                "metadata",
                object(
                    &[],
                    &[
                        ("deadline", string()),
                        ("description", string()),
                        ("eligibility", string()),
                    ],
                ),
            ),
        ],
    );
    let list_meta = object(
        &[],
        &[
            ("request_time", described(number(), "milliseconds")),
            ("cache_hit", boolean()),
            ("data_freshness", described(string(), "ISO 8601")),
            ("platforms_queried", array(string())),
            ("platform_errors", map_of(reference("PlatformError"))),
        ],
    );
    let sports_meta = object(
        &[],
        &[
            ("platforms_queried", array(string())),
            ("request_time", number()),
            ("data_freshness", string()),
            ("platform_errors", map_of(reference("PlatformError"))),
        ],
    );
    let request_meta = object(&[], &[("request_time", number())]);
    let pagination = object(
        &["next_cursor"],
        &[
            ("total", integer()),
            ("limit", integer()),
            ("has_more", boolean()),
            ("next_cursor", nullable("string")),
        ],
    );
    let offset_pagination = object(
        &["next_offset"],
        &[
            ("total", integer()),
            ("limit", integer()),
            ("offset", integer()),
            ("has_more", boolean()),
            ("next_offset", nullable("integer")),
        ],
    );
    let trade = object(
        &["trade_id"],
        &[
            ("trade_id", string()),
            ("market_id", string()),
            ("platform", string()),
            ("side", described(string(), "buy, sell")),
            ("price", number()),
            ("size", number()),
            ("timestamp", described(integer(), "Unix seconds")),
            ("outcome", string()),
            ("taker", boolean()),
            ("transaction_hash", string()),
            (
                "user",
                object(
                    &[],
                    &[
                        ("name", string()),
                        ("pseudonym", string()),
                        ("profile_image", string()),
                    ],
                ),
            ),
            ("metadata", json!({"type": "object"})),
        ],
    );
    let price_point = object(
        &[],
        &[
            (
                "timestamp",
                described(integer(), "Unix seconds, end of the bar"),
            ),
            (
                "price",
                object(
                    &[],
                    &[
                        ("close", number()),
                        ("open", number()),
                        ("high", number()),
                        ("low", number()),
                    ],
                ),
            ),
            ("volume", number()),
            ("openInterest", number()),
            (
                "bidAsk",
                object(&[], &[("bid", number()), ("ask", number())]),
            ),
            ("platform", string()),
            ("marketId", string()),
            ("outcomeId", string()),
        ],
    );
    let profile = object(
        &[],
        &[
            ("user_id", string()),
            ("display_name", string()),
            ("profile_image", string()),
            ("description", string()),
            ("joined_at", string()),
            ("follower_count", integer()),
            ("following_count", integer()),
            ("profile_view_count", integer()),
            ("metadata", json!({"type": "object"})),
        ],
    );
    let metrics = object(
        &[],
        &[
            ("volume", number()),
            ("pnl", number()),
            ("num_markets_traded", integer()),
            ("roi", number()),
            ("portfolio_value", number()),
            ("open_interest", number()),
        ],
    );
    let profile_trade = object(
        &["trade_id"],
        &[
            ("trade_id", string()),
            ("market_id", string()),
            ("ticker", string()),
            ("title", string()),
            ("side", string()),
            ("outcome", string()),
            ("price", number()),
            ("size", number()),
            ("timestamp", integer()),
            ("transaction_hash", string()),
            ("metadata", json!({"type": "object"})),
        ],
    );
    let platform = object(
        &["id"],
        &[
            ("id", string()),
            ("name", string()),
            ("status", string()),
            (
                "health",
                object(
                    &[],
                    &[
                        ("status", string()),
                        ("last_check", string()),
                        ("response_time_ms", number()),
                    ],
                ),
            ),
            (
                "endpoints",
                array(object(
                    &["name", "available"],
                    &[("name", string()), ("available", boolean())],
                )),
            ),
            (
                "features",
                object(
                    &[],
                    &[
                        ("orderbook", boolean()),
                        ("trades", boolean()),
                        ("historical_data", boolean()),
                        ("user_profiles", boolean()),
                    ],
                ),
            ),
        ],
    );
    let error = object(
        &["error"],
        &[
            (
                "error",
                object(
                    &["code", "message"],
                    &[
                        (
                            "code",
                            json!({"type": "string", "enum": [
                                "VALIDATION_ERROR", "INVALID_CURSOR", "INVALID_API_KEY",
                                "NOT_FOUND", "RATE_LIMITED", "INTERNAL_ERROR",
                                "PLATFORM_UNAVAILABLE"
                            ]}),
                        ),
                        ("message", string()),
                        ("details", json!({"type": "object"})),
                        ("timestamp", described(string(), "ISO 8601")),
                    ],
                ),
            ),
            ("meta", object(&[], &[("request_time", number())])),
        ],
    );

    let envelope = |items: &str, item: &str| {
        object(
            &[items],
            &[
                ("pagination", reference("Pagination")),
                (items, array(reference(item))),
                ("meta", reference("ListMeta")),
            ],
        )
    };
    let data_envelope =
        |data: Value, meta: &str| object(&["data"], &[("data", data), ("meta", reference(meta))]);

    json!({
        "Market": object_owned(&["id"], market),
        "Event": object_owned(&["id"], event),
        "Series": object_owned(&["id"], series),
        "Pagination": pagination,
        "OffsetPagination": offset_pagination,
        "ListMeta": list_meta,
        "SportsMeta": sports_meta,
        "RequestMeta": request_meta,
        "PlatformError": platform_error,
        "PriceLevel": level,
        "OrderbookSide": side,
        "Odds": odds,
        "Team": team,
        "LeagueInfo": league_info,
        "Game": game,
        "GameOutcome": game_outcome,
        "GameMarket": game_market,
        "FutureOutcome": priced("outcome_name"),
        "Candidate": priced("player_name"),
        "Future": future,
        "Award": award,
        "Trade": trade,
        "PricePoint": price_point,
        "Profile": profile,
        "ProfileMetrics": metrics,
        "ProfileTrade": profile_trade,
        "Platform": platform,
        "Error": error,
        "MarketsResponse": envelope("markets", "Market"),
        "EventsResponse": envelope("events", "Event"),
        "SeriesResponse": envelope("series", "Series"),
        "OrderbookResponse": data_envelope(object(&[], &[
            ("market_id", string()),
            ("platform", string()),
            ("timestamp", string()),
            ("yes", reference("OrderbookSide")),
            ("no", reference("OrderbookSide")),
            ("metadata", object(&[], &[
                ("min_order_size", number()),
                ("tick_size", number()),
                ("neg_risk", boolean()),
                ("_raw", described(json!({"type": "object"}), "include_raw=true")),
            ])),
        ]), "RequestMeta"),
        "TradesResponse": object(&["trades"], &[
            ("trades", array(reference("Trade"))),
            ("pagination", reference("Pagination")),
            ("meta", object(&[], &[
                ("request_time", number()),
                ("market_id", string()),
                ("platform", string()),
                ("data_freshness", string()),
            ])),
        ]),
        "PriceHistoryResponse": object(&["data"], &[
            ("data", array(reference("PricePoint"))),
            ("meta", object(&[], &[
                ("total_points", integer()),
                ("platforms", array(string())),
                ("time_range", object(&[], &[("start", integer()), ("end", integer())])),
                ("interval", string()),
                ("request_time", number()),
                ("cache_hit", boolean()),
                ("data_freshness", string()),
            ])),
        ]),
        "ProfileInfoResponse": data_envelope(object(&[], &[
            ("profile", reference("Profile")),
            ("metrics", reference("ProfileMetrics")),
        ]), "ListMeta"),
        "ProfileTradesResponse": data_envelope(object(&["trades"], &[
            ("trades", array(reference("ProfileTrade"))),
            ("pagination", reference("Pagination")),
        ]), "ListMeta"),
        "PlatformsResponse": object(&["platforms"], &[
            ("platforms", array(reference("Platform"))),
            ("meta", object(&[], &[("request_time", number()), ("total", number())])),
        ]),
        "LeagueInfoResponse": data_envelope(json!({"oneOf": [
            reference("LeagueInfo"),
            array(reference("LeagueInfo")),
        ]}), "RequestMeta"),
        "ListGamesResponse": data_envelope(object(&["games"], &[
            ("games", array(reference("Game"))),
            ("pagination", reference("Pagination")),
        ]), "SportsMeta"),
        "GameResponse": data_envelope(reference("Game"), "SportsMeta"),
        "FutureResponse": data_envelope(reference("Future"), "SportsMeta"),
        "ListFuturesResponse": data_envelope(object(&["futures"], &[
            ("futures", array(reference("Future"))),
            ("pagination", reference("OffsetPagination")),
        ]), "SportsMeta"),
        "AwardResponse": data_envelope(reference("Award"), "SportsMeta"),
        "ListAwardsResponse": data_envelope(object(&["awards"], &[
            ("awards", array(reference("Award"))),
            ("pagination", reference("OffsetPagination")),
        ]), "SportsMeta"),
    })
}

/// A query parameter.
fn query(name: &str, schema: Value, description: &str, required: bool) -> Value {
    json!({
        "name": name,
        "in": "query",
        "required": required,
        "description": description,
        "schema": schema,
    })
}

fn path(name: &str, description: &str) -> Value {
    json!({
        "name": name,
        "in": "path",
        "required": true,
        "description": description,
        "schema": {"type": "string", "minLength": 1},
    })
}

fn one_of(values: &[&str]) -> Value {
    json!({"type": "string", "enum": values})
}

fn flag(name: &str, description: &str) -> Value {
    query(name, one_of(&["true", "false"]), description, false)
}

fn limit(default: u32, max: u32) -> Value {
    query(
        "limit",
        json!({"type": "integer", "minimum": 1, "default": default}),
        &format!(
            "Page size, default {default}. Above {max} it is capped at {max}; 0, negative or \
             non-numeric values are 400 VALIDATION_ERROR."
        ),
        false,
    )
}

fn cursor() -> Value {
    query(
        "cursor",
        string(),
        "`next_cursor` of the previous page. Bound to the operation and its filters, valid \
         15 minutes; otherwise 400 INVALID_CURSOR.",
        false,
    )
}

fn platform(allowed: &[&str], description: &str) -> Value {
    query("platform", one_of(allowed), description, false)
}

fn error_response(description: &str) -> Value {
    json!({
        "description": description,
        "content": {"application/json": {"schema": reference("Error")}},
    })
}

fn rate_headers() -> Value {
    json!({
        "X-RateLimit-Limit": {"description": "Requests allowed per minute for this key.", "schema": {"type": "integer"}},
        "X-RateLimit-Remaining": {"description": "Requests left in the current window.", "schema": {"type": "integer"}},
        "X-RateLimit-Reset": {"description": "Seconds until a request is allowed again.", "schema": {"type": "integer"}},
    })
}

/// One GET operation; `statuses` are the error statuses it can answer
/// besides 401, 429, 500 and 503 (which every operation can).
fn operation(
    id: &str,
    tag: &str,
    summary: &str,
    description: &str,
    parameters: Vec<Value>,
    response: &str,
    statuses: &[u16],
) -> Value {
    let mut responses = Map::new();
    responses.insert(
        "200".into(),
        json!({
            "description": "Success.",
            "headers": rate_headers(),
            "content": {"application/json": {"schema": reference(response)}},
        }),
    );
    for status in statuses {
        let description = match status {
            400 => "VALIDATION_ERROR (a parameter failed a check) or INVALID_CURSOR.",
            404 => "NOT_FOUND: unknown id.",
            _ => "Error.",
        };
        responses.insert(status.to_string(), error_response(description));
    }
    responses.insert(
        "401".into(),
        error_response("INVALID_API_KEY: missing or unknown X-API-Key."),
    );
    let mut limited = error_response("RATE_LIMITED: over the key's requests per minute.");
    let mut headers = rate_headers();
    headers["Retry-After"] =
        json!({"description": "Seconds to wait.", "schema": {"type": "integer"}});
    limited["headers"] = headers;
    responses.insert("429".into(), limited);
    responses.insert(
        "500".into(),
        error_response("INTERNAL_ERROR (also injected with --fault-5xx)."),
    );
    responses.insert(
        "503".into(),
        error_response("PLATFORM_UNAVAILABLE: the platform queried alone is down."),
    );
    json!({
        "get": {
            "operationId": id,
            "tags": [tag],
            "summary": summary,
            "description": description,
            "parameters": parameters,
            "responses": responses,
        }
    })
}

fn leagues() -> Vec<&'static str> {
    LEAGUES.iter().map(|l| l.id).collect()
}

fn paths() -> Value {
    let raw = flag(
        "include_raw",
        "true: the platform's own record under metadata._raw of each market.",
    );
    let sort_names: Vec<&str> = MarketSort::ALL.iter().map(|s| s.as_str()).collect();
    let odds_format = query(
        "odds_format",
        one_of(OddsFormat::KNOWN),
        "Send only this notation of the odds (probability: implied_probability).",
        false,
    );
    let sports_platform = platform(&SPORTS, "Only this platform's market.");
    let league_required = query("league", one_of(&leagues()), "League label.", true);
    json!({
        "/series": operation("listSeries", "series", "List series",
            "Series of platform_a and platform_b. With `query`, search mode.",
            vec![
                limit(events::DEFAULT_LIMIT, SERIES_MAX_LIMIT),
                cursor(),
                platform(&EVENTS, "One platform."),
                query("query", string(), "Search mode: words in the series' text or its events' titles.", false),
                raw.clone(),
                flag("include_nested", "true: nest the series' events (default false)."),
            ], "SeriesResponse", &[400]),
        "/series/{id}": operation("getSeries", "series", "One series",
            "The series in the list envelope (one item).",
            vec![
                path("id", "Series id."),
                platform(&EVENTS, "Must be the series' platform, else 404."),
                raw.clone(),
                flag("include_nested", "true: nest its events."),
            ], "SeriesResponse", &[400, 404]),
        "/markets": operation("listMarkets", "markets", "List markets",
            "Markets of platform_a to platform_e; MVE markets of platform_b are excluded.",
            vec![
                limit(markets::DEFAULT_LIMIT, MARKETS_MAX_LIMIT),
                cursor(),
                platform(&MARKETS, "One platform; a list is 400."),
                query("status", one_of(MarketStatus::KNOWN), "Market status (data has open, closed, resolved).", false),
                query("query", string(), "Words that must all occur in the title.", false),
                query("category", string(), "Category, any case (e.g. Politics, Crypto).", false),
                query("event_id", string(), "Markets of this event.", false),
                query("series_id", string(), "Markets of this series.", false),
                query("sort", one_of(&sort_names), "Sort key; default volume_24h.", false),
                query("order", one_of(SortOrder::KNOWN), "Default desc.", false),
                raw.clone(),
            ], "MarketsResponse", &[400]),
        "/markets/{id}": operation("getMarket", "markets", "One market",
            "The market in the list envelope (one item).",
            vec![
                path("id", "Market id (its format tells its platform)."),
                platform(&MARKETS, "Must be the market's platform, else 404."),
                raw.clone(),
            ], "MarketsResponse", &[400, 404]),
        "/markets/{id}/orderbook": operation("getOrderbook", "markets", "Orderbook of a market",
            "Never crossed; best yes bid/ask equal the market's bestBid/bestAsk.",
            vec![
                path("id", "Market id."),
                platform(&ORDERBOOK, "Default: detected from the id's format."),
                flag("include_raw", "true: the platform's raw book under metadata._raw."),
            ], "OrderbookResponse", &[400, 404]),
        "/events": operation("listEvents", "events", "List events",
            "Events of platform_a and platform_b.",
            vec![
                limit(events::DEFAULT_LIMIT, EVENTS_MAX_LIMIT),
                cursor(),
                platform(&EVENTS, "One platform."),
                query("query", string(), "Words that must all occur in the title.", false),
                query("series_id", string(), "Events of this series.", false),
                raw.clone(),
                flag("include_nested", "true: nest each event's markets."),
            ], "EventsResponse", &[400]),
        "/events/{id}": operation("getEvent", "events", "One event",
            "The event in the list envelope (one item).",
            vec![
                path("id", "Event id."),
                platform(&EVENTS, "Must be the event's platform, else 404."),
                raw.clone(),
                flag("include_nested", "true: nest its markets."),
            ], "EventsResponse", &[400, 404]),
        "/trades": operation("listTrades", "markets", "Trades of a market",
            &format!("Newest first; markets of {}.", TRADES.join(", ")),
            vec![
                query("market_id", string(), "Market id.", true),
                limit(trades::DEFAULT_TRADES_LIMIT, TRADES_MAX_LIMIT),
                cursor(),
                flag("takerOnly", "true: taker trades only (platform_a; ignored elsewhere)."),
            ], "TradesResponse", &[400, 404]),
        "/price-history": operation("getPriceHistory", "markets", "Price history",
            &format!("Bars of markets of {}.", HISTORY.join(", ")),
            vec![
                query("market_ids", string(), &format!("Comma-separated market ids, at most {PRICE_HISTORY_MAX_MARKETS}."), true),
                query("start_ts", json!({"type": "integer", "minimum": 0}), "Unix seconds.", false),
                query("end_ts", json!({"type": "integer", "minimum": 0}), "Unix seconds; default now.", false),
                query("interval", one_of(PriceInterval::KNOWN), "Default 1h.", false),
                limit(trades::DEFAULT_HISTORY_LIMIT, PRICE_HISTORY_MAX_LIMIT),
            ], "PriceHistoryResponse", &[400, 404]),
        "/profile/info": operation("getProfileInfo", "profiles", "User profile",
            "Profile and trading metrics of a user.",
            vec![
                query("platform", one_of(&PROFILES), "Required.", true),
                query("user", json!({"type": "string", "minLength": 1, "maxLength": PROFILE_USER_MAX_CHARS}), "User id or display name.", true),
                flag("include_metrics", "Default true."),
            ], "ProfileInfoResponse", &[400, 404]),
        "/profile/trades": operation("listProfileTrades", "profiles", "Trades of a user",
            "Newest first.",
            vec![
                query("platform", one_of(&PROFILES), "Required.", true),
                query("user", json!({"type": "string", "minLength": 1, "maxLength": PROFILE_USER_MAX_CHARS}), "User id or display name.", true),
                limit(profiles::DEFAULT_TRADES_LIMIT, PROFILE_TRADES_MAX_LIMIT),
                cursor(),
            ], "ProfileTradesResponse", &[400, 404]),
        "/platforms": operation("listPlatforms", "platforms", "Platform directory",
            "The eight platforms with health and features.",
            vec![], "PlatformsResponse", &[]),
        "/league-info": operation("getLeagueInfo", "sports", "League information",
            "One league, or (without `league`) an array of all four.",
            vec![
                query("league", one_of(&leagues()), "League label; absent: all.", false),
                flag("include_teams", "true: include the teams."),
            ], "LeagueInfoResponse", &[400]),
        "/list-games": operation("listGames", "sports", "Games of a league",
            "By scheduled time.",
            vec![
                league_required.clone(),
                query("status", one_of(GameStatus::KNOWN), "Game status.", false),
                query("from", json!({"type": "string", "format": "date"}), "First local day, YYYY-MM-DD.", false),
                query("to", json!({"type": "string", "format": "date"}), "Last local day, YYYY-MM-DD.", false),
                limit(sports::DEFAULT_LIMIT, LIST_MAX_LIMIT),
                cursor(),
            ], "ListGamesResponse", &[400]),
        "/games/{game_id}": operation("getGame", "sports", "A game with its markets",
            "Moneyline, spread and total markets of each sports platform.",
            vec![
                path("game_id", "{Away}v{Home}{YYYYMMDD}@{LEAGUE} or without @{LEAGUE}."),
                sports_platform.clone(),
            ], "GameResponse", &[400, 404]),
        "/list-futures": operation("listFutures", "sports", "Futures of a league",
            "Offset pagination.",
            vec![
                league_required.clone(),
                query("future_type", one_of(FutureType::KNOWN), "Kind of future.", false),
                query("season", json!({"type": "integer", "minimum": 1900, "maximum": 2200}), "Season year.", false),
                limit(sports::DEFAULT_LIMIT, LIST_MAX_LIMIT),
                query("offset", json!({"type": "integer", "minimum": 0}), "Items to skip.", false),
                sports_platform.clone(),
                odds_format.clone(),
            ], "ListFuturesResponse", &[400]),
        "/futures/{id}": operation("getFuture", "sports", "A future with odds per platform",
            "Odds agree across notations and differ between platforms.",
            vec![path("id", "<league>_<name>_<season>"), sports_platform.clone(), odds_format.clone()],
            "FutureResponse", &[400, 404]),
        "/list-awards": operation("listAwards", "sports", "Awards of a league",
            "Offset pagination.",
            vec![
                league_required,
                query("award_type", one_of(AwardType::KNOWN), "Kind of award.", false),
                query("season", json!({"type": "integer", "minimum": 1900, "maximum": 2200}), "Season year.", false),
                limit(sports::DEFAULT_LIMIT, LIST_MAX_LIMIT),
                query("offset", json!({"type": "integer", "minimum": 0}), "Items to skip.", false),
                sports_platform.clone(),
                odds_format.clone(),
            ], "ListAwardsResponse", &[400]),
        "/awards/{id}": operation("getAward", "sports", "An award with odds per platform",
            "Candidates with odds of each platform.",
            vec![path("id", "<league>_<award_type>_<season>"), sports_platform, odds_format],
            "AwardResponse", &[400, 404]),
    })
}

pub fn document() -> Value {
    let mut description = String::from(
        "The prediction-market aggregation service of service.md, served by the reference \
         server on deterministic generated data. Every operation is a GET that needs the \
         X-API-Key header. Where service.md is silent:\n",
    );
    for (topic, choice) in CHOICES {
        description.push_str(&format!("\n- **{topic}**: {choice}"));
    }
    let choices: Map<String, Value> = CHOICES
        .iter()
        .map(|(k, v)| ((*k).to_owned(), Value::from(*v)))
        .collect();
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "predmarket service (reference server)",
            "version": "2.0.0",
            "description": description,
        },
        "servers": [{"url": "/"}],
        "security": [{"ApiKey": []}],
        "tags": [
            {"name": "markets"}, {"name": "events"}, {"name": "series"},
            {"name": "profiles"}, {"name": "platforms"}, {"name": "sports"},
        ],
        "paths": paths(),
        "components": {
            "securitySchemes": {
                "ApiKey": {"type": "apiKey", "in": "header", "name": "X-API-Key"},
            },
            "schemas": schemas(),
        },
        "x-where-the-spec-is-silent": choices,
    })
}
