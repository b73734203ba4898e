//! The OpenAPI 3.1 document at `/openapi.json`: every operation, parameter,
//! response and error as this server serves them, and the choices made
//! where service.md is silent (in `info.description` and
//! `x-where-the-spec-is-silent`).
//!
//! The parameters are derived from the core's request types
//! (`parameters.rs`), the responses from its models (`responses.rs`);
//! `choices.rs` is the prose. This module is the wiring: one `entry` per
//! operation.

mod choices;
mod parameters;
mod responses;

pub use choices::CHOICES;

use crate::data::names::Names;
use crate::data::{Dataset, MarketSort};
use crate::routes::{events, markets, profiles, sports, trades};
use crate::state::SharedState;
use axum::extract::State;
use axum::response::Response;
use parameters::{Served, parameters};
use predmarket_core::capabilities::Capability;
use predmarket_core::change::WatchKind;
use predmarket_core::live;
use predmarket_core::request::*;
use responses::Schemas;
use schemars::JsonSchema;
use serde_json::{Map, Value, json};

pub async fn serve(State(state): State<SharedState>) -> Response {
    respond(&state, false)
}

/// The document of a server that records (`--record`): with `x-history`,
/// so a reader learns that `GET /history` is served before asking it.
pub async fn serve_recording(State(state): State<SharedState>) -> Response {
    respond(&state, true)
}

fn respond(state: &SharedState, history: bool) -> Response {
    let bytes = state.openapi.get_or_init(|| {
        let mut doc = document();
        if history {
            crate::record::history::describe_in(&mut doc);
        }
        add_examples(&mut doc, &state.data);
        rename_ids(&mut doc, state.data.options.names);
        serde_json::to_vec(&doc).unwrap_or_default()
    });
    crate::routes::respond::bytes_response(bytes.clone())
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
    let examples: [(Operation, &str, Option<String>); 12] = [
        (
            Operation::GetSeries,
            "id",
            catalog.series.first().map(|s| s.id.to_string()),
        ),
        (Operation::GetMarket, "id", market.clone()),
        (Operation::GetOrderbook, "id", market.clone()),
        (
            Operation::GetEvent,
            "id",
            catalog.events.first().map(|e| e.id.to_string()),
        ),
        (Operation::ListTrades, "market_id", market.clone()),
        (Operation::GetPriceHistory, "market_ids", market),
        (Operation::GetProfileInfo, "user", user.clone()),
        (Operation::ListProfileTrades, "user", user),
        (
            Operation::GetGame,
            "game_id",
            data.sports.games.first().map(|g| g.model.id.clone()),
        ),
        (
            Operation::GetFuture,
            "id",
            data.sports.futures.first().map(|f| f.model.id.clone()),
        ),
        (
            Operation::GetAward,
            "id",
            data.sports.awards.first().map(|a| a.model.id.clone()),
        ),
        (
            Operation::GetProfileInfo,
            "platform",
            Some("platform_a".to_owned()),
        ),
    ];
    for (op, name, example) in examples {
        let Some(example) = example else { continue };
        let Some(parameters) = doc["paths"][op.path()]["get"]["parameters"].as_array_mut() else {
            continue;
        };
        for parameter in parameters {
            if parameter["name"] == name {
                parameter["example"] = Value::from(example.clone());
            }
        }
    }
}
fn error_response(schemas: &mut Schemas, description: &str) -> Value {
    json!({
        "description": description,
        "content": {"application/json": {"schema": schemas.error()}},
    })
}

fn rate_headers() -> Value {
    json!({
        "X-RateLimit-Limit": {"description": "Requests allowed per minute for this key.", "schema": {"type": "integer"}},
        "X-RateLimit-Remaining": {"description": "Requests left in the current window.", "schema": {"type": "integer"}},
        "X-RateLimit-Reset": {"description": "Seconds until a request is allowed again.", "schema": {"type": "integer"}},
    })
}

/// The prose and the answer of one operation.
struct Doc<'a> {
    tag: &'a str,
    summary: &'a str,
    description: &'a str,
    /// The error statuses it can answer besides 401, 429, 500 and 503
    /// (which every operation can).
    statuses: &'a [u16],
}

