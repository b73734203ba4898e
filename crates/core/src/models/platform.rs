use serde::{Deserialize, Serialize};

open_enum!(
    /// `platform.status`; the spec shows `available`.
    PlatformStatus, PLATFORM_STATUS_TS {
        Available = "available",
        Degraded = "degraded",
        Unavailable = "unavailable",
        Maintenance = "maintenance",
    }
);

open_enum!(
    /// `platform.health.status`; the spec shows `pass`.
    HealthStatus, HEALTH_STATUS_TS {
        Pass = "pass",
        Warn = "warn",
        Fail = "fail",
    }
);

/// One platform of the directory (`GET /platforms`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct Platform {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(type = "PlatformStatus"))]
    pub status: Option<PlatformStatus>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub health: Option<PlatformHealth>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub endpoints: Option<Vec<PlatformEndpoint>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub features: Option<PlatformFeatures>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct PlatformHealth {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(type = "HealthStatus"))]
    pub status: Option<HealthStatus>,
    /// ISO 8601.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_check: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_time_ms: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct PlatformEndpoint {
    pub name: String,
    pub available: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct PlatformFeatures {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub orderbook: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trades: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub historical_data: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_profiles: Option<bool>,
}

/// `meta` of `GET /platforms`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct PlatformsMeta {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_time: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<f64>,
}

/// Response of `GET /platforms`: `{platforms, meta}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct PlatformsResponse {
    pub platforms: Vec<Platform>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<PlatformsMeta>,
}

/// Response of `listPlatforms`.
pub type ListPlatformsResponse = PlatformsResponse;
