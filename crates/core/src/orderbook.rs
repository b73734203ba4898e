//! Order book analytics: best bid/ask, mid, spread, depth near the price,
//! the cumulative depth curve (for charts), VWAP and slippage of filling a
//! size on either side, the yes/no complement, crossed and empty books.
//!
//! A [`Book`] is a normalized copy of one outcome's side of an
//! [`Orderbook`]: levels with a non-finite price or a size ≤ 0 are dropped,
//! levels at the same price merged, bids sorted best (highest) first and
//! asks best (lowest) first. The service's order is not relied on.

use crate::models::{Orderbook, OrderbookSide, PriceLevel};

/// Prices are rounded to this many decimals after `1 − p`, so that the
/// complement of 0.63 is 0.37, not 0.36999999999999994.
const PRICE_DECIMALS: f64 = 1e10;

fn round_price(p: f64) -> f64 {
    (p * PRICE_DECIMALS).round() / PRICE_DECIMALS
}

/// Which way an order goes: a buy walks the asks, a sell walks the bids.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Buy,
    Sell,
}

/// A normalized book of one outcome.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Book {
    /// Highest price first.
    pub bids: Vec<PriceLevel>,
    /// Lowest price first.
    pub asks: Vec<PriceLevel>,
}

fn normalize(levels: &[PriceLevel], descending: bool) -> Vec<PriceLevel> {
    let mut out: Vec<PriceLevel> = levels
        .iter()
        .filter(|l| l.price.is_finite() && l.size.is_finite() && l.size > 0.0)
        .copied()
        .collect();
    out.sort_by(|a, b| {
        let ord = a.price.total_cmp(&b.price);
        if descending { ord.reverse() } else { ord }
    });
    out.dedup_by(|later, kept| {
        if later.price == kept.price {
            kept.size += later.size;
            true
        } else {
            false
        }
    });
    out
}

/// One point of a cumulative depth curve.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DepthPoint {
    pub price: f64,
    /// Size at this level.
    pub size: f64,
    /// Size at this level and every better one.
    pub cumulative: f64,
}

/// Cumulative depth of both sides, each from the best price outward.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DepthCurve {
    pub bids: Vec<DepthPoint>,
    pub asks: Vec<DepthPoint>,
}

/// Sizes resting near the price.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Depth {
    pub bid_size: f64,
    pub ask_size: f64,
}

/// The result of walking the book for a size.
#[derive(Debug, Clone, PartialEq)]
pub struct Fill {
    pub side: Side,
    pub requested: f64,
    /// What the book holds of it (less than `requested` for a partial fill).
    pub filled: f64,
    /// Σ price × size over the levels taken.
    pub cost: f64,
    /// Volume-weighted average price; `None` when nothing filled.
    pub vwap: Option<f64>,
    /// The best price on the side walked.
    pub best_price: Option<f64>,
    /// The last (worst) price taken.
    pub worst_price: Option<f64>,
    /// How much worse than the best price the average is, in price units
    /// (≥ 0 for both sides).
    pub slippage: Option<f64>,
    pub levels_used: usize,
}

impl Fill {
    pub fn is_partial(&self) -> bool {
        self.filled < self.requested
    }

    /// Slippage relative to the best price (0.05 = 5 %).
    pub fn slippage_ratio(&self) -> Option<f64> {
        match (self.slippage, self.best_price) {
            (Some(s), Some(b)) if b > 0.0 => Some(s / b),
            _ => None,
        }
    }
}

impl Book {
    pub fn new(side: &OrderbookSide) -> Self {
        Self::from_levels(&side.bids, &side.asks)
    }

    pub fn from_levels(bids: &[PriceLevel], asks: &[PriceLevel]) -> Self {
        Self {
            bids: normalize(bids, true),
            asks: normalize(asks, false),
        }
    }

    pub fn best_bid(&self) -> Option<PriceLevel> {
        self.bids.first().copied()
    }

    pub fn best_ask(&self) -> Option<PriceLevel> {
        self.asks.first().copied()
    }

    /// Halfway between best bid and best ask (both needed).
    pub fn mid(&self) -> Option<f64> {
        Some((self.best_bid()?.price + self.best_ask()?.price) / 2.0)
    }

