//! Game ids (`{Away}v{Home}{YYYYMMDD}@{LEAGUE}`) as plain JS functions.

use predmarket_core::Error;
use predmarket_core::error::Quoted;
use predmarket_core::game_id::{GameDate, GameId};
use predmarket_js_values::{errors, json};
use wasm_bindgen::prelude::*;

fn throw(error: Error) -> JsValue {
    errors::to_js(&error)
}

fn date_of(text: &str) -> Result<GameDate, Error> {
    let digits: String = text.chars().filter(|c| *c != '-').collect();
    let bad = || Error::invalid("date", format!("{} is not a date YYYY-MM-DD", Quoted(text)));
    if digits.len() != 8 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let num = |range: std::ops::Range<usize>| digits.get(range).and_then(|s| s.parse::<u16>().ok());
    match (num(0..4), num(4..6), num(6..8)) {
        (Some(y), Some(m), Some(d)) => GameDate::new(y, m as u8, d as u8).ok_or_else(bad),
        _ => Err(bad()),
    }
}

/// Splits a game id into its parts; throws `VALIDATION_ERROR` (parameter
/// `game_id`) when it is not one.
#[wasm_bindgen(js_name = parseGameId, unchecked_return_type = "GameIdParts")]
pub fn parse_game_id(id: &str) -> Result<JsValue, JsValue> {
    let parsed = GameId::parse(id).map_err(throw)?;
    Ok(json::Obj::new()
        .str("away", &parsed.away)
        .str("home", &parsed.home)
        .str("date", &parsed.date.iso())
        .opt_str("league", parsed.league.as_deref())
        .build())
}

/// Builds a game id from its parts, checking each.
#[wasm_bindgen(js_name = formatGameId)]
pub fn format_game_id(
    #[wasm_bindgen(unchecked_param_type = "GameIdParts")] parts: JsValue,
) -> Result<String, JsValue> {
    let field = |key: &str| {
        json::string(&parts, key)
            .ok_or_else(|| throw(Error::invalid(key, "is required (a string)")))
    };
    let date = date_of(&field("date")?).map_err(throw)?;
    let league = json::string(&parts, "league");
    let id = GameId::new(field("away")?, field("home")?, date, league).map_err(throw)?;
    Ok(id.to_string())
}

/// Whether two game ids name the same game (one may lack the league suffix).
#[wasm_bindgen(js_name = isSameGame)]
pub fn is_same_game(a: &str, b: &str) -> Result<bool, JsValue> {
    let a = GameId::parse(a).map_err(throw)?;
    let b = GameId::parse(b).map_err(throw)?;
    Ok(a.same_game(&b))
}
