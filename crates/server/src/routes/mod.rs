//! The operations of service.md, one module per group.

pub(crate) mod events;
pub(crate) mod kept;
pub(crate) mod markets;
pub(crate) mod paging;
mod platforms;
pub(crate) mod profiles;
pub(crate) mod respond;
pub(crate) mod sports;
pub(crate) mod trades;

use crate::state::SharedState;
use axum::Router;
use axum::response::Redirect;
use axum::routing::{MethodRouter, get};
use predmarket_core::request::Operation;
use std::path::Path;
use tower_http::services::{ServeDir, ServeFile};

/// The operations behind the API key, one route per entry of the core's
/// operation table.
pub fn router(state: SharedState) -> Router {
    Operation::ALL
        .iter()
        .fold(Router::new(), |router, &op| {
            router.route(op.path(), handler(op))
        })
        .with_state(state)
}

/// The handler of each operation: a table entry without one does not
/// compile.
fn handler(op: Operation) -> MethodRouter<SharedState> {
    match op {
        Operation::ListSeries => get(events::list::<events::Series>),
        Operation::GetSeries => get(events::get::<events::Series>),
        Operation::ListMarkets => get(markets::list),
        Operation::GetMarket => get(markets::get),
        Operation::GetOrderbook => get(markets::orderbook),
        Operation::ListEvents => get(events::list::<events::Events>),
        Operation::GetEvent => get(events::get::<events::Events>),
        Operation::ListTrades => get(trades::trades),
        Operation::GetPriceHistory => get(trades::price_history),
        Operation::GetProfileInfo => get(profiles::info),
        Operation::ListProfileTrades => get(profiles::trades),
        Operation::ListPlatforms => get(platforms::list),
        Operation::GetLeagueInfo => get(sports::league_info),
        Operation::ListGames => get(sports::list_games),
        Operation::GetGame => get(sports::game),
        Operation::ListFutures => get(sports::list::<sports::Futures>),
        Operation::GetFuture => get(sports::get::<sports::Futures>),
        Operation::ListAwards => get(sports::list::<sports::Awards>),
        Operation::GetAward => get(sports::get::<sports::Awards>),
    }
}

/// The built demo under `/app/`, with client-side routes falling back to
/// its `index.html`; `/` leads there.
pub fn web(dir: &Path) -> Router {
    let index = dir.join("index.html");
    Router::new()
        .nest_service("/app", ServeDir::new(dir).fallback(ServeFile::new(index)))
        .route("/", get(|| async { Redirect::temporary("/app/") }))
}
