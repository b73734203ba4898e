//! Odds math: american (`"+250"`, `"-110"`) ↔ decimal ↔ implied
//! probability; overround and no-vig probabilities of a market; the best
//! price of each outcome across platforms; a game's odds boards; and the
//! arbitrage finder.
//!
//! Conventions: decimal odds are the total return per unit staked
//! (`3.5` returns 3.5 for 1, i.e. profit 2.5); an implied probability is
//! `1 / decimal`; american `+N` wins N per 100 staked, `-N` needs N staked
//! to win 100.

use crate::error::{Error, Quoted};
use crate::models::{
    Award, Future, GameMarket, GameMarketType, GameOutcome, Odds, PlatformId, Priced, PricedMarket,
};
pub use crate::number::text as number_text;
use std::collections::BTreeMap;

const PARAMETER: &str = "odds";

fn invalid(message: impl Into<String>) -> Error {
    Error::invalid(PARAMETER, message)
}

/// Decimal odds of an american string: `"+250"` → 3.5, `"-110"` → 1.909…
/// `"EVEN"`/`"EV"` and `"100"` are 2.0. Magnitudes under 100 do not exist
/// in american notation and are errors.
pub fn american_to_decimal(american: &str) -> Result<f64, Error> {
    let s = american.trim();
    if s.eq_ignore_ascii_case("even") || s.eq_ignore_ascii_case("ev") {
        return Ok(2.0);
    }
    let n: f64 = crate::number::parse(s.strip_prefix('+').unwrap_or(s))
        .ok_or_else(|| invalid(format!("{} is not american odds", Quoted(american))))?;
    if !n.is_finite() || n.abs() < 100.0 {
        return Err(invalid(format!(
            "{}: american odds are at least 100 in magnitude",
            Quoted(american)
        )));
    }
    Ok(if n > 0.0 {
        1.0 + n / 100.0
    } else {
        1.0 + 100.0 / -n
    })
}

/// American string of decimal odds, rounded to a whole number as the
/// notation is: 3.5 → `"+250"`, 1.909 → `"-110"`, 2.0 → `"+100"`.
pub fn decimal_to_american(decimal: f64) -> Result<String, Error> {
    check_decimal(decimal)?;
    Ok(if decimal >= 2.0 {
        format!("+{}", number_text(((decimal - 1.0) * 100.0).round()))
    } else {
        format!("-{}", number_text((100.0 / (decimal - 1.0)).round()))
    })
}

fn check_decimal(decimal: f64) -> Result<(), Error> {
    if decimal.is_finite() && decimal > 1.0 {
        Ok(())
    } else {
        Err(invalid(format!(
            "decimal odds must exceed 1, got {}",
            number_text(decimal)
        )))
    }
}

fn check_probability(p: f64) -> Result<(), Error> {
    if p.is_finite() && p > 0.0 && p < 1.0 {
        Ok(())
    } else {
        Err(invalid(format!(
            "a probability must be strictly between 0 and 1, got {}",
            number_text(p)
        )))
    }
}

/// Implied probability of decimal odds (`1 / decimal`).
pub fn decimal_to_probability(decimal: f64) -> Result<f64, Error> {
    check_decimal(decimal)?;
    Ok(1.0 / decimal)
}

/// Decimal odds of a probability (`1 / p`); also of a prediction-market
/// price in 0..1, which is that outcome's implied probability.
pub fn probability_to_decimal(p: f64) -> Result<f64, Error> {
    check_probability(p)?;
    Ok(1.0 / p)
}

pub fn american_to_probability(american: &str) -> Result<f64, Error> {
    american_to_decimal(american).map(|d| 1.0 / d)
}

pub fn probability_to_american(p: f64) -> Result<String, Error> {
    decimal_to_american(probability_to_decimal(p)?)
}

impl Odds {
    /// All three notations of decimal odds.
    pub fn from_decimal(decimal: f64) -> Result<Self, Error> {
        Ok(Self {
            american: Some(decimal_to_american(decimal)?),
            decimal: Some(decimal),
            implied_probability: Some(1.0 / decimal),
        })
    }

