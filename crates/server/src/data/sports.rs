//! Sports data of the four leagues: teams with their ids at each platform,
//! a schedule of games around the anchor day with moneyline, spread and
//! total markets per platform, futures and awards with odds per platform.
//!
//! Every platform prices the same underlying probabilities with its own
//! margin and noise, so prices differ between platforms the way they do
//! between real books, and one future (`FUTURE_WITH_ARBITRAGE`) is priced
//! so that backing every team at its best price across platforms costs
//! less than the payout: a real cross-platform arbitrage.

pub use super::leagues::LEAGUES;
use super::leagues::{CITIES, LeagueDef};
use super::names::Names;
use super::odds;
use super::options::Options;
use super::platforms::SPORTS;
use super::rng::{Rng, round};
use super::text;
use super::time::{self, iso8601};
use predmarket_core::game_id::GameId;
use predmarket_core::models::{
    Award, AwardMarket, AwardMetadata, AwardType, BookLevel, Candidate, Future, FutureCategory,
    FutureMarket, FutureMetadata, FutureOutcome, FutureType, Game, GameMarket, GameMarketMetadata,
    GameMarketType, GameOutcome, GameOutcomeMetadata, GameStatus, League, LeagueCounts,
    LeagueEndpoints, LeagueInfo, LeagueStatus, MarketStatus, OddsFormat, OutcomeBook, PlatformId,
    Season, Team, TeamMetadata,
};
use serde_json::{Value, json};
use std::collections::BTreeMap;

const DAY: i64 = 86_400;

/// The future whose best prices across platforms sum below 1.
pub const FUTURE_WITH_ARBITRAGE_NAME: &str = "first division future of league_b";

pub struct TeamRow {
    pub league: usize,
    pub code: String,
    pub model: Team,
    /// Relative strength; probabilities follow from it.
    pub strength: f64,
    pub conference: usize,
    pub division: usize,
}

pub struct GameRow {
    pub league: usize,
    pub away: usize,
    pub home: usize,
    pub at: i64,
    pub model: Game,
}

pub struct FutureRow {
    pub league: usize,
    pub future_type: &'static str,
    pub season: i64,
    /// Indexes of the eligible teams, and their true probabilities.
    pub teams: Vec<usize>,
    pub probabilities: Vec<f64>,
    pub arbitrage: bool,
    pub model: Future,
}

pub struct AwardRow {
    pub league: usize,
    pub award_type: &'static str,
    pub season: i64,
    /// (player name, team index, position, true probability)
    pub candidates: Vec<(String, usize, &'static str, f64)>,
    pub model: Award,
}

pub struct Sports {
    pub teams: Vec<TeamRow>,
    /// Games per league, by time then id.
    pub games: Vec<GameRow>,
    pub futures: Vec<FutureRow>,
    pub awards: Vec<AwardRow>,
    seed: u64,
    as_of: i64,
    names: Names,
}

impl Sports {
    pub fn games_count(&self) -> usize {
        self.games.len()
    }

    pub fn league_index(label: &str) -> Option<usize> {
        LEAGUES.iter().position(|l| l.id == label)
    }

    /// The season year of a league on the anchor day.
    pub fn season_year(&self, league: usize) -> i64 {
        season_year(&LEAGUES[league], self.as_of)
    }

    pub fn teams_of(&self, league: usize) -> impl Iterator<Item = &TeamRow> {
        self.teams.iter().filter(move |t| t.league == league)
    }

    pub fn league_info(&self, league: usize, include_teams: bool) -> LeagueInfo {
        let def = &LEAGUES[league];
        let year = self.season_year(league);
        let (start, end) = season_span(def, year);
        LeagueInfo {
            id: self.names.wire(def.id).to_owned(),
            name: Some(def.name.to_owned()),
            abbreviation: Some(def.abbreviation.to_owned()),
            sport: Some(def.sport.to_owned()),
            season: Some(Season {
                year: Some(year as f64),
                start_date: Some(time::date(start)),
                end_date: Some(time::date(end)),
            }),
            endpoints: Some(LeagueEndpoints {
                awards: Some(true),
                futures: Some(true),
                games: Some(true),
                list_games: Some(true),
                list_awards: Some(true),
                list_futures: Some(true),
            }),
            counts: Some(LeagueCounts {
                teams: Some(self.teams_of(league).count() as f64),
                awards: Some(self.awards.iter().filter(|a| a.league == league).count() as f64),
                futures: Some(self.futures.iter().filter(|f| f.league == league).count() as f64),
            }),
            status: Some(LeagueStatus::Operational),
            teams: include_teams.then(|| self.teams_of(league).map(|t| t.model.clone()).collect()),
        }
    }

