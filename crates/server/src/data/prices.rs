//! The numbers behind a market's quote: its price path (for price history
//! and trades), its orderbook ladder and its trades. All derived on demand
//! from the market's own seed and quote, so nothing here is stored, and
//! everything agrees with the quote the market shows:
//! - the orderbook's best bid/ask are the market's `bestBid`/`bestAsk`;
//! - the path ends at the market's last price, the newest trade is at it;
//! - trade prices lie within the spread around the path.

use super::rng::{Rng, round};

/// Prices are whole cents on the wire (tick 0.01) so the orderbook and the
/// quote agree exactly.
pub const TICK: f64 = 0.01;
pub const HOUR: i64 = 3_600;
/// How far back a market's price path goes.
pub const PATH_HOURS: i64 = 24 * 30;

/// A market's quote, in cents; `bid_c < ask_c` always (never crossed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quote {
    pub bid_c: u8,
    pub ask_c: u8,
    /// Last traded price, within `bid_c..=ask_c`.
    pub last_c: u8,
}

impl Quote {
    pub fn draw(rng: &mut Rng) -> Self {
        // Mid prices spread over the whole range, more of them near the
        // edges like real books of long shots and near-certainties.
        let u = rng.unit();
        let mid = 0.5 + 0.49 * (2.0 * u - 1.0).signum() * (2.0 * u - 1.0).abs().powf(0.8);
        let spread = 1 + (rng.unit() * rng.unit() * 6.0) as u8;
        let mid_c = (mid * 100.0).round().clamp(2.0, 98.0) as u8;
        let bid_c = mid_c.saturating_sub(spread / 2).max(1);
        let ask_c = (bid_c + spread).min(99);
        let bid_c = bid_c.min(ask_c - 1);
        let last_c = rng.range(u64::from(bid_c), u64::from(ask_c) + 1) as u8;
        Self {
            bid_c,
            ask_c,
            last_c,
        }
    }

    /// A quote whose mid is near probability `p`.
    pub fn around(p: f64, rng: &mut Rng) -> Self {
        let spread = 1 + (rng.unit() * rng.unit() * 5.0) as u8;
        let mid_c = (p * 100.0).round().clamp(1.0, 99.0) as u8;
        let bid_c = mid_c.saturating_sub(spread / 2).clamp(1, 98);
        let ask_c = (bid_c + spread).clamp(bid_c + 1, 99);
        let last_c = rng.range(u64::from(bid_c), u64::from(ask_c) + 1) as u8;
        Self {
            bid_c,
            ask_c,
            last_c,
        }
    }

    pub fn bid(&self) -> f64 {
        f64::from(self.bid_c) / 100.0
    }
    pub fn ask(&self) -> f64 {
        f64::from(self.ask_c) / 100.0
    }
    pub fn last(&self) -> f64 {
        f64::from(self.last_c) / 100.0
    }
    pub fn spread(&self) -> f64 {
        round(self.ask() - self.bid(), 2)
    }
    pub fn mid(&self) -> f64 {
        round((self.bid() + self.ask()) / 2.0, 3)
    }
}

/// One price level.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Level {
    pub price: f64,
    pub size: f64,
}

/// Both sides of a binary market's book: bids descending, asks ascending.
#[derive(Debug, Clone, PartialEq)]
pub struct Ladder {
    pub yes_bids: Vec<Level>,
    pub yes_asks: Vec<Level>,
    pub no_bids: Vec<Level>,
    pub no_asks: Vec<Level>,
}

/// The book of an open market. "No" mirrors "yes": buying no at p is
/// selling yes at 1 - p.
pub fn ladder(seed: u64, quote: Quote) -> Ladder {
    let mut rng = Rng::of(seed, "book", 0);
    let mut side = |start: u8, step: i16, limit: u8| {
        let mut levels = Vec::new();
        let mut price = i16::from(start);
        let levels_wanted = rng.range(3, 12);
        while levels.len() < levels_wanted as usize
            && (1..=99).contains(&price)
            && (if step < 0 {
                price >= i16::from(limit)
            } else {
                price <= i16::from(limit)
            })
        {
            let size = round(rng.log_normal(400.0, 1.1).max(5.0), 0);
            levels.push((price as u8, size));
            // Gaps of one to three ticks between levels.
            price += step * (1 + (rng.unit() * rng.unit() * 3.0) as i16);
        }
        levels
    };
    let bids = side(quote.bid_c, -1, 1);
    let asks = side(quote.ask_c, 1, 99);
    let level = |(c, size): (u8, f64)| Level {
        price: f64::from(c) / 100.0,
        size,
    };
    let mirror = |(c, size): (u8, f64)| Level {
        price: f64::from(100 - c) / 100.0,
        size,
    };
    Ladder {
        yes_bids: bids.iter().copied().map(level).collect(),
        yes_asks: asks.iter().copied().map(level).collect(),
        no_bids: asks.iter().copied().map(mirror).collect(),
        no_asks: bids.iter().copied().map(mirror).collect(),
    }
}

