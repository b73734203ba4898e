//! `GET /health`.

use super::json;
use crate::data::time::now_iso8601;
use predmarket_core::models::HealthResponse;

pub async fn get() -> axum::response::Response {
    json(&HealthResponse {
        status: "ok".into(),
        time: Some(now_iso8601()),
    })
}
