//! Parameters from the JS object a caller passes, into the core's request
//! structs, whose checks then run before anything is sent.
//!
//! Keys are the service's wire names (`include_raw`, `market_id`,
//! `takerOnly`), so parameters read like the responses. Reading is strict
//! where a typo would otherwise be silently ignored: an unknown key or a
//! value of the wrong type is a `VALIDATION_ERROR` naming the parameter.

use crate::json;
use js_sys::{Array, Object};
use predmarket_client::Error;
use predmarket_client::core::request::*;
use wasm_bindgen::{JsCast, JsValue};

pub struct Params {
    object: JsValue,
}

fn is_absent(value: &JsValue) -> bool {
    value.is_undefined() || value.is_null()
}

impl Params {
    /// `value` must be absent or a plain object whose keys are all in
    /// `allowed`.
    pub fn new(value: &JsValue, allowed: &[&str]) -> Result<Self, Error> {
        if is_absent(value) {
            return Ok(Self {
                object: JsValue::UNDEFINED,
            });
        }
        if !value.is_object() || Array::is_array(value) || value.is_function() {
            return Err(Error::invalid("params", "must be an object"));
        }
        for key in Object::keys(value.unchecked_ref::<Object>()).iter() {
            let Some(key) = key.as_string() else { continue };
            if allowed.contains(&key.as_str()) || is_absent(&json::get(value, &key)) {
                continue;
            }
            let hint = match key.as_str() {
                "signal" | "maxItems" => {
                    "; call options such as `signal` and `maxItems` go in the next argument"
                        .to_owned()
                }
                _ if allowed.is_empty() => String::from("; this operation takes no parameters"),
                _ => format!("; expected one of {}", allowed.join(", ")),
            };
            return Err(Error::invalid(
                key.clone(),
                format!("is not a parameter of this operation{hint}"),
            ));
        }
        Ok(Self {
            object: value.clone(),
        })
    }

    /// The first argument of an operation on one resource: its id as a
    /// string, or an object holding it under `id_key`.
    pub fn with_id(
        value: &JsValue,
        id_key: &str,
        allowed: &[&str],
    ) -> Result<(String, Self), Error> {
        if let Some(id) = value.as_string() {
            return Ok((id, Self::new(&JsValue::UNDEFINED, allowed)?));
        }
        let params = Self::new(value, allowed)?;
        let id = params.string(id_key)?.unwrap_or_default();
        Ok((id, params))
    }

    fn raw(&self, key: &str) -> Option<JsValue> {
        let value = json::get(&self.object, key);
        (!is_absent(&value)).then_some(value)
    }

    pub fn string(&self, key: &str) -> Result<Option<String>, Error> {
        match self.raw(key) {
            None => Ok(None),
            Some(value) => value
                .as_string()
                .map(Some)
                .ok_or_else(|| Error::invalid(key, "must be a string")),
        }
    }

    /// An open value set (platform, status, …): any string, checked by the
    /// core where the spec fixes the values.
    pub fn label<E: From<String>>(&self, key: &str) -> Result<Option<E>, Error> {
        Ok(self.string(key)?.map(E::from))
    }

    /// A whole number, as a number or a string of digits (the wire sends
    /// every query value as a string).
    pub fn int(&self, key: &str) -> Result<Option<i64>, Error> {
        let Some(value) = self.raw(key) else {
            return Ok(None);
        };
        let number = match value.as_string() {
            Some(text) => text.trim().parse::<f64>().ok(),
            None => value.as_f64(),
        };
        match number {
            Some(n) if n.is_finite() && n.fract() == 0.0 && n.abs() <= 9_007_199_254_740_991.0 => {
                Ok(Some(n as i64))
            }
            _ => Err(Error::invalid(key, "must be a whole number")),
        }
    }

    pub fn uint(&self, key: &str) -> Result<Option<u64>, Error> {
        match self.int(key)? {
            Some(n) if n < 0 => Err(Error::invalid(key, "must not be negative")),
            other => Ok(other.map(|n| n as u64)),
        }
    }