    /// Best ask − best bid (negative when crossed).
    pub fn spread(&self) -> Option<f64> {
        Some(round_price(self.best_ask()?.price - self.best_bid()?.price))
    }

    pub fn is_empty(&self) -> bool {
        self.bids.is_empty() && self.asks.is_empty()
    }

    /// Only bids or only asks.
    pub fn is_one_sided(&self) -> bool {
        self.bids.is_empty() != self.asks.is_empty()
    }

    /// Best bid above best ask: the book is inconsistent (stale data, or
    /// two sources merged).
    pub fn is_crossed(&self) -> bool {
        matches!((self.best_bid(), self.best_ask()), (Some(b), Some(a)) if b.price > a.price)
    }

    /// Best bid equal to best ask.
    pub fn is_locked(&self) -> bool {
        matches!((self.best_bid(), self.best_ask()), (Some(b), Some(a)) if b.price == a.price)
    }

    /// Sizes within `distance` of the mid (bids at ≥ mid − distance, asks
    /// at ≤ mid + distance); with one side empty, from the other side's
    /// best price.
    pub fn depth_within(&self, distance: f64) -> Depth {
        let distance = distance.abs();
        let (bid_ref, ask_ref) = match self.mid() {
            Some(mid) => (mid, mid),
            None => (
                self.best_bid().map_or(0.0, |b| b.price),
                self.best_ask().map_or(0.0, |a| a.price),
            ),
        };
        // A hair of tolerance: 0.5 − 0.02 must include a level at 0.48.
        let eps = 1e-9;
        Depth {
            bid_size: self
                .bids
                .iter()
                .take_while(|l| l.price >= bid_ref - distance - eps)
                .map(|l| l.size)
                .sum(),
            ask_size: self
                .asks
                .iter()
                .take_while(|l| l.price <= ask_ref + distance + eps)
                .map(|l| l.size)
                .sum(),
        }
    }

    pub fn depth_curve(&self) -> DepthCurve {
        fn curve(levels: &[PriceLevel]) -> Vec<DepthPoint> {
            let mut cumulative = 0.0;
            levels
                .iter()
                .map(|l| {
                    cumulative += l.size;
                    DepthPoint {
                        price: l.price,
                        size: l.size,
                        cumulative,
                    }
                })
                .collect()
        }
        DepthCurve {
            bids: curve(&self.bids),
            asks: curve(&self.asks),
        }
    }

    /// Walks the book to fill `size`: a buy takes asks from the lowest, a
    /// sell takes bids from the highest. Reports a partial fill when the
    /// side holds less.
    pub fn fill(&self, side: Side, size: f64) -> Fill {
        let requested = if size.is_finite() { size.max(0.0) } else { 0.0 };
        let levels = match side {
            Side::Buy => &self.asks,
            Side::Sell => &self.bids,
        };
        let mut left = requested;
        let mut cost = 0.0;
        let mut worst = None;
        let mut used = 0;
        for level in levels {
            if left <= 0.0 {
                break;
            }
            let take = level.size.min(left);
            cost += take * level.price;
            left -= take;
            worst = Some(level.price);
            used += 1;
        }
        let filled = requested - left.max(0.0);
        let best = levels.first().map(|l| l.price);
        let vwap = (filled > 0.0).then(|| cost / filled);
        let slippage = match (vwap, best) {
            (Some(v), Some(b)) => Some(round_price(match side {
                Side::Buy => v - b,
                Side::Sell => b - v,
            })),
            _ => None,
        };
        Fill {
            side,
            requested,
            filled,
            cost,
            vwap,
            best_price: best,
            worst_price: worst,
            slippage,
            levels_used: used,
        }
    }

    /// The book of the other outcome: a bid at p is an ask at 1 − p (and
    /// an ask at p a bid at 1 − p), same sizes.
    pub fn complement(&self) -> Self {
        let flip = |levels: &[PriceLevel]| -> Vec<PriceLevel> {
            levels
                .iter()
                .map(|l| PriceLevel::new(round_price(1.0 - l.price), l.size))
                .collect()
        };
        Self::from_levels(&flip(&self.asks), &flip(&self.bids))
    }