    /// All three notations of a probability (or a price in 0..1).
    pub fn from_probability(p: f64) -> Result<Self, Error> {
        let decimal = probability_to_decimal(p)?;
        Ok(Self {
            american: Some(decimal_to_american(decimal)?),
            decimal: Some(decimal),
            implied_probability: Some(p),
        })
    }

    /// All three notations of an american string.
    pub fn from_american(american: &str) -> Result<Self, Error> {
        let decimal = american_to_decimal(american)?;
        Ok(Self {
            american: Some(american.trim().to_owned()),
            decimal: Some(decimal),
            implied_probability: Some(1.0 / decimal),
        })
    }

    /// Decimal odds from whichever notation is present and valid (decimal
    /// first, then probability, then american).
    pub fn to_decimal(&self) -> Option<f64> {
        self.decimal
            .filter(|d| check_decimal(*d).is_ok())
            .or_else(|| {
                self.implied_probability
                    .and_then(|p| probability_to_decimal(p).ok())
            })
            .or_else(|| {
                self.american
                    .as_deref()
                    .and_then(|a| american_to_decimal(a).ok())
            })
    }

    /// The implied probability from whichever notation is present.
    pub fn probability(&self) -> Option<f64> {
        self.to_decimal().map(|d| 1.0 / d)
    }
}

/// The bookmaker's margin of a market: the sum of its outcomes' implied
/// probabilities minus 1 (0.0476 for -110/-110). Negative means the prices
/// together pay more than they take (see [`find_arbitrage`]).
pub fn overround(probabilities: &[f64]) -> f64 {
    probabilities.iter().sum::<f64>() - 1.0
}

/// Fair ("no-vig") probabilities: each implied probability divided by their
/// sum (the multiplicative method), so they add up to 1. `None` when the
/// sum is not positive.
pub fn no_vig(probabilities: &[f64]) -> Option<Vec<f64>> {
    let sum: f64 = probabilities.iter().sum();
    (sum.is_finite() && sum > 0.0).then(|| probabilities.iter().map(|p| p / sum).collect())
}

/// One platform's price for one outcome.
#[derive(Debug, Clone, PartialEq)]
pub struct Quote {
    /// What identifies the outcome across platforms (see [`outcome_key`]).
    pub outcome: String,
    /// The outcome as the platform names it.
    pub label: String,
    pub platform: Option<PlatformId>,
    pub market_id: Option<String>,
    /// Decimal odds (> 1).
    pub decimal: f64,
}

impl Quote {
    pub fn probability(&self) -> f64 {
        1.0 / self.decimal
    }
}

/// How a name becomes part of an outcome key: lower-cased. Rust callers
/// use the plain functions (`str::to_lowercase`); the npm package passes
/// the JS engine's `String.prototype.toLowerCase` to the `_with` ones (the
/// same Unicode mapping), which spares its wasm Rust's case tables, about
/// 4 KB of its gzipped size.
pub type Lowercase = fn(&str) -> String;

/// The key that matches an outcome across platforms: a team's service id
/// when there is one, else the name, trimmed and lower-cased.
pub fn outcome_key(team_service_id: Option<&str>, name: Option<&str>) -> Option<String> {
    outcome_key_with(team_service_id, name, str::to_lowercase)
}

/// [`outcome_key`], lower-casing with `lowercase`.
pub fn outcome_key_with(
    team_service_id: Option<&str>,
    name: Option<&str>,
    lowercase: Lowercase,
) -> Option<String> {
    team_service_id
        .and_then(team_key)
        .or_else(|| name.map(|n| lowercase(n.trim())).filter(|n| !n.is_empty()))
}

/// The key of a team's service id: trimmed, if not blank.
fn team_key(team_service_id: &str) -> Option<String> {
    let team = team_service_id.trim();
    (!team.is_empty()).then(|| team.to_owned())
}

/// Every priced outcome of the markets, one quote per platform and
/// outcome. Odds come from `odds`, else from a `price` in 0..1.
pub fn quotes_of<'a, M: PricedMarket + 'a>(markets: impl IntoIterator<Item = &'a M>) -> Vec<Quote> {
    quotes_of_with(markets, str::to_lowercase)
}

