//! The core's order book analytics as plain JS functions. Each takes the
//! answer of `getOrderbook`, its `data`, or one outcome's `{ bids, asks }`;
//! for a whole book, `outcome` picks `"yes"` (default) or `"no"`, completed
//! from the other outcome where a half is missing.

use predmarket_core::Error;
use predmarket_core::models::{Orderbook, OrderbookSide, PriceLevel};
use predmarket_core::orderbook::{Book, DepthPoint, Side};
use predmarket_js_values::{errors, json};
use wasm_bindgen::prelude::*;

fn throw(error: Error) -> JsValue {
    errors::to_js(&error)
}

fn side_of(value: &JsValue) -> Option<OrderbookSide> {
    value.is_object().then(|| OrderbookSide {
        bids: json::price_levels(&json::get(value, "bids")),
        asks: json::price_levels(&json::get(value, "asks")),
        depth: None,
    })
}

/// The normalized book of `input` (see the module's doc).
fn book_of(input: &JsValue, outcome: &JsValue) -> Result<Book, Error> {
    let no = match outcome.as_string().as_deref() {
        None if outcome.is_undefined() || outcome.is_null() => false,
        Some("yes") => false,
        Some("no") => true,
        _ => return Err(Error::invalid("outcome", "must be \"yes\" or \"no\"")),
    };
    let data = json::get(input, "data");
    let whole = if data.is_object() {
        data
    } else {
        input.clone()
    };
    if !whole.is_object() {
        return Err(Error::invalid("book", "must be an order book"));
    }
    let has = |key: &str| !json::get(&whole, key).is_undefined();
    if has("bids") || has("asks") {
        return Ok(side_of(&whole)
            .map(|side| Book::new(&side))
            .unwrap_or_default());
    }
    let book = Orderbook {
        yes: side_of(&json::get(&whole, "yes")),
        no: side_of(&json::get(&whole, "no")),
        ..Default::default()
    };
    Ok(if no { book.no_book() } else { book.yes_book() })
}

fn level_js(level: &PriceLevel) -> JsValue {
    json::Obj::new()
        .num("price", level.price)
        .num("size", level.size)
        .build()
}

fn level(level: Option<PriceLevel>) -> Result<JsValue, JsValue> {
    Ok(level.as_ref().map_or(JsValue::UNDEFINED, level_js))
}

fn number(n: Option<f64>) -> JsValue {
    n.map_or(JsValue::UNDEFINED, JsValue::from)
}

/// The best (highest) bid; `undefined` on an empty side.
#[wasm_bindgen(js_name = bestBid, unchecked_return_type = "PriceLevel | undefined")]
pub fn best_bid(
    #[wasm_bindgen(unchecked_param_type = "BookInput")] book: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "BookOutcome")] outcome: JsValue,
) -> Result<JsValue, JsValue> {
    level(book_of(&book, &outcome).map_err(throw)?.best_bid())
}

/// The best (lowest) ask; `undefined` on an empty side.
#[wasm_bindgen(js_name = bestAsk, unchecked_return_type = "PriceLevel | undefined")]
pub fn best_ask(
    #[wasm_bindgen(unchecked_param_type = "BookInput")] book: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "BookOutcome")] outcome: JsValue,
) -> Result<JsValue, JsValue> {
    level(book_of(&book, &outcome).map_err(throw)?.best_ask())
}

/// The mid price between best bid and best ask; `undefined` unless both exist.
#[wasm_bindgen(js_name = midPrice, unchecked_return_type = "number | undefined")]
pub fn mid_price(
    #[wasm_bindgen(unchecked_param_type = "BookInput")] book: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "BookOutcome")] outcome: JsValue,
) -> Result<JsValue, JsValue> {
    Ok(number(book_of(&book, &outcome).map_err(throw)?.mid()))
}

/// Best ask minus best bid; `undefined` unless both exist (negative when crossed).
#[wasm_bindgen(unchecked_return_type = "number | undefined")]
pub fn spread(
    #[wasm_bindgen(unchecked_param_type = "BookInput")] book: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "BookOutcome")] outcome: JsValue,
) -> Result<JsValue, JsValue> {
    Ok(number(book_of(&book, &outcome).map_err(throw)?.spread()))
}

