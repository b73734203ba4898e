//! One typed method per operation, expanded from the core's operation
//! table (so an operation added there has its method here with no edit),
//! and a named pager per list operation. Each method runs the core's
//! checks, then the client's machinery (cache, coalescing, budget,
//! retries, timeout); for per-call options such as a cancel token, use
//! [`Client::send`] with the same request.

use crate::{CallOptions, Client, Error, Paginator, Transport};
use predmarket_core::request::{
    ListAwards, ListEvents, ListFutures, ListGames, ListMarkets, ListProfileTrades, ListSeries,
    ListTrades, Request,
};

macro_rules! operations {
    ($($variant:ident($request:path) $method:ident $name:literal $path:literal $paging:ident [$($item:literal),*];)+) => {
        impl<T: Transport + 'static> Client<T> {
            $(operations!(@method $variant($request) $method $path);)+
        }
    };
    // The one operation without parameters is called without an argument.
    (@method ListPlatforms($request:path) $method:ident $path:literal) => {
        #[doc = concat!("`GET ", $path, "` (no parameters).")]
        pub async fn $method(&self) -> Result<<$request as Request>::Response, Error> {
            self.send(&<$request>::default(), &CallOptions::default()).await
        }
    };
    (@method $variant:ident($request:path) $method:ident $path:literal) => {
        #[doc = concat!("`GET ", $path, "`.")]
        pub async fn $method(
            &self,
            request: &$request,
        ) -> Result<<$request as Request>::Response, Error> {
            self.send(request, &CallOptions::default()).await
        }
    };
}

predmarket_core::for_each_operation!(operations);

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
