//! Games: `GET /list-games` and `GET /games/{game_id}`. Parsing and
//! formatting game ids lives in `crate::game_id`.

use super::list::Body;
use super::{League, MarketStatus, Odds, Pagination, PlatformId, SkippedItem, SportsMeta};
use super::{OffsetPagination, OrderbookSide, PriceLevel};
use predmarket_model_derive::model;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

open_enum!(
    /// `game.status`; the spec shows `not_started`, the public service's
    /// pages also `live`.
    GameStatus, GAME_STATUS_TS {
        NotStarted = "not_started",
        Live = "live",
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
    /// The kind of a game outcome's market, where the service says it
    /// (`outcomes[].metadata.market_type`): moneyline, spread, total, or a
    /// proposition.
    GameMarketType, GAME_MARKET_TYPE_TS {
        Moneyline = "moneyline",
        Spread = "spread",
        Total = "total",
        Prop = "prop",
    }
);

#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Game {
    /// `{Away}v{Home}{YYYYMMDD}@{LEAGUE}` (see `crate::game_id`). The older
    /// list-games pages send no `id`: their `polyrouter_id` is read as the
    /// id (and kept as sent).
    pub id: String,
    pub title: Option<String>,
    pub sport: Option<String>,
    #[model(ts = "League")]
    pub league: Option<League>,
    pub description: Option<String>,
    pub category: Option<String>,
    pub image_url: Option<String>,
    /// Team names or ids, away team first. Filled from `away_team` /
    /// `home_team` when the service sends those instead.
    pub teams: Option<Vec<String>>,
    /// The away team as the older list-games pages send it.
    pub away_team: Option<GameTeam>,
    /// The home team as the older list-games pages send it.
    pub home_team: Option<GameTeam>,
    /// ISO 8601.
    #[model(timestamp)]
    pub scheduled_at: Option<String>,
    #[model(ts = "GameStatus")]
    pub status: Option<GameStatus>,
    pub tags: Option<Vec<String>>,
    #[model(ts = "Record<string, unknown>")]
    pub metadata: Option<BTreeMap<String, Value>>,
    /// Every other field, as sent.
    #[serde(flatten)]
    #[cfg_attr(feature = "schema", schemars(skip))]
    #[model(ts = "Record<string, unknown>")]
    pub extra: BTreeMap<String, Value>,
}

/// A team of a game (`away_team`, `home_team`).
#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct GameTeam {
    /// The public service spells it `polyrouter_id`, kept under that name.
    pub polyrouter_id: Option<String>,
    pub service_id: Option<String>,
    pub name: Option<String>,
    pub abbreviation: Option<String>,
    pub city: Option<String>,
    /// Every other field, as sent.
    #[serde(flatten)]
    #[cfg_attr(feature = "schema", schemars(skip))]
    #[model(ts = "Record<string, unknown>")]
    pub extra: BTreeMap<String, Value>,
}

impl GameTeam {
    /// The team's id, whichever spelling was sent.
    pub fn id(&self) -> Option<&str> {
        self.service_id.as_deref().or(self.polyrouter_id.as_deref())
    }

    /// How the team is named in `teams`: its abbreviation, else its name,
    /// else its id.
    pub fn short_name(&self) -> Option<&str> {
        [&self.abbreviation, &self.name]
            .into_iter()
            .find_map(|t| t.as_deref().filter(|t| !t.trim().is_empty()))
            .or_else(|| self.id())
    }
}

