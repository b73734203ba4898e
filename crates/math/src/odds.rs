//! The core's odds math as plain JS functions: notation conversions,
//! overround and no-vig probabilities, best prices and the arbitrage
//! finder across the platforms of a future, an award or a game.

use js_sys::Array;
use predmarket_core::Error;
use predmarket_core::models::{
    Award, AwardMarket, Candidate, Future, FutureMarket, FutureOutcome, GameMarket, GameMarketType,
    GameOutcome, GameOutcomeMetadata, Odds, PlatformId,
};
use predmarket_core::odds::{self, number_text};
use predmarket_js_values::{errors, json};
use wasm_bindgen::prelude::*;

fn throw(error: Error) -> JsValue {
    errors::to_js(&error)
}

/// An array of numbers, each checked.
pub fn numbers(value: &JsValue, parameter: &str) -> Result<Vec<f64>, Error> {
    if !Array::is_array(value) {
        return Err(Error::invalid(parameter, "must be an array of numbers"));
    }
    Array::from(value)
        .iter()
        .map(|v| {
            v.as_f64()
                .ok_or_else(|| Error::invalid(parameter, "must be an array of numbers"))
        })
        .collect()
}

/// `value`, or `value.data` when it is a whole response.
fn unwrap_data(value: &JsValue) -> JsValue {
    let data = json::get(value, "data");
    if data.is_object() {
        data
    } else {
        value.clone()
    }
}

/// An `Odds` object; american odds sent as a number are read like the
/// core's decoder reads them (`250` is `"+250"`).
fn odds_of(value: &JsValue) -> Option<Odds> {
    if !value.is_object() {
        return None;
    }
    let american = json::get(value, "american");
    let american = american.as_string().or_else(|| {
        american.as_f64().map(|n| {
            let text = number_text(n);
            if n > 0.0 { format!("+{text}") } else { text }
        })
    });
    Some(Odds {
        american,
        decimal: json::number(value, "decimal"),
        implied_probability: json::number(value, "implied_probability"),
    })
}

fn team_id(outcome: &JsValue) -> Option<String> {
    json::string(outcome, "team_service_id").or_else(|| json::string(outcome, "team_polyrouter_id"))
}

fn platform(value: &JsValue) -> Option<PlatformId> {
    json::string(value, "platform").map(PlatformId::from)
}

fn future_of(value: &JsValue) -> Future {
    let markets = json::elements(&json::get(value, "markets"))
        .iter()
        .map(|m| FutureMarket {
            platform: platform(m),
            market_id: json::string(m, "market_id"),
            outcomes: Some(
                json::elements(&json::get(m, "outcomes"))
                    .iter()
                    .map(|o| FutureOutcome {
                        outcome_name: json::string(o, "outcome_name"),
                        odds: odds_of(&json::get(o, "odds")),
                        team_service_id: team_id(o),
                        ..Default::default()
                    })
                    .collect(),
            ),
            ..Default::default()
        })
        .collect();
    Future {
        id: json::string(value, "id").unwrap_or_default(),
        markets: Some(markets),
        ..Default::default()
    }
}

fn award_of(value: &JsValue) -> Award {
    let markets = json::elements(&json::get(value, "markets"))
        .iter()
        .map(|m| AwardMarket {
            platform: platform(m),
            market_id: json::string(m, "market_id"),
            candidates: Some(
                json::elements(&json::get(m, "candidates"))
                    .iter()
                    .map(|c| Candidate {
                        player_name: json::string(c, "player_name"),
                        odds: odds_of(&json::get(c, "odds")),
                        team_service_id: team_id(c),
                        ..Default::default()
                    })
                    .collect(),
            ),
            ..Default::default()
        })
        .collect();
    Award {
        id: json::string(value, "id").unwrap_or_default(),
        markets: Some(markets),
        ..Default::default()
    }
}

fn game_markets_of(value: &JsValue) -> Vec<GameMarket> {
    json::elements(&json::get(value, "markets"))
        .iter()
        .map(|m| GameMarket {
            platform: platform(m),
            event_id: json::string(m, "event_id"),
            event_name: json::string(m, "event_name"),
            outcomes: Some(
                json::elements(&json::get(m, "outcomes"))
                    .iter()
                    .map(|o| {
                        let metadata = json::get(o, "metadata");
                        GameOutcome {
                            outcome_id: json::string(o, "outcome_id"),
                            name: json::string(o, "name")
                                .or_else(|| json::string(o, "outcome_name")),
                            team_service_id: team_id(o),
                            price: json::number(o, "price"),
                            odds: odds_of(&json::get(o, "odds")),
                            metadata: metadata.is_object().then(|| GameOutcomeMetadata {
                                market_type: json::string(&metadata, "market_type")
                                    .map(GameMarketType::from),
                                line: json::number(&metadata, "line"),
                                ..Default::default()
                            }),
                            ..Default::default()
                        }
                    })
                    .collect(),
            ),
            ..Default::default()
        })
        .collect()
}

