//! What a trade really costs, and a price gap between two platforms net
//! of it: per-platform fee models, the order book walked for a size (the
//! VWAP of [`crate::orderbook`]), and the age of each quote.
//!
//! A fee model comes from the market's own fee field (`fee_rate`, else
//! `trading_fee`) when it sends one, from [`default_fee_model`] otherwise,
//! and a caller's override wins over both. The service documents no fee
//! semantics, so the defaults are stated here, next to the formula each
//! platform is known to use:
//!
//! | platform | model | rate |
//! |---|---|---|
//! | platform_a | share of notional (price × contracts) | 0 |
//! | platform_b | `rate × contracts × p × (1 − p)` per fill | 0.07 |
//! | platform_c | share of notional | 0.02 |
//! | platform_d | share of notional | 0.01 |
//! | platform_e | share of notional | 0 |
//! | other | unknown: no fee assumed, reported as unknown | 0 |
//!
//! [`net_gap`] prices the two ways of holding both sides of one question
//! across two markets (YES here and NO there, or the reverse; for an
//! inverted pair YES and YES, or NO and NO), each walked through its book
//! for the size, fees added, and reports the better one: its cost, its
//! payout, the profit net of fees (negative when there is no arbitrage),
//! and the age of each leg's quote. Unless the two markets are `same` or
//! `inverted` with no disagreeing field, the result is marked
//! conditional: "if the two questions are the same".

use crate::equivalence::{Classification, Relation};
use crate::models::{Market, Orderbook};
use crate::orderbook::{Book, Side};
use crate::time::timestamp_ms;
use serde::{Deserialize, Serialize};

/// How a platform charges a taker fill.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FeeKind {
    /// `rate × price × contracts`.
    Notional,
    /// `rate × contracts × price × (1 − price)`: highest at 50 ¢, nothing
    /// at the extremes.
    ProbabilityWeighted,
}

/// Where a fee model came from (a model given without one is an
/// override).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FeeSource {
    /// The market's own `fee_rate`/`trading_fee`.
    Market,
    /// The documented default of its platform.
    Default,
    /// Given by the caller.
    #[default]
    Override,
    /// An unknown platform without fee fields: no fee assumed.
    Unknown,
}

/// A fee model of one market.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct FeeModel {
    pub kind: FeeKind,
    pub rate: f64,
    #[serde(default)]
    pub source: FeeSource,
}

impl FeeModel {
    /// The fee of buying `contracts` at `price` (one level of a book).
    pub fn fee(&self, price: f64, contracts: f64) -> f64 {
        match self.kind {
            FeeKind::Notional => self.rate * price * contracts,
            FeeKind::ProbabilityWeighted => self.rate * contracts * price * (1.0 - price),
        }
    }
}

/// The documented default of a platform label (see the module doc).
pub fn default_fee_model(platform: &str) -> FeeModel {
    let (kind, rate, source) = match platform {
        "platform_a" => (FeeKind::Notional, 0.0, FeeSource::Default),
        "platform_b" => (FeeKind::ProbabilityWeighted, 0.07, FeeSource::Default),
        "platform_c" => (FeeKind::Notional, 0.02, FeeSource::Default),
        "platform_d" => (FeeKind::Notional, 0.01, FeeSource::Default),
        "platform_e" => (FeeKind::Notional, 0.0, FeeSource::Default),
        _ => (FeeKind::Notional, 0.0, FeeSource::Unknown),
    };
    FeeModel { kind, rate, source }
}

/// The fee model of a market: `overriding` if given, else its own fee
/// field with its platform's kind of formula, else the platform default.
pub fn fee_model(market: &Market, overriding: Option<FeeModel>) -> FeeModel {
    if let Some(mut m) = overriding {
        m.source = FeeSource::Override;
        return m;
    }
    let platform = market.platform.as_ref().map_or("", |p| p.as_str());
    let default = default_fee_model(platform);
    match market.fee_rate.or(market.trading_fee) {
        Some(rate) if rate.is_finite() && rate >= 0.0 => FeeModel {
            kind: default.kind,
            rate,
            source: FeeSource::Market,
        },
        _ => default,
    }
}

/// Which outcome a leg buys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Yes,
    No,
}

/// One market's side of a comparison: the market, its order book, and
/// optionally a fee model overriding the market's.
#[derive(Debug, Clone, Copy)]
pub struct Venue<'a> {
    pub market: &'a Market,
    pub orderbook: &'a Orderbook,
    pub fee: Option<FeeModel>,
}