    /// A game by id: `{Away}v{Home}{YYYYMMDD}@{LEAGUE}`, or the same
    /// without `@{LEAGUE}` (then the first league, in label order, with such
    /// a game). The suffix may be the abbreviation or the label, any case.
    pub fn game(&self, id: &GameId) -> Option<&GameRow> {
        let league = match &id.league {
            Some(suffix) => Some(LEAGUES.iter().position(|l| {
                l.abbreviation.eq_ignore_ascii_case(suffix)
                    || self.names.wire(l.id).eq_ignore_ascii_case(suffix)
            })?),
            None => None,
        };
        let wanted = id.without_league();
        self.games.iter().find(|g| {
            league.is_none_or(|l| g.league == l)
                && GameId::parse(&g.model.id).is_ok_and(|own| own.without_league() == wanted)
        })
    }

    /// The markets of every platform on a game, as the public service
    /// (2.0.0) sends them: one entry per platform event, holding that
    /// platform's moneyline, spread and total outcomes, each outcome saying
    /// its kind and line in `metadata` and carrying its price, volume,
    /// liquidity, status and order book. Prices of each platform are
    /// derived from the game's own probabilities with the platform's
    /// margin and noise.
    pub fn game_markets(&self, game: &GameRow, platforms: &[&str]) -> Vec<GameMarket> {
        let def = &LEAGUES[game.league];
        let away = &self.teams[game.away];
        let home = &self.teams[game.home];
        // Home advantage a little above even.
        let p_home = (home.strength * 1.15) / (home.strength * 1.15 + away.strength);
        let finished = game.at + 4 * 3_600 < self.as_of;
        let status = if finished {
            MarketStatus::Resolved
        } else if game.at <= self.as_of {
            MarketStatus::Closed
        } else {
            MarketStatus::Open
        };
        let spread_line = {
            let raw = (p_home - 0.5) * def.total_points * 0.35;
            (raw / def.spread_unit).round() * def.spread_unit + 0.5 * raw.signum()
        };
        let total_line = {
            let mut rng = Rng::of(self.seed, &game.model.id, 7);
            (def.total_points * rng.between(0.92, 1.08) * 2.0).round() / 2.0
        };
        let synced = self.as_of - 120;
        let mut out = Vec::new();
        for platform in platforms {
            let p_index = SPORTS.iter().position(|p| p == platform).unwrap_or(0);
            let mut rng = Rng::of(self.seed, &game.model.id, 100 + p_index as u64);
            let margin = platform_margin(p_index);
            let noisy = |p: f64, rng: &mut Rng| {
                round(
                    (p * (1.0 + margin / 2.0) * rng.between(0.97, 1.03)).clamp(0.02, 0.98),
                    3,
                )
            };
            let event_id = sports_market_id(platform, &game.model.id, "GAME");
            let volume = round(rng.log_normal(40_000.0, 1.0), 2);
            let sides: [Side<'_>; 6] = [
                (
                    GameMarketType::Moneyline,
                    "ML-A",
                    away_name(away),
                    Some(away),
                    noisy(1.0 - p_home, &mut rng),
                    None,
                ),
                (
                    GameMarketType::Moneyline,
                    "ML-H",
                    away_name(home),
                    Some(home),
                    noisy(p_home, &mut rng),
                    None,
                ),
                (
                    GameMarketType::Spread,
                    "SPR-A",
                    format!("{} {:+}", away_name(away), spread_line),
                    Some(away),
                    noisy(0.5, &mut rng),
                    Some(spread_line),
                ),
                (
                    GameMarketType::Spread,
                    "SPR-H",
                    format!("{} {:+}", away_name(home), -spread_line),
                    Some(home),
                    noisy(0.5, &mut rng),
                    Some(-spread_line),
                ),
                (
                    GameMarketType::Total,
                    "TOT-O",
                    format!("Over {total_line}"),
                    None,
                    noisy(0.5, &mut rng),
                    Some(total_line),
                ),
                (
                    GameMarketType::Total,
                    "TOT-U",
                    format!("Under {total_line}"),
                    None,
                    noisy(0.5, &mut rng),
                    Some(total_line),
                ),
            ];
            let outcomes = sides
                .into_iter()
                .map(|(kind, code, name, team, price, line)| {
                    let outcome_volume = round(volume * rng.between(0.05, 0.25), 2);
                    let liquidity = round(outcome_volume * rng.between(0.2, 0.8), 2);
                    let book_side = |price: f64, rng: &mut Rng| {
                        let mut levels = Vec::with_capacity(4);
                        for step in 1..=2 {
                            let tick = 0.01 * f64::from(step);
                            for (side, at) in [("bid", price - tick), ("ask", price + tick)] {
                                if at > 0.0 && at < 1.0 {
                                    levels.push(BookLevel {
                                        price: Some(round(at, 3)),
                                        qty: Some(round(rng.log_normal(400.0, 0.6), 0)),
                                        status: Some("open".to_owned()),
                                        side: Some(side.to_owned()),
                                        timestamp: Some(iso8601(synced)),
                                        ..BookLevel::default()
                                    });
                                }
                            }
                        }
                        levels
                    };
                    let yes = book_side(price, &mut rng);
                    let no = book_side(round(1.0 - price, 3), &mut rng);
                    GameOutcome {
                        outcome_id: Some(sports_market_id(platform, &game.model.id, code)),
                        platform_id: Some(format!("{event_id}-{code}")),
                        name: Some(name),
                        team_service_id: team.map(|t| t.model.service_id.clone()),
                        price: Some(price),
                        volume: Some(outcome_volume),
                        liquidity: Some(liquidity),
                        status: Some(status.clone()),
                        order_book: (status == MarketStatus::Open).then(|| OutcomeBook {
                            yes: Some(yes),
                            no: Some(no),
                            ..OutcomeBook::default()
                        }),
                        metadata: Some(GameOutcomeMetadata {
                            market_type: Some(kind),
                            line,
                            ..GameOutcomeMetadata::default()
                        }),
                        ..GameOutcome::default()
                    }
                })
                .collect();
            out.push(GameMarket {
                platform: Some(PlatformId::from(self.names.wire(platform))),
                event_id: Some(event_id.clone()),
                event_name: Some(game_title(away, home)),
                event_slug: Some(text::slugify(&format!(
                    "{} {}",
                    game_title(away, home),
                    event_id
                ))),
                outcomes: Some(outcomes),
                metadata: Some(GameMarketMetadata {
                    volume: Some(volume),
                    volume_24h: Some(round(volume * rng.between(0.1, 0.4), 2)),
                    market_count: Some(3.0),
                    ..GameMarketMetadata::default()
                }),
                ..GameMarket::default()
            });
        }
        out
    }

