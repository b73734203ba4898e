//! `GET /health`.

use super::paging::{Window, list_meta};
use super::respond::json;
use crate::access_log::Started;
use crate::cursor::Scope;
use crate::data::platforms::{directory, health_checks};
use crate::data::time::now_iso8601;
use crate::error::ApiError;
use crate::query::Query;
use crate::state::SharedState;
use axum::extract::State;
use axum::response::Response;
use predmarket_core::models::HealthResponse;
use predmarket_core::request::{ListHealth, Operation};

pub async fn list(
    State(state): State<SharedState>,
    started: Started,
    Query(r): Query<ListHealth>,
) -> Result<Response, ApiError> {
    let scope = Scope::new(Operation::ListHealth.name());
    let window = Window::read(&state, &scope, r.limit, (r.cursor.as_deref(), r.offset), 25)?;
    let options = &state.data.options;
    let platforms = directory(options.seed, options.names, &now_iso8601(), &|p| {
        state.faults.is_down(p)
    });
    let (total, checks) = window.take(health_checks(platforms));
    Ok(json(&HealthResponse {
        pagination: Some(window.pagination(&state, &scope, total)),
        checks,
        meta: Some(list_meta(&state, &started, None)),
        skipped: Vec::new(),
    }))
}
