//! `GET /trades` and `GET /price-history`.

use super::paging::{Window, unavailable};
use super::respond::json;
use crate::access_log::Started;
use crate::cursor::Scope;
use crate::data::catalog::{MarketRow, State as MarketState};
use crate::data::prices::{self, HOUR, Path, TICK};
use crate::data::rng::{Rng, round};
use crate::data::time::iso8601;
use crate::error::ApiError;
use crate::query::{Query, known, platforms};
use crate::state::SharedState;
use axum::extract::State;
use axum::response::Response;
use predmarket_core::capabilities::Capability;
use predmarket_core::models::{
    BidAsk, PlatformId, PriceBar, PriceHistoryMeta, PriceHistoryResponse, PriceInterval,
    PricePoint, TimeRange, Trade, TradeSide, TradesMeta, TradesResponse,
};
use predmarket_core::request::{GetPriceHistory, ListTrades, Operation};
use serde_json::json;
use std::collections::BTreeMap;

pub const DEFAULT_TRADES_LIMIT: u32 = 100;
pub const DEFAULT_HISTORY_LIMIT: u32 = 1000;
/// Trades of a market spread over its last week.
const TRADE_SPAN: i64 = 7 * 86_400;

fn market<'a>(state: &'a SharedState, id: &str) -> Result<&'a MarketRow, ApiError> {
    let row = state
        .data
        .market(id)
        .ok_or_else(|| ApiError::not_found("market", id))?;
    if state.faults.is_down(row.platform()) {
        return Err(unavailable(state, row.platform()));
    }
    Ok(row)
}

pub async fn trades(
    State(state): State<SharedState>,
    started: Started,
    Query(r): Query<ListTrades>,
) -> Result<Response, ApiError> {
    let market_id = r.market_id.trim();
    let taker_only = r.taker_only.unwrap_or(false);
    let scope = Scope::new(Operation::ListTrades.name())
        .with("market_id", Some(&market_id))
        .with("takerOnly", Some(taker_only));
    let window = Window::read(
        &state,
        &scope,
        r.limit,
        (r.cursor.as_deref(), r.offset),
        DEFAULT_TRADES_LIMIT,
    )?;
    let row = market(&state, market_id)?;
    let names = state.data.options.names;
    let traded = platforms(Capability::Trades);
    if !traded.contains(&row.platform()) {
        return Err(ApiError::invalid(
            "market_id",
            format!(
                "trades are available for {} markets; this one is on {}",
                names.wires(&traded).join(" and "),
                names.wire(row.platform())
            ),
        ));
    }
    let data = &state.data;
    let seed = row.seed(data.options.seed);
    let last_active = row.last_active(data.as_of());
    let path = Path::hours(
        seed,
        row.quote,
        last_active,
        f64::from(row.volatility),
        TRADE_SPAN / HOUR + 2,
    );
    // takerOnly works on platform_a only, as the spec says.
    let filter_taker = taker_only && row.platform == 0;
    let users = data.profiles.pool_size(row.platform);
    let all = prices::trades(
        seed,
        row.quote,
        &path,
        last_active,
        row.trade_count,
        TRADE_SPAN,
        users,
    )
    .filter(|t| !filter_taker || t.taker);
    let (total, page) = window.take(all);
    let platform = PlatformId::from(names.wire(row.platform()));
    let trades = page
        .into_iter()
        .map(|t| {
            let mut rng = Rng::of(seed, "tx", u64::from(t.index));
            Trade {
                trade_id: format!("{}-{}", row.id, t.index),
                market_id: Some(row.id.to_string()),
                platform: Some(platform.clone()),
                side: Some(if t.buy {
                    TradeSide::Buy
                } else {
                    TradeSide::Sell
                }),
                price: Some(t.price),
                size: Some(t.size),
                timestamp: Some(t.timestamp as f64),
                outcome: Some(if t.yes { "Yes" } else { "No" }.to_owned()),
                taker: Some(t.taker),
                transaction_hash: Some(format!("0x{}", rng.hex(64))),
                user: data.profiles.trade_user(row.platform, t.user),
                metadata: Some(BTreeMap::from([
                    ("outcome_index".to_owned(), json!(if t.yes { 0 } else { 1 })),
                    ("notional".to_owned(), json!(round(t.price * t.size, 2))),
                ])),
                ..Default::default()
            }
        })
        .collect();
    Ok(json(&TradesResponse {
        trades,
        skipped: Vec::new(),
        pagination: Some(window.pagination(&state, &scope, total)),
        meta: Some(TradesMeta {
            request_time: Some(started.elapsed_ms()),
            market_id: Some(row.id.to_string()),
            platform: Some(platform),
            data_freshness: Some(iso8601(last_active - 1)),
            ..Default::default()
        }),
    }))
}

