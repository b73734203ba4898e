//! The operations of service.md.

use crate::SharedState;
use axum::extract::State;
use axum::response::Redirect;
use axum::routing::get;
use axum::{Json, Router};
use predmarket_core::models::{PlatformsMeta, PlatformsResponse};
use std::path::Path;
use tower_http::services::{ServeDir, ServeFile};

pub fn router(state: SharedState) -> Router {
    Router::new()
        .route("/platforms", get(list_platforms))
        .with_state(state)
}

/// The built demo under `/app/`, with client-side routes falling back to
/// its `index.html`; `/` leads there.
pub fn web(dir: &Path) -> Router {
    let index = dir.join("index.html");
    Router::new()
        .nest_service("/app", ServeDir::new(dir).fallback(ServeFile::new(index)))
        .route("/", get(|| async { Redirect::temporary("/app/") }))
}

async fn list_platforms(State(state): State<SharedState>) -> Json<PlatformsResponse> {
    let platforms = state.data.platforms.clone();
    let total = platforms.len() as f64;
    Json(PlatformsResponse {
        platforms,
        meta: Some(PlatformsMeta {
            request_time: Some(1.0),
            total: Some(total),
        }),
    })
}
