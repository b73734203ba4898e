//! The operations of the service, declared once. Every other list of them
//! (the client's methods and pagers, the JS package's methods, pagers and
//! descriptors, the server's router, its OpenAPI document, the proxy's
//! routes and cache lifetimes) is an exhaustive `match` on [`Operation`]
//! or is expanded from this table by
//! [`for_each_operation!`](crate::for_each_operation), so an operation
//! added here does not compile until each of them has it, and those that
//! can follow from the entry alone do.
//!
//! An entry is: the variant (also the name of its request type in
//! [`crate::request`]), its doc, the Rust client's method, the name JS sees
//! (the OpenAPI `operationId`), the path template, the paging model
//! (`cursor`, `offset` or `single`), for lists their named pager, how the
//! JS method takes its parameters, the response model and the cache
//! lifetimes (see [`for_each_operation!`](crate::for_each_operation)). A
//! list also says where a page holds its items: the
//! keys, in order, each looked for inside `data` first and then at the top
//! level (the public service wraps some lists in `data` and not others).
//! The pagination object is looked for at the top level first, then in
//! `data`. The list response models read their bodies by the same rule
//! (`models::list`), and a test holds their keys to this table.

/// Calls `$callback!` with every entry of the operation table:
///
/// ```text
/// /// What it answers (the JS method's doc).
/// Variant($crate::request::Variant) method "name" "/path" paging [items]
///     pager[pager_method Item] args(form) -> Answer cache(fresh, revalidate);
/// ```
///
/// - `paging` is `cursor`, `offset` or `single`; `items` are string
///   literals (none for `single`);
/// - `pager[..]`: a list's named pager (the Rust client's method, the JS
///   method in camelCase, the JS class `<Pager>Pager`) and the type of its
///   items; empty for `single`, required for a list (checked below);
/// - `args(..)`: how the JS method takes its parameters: `optional` (an
///   object or nothing), `required` (an object), or `id "key"` (the value
///   of the required parameter `key` alone, or an object);
/// - `Answer`: the response model (in [`crate::models`], checked to be the
///   request's `Response`), also its JS type's name;
/// - `cache(fresh, revalidate)`: how long, in seconds, an answer may be
///   reused as is, then served while one request refreshes it (the
///   proxy's cache lifetimes).
#[macro_export]
macro_rules! for_each_operation {
    ($callback:ident) => {
        $callback! {
            /// series (groups of events), one page.
            ListSeries($crate::request::ListSeries) list_series "listSeries" "/series" cursor ["series"]
                pager[series Series] args(optional) -> SeriesResponse cache(5, 25);
            /// one series, by id or `{ id, ... }`.
            GetSeries($crate::request::GetSeries) get_series "getSeries" "/series/{id}" single []
                pager[] args(id "id") -> SeriesResponse cache(10, 50);
            /// markets, one page (up to 250).
            ListMarkets($crate::request::ListMarkets) list_markets "listMarkets" "/markets" cursor ["markets"]
                pager[markets Market] args(optional) -> MarketsResponse cache(5, 25);
            /// one market, by id or `{ id, ... }`.
            GetMarket($crate::request::GetMarket) get_market "getMarket" "/markets/{id}" single []
                pager[] args(id "id") -> MarketsResponse cache(10, 50);
            /// the order book of a market.
            GetOrderbook($crate::request::GetOrderbook) get_orderbook "getOrderbook" "/markets/{id}/orderbook" single []
                pager[] args(id "id") -> OrderbookResponse cache(2, 3);
            // Older pages put the events under `markets`.
            /// events (groups of markets), one page.
            ListEvents($crate::request::ListEvents) list_events "listEvents" "/events" cursor ["events", "markets"]
                pager[events Event] args(optional) -> EventsResponse cache(5, 25);
            /// one event, by id or `{ id, ... }`.
            GetEvent($crate::request::GetEvent) get_event "getEvent" "/events/{id}" single []
                pager[] args(id "id") -> EventsResponse cache(10, 50);
            /// trades of one market, one page; by market id or `{ market_id, ... }`.
            ListTrades($crate::request::ListTrades) list_trades "listTrades" "/trades" cursor ["trades"]
                pager[trades Trade] args(id "market_id") -> TradesResponse cache(5, 10);
            /// one league (`{ league }`) or all of them.
            GetLeagueInfo($crate::request::GetLeagueInfo) get_league_info "getLeagueInfo" "/league-info" single []
                pager[] args(optional) -> LeagueInfoResponse cache(300, 300);
            /// games of a league, one page.
            ListGames($crate::request::ListGames) list_games "listGames" "/list-games" cursor ["games"]
                pager[games Game] args(required) -> ListGamesResponse cache(5, 25);
            /// a game and every platform's markets on it.
            GetGame($crate::request::GetGame) get_game "getGame" "/games/{game_id}" single []
                pager[] args(id "game_id") -> GameResponse cache(10, 50);
            /// every platform with its health and features.
            ListPlatforms($crate::request::ListPlatforms) list_platforms "listPlatforms" "/platforms" single []
                pager[] args(optional) -> PlatformsResponse cache(300, 300);
            /// a future with every platform's odds.
            GetFuture($crate::request::GetFuture) get_future "getFuture" "/futures/{id}" single []
                pager[] args(id "id") -> FutureResponse cache(10, 50);
            /// futures of a league, one page (offset paging).
            ListFutures($crate::request::ListFutures) list_futures "listFutures" "/list-futures" offset ["futures"]
                pager[futures Future] args(required) -> ListFuturesResponse cache(5, 25);
            /// an award with every platform's odds.
            GetAward($crate::request::GetAward) get_award "getAward" "/awards/{id}" single []
                pager[] args(id "id") -> AwardResponse cache(10, 50);
            /// awards of a league, one page (offset paging).
            ListAwards($crate::request::ListAwards) list_awards "listAwards" "/list-awards" offset ["awards"]
                pager[awards Award] args(required) -> ListAwardsResponse cache(5, 25);
            /// price bars of 1 to 10 markets.
            GetPriceHistory($crate::request::GetPriceHistory) get_price_history "getPriceHistory" "/price-history" single []
                pager[] args(required) -> PriceHistoryResponse cache(30, 90);
            /// a user's profile and trading metrics.
            GetProfileInfo($crate::request::GetProfileInfo) get_profile_info "getProfileInfo" "/profile/info" single []
                pager[] args(required) -> ProfileInfoResponse cache(60, 120);
            /// a user's trades, one page.
            ListProfileTrades($crate::request::ListProfileTrades) list_profile_trades "listProfileTrades" "/profile/trades" cursor ["trades"]
                pager[profile_trades ProfileTrade] args(required) -> ProfileTradesResponse cache(5, 10);
        }
    };
}

