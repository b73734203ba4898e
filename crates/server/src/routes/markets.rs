//! `GET /markets`, `GET /markets/{id}`, `GET /markets/{id}/orderbook`.

use super::paging::{Window, list_meta, list_meta_json, single_page, split_down, unavailable};
use super::respond::{Page, bytes_response, json, kept_middle, list_body, parts_response, text};
use crate::access_log::Started;
use crate::cursor::Scope;
use crate::data::catalog::{MarketRow, State as MarketState};
use crate::data::platforms::{self, MARKETS};
use crate::data::prices::{self, Level};
use crate::data::time::iso8601;
use crate::data::{Dataset, MarketSort};
use crate::encoding::Kept;
use crate::error::ApiError;
use crate::query::{Query, known, platform as one_platform, platforms as with_capability};
use crate::state::SharedState;
use axum::extract::State;
use axum::response::Response;
use predmarket_core::capabilities::Capability;
use predmarket_core::models::PlatformError;
use predmarket_core::models::{
    Market, MarketStatus, Orderbook, OrderbookMetadata, OrderbookResponse, OrderbookSide,
    PlatformId, PriceLevel, RequestMeta, SortOrder,
};
use predmarket_core::request::{GetMarket, GetOrderbook, ListMarkets, Operation};
use serde_json::{Value, json};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

pub const DEFAULT_LIMIT: u32 = 25;

/// The filters of a market listing, as parsed.
struct Filter {
    platform: Option<u8>,
    state: Option<MarketState>,
    /// A status the data has no market in (e.g. `suspended`): nothing matches.
    status_without_markets: bool,
    words: Words,
    category: Option<String>,
    event: Option<Option<u32>>,
    series: Option<Option<u32>>,
    /// Platforms that are down (`--fail-platform`): their markets are left out.
    down: Vec<u8>,
}

impl Filter {
    fn is_simple(&self) -> bool {
        self.words.is_empty()
            && self.category.is_none()
            && self.event.is_none()
            && self.series.is_none()
            && self.down.is_empty()
            && !self.status_without_markets
    }

    /// Every filter but the query words (which the title index applies).
    fn matches(&self, row: &MarketRow) -> bool {
        if self.status_without_markets || row.mve {
            return false;
        }
        if self.platform.is_some_and(|p| p != row.platform)
            || self.state.is_some_and(|s| s != row.state)
            || self.down.contains(&row.platform)
        {
            return false;
        }
        if let Some(event) = self.event
            && (row.event != event || event.is_none())
        {
            return false;
        }
        if let Some(series) = self.series
            && (row.series != series || series.is_none())
        {
            return false;
        }
        if let Some(category) = &self.category
            && !row.category.eq_ignore_ascii_case(category)
        {
            return false;
        }
        true
    }
}

pub use crate::data::search::Words;

/// Lower-case words of a search query.
pub fn words(query: Option<&str>) -> Words {
    Words::parse(query)
}

/// The markets of a page and the number of all that match.
fn select(
    data: &Dataset,
    filter: &Filter,
    sort: MarketSort,
    ascending: bool,
    window: &Window,
) -> (usize, Vec<u32>) {
    let order = data.market_order(sort);
    let limit = window.limit as usize;
    let walk = |f: &mut dyn FnMut(u32) -> bool| {
        if ascending {
            for &i in order.iter().rev() {
                if !f(i) {
                    break;
                }
            }
        } else {
            for &i in order {
                if !f(i) {
                    break;
                }
            }
        }
    };
    let mut page = Vec::with_capacity(limit);
    // Deep pages of a filtered list are cheaper by rank (below) than by
    // walking the sort order from its start.
    let shallow = window.offset < 5_000 || (filter.platform.is_none() && filter.state.is_none());
    if filter.is_simple() && shallow {
        // Counts are kept per platform and state, so a page only walks as
        // far as its own end.
        let total = data.market_count(filter.platform, filter.state) as usize;
        if filter.platform.is_none() && filter.state.is_none() {
            let end = window.end().min(order.len());
            let start = window.offset.min(end);
            page = if ascending {
                order
                    .iter()
                    .rev()
                    .skip(start)
                    .take(end - start)
                    .copied()
                    .collect()
            } else {
                order[start..end].to_vec()
            };
            return (total, page);
        }
        let mut seen = 0usize;
        walk(&mut |i| {
            if filter.matches(&data.catalog.markets[i as usize]) {
                if seen >= window.offset {
                    page.push(i);
                }
                seen += 1;
            }
            page.len() < limit
        });
        return (total, page);
    }
    // Any other filter: collect the matches in storage order (a sequential
    // scan, or only the candidates an event or the title index names), then
    // order them by their rank in the sort.
    let markets = &data.catalog.markets;
    let candidates: Vec<u32> = match filter.event {
        Some(Some(e)) => data.catalog.events[e as usize].markets.clone().collect(),
        Some(None) => Vec::new(),
        None if !filter.words.is_empty() => data.markets_titled(&filter.words),
        None => (0..markets.len() as u32).collect(),
    };
    let mut matches: Vec<u32> = candidates
        .into_iter()
        .filter(|&i| filter.matches(&markets[i as usize]))
        .collect();
    let total = matches.len();
    let rank = data.market_ranks(sort);
    let key = |i: &u32| {
        let r = rank[*i as usize];
        if ascending { u32::MAX - r } else { r }
    };
    let end = window.end().min(total);
    if end < total {
        matches.select_nth_unstable_by_key(end, key);
        matches.truncate(end);
    }
    matches.sort_unstable_by_key(key);
    let page = matches
        .get(window.offset.min(end)..)
        .unwrap_or_default()
        .to_vec();
    (total, page)
}

