//! The answer of `GET /health`: the health of each platform, one page.

use super::HealthStatus;
use predmarket_model_derive::model;
use serde::{Deserialize, Serialize};

/// One platform's health.
#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct HealthCheck {
    pub platform: String,
    #[model(ts = "HealthStatus")]
    pub status: Option<HealthStatus>,
    /// When it was checked, ISO 8601.
    pub checked_at: Option<String>,
}

list_envelope! {
    /// Response of `GET /health`: `{pagination, checks, meta}`.
    HealthResponse { checks: HealthCheck ["checks"], meta: ListMeta }
}