/// A game object as sent, made readable by [`Game`]: the older pages'
/// `polyrouter_id` becomes the `id` when there is none, and `teams` is
/// filled from `away_team` / `home_team` when absent. Everything sent is
/// kept.
pub(crate) fn game_value(mut value: Value) -> Value {
    let Some(game) = value.as_object_mut() else {
        return value;
    };
    let has_id = game
        .get("id")
        .is_some_and(|v| v.is_string() || v.is_number());
    if !has_id
        && let Some(id) = game
            .get("polyrouter_id")
            .filter(|v| v.is_string() || v.is_number())
    {
        let id = id.clone();
        game.insert("id".to_owned(), id);
    }
    let no_teams = game
        .get("teams")
        .is_none_or(|t| t.as_array().is_none_or(Vec::is_empty));
    if no_teams {
        let teams: Vec<Value> = ["away_team", "home_team"]
            .iter()
            .filter_map(|k| game.get(*k))
            .filter_map(|t| GameTeam::deserialize(t).ok())
            .filter_map(|t| t.short_name().map(|n| Value::String(n.to_owned())))
            .collect();
        if !teams.is_empty() {
            game.insert("teams".to_owned(), Value::Array(teams));
        }
    }
    value
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

/// `{games, pagination}`, at the top level or inside `data`; each game
/// read through `game_value`.
impl<'de> Deserialize<'de> for GamesPage {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use super::list::{Body, decode_items};
        let mut body = Body::new(Value::deserialize(d)?)?;
        let games = match body.take(&["games"]) {
            Some(Value::Array(items)) => Value::Array(items.into_iter().map(game_value).collect()),
            Some(other) => other,
            None => return Err(serde::de::Error::custom("no `games` list in the body")),
        };
        let (games, skipped) = decode_items(Some(games)).map_err(serde::de::Error::custom)?;
        Ok(Self {
            games,
            pagination: Body::part(body.take_top(&["pagination"])),
            skipped,
        })
    }
}

impl super::Skipped for GamesPage {
    fn skipped(&self) -> &[SkippedItem] {
        &self.skipped
    }
}

/// Response of `GET /list-games`: `{data: {games, pagination}, meta}`.
#[model]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "tsify", tsify(rename = "ListGamesEnvelope"))]
pub struct ListGamesResponse {
    pub data: GamesPage,
    pub meta: Option<SportsMeta>,
}

page_envelope!(ListGamesResponse => GamesPage);

// The envelopes JS may receive (the spec's shape, declared from the
// struct above by tsify, or the public service's other documented one)
// are the union `ListGamesResponse` of crates/wasm/js/types/envelopes.d.ts.

/// One level of an outcome's order book: `{price, qty, status, side,
/// timestamp}`.
#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct BookLevel {
    pub price: Option<f64>,
    /// The size at the price (see [`BookLevel::size`]).
    pub qty: Option<f64>,
    /// The size under the spelling of some platforms.
    pub size: Option<f64>,
    pub status: Option<String>,
    /// `bid` / `ask` (also `buy` / `sell`).
    pub side: Option<String>,
    #[model(timestamp)]
    pub timestamp: Option<String>,
    /// Every other field, as sent.
    #[serde(flatten)]
    #[cfg_attr(feature = "schema", schemars(skip))]
    #[model(ts = "Record<string, unknown>")]
    pub extra: BTreeMap<String, Value>,
}

impl BookLevel {
    /// The size at the price, whichever spelling was sent.
    pub fn size(&self) -> Option<f64> {
        self.qty.or(self.size)
    }

    /// Whether the level is an offer to sell (`ask`, `sell`, `offer`).
    pub fn is_ask(&self) -> bool {
        self.side.as_deref().is_some_and(|s| {
            ["ask", "asks", "sell", "offer"]
                .iter()
                .any(|a| s.trim().eq_ignore_ascii_case(a))
        })
    }
}

/// The order book of one game outcome: the levels of its `yes` and `no`
/// tokens, each level saying its side. Not sorted (see
/// `crate::orderbook::Book`).
#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct OutcomeBook {
    pub yes: Option<Vec<BookLevel>>,
    pub no: Option<Vec<BookLevel>>,
    /// Every other field, as sent.
    #[serde(flatten)]
    #[cfg_attr(feature = "schema", schemars(skip))]
    #[model(ts = "Record<string, unknown>")]
    pub extra: BTreeMap<String, Value>,
}

impl OutcomeBook {
    /// One token's levels as bids and asks; a level that does not say its
    /// side is read as a bid (a resting order to buy the token), one
    /// without a price or a size is left out.
    pub fn side_of(levels: Option<&[BookLevel]>) -> OrderbookSide {
        let mut side = OrderbookSide::default();
        for level in levels.unwrap_or_default() {
            let (Some(price), Some(size)) = (level.price, level.size()) else {
                continue;
            };
            let level_out = PriceLevel::new(price, size);
            if level.is_ask() {
                side.asks.push(level_out);
            } else {
                side.bids.push(level_out);
            }
        }
        side
    }

