//! `GET /trades`.

use super::checks::{self, TRADES_MAX_LIMIT};
use super::{Operation, Request, wire};
use crate::error::Error;
use crate::models::{Trade, TradesResponse};
use serde::{Deserialize, Serialize};

/// `GET /trades`: the trades of one market. The platform is not a
/// parameter (the service knows it from the market id), so which markets
/// have trades is the service's call.
#[serde_with::skip_serializing_none]
#[derive(
    Debug, Clone, Default, PartialEq, Serialize, Deserialize, predmarket_model_derive::Params,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "tsify",
    derive(tsify::Tsify),
    tsify(rename = "ListTradesParams")
)]
pub struct ListTrades {
    /// The market whose trades to list.
    pub market_id: String,
    /// Page size; capped at 1000.
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
    /// Only taker trades (effective on one platform). The wire name,
    /// camelCase on the service too.
    #[serde(rename = "takerOnly", default, deserialize_with = "wire::flag")]
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
    const OP: Operation = Operation::ListTrades;
    type Response = TradesResponse;
    fn checked(&self) -> Result<Self, Error> {
        let mut r = self.clone();
        checks::required_value("market_id", &r.market_id)?;
        checks::limit(&mut r.limit, TRADES_MAX_LIMIT)?;
        checks::cursor(&mut r.cursor);
        Ok(r)
    }
}

paged!(cursor ListTrades => Trade, |r| r.trades, r.pagination.as_ref());
