//! `GET /profile/info` and `GET /profile/trades` (platform_a, platform_b).

use super::checks::{self, PROFILE_PLATFORMS, PROFILE_TRADES_MAX_LIMIT, PROFILE_USER_MAX_CHARS};
use super::series::{cursor_of, next_cursor, position_of_cursor};
use super::{HttpRequest, PagePosition, Paged, Request};
use crate::error::Error;
use crate::models::{PlatformId, ProfileInfoResponse, ProfileTrade, ProfileTradesResponse};

fn user(value: &str) -> Result<&str, Error> {
    let chars = value.chars().count();
    if value.trim().is_empty() {
        Err(Error::invalid("user", "is required"))
    } else if chars > PROFILE_USER_MAX_CHARS {
        Err(Error::invalid(
            "user",
            format!("must be 1 to {PROFILE_USER_MAX_CHARS} characters, got {chars}"),
        ))
    } else {
        Ok(value)
    }
}

/// `GET /profile/info`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GetProfileInfo {
    /// Required: platform_a or platform_b.
    pub platform: Option<PlatformId>,
    /// Required: 1 to 100 characters (a user name or address).
    pub user: String,
    pub include_metrics: Option<bool>,
}

impl GetProfileInfo {
    pub fn new(platform: PlatformId, user: impl Into<String>) -> Self {
        Self {
            platform: Some(platform),
            user: user.into(),
            include_metrics: None,
        }
    }
}

impl Request for GetProfileInfo {
    const OPERATION: &'static str = "getProfileInfo";
    type Response = ProfileInfoResponse;
    fn to_http(&self) -> Result<HttpRequest, Error> {
        Ok(HttpRequest::new("/profile/info")
            .param(
                "platform",
                Some(checks::required_platform(
                    self.platform.as_ref(),
                    PROFILE_PLATFORMS,
                )?),
            )
            .param("user", Some(user(&self.user)?))
            .param("include_metrics", checks::bool_str(self.include_metrics)))
    }
}

/// `GET /profile/trades`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ListProfileTrades {
    /// Required: platform_a or platform_b.
    pub platform: Option<PlatformId>,
    /// Required: 1 to 100 characters.
    pub user: String,
    /// 1 to 100 (service default 50); capped at 100.
    pub limit: Option<u32>,
    pub cursor: Option<String>,
}

impl ListProfileTrades {
    pub fn new(platform: PlatformId, user: impl Into<String>) -> Self {
        Self {
            platform: Some(platform),
            user: user.into(),
            ..Self::default()
        }
    }
}

impl Request for ListProfileTrades {
    const OPERATION: &'static str = "listProfileTrades";
    type Response = ProfileTradesResponse;
    fn to_http(&self) -> Result<HttpRequest, Error> {
        Ok(HttpRequest::new("/profile/trades")
            .param(
                "platform",
                Some(checks::required_platform(
                    self.platform.as_ref(),
                    PROFILE_PLATFORMS,
                )?),
            )
            .param("user", Some(user(&self.user)?))
            .param(
                "limit",
                checks::limit(self.limit, PROFILE_TRADES_MAX_LIMIT)?,
            )
            .param("cursor", checks::cursor(self.cursor.as_deref())))
    }
}

impl Paged for ListProfileTrades {
    type Item = ProfileTrade;
    fn position(&self) -> Option<PagePosition> {
        position_of_cursor(self.cursor.as_deref())
    }
    fn set_position(&mut self, position: Option<PagePosition>) {
        self.cursor = cursor_of(position);
    }
    fn next_position(response: &ProfileTradesResponse) -> Option<PagePosition> {
        next_cursor(response.data.pagination.as_ref())
    }
    fn items(response: &ProfileTradesResponse) -> &[ProfileTrade] {
        &response.data.trades
    }
    fn into_items(response: ProfileTradesResponse) -> Vec<ProfileTrade> {
        response.data.trades
    }
}
