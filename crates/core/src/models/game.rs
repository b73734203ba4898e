//! Games: `GET /list-games` and `GET /games/{game_id}`. Parsing and
//! formatting game ids lives in `crate::game_id`.

use super::SkippedItem;
use super::{League, MarketStatus, Odds, Pagination, PlatformId, SportsMeta};
use predmarket_model_derive::model;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

open_enum!(
    /// `game.status`; the spec shows `not_started`.
    GameStatus, GAME_STATUS_TS {
        NotStarted = "not_started",
        InProgress = "in_progress",
        Halftime = "halftime",
        Final = "final",
        Postponed = "postponed",
        Delayed = "delayed",
        Suspended = "suspended",
        Cancelled = "cancelled",
    }
);

open_enum!(
    /// The kind of a game market (release 0.2.0: moneyline, spread, total).
    GameMarketType, GAME_MARKET_TYPE_TS {
        Moneyline = "moneyline",
        Spread = "spread",
        Total = "total",
    }
);

#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Game {
    /// `{Away}v{Home}{YYYYMMDD}@{LEAGUE}` (see `crate::game_id`).
    pub id: String,
    pub title: Option<String>,
    pub sport: Option<String>,
    #[model(ts = "League")]
    pub league: Option<League>,
    pub description: Option<String>,
    pub category: Option<String>,
    pub image_url: Option<String>,
    /// Team names or ids, away team first.
    pub teams: Option<Vec<String>>,
    /// ISO 8601.
    #[model(timestamp)]
    pub scheduled_at: Option<String>,
    #[model(ts = "GameStatus")]
    pub status: Option<GameStatus>,
    pub tags: Option<Vec<String>>,
    #[model(ts = "Record<string, unknown>")]
    pub metadata: Option<BTreeMap<String, Value>>,
}

/// `data` of list-games.
#[model]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GamesPage {
    pub games: Vec<Game>,
    pub pagination: Option<Pagination>,
    /// Items of the page that could not be read (the others are kept).
    #[serde(skip)]
    pub skipped: Vec<SkippedItem>,
}

list_response!(GamesPage {
    games: ["games"],
    pagination
});

/// Response of `GET /list-games`: `{data: {games, pagination}, meta}`.
#[model]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "tsify", tsify(rename = "ListGamesEnvelope"))]
pub struct ListGamesResponse {
    pub data: GamesPage,
    pub meta: Option<SportsMeta>,
}

page_envelope!(ListGamesResponse => GamesPage);

// The envelopes JS may receive (the library hands out the body as parsed):
// the spec's shape, declared from the struct above, or the public
// service's other documented one.
#[cfg(feature = "tsify")]
const _: () = {
    #[wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
    const TS: &'static str = "export type ListGamesResponse = ListGamesEnvelope | (GamesPage & { meta?: SportsMeta | null });";
};

/// One outcome of a game market: a team (moneyline, spread) or a side of a
/// total (`Over`/`Under`).
#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct GameOutcome {
    /// The public service (2.0.0) spells it `name`.
    #[model(also = "name")]
    pub outcome_name: Option<String>,
    /// The team's `service_id`, for team outcomes.
    #[model(also = "team_polyrouter_id")]
    pub team_service_id: Option<String>,
    /// Price in 0..1 (the outcome's share price at the platform).
    pub price: Option<f64>,
    pub odds: Option<Odds>,
    /// The handicap for spread outcomes (e.g. `-3.5`), the points line for
    /// totals.
    pub line: Option<f64>,
    pub volume_24h: Option<f64>,
}

/// One market of one platform on a game.
#[model]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameMarket {
    #[model(ts = "PlatformId")]
    pub platform: Option<PlatformId>,
    pub market_id: Option<String>,
    #[model(ts = "GameMarketType")]
    pub market_type: Option<GameMarketType>,
    pub title: Option<String>,
    #[model(ts = "MarketStatus")]
    pub status: Option<MarketStatus>,
    /// The spread or total line the market is about.
    pub line: Option<f64>,
    pub outcomes: Option<Vec<GameOutcome>>,
    pub volume_24h: Option<f64>,
    pub liquidity: Option<f64>,
    #[model(timestamp)]
    pub last_synced_at: Option<String>,
    pub source_url: Option<String>,
}