/// One leg: `contracts` of `outcome` bought on one market.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Leg {
    pub market_id: String,
    pub platform: Option<String>,
    pub outcome: Outcome,
    /// What the book held of the size asked.
    pub filled: f64,
    /// The volume-weighted average price paid.
    pub vwap: Option<f64>,
    /// The best ask of the outcome.
    pub best_price: Option<f64>,
    /// Σ price × contracts.
    pub cost: f64,
    pub fee: f64,
    pub fee_model: FeeModel,
    /// Milliseconds between the book's timestamp and `now`; `None` when
    /// the book has no timestamp.
    pub quote_age_ms: Option<i64>,
}

/// Both sides of one question bought across two markets, net of fees.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NetGap {
    pub legs: [Leg; 2],
    /// Contracts held on both legs (the smaller fill).
    pub size: f64,
    /// What the pair pays whichever way the question resolves: `size`.
    pub payout: f64,
    pub cost: f64,
    pub fees: f64,
    /// `payout − cost` (before fees).
    pub gross_profit: f64,
    /// `payout − cost − fees`: positive is an arbitrage.
    pub net_profit: f64,
    /// `net_profit / (cost + fees)`.
    pub net_return: Option<f64>,
    /// Less than the size asked could be filled on a leg.
    pub partial: bool,
    /// The profit holds only "if the two questions are the same": the
    /// relation is not `same`/`inverted`, or a field disagrees.
    pub conditional: bool,
    /// The relation the legs were chosen by.
    pub relation: Relation,
    /// Any fee model unknown (no fee assumed for it).
    pub fees_unknown: bool,
}

/// What [`net_gap`] reads of the two markets' classification: the
/// relation its legs are chosen by, and whether it is firm
/// ([`Classification::is_firm`]; a gap that is not is `conditional`).
/// Its own type so that a caller which classified the pair elsewhere (the
/// npm package's fee wasm, which carries no matcher) can pass what it was
/// told.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GapBasis {
    pub relation: Relation,
    pub firm: bool,
}

impl From<&Classification> for GapBasis {
    fn from(classification: &Classification) -> Self {
        Self {
            relation: classification.relation,
            firm: classification.is_firm(),
        }
    }
}

/// The better of the two ways of holding both sides of the question
/// across `a` and `b` for `size` contracts (see the module doc); `now_ms`
/// dates the quotes. `None` when neither combination can be filled at all
/// or the size is not positive. Legs are chosen by the relation: for an
/// `inverted` pair YES on both (or NO on both), otherwise YES on one and
/// NO on the other, as if the questions were the same.
pub fn net_gap(
    a: Venue<'_>,
    b: Venue<'_>,
    basis: impl Into<GapBasis>,
    size: f64,
    now_ms: Option<i64>,
) -> Option<NetGap> {
    if !(size.is_finite() && size > 0.0) {
        return None;
    }
    let basis: GapBasis = basis.into();
    let inverted = basis.relation == Relation::Inverted;
    let combos = if inverted {
        [(Outcome::Yes, Outcome::Yes), (Outcome::No, Outcome::No)]
    } else {
        [(Outcome::Yes, Outcome::No), (Outcome::No, Outcome::Yes)]
    };
    let mut best: Option<NetGap> = None;
    for (oa, ob) in combos {
        let (Some(la), Some(lb)) = (leg(a, oa, size, now_ms), leg(b, ob, size, now_ms)) else {
            continue;
        };
        let held = la.filled.min(lb.filled);
        if held <= 0.0 {
            continue;
        }
        // Both legs re-walked for the size both can hold, so cost and fee
        // are those of the contracts actually paired.
        let (Some(la), Some(lb)) = (leg(a, oa, held, now_ms), leg(b, ob, held, now_ms)) else {
            continue;
        };
        let cost = la.cost + lb.cost;
        let fees = la.fee + lb.fee;
        let gap = NetGap {
            size: held,
            payout: held,
            cost,
            fees,
            gross_profit: held - cost,
            net_profit: held - cost - fees,
            net_return: (cost + fees > 0.0).then(|| (held - cost - fees) / (cost + fees)),
            partial: held < size,
            conditional: !basis.firm,
            relation: basis.relation,
            fees_unknown: la.fee_model.source == FeeSource::Unknown
                || lb.fee_model.source == FeeSource::Unknown,
            legs: [la, lb],
        };
        if best.as_ref().is_none_or(|b| gap.net_profit > b.net_profit) {
            best = Some(gap);
        }
    }
    best
}