/// The path item of operation `R`: its path, id and parameters from the
/// core's declaration, its answer from the core's model of it, the rest
/// from `doc`.
fn entry<R>(paths: &mut Map<String, Value>, schemas: &mut Schemas, doc: Doc<'_>, served: Served)
where
    R: Request + JsonSchema,
    R::Response: JsonSchema,
{
    let Doc {
        tag,
        summary,
        description,
        statuses,
    } = doc;
    let id = R::OPERATION;
    let parameters = parameters::<R>(&served);
    let mut responses = Map::new();
    responses.insert(
        "200".into(),
        json!({
            "description": "Success.",
            "headers": rate_headers(),
            "content": {"application/json": {"schema": schemas.of::<R::Response>()}},
        }),
    );
    for status in statuses {
        let description = match status {
            400 => "VALIDATION_ERROR (a parameter failed a check) or INVALID_CURSOR.",
            404 => "NOT_FOUND: unknown id.",
            _ => "Error.",
        };
        responses.insert(status.to_string(), error_response(schemas, description));
    }
    responses.insert(
        "401".into(),
        error_response(schemas, "INVALID_API_KEY: missing or unknown X-API-Key."),
    );
    let mut limited = error_response(schemas, "RATE_LIMITED: over the key's requests per minute.");
    let mut headers = rate_headers();
    headers["Retry-After"] =
        json!({"description": "Seconds to wait.", "schema": {"type": "integer"}});
    limited["headers"] = headers;
    responses.insert("429".into(), limited);
    responses.insert(
        "500".into(),
        error_response(schemas, "INTERNAL_ERROR (also injected with --fault-5xx)."),
    );
    responses.insert(
        "503".into(),
        error_response(
            schemas,
            "PLATFORM_UNAVAILABLE: the platform queried alone is down.",
        ),
    );
    let item = json!({
        "get": {
            "operationId": id,
            "tags": [tag],
            "summary": summary,
            "description": description,
            "parameters": parameters,
            "responses": responses,
        }
    });
    paths.insert(R::PATH.to_owned(), item);
}

/// Every operation, in the core table's order.
fn paths(schemas: &mut Schemas) -> Value {
    let mut paths = Map::new();
    for &op in Operation::ALL {
        add(op, &mut paths, schemas);
    }
    Value::Object(paths)
}

fn list(capability: Option<Capability>, default_limit: u32) -> Served {
    Served {
        capability,
        default_limit: Some(default_limit),
    }
}

fn one(capability: Capability) -> Served {
    Served {
        capability: Some(capability),
        default_limit: None,
    }
}

fn doc<'a>(tag: &'a str, summary: &'a str, description: &'a str, statuses: &'a [u16]) -> Doc<'a> {
    Doc {
        tag,
        summary,
        description,
        statuses,
    }
}

/// The entry of one operation: its prose and what this server serves of
/// it. Parameters come from the request types, answers from their models
/// (registered in `schemas`). A table entry without one does not compile.
fn add(op: Operation, p: &mut Map<String, Value>, s: &mut Schemas) {
    use Capability::*;
    match op {
        Operation::ListSeries => entry::<ListSeries>(
            p,
            s,
            doc(
                "series",
                "List series",
                "Series of platform_a and platform_b. With `query`, search mode: words in the series' text or its events' titles.",
                &[400],
            ),
            list(Some(Events), events::DEFAULT_LIMIT),
        ),
        Operation::GetSeries => entry::<GetSeries>(
            p,
            s,
            doc(
                "series",
                "One series",
                "The series in the list envelope (one item); a `platform` other than the series' own is 404.",
                &[400, 404],
            ),
            one(Events),
        ),
        Operation::ListMarkets => entry::<ListMarkets>(
            p,
            s,
            doc(
                "markets",
                "List markets",
                "Markets of platform_a to platform_e; MVE markets of platform_b are excluded.",
                &[400],
            ),
            list(Some(Markets), markets::DEFAULT_LIMIT),
        ),
        Operation::GetMarket => entry::<GetMarket>(
            p,
            s,
            doc(
                "markets",
                "One market",
                "The market in the list envelope (one item); a `platform` other than the market's own is 404.",
                &[400, 404],
            ),
            one(Markets),
        ),
        Operation::GetOrderbook => entry::<GetOrderbook>(
            p,
            s,
            doc(
                "markets",
                "Orderbook of a market",
                "Never crossed; best yes bid/ask equal the market's bestBid/bestAsk. Without `platform` it is detected from the id's format.",
                &[400, 404],
            ),
            one(Orderbook),
        ),
        Operation::ListEvents => entry::<ListEvents>(
            p,
            s,
            doc(
                "events",
                "List events",
                "Events of platform_a and platform_b.",
                &[400],
            ),
            list(Some(Events), events::DEFAULT_LIMIT),
        ),
        Operation::GetEvent => entry::<GetEvent>(
            p,
            s,
            doc(
                "events",
                "One event",
                "The event in the list envelope (one item).",
                &[400, 404],
            ),
            one(Events),
        ),
        Operation::ListTrades => entry::<ListTrades>(
            p,
            s,
            doc(
                "markets",
                "Trades of a market",
                "Newest first; markets of platform_a and platform_b. `takerOnly` applies on platform_a and is ignored elsewhere.",
                &[400, 404],
            ),
            list(None, trades::DEFAULT_TRADES_LIMIT),
        ),
        Operation::GetPriceHistory => entry::<GetPriceHistory>(
            p,
            s,
            doc(
                "markets",
                "Price history",
                "Bars of markets of platform_a, platform_b and platform_c; interval default 1h; end_ts default now.",
                &[400, 404],
            ),
            list(None, trades::DEFAULT_HISTORY_LIMIT),
        ),
        Operation::GetProfileInfo => entry::<GetProfileInfo>(
            p,
            s,
            doc(
                "profiles",
                "User profile",
                "Profile and trading metrics of a user (user id or display name); include_metrics default true.",
                &[400, 404],
            ),
            one(Profiles),
        ),
        Operation::ListProfileTrades => entry::<ListProfileTrades>(
            p,
            s,
            doc("profiles", "Trades of a user", "Newest first.", &[400, 404]),
            Served {
                capability: Some(Profiles),
                default_limit: Some(profiles::DEFAULT_TRADES_LIMIT),
            },
        ),
        Operation::ListPlatforms => entry::<ListPlatforms>(
            p,
            s,
            doc(
                "platforms",
                "Platform directory",
                "The eight platforms with health and features.",
                &[],
            ),
            Served::default(),
        ),
        Operation::GetLeagueInfo => entry::<GetLeagueInfo>(
            p,
            s,
            doc(
                "sports",
                "League information",
                "One league, or (without `league`) an array of all four.",
                &[400],
            ),
            Served::default(),
        ),
        Operation::ListGames => entry::<ListGames>(
            p,
            s,
            doc(
                "sports",
                "Games of a league",
                "By scheduled time; `from` and `to` are the game's local day.",
                &[400],
            ),
            list(None, sports::DEFAULT_LIMIT),
        ),
        Operation::GetGame => entry::<GetGame>(
            p,
            s,
            doc(
                "sports",
                "A game with its markets",
                "Moneyline, spread and total markets of each sports platform.",
                &[400, 404],
            ),
            one(Sports),
        ),
        Operation::ListFutures => entry::<ListFutures>(
            p,
            s,
            doc(
                "sports",
                "Futures of a league",
                "Offset pagination.",
                &[400],
            ),
            list(Some(Sports), sports::DEFAULT_LIMIT),
        ),
        Operation::GetFuture => entry::<GetFuture>(
            p,
            s,
            doc(
                "sports",
                "A future with odds per platform",
                "Odds agree across notations and differ between platforms.",
                &[400, 404],
            ),
            one(Sports),
        ),
        Operation::ListAwards => entry::<ListAwards>(
            p,
            s,
            doc("sports", "Awards of a league", "Offset pagination.", &[400]),
            list(Some(Sports), sports::DEFAULT_LIMIT),
        ),
        Operation::GetAward => entry::<GetAward>(
            p,
            s,
            doc(
                "sports",
                "An award with odds per platform",
                "Candidates with odds of each platform.",
                &[400, 404],
            ),
            one(Sports),
        ),
    }
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
    let mut schemas = Schemas::new();
    let paths = paths(&mut schemas);
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
        "paths": paths,
        "components": {
            "securitySchemes": {
                "ApiKey": {"type": "apiKey", "in": "header", "name": "X-API-Key"},
            },
            "schemas": schemas.components(),
        },
        "x-where-the-spec-is-silent": choices,
        "x-streams": streams(),
    })
}