/// The book normalized: sorted best first, empty and duplicate levels merged.
#[wasm_bindgen(js_name = normalizeBook, unchecked_return_type = "NormalizedBook")]
pub fn normalize_book(
    #[wasm_bindgen(unchecked_param_type = "BookInput")] book: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "BookOutcome")] outcome: JsValue,
) -> Result<JsValue, JsValue> {
    let book = book_of(&book, &outcome).map_err(throw)?;
    Ok(json::Obj::new()
        .val("bids", &json::array(&book.bids, level_js))
        .val("asks", &json::array(&book.asks, level_js))
        .build())
}

/// Whether the best bid is above the best ask.
#[wasm_bindgen(js_name = isCrossed)]
pub fn is_crossed(
    #[wasm_bindgen(unchecked_param_type = "BookInput")] book: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "BookOutcome")] outcome: JsValue,
) -> Result<bool, JsValue> {
    Ok(book_of(&book, &outcome).map_err(throw)?.is_crossed())
}

/// Walks the book to fill `size`: a buy takes asks from the lowest, a sell
/// takes bids from the highest. Gives the VWAP, slippage and whether the
/// book held enough.
#[wasm_bindgen(js_name = vwapToFill, unchecked_return_type = "Fill")]
pub fn vwap_to_fill(
    #[wasm_bindgen(unchecked_param_type = "BookInput")] book: JsValue,
    #[wasm_bindgen(unchecked_param_type = "\"buy\" | \"sell\"")] side: JsValue,
    size: f64,
    #[wasm_bindgen(unchecked_optional_param_type = "BookOutcome")] outcome: JsValue,
) -> Result<JsValue, JsValue> {
    let (side, name) = match side.as_string().as_deref() {
        Some("buy") => (Side::Buy, "buy"),
        Some("sell") => (Side::Sell, "sell"),
        _ => return Err(throw(Error::invalid("side", "must be \"buy\" or \"sell\""))),
    };
    if !(size.is_finite() && size >= 0.0) {
        return Err(throw(Error::invalid("size", "must be a number ≥ 0")));
    }
    let fill = book_of(&book, &outcome).map_err(throw)?.fill(side, size);
    Ok(json::Obj::new()
        .str("side", name)
        .num("requested", fill.requested)
        .num("filled", fill.filled)
        .num("cost", fill.cost)
        .opt_num("vwap", fill.vwap)
        .opt_num("best_price", fill.best_price)
        .opt_num("worst_price", fill.worst_price)
        .opt_num("slippage", fill.slippage)
        .opt_num("slippage_ratio", fill.slippage_ratio())
        .num("levels_used", fill.levels_used as f64)
        .bool("partial", fill.is_partial())
        .build())
}

/// Cumulative depth of both sides from the best price outward (for charts).
#[wasm_bindgen(js_name = depthCurve, unchecked_return_type = "DepthCurve")]
pub fn depth_curve(
    #[wasm_bindgen(unchecked_param_type = "BookInput")] book: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "BookOutcome")] outcome: JsValue,
) -> Result<JsValue, JsValue> {
    let curve = book_of(&book, &outcome).map_err(throw)?.depth_curve();
    let point = |p: &DepthPoint| {
        json::Obj::new()
            .num("price", p.price)
            .num("size", p.size)
            .num("cumulative", p.cumulative)
            .build()
    };
    Ok(json::Obj::new()
        .val("bids", &json::array(&curve.bids, point))
        .val("asks", &json::array(&curve.asks, point))
        .build())
}

/// Sizes within `distance` of the mid price (bids at ≥ mid − distance, asks
/// at ≤ mid + distance).
#[wasm_bindgen(js_name = depthWithin, unchecked_return_type = "Depth")]
pub fn depth_within(
    #[wasm_bindgen(unchecked_param_type = "BookInput")] book: JsValue,
    distance: f64,
    #[wasm_bindgen(unchecked_optional_param_type = "BookOutcome")] outcome: JsValue,
) -> Result<JsValue, JsValue> {
    let depth = book_of(&book, &outcome)
        .map_err(throw)?
        .depth_within(distance);
    Ok(json::Obj::new()
        .num("bid_size", depth.bid_size)
        .num("ask_size", depth.ask_size)
        .build())
}
