//! `GET /health`.

use super::checks::{self, LIST_MAX_LIMIT};
use super::{Operation, Request, wire};
use crate::error::Error;
use crate::models::{HealthCheck, HealthResponse};
use serde::{Deserialize, Serialize};

/// `GET /health`: the health of each platform, one page.
#[serde_with::skip_serializing_none]
#[derive(
    Debug, Clone, Default, PartialEq, Serialize, Deserialize, predmarket_model_derive::Params,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "tsify",
    derive(tsify::Tsify),
    tsify(rename = "ListHealthParams")
)]
pub struct ListHealth {
    /// Page size.
    #[serde(default, deserialize_with = "wire::whole")]
    #[cfg_attr(feature = "schema", schemars(range(min = 1)))]
    pub limit: Option<u32>,
    /// `next_cursor` of the previous page.
    pub cursor: Option<String>,
    /// `next_offset` of the previous page.
    #[serde(default, deserialize_with = "wire::whole")]
    pub offset: Option<u64>,
}

impl Request for ListHealth {
    const OP: Operation = Operation::ListHealth;
    type Response = HealthResponse;
    fn checked(&self) -> Result<Self, Error> {
        let mut r = self.clone();
        checks::limit(&mut r.limit, LIST_MAX_LIMIT)?;
        checks::cursor(&mut r.cursor);
        Ok(r)
    }
}

paged!(cursor ListHealth => HealthCheck, |r| r.checks, r.pagination.as_ref());