    pub fn u32(&self, key: &str) -> Result<Option<u32>, Error> {
        match self.uint(key)? {
            Some(n) => u32::try_from(n)
                .map(Some)
                .map_err(|_| Error::invalid(key, "is too large")),
            None => Ok(None),
        }
    }

    /// A boolean, or the strings `"true"` / `"false"` of the wire.
    pub fn bool(&self, key: &str) -> Result<Option<bool>, Error> {
        let Some(value) = self.raw(key) else {
            return Ok(None);
        };
        match (value.as_bool(), value.as_string().as_deref()) {
            (Some(b), _) => Ok(Some(b)),
            (None, Some("true")) => Ok(Some(true)),
            (None, Some("false")) => Ok(Some(false)),
            _ => Err(Error::invalid(key, "must be true or false")),
        }
    }

    /// An array of strings, or one comma-separated string (the wire form).
    pub fn strings(&self, key: &str) -> Result<Vec<String>, Error> {
        let Some(value) = self.raw(key) else {
            return Ok(Vec::new());
        };
        if let Some(text) = value.as_string() {
            return Ok(text.split(',').map(|s| s.trim().to_owned()).collect());
        }
        if !Array::is_array(&value) {
            return Err(Error::invalid(key, "must be an array of strings"));
        }
        Array::from(&value)
            .iter()
            .map(|item| {
                item.as_string()
                    .ok_or_else(|| Error::invalid(key, "must be an array of strings"))
            })
            .collect()
    }
}

// The allowed keys of each operation; the TypeScript interfaces in lib.rs
// list the same (a test compares them).
pub const LIST_SERIES: &[&str] = &[
    "limit",
    "cursor",
    "platform",
    "query",
    "include_raw",
    "include_nested",
];
pub const GET_SERIES: &[&str] = &["id", "platform", "include_raw", "include_nested"];
pub const LIST_MARKETS: &[&str] = &[
    "limit",
    "cursor",
    "platform",
    "status",
    "query",
    "category",
    "event_id",
    "series_id",
    "sort",
    "order",
    "include_raw",
];
pub const GET_MARKET: &[&str] = &["id", "platform", "include_raw"];
pub const GET_ORDERBOOK: &[&str] = &["id", "platform", "include_raw"];
pub const LIST_EVENTS: &[&str] = &[
    "limit",
    "cursor",
    "platform",
    "query",
    "series_id",
    "include_raw",
    "include_nested",
];
pub const GET_EVENT: &[&str] = &["id", "platform", "include_raw", "include_nested"];
pub const LIST_TRADES: &[&str] = &["market_id", "limit", "cursor", "takerOnly"];
pub const GET_LEAGUE_INFO: &[&str] = &["league", "include_teams"];
pub const LIST_GAMES: &[&str] = &["league", "status", "from", "to", "limit", "cursor"];
pub const GET_GAME: &[&str] = &["game_id"];
pub const LIST_PLATFORMS: &[&str] = &[];
pub const GET_FUTURE: &[&str] = &["id", "platform", "odds_format"];
pub const LIST_FUTURES: &[&str] = &["league", "future_type", "season", "limit", "offset"];
pub const GET_AWARD: &[&str] = &["id", "platform", "odds_format"];
pub const LIST_AWARDS: &[&str] = &["league", "award_type", "season", "limit", "offset"];
pub const GET_PRICE_HISTORY: &[&str] = &["market_ids", "start_ts", "end_ts", "interval", "limit"];
pub const GET_PROFILE_INFO: &[&str] = &["platform", "user", "include_metrics"];
pub const LIST_PROFILE_TRADES: &[&str] = &["platform", "user", "limit", "cursor"];