    /// The market of each of `platforms` on the future or award `id`, whose
    /// outcomes have the true probabilities `truth`: `market` builds it from
    /// the platform's wire id, its market id, its price of each outcome (in
    /// order) and a generator for the rest of the quote.
    #[allow(clippy::too_many_arguments)]
    fn quoted<M>(
        &self,
        id: &str,
        kind: &str,
        truth: &[f64],
        arbitrage: bool,
        salt: u64,
        platforms: &[&str],
        mut market: impl FnMut(PlatformId, String, Vec<f64>, &mut Rng) -> M,
    ) -> Vec<M> {
        platforms
            .iter()
            .map(|platform| {
                let p_index = SPORTS.iter().position(|p| p == platform).unwrap_or(0);
                let prices = self.priced(id, p_index, truth, arbitrage);
                let mut rng = Rng::of(self.seed, id, salt + p_index as u64);
                market(
                    PlatformId::from(self.names.wire(platform)),
                    sports_market_id(platform, id, kind),
                    prices,
                    &mut rng,
                )
            })
            .collect()
    }

    /// A future with the markets of `platforms`, odds in `format`.
    pub fn future_model(
        &self,
        row: &FutureRow,
        platforms: &[&str],
        format: Option<&OddsFormat>,
    ) -> Future {
        let mut future = row.model.clone();
        let id = &row.model.id;
        let markets = self.quoted(
            id,
            "FUT",
            &row.probabilities,
            row.arbitrage,
            200,
            platforms,
            |platform, market_id, prices, rng| FutureMarket {
                platform: Some(platform),
                market_id: Some(market_id),
                outcomes: Some(
                    row.teams
                        .iter()
                        .zip(prices)
                        .map(|(&t, price)| {
                            let team = &self.teams[t];
                            FutureOutcome {
                                outcome_name: Some(team.model.name.clone().unwrap_or_default()),
                                odds: Some(odds::odds(price, format)),
                                team_service_id: Some(team.model.service_id.clone()),
                                volume_24h: Some(round(
                                    rng.log_normal(5_000.0, 1.2) * price.sqrt(),
                                    2,
                                )),
                                last_trade_price: Some(round(price, 3)),
                                metadata: Some(BTreeMap::from([(
                                    "abbreviation".to_owned(),
                                    Value::from(team.code.clone()),
                                )])),
                                ..Default::default()
                            }
                        })
                        .collect(),
                ),
                ..Default::default()
            },
        );
        future.markets = Some(markets);
        future
    }