/// How often the resting sizes of a book move (seconds).
pub const BOOK_TICK_SECS: i64 = 5;

/// The book of an open market at Unix time `now`: the prices of
/// [`ladder`] (so the best bid and ask stay the market's quote) with the
/// sizes resting at them redrawn every [`BOOK_TICK_SECS`], deterministically
/// from the seed and the tick: the service is live data, and a watched
/// book must have something to show.
pub fn ladder_at(seed: u64, quote: Quote, now: i64) -> Ladder {
    let mut book = ladder(seed, quote);
    let tick = now.div_euclid(BOOK_TICK_SECS) as u64;
    let mut rng = Rng::of(seed, "book-tick", tick);
    // The yes bids rest as no asks and vice versa: one factor per level
    // keeps the mirror exact.
    let mut factors = |n: usize| -> Vec<f64> { (0..n).map(|_| 0.5 + rng.unit()).collect() };
    let (bid_f, ask_f) = (factors(book.yes_bids.len()), factors(book.yes_asks.len()));
    let scale = |levels: &mut [Level], f: &[f64]| {
        for (level, f) in levels.iter_mut().zip(f) {
            level.size = round((level.size * f).max(5.0), 0);
        }
    };
    scale(&mut book.yes_bids, &bid_f);
    scale(&mut book.no_asks, &bid_f);
    scale(&mut book.yes_asks, &ask_f);
    scale(&mut book.no_bids, &ask_f);
    book
}

/// A market's price path: one knot per hour for the last `PATH_HOURS`,
/// ending at the last price. Knot 0 is `as_of`, knot k is k hours earlier.
/// The walk is in log-odds (so prices stay inside 0..1) with steps drawn
/// from a cheap near-normal (sum of four uniforms): paths are built for
/// every market at start-up, so they must cost little.
pub struct Path {
    as_of: i64,
    /// The last price, exactly (knot 0 in log-odds would round).
    last: f64,
    /// Log-odds at each knot.
    knots: Vec<f64>,
}