/// What each event of `GET /stream` carries (the contract's kinds, each
/// described once: a kind added to the core fails to compile here).
fn event_description(kind: live::Kind) -> String {
    use live::Kind;
    let server_reasons: Vec<String> = live::StaleReason::ALL
        .into_iter()
        .filter(|r| r.from_server())
        .map(|r| format!("`{}`", r.name()))
        .collect();
    let stretched = live::StaleReason::IntervalStretched.name();
    match kind {
        Kind::Snapshot => "`data`: the resource's answer whole".into(),
        Kind::Change => "`changes` (a book's levels new, resized or gone: `book`, `side`, `price`, `from`, `to`; other resources' values by `path`, `from`, `to`) and `data`, the new answer whole".into(),
        Kind::Stale => format!(
            "`reason` ({}), the data's `age_ms`, `interval_ms` and `wanted_ms`; `status`, `code`, `message` of a failed poll (`code: {}` when another replica took over the polls, `code: {}` when an answer is larger than replicas share). `{stretched}`: the budget lengthened the interval and the data is now older than wanted (`wanted_ms` and the patience a late poll gets); told once per poll, `{}` follows the next answer",
            server_reasons.join(", "),
            live::FAILOVER_CODE,
            live::TOO_LARGE_CODE,
            Kind::Live.name(),
        ),
        Kind::Live => format!(
            "fresh data again: the next answer after a `{}`, also of a resource whose interval is stretched",
            Kind::Stale.name()
        ),
        Kind::Resync => format!(
            "the position sent is too old or of another run, or the numbering started again (with `--redis`, while Redis fails each replica numbers on its own, and once it answers they share one numbering again): a `{}` follows, at once or with the next answer",
            Kind::Snapshot.name()
        ),
        Kind::Error => format!(
            "`status`, `code`, `message`: the upstream refused the resource (its own typed 4xx, which ends a watch). It is polled again with backoff, and a `{}` follows if it appears; a viewer who comes later than the proxy keeps a refusal is not told it",
            Kind::Snapshot.name()
        ),
    }
}