pub async fn list(
    State(state): State<SharedState>,
    started: Started,
    Query(r): Query<ListMarkets>,
) -> Result<Response, ApiError> {
    list_answer(&state, &started, &r)
}

/// The answer of `list`, made at once (no step awaits): the handler's, and
/// the front service's for a page of markets (`routes::kept`).
pub fn list_answer(
    state: &SharedState,
    started: &Started,
    r: &ListMarkets,
) -> Result<Response, ApiError> {
    let page = list_page(state, r)?;
    let meta = list_meta_json(state, started, page.queried(), &page.errors);
    Ok(parts_response(&page.kept, &page.pagination, &meta))
}

/// A page of markets, but for its `meta.request_time`: the pagination
/// (its cursor issued in the current second), the kept middle, and what
/// the meta says.
pub struct MarketsPage {
    pub pagination: String,
    pub kept: Arc<Kept>,
    /// The one platform asked for, if any.
    platform: Option<&'static str>,
    pub errors: BTreeMap<String, PlatformError>,
}

impl MarketsPage {
    /// The platforms queried (the meta's `platforms_queried`).
    pub fn queried(&self) -> &[&'static str] {
        match &self.platform {
            Some(p) => std::slice::from_ref(p),
            None => &MARKETS,
        }
    }
}

/// What `list` would refuse of `r` (a 400 or 503), checked without
/// making the page: the front service asks it before the key's check, so
/// that a page is made only for a request that will be answered with it.
pub fn list_refusal(state: &SharedState, r: &ListMarkets) -> Result<(), ApiError> {
    list_plan(state, r).map(drop)
}

/// The page `r` asks for.
pub fn list_page(state: &SharedState, r: &ListMarkets) -> Result<MarketsPage, ApiError> {
    let plan = list_plan(state, r)?;
    let ListPlan {
        platform,
        scope,
        window,
        include_raw,
        ..
    } = &plan;
    let data = &state.data;
    let (total, page) = select(data, &plan.filter, plan.sort, plan.ascending, window);
    let pagination = window.pagination_json(state, scope, total);
    let items = || {
        page.iter()
            .map(|&i| market_json(data, &data.catalog.markets[i as usize], *include_raw))
            .collect()
    };
    let kind = Page {
        key: "markets",
        include_raw: *include_raw,
        rows: &page,
    };
    let kept = kept_middle(&state.answers, &kind, items);
    Ok(MarketsPage {
        pagination,
        kept,
        platform: *platform,
        errors: plan.errors,
    })
}

/// A request for a page of markets, read and checked.
struct ListPlan {
    platform: Option<&'static str>,
    scope: Scope,
    window: Window,
    include_raw: bool,
    filter: Filter,
    sort: MarketSort,
    ascending: bool,
    errors: BTreeMap<String, PlatformError>,
}