/// [`quotes_of`], lower-casing names with `lowercase`.
pub fn quotes_of_with<'a, M: PricedMarket + 'a>(
    markets: impl IntoIterator<Item = &'a M>,
    lowercase: Lowercase,
) -> Vec<Quote> {
    let mut out = Vec::new();
    for market in markets {
        for o in market.outcomes() {
            let key = outcome_key_with(o.team(), o.label(), lowercase);
            let decimal = o
                .odds()
                .and_then(Odds::to_decimal)
                .or_else(|| o.price().and_then(|p| probability_to_decimal(p).ok()));
            if let (Some(outcome), Some(decimal)) = (key, decimal) {
                out.push(Quote {
                    outcome,
                    label: o.label().unwrap_or_default().to_owned(),
                    platform: market.platform().cloned(),
                    market_id: market.market_id().map(str::to_owned),
                    decimal,
                });
            }
        }
    }
    out
}

/// Every priced outcome of a future, one quote per platform and outcome.
pub fn future_quotes(future: &Future) -> Vec<Quote> {
    future_quotes_with(future, str::to_lowercase)
}

/// [`future_quotes`], lower-casing names with `lowercase`.
pub fn future_quotes_with(future: &Future, lowercase: Lowercase) -> Vec<Quote> {
    quotes_of_with(future.markets.iter().flatten(), lowercase)
}

/// Every priced candidate of an award (matched by player name).
pub fn award_quotes(award: &Award) -> Vec<Quote> {
    award_quotes_with(award, str::to_lowercase)
}

/// [`award_quotes`], lower-casing names with `lowercase`.
pub fn award_quotes_with(award: &Award, lowercase: Lowercase) -> Vec<Quote> {
    quotes_of_with(award.markets.iter().flatten(), lowercase)
}

/// The quotes of the game outcomes of one kind and line (e.g. every
/// platform's moneyline, or every total at 47.5): only outcomes on the
/// same question are comparable. The kind is the one the service gives
/// (`outcomes[].metadata.market_type`); a spread matches by the size of
/// its line (`-3.5` and `+3.5` are the two sides of one spread).
pub fn game_quotes<'a>(
    markets: impl IntoIterator<Item = &'a GameMarket>,
    kind: &GameMarketType,
    line: Option<f64>,
) -> Vec<Quote> {
    game_quotes_with(markets, kind, line, str::to_lowercase)
}

/// [`game_quotes`], lower-casing names with `lowercase`.
pub fn game_quotes_with<'a>(
    markets: impl IntoIterator<Item = &'a GameMarket>,
    kind: &GameMarketType,
    line: Option<f64>,
    lowercase: Lowercase,
) -> Vec<Quote> {
    let mut out = Vec::new();
    for market in markets {
        for o in market.outcomes() {
            if o.kind().as_ref() != Some(kind) || line_key(kind, o.line()) != line_key(kind, line) {
                continue;
            }
            if let Some(quote) = game_quote(market, o, lowercase) {
                out.push(quote);
            }
        }
    }
    out
}

/// The line that makes two outcomes the same question: none for a
/// moneyline, the size for a spread, the points for a total.
fn line_key(kind: &GameMarketType, line: Option<f64>) -> Option<u64> {
    match kind {
        GameMarketType::Moneyline => None,
        GameMarketType::Spread => line.map(|l| l.abs().to_bits()),
        _ => line.map(f64::to_bits),
    }
}

/// One game outcome as a quote: matched across platforms by its team, else
/// by its name without the line (`Over 47.5` → `over`).
fn game_quote(market: &GameMarket, o: &GameOutcome, lowercase: Lowercase) -> Option<Quote> {
    let key = outcome_key_with(o.team(), o.side_name(), lowercase)?;
    let decimal = o
        .odds()
        .and_then(Odds::to_decimal)
        .or_else(|| o.price().and_then(|p| probability_to_decimal(p).ok()))?;
    Some(Quote {
        outcome: key,
        label: o.label().unwrap_or_default().to_owned(),
        platform: market.platform().cloned(),
        market_id: market.market_id().map(str::to_owned),
        decimal,
    })
}

