//! The operations of service.md, one module per group.

pub(crate) mod events;
pub(crate) mod markets;
pub(crate) mod paging;
mod platforms;
pub(crate) mod profiles;
mod respond;
pub(crate) mod sports;
pub(crate) mod trades;

use crate::SharedState;
use axum::Router;
use axum::response::Redirect;
use axum::routing::get;
use std::path::Path;
use tower_http::services::{ServeDir, ServeFile};

pub use paging::unavailable;
pub use respond::*;

/// The operations behind the API key.
pub fn router(state: SharedState) -> Router {
    Router::new()
        .route("/series", get(events::list::<events::Series>))
        .route("/series/{id}", get(events::get::<events::Series>))
        .route("/markets", get(markets::list))
        .route("/markets/{id}", get(markets::get))
        .route("/markets/{id}/orderbook", get(markets::orderbook))
        .route("/events", get(events::list::<events::Events>))
        .route("/events/{id}", get(events::get::<events::Events>))
        .route("/trades", get(trades::trades))
        .route("/price-history", get(trades::price_history))
        .route("/profile/info", get(profiles::info))
        .route("/profile/trades", get(profiles::trades))
        .route("/platforms", get(platforms::list))
        .route("/league-info", get(sports::league_info))
        .route("/list-games", get(sports::list_games))
        .route("/games/{game_id}", get(sports::game))
        .route("/list-futures", get(sports::list::<sports::Futures>))
        .route("/futures/{id}", get(sports::get::<sports::Futures>))
        .route("/list-awards", get(sports::list::<sports::Awards>))
        .route("/awards/{id}", get(sports::get::<sports::Awards>))
        .with_state(state)
}

/// What needs no key: the OpenAPI document.
pub fn public(state: SharedState) -> Router {
    Router::new()
        .route("/openapi.json", get(crate::openapi::serve))
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