/// Every operation's name, TypeScript params interface and keys.
#[cfg_attr(not(test), allow(dead_code))]
pub const ALL: &[(&str, &str, &[&str])] = &[
    ("listSeries", "ListSeriesParams", LIST_SERIES),
    ("getSeries", "GetSeriesParams", GET_SERIES),
    ("listMarkets", "ListMarketsParams", LIST_MARKETS),
    ("getMarket", "GetMarketParams", GET_MARKET),
    ("getOrderbook", "GetOrderbookParams", GET_ORDERBOOK),
    ("listEvents", "ListEventsParams", LIST_EVENTS),
    ("getEvent", "GetEventParams", GET_EVENT),
    ("listTrades", "ListTradesParams", LIST_TRADES),
    ("getLeagueInfo", "GetLeagueInfoParams", GET_LEAGUE_INFO),
    ("listGames", "ListGamesParams", LIST_GAMES),
    ("getGame", "GetGameParams", GET_GAME),
    ("listPlatforms", "ListPlatformsParams", LIST_PLATFORMS),
    ("getFuture", "GetFutureParams", GET_FUTURE),
    ("listFutures", "ListFuturesParams", LIST_FUTURES),
    ("getAward", "GetAwardParams", GET_AWARD),
    ("listAwards", "ListAwardsParams", LIST_AWARDS),
    (
        "getPriceHistory",
        "GetPriceHistoryParams",
        GET_PRICE_HISTORY,
    ),
    ("getProfileInfo", "GetProfileInfoParams", GET_PROFILE_INFO),
    (
        "listProfileTrades",
        "ListProfileTradesParams",
        LIST_PROFILE_TRADES,
    ),
];

pub fn list_series(value: &JsValue) -> Result<ListSeries, Error> {
    let p = Params::new(value, LIST_SERIES)?;
    Ok(ListSeries {
        limit: p.u32("limit")?,
        cursor: p.string("cursor")?,
        platform: p.label("platform")?,
        query: p.string("query")?,
        include_raw: p.bool("include_raw")?,
        include_nested: p.bool("include_nested")?,
    })
}

pub fn get_series(value: &JsValue) -> Result<GetSeries, Error> {
    let (id, p) = Params::with_id(value, "id", GET_SERIES)?;
    Ok(GetSeries {
        id,
        platform: p.label("platform")?,
        include_raw: p.bool("include_raw")?,
        include_nested: p.bool("include_nested")?,
    })
}

pub fn list_markets(value: &JsValue) -> Result<ListMarkets, Error> {
    let p = Params::new(value, LIST_MARKETS)?;
    Ok(ListMarkets {
        limit: p.u32("limit")?,
        cursor: p.string("cursor")?,
        platform: p.label("platform")?,
        status: p.label("status")?,
        query: p.string("query")?,
        category: p.string("category")?,
        event_id: p.string("event_id")?,
        series_id: p.string("series_id")?,
        sort: p.label("sort")?,
        order: p.label("order")?,
        include_raw: p.bool("include_raw")?,
    })
}

pub fn get_market(value: &JsValue) -> Result<GetMarket, Error> {
    let (id, p) = Params::with_id(value, "id", GET_MARKET)?;
    Ok(GetMarket {
        id,
        platform: p.label("platform")?,
        include_raw: p.bool("include_raw")?,
    })
}

pub fn get_orderbook(value: &JsValue) -> Result<GetOrderbook, Error> {
    let (id, p) = Params::with_id(value, "id", GET_ORDERBOOK)?;
    Ok(GetOrderbook {
        id,
        platform: p.label("platform")?,
        include_raw: p.bool("include_raw")?,
    })
}

pub fn list_events(value: &JsValue) -> Result<ListEvents, Error> {
    let p = Params::new(value, LIST_EVENTS)?;
    Ok(ListEvents {
        limit: p.u32("limit")?,
        cursor: p.string("cursor")?,
        platform: p.label("platform")?,
        query: p.string("query")?,
        series_id: p.string("series_id")?,
        include_raw: p.bool("include_raw")?,
        include_nested: p.bool("include_nested")?,
    })
}

pub fn get_event(value: &JsValue) -> Result<GetEvent, Error> {
    let (id, p) = Params::with_id(value, "id", GET_EVENT)?;
    Ok(GetEvent {
        id,
        platform: p.label("platform")?,
        include_raw: p.bool("include_raw")?,
        include_nested: p.bool("include_nested")?,
    })
}

