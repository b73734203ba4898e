//! The operations of the service, declared once. Every other list of them
//! (the client's methods, the JS package's descriptors, the server's
//! router, its OpenAPI document, the proxy's routes and cache lifetimes) is
//! an exhaustive `match` on [`Operation`] or is expanded from this table
//! by [`for_each_operation!`](crate::for_each_operation), so an operation
//! added here does not compile until each of them has it.
//!
//! An entry is: the variant (also the name of its request type in
//! [`crate::request`]), the Rust client's method, the name JS sees (the
//! OpenAPI `operationId`), the path template, the paging model (`cursor`,
//! `offset` or `single`) and, for lists, where a page holds its items: the
//! keys, in order, each looked for inside `data` first and then at the top
//! level (the public service wraps some lists in `data` and not others).
//! The pagination object is looked for at the top level first, then in
//! `data`. The list response models read their bodies by the same rule
//! (`models::list`), and a test holds their keys to this table.

/// Calls `$callback!` with every entry of the operation table:
/// `Variant($crate::request::Variant) method "name" "/path" paging [items];`
/// where `paging` is `cursor`, `offset` or `single` and `items` are string
/// literals (none for `single`).
#[macro_export]
macro_rules! for_each_operation {
    ($callback:ident) => {
        $callback! {
            ListSeries($crate::request::ListSeries) list_series "listSeries" "/series" cursor ["series"];
            GetSeries($crate::request::GetSeries) get_series "getSeries" "/series/{id}" single [];
            ListMarkets($crate::request::ListMarkets) list_markets "listMarkets" "/markets" cursor ["markets"];
            GetMarket($crate::request::GetMarket) get_market "getMarket" "/markets/{id}" single [];
            GetOrderbook($crate::request::GetOrderbook) get_orderbook "getOrderbook" "/markets/{id}/orderbook" single [];
            // Older pages put the events under `markets`.
            ListEvents($crate::request::ListEvents) list_events "listEvents" "/events" cursor ["events", "markets"];
            GetEvent($crate::request::GetEvent) get_event "getEvent" "/events/{id}" single [];
            ListTrades($crate::request::ListTrades) list_trades "listTrades" "/trades" cursor ["trades"];
            GetLeagueInfo($crate::request::GetLeagueInfo) get_league_info "getLeagueInfo" "/league-info" single [];
            ListGames($crate::request::ListGames) list_games "listGames" "/list-games" cursor ["games"];
            GetGame($crate::request::GetGame) get_game "getGame" "/games/{game_id}" single [];
            ListPlatforms($crate::request::ListPlatforms) list_platforms "listPlatforms" "/platforms" single [];
            GetFuture($crate::request::GetFuture) get_future "getFuture" "/futures/{id}" single [];
            ListFutures($crate::request::ListFutures) list_futures "listFutures" "/list-futures" offset ["futures"];
            GetAward($crate::request::GetAward) get_award "getAward" "/awards/{id}" single [];
            ListAwards($crate::request::ListAwards) list_awards "listAwards" "/list-awards" offset ["awards"];
            GetPriceHistory($crate::request::GetPriceHistory) get_price_history "getPriceHistory" "/price-history" single [];
            GetProfileInfo($crate::request::GetProfileInfo) get_profile_info "getProfileInfo" "/profile/info" single [];
            ListProfileTrades($crate::request::ListProfileTrades) list_profile_trades "listProfileTrades" "/profile/trades" cursor ["trades"];
        }
    };
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

macro_rules! declare_operations {
    ($(
        $(#[$doc:meta])*
        $variant:ident($request:path) $method:ident $name:literal $path:literal $paging:ident [$($item:literal),*];
    )+) => {
        /// One operation of the service (see the module documentation).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Operation {
            $(
                #[doc = concat!("`", $name, "`: `GET ", $path, "`.")]
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
        }
        assert_eq!(Operation::from_name("nope"), None);
    }
}
