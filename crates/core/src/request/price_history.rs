//! `GET /price-history`.

use super::checks::{self, PRICE_HISTORY_MAX_LIMIT, PRICE_HISTORY_MAX_MARKETS};
use super::{Operation, Request, wire};
use crate::error::{Error, Quoted};
use crate::models::{PriceHistoryResponse, PriceInterval};
use serde::{Deserialize, Serialize};

/// `GET /price-history`: historical prices of 1 to 10 markets (the service
/// knows the platform from the ids, and which platforms have history).
#[serde_with::skip_serializing_none]
#[derive(
    Debug, Clone, Default, PartialEq, Serialize, Deserialize, predmarket_model_derive::Params,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "tsify",
    derive(tsify::Tsify),
    tsify(rename = "GetPriceHistoryParams")
)]
pub struct GetPriceHistory {
    /// 1 to 10 market ids (or one comma-separated string); sent
    /// comma-separated.
    #[serde(
        serialize_with = "wire::comma_joined",
        deserialize_with = "wire::comma_list"
    )]
    #[cfg_attr(feature = "tsify", tsify(type = "string[] | string"))]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    pub market_ids: Vec<String>,
    /// Unix seconds.
    #[serde(default, deserialize_with = "wire::whole")]
    #[cfg_attr(feature = "schema", schemars(range(min = 0)))]
    pub start_ts: Option<i64>,
    /// Unix seconds, not before `start_ts`.
    #[serde(default, deserialize_with = "wire::whole")]
    #[cfg_attr(feature = "schema", schemars(range(min = 0)))]
    pub end_ts: Option<i64>,
    /// One interval (1m, 5m, 1h, 4h, 1d, ...).
    pub interval: Option<PriceInterval>,
    /// 1 to 5000 points (capped).
    #[serde(default, deserialize_with = "wire::whole")]
    #[cfg_attr(feature = "schema", schemars(range(min = 1)))]
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
    const OP: Operation = Operation::GetPriceHistory;
    type Response = PriceHistoryResponse;
    fn checked(&self) -> Result<Self, Error> {
        let mut r = self.clone();
        if r.market_ids.is_empty() {
            return Err(Error::invalid("market_ids", "is required"));
        }
        if r.market_ids.len() > PRICE_HISTORY_MAX_MARKETS {
            return Err(Error::invalid(
                "market_ids",
                format!(
                    "at most {PRICE_HISTORY_MAX_MARKETS} markets, got {}",
                    r.market_ids.len()
                ),
            ));
        }
        for id in &r.market_ids {
            if id.trim().is_empty() {
                return Err(Error::invalid("market_ids", "an id is empty"));
            }
            if id.contains(',') {
                return Err(Error::invalid(
                    "market_ids",
                    format!("{} contains a comma, the list separator", Quoted(id)),
                ));
            }
        }
        for (name, ts) in [("start_ts", r.start_ts), ("end_ts", r.end_ts)] {
            if ts.is_some_and(|t| t < 0) {
                return Err(Error::invalid(name, "must be Unix seconds, not negative"));
            }
        }
        if let (Some(start), Some(end)) = (r.start_ts, r.end_ts)
            && start > end
        {
            return Err(Error::invalid("end_ts", "must not be before `start_ts`"));
        }
        checks::one_value("interval", &r.interval)?;
        checks::limit(&mut r.limit, PRICE_HISTORY_MAX_LIMIT)?;
        Ok(r)
    }
}