/// What an odds board compares.
#[derive(Debug, Clone, PartialEq)]
pub enum BoardKind {
    /// One kind of market across platforms (moneyline, spread or total) at
    /// one line: the outcomes are the sides of one question.
    Market {
        kind: GameMarketType,
        /// The spread's size or the total's points.
        line: Option<f64>,
    },
    /// The outcomes of one platform event whose kind the service does not
    /// say (or a proposition): shown as sent, not compared.
    Event {
        platform: Option<PlatformId>,
        event_id: Option<String>,
        name: Option<String>,
    },
}

/// One platform's price of one outcome on a board, with what the service
/// says about it.
#[derive(Debug, Clone, PartialEq)]
pub struct BoardCell {
    pub quote: Quote,
    pub outcome_id: Option<String>,
    /// Price in 0..1 as sent (else the implied probability of the odds).
    pub price: f64,
    pub volume: Option<f64>,
    pub liquidity: Option<f64>,
    pub status: Option<String>,
    /// Position of the outcome in the game's `markets` (event, outcome),
    /// to find its order book.
    pub at: (usize, usize),
}

/// One outcome of a board across platforms.
#[derive(Debug, Clone, PartialEq)]
pub struct BoardRow {
    /// What matches the outcome across platforms (see [`outcome_key`]).
    pub outcome: String,
    /// The outcome's name as the first platform sends it.
    pub label: String,
    /// The line of this side (`-3.5`), when it has one.
    pub line: Option<f64>,
    /// Every platform's price, in the order of the game's markets.
    pub cells: Vec<BoardCell>,
    /// The best price across platforms (the highest decimal odds).
    pub best: Option<Quote>,
    /// The fair ("no-vig") probability from the best prices of every row
    /// of the board; `None` on event boards, whose outcomes need not be
    /// exclusive.
    pub fair: Option<f64>,
}

/// An odds board of a game.
#[derive(Debug, Clone, PartialEq)]
pub struct OddsBoard {
    pub kind: BoardKind,
    pub rows: Vec<BoardRow>,
}

impl OddsBoard {
    /// The overround of the best prices (negative: an arbitrage across
    /// platforms), for market boards with two or more priced rows.
    pub fn best_overround(&self) -> Option<f64> {
        if !matches!(self.kind, BoardKind::Market { .. }) {
            return None;
        }
        let probabilities: Vec<f64> = self
            .rows
            .iter()
            .filter_map(|r| r.best.as_ref().map(Quote::probability))
            .collect();
        (probabilities.len() >= 2).then(|| overround(&probabilities))
    }
}

/// The odds boards of a game's markets (platform events with outcomes):
/// one board per kind and line where the service says the kind of an
/// outcome (moneyline first, then spreads, then totals), comparing every
/// platform's price of each outcome with the best of them and the no-vig
/// probability; then one board per platform event for the outcomes whose
/// kind is not given or is a proposition. Outcomes without a price or
/// odds are left out of market boards and shown on event boards.
pub fn game_boards(markets: &[GameMarket]) -> Vec<OddsBoard> {
    game_boards_with(markets, str::to_lowercase)
}

