//! The platform directory (`GET /platforms`): each platform's id, name,
//! health and the features it serves.

use super::SkippedItem;
use predmarket_model_derive::model;
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
#[model]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Platform {
    pub id: String,
    pub name: Option<String>,
    #[model(ts = "PlatformStatus")]
    pub status: Option<PlatformStatus>,
    pub health: Option<PlatformHealth>,
    pub endpoints: Option<Vec<PlatformEndpoint>>,
    pub features: Option<PlatformFeatures>,
}

#[model]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlatformHealth {
    #[model(ts = "HealthStatus")]
    pub status: Option<HealthStatus>,
    /// ISO 8601.
    #[model(timestamp)]
    pub last_check: Option<String>,
    pub response_time_ms: Option<f64>,
}

#[model]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlatformEndpoint {
    pub name: String,
    pub available: bool,
}

#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PlatformFeatures {
    pub orderbook: Option<bool>,
    pub trades: Option<bool>,
    pub historical_data: Option<bool>,
    pub user_profiles: Option<bool>,
}

/// `meta` of `GET /platforms`.
#[model]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlatformsMeta {
    pub request_time: Option<f64>,
    pub total: Option<f64>,
}

/// Response of `GET /platforms`: `{platforms, meta}`.
#[model]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlatformsResponse {
    pub platforms: Vec<Platform>,
    pub meta: Option<PlatformsMeta>,
    /// Items of the page that could not be read (the others are kept).
    #[serde(skip)]
    pub skipped: Vec<SkippedItem>,
}

list_response!(PlatformsResponse {
    platforms: ["platforms"],
    meta
});

/// Response of `listPlatforms`.
pub type ListPlatformsResponse = PlatformsResponse;