    /// The `yes` token's levels as bids and asks.
    pub fn yes_side(&self) -> OrderbookSide {
        Self::side_of(self.yes.as_deref())
    }

    /// The `no` token's levels as bids and asks.
    pub fn no_side(&self) -> OrderbookSide {
        Self::side_of(self.no.as_deref())
    }
}

/// `metadata` of a game outcome: the kind of its market on older pages
/// (and on the reference server), the line of a spread or total where
/// given, and the platform's own keys.
#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct GameOutcomeMetadata {
    #[model(ts = "GameMarketType")]
    pub market_type: Option<GameMarketType>,
    /// The handicap of a spread side (`-3.5`), the points of a total.
    pub line: Option<f64>,
    /// Every other key (`clobTokenIds`, …), as sent.
    #[serde(flatten)]
    #[cfg_attr(feature = "schema", schemars(skip))]
    #[model(ts = "Record<string, unknown>")]
    pub extra: BTreeMap<String, Value>,
}

/// One outcome of a platform event on a game: a team, a side of a
/// spread, `Over`/`Under`, or a proposition.
#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct GameOutcome {
    pub outcome_id: Option<String>,
    /// The outcome's id at the platform (a token or ticker).
    pub platform_id: Option<String>,
    /// The outcome's name (see [`GameOutcome::label`]).
    pub name: Option<String>,
    /// The name under the spelling of some pages.
    pub outcome_name: Option<String>,
    /// The team's `service_id`, for team outcomes (see
    /// [`GameOutcome::team_id`]).
    pub team_service_id: Option<String>,
    /// The team's id as the public service spells it.
    pub team_polyrouter_id: Option<String>,
    /// Price in 0..1 (the outcome's share price at the platform).
    pub price: Option<f64>,
    pub volume: Option<f64>,
    pub liquidity: Option<f64>,
    #[model(ts = "MarketStatus")]
    pub status: Option<MarketStatus>,
    pub order_book: Option<OutcomeBook>,
    pub odds: Option<Odds>,
    pub metadata: Option<GameOutcomeMetadata>,
    /// Every other field, as sent.
    #[serde(flatten)]
    #[cfg_attr(feature = "schema", schemars(skip))]
    #[model(ts = "Record<string, unknown>")]
    pub extra: BTreeMap<String, Value>,
}

impl GameOutcome {
    /// The name, whichever spelling was sent.
    pub fn label(&self) -> Option<&str> {
        self.name.as_deref().or(self.outcome_name.as_deref())
    }

    /// The team's id, whichever spelling was sent.
    pub fn team_id(&self) -> Option<&str> {
        self.team_service_id
            .as_deref()
            .or(self.team_polyrouter_id.as_deref())
    }

    /// The kind of the outcome's market, when the service says it
    /// (case-insensitive).
    pub fn kind(&self) -> Option<GameMarketType> {
        let kind = self.metadata.as_ref()?.market_type.as_ref()?;
        Some(GameMarketType::from(
            kind.as_str().trim().to_ascii_lowercase().as_str(),
        ))
    }

    /// The line of a spread or total: `metadata.line`, else a signed
    /// number ending the name (`Chiefs -3.5`, `Over 47.5`).
    pub fn line(&self) -> Option<f64> {
        self.metadata
            .as_ref()
            .and_then(|m| m.line)
            .or_else(|| self.label().and_then(trailing_number))
    }

    /// The name without a trailing line (`Chiefs -3.5` → `Chiefs`), for
    /// matching the same side across platforms.
    pub fn side_name(&self) -> Option<&str> {
        let name = self.label()?.trim();
        match name.rsplit_once(char::is_whitespace) {
            Some((head, tail)) if parse_line(tail).is_some() => Some(head.trim_end()),
            _ => Some(name),
        }
    }
}

