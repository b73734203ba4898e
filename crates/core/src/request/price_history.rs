//! `GET /price-history`.

use super::checks::{self, PRICE_HISTORY_MAX_LIMIT, PRICE_HISTORY_MAX_MARKETS};
use super::{HttpRequest, Request};
use crate::error::Error;
use crate::models::{PriceHistoryResponse, PriceInterval};

/// `GET /price-history`: historical prices of 1 to 10 markets (only
/// platform_a, platform_b and platform_c markets have history; the service
/// knows the platform from the ids).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GetPriceHistory {
    /// Required, 1 to 10; sent comma-separated.
    pub market_ids: Vec<String>,
    /// Unix seconds.
    pub start_ts: Option<i64>,
    /// Unix seconds; not before `start_ts`.
    pub end_ts: Option<i64>,
    pub interval: Option<PriceInterval>,
    /// Capped at 5000.
    pub limit: Option<u32>,
}

impl GetPriceHistory {
    pub fn new<S: Into<String>>(market_ids: impl IntoIterator<Item = S>) -> Self {
        Self {
            market_ids: market_ids.into_iter().map(Into::into).collect(),
            ..Self::default()
        }
    }
}

impl Request for GetPriceHistory {
    const OPERATION: &'static str = "getPriceHistory";
    type Response = PriceHistoryResponse;
    fn to_http(&self) -> Result<HttpRequest, Error> {
        if self.market_ids.is_empty() {
            return Err(Error::invalid("market_ids", "is required"));
        }
        if self.market_ids.len() > PRICE_HISTORY_MAX_MARKETS {
            return Err(Error::invalid(
                "market_ids",
                format!(
                    "at most {PRICE_HISTORY_MAX_MARKETS} markets, got {}",
                    self.market_ids.len()
                ),
            ));
        }
        for id in &self.market_ids {
            if id.trim().is_empty() {
                return Err(Error::invalid("market_ids", "an id is empty"));
            }
            if id.contains(',') {
                return Err(Error::invalid(
                    "market_ids",
                    format!("{id:?} contains a comma, the list separator"),
                ));
            }
        }
        for (name, ts) in [("start_ts", self.start_ts), ("end_ts", self.end_ts)] {
            if ts.is_some_and(|t| t < 0) {
                return Err(Error::invalid(name, "must be Unix seconds, not negative"));
            }
        }
        if let (Some(start), Some(end)) = (self.start_ts, self.end_ts)
            && start > end
        {
            return Err(Error::invalid("end_ts", "must not be before `start_ts`"));
        }
        let interval = self
            .interval
            .as_ref()
            .map(|i| checks::known("interval", i.as_str(), i.is_known(), PriceInterval::KNOWN))
            .transpose()?;
        Ok(HttpRequest::new("/price-history")
            .param("market_ids", Some(self.market_ids.join(",")))
            .param("start_ts", self.start_ts)
            .param("end_ts", self.end_ts)
            .param("interval", interval)
            .param("limit", checks::limit(self.limit, PRICE_HISTORY_MAX_LIMIT)?))
    }
}