fn list_plan(state: &SharedState, r: &ListMarkets) -> Result<ListPlan, ApiError> {
    let platform = one_platform(state, &r.platform, Capability::Markets)?;
    let status = known("status", &r.status, MarketStatus::KNOWN)?;
    let query = crate::data::search::query(r.query.as_deref())?;
    let (category, event_id, series_id) = (&r.category, &r.event_id, &r.series_id);
    let sort_name = known("sort", &r.sort, &MarketSort::ALL.map(MarketSort::as_str))?;
    let order = known("order", &r.order, SortOrder::KNOWN)?;
    let include_raw = r.include_raw.unwrap_or(false);
    let scope = Scope::new(Operation::ListMarkets.name())
        .with("platform", platform)
        .with("status", status)
        .with("query", query)
        .with("category", category.as_deref())
        .with("event_id", event_id.as_deref())
        .with("series_id", series_id.as_deref())
        .with("sort", sort_name)
        .with("order", order);
    let window = Window::read(
        state,
        &scope,
        r.limit,
        (r.cursor.as_deref(), r.offset),
        DEFAULT_LIMIT,
    )?;
    let data = &state.data;
    let (up, errors) = if platform.is_some() {
        (Vec::new(), Default::default())
    } else {
        split_down(state, &MARKETS)
    };
    let state_filter = status.and_then(MarketState::parse);
    let filter = Filter {
        platform: platform.and_then(platforms::market_index).map(|p| p as u8),
        state: state_filter,
        status_without_markets: status.is_some() && state_filter.is_none(),
        words: words(query),
        category: category.clone(),
        event: event_id
            .as_deref()
            .map(|id| data.catalog.event_index.get(id).copied()),
        series: series_id
            .as_deref()
            .map(|id| data.catalog.series_index.get(id).copied()),
        down: MARKETS
            .iter()
            .enumerate()
            .filter(|(_, p)| platform.is_none() && !up.contains(p))
            .map(|(i, _)| i as u8)
            .collect(),
    };
    let sort = sort_name
        .and_then(MarketSort::parse)
        .unwrap_or(MarketSort::Volume24h);
    let ascending = order == Some("asc");
    Ok(ListPlan {
        platform,
        scope,
        window,
        include_raw,
        filter,
        sort,
        ascending,
        errors,
    })
}

/// The JSON of a market, with its raw platform data when asked for.
pub fn market_json<'a>(data: &Dataset, row: &'a MarketRow, include_raw: bool) -> Cow<'a, str> {
    if !include_raw {
        return Cow::Borrowed(&row.json);
    }
    match serde_json::from_str::<Market>(&row.json) {
        Ok(mut market) => {
            let raw = raw_market(data, row, &market);
            if let Some(metadata) = market.metadata.as_mut() {
                metadata.extra.insert("_raw".to_owned(), raw);
            }
            Cow::Owned(text(&market))
        }
        Err(_) => Cow::Borrowed(&row.json),
    }
}

/// What the platform itself would have sent, in its own style.
fn raw_market(data: &Dataset, row: &MarketRow, market: &Market) -> Value {
    let q = row.quote;
    let open = row.state == MarketState::Open;
    match row.platform {
        0 => {
            let tokens = market
                .metadata
                .as_ref()
                .and_then(|m| m.clob_token_ids.clone())
                .unwrap_or_default();
            json!({
                "id": row.id,
                "question": row.title,
                "conditionId": market.metadata.as_ref().and_then(|m| m.condition_id.clone()),
                "slug": market.market_slug,
                "outcomes": "[\"Yes\", \"No\"]",
                "outcomePrices": format!("[\"{}\", \"{}\"]", q.last(), prices_round(1.0 - q.last())),
                "clobTokenIds": serde_json::to_string(&tokens).unwrap_or_default(),
                "volume": format!("{:.2}", row.volume_total),
                "volume24hr": row.volume_24h,
                "liquidityNum": row.liquidity,
                "active": open,
                "closed": !open,
                "enableOrderBook": true,
                "orderPriceMinTickSize": 0.01,
                "endDate": iso8601(row.end_at),
            })
        }
        1 => json!({
            "ticker": row.id,
            "event_ticker": market.event_id,
            "title": row.title,
            "status": if open { "active" } else { "finalized" },
            "yes_bid": q.bid_c,
            "yes_ask": q.ask_c,
            "no_bid": 100 - q.ask_c,
            "no_ask": 100 - q.bid_c,
            "last_price": q.last_c,
            "volume": row.volume_total.round() as i64,
            "volume_24h": row.volume_24h.round() as i64,
            "open_interest": row.open_interest.round() as i64,
            "close_time": iso8601(row.end_at),
            "result": match row.state {
                MarketState::Resolved if q.last() >= 0.5 => "yes",
                MarketState::Resolved => "no",
                _ => "",
            },
        }),
        _ => json!({
            "id": row.id,
            "name": row.title,
            "probability": q.last(),
            "volume": row.volume_total,
            "isResolved": row.state == MarketState::Resolved,
            "closeTime": (row.end_at * 1000),
            "source": data.options.seed,
        }),
    }
}