    /// Both books' levels together (sizes at equal prices added).
    pub fn merge(&self, other: &Self) -> Self {
        let bids: Vec<PriceLevel> = self.bids.iter().chain(&other.bids).copied().collect();
        let asks: Vec<PriceLevel> = self.asks.iter().chain(&other.asks).copied().collect();
        Self::from_levels(&bids, &asks)
    }
}

impl OrderbookSide {
    /// The normalized book of this side.
    pub fn book(&self) -> Book {
        Book::new(self)
    }
}

impl Orderbook {
    /// The yes book, completed from the no side where the yes side lacks a
    /// half: some platforms send only bids for both outcomes (a no bid at q
    /// is then the yes ask at 1 − q), others send both halves of each
    /// outcome, mirrored; merging both in the latter case would count every
    /// order twice, so only missing halves are filled.
    pub fn yes_book(&self) -> Book {
        complete(self.yes.as_ref(), self.no.as_ref())
    }

    /// The no book, completed from the yes side the same way.
    pub fn no_book(&self) -> Book {
        complete(self.no.as_ref(), self.yes.as_ref())
    }
}

fn complete(own: Option<&OrderbookSide>, other: Option<&OrderbookSide>) -> Book {
    let mut book = own.map(Book::new).unwrap_or_default();
    if let Some(other) = other {
        let mirror = Book::new(other).complement();
        if book.bids.is_empty() {
            book.bids = mirror.bids;
        }
        if book.asks.is_empty() {
            book.asks = mirror.asks;
        }
    }
    book
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn lv(levels: &[(f64, f64)]) -> Vec<PriceLevel> {
        levels
            .iter()
            .map(|(p, s)| PriceLevel::new(*p, *s))
            .collect()
    }

    fn sample() -> Book {
        // Deliberately unsorted, with a duplicate price and junk levels.
        Book::from_levels(
            &lv(&[
                (0.58, 300.0),
                (0.60, 100.0),
                (0.59, 200.0),
                (0.60, 50.0),
                (0.5, 0.0),
            ]),
            &lv(&[(0.64, 300.0), (0.62, 100.0), (0.63, 200.0), (f64::NAN, 5.0)]),
        )
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn top_of_book() {
        let b = sample();
        assert_eq!(b.best_bid(), Some(PriceLevel::new(0.60, 150.0)));
        assert_eq!(b.best_ask(), Some(PriceLevel::new(0.62, 100.0)));
        assert!(close(b.mid().unwrap(), 0.61));
        assert_eq!(b.spread(), Some(0.02));
        assert!(!b.is_crossed() && !b.is_locked() && !b.is_empty() && !b.is_one_sided());
        assert_eq!(b.bids.len(), 3, "duplicate merged, empty level dropped");
        assert_eq!(b.asks.len(), 3, "NaN dropped");
    }

    #[test]
    fn depth_near_the_mid_and_curve() {
        let b = sample();
        // mid 0.61: within 0.02 → bids ≥ 0.59 (150 + 200), asks ≤ 0.63 (100 + 200).
        assert_eq!(
            b.depth_within(0.02),
            Depth {
                bid_size: 350.0,
                ask_size: 300.0
            }
        );
        assert_eq!(
            b.depth_within(0.0),
            Depth {
                bid_size: 0.0,
                ask_size: 0.0
            }
        );
        let curve = b.depth_curve();
        let cum: Vec<f64> = curve.asks.iter().map(|p| p.cumulative).collect();
        assert_eq!(cum, vec![100.0, 300.0, 600.0]);
        assert_eq!(curve.bids[0].price, 0.60);
        assert_eq!(curve.bids[2].cumulative, 650.0);
    }

    #[test]
    fn vwap_and_slippage_of_a_buy_and_a_sell() {
        let b = sample();
        // Buy 250: 100 @ 0.62 + 150 @ 0.63 = 62 + 94.5 = 156.5; vwap 0.626.
        let buy = b.fill(Side::Buy, 250.0);
        assert_eq!(buy.filled, 250.0);
        assert!(close(buy.cost, 156.5));
        assert!(close(buy.vwap.unwrap(), 0.626));
        assert_eq!(buy.slippage, Some(0.006));
        assert_eq!(buy.worst_price, Some(0.63));
        assert_eq!(buy.levels_used, 2);
        assert!(!buy.is_partial());
        // Sell 200: 150 @ 0.60 + 50 @ 0.59 = 90 + 29.5 = 119.5; vwap 0.5975.
        let sell = b.fill(Side::Sell, 200.0);
        assert!(close(sell.vwap.unwrap(), 0.5975));
        assert_eq!(sell.slippage, Some(0.0025));
        // More than the book holds: partial.
        let big = b.fill(Side::Buy, 1000.0);
        assert_eq!(big.filled, 600.0);
        assert!(big.is_partial());
        // Nothing to fill against.
        let empty = Book::default().fill(Side::Sell, 10.0);
        assert_eq!(
            (empty.filled, empty.vwap, empty.slippage),
            (0.0, None, None)
        );
        assert!(empty.is_partial());
    }

    #[test]
    fn yes_bid_at_p_is_no_ask_at_one_minus_p() {
        let yes = Book::from_levels(&lv(&[(0.63, 10.0)]), &lv(&[(0.65, 7.0)]));
        let no = yes.complement();
        assert_eq!(no.asks, lv(&[(0.37, 10.0)]));
        assert_eq!(no.bids, lv(&[(0.35, 7.0)]));
        assert_eq!(no.complement(), yes);
    }

    #[test]
    fn yes_book_fills_missing_halves_from_the_no_side() {
        // Bids-only platform: yes bids and no bids.
        let ob = Orderbook {
            yes: Some(OrderbookSide {
                bids: lv(&[(0.40, 5.0)]),
                ..Default::default()
            }),
            no: Some(OrderbookSide {
                bids: lv(&[(0.55, 8.0)]),
                ..Default::default()
            }),
            ..Default::default()
        };
        let yes = ob.yes_book();
        assert_eq!(yes.best_ask(), Some(PriceLevel::new(0.45, 8.0)));
        assert_eq!(yes.spread(), Some(0.05));
        assert_eq!(ob.no_book().best_ask(), Some(PriceLevel::new(0.6, 5.0)));

        // Mirrored platform (fixture): nothing is double counted.
        let r: crate::models::OrderbookResponse =
            serde_json::from_str(include_str!("../tests/fixtures/get_orderbook.json")).unwrap();
        let yes = r.data.yes_book();
        assert_eq!(yes.best_bid(), Some(PriceLevel::new(0.61, 1200.0)));
        assert_eq!(yes.best_ask(), Some(PriceLevel::new(0.63, 800.0)));
    }

    #[test]
    fn crossed_locked_empty() {
        let crossed = Book::from_levels(&lv(&[(0.6, 1.0)]), &lv(&[(0.55, 1.0)]));
        assert!(crossed.is_crossed());
        assert_eq!(crossed.spread(), Some(-0.05));
        let locked = Book::from_levels(&lv(&[(0.6, 1.0)]), &lv(&[(0.6, 1.0)]));
        assert!(locked.is_locked() && !locked.is_crossed());
        let empty = Book::new(&OrderbookSide::default());
        assert!(empty.is_empty());
        assert_eq!((empty.mid(), empty.spread()), (None, None));
        let one = Book::from_levels(&lv(&[(0.6, 1.0)]), &[]);
        assert!(one.is_one_sided());
        assert_eq!(one.depth_within(0.1).bid_size, 1.0);
    }

    proptest! {
        #[test]
        fn fills_never_exceed_the_book_and_vwap_is_within_the_levels(
            asks in proptest::collection::vec((0.01f64..0.99, 0.0f64..1000.0), 0..20),
            size in 0.0f64..5000.0,
        ) {
            let levels = lv(&asks);
            let book = Book::from_levels(&[], &levels);
            let total: f64 = book.asks.iter().map(|l| l.size).sum();
            let fill = book.fill(Side::Buy, size);
            prop_assert!(fill.filled <= size + 1e-9);
            prop_assert!(fill.filled <= total + 1e-6);
            if let Some(v) = fill.vwap {
                prop_assert!(v >= fill.best_price.unwrap() - 1e-9);
                prop_assert!(v <= fill.worst_price.unwrap() + 1e-9);
                prop_assert!(fill.slippage.unwrap() >= -1e-9);
            }
            let curve = book.depth_curve();
            prop_assert!(curve.asks.windows(2).all(|w| w[0].price < w[1].price && w[0].cumulative <= w[1].cumulative));
        }
    }
}