fn parse_line(text: &str) -> Option<f64> {
    let t = text.trim().trim_start_matches('(').trim_end_matches(')');
    let first = t.chars().next()?;
    if !(first.is_ascii_digit() || first == '+' || first == '-') {
        return None;
    }
    crate::number::parse(t.strip_prefix('+').unwrap_or(t)).filter(|n| n.is_finite())
}

fn trailing_number(name: &str) -> Option<f64> {
    let (_, tail) = name.trim().rsplit_once(char::is_whitespace)?;
    parse_line(tail)
}

/// `metadata` of a platform event on a game (older pages): its volume and
/// how many markets it holds.
#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct GameMarketMetadata {
    pub volume: Option<f64>,
    pub volume_24h: Option<f64>,
    #[model(integer)]
    pub market_count: Option<f64>,
    /// Every other key, as sent.
    #[serde(flatten)]
    #[cfg_attr(feature = "schema", schemars(skip))]
    #[model(ts = "Record<string, unknown>")]
    pub extra: BTreeMap<String, Value>,
}

/// One platform event on a game with its outcomes, as the public service
/// sends a game's `markets`: one entry per platform event, not one per
/// market type (the kind, where given, is on each outcome).
#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct GameMarket {
    #[model(ts = "PlatformId")]
    pub platform: Option<PlatformId>,
    /// May be `""`.
    pub event_id: Option<String>,
    pub event_name: Option<String>,
    pub event_slug: Option<String>,
    pub outcomes: Option<Vec<GameOutcome>>,
    pub metadata: Option<GameMarketMetadata>,
    /// Every other field, as sent.
    #[serde(flatten)]
    #[cfg_attr(feature = "schema", schemars(skip))]
    #[model(ts = "Record<string, unknown>")]
    pub extra: BTreeMap<String, Value>,
}

impl GameMarket {
    /// A name to show: the event's name, else its slug, else its id.
    pub fn name(&self) -> Option<&str> {
        [&self.event_name, &self.event_slug, &self.event_id]
            .into_iter()
            .find_map(|t| t.as_deref().filter(|t| !t.trim().is_empty()))
    }

    /// The event's volume: `metadata.volume`, else the sum of its
    /// outcomes' volumes (when any says one).
    pub fn volume(&self) -> Option<f64> {
        self.metadata
            .as_ref()
            .and_then(|m| m.volume)
            .or_else(|| sum(self.outcomes(), |o| o.volume))
    }

    /// The event's 24-hour volume (`metadata.volume_24h`).
    pub fn volume_24h(&self) -> Option<f64> {
        self.metadata.as_ref().and_then(|m| m.volume_24h)
    }

    /// The sum of its outcomes' liquidity (when any says one).
    pub fn liquidity(&self) -> Option<f64> {
        sum(self.outcomes(), |o| o.liquidity)
    }

    /// The outcomes, none when absent.
    pub fn outcomes(&self) -> &[GameOutcome] {
        self.outcomes.as_deref().unwrap_or_default()
    }
}

fn sum(outcomes: &[GameOutcome], of: impl Fn(&GameOutcome) -> Option<f64>) -> Option<f64> {
    outcomes
        .iter()
        .filter_map(of)
        .filter(|n| n.is_finite())
        .fold(None, |acc, n| Some(acc.unwrap_or(0.0) + n))
}

impl super::Priced for GameOutcome {
    fn label(&self) -> Option<&str> {
        GameOutcome::label(self)
    }
    fn team(&self) -> Option<&str> {
        self.team_id()
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
        self.event_id.as_deref()
    }
    fn outcomes(&self) -> &[GameOutcome] {
        GameMarket::outcomes(self)
    }
}

/// `data` of `GET /games/{game_id}`: the game, carrying its platform
/// events (`markets`, see [`GameMarket`]). Group with
/// [`GameDetail::markets_of`]; odds boards come from
/// `crate::odds::game_boards`.
///
/// On the wire the game's fields and `markets` sit side by side (`{data:
/// Game & {markets}, meta}`, as the public service documents it). The
/// older `{data: {game, markets}}` layout is read too.
#[model]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GameDetail {
    #[serde(flatten)]
    pub game: Game,
    #[serde(default)]
    pub markets: Vec<GameMarket>,
}

