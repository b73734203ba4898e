//! What an archive cannot answer, per operation: the recorder keeps what
//! the streams watch (one book, market, game, future or award by id), so
//! replay serves those; every other operation answers a JSON 404 that
//! names the operation and what the archive lacks for it, rather than a
//! bare "not found". One exhaustive match over the core's operation
//! table: an operation added there must be placed here.

use crate::error::ApiError;
use axum::Router;
use axum::routing::get;
use predmarket_core::ErrorCode;
use predmarket_core::change::WatchKind;
use predmarket_core::request::Operation;
use serde_json::json;

/// What an archive would need to answer `op`; `None` for the operations
/// replay serves (those of `WatchKind`).
pub fn missing(op: Operation) -> Option<&'static str> {
    use Operation::*;
    match op {
        GetOrderbook | GetMarket | GetGame | GetFuture | GetAward => None,
        ListMarkets | ListEvents | ListSeries => Some(
            "no listing (its order, filters and pages): the recorder keeps the resources the streams watched, one by one",
        ),
        GetEvent | GetSeries => {
            Some("no events or series: the streams watch markets, not the groups they belong to")
        }
        ListTrades => {
            Some("no trades: the recorder keeps order books, not the trades between them")
        }
        GetPriceHistory => Some(
            "no price bars: the recorder keeps each book answer (read them with `GET /history`), not the service's bars",
        ),
        GetLeagueInfo | ListGames | ListFutures | ListAwards => Some(
            "no sports listing: the recorder keeps the games, futures and awards watched by id",
        ),
        ListPlatforms => Some("no platform directory: it is not a watched resource"),
        GetProfileInfo | ListProfileTrades => Some("no profiles: they are not watched resources"),
    }
}

/// The routes of every operation replay cannot serve, each answering why.
pub fn router() -> Router {
    let mut app = Router::new();
    for &op in Operation::ALL {
        let Some(what) = missing(op) else {
            continue;
        };
        app = app.route(
            op.path(),
            get(move || async move {
                ApiError::new(
                    ErrorCode::NotFound,
                    format!("this archive cannot answer {}: it holds {what}", op.name()),
                )
                .with_details(json!({ "operation": op.name(), "missing": what }))
            }),
        );
    }
    app
}

/// The operations replay serves: those the streams watch.
pub fn served() -> impl Iterator<Item = Operation> {
    WatchKind::ALL.into_iter().map(WatchKind::operation)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replay_serves_exactly_the_watched_operations() {
        let mut served: Vec<_> = served().map(Operation::name).collect();
        let mut unmissing: Vec<_> = Operation::ALL
            .iter()
            .filter(|op| missing(**op).is_none())
            .map(|op| op.name())
            .collect();
        served.sort_unstable();
        unmissing.sort_unstable();
        assert_eq!(served, unmissing);
    }
}
