//! The answer of `GET /health`.

use predmarket_model_derive::model;
use serde::{Deserialize, Serialize};

/// Response of `GET /health`: `{status, time}`.
#[model]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HealthResponse {
    /// `ok` when the service answers.
    pub status: String,
    /// The service's clock, ISO 8601.
    pub time: Option<String>,
}