fn prices_round(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// A served market by id, on `platform` if one is named.
fn find<'a>(
    state: &'a SharedState,
    id: &str,
    platform: Option<&str>,
) -> Result<&'a MarketRow, ApiError> {
    let row = state
        .data
        .market(id)
        .ok_or_else(|| ApiError::not_found("market", id))?;
    if platform.is_some_and(|p| p != row.platform()) {
        return Err(ApiError::not_found("market", id));
    }
    if state.faults.is_down(row.platform()) {
        return Err(unavailable(state, row.platform()));
    }
    Ok(row)
}

pub async fn get(
    State(state): State<SharedState>,
    started: Started,
    Query(r): Query<GetMarket>,
) -> Result<Response, ApiError> {
    let platform = one_platform(&state, &r.platform, Capability::Markets)?;
    let include_raw = r.include_raw.unwrap_or(false);
    let id = r.id;
    let row = find(&state, &id, platform)?;
    let meta = list_meta(&state, &started, Some(&[row.platform()]));
    let item = market_json(&state.data, row, include_raw);
    Ok(bytes_response(list_body(
        &text(&single_page()),
        "markets",
        &[item],
        &text(&meta),
    )))
}

pub async fn orderbook(
    State(state): State<SharedState>,
    started: Started,
    Query(r): Query<GetOrderbook>,
) -> Result<Response, ApiError> {
    let platform = one_platform(&state, &r.platform, Capability::Orderbook)?;
    let include_raw = r.include_raw.unwrap_or(false);
    let id = r.id;
    // Without `platform` the id's format tells it (see data::platforms).
    let platform = platform.or_else(|| platforms::detect(&id));
    let row = find(&state, &id, None)?;
    if let Some(p) = platform
        && p != row.platform()
    {
        return Err(ApiError::not_found("market", &id));
    }
    let orderbook = with_capability(Capability::Orderbook);
    if !orderbook.contains(&row.platform()) {
        let names = state.data.options.names;
        return Err(ApiError::invalid(
            "platform",
            format!(
                "orderbooks are available for {}, not {}",
                names.wires(&orderbook).join(", "),
                names.wire(row.platform())
            ),
        ));
    }
    let data = &state.data;
    let seed = row.seed(data.options.seed);
    let (yes, no) = if row.state == MarketState::Open {
        let book = prices::ladder_at(seed, row.quote, crate::data::time::now_unix());
        (
            side(&book.yes_bids, &book.yes_asks),
            side(&book.no_bids, &book.no_asks),
        )
    } else {
        (side(&[], &[]), side(&[], &[]))
    };
    let raw = include_raw.then(|| {
        let levels = |side: &OrderbookSide| {
            json!({
                "bids": side.bids.iter().map(|l| json!({"price": format!("{:.2}", l.price), "size": format!("{}", l.size)})).collect::<Vec<_>>(),
                "asks": side.asks.iter().map(|l| json!({"price": format!("{:.2}", l.price), "size": format!("{}", l.size)})).collect::<Vec<_>>(),
            })
        };
        json!({
            "market": row.id,
            "asset_id": format!("{}-yes", row.id),
            "hash": format!("{seed:016x}"),
            "yes": levels(&yes),
            "no": levels(&no),
        })
    });
    let book = Orderbook {
        market_id: Some(row.id.to_string()),
        platform: Some(PlatformId::from(data.options.names.wire(row.platform()))),
        // The sizes are those of the current tick (see `prices::ladder_at`).
        timestamp: Some(iso8601(
            crate::data::time::now_unix().div_euclid(prices::BOOK_TICK_SECS)
                * prices::BOOK_TICK_SECS,
        )),
        yes: Some(yes),
        no: Some(no),
        metadata: Some(OrderbookMetadata {
            min_order_size: Some([5.0, 1.0, 1.0, 10.0, 1.0][row.platform as usize]),
            tick_size: Some(prices::TICK),
            neg_risk: Some(false),
            raw,
        }),
    };
    Ok(json(&OrderbookResponse {
        data: book,
        meta: Some(RequestMeta {
            request_time: Some(started.elapsed_ms()),
            ..Default::default()
        }),
    }))
}

/// One outcome's book; `depth` is the total size resting on both sides.
fn side(bids: &[Level], asks: &[Level]) -> OrderbookSide {
    let level = |l: &Level| PriceLevel::new(l.price, l.size);
    OrderbookSide {
        bids: bids.iter().map(level).collect(),
        asks: asks.iter().map(level).collect(),
        depth: Some(bids.iter().chain(asks).map(|l| l.size).sum()),
    }
}