fn logit(p: f64) -> f64 {
    let p = p.clamp(0.015, 0.985);
    (p / (1.0 - p)).ln()
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Roughly standard normal: the sum of four uniforms, centred and scaled.
fn near_normal(rng: &mut Rng) -> f64 {
    (rng.unit() + rng.unit() + rng.unit() + rng.unit() - 2.0) * 3f64.sqrt()
}

impl Path {
    /// The full path.
    pub fn new(seed: u64, quote: Quote, as_of: i64, volatility: f64) -> Self {
        Self::hours(seed, quote, as_of, volatility, PATH_HOURS)
    }

    /// The newest `hours` hours of the path only (the same knots as the full
    /// path, cheaper when only recent changes are needed).
    pub fn hours(seed: u64, quote: Quote, as_of: i64, volatility: f64, hours: i64) -> Self {
        let hours = hours.clamp(1, PATH_HOURS);
        let mut rng = Rng::of(seed, "path", 0);
        let mut knots = Vec::with_capacity(hours as usize + 1);
        let mut x = logit(quote.last());
        knots.push(x);
        for _ in 0..hours {
            x += volatility * near_normal(&mut rng);
            // Pull back towards the middle a little, so paths stay plausible.
            x = (x * 0.998).clamp(-4.2, 4.2);
            knots.push(x);
        }
        Self {
            as_of,
            last: quote.last(),
            knots,
        }
    }

    fn price(&self, k: usize) -> f64 {
        if k == 0 {
            self.last
        } else {
            sigmoid(self.knots[k.min(self.knots.len() - 1)])
        }
    }

    pub fn start(&self) -> i64 {
        self.as_of - (self.knots.len() as i64 - 1) * HOUR
    }

    /// The price at `t` (clamped to the path's span), interpolated; exactly
    /// the last price at `as_of`.
    pub fn at(&self, t: i64) -> f64 {
        if t >= self.as_of {
            return self.last;
        }
        let span = (self.knots.len() as i64 - 1) * HOUR;
        let back = (self.as_of - t).clamp(0, span) as f64 / HOUR as f64;
        let k = back.floor() as usize;
        let frac = back - k as f64;
        let a = self.price(k);
        let b = self.price(k + 1);
        a + (b - a) * frac
    }
}

/// One trade's numbers, before it is dressed as a model.
#[derive(Debug, Clone, PartialEq)]
pub struct TradeFacts {
    pub index: u32,
    pub timestamp: i64,
    pub buy: bool,
    pub yes: bool,
    /// Price of the outcome traded (of "no" for a no trade).
    pub price: f64,
    pub size: f64,
    pub taker: bool,
    pub user: u32,
}

/// A market's trades, newest first; the newest is at the last price. `count`
/// trades spread over `span_secs` before `as_of`. Lazy: the newest trade
/// costs nothing to get.
pub fn trades<'a>(
    seed: u64,
    quote: Quote,
    path: &'a Path,
    as_of: i64,
    count: u32,
    span_secs: i64,
    users: u32,
) -> impl Iterator<Item = TradeFacts> + 'a {
    let mut rng = Rng::of(seed, "trades", 0);
    let mut t = as_of - rng.range(30, 900) as i64;
    let gap = (span_secs / i64::from(count.max(1))).max(2);
    let half_spread = (quote.ask() - quote.bid()) / 2.0;
    (0..count).map(move |index| {
        let yes_price = if index == 0 {
            quote.last()
        } else {
            let p = path.at(t) + half_spread * (rng.unit() * 2.0 - 1.0);
            (p / TICK).round() * TICK
        };
        let yes_price = round(yes_price.clamp(0.01, 0.99), 2);
        let yes = rng.chance(0.7);
        let trade = TradeFacts {
            index,
            timestamp: t,
            buy: rng.chance(0.55),
            yes,
            price: if yes {
                yes_price
            } else {
                round(1.0 - yes_price, 2)
            },
            size: round(rng.log_normal(60.0, 1.2).max(1.0), 0),
            taker: rng.chance(0.6),
            user: rng.range(0, u64::from(users.max(1))) as u32,
        };
        t -= 1 + rng.range(0, 2 * gap as u64) as i64;
        trade
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_are_never_crossed_and_books_agree() {
        for i in 0..5_000 {
            let mut rng = Rng::of(9, "q", i);
            let q = Quote::draw(&mut rng);
            assert!(q.bid_c >= 1 && q.bid_c < q.ask_c && q.ask_c <= 99, "{q:?}");
            assert!(q.bid_c <= q.last_c && q.last_c <= q.ask_c, "{q:?}");
            let book = ladder(i, q);
            assert_eq!(book.yes_bids[0].price, q.bid());
            assert_eq!(book.yes_asks[0].price, q.ask());
            assert!(book.no_bids[0].price < book.no_asks[0].price);
            for side in [&book.yes_bids, &book.no_bids] {
                assert!(side.windows(2).all(|w| w[0].price > w[1].price));
            }
            for side in [&book.yes_asks, &book.no_asks] {
                assert!(side.windows(2).all(|w| w[0].price < w[1].price));
            }
        }
    }

    #[test]
    fn books_move_with_time_and_keep_their_prices() {
        let q = Quote {
            bid_c: 40,
            ask_c: 43,
            last_c: 42,
        };
        let base = ladder(7, q);
        let a = ladder_at(7, q, 1_000);
        let b = ladder_at(7, q, 1_000 + BOOK_TICK_SECS);
        assert_eq!(a, ladder_at(7, q, 1_001), "the same within a tick");
        assert_ne!(a, b, "sizes move from one tick to the next");
        for book in [&a, &b] {
            let prices = |l: &[Level]| l.iter().map(|l| l.price).collect::<Vec<_>>();
            assert_eq!(prices(&book.yes_bids), prices(&base.yes_bids));
            assert_eq!(prices(&book.no_asks), prices(&base.no_asks));
            let sizes = |l: &[Level]| l.iter().map(|l| l.size).collect::<Vec<_>>();
            assert_eq!(sizes(&book.yes_bids), sizes(&book.no_asks));
            assert_eq!(sizes(&book.yes_asks), sizes(&book.no_bids));
        }
    }

    #[test]
    fn paths_and_trades_end_at_the_last_price() {
        let q = Quote {
            bid_c: 40,
            ask_c: 43,
            last_c: 42,
        };
        let path = Path::new(1, q, 1_000_000, 0.05);
        assert_eq!(path.at(1_000_000), 0.42);
        let trades: Vec<_> = trades(1, q, &path, 1_000_000, 200, 7 * 86_400, 50).collect();
        assert_eq!(trades[0].price, if trades[0].yes { 0.42 } else { 0.58 });
        assert!(trades.windows(2).all(|w| w[0].timestamp > w[1].timestamp));
        assert!(trades.iter().all(|t| (0.01..=0.99).contains(&t.price)));
    }
}