impl GameDetail {
    /// Reads a game object (flat or `{game, markets}`).
    fn from_value(value: Value) -> Result<Self, String> {
        let (game, markets) = match value {
            Value::Object(mut o) if o.get("game").is_some_and(Value::is_object) => {
                let game = o.remove("game").unwrap_or_default();
                (game, o.remove("markets"))
            }
            Value::Object(mut o) => {
                let markets = o.remove("markets");
                (Value::Object(o), markets)
            }
            other => return Err(format!("expected a game object, found {other}")),
        };
        let game = Game::deserialize(game_value(game)).map_err(|e| e.to_string())?;
        let markets = match markets {
            Some(Value::Array(items)) => items
                .into_iter()
                .filter_map(|m| GameMarket::deserialize(m).ok())
                .collect(),
            _ => Vec::new(),
        };
        Ok(Self { game, markets })
    }

    /// Same-id game objects as one (the older by-id envelope may send one
    /// per platform): the first object's fields, every object's markets.
    fn merge(&mut self, other: Self) {
        self.markets.extend(other.markets);
        for (k, v) in other.game.extra {
            self.game.extra.entry(k).or_insert(v);
        }
    }

    /// The platform events of one platform.
    pub fn markets_of<'a>(
        &'a self,
        platform: &'a PlatformId,
    ) -> impl Iterator<Item = &'a GameMarket> + 'a {
        self.markets
            .iter()
            .filter(move |m| m.platform.as_ref() == Some(platform))
    }

    /// Every outcome of one kind (e.g. every platform's moneyline sides),
    /// with its platform event.
    pub fn outcomes_of_kind<'a>(
        &'a self,
        kind: &'a GameMarketType,
    ) -> impl Iterator<Item = (&'a GameMarket, &'a GameOutcome)> + 'a {
        self.markets.iter().flat_map(move |m| {
            m.outcomes()
                .iter()
                .filter(move |o| o.kind().as_ref() == Some(kind))
                .map(move |o| (m, o))
        })
    }
}

impl<'de> Deserialize<'de> for GameDetail {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Self::from_value(Value::deserialize(deserializer)?).map_err(serde::de::Error::custom)
    }
}

/// Response of `GET /games/{game_id}`: `{data: Game & {markets}, meta}`;
/// the older pages' `{games: [game, …], pagination, meta}` is read too
/// (same-id objects merged, read by the `by_id` module).
#[model]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GameResponse {
    pub data: GameDetail,
    pub meta: Option<SportsMeta>,
    /// Sent by the older pages' `{games: [...], pagination, meta}`.
    pub pagination: Option<OffsetPagination>,
}

impl<'de> Deserialize<'de> for GameResponse {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let by_id = super::by_id::ById::read(Value::deserialize(d)?, "games")
            .map_err(serde::de::Error::custom)?;
        let mut items = by_id.items.into_iter();
        let first = items
            .next()
            .ok_or_else(|| serde::de::Error::custom("no game in the body"))?;
        let mut data = GameDetail::from_value(first).map_err(serde::de::Error::custom)?;
        for item in items {
            if let Ok(other) = GameDetail::from_value(item)
                && other.game.id == data.game.id
            {
                data.merge(other);
            }
        }
        Ok(Self {
            data,
            meta: Body::part(by_id.meta),
            pagination: Body::part(by_id.pagination),
        })
    }
}

/// Response of `getGame`.
pub type GetGameResponse = GameResponse;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_detail_reads_the_flat_and_the_nested_layout() {
        let flat: GameDetail = serde_json::from_str(
            r#"{"id":"KCvSF20250209@NFL","status":"not_started","markets":[{"platform":"kalshi","event_id":"E1"}]}"#,
        )
        .expect("flat");
        let nested: GameDetail = serde_json::from_str(
            r#"{"game":{"id":"KCvSF20250209@NFL","status":"not_started"},"markets":[{"platform":"kalshi","event_id":"E1"}]}"#,
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
