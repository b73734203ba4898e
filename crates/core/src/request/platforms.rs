//! `GET /platforms`.

use super::{Operation, Request};
use crate::error::Error;
use crate::models::PlatformsResponse;
use serde::{Deserialize, Deserializer, Serialize};

/// `GET /platforms`: the platform directory. No parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, predmarket_model_derive::Params)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "tsify",
    derive(tsify::Tsify),
    tsify(rename = "ListPlatformsParams", type = "Record<string, never>")
)]
pub struct ListPlatforms;

impl Request for ListPlatforms {
    const OP: Operation = Operation::ListPlatforms;
    type Response = PlatformsResponse;
    fn checked(&self) -> Result<Self, Error> {
        Ok(Self)
    }
}

/// Reads from any parameter object or query, since there are no parameters
/// to read (unknown keys are ignored here as for every request).
impl<'de> Deserialize<'de> for ListPlatforms {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        serde::de::IgnoredAny::deserialize(d).map(|_| Self)
    }
}