/// How long an answer of an operation may be reused: as is for
/// `fresh_secs`, then for `revalidate_secs` more while one request
/// refreshes it (the proxy's cache; `--cache-ttl-scale` scales both).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lifetimes {
    pub fresh_secs: u32,
    pub revalidate_secs: u32,
}

/// How a list pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Paging {
    /// An opaque `next_cursor` names the next page.
    Cursor,
    /// A `next_offset` into the list names the next page.
    Offset,
}

macro_rules! paging_of {
    (cursor) => {
        Some(Paging::Cursor)
    };
    (offset) => {
        Some(Paging::Offset)
    };
    (single) => {
        None
    };
}

/// A list's declared paging model must be the one its `Paged`
/// implementation walks (checked at compile time); an operation on one item
/// has none to check.
macro_rules! check_paging {
    ($request:path, single) => {};
    ($request:path, $paging:ident) => {
        const _: () = assert!(
            <$request as $crate::request::Paged>::PAGING as u8
                == paging_of!($paging).unwrap() as u8,
            "the table's paging model differs from the request's `paged!`"
        );
    };
}

/// A list has a named pager whose items are its `Paged::Item`; an
/// operation on one item has none.
macro_rules! check_pager {
    ($request:path, single, []) => {};
    ($request:path, single, [$($pager:tt)+]) => {
        compile_error!(concat!(
            stringify!($request),
            ": a pager of an operation that does not page"
        ));
    };
    ($request:path, $paging:ident, []) => {
        compile_error!(concat!(
            stringify!($request),
            ": a list without its pager (`pager[method Item]`)"
        ));
    };
    ($request:path, $paging:ident, [$pager:ident $item:ident]) => {
        const _: fn(<$request as $crate::request::Paged>::Item) -> $crate::models::$item =
            |item| item;
    };
}