    /// An award with the markets of `platforms`, odds in `format`.
    pub fn award_model(
        &self,
        row: &AwardRow,
        platforms: &[&str],
        format: Option<&OddsFormat>,
    ) -> Award {
        let mut award = row.model.clone();
        let truth: Vec<f64> = row.candidates.iter().map(|c| c.3).collect();
        let markets = self.quoted(
            &row.model.id,
            "AWD",
            &truth,
            false,
            300,
            platforms,
            |platform, market_id, prices, rng| AwardMarket {
                platform: Some(platform),
                market_id: Some(market_id),
                candidates: Some(
                    row.candidates
                        .iter()
                        .zip(prices)
                        .map(|((name, team, position, _), price)| Candidate {
                            player_name: Some(name.clone()),
                            odds: Some(odds::odds(price, format)),
                            team_service_id: Some(self.teams[*team].model.service_id.clone()),
                            volume_24h: Some(round(rng.log_normal(3_000.0, 1.2) * price.sqrt(), 2)),
                            last_trade_price: Some(round(price, 3)),
                            metadata: Some(BTreeMap::from([(
                                "position".to_owned(),
                                Value::from(*position),
                            )])),
                            ..Default::default()
                        })
                        .collect(),
                ),
                ..Default::default()
            },
        );
        award.markets = Some(markets);
        award
    }

    /// What platform `p_index` charges for each outcome of true
    /// probabilities `truth`: the truth with the platform's margin and a
    /// little noise. With `arbitrage`, each platform undercuts the others
    /// on a share of the outcomes, so the best prices sum below 1.
    fn priced(&self, id: &str, p_index: usize, truth: &[f64], arbitrage: bool) -> Vec<f64> {
        let mut rng = Rng::of(self.seed, id, 400 + p_index as u64);
        let margin = platform_margin(p_index);
        truth
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let factor = if arbitrage && i % SPORTS.len() == p_index {
                    0.9
                } else {
                    (1.0 + margin) * rng.between(0.98, 1.02)
                };
                (p * factor).clamp(0.002, 0.98)
            })
            .collect()
    }
}

/// Each platform's overround (the sum of its prices above 1).
/// One side of a game market: its kind, its outcome code, name, team,
/// price and line.
type Side<'a> = (
    GameMarketType,
    &'static str,
    String,
    Option<&'a TeamRow>,
    f64,
    Option<f64>,
);

fn platform_margin(p_index: usize) -> f64 {
    [0.04, 0.06, 0.05, 0.08, 0.07][p_index % 5]
}