pub fn list_trades(value: &JsValue) -> Result<ListTrades, Error> {
    let (market_id, p) = Params::with_id(value, "market_id", LIST_TRADES)?;
    Ok(ListTrades {
        market_id,
        limit: p.u32("limit")?,
        cursor: p.string("cursor")?,
        taker_only: p.bool("takerOnly")?,
    })
}

pub fn get_league_info(value: &JsValue) -> Result<GetLeagueInfo, Error> {
    let p = Params::new(value, GET_LEAGUE_INFO)?;
    Ok(GetLeagueInfo {
        league: p.label("league")?,
        include_teams: p.bool("include_teams")?,
    })
}

pub fn list_games(value: &JsValue) -> Result<ListGames, Error> {
    let p = Params::new(value, LIST_GAMES)?;
    Ok(ListGames {
        league: p.label("league")?,
        status: p.label("status")?,
        from: p.string("from")?,
        to: p.string("to")?,
        limit: p.u32("limit")?,
        cursor: p.string("cursor")?,
    })
}

pub fn get_game(value: &JsValue) -> Result<GetGame, Error> {
    let (game_id, _) = Params::with_id(value, "game_id", GET_GAME)?;
    Ok(GetGame { game_id })
}

pub fn list_platforms(value: &JsValue) -> Result<ListPlatforms, Error> {
    Params::new(value, LIST_PLATFORMS)?;
    Ok(ListPlatforms)
}

pub fn get_future(value: &JsValue) -> Result<GetFuture, Error> {
    let (id, p) = Params::with_id(value, "id", GET_FUTURE)?;
    Ok(GetFuture {
        id,
        platform: p.label("platform")?,
        odds_format: p.label("odds_format")?,
    })
}

pub fn list_futures(value: &JsValue) -> Result<ListFutures, Error> {
    let p = Params::new(value, LIST_FUTURES)?;
    Ok(ListFutures {
        league: p.label("league")?,
        future_type: p.label("future_type")?,
        season: p.u32("season")?,
        limit: p.u32("limit")?,
        offset: p.uint("offset")?,
    })
}

pub fn get_award(value: &JsValue) -> Result<GetAward, Error> {
    let (id, p) = Params::with_id(value, "id", GET_AWARD)?;
    Ok(GetAward {
        id,
        platform: p.label("platform")?,
        odds_format: p.label("odds_format")?,
    })
}

pub fn list_awards(value: &JsValue) -> Result<ListAwards, Error> {
    let p = Params::new(value, LIST_AWARDS)?;
    Ok(ListAwards {
        league: p.label("league")?,
        award_type: p.label("award_type")?,
        season: p.u32("season")?,
        limit: p.u32("limit")?,
        offset: p.uint("offset")?,
    })
}

pub fn get_price_history(value: &JsValue) -> Result<GetPriceHistory, Error> {
    let p = Params::new(value, GET_PRICE_HISTORY)?;
    Ok(GetPriceHistory {
        market_ids: p.strings("market_ids")?,
        start_ts: p.int("start_ts")?,
        end_ts: p.int("end_ts")?,
        interval: p.label("interval")?,
        limit: p.u32("limit")?,
    })
}

pub fn get_profile_info(value: &JsValue) -> Result<GetProfileInfo, Error> {
    let p = Params::new(value, GET_PROFILE_INFO)?;
    Ok(GetProfileInfo {
        platform: p.label("platform")?,
        user: p.string("user")?.unwrap_or_default(),
        include_metrics: p.bool("include_metrics")?,
    })
}

pub fn list_profile_trades(value: &JsValue) -> Result<ListProfileTrades, Error> {
    let p = Params::new(value, LIST_PROFILE_TRADES)?;
    Ok(ListProfileTrades {
        platform: p.label("platform")?,
        user: p.string("user")?.unwrap_or_default(),
        limit: p.u32("limit")?,
        cursor: p.string("cursor")?,
    })
}
