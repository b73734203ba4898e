//! The response schemas, still written by hand: the core's models do not
//! derive `schemars::JsonSchema` yet. Each entry of [`schemas`] is one
//! response shape or model and is meant to become
//! `schema_for!(predmarket_core::models::<Name>)` once they do; nothing
//! outside this module writes a model schema. The conformance test
//! (`tests/openapi.rs`) validates real answers against these, with every
//! object closed, so a field missing here fails it.

use serde_json::{Map, Value, json};

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
pub(super) fn reference(name: &str) -> Value {
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

pub(super) fn schemas() -> Value {
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