fn leg(v: Venue<'_>, outcome: Outcome, size: f64, now_ms: Option<i64>) -> Option<Leg> {
    let book: Book = match outcome {
        Outcome::Yes => v.orderbook.yes_book(),
        Outcome::No => v.orderbook.no_book(),
    };
    let fill = book.fill(Side::Buy, size);
    if fill.filled <= 0.0 {
        return None;
    }
    let model = fee_model(v.market, v.fee);
    // The fee level by level: a probability-weighted fee is not linear in
    // the price, so the VWAP alone would misstate it.
    let mut left = fill.filled;
    let mut fee = 0.0;
    for level in &book.asks {
        if left <= 0.0 {
            break;
        }
        let take = level.size.min(left);
        fee += model.fee(level.price, take);
        left -= take;
    }
    let quote_age_ms = match (
        now_ms,
        v.orderbook.timestamp.as_deref().and_then(timestamp_ms),
    ) {
        (Some(now), Some(at)) => Some((now - at).max(0)),
        _ => None,
    };
    Some(Leg {
        market_id: v.market.id.clone(),
        platform: v.market.platform.as_ref().map(|p| p.as_str().to_owned()),
        outcome,
        filled: fill.filled,
        vwap: fill.vwap,
        best_price: fill.best_price,
        cost: fill.cost,
        fee,
        fee_model: model,
        quote_age_ms,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::equivalence::classify;
    use crate::models::{OrderbookSide, PlatformId, PriceLevel};

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    fn market(id: &str, platform: &str, title: &str) -> Market {
        let mut m = Market::new(id.to_owned());
        m.platform = Some(PlatformId::from(platform));
        m.title = Some(title.to_owned());
        m.trading_end_at = Some("2026-03-03T00:00:00Z".into());
        m.resolution_source = Some("Exchange reference rate".into());
        m
    }

    fn book(yes_asks: &[(f64, f64)], no_asks: &[(f64, f64)], at: &str) -> Orderbook {
        let side = |asks: &[(f64, f64)]| OrderbookSide {
            bids: Vec::new(),
            asks: asks.iter().map(|&(p, s)| PriceLevel::new(p, s)).collect(),
            depth: None,
        };
        Orderbook {
            timestamp: Some(at.to_owned()),
            yes: Some(side(yes_asks)),
            no: Some(side(no_asks)),
            ..Orderbook::default()
        }
    }

    #[test]
    fn fee_models_come_from_the_market_the_default_or_the_caller() {
        let mut m = market("m", "platform_b", "x");
        assert_eq!(fee_model(&m, None), default_fee_model("platform_b"));
        m.fee_rate = Some(0.035);
        let own = fee_model(&m, None);
        assert_eq!(
            (own.kind, own.rate, own.source),
            (FeeKind::ProbabilityWeighted, 0.035, FeeSource::Market)
        );
        let given = FeeModel {
            kind: FeeKind::Notional,
            rate: 0.05,
            source: FeeSource::Default,
        };
        assert_eq!(fee_model(&m, Some(given)).source, FeeSource::Override);
        assert_eq!(default_fee_model("platform_z").source, FeeSource::Unknown);
        // 100 contracts at 0.40 on platform_b: 0.07 × 100 × 0.4 × 0.6 = 1.68.
        assert!(close(
            default_fee_model("platform_b").fee(0.40, 100.0),
            1.68
        ));
        // On platform_c: 0.02 × 0.40 × 100 = 0.80.
        assert!(close(
            default_fee_model("platform_c").fee(0.40, 100.0),
            0.80
        ));
    }

    #[test]
    fn arbitrage_net_of_fees_at_a_size_worked_example() {
        let a = market("a", "platform_c", "Bitcoin above $95,000 on March 3?");
        let b = market(
            "b",
            "platform_b",
            "Will BTC close above $95k on Mar 3, 2026?",
        );
        let c = classify(&a, &b);
        assert!(c.is_firm(), "{c:#?}");
        // a (platform_c, 2 % of notional): YES asks 0.40 × 100, 0.42 × 100.
        // b (platform_b, 0.07·p·(1−p)): NO asks 0.50 × 50, 0.53 × 200.
        let ba = book(
            &[(0.40, 100.0), (0.42, 100.0)],
            &[(0.65, 500.0)],
            "2026-03-01T11:59:50Z",
        );
        let bb = book(
            &[(0.52, 500.0)],
            &[(0.50, 50.0), (0.53, 200.0)],
            "2026-03-01T11:59:30Z",
        );
        let now = timestamp_ms("2026-03-01T12:00:00Z");
        let gap = net_gap(
            Venue {
                market: &a,
                orderbook: &ba,
                fee: None,
            },
            Venue {
                market: &b,
                orderbook: &bb,
                fee: None,
            },
            &c,
            150.0,
            now,
        )
        .unwrap();
        // YES on a for 150: 100 × 0.40 + 50 × 0.42 = 61.00; fee 2 % = 1.22.
        // NO on b for 150: 50 × 0.50 + 100 × 0.53 = 78.00;
        //   fee 0.07 × (50 × 0.5 × 0.5 + 100 × 0.53 × 0.47) = 0.07 × 37.41 = 2.6187.
        // Cost 139.00, fees 3.8387, payout 150: gross 11.00, net 7.1613.
        // The other way (NO on a at 0.65, YES on b at 0.52) costs 175.5: worse.
        let [la, lb] = &gap.legs;
        assert_eq!((la.outcome, lb.outcome), (Outcome::Yes, Outcome::No));
        assert!(close(la.cost, 61.0) && close(la.fee, 1.22), "{la:?}");
        assert!(close(lb.cost, 78.0) && close(lb.fee, 2.6187), "{lb:?}");
        assert!(close(gap.cost, 139.0) && close(gap.gross_profit, 11.0));
        assert!(close(gap.net_profit, 7.1613), "{gap:?}");
        assert!(!gap.conditional && !gap.partial);
        assert_eq!(
            (la.quote_age_ms, lb.quote_age_ms),
            (Some(10_000), Some(30_000))
        );

        // At 400 contracts a's YES side holds 200 and b's NO side 250:
        // the legs are paired at 200.
        let gap = net_gap(
            Venue {
                market: &a,
                orderbook: &ba,
                fee: None,
            },
            Venue {
                market: &b,
                orderbook: &bb,
                fee: None,
            },
            &c,
            400.0,
            now,
        )
        .unwrap();
        assert!(gap.partial);
        assert!(close(gap.size, 200.0));
        // YES 200: 40 + 42 = 82, fee 1.64. NO 200: 25 + 150 × 0.53 = 104.5,
        // fee 0.07 × (12.5 + 150 × 0.2491) = 0.07 × 49.865 = 3.49055.
        // Net: 200 − 186.5 − 5.13055 = 8.36945.
        assert!(close(gap.net_profit, 8.36945), "{gap:?}");
    }

    #[test]
    fn a_gap_that_fees_erase_and_a_conditional_one() {
        let a = market("a", "platform_c", "Bitcoin above $95,000 on March 3?");
        let b = market(
            "b",
            "platform_d",
            "Bitcoin at or below $95,000 on March 3, 2026?",
        );
        let c = classify(&a, &b);
        assert_eq!(c.relation, Relation::Inverted);
        // Inverted: YES on a and YES on b cover both outcomes.
        // YES a 0.49 × 10, YES b 0.50 × 10: cost 9.90, gross +0.10;
        // fees 0.02 × 4.9 + 0.01 × 5.0 = 0.098 + 0.05 = 0.148: net −0.048.
        let ba = book(&[(0.49, 10.0)], &[(0.60, 10.0)], "2026-03-01T12:00:00Z");
        let bb = book(&[(0.50, 10.0)], &[(0.60, 10.0)], "2026-03-01T12:00:00Z");
        let va = Venue {
            market: &a,
            orderbook: &ba,
            fee: None,
        };
        let vb = Venue {
            market: &b,
            orderbook: &bb,
            fee: None,
        };
        let gap = net_gap(va, vb, &c, 10.0, None).unwrap();
        assert_eq!(
            (gap.legs[0].outcome, gap.legs[1].outcome),
            (Outcome::Yes, Outcome::Yes)
        );
        assert!(
            close(gap.gross_profit, 0.10) && close(gap.net_profit, -0.048),
            "{gap:?}"
        );
        assert_eq!(gap.legs[0].quote_age_ms, None);
        // With fees overridden to zero the same books are an arbitrage.
        let zero = FeeModel {
            kind: FeeKind::Notional,
            rate: 0.0,
            source: FeeSource::Override,
        };
        let gap = net_gap(
            Venue {
                fee: Some(zero),
                ..va
            },
            Venue {
                fee: Some(zero),
                ..vb
            },
            &c,
            10.0,
            None,
        )
        .unwrap();
        assert!(close(gap.net_profit, 0.10));
        // A subset pair: the gap is only "if the two questions are the same".
        let s = market("s", "platform_d", "Bitcoin above $100,000 on March 3?");
        let c = classify(&a, &s);
        assert_eq!(c.relation, Relation::Superset);
        let gap = net_gap(
            va,
            Venue {
                market: &s,
                orderbook: &bb,
                fee: None,
            },
            &c,
            10.0,
            None,
        )
        .unwrap();
        assert!(gap.conditional);
        assert!(net_gap(va, vb, &c, 0.0, None).is_none());
    }
}