fn quotes_in(value: &JsValue) -> Result<Vec<odds::Quote>, Error> {
    if !Array::is_array(value) {
        return Err(Error::invalid("quotes", "must be an array of quotes"));
    }
    json::elements(value)
        .iter()
        .map(|q| {
            let outcome = json::string(q, "outcome");
            let decimal = json::number(q, "decimal");
            match (outcome, decimal) {
                (Some(outcome), Some(decimal)) => Ok(odds::Quote {
                    outcome,
                    label: json::string(q, "label").unwrap_or_default(),
                    platform: platform(q),
                    market_id: json::string(q, "market_id"),
                    decimal,
                }),
                _ => Err(Error::invalid(
                    "quotes",
                    "each quote needs `outcome` and `decimal`",
                )),
            }
        })
        .collect()
}

fn quote_js(q: &odds::Quote) -> JsValue {
    json::Obj::new()
        .str("outcome", &q.outcome)
        .str("label", &q.label)
        .opt_str("platform", q.platform.as_ref().map(PlatformId::as_str))
        .opt_str("market_id", q.market_id.as_deref())
        .num("decimal", q.decimal)
        .build()
}

fn quotes_out(quotes: &[odds::Quote]) -> JsValue {
    json::array(quotes, quote_js)
}

/// Decimal odds of american odds: `"+250"` → 3.5, `"-110"` → 1.909….
#[wasm_bindgen(js_name = americanToDecimal)]
pub fn american_to_decimal(american: &str) -> Result<f64, JsValue> {
    odds::american_to_decimal(american).map_err(throw)
}

/// American odds of decimal odds, rounded as the notation is: 3.5 → `"+250"`.
#[wasm_bindgen(js_name = decimalToAmerican)]
pub fn decimal_to_american(decimal: f64) -> Result<String, JsValue> {
    odds::decimal_to_american(decimal).map_err(throw)
}

/// Implied probability of decimal odds (`1 / decimal`).
#[wasm_bindgen(js_name = decimalToProbability)]
pub fn decimal_to_probability(decimal: f64) -> Result<f64, JsValue> {
    odds::decimal_to_probability(decimal).map_err(throw)
}

/// Decimal odds of a probability in (0, 1).
#[wasm_bindgen(js_name = probabilityToDecimal)]
pub fn probability_to_decimal(probability: f64) -> Result<f64, JsValue> {
    odds::probability_to_decimal(probability).map_err(throw)
}

/// Implied probability of american odds: `"-110"` → 0.5238….
#[wasm_bindgen(js_name = americanToProbability)]
pub fn american_to_probability(american: &str) -> Result<f64, JsValue> {
    odds::american_to_probability(american).map_err(throw)
}

/// American odds of a probability in (0, 1): 0.2 → `"+400"`.
#[wasm_bindgen(js_name = probabilityToAmerican)]
pub fn probability_to_american(probability: f64) -> Result<String, JsValue> {
    odds::probability_to_american(probability).map_err(throw)
}

/// The implied probability of odds in any notation: an `Odds` object (from
/// whichever of its fields is present), american odds as a string
/// (`"+250"`), or decimal odds as a number (3.5). `undefined` when an
/// `Odds` object holds no usable price.
#[wasm_bindgen(js_name = impliedProbability, unchecked_return_type = "number | undefined")]
pub fn implied_probability(
    #[wasm_bindgen(js_name = odds, unchecked_param_type = "Odds | string | number")]
    odds_value: JsValue,
) -> Result<JsValue, JsValue> {
    if let Some(american) = odds_value.as_string() {
        return odds::american_to_probability(&american)
            .map(JsValue::from)
            .map_err(throw);
    }
    if let Some(decimal) = odds_value.as_f64() {
        return odds::decimal_to_probability(decimal)
            .map(JsValue::from)
            .map_err(throw);
    }
    let parsed = odds_of(&odds_value).ok_or_else(|| {
        throw(Error::invalid(
            "odds",
            "must be an Odds object, a string or a number",
        ))
    })?;
    Ok(parsed
        .probability()
        .map_or(JsValue::UNDEFINED, JsValue::from))
}

/// The bookmaker's margin of a market: the sum of its outcomes' implied
/// probabilities minus 1 (0.0476 for -110/-110).
#[wasm_bindgen]
pub fn overround(
    #[wasm_bindgen(unchecked_param_type = "number[]")] probabilities: JsValue,
) -> Result<f64, JsValue> {
    Ok(odds::overround(
        &numbers(&probabilities, "probabilities").map_err(throw)?,
    ))
}

/// Fair ("no-vig") probabilities: each implied probability divided by their
/// sum, so they add up to 1. `undefined` when the sum is not positive.
#[wasm_bindgen(js_name = noVigProbabilities, unchecked_return_type = "number[] | undefined")]
pub fn no_vig_probabilities(
    #[wasm_bindgen(unchecked_param_type = "number[]")] probabilities: JsValue,
) -> Result<JsValue, JsValue> {
    let probabilities = numbers(&probabilities, "probabilities").map_err(throw)?;
    Ok(match odds::no_vig(&probabilities) {
        Some(fair) => json::array(fair, JsValue::from_f64),
        None => JsValue::UNDEFINED,
    })
}