fn away_name(team: &TeamRow) -> String {
    team.model.name.clone().unwrap_or_else(|| team.code.clone())
}

fn game_title(away: &TeamRow, home: &TeamRow) -> String {
    format!("{} at {}", away_name(away), away_name(home))
}

/// A sports market id in the style of each platform.
fn sports_market_id(platform: &str, subject: &str, kind: &str) -> String {
    let clean: String = subject
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect::<String>()
        .to_ascii_uppercase();
    match platform {
        "platform_a" => format!("{}", 700_000 + fnv(&format!("{clean}{kind}")) % 299_999),
        "platform_b" => format!("KXSPORTS-{clean}-{kind}"),
        "platform_f" => format!(
            "f-{}-{}",
            clean.to_ascii_lowercase(),
            kind.to_ascii_lowercase()
        ),
        "platform_g" => format!("G{}{kind}", fnv(&clean) % 9_999_999),
        _ => format!("h_{:016x}", fnv(&format!("{clean}{kind}"))),
    }
}

fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

fn season_year(def: &LeagueDef, as_of: i64) -> i64 {
    let (y, m, _) = time::civil_from_days(as_of.div_euclid(DAY));
    let end_month = def.season_start_month + def.season_months - 1;
    if m >= def.season_start_month {
        y
    } else if m + 12 <= end_month {
        // A season that started last calendar year is still running.
        y - 1
    } else {
        // Off-season: the coming season is the one with markets.
        y
    }
}

fn season_span(def: &LeagueDef, year: i64) -> (i64, i64) {
    let start = time::days_from_civil(year, def.season_start_month, 5) * DAY;
    let end_total = def.season_start_month + def.season_months - 1;
    let (end_year, end_month) = (
        year + i64::from((end_total - 1) / 12),
        (end_total - 1) % 12 + 1,
    );
    let end = time::days_from_civil(end_year, end_month, 25) * DAY;
    (start, end)
}

pub fn generate(options: &Options) -> Sports {
    let mut sports = Sports {
        teams: Vec::new(),
        games: Vec::new(),
        futures: Vec::new(),
        awards: Vec::new(),
        seed: options.seed,
        as_of: options.as_of,
        names: options.names,
    };
    for (league, def) in LEAGUES.iter().enumerate() {
        teams(options, &mut sports, league, def);
        games(options, &mut sports, league, def);
        futures(options, &mut sports, league, def);
        awards(options, &mut sports, league, def);
    }
    sports
}

fn teams(options: &Options, sports: &mut Sports, league: usize, def: &LeagueDef) {
    let mut rng = Rng::of(options.seed, def.id, 0);
    let mut cities: Vec<usize> = (0..CITIES.len()).collect();
    // Fisher-Yates with our generator: each league its own set of cities.
    for i in (1..cities.len()).rev() {
        let j = rng.range(0, i as u64 + 1) as usize;
        cities.swap(i, j);
    }
    let per_conference = def.teams / 2;
    for i in 0..def.teams {
        let (city, state, code) = CITIES[cities[i]];
        let mascot = def.mascots[i % def.mascots.len()];
        let conference = i / per_conference;
        let divisions = def.conferences[conference.min(1)].2;
        let division = (i % per_conference) * divisions.len() / per_conference;
        let service_id = format!(
            "{}_{}",
            options.names.wire(def.id),
            code.to_ascii_lowercase()
        );
        let mut name = format!("{city} {mascot}");
        if options.hostile {
            name = text::hostile(&name, i as u64);
        }
        let platform_ids = BTreeMap::from([
            (
                options.names.wire("platform_a").to_owned(),
                format!("{}-{}", code.to_ascii_lowercase(), text::slugify(mascot)),
            ),
            (options.names.wire("platform_b").to_owned(), code.to_owned()),
            (
                options.names.wire("platform_f").to_owned(),
                format!("{}", 1_000 + league * 100 + i),
            ),
            (
                options.names.wire("platform_g").to_owned(),
                format!(
                    "{}-{}",
                    def.abbreviation.to_ascii_lowercase(),
                    code.to_ascii_lowercase()
                ),
            ),
            (
                options.names.wire("platform_h").to_owned(),
                format!("{:012x}", fnv(&service_id) >> 16),
            ),
        ]);
        let colors = vec![format!("#{}", rng.hex(6)), format!("#{}", rng.hex(6))];
        sports.teams.push(TeamRow {
            league,
            code: code.to_owned(),
            strength: rng.log_normal(1.0, 0.45),
            conference: conference.min(1),
            division,
            model: Team {
                service_id: service_id.clone(),
                name: Some(name),
                abbreviation: Some(code.to_owned()),
                city: Some(city.to_owned()),
                state: Some(state.to_owned()),
                conference: Some(def.conferences[conference.min(1)].1.to_owned()),
                division: Some(divisions[division.min(divisions.len() - 1)].to_owned()),
                platform_ids: Some(platform_ids),
                metadata: Some(TeamMetadata {
                    logo_url: Some(format!("https://logos.example/{service_id}.svg")),
                    colors: Some(colors),
                    founded: Some(rng.range(1890, 2005) as f64),
                    stadium: Some(format!("{city} {} {}", mascot, def.venue)),
                }),
            },
        });
    }
}

