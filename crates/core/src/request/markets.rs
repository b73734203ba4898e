//! `GET /markets`, `GET /markets/{id}` and `GET /markets/{id}/orderbook`.

use super::checks::{self, MARKETS_MAX_LIMIT};
use super::{Operation, Request, render_path, wire};
use crate::error::Error;
use crate::models::{
    Market, MarketSort, MarketStatus, MarketsResponse, OrderbookResponse, PlatformId, SortOrder,
};
use serde::{Deserialize, Serialize};

/// `GET /markets`. The spec names `limit`, `cursor`, `platform`, `status`
/// and `query`; the other filters are this project's choice of what users
/// of such an API expect:
/// - `category`, `event_id`, `series_id`: narrow to a category or a parent;
/// - `sort` ([`MarketSort`]: volume_24h, volume_7d, volume_total,
///   liquidity, open_interest, created_at, trading_end_at) with `order`
///   (asc, desc; the service's default is desc when `sort` is given);
/// - `include_raw`, as for a market by id.
#[serde_with::skip_serializing_none]
#[derive(
    Debug, Clone, Default, PartialEq, Serialize, Deserialize, predmarket_model_derive::Params,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "tsify",
    derive(tsify::Tsify),
    tsify(rename = "ListMarketsParams")
)]
pub struct ListMarkets {
    /// Page size; capped at 250.
    #[serde(default, deserialize_with = "wire::whole")]
    #[cfg_attr(feature = "schema", schemars(range(min = 1)))]
    pub limit: Option<u32>,
    /// `next_cursor` of the previous page.
    pub cursor: Option<String>,
    /// `next_offset` of the previous page, where a service pages this list
    /// by offset (the public service's older pages); `cursor` wins when
    /// both are sent.
    #[serde(default, deserialize_with = "wire::whole")]
    pub offset: Option<u64>,
    /// One platform id.
    pub platform: Option<PlatformId>,
    /// One status.
    pub status: Option<MarketStatus>,
    /// Full-text search.
    pub query: Option<String>,
    pub category: Option<String>,
    pub event_id: Option<String>,
    pub series_id: Option<String>,
    pub sort: Option<MarketSort>,
    /// Default desc when `sort` is given.
    pub order: Option<SortOrder>,
    #[serde(default, deserialize_with = "wire::flag")]
    pub include_raw: Option<bool>,
}

impl Request for ListMarkets {
    const OP: Operation = Operation::ListMarkets;
    type Response = MarketsResponse;
    fn checked(&self) -> Result<Self, Error> {
        let mut r = self.clone();
        checks::limit(&mut r.limit, MARKETS_MAX_LIMIT)?;
        checks::cursor(&mut r.cursor);
        checks::one_value("platform", &r.platform)?;
        checks::one_value("status", &r.status)?;
        checks::one_value("sort", &r.sort)?;
        checks::one_value("order", &r.order)?;
        checks::text(&mut r.query);
        checks::text(&mut r.category);
        checks::text(&mut r.event_id);
        checks::text(&mut r.series_id);
        Ok(r)
    }
}

paged!(cursor ListMarkets => Market, |r| r.markets, r.pagination.as_ref());

/// `GET /markets/{id}`.
#[serde_with::skip_serializing_none]
#[derive(
    Debug, Clone, Default, PartialEq, Serialize, Deserialize, predmarket_model_derive::Params,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "tsify",
    derive(tsify::Tsify),
    tsify(rename = "GetMarketParams")
)]
pub struct GetMarket {
    /// The market id (path).
    pub id: String,
    pub platform: Option<PlatformId>,
    #[serde(default, deserialize_with = "wire::flag")]
    pub include_raw: Option<bool>,
}

impl GetMarket {
    pub fn new(id: impl Into<String>) -> Self {
        Self {
            id: id.into(),
            ..Self::default()
        }
    }
}

impl Request for GetMarket {
    const OP: Operation = Operation::GetMarket;
    const PATH_PARAMS: &'static [&'static str] = &["id"];
    type Response = MarketsResponse;
    fn checked(&self) -> Result<Self, Error> {
        checks::path_id("id", &self.id)?;
        checks::one_value("platform", &self.platform)?;
        Ok(self.clone())
    }
    fn path(&self) -> Result<String, Error> {
        render_path(Self::PATH, &[("id", &self.id)])
    }
}

/// `GET /markets/{id}/orderbook`. Without `platform` the service detects it
/// from the market id.
#[serde_with::skip_serializing_none]
#[derive(
    Debug, Clone, Default, PartialEq, Serialize, Deserialize, predmarket_model_derive::Params,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "tsify",
    derive(tsify::Tsify),
    tsify(rename = "GetOrderbookParams")
)]
pub struct GetOrderbook {
    /// The market id (path).
    pub id: String,
    /// Without it the service detects the platform from the id.
    pub platform: Option<PlatformId>,
    #[serde(default, deserialize_with = "wire::flag")]
    pub include_raw: Option<bool>,
}

impl GetOrderbook {
    pub fn new(id: impl Into<String>) -> Self {
        Self {
            id: id.into(),
            ..Self::default()
        }
    }
}

impl Request for GetOrderbook {
    const OP: Operation = Operation::GetOrderbook;
    const PATH_PARAMS: &'static [&'static str] = &["id"];
    type Response = OrderbookResponse;
    fn checked(&self) -> Result<Self, Error> {
        checks::path_id("id", &self.id)?;
        checks::one_value("platform", &self.platform)?;
        Ok(self.clone())
    }
    fn path(&self) -> Result<String, Error> {
        render_path(Self::PATH, &[("id", &self.id)])
    }
}