/// [`game_boards`], lower-casing names with `lowercase`.
pub fn game_boards_with(markets: &[GameMarket], lowercase: Lowercase) -> Vec<OddsBoard> {
    let compared = [
        GameMarketType::Moneyline,
        GameMarketType::Spread,
        GameMarketType::Total,
    ];
    let mut boards: Vec<OddsBoard> = Vec::new();
    let mut by_event: Vec<OddsBoard> = Vec::new();
    for (e, market) in markets.iter().enumerate() {
        let mut own: Vec<BoardRow> = Vec::new();
        for (i, o) in market.outcomes().iter().enumerate() {
            let kind = o.kind().filter(|k| compared.contains(k));
            let quote = game_quote(market, o, lowercase);
            let cell = |quote: Quote| BoardCell {
                price: o.price.unwrap_or(1.0 / quote.decimal),
                quote,
                outcome_id: o.outcome_id.clone(),
                volume: o.volume,
                liquidity: o.liquidity,
                status: o.status.as_ref().map(|s| s.as_str().to_owned()),
                at: (e, i),
            };
            match (kind, quote) {
                (Some(kind), Some(quote)) => {
                    let line = match kind {
                        GameMarketType::Moneyline => None,
                        GameMarketType::Spread => o.line().map(f64::abs),
                        _ => o.line(),
                    };
                    let board = match boards.iter_mut().find(|b| {
                        b.kind
                            == BoardKind::Market {
                                kind: kind.clone(),
                                line,
                            }
                    }) {
                        Some(board) => board,
                        None => {
                            boards.push(OddsBoard {
                                kind: BoardKind::Market { kind, line },
                                rows: Vec::new(),
                            });
                            let last = boards.len() - 1;
                            &mut boards[last]
                        }
                    };
                    add_cell(&mut board.rows, cell(quote), o.line());
                }
                (_, quote) => {
                    // Shown as sent: each outcome its own row, priced or not.
                    let label = o.label().unwrap_or_default().to_owned();
                    let key = o
                        .outcome_id
                        .clone()
                        .unwrap_or_else(|| format!("{i}:{}", lowercase(label.trim())));
                    let cells: Vec<BoardCell> = quote.map(cell).into_iter().collect();
                    own.push(BoardRow {
                        outcome: key,
                        label,
                        line: o.line(),
                        best: cells.first().map(|c| c.quote.clone()),
                        cells,
                        fair: None,
                    });
                }
            }
        }
        if !own.is_empty() {
            by_event.push(OddsBoard {
                kind: BoardKind::Event {
                    platform: market.platform.clone(),
                    event_id: market.event_id.clone().filter(|id| !id.is_empty()),
                    name: market.name().map(str::to_owned),
                },
                rows: own,
            });
        }
    }
    boards.sort_by(|a, b| board_order(&a.kind).total_cmp(&board_order(&b.kind)));
    for board in &mut boards {
        let best: Vec<f64> = board
            .rows
            .iter()
            .filter_map(|r| r.best.as_ref().map(Quote::probability))
            .collect();
        if best.len() == board.rows.len()
            && best.len() >= 2
            && let Some(fair) = no_vig(&best)
        {
            for (row, p) in board.rows.iter_mut().zip(fair) {
                row.fair = Some(p);
            }
        }
    }
    boards.extend(by_event);
    boards
}

/// Moneyline, then spreads, then totals; lines ascending within a kind.
fn board_order(kind: &BoardKind) -> f64 {
    match kind {
        BoardKind::Market { kind, line } => {
            let rank = match kind {
                GameMarketType::Moneyline => 0.0,
                GameMarketType::Spread => 1.0,
                _ => 2.0,
            };
            rank * 1e6 + line.unwrap_or(0.0).clamp(-1e5, 1e5)
        }
        BoardKind::Event { .. } => 3e6,
    }
}

/// Puts a platform's price into its outcome's row, keeping the best.
fn add_cell(rows: &mut Vec<BoardRow>, cell: BoardCell, line: Option<f64>) {
    let key = cell.quote.outcome.clone();
    let row = match rows.iter_mut().position(|r| r.outcome == key) {
        Some(at) => &mut rows[at],
        None => {
            rows.push(BoardRow {
                outcome: key,
                label: cell.quote.label.clone(),
                line,
                cells: Vec::new(),
                best: None,
                fair: None,
            });
            let last = rows.len() - 1;
            &mut rows[last]
        }
    };
    let better = row
        .best
        .as_ref()
        .is_none_or(|b| cell.quote.decimal > b.decimal);
    if better && check_decimal(cell.quote.decimal).is_ok() {
        row.best = Some(cell.quote.clone());
    }
    row.cells.push(cell);
}

/// The best price (highest decimal odds) of each outcome across the
/// quotes, keyed by outcome. Ties keep the first quote seen.
pub fn best_prices(quotes: &[Quote]) -> BTreeMap<String, Quote> {
    let mut best: BTreeMap<String, Quote> = BTreeMap::new();
    for q in quotes {
        if check_decimal(q.decimal).is_err() {
            continue;
        }
        match best.get(&q.outcome) {
            Some(b) if b.decimal >= q.decimal => {}
            _ => {
                best.insert(q.outcome.clone(), q.clone());
            }
        }
    }
    best
}

