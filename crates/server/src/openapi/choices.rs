//! Prose: what this server does where service.md is silent, in
//! `info.description` and `x-where-the-spec-is-silent`.

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
        "GET /events filters: platform (platform_a, platform_b), query, series_id, category (any case). \
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
         unknown one 404. Its `data` is the game with its `markets`, as the public service \
         (2.0.0) sends them: one entry per platform event `{platform, event_id, event_name, \
         event_slug, outcomes, metadata: {volume, volume_24h, market_count}}` on each sports \
         platform (platform_a, platform_b, platform_f, platform_g, platform_h); each outcome \
         `{outcome_id, platform_id, name, team_service_id, price, volume, liquidity, status, \
         order_book: {yes, no}, metadata: {market_type, line}}` with moneyline, spread and \
         total sides, order-book levels `{price, qty, status, side, timestamp}`.",
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