fn games(options: &Options, sports: &mut Sports, league: usize, def: &LeagueDef) {
    let first_team = sports
        .teams
        .iter()
        .position(|t| t.league == league)
        .unwrap_or(0);
    let n_teams = def.teams;
    let first_day = options.as_of.div_euclid(DAY) - 7;
    for day in first_day..first_day + 21 {
        // 1970-01-01 was a Thursday: (day + 3) % 7 is 0 on Mondays.
        if !def.game_days.contains(&((day + 3).rem_euclid(7))) {
            continue;
        }
        let mut rng = Rng::of(options.seed, def.id, 1_000 + day as u64);
        let mut order: Vec<usize> = (0..n_teams).collect();
        for i in (1..order.len()).rev() {
            let j = rng.range(0, i as u64 + 1) as usize;
            order.swap(i, j);
        }
        let count = def.games_per_day.min(n_teams / 2);
        let mut today = Vec::with_capacity(count);
        for k in 0..count {
            let away = first_team + order[2 * k];
            let home = first_team + order[2 * k + 1];
            // Evening local time in North America: 23:00 to 03:00 UTC.
            let at = day * DAY + 23 * 3_600 + rng.range(0, 9) as i64 * 1_800;
            today.push((at, away, home));
        }
        today.sort();
        for (at, away, home) in today {
            let model = game_model(options, sports, def, league, away, home, at, &mut rng);
            sports.games.push(GameRow {
                league,
                away,
                home,
                at,
                model,
            });
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn game_model(
    options: &Options,
    sports: &Sports,
    def: &LeagueDef,
    league: usize,
    away: usize,
    home: usize,
    at: i64,
    rng: &mut Rng,
) -> Game {
    let a = &sports.teams[away];
    let h = &sports.teams[home];
    let id = format!(
        "{}v{}{}@{}",
        a.code,
        h.code,
        // The local (North American) date of the game, as game ids carry it.
        time::compact_date(at - 8 * 3_600),
        def.abbreviation
    );
    let status = if at + 4 * 3_600 < options.as_of {
        GameStatus::Final
    } else if at <= options.as_of {
        GameStatus::InProgress
    } else {
        GameStatus::NotStarted
    };
    let mut metadata = BTreeMap::from([
        ("away_team_id".to_owned(), json!(a.model.service_id)),
        ("home_team_id".to_owned(), json!(h.model.service_id)),
        (
            "venue".to_owned(),
            json!(h.model.metadata.as_ref().and_then(|m| m.stadium.clone())),
        ),
    ]);
    if status != GameStatus::NotStarted {
        let base = def.total_points / 2.0;
        let score = |rng: &mut Rng| (base * rng.between(0.6, 1.4)).round() as i64;
        metadata.insert("away_score".into(), json!(score(rng)));
        metadata.insert("home_score".into(), json!(score(rng)));
    }
    let title = game_title(a, h);
    Game {
        id,
        title: Some(title.clone()),
        sport: Some(def.sport.to_owned()),
        league: Some(League::from(options.names.wire(def.id))),
        description: Some(format!("{title}, {} regular season.", def.abbreviation)),
        category: Some("Sports".to_owned()),
        image_url: Some(format!(
            "https://img.sports.example/{}/{}-{}.png",
            options.names.wire(def.id),
            a.code.to_ascii_lowercase(),
            h.code.to_ascii_lowercase()
        )),
        teams: Some(vec![away_name(a), away_name(h)]),
        scheduled_at: Some(iso8601(at)),
        status: Some(status),
        tags: Some(
            vec![
                def.sport.to_owned(),
                def.abbreviation.to_owned(),
                league.to_string(),
            ]
            .into_iter()
            .take(2)
            .collect(),
        ),
        metadata: Some(metadata),
        ..Default::default()
    }
}

fn normalized(strengths: &[f64], sharpness: f64) -> Vec<f64> {
    let powered: Vec<f64> = strengths.iter().map(|s| s.powf(sharpness)).collect();
    let sum: f64 = powered.iter().sum::<f64>().max(1e-9);
    powered.iter().map(|p| p / sum).collect()
}

fn futures(options: &Options, sports: &mut Sports, league: usize, def: &LeagueDef) {
    let year = season_year(def, options.as_of);
    let (_, end) = season_span(def, year);
    let league_teams: Vec<usize> = (0..sports.teams.len())
        .filter(|&t| sports.teams[t].league == league)
        .collect();
    let mut groups: Vec<(String, String, &'static str, Vec<usize>)> = vec![(
        "championship".to_owned(),
        format!("{} Champion {year}", def.abbreviation),
        "championship",
        league_teams.clone(),
    )];
    for (c, (code, name, divisions)) in def.conferences.iter().enumerate() {
        groups.push((
            format!("{code}_champion"),
            format!("{name} Champion {year}"),
            "conference",
            league_teams
                .iter()
                .copied()
                .filter(|&t| sports.teams[t].conference == c)
                .collect(),
        ));
        for (d, division) in divisions.iter().enumerate() {
            groups.push((
                format!("{code}_{}_division", division.to_ascii_lowercase()),
                format!("{name} {division} Division Winner {year}"),
                "division",
                league_teams
                    .iter()
                    .copied()
                    .filter(|&t| sports.teams[t].conference == c && sports.teams[t].division == d)
                    .collect(),
            ));
        }
    }
    let mut first_division = true;
    for (name, title, future_type, teams) in groups {
        if teams.is_empty() {
            continue;
        }
        let strengths: Vec<f64> = teams.iter().map(|&t| sports.teams[t].strength).collect();
        let probabilities = normalized(&strengths, 2.0);
        let arbitrage = league == 1 && future_type == "division" && first_division;
        if future_type == "division" {
            first_division = false;
        }
        let id = format!("{}_{name}_{year}", options.names.wire(def.id));
        let eligible: Vec<String> = teams
            .iter()
            .map(|&t| sports.teams[t].model.service_id.clone())
            .collect();
        let model = Future {
            id,
            future_name: Some(title.clone()),
            league: Some(League::from(options.names.wire(def.id))),
            future_type: Some(FutureType::from(future_type)),
            category: Some(FutureCategory::Team),
            season: Some(year as f64),
            markets: None,
            metadata: Some(FutureMetadata {
                deadline: Some(iso8601(end)),
                description: Some(format!("Which team wins: {title}.")),
                eligible_teams: Some(eligible),
                ..Default::default()
            }),
            ..Default::default()
        };
        sports.futures.push(FutureRow {
            league,
            future_type,
            season: year,
            teams,
            probabilities,
            arbitrage,
            model,
        });
    }
}

fn awards(options: &Options, sports: &mut Sports, league: usize, def: &LeagueDef) {
    let year = season_year(def, options.as_of);
    let (_, end) = season_span(def, year);
    let league_teams: Vec<usize> = (0..sports.teams.len())
        .filter(|&t| sports.teams[t].league == league)
        .collect();
    for (k, (award_type, award_title)) in def.awards.iter().enumerate() {
        let mut rng = Rng::of(options.seed, def.id, 5_000 + k as u64);
        let n = rng.range(10, 17) as usize;
        let coach = *award_type == "coach_of_the_year";
        let mut candidates = Vec::with_capacity(n);
        let mut strengths = Vec::with_capacity(n);
        for i in 0..n {
            let mut name = text::person(&mut rng);
            if options.hostile {
                name = text::hostile(&name, i as u64);
            }
            let team = *rng.pick(&league_teams);
            let position = if coach {
                "Head coach"
            } else {
                *rng.pick(def.positions)
            };
            strengths.push(rng.log_normal(1.0, 0.8));
            candidates.push((name, team, position, 0.0));
        }
        let probabilities = normalized(&strengths, 1.5);
        for (c, p) in candidates.iter_mut().zip(&probabilities) {
            c.3 = *p;
        }
        let model = Award {
            id: format!("{}_{award_type}_{year}", options.names.wire(def.id)),
            award_name: Some(format!("{} {award_title} {year}", def.abbreviation)),
            league: Some(League::from(options.names.wire(def.id))),
            award_type: Some(AwardType::from(*award_type)),
            season: Some(year as f64),
            markets: None,
            metadata: Some(AwardMetadata {
                deadline: Some(iso8601(end)),
                description: Some(format!(
                    "Who wins the {} {award_title} award for the {year} season.",
                    def.abbreviation
                )),
                eligibility: Some(if coach {
                    "Head coaches of the league's teams".to_owned()
                } else {
                    format!("Players on a {} roster during the season", def.abbreviation)
                }),
                ..Default::default()
            }),
            ..Default::default()
        };
        sports.awards.push(AwardRow {
            league,
            award_type,
            season: year,
            candidates,
            model,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sports() -> Sports {
        generate(&Options {
            seed: 1,
            scale: 1.0,
            hostile: false,
            names: Default::default(),
            as_of: time::parse_date("2025-11-02").unwrap_or(0),
        })
    }

    #[test]
    fn leagues_have_teams_games_futures_awards() {
        let s = sports();
        for (i, def) in LEAGUES.iter().enumerate() {
            assert_eq!(s.teams_of(i).count(), def.teams);
            assert!(s.games.iter().any(|g| g.league == i), "{}", def.id);
            assert!(s.futures.iter().filter(|f| f.league == i).count() >= 3);
            assert!(s.awards.iter().any(|a| a.league == i));
        }
        let ids: std::collections::HashSet<&str> =
            s.games.iter().map(|g| g.model.id.as_str()).collect();
        assert_eq!(ids.len(), s.games.len(), "game ids are unique");
    }

    #[test]
    fn games_are_found_with_and_without_suffix() {
        let s = sports();
        let game = &s.games[3];
        let find = |id: &str| {
            s.game(&GameId::parse(id).unwrap())
                .map(|g| g.model.id.clone())
        };
        assert_eq!(find(&game.model.id), Some(game.model.id.clone()));
        let (base, _) = game.model.id.split_once('@').unwrap();
        assert!(find(base).is_some());
        assert!(find(&format!("{base}@{}", LEAGUES[game.league].id)).is_some());
        assert!(find("XXvYY20250101@NFL").is_none());
    }

    #[test]
    fn exactly_the_designated_future_has_an_arbitrage() {
        let s = sports();
        let best_sum = |row: &FutureRow| {
            let future = s.future_model(row, &SPORTS, None);
            let markets = future.markets.unwrap_or_default();
            (0..row.teams.len())
                .map(|i| {
                    markets
                        .iter()
                        .filter_map(|m| m.outcomes.as_ref()?[i].odds.as_ref()?.implied_probability)
                        .fold(f64::INFINITY, f64::min)
                })
                .sum::<f64>()
        };
        for row in &s.futures {
            let sum = best_sum(row);
            if row.arbitrage {
                assert!(sum < 0.97, "{}: {sum}", row.model.id);
            } else {
                assert!(sum > 1.0, "{}: {sum}", row.model.id);
            }
        }
        assert_eq!(s.futures.iter().filter(|f| f.arbitrage).count(), 1);
    }
}
