//! `GET /health`.

use super::{Operation, Request};
use crate::error::Error;
use crate::models::HealthResponse;
use serde::{Deserialize, Deserializer, Serialize};

/// `GET /health`: whether the service answers. No parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, predmarket_model_derive::Params)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "tsify",
    derive(tsify::Tsify),
    tsify(rename = "GetHealthParams", type = "Record<string, never>")
)]
pub struct GetHealth;

impl Request for GetHealth {
    const OP: Operation = Operation::GetHealth;
    type Response = HealthResponse;
    fn checked(&self) -> Result<Self, Error> {
        Ok(Self)
    }
}

/// Reads from any parameter object or query: there are none to read.
impl<'de> Deserialize<'de> for GetHealth {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        serde::de::IgnoredAny::deserialize(d).map(|_| Self)
    }
}