/// One bet of an arbitrage.
#[derive(Debug, Clone, PartialEq)]
pub struct ArbitrageLeg {
    pub quote: Quote,
    /// The amount to stake on this outcome.
    pub stake: f64,
    /// What the stake returns if this outcome wins (the same for every leg).
    pub payout: f64,
}

/// Bets on every outcome that return the same amount whichever wins, for
/// less than that amount.
#[derive(Debug, Clone, PartialEq)]
pub struct Arbitrage {
    pub legs: Vec<ArbitrageLeg>,
    /// Sum of the best implied probabilities (< 1).
    pub implied_sum: f64,
    pub total_stake: f64,
    pub guaranteed_payout: f64,
    pub guaranteed_profit: f64,
    /// Profit as a fraction of the stake (`1 / implied_sum - 1`).
    pub roi: f64,
}

/// Finds an arbitrage over the best price of each outcome: when the best
/// implied probabilities sum to less than 1, staking
/// `budget × p_i / Σp` on each outcome returns `budget / Σp` whichever
/// wins. The caller must pass quotes covering every outcome of one
/// question (mutually exclusive and exhaustive), e.g. both sides of a
/// moneyline; use [`find_arbitrage_among`] to require a set of outcomes.
/// Fees and limits of the platforms are not modelled. `None` when there is
/// no arbitrage, fewer than two outcomes, or `budget` is not positive.
pub fn find_arbitrage(quotes: &[Quote], budget: f64) -> Option<Arbitrage> {
    if !(budget.is_finite() && budget > 0.0) {
        return None;
    }
    let best = best_prices(quotes);
    if best.len() < 2 {
        return None;
    }
    let implied_sum: f64 = best.values().map(Quote::probability).sum();
    if implied_sum.is_nan() || implied_sum >= 1.0 {
        return None;
    }
    let payout = budget / implied_sum;
    let legs = best
        .into_values()
        .map(|quote| ArbitrageLeg {
            stake: budget * quote.probability() / implied_sum,
            payout,
            quote,
        })
        .collect();
    Some(Arbitrage {
        legs,
        implied_sum,
        total_stake: budget,
        guaranteed_payout: payout,
        guaranteed_profit: payout - budget,
        roi: 1.0 / implied_sum - 1.0,
    })
}

