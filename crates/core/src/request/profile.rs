//! `GET /profile/info` and `GET /profile/trades`.

use super::checks::{self, PROFILE_TRADES_MAX_LIMIT, PROFILE_USER_MAX_CHARS};
use super::{Operation, Request, wire};
use crate::error::Error;
use crate::models::{PlatformId, ProfileInfoResponse, ProfileTrade, ProfileTradesResponse};
use serde::{Deserialize, Serialize};

fn check_user(value: &str) -> Result<(), Error> {
    let chars = value.chars().count();
    if value.trim().is_empty() {
        Err(Error::invalid("user", "is required"))
    } else if chars > PROFILE_USER_MAX_CHARS {
        Err(Error::invalid(
            "user",
            format!("must be 1 to {PROFILE_USER_MAX_CHARS} characters, got {chars}"),
        ))
    } else {
        Ok(())
    }
}

/// `GET /profile/info`.
#[serde_with::skip_serializing_none]
#[derive(
    Debug, Clone, Default, PartialEq, Serialize, Deserialize, predmarket_model_derive::Params,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "tsify",
    derive(tsify::Tsify),
    tsify(rename = "GetProfileInfoParams")
)]
pub struct GetProfileInfo {
    /// One platform id.
    pub platform: PlatformId,
    /// A user name or address, 1 to 100 characters.
    pub user: String,
    #[serde(default, deserialize_with = "wire::flag")]
    pub include_metrics: Option<bool>,
}

impl GetProfileInfo {
    pub fn new(platform: PlatformId, user: impl Into<String>) -> Self {
        Self {
            platform,
            user: user.into(),
            include_metrics: None,
        }
    }
}

impl Request for GetProfileInfo {
    const OP: Operation = Operation::GetProfileInfo;
    type Response = ProfileInfoResponse;
    fn checked(&self) -> Result<Self, Error> {
        checks::required_value("platform", self.platform.as_str())?;
        check_user(&self.user)?;
        Ok(self.clone())
    }
}

/// `GET /profile/trades`.
#[serde_with::skip_serializing_none]
#[derive(
    Debug, Clone, Default, PartialEq, Serialize, Deserialize, predmarket_model_derive::Params,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "tsify",
    derive(tsify::Tsify),
    tsify(rename = "ListProfileTradesParams")
)]
pub struct ListProfileTrades {
    /// One platform id.
    pub platform: PlatformId,
    /// A user name or address, 1 to 100 characters.
    pub user: String,
    /// Page size, 1 to 100 (service default 50); capped at 100.
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
}

impl ListProfileTrades {
    pub fn new(platform: PlatformId, user: impl Into<String>) -> Self {
        Self {
            platform,
            user: user.into(),
            ..Self::default()
        }
    }
}

impl Request for ListProfileTrades {
    const OP: Operation = Operation::ListProfileTrades;
    type Response = ProfileTradesResponse;
    fn checked(&self) -> Result<Self, Error> {
        let mut r = self.clone();
        checks::required_value("platform", r.platform.as_str())?;
        check_user(&r.user)?;
        checks::limit(&mut r.limit, PROFILE_TRADES_MAX_LIMIT)?;
        checks::cursor(&mut r.cursor);
        Ok(r)
    }
}

paged!(cursor ListProfileTrades => ProfileTrade, |r| r.data.trades, r.data.pagination.as_ref());