impl super::Priced for GameOutcome {
    fn label(&self) -> Option<&str> {
        self.outcome_name.as_deref()
    }
    fn team(&self) -> Option<&str> {
        self.team_service_id.as_deref()
    }
    fn odds(&self) -> Option<&Odds> {
        self.odds.as_ref()
    }
    fn price(&self) -> Option<f64> {
        self.price
    }
}

impl super::PricedMarket for GameMarket {
    type Outcome = GameOutcome;
    fn platform(&self) -> Option<&PlatformId> {
        self.platform.as_ref()
    }
    fn market_id(&self) -> Option<&str> {
        self.market_id.as_deref()
    }
    fn outcomes(&self) -> &[GameOutcome] {
        self.outcomes.as_deref().unwrap_or_default()
    }
}

/// `data` of `GET /games/{game_id}`: the game, carrying every market of
/// every platform on it as one flat list (each market names its platform
/// and kind), the same layout as the markets of futures and awards. Group
/// with [`GameDetail::markets_of`] / [`GameDetail::markets_by_type`].
///
/// On the wire the game's fields and `markets` sit side by side (`{data:
/// Game & {markets}, meta}`, as the public service documents it: see
/// docs/spec/where-the-spec-is-silent.md). The older `{data: {game,
/// markets}}` layout is read too.
#[model]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GameDetail {
    #[serde(flatten)]
    pub game: Game,
    #[serde(default)]
    pub markets: Vec<GameMarket>,
}

impl<'de> Deserialize<'de> for GameDetail {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Nested {
            game: Game,
            #[serde(default)]
            markets: Option<Vec<GameMarket>>,
        }
        #[derive(Deserialize)]
        struct Flat {
            #[serde(flatten)]
            game: Game,
            #[serde(default)]
            markets: Option<Vec<GameMarket>>,
        }
        let value = Value::deserialize(deserializer)?;
        let (game, markets) = if value.get("game").is_some_and(Value::is_object) {
            let nested = Nested::deserialize(value).map_err(serde::de::Error::custom)?;
            (nested.game, nested.markets)
        } else {
            let flat = Flat::deserialize(value).map_err(serde::de::Error::custom)?;
            (flat.game, flat.markets)
        };
        Ok(Self {
            game,
            markets: markets.unwrap_or_default(),
        })
    }
}

impl GameDetail {
    /// The markets of one platform.
    pub fn markets_of<'a>(
        &'a self,
        platform: &'a PlatformId,
    ) -> impl Iterator<Item = &'a GameMarket> + 'a {
        self.markets
            .iter()
            .filter(move |m| m.platform.as_ref() == Some(platform))
    }

    /// The markets of one kind (e.g. every platform's moneyline).
    pub fn markets_by_type<'a>(
        &'a self,
        kind: &'a GameMarketType,
    ) -> impl Iterator<Item = &'a GameMarket> + 'a {
        self.markets
            .iter()
            .filter(move |m| m.market_type.as_ref() == Some(kind))
    }
}

/// Response of `GET /games/{game_id}`: `{data: Game & {markets}, meta}`.
#[model]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameResponse {
    pub data: GameDetail,
    pub meta: Option<SportsMeta>,
}

/// Response of `getGame`.
pub type GetGameResponse = GameResponse;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_detail_reads_the_flat_and_the_nested_layout() {
        let flat: GameDetail = serde_json::from_str(
            r#"{"id":"KCvSF20250209@NFL","status":"not_started","markets":[{"platform":"kalshi","market_type":"moneyline"}]}"#,
        )
        .expect("flat");
        let nested: GameDetail = serde_json::from_str(
            r#"{"game":{"id":"KCvSF20250209@NFL","status":"not_started"},"markets":[{"platform":"kalshi","market_type":"moneyline"}]}"#,
        )
        .expect("nested");
        assert_eq!(flat, nested);
        assert_eq!(flat.game.id, "KCvSF20250209@NFL");
        assert_eq!(flat.markets.len(), 1);
        // Written back flat, as the service sends it.
        let text = serde_json::to_value(&flat).expect("serialize");
        assert_eq!(text["id"], "KCvSF20250209@NFL");
        assert!(text.get("game").is_none());
        let bare: GameDetail = serde_json::from_str(r#"{"id":"x"}"#).expect("no markets");
        assert!(bare.markets.is_empty());
        assert!(serde_json::from_str::<GameDetail>(r#"{"markets":[]}"#).is_err());
    }
}
