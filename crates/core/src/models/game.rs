//! Games: `GET /list-games` and `GET /games/{game_id}`. Parsing and
//! formatting game ids lives in `crate::game_id`.

use super::{League, MarketStatus, Odds, Pagination, PlatformId, SportsMeta};
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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct Game {
    /// `{Away}v{Home}{YYYYMMDD}@{LEAGUE}` (see `crate::game_id`).
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sport: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(type = "League"))]
    pub league: Option<League>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_url: Option<String>,
    /// Team names or ids, away team first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub teams: Option<Vec<String>>,
    /// ISO 8601.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scheduled_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(type = "GameStatus"))]
    pub status: Option<GameStatus>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(type = "Record<string, unknown>"))]
    pub metadata: Option<BTreeMap<String, Value>>,
}

impl Game {
    /// A game with only its id, for building data and tests.
    pub fn new(id: impl Into<String>) -> Self {
        Self {
            id: id.into(),
            title: None,
            sport: None,
            league: None,
            description: None,
            category: None,
            image_url: None,
            teams: None,
            scheduled_at: None,
            status: None,
            tags: None,
            metadata: None,
        }
    }
}

/// `data` of list-games.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct GamesPage {
    pub games: Vec<Game>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pagination: Option<Pagination>,
}

/// Response of `GET /list-games`: `{data: {games, pagination}, meta}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct ListGamesResponse {
    pub data: GamesPage,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<SportsMeta>,
}

/// One outcome of a game market: a team (moneyline, spread) or a side of a
/// total (`Over`/`Under`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct GameOutcome {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome_name: Option<String>,
    /// The team's `service_id`, for team outcomes.
    #[serde(
        default,
        alias = "team_polyrouter_id",
        skip_serializing_if = "Option::is_none"
    )]
    pub team_service_id: Option<String>,
    /// Price in 0..1 (the outcome's share price at the platform).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub odds: Option<Odds>,
    /// The handicap for spread outcomes (e.g. `-3.5`), the points line for
    /// totals.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub volume_24h: Option<f64>,
}

/// One market of one platform on a game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct GameMarket {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(type = "PlatformId"))]
    pub platform: Option<PlatformId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub market_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(type = "GameMarketType"))]
    pub market_type: Option<GameMarketType>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(type = "MarketStatus"))]
    pub status: Option<MarketStatus>,
    /// The spread or total line the market is about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcomes: Option<Vec<GameOutcome>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub volume_24h: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub liquidity: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_synced_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_url: Option<String>,
}

/// `data` of `GET /games/{game_id}`: the game, carrying every market of
/// every platform on it as one flat list (each market names its platform
/// and kind), the same layout as the markets of futures and awards. Group
/// with [`GameDetail::markets_of`] / [`GameDetail::markets_by_type`].
///
/// On the wire the game's fields and `markets` sit side by side (`{data:
/// Game & {markets}, meta}`, as the public service documents it: see
/// ../shared/spec/where-the-spec-is-silent.md). The older `{data: {game,
/// markets}}` layout is read too.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct GameResponse {
    pub data: GameDetail,
    #[serde(default, skip_serializing_if = "Option::is_none")]
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
