//! The operation table as JS reads it (`__operations()`, in the core's
//! order: an operation's index there is how the client and its hooks name
//! it to each other): each method's name, its pager's method (lists), the
//! parameter its id alone fills and the watch kind that polls it, from the
//! core's table, and what `checkCapabilities` needs to know of
//! it (the `/platforms` feature it needs, the parameter naming its
//! market, whether its answers tell markets' platforms), so the package's
//! JS (client.js, capabilities.js, persistent-cache.js) finds the
//! client's operations by the table, never by name strings or patterns.
//! Not documented (`skip_typescript`): the JS layer's business, declared
//! in `js/glue-internals.d.ts`.

use crate::json;
use predmarket_client::core::change::WatchKind;
use predmarket_client::core::request::Operation;
use wasm_bindgen::prelude::*;

/// The `/platforms` feature (`features.*`) a platform must serve for the
/// operation to make sense there.
fn feature(op: Operation) -> Option<&'static str> {
    use Operation::*;
    match op {
        GetOrderbook => Some("orderbook"),
        ListTrades => Some("trades"),
        GetPriceHistory => Some("historical_data"),
        GetProfileInfo | ListProfileTrades => Some("user_profiles"),
        ListSeries | GetSeries | ListMarkets | GetMarket | ListEvents | GetEvent
        | GetLeagueInfo | ListGames | GetGame | ListPlatforms | GetFuture | ListFutures
        | GetAward | ListAwards => None,
    }
}

/// The parameter naming the market(s) an operation asks about, for those
/// asked by market id (its platform is the one the client's answers gave).
fn market_param(op: Operation) -> Option<&'static str> {
    use Operation::*;
    match op {
        GetOrderbook => Some("id"),
        ListTrades => Some("market_id"),
        GetPriceHistory => Some("market_ids"),
        ListSeries | GetSeries | ListMarkets | GetMarket | ListEvents | GetEvent
        | GetLeagueInfo | ListGames | GetGame | ListPlatforms | GetFuture | ListFutures
        | GetAward | ListAwards | GetProfileInfo | ListProfileTrades => None,
    }
}

/// The watch kind whose polls are calls of the operation
/// (predmarket-core's `WatchKind::operation`).
fn watched_by(op: Operation) -> Option<&'static str> {
    WatchKind::ALL
        .iter()
        .find(|kind| kind.operation() == op)
        .map(|kind| kind.name())
}

/// Whether the operation's answers carry markets with their platform
/// (markets, and the markets nested in events and series).
fn tells_platforms(op: Operation) -> bool {
    use Operation::*;
    match op {
        ListSeries | GetSeries | ListMarkets | GetMarket | ListEvents | GetEvent => true,
        GetOrderbook | ListTrades | GetLeagueInfo | ListGames | GetGame | ListPlatforms
        | GetFuture | ListFutures | GetAward | ListAwards | GetPriceHistory | GetProfileInfo
        | ListProfileTrades => false,
    }
}

/// `profile_trades` → `profileTrades`: the JS name of a pager method, as
/// predmarket-model-derive's `js_client!` names it.
fn camel(snake: &str) -> String {
    let mut out = String::with_capacity(snake.len());
    let mut upper = false;
    for c in snake.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.push(c.to_ascii_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// `Some("markets")` for `pager[markets Market]`, `None` for `pager[]`.
macro_rules! pager_of {
    () => {
        None
    };
    ($pager:ident $item:ident) => {
        Some(stringify!($pager))
    };
}

macro_rules! operations {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident($request:path) $method:ident $name:literal $path:literal $paging:ident [$($item:literal),*]
            pager[$($pager:tt)*] args($($args:tt)+) -> $answer:ident cache($fresh:literal, $revalidate:literal);
    )+) => {
        /// Each operation with its pager's Rust method, if a list.
        const TABLE: &[(predmarket_client::core::request::Operation, Option<&str>)] = &[
            $((predmarket_client::core::request::Operation::$variant, pager_of!($($pager)*)),)+
        ];
    };
}

predmarket_client::core::for_each_operation!(operations);

/// Every operation: `{ name, pager?, idParam?, watch?, feature?,
/// marketParam?, tellsPlatforms }` (one loop over a static table: the entries unrolled
/// cost the package's wasm more).
#[wasm_bindgen(js_name = __operations, skip_typescript)]
pub fn operations() -> js_sys::Array {
    TABLE
        .iter()
        .map(|(op, pager)| {
            json::Obj::new()
                .str("name", op.name())
                .opt_str("pager", pager.map(camel).as_deref())
                .opt_str("idParam", op.id_param())
                .opt_str("watch", watched_by(*op))
                .opt_str("feature", feature(*op))
                .opt_str("marketParam", market_param(*op))
                .bool("tellsPlatforms", tells_platforms(*op))
                .build()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_operations_index_is_its_place_in_the_cores_table() {
        use predmarket_client::core::request::Operation;
        assert_eq!(super::TABLE.len(), Operation::ALL.len());
        for (index, (op, _)) in super::TABLE.iter().enumerate() {
            assert_eq!(Operation::ALL[index], *op);
            assert_eq!(*op as usize, index);
        }
    }

    #[test]
    fn every_watch_kind_polls_one_operation() {
        use predmarket_client::core::change::WatchKind;
        for kind in WatchKind::ALL {
            let polled: Vec<_> = super::TABLE
                .iter()
                .filter(|(op, _)| super::watched_by(*op) == Some(kind.name()))
                .collect();
            assert_eq!(polled.len(), 1, "{}", kind.name());
        }
    }

    #[test]
    fn pager_methods_are_camel_case() {
        assert_eq!(super::camel("profile_trades"), "profileTrades");
        assert_eq!(super::camel("markets"), "markets");
    }
}