/// `GET /stream`, described beside the operations rather than among them:
/// its answer never ends, so tools that call every documented path
/// (schemathesis, conformance tests) would wait on it forever. Same shape as
/// a path item, so a reader can lift it into `paths`. Its vocabulary is the
/// core's (`predmarket_core::live`), not restated.
fn streams() -> Value {
    use live::Kind;
    let names = |kinds: &[Kind]| {
        kinds
            .iter()
            .map(|k| format!("`{}`", k.name()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let watch_kinds: Vec<&str> = WatchKind::ALL.iter().map(|k| k.name()).collect();
    let id_example = live::render_id(&[
        live::Position {
            epoch: 0x1f,
            seq: 12,
        },
        live::Position { epoch: 0x7, seq: 3 },
    ]);
    let description = format!(
        "One poller per resource serves every viewer. Per resource: `{}` first, then {}; \
         each event's JSON has `resource`, `seq`, and (but for `{}` and `{}`) `as_of`, \
         `age_ms`, `polled_ms` and `stale_after_ms`. The stream's `id:` is its position in \
         every resource, `EPOCH:SEQ` per resource in the order watched (epoch in hex: \
         `{id_example}`); send it back as `{}` to get what was missed. A comment \
         line arrives every few seconds. The key is the X-API-Key header, so read it with \
         fetch, not EventSource.",
        Kind::Snapshot.name(),
        names(&Kind::ALL[1..]),
        Kind::Error.name(),
        Kind::Resync.name(),
        live::LAST_EVENT_ID_HEADER,
    );
    let events: Vec<Value> = Kind::ALL
        .into_iter()
        .map(|kind| json!({ "event": kind.name(), "description": event_description(kind) }))
        .collect();
    let mut content = serde_json::Map::new();
    content.insert(
        live::MEDIA_TYPE.to_owned(),
        json!({ "schema": { "type": "string" } }),
    );
    let mut paths = serde_json::Map::new();
    paths.insert(
        live::PATH.to_owned(),
        json!({
            "get": {
                "operationId": "stream",
                "summary": "Live events of the watched resources (Server-Sent Events)",
                "description": description,
                "parameters": [
                    {
                        "name": live::WATCH_PARAM,
                        "in": "query",
                        "required": true,
                        "description": format!(
                            "KIND:ID, repeated (kinds: {}); at most --stream-max-resources of them ({} by default)",
                            watch_kinds.join(", "),
                            live::MAX_RESOURCES
                        ),
                        "schema": { "type": "array", "items": { "type": "string", "pattern": format!("^({}):.+$", watch_kinds.join("|")) } },
                        "style": "form",
                        "explode": true,
                    },
                    {
                        "name": live::LAST_EVENT_ID_HEADER,
                        "in": "header",
                        "required": false,
                        "description": "The id of the last event read, to resume",
                        "schema": { "type": "string" },
                    },
                ],
                "responses": {
                    "200": {
                        "description": "The events, until the client goes",
                        "content": content,
                        "x-events": events,
                    },
                    "400": { "description": "No watch, a malformed one, or too many (VALIDATION_ERROR)" },
                    "401": { "description": "No or an unknown API key" },
                    "429": { "description": "As many streams open from this address as it may have, or the key's budget spent (opening a stream is one request)" },
                    "503": { "description": "The server has as many streams or watched resources as it serves" },
                },
            },
        }),
    );
    Value::Object(paths)
}
