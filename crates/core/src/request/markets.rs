//! `GET /markets`, `GET /markets/{id}` and `GET /markets/{id}/orderbook`.

use super::checks::{self, MARKET_PLATFORMS, MARKETS_MAX_LIMIT, ORDERBOOK_PLATFORMS};
use super::series::{cursor_of, next_cursor, position_of_cursor};
use super::{HttpRequest, PagePosition, Paged, Request, path_segment};
use crate::error::Error;
use crate::models::{
    Market, MarketSort, MarketStatus, MarketsResponse, OrderbookResponse, PlatformId, SortOrder,
};

/// `GET /markets`. The spec names `limit`, `cursor`, `platform`, `status`
/// and `query`; the other filters are this project's choice of what users
/// of such an API expect:
/// - `category`, `event_id`, `series_id`: narrow to a category or a parent;
/// - `sort` ([`MarketSort`]: volume_24h, volume_7d, volume_total,
///   liquidity, open_interest, created_at, trading_end_at) with `order`
///   (asc, desc; the service's default is desc when `sort` is given);
/// - `include_raw`, as for a market by id.
///
/// `platform` accepts the platforms of a market by id (platform_a …
/// platform_e). `status` is sent as given, known value or not, since the
/// spec does not list every status.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ListMarkets {
    /// Capped at 250.
    pub limit: Option<u32>,
    pub cursor: Option<String>,
    pub platform: Option<PlatformId>,
    pub status: Option<MarketStatus>,
    pub query: Option<String>,
    pub category: Option<String>,
    pub event_id: Option<String>,
    pub series_id: Option<String>,
    pub sort: Option<MarketSort>,
    pub order: Option<SortOrder>,
    pub include_raw: Option<bool>,
}

impl Request for ListMarkets {
    const OPERATION: &'static str = "listMarkets";
    type Response = MarketsResponse;
    fn to_http(&self) -> Result<HttpRequest, Error> {
        let status = match &self.status {
            Some(s) if s.as_str().trim().is_empty() => {
                return Err(Error::invalid("status", "must not be empty"));
            }
            Some(s) if s.as_str().contains(',') => {
                return Err(Error::invalid("status", "takes exactly one status"));
            }
            other => other.as_ref().map(MarketStatus::as_str),
        };
        let sort = match &self.sort {
            Some(s) => Some(checks::known(
                "sort",
                s.as_str(),
                s.is_known(),
                MarketSort::KNOWN,
            )?),
            None => None,
        };
        let order = match &self.order {
            Some(o) => Some(checks::known(
                "order",
                o.as_str(),
                o.is_known(),
                SortOrder::KNOWN,
            )?),
            None => None,
        };
        Ok(HttpRequest::new("/markets")
            .param("limit", checks::limit(self.limit, MARKETS_MAX_LIMIT)?)
            .param("cursor", checks::cursor(self.cursor.as_deref()))
            .param(
                "platform",
                checks::platform(self.platform.as_ref(), MARKET_PLATFORMS)?,
            )
            .param("status", status)
            .param("query", checks::text(self.query.as_deref()))
            .param("category", checks::text(self.category.as_deref()))
            .param("event_id", checks::text(self.event_id.as_deref()))
            .param("series_id", checks::text(self.series_id.as_deref()))
            .param("sort", sort)
            .param("order", order)
            .param("include_raw", checks::bool_str(self.include_raw)))
    }
}

impl Paged for ListMarkets {
    type Item = Market;
    fn position(&self) -> Option<PagePosition> {
        position_of_cursor(self.cursor.as_deref())
    }
    fn set_position(&mut self, position: Option<PagePosition>) {
        self.cursor = cursor_of(position);
    }
    fn next_position(response: &MarketsResponse) -> Option<PagePosition> {
        next_cursor(response.pagination.as_ref())
    }
    fn items(response: &MarketsResponse) -> &[Market] {
        &response.markets
    }
    fn into_items(response: MarketsResponse) -> Vec<Market> {
        response.markets
    }
}

/// `GET /markets/{id}`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GetMarket {
    pub id: String,
    /// platform_a … platform_e.
    pub platform: Option<PlatformId>,
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
    const OPERATION: &'static str = "getMarket";
    type Response = MarketsResponse;
    fn to_http(&self) -> Result<HttpRequest, Error> {
        Ok(
            HttpRequest::new(format!("/markets/{}", path_segment("id", &self.id)?))
                .param(
                    "platform",
                    checks::platform(self.platform.as_ref(), MARKET_PLATFORMS)?,
                )
                .param("include_raw", checks::bool_str(self.include_raw)),
        )
    }
}

/// `GET /markets/{id}/orderbook`. Without `platform` the service detects it
/// from the market id.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GetOrderbook {
    pub id: String,
    /// platform_a … platform_d.
    pub platform: Option<PlatformId>,
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
    const OPERATION: &'static str = "getOrderbook";
    type Response = OrderbookResponse;
    fn to_http(&self) -> Result<HttpRequest, Error> {
        Ok(HttpRequest::new(format!(
            "/markets/{}/orderbook",
            path_segment("id", &self.id)?
        ))
        .param(
            "platform",
            checks::platform(self.platform.as_ref(), ORDERBOOK_PLATFORMS)?,
        )
        .param("include_raw", checks::bool_str(self.include_raw)))
    }
}
