//! `GET /trades`.

use super::checks::{self, TRADES_MAX_LIMIT};
use super::series::{cursor_of, next_cursor, position_of_cursor};
use super::{HttpRequest, PagePosition, Paged, Request};
use crate::error::Error;
use crate::models::{Trade, TradesResponse};

/// `GET /trades`: the trades of one market. Only markets of platform_a and
/// platform_b have trades; the platform is not a parameter (the service
/// knows it from the market id), so that is the service's check, not ours.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ListTrades {
    /// Required.
    pub market_id: String,
    /// Capped at 1000.
    pub limit: Option<u32>,
    pub cursor: Option<String>,
    /// Only taker trades; only effective for platform_a. Sent as `takerOnly`.
    pub taker_only: Option<bool>,
}

impl ListTrades {
    pub fn new(market_id: impl Into<String>) -> Self {
        Self {
            market_id: market_id.into(),
            ..Self::default()
        }
    }
}

impl Request for ListTrades {
    const OPERATION: &'static str = "listTrades";
    type Response = TradesResponse;
    fn to_http(&self) -> Result<HttpRequest, Error> {
        Ok(HttpRequest::new("/trades")
            .param(
                "market_id",
                Some(checks::required_text("market_id", &self.market_id)?),
            )
            .param("limit", checks::limit(self.limit, TRADES_MAX_LIMIT)?)
            .param("cursor", checks::cursor(self.cursor.as_deref()))
            .param("takerOnly", checks::bool_str(self.taker_only)))
    }
}

impl Paged for ListTrades {
    type Item = Trade;
    fn position(&self) -> Option<PagePosition> {
        position_of_cursor(self.cursor.as_deref())
    }
    fn set_position(&mut self, position: Option<PagePosition>) {
        self.cursor = cursor_of(position);
    }
    fn next_position(response: &TradesResponse) -> Option<PagePosition> {
        next_cursor(response.pagination.as_ref())
    }
    fn items(response: &TradesResponse) -> &[Trade] {
        &response.trades
    }
    fn into_items(response: TradesResponse) -> Vec<Trade> {
        response.trades
    }
}