/// Names lower-cased by the JS engine (`toLowerCase`, the same Unicode
/// mapping as Rust's), so the package does not carry Rust's case tables.
fn js_lowercase(text: &str) -> String {
    js_sys::JsString::from(text).to_lower_case().into()
}

/// Every priced outcome of a future, one quote per platform and outcome.
#[wasm_bindgen(js_name = futureQuotes, unchecked_return_type = "Quote[]")]
pub fn future_quotes(
    #[wasm_bindgen(unchecked_param_type = "Future | FutureResponse")] future: JsValue,
) -> Result<JsValue, JsValue> {
    let future = future_of(&unwrap_data(&future));
    Ok(quotes_out(&odds::future_quotes_with(&future, js_lowercase)))
}

/// Every priced candidate of an award, one quote per platform and player.
#[wasm_bindgen(js_name = awardQuotes, unchecked_return_type = "Quote[]")]
pub fn award_quotes(
    #[wasm_bindgen(unchecked_param_type = "Award | AwardResponse")] award: JsValue,
) -> Result<JsValue, JsValue> {
    let award = award_of(&unwrap_data(&award));
    Ok(quotes_out(&odds::award_quotes_with(&award, js_lowercase)))
}

/// The quotes of a game's outcomes of one kind and line (every platform's
/// moneyline, or every total at 47.5): only those are comparable. The kind
/// is the one each outcome's `metadata.market_type` says.
#[wasm_bindgen(js_name = gameQuotes, unchecked_return_type = "Quote[]")]
pub fn game_quotes(
    #[wasm_bindgen(unchecked_param_type = "GameDetail | GameResponse")] game: JsValue,
    #[wasm_bindgen(js_name = marketType, unchecked_param_type = "GameMarketType")]
    market_type: JsValue,
    line: Option<f64>,
) -> Result<JsValue, JsValue> {
    let markets = game_markets_of(&unwrap_data(&game));
    let kind = market_type
        .as_string()
        .map(GameMarketType::from)
        .ok_or_else(|| {
            throw(Error::invalid(
                "marketType",
                "must be a string such as \"moneyline\"",
            ))
        })?;
    Ok(quotes_out(&odds::game_quotes_with(
        &markets,
        &kind,
        line,
        js_lowercase,
    )))
}

/// The best price (highest decimal odds) of each outcome, keyed by outcome.
#[wasm_bindgen(js_name = bestPrices, unchecked_return_type = "Record<string, Quote>")]
pub fn best_prices(
    #[wasm_bindgen(unchecked_param_type = "Quote[]")] quotes: JsValue,
) -> Result<JsValue, JsValue> {
    let quotes = quotes_in(&quotes).map_err(throw)?;
    let best = json::object();
    for (outcome, quote) in odds::best_prices(&quotes) {
        // An outcome may be named `__proto__`: an own key all the same.
        json::set(&best, &outcome, &quote_js(&quote));
    }
    Ok(best)
}

/// Stakes on the best price of every outcome that return the same amount
/// whichever wins, when those prices together pay more than they take.
/// `quotes` must cover every outcome of one question; pass `required` (the
/// outcome keys, e.g. a future's `metadata.eligible_teams`) to insist on
/// them all. `undefined` when there is no arbitrage.
#[wasm_bindgen(js_name = findArbitrage, unchecked_return_type = "Arbitrage | undefined")]
pub fn find_arbitrage(
    #[wasm_bindgen(unchecked_param_type = "Quote[]")] quotes: JsValue,
    budget: f64,
    #[wasm_bindgen(unchecked_optional_param_type = "string[] | null")] required: JsValue,
) -> Result<JsValue, JsValue> {
    let quotes = quotes_in(&quotes).map_err(throw)?;
    let found = if required.is_undefined() || required.is_null() {
        odds::find_arbitrage(&quotes, budget)
    } else {
        if !Array::is_array(&required) {
            return Err(throw(Error::invalid(
                "required",
                "must be an array of strings",
            )));
        }
        let required: Vec<String> = json::elements(&required)
            .iter()
            .map(|r| {
                r.as_string()
                    .ok_or_else(|| throw(Error::invalid("required", "must be an array of strings")))
            })
            .collect::<Result<_, _>>()?;
        odds::find_arbitrage_among(&quotes, &required, budget)
    };
    let Some(found) = found else {
        return Ok(JsValue::UNDEFINED);
    };
    let legs = json::array(&found.legs, |leg| {
        json::Obj::new()
            .val("quote", &quote_js(&leg.quote))
            .num("stake", leg.stake)
            .num("payout", leg.payout)
            .build()
    });
    Ok(json::Obj::new()
        .val("legs", &legs)
        .num("implied_sum", found.implied_sum)
        .num("total_stake", found.total_stake)
        .num("guaranteed_payout", found.guaranteed_payout)
        .num("guaranteed_profit", found.guaranteed_profit)
        .num("roi", found.roi)
        .build())
}
