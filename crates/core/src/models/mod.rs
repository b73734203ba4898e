//! The resources of `service.md` and the shapes of
//! `where-the-spec-is-silent.md`, as they appear on the wire.
//!
//! Conventions, applied to every model:
//! - field names are the wire names (snake_case, plus the camelCase the
//!   service itself uses in a few places), so JS users see what the service
//!   sends;
//! - `id` is required; every other field the spec does not mark required is
//!   an `Option` and absent from serialized output when `None`;
//! - unknown fields are ignored, never an error;
//! - status-like values are open enums (see `open_enum!`);
//! - numbers are `f64` (JS has one number type); those the spec calls
//!   integers are written back as integers;
//! - free-form objects are `BTreeMap<String, serde_json::Value>`, typed
//!   `Record<string, unknown>` in TypeScript.
//!
//! One response type per operation (aliases where two operations share an
//! envelope):
//!
//! | operation | response | envelope |
//! |---|---|---|
//! | listSeries, getSeries | [`SeriesResponse`] | `{pagination, series, meta}` |
//! | listMarkets, getMarket | [`MarketsResponse`] | `{pagination, markets, meta}` |
//! | getOrderbook | [`OrderbookResponse`] | `{data: Orderbook, meta}` |
//! | listEvents, getEvent | [`EventsResponse`] | `{pagination, events, meta}` |
//! | listTrades | [`TradesResponse`] | `{trades, pagination, meta}` |
//! | getLeagueInfo | [`LeagueInfoResponse`] | `{data: LeagueInfo \| LeagueInfo[], meta}` |
//! | listGames | [`ListGamesResponse`] | `{data: {games, pagination}, meta}` |
//! | getGame | [`GameResponse`] | `{data: Game & {markets}, meta}` (older: `{games: [...], pagination, meta}`) |
//! | listPlatforms | [`PlatformsResponse`] | `{platforms, meta}` |
//! | getFuture | [`FutureResponse`] | `{data: Future, meta}` |
//! | listFutures | [`ListFuturesResponse`] | `{data: {futures, pagination: OffsetPagination}, meta}` |
//! | getAward | [`AwardResponse`] | `{data: Award, meta}` |
//! | listAwards | [`ListAwardsResponse`] | `{data: {awards, pagination: OffsetPagination}, meta}` |
//! | getPriceHistory | [`PriceHistoryResponse`] | `{data: PricePoint[], meta}` |
//! | getProfileInfo | [`ProfileInfoResponse`] | `{data: {profile, metrics}, meta}` |
//! | listProfileTrades | [`ProfileTradesResponse`] | `{data: {trades, pagination}, meta}` |

#[macro_use]
mod list;
#[macro_use]
mod outright;

mod award;
mod by_id;
mod event;
mod future;
mod game;
mod ids;
mod league;
mod market;
mod meta;
mod odds;
mod orderbook;
mod pagination;
mod params;
mod platform;
mod price_history;
mod profile;
mod series;
mod trade;
mod wire;

pub use award::*;
pub use event::*;
pub use future::*;
pub use game::*;
pub use ids::*;
pub use league::*;
pub use list::{Skipped, SkippedItem};
pub use market::*;
pub use meta::*;
pub use odds::*;
pub use orderbook::*;
pub use outright::{Priced, PricedMarket};
pub use pagination::*;
pub use params::*;
pub use platform::*;
pub use price_history::*;
pub use profile::*;
pub use series::*;
pub use trade::*;

with_id_only!(Market, Event, Series, Game);

// The TypeScript aliases `#[model]` declares fields with (`Numeric`,
// `Timestamp`) are in crates/wasm/js/types/wire.d.ts.

/// TypeScript declarations of every open enum of the models.
pub(crate) const OPEN_ENUM_TS: &[&str] = &[
    PLATFORM_STATUS_TS,
    HEALTH_STATUS_TS,
    PLATFORM_ID_TS,
    LEAGUE_TS,
    MARKET_STATUS_TS,
    MARKET_TYPE_TS,
    TRADE_SIDE_TS,
    LEAGUE_STATUS_TS,
    GAME_STATUS_TS,
    GAME_MARKET_TYPE_TS,
    FUTURE_TYPE_TS,
    FUTURE_CATEGORY_TS,
    AWARD_TYPE_TS,
    ODDS_FORMAT_TS,
    PRICE_INTERVAL_TS,
    MARKET_SORT_TS,
    SORT_ORDER_TS,
];

#[cfg(test)]
mod tests {
    use super::*;

    /// A new open enum whose `*_TS` is not registered would reach JS as an
    /// undefined type name.
    #[test]
    fn every_open_enum_is_registered() {
        let sources = [
            include_str!("award.rs"),
            include_str!("future.rs"),
            include_str!("game.rs"),
            include_str!("ids.rs"),
            include_str!("league.rs"),
            include_str!("market.rs"),
            include_str!("odds.rs"),
            include_str!("params.rs"),
            include_str!("price_history.rs"),
            include_str!("platform.rs"),
            include_str!("trade.rs"),
        ];
        let defined: usize = sources
            .iter()
            .map(|s| s.matches("open_enum!(").count())
            .sum();
        assert_eq!(defined, OPEN_ENUM_TS.len());
        let all = crate::typescript_declarations();
        for name in [
            "PlatformId",
            "League",
            "MarketStatus",
            "PriceInterval",
            "GameMarketType",
        ] {
            assert!(all.contains(&format!("export type {name} = ")), "{name}");
        }
        assert!(!all.contains("any"));
    }

    #[test]
    fn integers_are_written_as_integers() {
        let p = Pagination {
            total: Some(3.0),
            limit: Some(2.5),
            has_more: Some(true),
            next_cursor: None,
            ..Default::default()
        };
        assert_eq!(
            serde_json::to_string(&p).ok().as_deref(),
            Some(r#"{"total":3,"limit":2.5,"has_more":true,"next_cursor":null}"#)
        );
    }
}

#[cfg(all(test, feature = "tsify"))]
mod declarations {
    use super::*;
    use tsify::Tsify;

    /// The declarations describe the raw wire: every field but the id is
    /// optional and nullable; numbers may be numeric strings; times any
    /// form; both spellings of team ids.
    #[test]
    fn declarations_are_honest_about_the_wire() {
        let market = Market::DECL;
        for member in [
            "id: string;",
            "platform?: PlatformId | null;",
            "title?: string | null;",
            "volume_24h?: Numeric | null;",
            "unique_traders?: Numeric | null;",
            "resolved_at?: Timestamp | null;",
            "outcomes?: Outcome[] | null;",
            "current_prices?: Record<string, unknown> | null;",
            "metadata?: MarketMetadata | null",
        ] {
            assert!(market.contains(member), "{member} in {market}");
        }
        assert!(!market.contains("?: string;"), "{market}");
        assert!(Pagination::DECL.contains("next_cursor?: string | null;"));
        assert!(Trade::DECL.contains("timestamp?: Timestamp | null;"));
        assert!(
            Team::DECL.contains("service_id?: string;"),
            "{}",
            Team::DECL
        );
        assert!(BidAsk::DECL.contains("bid?: Numeric | PriceBar | null;"));
        assert!(PriceLevel::DECL.contains("price: Numeric;"));
        println!("{}\n{}\n{}", Market::DECL, Team::DECL, GameOutcome::DECL);
    }
}