/// The parameter a bare id fills, from an entry's `args(..)`.
macro_rules! id_param {
    (id $key:literal) => {
        Some($key)
    };
    ($form:ident) => {
        None
    };
}

macro_rules! declare_operations {
    ($(
        $(#[$doc:meta])*
        $variant:ident($request:path) $method:ident $name:literal $path:literal $paging:ident [$($item:literal),*]
            pager[$($pager:tt)*] args($($args:tt)+) -> $answer:ident cache($fresh:literal, $revalidate:literal);
    )+) => {
        /// One operation of the service (see the module documentation).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Operation {
            $(
                #[doc = concat!("`", $name, "`: `GET ", $path, "`:")]
                $(#[$doc])*
                $variant,
            )+
        }

        impl Operation {
            /// Every operation, in the table's order.
            pub const ALL: &'static [Operation] = &[$(Operation::$variant),+];

            /// The name JS sees and the OpenAPI `operationId`, e.g. `listMarkets`.
            pub const fn name(self) -> &'static str {
                match self {
                    $(Operation::$variant => $name,)+
                }
            }

            /// The path template, e.g. `/markets/{id}`.
            pub const fn path(self) -> &'static str {
                match self {
                    $(Operation::$variant => $path,)+
                }
            }

            /// How its answers page; `None` for an operation on one item
            /// (or a list that comes whole).
            pub const fn paging(self) -> Option<Paging> {
                match self {
                    $(Operation::$variant => paging_of!($paging),)+
                }
            }

            /// Where a page holds its items (see the module documentation);
            /// empty when it does not page.
            pub const fn items(self) -> &'static [&'static str] {
                match self {
                    $(Operation::$variant => &[$($item),*],)+
                }
            }

            /// The parameter a bare id fills when the JS method is given a
            /// string instead of a parameter object (`getMarket("id")`).
            pub const fn id_param(self) -> Option<&'static str> {
                match self {
                    $(Operation::$variant => id_param!($($args)+),)+
                }
            }

            /// How long an answer may be reused (see [`Lifetimes`]).
            pub const fn lifetimes(self) -> Lifetimes {
                match self {
                    $(Operation::$variant => Lifetimes { fresh_secs: $fresh, revalidate_secs: $revalidate },)+
                }
            }

            /// The fields of its request that go into the path.
            pub const fn path_params(self) -> &'static [&'static str] {
                match self {
                    $(Operation::$variant => <$request as $crate::request::Request>::PATH_PARAMS,)+
                }
            }

            /// The operation JS calls `name`.
            pub fn from_name(name: &str) -> Option<Self> {
                Self::ALL.iter().copied().find(|op| op.name() == name)
            }
        }

        $(
            // Each request type names its own entry, so a type cannot
            // stand for another operation.
            const _: () = assert!(
                <$request as $crate::request::Request>::OP as u8 == Operation::$variant as u8,
                concat!(stringify!($variant), "'s request type names another operation")
            );
            check_paging!($request, $paging);
            check_pager!($request, $paging, [$($pager)*]);
            const _: fn(<$request as $crate::request::Request>::Response) -> $crate::models::$answer = |answer| answer;
        )+
    };
}

for_each_operation!(declare_operations);

impl std::fmt::Display for Operation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_paths_are_distinct_and_well_formed() {
        assert_eq!(Operation::ALL.len(), 19);
        let mut names: Vec<_> = Operation::ALL.iter().map(|op| op.name()).collect();
        let mut paths: Vec<_> = Operation::ALL.iter().map(|op| op.path()).collect();
        names.sort_unstable();
        names.dedup();
        paths.sort_unstable();
        paths.dedup();
        assert_eq!(names.len(), Operation::ALL.len());
        assert_eq!(paths.len(), Operation::ALL.len());
        for &op in Operation::ALL {
            assert_eq!(Operation::from_name(op.name()), Some(op));
            assert!(op.path().starts_with('/'), "{op}");
            for name in op.path_params() {
                assert!(op.path().contains(&format!("{{{name}}}")), "{op}: {name}");
            }
            assert_eq!(op.paging().is_some(), !op.items().is_empty(), "{op}");
            let lifetimes = op.lifetimes();
            assert!(
                lifetimes.fresh_secs > 0 && lifetimes.revalidate_secs > 0,
                "{op}"
            );
        }
        assert_eq!(Operation::from_name("nope"), None);
    }
}