pub async fn price_history(
    State(state): State<SharedState>,
    started: Started,
    Query(r): Query<GetPriceHistory>,
) -> Result<Response, ApiError> {
    let ids: Vec<&str> = r.market_ids.iter().map(|id| id.trim()).collect();
    let interval_name = known("interval", &r.interval, PriceInterval::KNOWN)?.unwrap_or("1h");
    let interval = PriceInterval::from(interval_name);
    let step = interval.seconds().unwrap_or(3_600) as i64;
    let limit = r.limit.unwrap_or(DEFAULT_HISTORY_LIMIT);
    let start_ts = in_range("start_ts", r.start_ts)?;
    let end_ts = in_range("end_ts", r.end_ts)?;
    let data = &state.data;
    let names = data.options.names;
    let history = platforms(Capability::PriceHistory);
    let mut rows = Vec::with_capacity(ids.len());
    for id in &ids {
        let row = market(&state, id)?;
        if !history.contains(&row.platform()) {
            return Err(ApiError::invalid(
                "market_ids",
                format!(
                    "price history is available for {} markets; {id} is on {}",
                    names.wires(&history).join(", "),
                    names.wire(row.platform())
                ),
            ));
        }
        rows.push(row);
    }
    // Without a range: the last `limit` bars up to now (at most the path).
    let end = end_ts.unwrap_or(data.as_of());
    let start = start_ts.unwrap_or(end - step * i64::from(limit));
    let mut points = Vec::new();
    let mut platforms: Vec<PlatformId> = Vec::new();
    for row in rows {
        let platform = PlatformId::from(names.wire(row.platform()));
        if !platforms.contains(&platform) {
            platforms.push(platform.clone());
        }
        let seed = row.seed(data.options.seed);
        let last_active = row.last_active(data.as_of());
        let path = Path::new(seed, row.quote, last_active, f64::from(row.volatility));
        let first = start.max(row.created_at).max(path.start());
        let last = end.min(last_active);
        if first > last {
            continue;
        }
        // Bars end on multiples of the interval, the newest at `last`.
        let mut bars = Vec::new();
        let mut close_at = last;
        while close_at >= first && bars.len() < limit as usize {
            bars.push(close_at);
            close_at = (close_at - 1).div_euclid(step) * step;
        }
        bars.reverse();
        let outcome_id = yes_outcome(&row.json);
        let half = (row.quote.ask() - row.quote.bid()) / 2.0;
        for close_at in bars {
            let open_at = close_at - step;
            let open = path.at(open_at);
            let close = path.at(close_at);
            let mut rng = Rng::of(seed, "bar", close_at as u64);
            let wiggle = (close - open).abs() * 0.5 + 0.002;
            let high = open.max(close) + wiggle * rng.unit();
            let low = open.min(close) - wiggle * rng.unit();
            // The newest bar of an open market quotes exactly the market's
            // own best bid and ask.
            let (bid, ask) = if close_at == data.as_of() && row.state == MarketState::Open {
                (row.quote.bid(), row.quote.ask())
            } else {
                (
                    ((close - half) / TICK).round() * TICK,
                    ((close + half) / TICK).round() * TICK,
                )
            };
            points.push(PricePoint {
                timestamp: Some(close_at as f64),
                price: Some(PriceBar {
                    close: Some(round(close, 4)),
                    open: Some(round(open, 4)),
                    high: Some(round(high.min(0.999), 4)),
                    low: Some(round(low.max(0.001), 4)),
                }),
                volume: Some(round(
                    row.volume_7d.max(row.volume_total * 0.01) / (7.0 * 86_400.0)
                        * step as f64
                        * rng.between(0.3, 1.7),
                    2,
                )),
                open_interest: Some(round(row.open_interest, 2)),
                bid_ask: Some(BidAsk {
                    bid: Some(round(bid.clamp(0.01, 0.98), 2).into()),
                    ask: Some(round(ask.clamp(bid.clamp(0.01, 0.98) + TICK, 0.99), 2).into()),
                }),
                platform: Some(platform.clone()),
                market_id: Some(row.id.to_string()),
                outcome_id: Some(outcome_id.clone()),
            });
        }
    }
    let total = points.len() as f64;
    Ok(json(&PriceHistoryResponse {
        data: points,
        skipped: Vec::new(),
        meta: Some(PriceHistoryMeta {
            total_points: Some(total),
            platforms: Some(platforms),
            time_range: Some(TimeRange {
                start: Some(start as f64),
                end: Some(end as f64),
            }),
            interval: Some(interval),
            request_time: Some(started.elapsed_ms()),
            cache_hit: Some(false),
            data_freshness: Some(state.data.freshness().to_owned()),
        }),
    }))
}

/// Timestamps this server's data can hold (2^40 s is year 36812): larger
/// ones would overflow the bar arithmetic, so they are refused.
fn in_range(name: &str, ts: Option<i64>) -> Result<Option<i64>, ApiError> {
    match ts {
        Some(t) if !(0..=1 << 40).contains(&t) => Err(ApiError::invalid(
            name,
            format!("must be Unix seconds from 0 to {}", 1_i64 << 40),
        )),
        _ => Ok(ts),
    }
}

/// The id of a market's "yes" outcome, read from its JSON.
fn yes_outcome(json: &str) -> String {
    serde_json::from_str::<serde_json::Value>(json)
        .ok()
        .and_then(|v| v["outcomes"][0]["id"].as_str().map(str::to_owned))
        .unwrap_or_else(|| "yes".to_owned())
}
