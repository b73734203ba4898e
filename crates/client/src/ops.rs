//! One typed method per operation, and a named pager per list operation.
//! Each method runs the core's checks, then the client's machinery (cache,
//! coalescing, budget, retries, timeout); for per-call options such as a
//! cancel token, use [`Client::send`] with the same request.

use crate::{CallOptions, Client, Error, Paginator, Transport};
use predmarket_core::models::{
    AwardResponse, EventsResponse, FutureResponse, GameResponse, LeagueInfoResponse,
    ListAwardsResponse, ListFuturesResponse, ListGamesResponse, MarketsResponse, OrderbookResponse,
    PlatformsResponse, PriceHistoryResponse, ProfileInfoResponse, ProfileTradesResponse,
    SeriesResponse, TradesResponse,
};
use predmarket_core::request::{
    GetAward, GetEvent, GetFuture, GetGame, GetLeagueInfo, GetMarket, GetOrderbook,
    GetPriceHistory, GetProfileInfo, GetSeries, ListAwards, ListEvents, ListFutures, ListGames,
    ListMarkets, ListPlatforms, ListProfileTrades, ListSeries, ListTrades,
};

macro_rules! operations {
    ($($(#[$doc:meta])* $name:ident($request:ty) -> $response:ty;)+) => {
        impl<T: Transport + 'static> Client<T> {
            $(
                $(#[$doc])*
                pub async fn $name(&self, request: &$request) -> Result<$response, Error> {
                    self.send(request, &CallOptions::default()).await
                }
            )+
        }
    };
}

operations! {
    /// `GET /series`.
    list_series(ListSeries) -> SeriesResponse;
    /// `GET /series/{id}`.
    get_series(GetSeries) -> SeriesResponse;
    /// `GET /markets`.
    list_markets(ListMarkets) -> MarketsResponse;
    /// `GET /markets/{id}`.
    get_market(GetMarket) -> MarketsResponse;
    /// `GET /markets/{id}/orderbook`.
    get_orderbook(GetOrderbook) -> OrderbookResponse;
    /// `GET /events`.
    list_events(ListEvents) -> EventsResponse;
    /// `GET /events/{id}`.
    get_event(GetEvent) -> EventsResponse;
    /// `GET /trades`.
    list_trades(ListTrades) -> TradesResponse;
    /// `GET /league-info`.
    get_league_info(GetLeagueInfo) -> LeagueInfoResponse;
    /// `GET /list-games`.
    list_games(ListGames) -> ListGamesResponse;
    /// `GET /games/{game_id}`.
    get_game(GetGame) -> GameResponse;
    /// `GET /futures/{id}`.
    get_future(GetFuture) -> FutureResponse;
    /// `GET /list-futures`.
    list_futures(ListFutures) -> ListFuturesResponse;
    /// `GET /awards/{id}`.
    get_award(GetAward) -> AwardResponse;
    /// `GET /list-awards`.
    list_awards(ListAwards) -> ListAwardsResponse;
    /// `GET /price-history`.
    get_price_history(GetPriceHistory) -> PriceHistoryResponse;
    /// `GET /profile/info`.
    get_profile_info(GetProfileInfo) -> ProfileInfoResponse;
    /// `GET /profile/trades`.
    list_profile_trades(ListProfileTrades) -> ProfileTradesResponse;
}

impl<T: Transport + 'static> Client<T> {
    /// `GET /platforms` (no parameters).
    pub async fn list_platforms(&self) -> Result<PlatformsResponse, Error> {
        self.send(&ListPlatforms, &CallOptions::default()).await
    }
}

macro_rules! pagers {
    ($($(#[$doc:meta])* $name:ident($request:ty);)+) => {
        impl<T: Transport + 'static> Client<T> {
            $(
                $(#[$doc])*
                pub fn $name(&self, request: $request) -> Paginator<T, $request> {
                    self.paginate(request)
                }
            )+
        }
    };
}

pagers! {
    /// Every market of `GET /markets` (cursor paging).
    markets(ListMarkets);
    /// Every event of `GET /events` (cursor paging).
    events(ListEvents);
    /// Every series of `GET /series` (cursor paging).
    series(ListSeries);
    /// Every trade of a market, `GET /trades` (cursor paging).
    trades(ListTrades);
    /// Every game of a league, `GET /list-games` (cursor paging).
    games(ListGames);
    /// Every future of a league, `GET /list-futures` (offset paging).
    futures(ListFutures);
    /// Every award of a league, `GET /list-awards` (offset paging).
    awards(ListAwards);
    /// Every trade of a user, `GET /profile/trades` (cursor paging).
    profile_trades(ListProfileTrades);
}
