//! A market and its order book as the entry (crates/venues/js/fees.js,
//! `feeSide`) hands them to this wasm: no JSON, so the wasm carries no
//! JSON decoder and no float parser. Texts cross as an array of strings,
//! numbers as one `Float64Array`:
//!
//! ```text
//! texts    id, platform, book timestamp, fee model kind, fee model source
//! numbers  present (bits: 1 platform, 2 timestamp, 4 fee model, 8 its source),
//!          fee_rate, trading_fee (NaN: absent), fee model rate,
//!          then per book side (yes bids, yes asks, no bids, no asks) its
//!          level count, then every level's price and size in that order
//! ```
//!
//! The entry applies the models' reading rules (numeric strings, a
//! number as a time's text, a level or side that does not read dropped)
//! before it writes them; the fee model's kind and source are read here
//! by their serde names, the core's.

use predmarket_core::fees::FeeModel;
use predmarket_core::models::{Market, Orderbook, OrderbookSide, PlatformId, PriceLevel};
use serde::Deserialize;
use serde::de::IntoDeserializer;
use serde::de::value::{Error as NameError, StrDeserializer};

/// One side as the pricing reads it.
pub struct SideIn {
    pub market: Market,
    pub orderbook: Orderbook,
    /// The caller's fee model, overriding the market's.
    pub fee: Option<FeeModel>,
}

const PLATFORM: u32 = 1;
const TIMESTAMP: u32 = 2;
const FEE: u32 = 4;
const FEE_SOURCE: u32 = 8;

/// The input did not have the shape the entry writes: a bug between the
/// two halves, reported rather than read past.
const MALFORMED: &str = "the side's texts and numbers disagree";

/// A unit variant of `T` by its serde name (`"notional"`).
fn named<'a, T: Deserialize<'a>>(name: &'a str) -> Result<T, String> {
    let names: StrDeserializer<'a, NameError> = name.into_deserializer();
    T::deserialize(names).map_err(|e| e.to_string())
}

/// The side of `texts` and `numbers` (see the module doc); `what` names it
/// in an error (`a`), `fee_what` its fee model (`a.fee`).
pub fn read_side(
    what: &str,
    fee_what: &str,
    texts: &[String],
    numbers: &[f64],
) -> Result<SideIn, String> {
    let malformed = || format!("{what}: {MALFORMED}");
    let [id, platform, timestamp, kind, source] = texts else {
        return Err(malformed());
    };
    let [present, fee_rate, trading_fee, rate, levels @ ..] = numbers else {
        return Err(malformed());
    };
    let present = *present as u32;
    let given = |bit: u32| present & bit != 0;
    let number = |n: f64| (!n.is_nan()).then_some(n);

    let mut market = Market::new(id.clone());
    market.platform = given(PLATFORM).then(|| PlatformId::from(platform.clone()));
    market.fee_rate = number(*fee_rate);
    market.trading_fee = number(*trading_fee);

    let fee = if given(FEE) {
        let mut model = FeeModel {
            kind: named(kind).map_err(|e| format!("{fee_what}: {e}"))?,
            rate: *rate,
            source: Default::default(),
        };
        if given(FEE_SOURCE) {
            model.source = named(source).map_err(|e| format!("{fee_what}: {e}"))?;
        }
        Some(model)
    } else {
        None
    };

    let mut rest = levels;
    let mut side = || -> Result<Vec<PriceLevel>, String> {
        let (count, after) = rest.split_first().ok_or_else(malformed)?;
        // A count no array holds (NaN reads as 0, ∞ and 1e300 as
        // usize::MAX) is malformed, never an overflow.
        let count = *count as usize;
        let pairs = count
            .checked_mul(2)
            .and_then(|n| after.get(..n))
            .ok_or_else(malformed)?;
        rest = &after[pairs.len()..];
        Ok(pairs
            .chunks_exact(2)
            .map(|p| PriceLevel::new(p[0], p[1]))
            .collect())
    };
    let (yes_bids, yes_asks, no_bids, no_asks) = (side()?, side()?, side()?, side()?);
    if !rest.is_empty() {
        return Err(malformed());
    }
    let orderbook = Orderbook {
        timestamp: given(TIMESTAMP).then(|| timestamp.clone()),
        yes: Some(OrderbookSide {
            bids: yes_bids,
            asks: yes_asks,
            depth: None,
        }),
        no: Some(OrderbookSide {
            bids: no_bids,
            asks: no_asks,
            depth: None,
        }),
        ..Default::default()
    };
    Ok(SideIn {
        market,
        orderbook,
        fee,
    })
}