/// [`find_arbitrage`] over exactly the outcomes `required` (keys as
/// [`outcome_key`] makes them): `None` if one of them has no quote, since
/// an unpriced outcome could win and lose every stake. For a future, pass
/// its `metadata.eligible_teams`.
pub fn find_arbitrage_among(
    quotes: &[Quote],
    required: &[String],
    budget: f64,
) -> Option<Arbitrage> {
    let keys: Vec<String> = required.iter().filter_map(|r| team_key(r)).collect();
    let relevant: Vec<Quote> = quotes
        .iter()
        .filter(|q| keys.contains(&q.outcome))
        .cloned()
        .collect();
    let best = best_prices(&relevant);
    if keys.iter().any(|k| !best.contains_key(k)) {
        return None;
    }
    find_arbitrage(&relevant, budget)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn american_worked_examples() {
        assert!(close(american_to_decimal("+250").unwrap(), 3.5));
        assert!(close(
            american_to_decimal("-110").unwrap(),
            1.0 + 100.0 / 110.0
        ));
        assert!(close(american_to_decimal("-200").unwrap(), 1.5));
        assert!(close(american_to_decimal("150").unwrap(), 2.5));
        assert!(close(american_to_decimal("EVEN").unwrap(), 2.0));
        assert!(close(american_to_probability("+250").unwrap(), 2.0 / 7.0));
        assert!(close(
            american_to_probability("-110").unwrap(),
            110.0 / 210.0
        ));
        assert_eq!(decimal_to_american(3.5).unwrap(), "+250");
        assert_eq!(decimal_to_american(1.0 + 100.0 / 110.0).unwrap(), "-110");
        assert_eq!(decimal_to_american(2.0).unwrap(), "+100");
        assert_eq!(decimal_to_american(1.5).unwrap(), "-200");
        assert_eq!(probability_to_american(0.2).unwrap(), "+400");
        assert_eq!(probability_to_american(0.75).unwrap(), "-300");
        for bad in ["", "abc", "+50", "-99", "0", "NaN", "+inf"] {
            assert!(american_to_decimal(bad).is_err(), "{bad}");
        }
        assert!(decimal_to_american(1.0).is_err());
        assert!(probability_to_decimal(0.0).is_err());
        assert!(probability_to_decimal(1.0).is_err());
    }

    #[test]
    fn odds_from_any_notation() {
        let o = Odds::from_american("+250").unwrap();
        assert_eq!(o.decimal, Some(3.5));
        assert!(close(o.implied_probability.unwrap(), 2.0 / 7.0));
        let only_american = Odds {
            american: Some("-150".into()),
            ..Default::default()
        };
        assert!(close(only_american.probability().unwrap(), 0.6));
        let only_p = Odds {
            implied_probability: Some(0.25),
            ..Default::default()
        };
        assert_eq!(only_p.to_decimal(), Some(4.0));
        assert_eq!(Odds::default().probability(), None);
        assert_eq!(
            Odds::from_decimal(4.0).unwrap().american.as_deref(),
            Some("+300")
        );
        assert_eq!(
            Odds::from_probability(0.5).unwrap().american.as_deref(),
            Some("+100")
        );
    }

    #[test]
    fn overround_and_no_vig() {
        let p = american_to_probability("-110").unwrap();
        assert!(close(overround(&[p, p]), 20.0 / 420.0));
        let fair = no_vig(&[p, p]).unwrap();
        assert!(close(fair[0], 0.5) && close(fair[1], 0.5));
        // -150 / +130: 0.6 + 0.434783 = 1.034783 → 0.579832 / 0.420168.
        let a = american_to_probability("-150").unwrap();
        let b = american_to_probability("+130").unwrap();
        assert!(close(overround(&[a, b]), 0.6 + 100.0 / 230.0 - 1.0));
        let fair = no_vig(&[a, b]).unwrap();
        assert!((fair[0] - 0.579832).abs() < 1e-6, "{fair:?}");
        assert!(close(fair.iter().sum::<f64>(), 1.0));
        assert_eq!(no_vig(&[]), None);
    }

    fn q(outcome: &str, platform: PlatformId, decimal: f64) -> Quote {
        Quote {
            outcome: outcome.into(),
            label: outcome.into(),
            platform: Some(platform),
            market_id: None,
            decimal,
        }
    }

    #[test]
    fn best_price_per_outcome() {
        let quotes = [
            q("x", PlatformId::PlatformA, 2.10),
            q("y", PlatformId::PlatformA, 1.80),
            q("x", PlatformId::PlatformB, 1.95),
            q("y", PlatformId::PlatformB, 2.05),
            q("y", PlatformId::PlatformF, 0.5), // invalid, ignored
        ];
        let best = best_prices(&quotes);
        assert_eq!(best["x"].platform, Some(PlatformId::PlatformA));
        assert_eq!(best["y"].platform, Some(PlatformId::PlatformB));
        assert_eq!(best["y"].decimal, 2.05);
    }

    #[test]
    fn arbitrage_worked_example() {
        // Best: x at 2.10 on A, y at 2.05 on B. Σp = 1/2.10 + 1/2.05
        // = 0.476190 + 0.487805 = 0.963995. For 100: stakes 49.398 / 50.602,
        // each returns 103.735, profit 3.735.
        let quotes = [
            q("x", PlatformId::PlatformA, 2.10),
            q("y", PlatformId::PlatformA, 1.80),
            q("x", PlatformId::PlatformB, 1.95),
            q("y", PlatformId::PlatformB, 2.05),
        ];
        let arb = find_arbitrage(&quotes, 100.0).unwrap();
        assert!((arb.implied_sum - 0.963995).abs() < 1e-6);
        assert!((arb.legs[0].stake - 49.3977).abs() < 1e-3, "{arb:?}");
        assert!((arb.legs[1].stake - 50.6023).abs() < 1e-3);
        assert!((arb.guaranteed_payout - 103.735).abs() < 1e-3);
        assert!((arb.guaranteed_profit - 3.735).abs() < 1e-3);
        for leg in &arb.legs {
            assert!(close(leg.stake * leg.quote.decimal, arb.guaranteed_payout));
        }
        assert!(close(arb.legs.iter().map(|l| l.stake).sum::<f64>(), 100.0));

        // One platform alone: -110/-110 has a margin, no arbitrage.
        let d = american_to_decimal("-110").unwrap();
        let fair = [
            q("x", PlatformId::PlatformA, d),
            q("y", PlatformId::PlatformA, d),
        ];
        assert_eq!(find_arbitrage(&fair, 100.0), None);
        assert_eq!(find_arbitrage(&quotes[..1], 100.0), None, "one outcome");
        assert_eq!(find_arbitrage(&quotes, 0.0), None);
    }

    #[test]
    fn arbitrage_requires_every_outcome_priced() {
        let quotes = [
            q("league_a_kc", PlatformId::PlatformA, 3.0),
            q("league_a_sf", PlatformId::PlatformB, 3.0),
        ];
        // Two of three teams priced: an unpriced team could win.
        let teams = ["league_a_kc", "league_a_sf", "league_a_bos"].map(String::from);
        assert_eq!(find_arbitrage_among(&quotes, &teams, 100.0), None);
        assert!(find_arbitrage_among(&quotes, &teams[..2], 100.0).is_some());
    }

    #[test]
    fn quotes_from_a_future_fixture() {
        let text = include_str!("../tests/fixtures/get_future.json");
        let r: crate::models::FutureResponse = serde_json::from_str(text).unwrap();
        let quotes = future_quotes(&r.data);
        assert_eq!(quotes.len(), 3);
        let best = best_prices(&quotes);
        assert_eq!(best["league_a_kc"].decimal, 4.0);
        assert_eq!(best["league_a_kc"].platform, Some(PlatformId::PlatformF));
        assert_eq!(best["league_a_sf"].decimal, 5.0);
    }

    #[test]
    fn quotes_from_a_game_fixture() {
        let text = include_str!("../tests/fixtures/get_game.json");
        let r: crate::models::GameResponse = serde_json::from_str(text).unwrap();
        let ml = game_quotes(&r.data.markets, &GameMarketType::Moneyline, None);
        assert_eq!(ml.len(), 2);
        assert_eq!(ml[0].outcome, "league_a_kc");
        let totals = game_quotes(&r.data.markets, &GameMarketType::Total, Some(47.5));
        assert_eq!(totals.len(), 2);
        assert_eq!(totals[0].outcome, "over");
    }

    proptest! {
        #[test]
        fn decimal_probability_round_trip(d in 1.0001f64..1000.0) {
            let p = decimal_to_probability(d).unwrap();
            prop_assert!((probability_to_decimal(p).unwrap() - d).abs() < 1e-9 * d);
        }

        #[test]
        fn american_round_trips_through_decimal(n in 100i32..100_000, positive in any::<bool>()) {
            let s = if positive { format!("+{n}") } else { format!("-{n}") };
            let d = american_to_decimal(&s).unwrap();
            let back = decimal_to_american(d).unwrap();
            // +100 and -100 are the same price.
            if n == 100 {
                prop_assert_eq!(back, "+100");
            } else {
                prop_assert_eq!(back, s);
            }
        }

        #[test]
        fn arbitrage_legs_pay_the_same(ds in proptest::collection::vec(1.01f64..50.0, 2..8), budget in 1.0f64..10_000.0) {
            let quotes: Vec<Quote> = ds.iter().enumerate()
                .map(|(i, d)| q(&format!("o{i}"), PlatformId::PlatformA, *d))
                .collect();
            let sum: f64 = ds.iter().map(|d| 1.0 / d).sum();
            match find_arbitrage(&quotes, budget) {
                Some(arb) => {
                    prop_assert!(sum < 1.0);
                    prop_assert!(arb.guaranteed_profit > 0.0);
                    for leg in &arb.legs {
                        prop_assert!((leg.stake * leg.quote.decimal - arb.guaranteed_payout).abs() < 1e-6 * budget);
                    }
                }
                None => prop_assert!(sum >= 1.0),
            }
        }
    }
}
