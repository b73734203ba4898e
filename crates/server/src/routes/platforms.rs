//! `GET /platforms`.

use super::respond::json;
use crate::access_log::Started;
use crate::data::platforms::directory;
use crate::data::time::now_iso8601;
use crate::state::SharedState;
use axum::extract::State;
use axum::response::Response;
use predmarket_core::models::{PlatformsMeta, PlatformsResponse};

pub async fn list(State(state): State<SharedState>, started: Started) -> Response {
    let platforms = directory(
        state.data.options.seed,
        state.data.options.names,
        &now_iso8601(),
        &|p| state.faults.is_down(p),
    );
    let total = platforms.len() as f64;
    json(&PlatformsResponse {
        platforms,
        markets: None,
        sports: None,
        skipped: Vec::new(),
        meta: Some(PlatformsMeta {
            request_time: Some(started.elapsed_ms()),
            total: Some(total),
            ..Default::default()
        }),
    })
}
