//! What markets are about: a series is one theme (a recurring question),
//! each of its events one instance of it (a date, a meeting, a release),
//! and each market of an event one outcome asked as a yes/no question.

use super::rng::Rng;
use super::text::{self, COINS, COMPANIES, COUNTRIES, MONTHS, MOVIES, OFFICES, PRODUCTS, SONGS};
use super::time;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Fed,
    Crypto,
    Cpi,
    Election,
    BoxOffice,
    Weather,
    Launch,
    Earnings,
    Charts,
    Approval,
}

pub const KINDS: [Kind; 10] = [
    Kind::Fed,
    Kind::Crypto,
    Kind::Cpi,
    Kind::Election,
    Kind::BoxOffice,
    Kind::Weather,
    Kind::Launch,
    Kind::Earnings,
    Kind::Charts,
    Kind::Approval,
];

/// The text of a series.
#[derive(Debug, Clone)]
pub struct SeriesText {
    pub title: String,
    /// Upper-case code for tickers (`FED`, `BTC`).
    pub code: String,
    pub description: String,
    pub category: &'static str,
    pub subcategory: &'static str,
    pub tags: Vec<String>,
    /// Days between two events of the series.
    pub cadence_days: i64,
    /// Parameters fixed for the whole series (a coin, a city, a company).
    pub subject: usize,
}

/// The text of one event and the questions of its markets.
#[derive(Debug, Clone)]
pub struct EventText {
    pub title: String,
    pub code: String,
    pub description: String,
    pub resolution_source: &'static str,
    pub markets: Vec<MarketText>,
}

#[derive(Debug, Clone)]
pub struct MarketText {
    pub title: String,
    /// Upper-case suffix for tickers (`T95000`, `C25`).
    pub code: String,
    pub criteria: String,
}

pub fn series(kind: Kind, rng: &mut Rng) -> SeriesText {
    let subject;
    let (title, code, description, category, subcategory, tags, cadence_days): (
        String,
        String,
        String,
        &'static str,
        &'static str,
        Vec<&str>,
        i64,
    ) = match kind {
        Kind::Fed => {
            subject = 0;
            (
                "Fed interest rate decisions".into(),
                "FED".into(),
                "The target range set at each meeting of the central bank's rate committee.".into(),
                "Economics",
                "Central banks",
                vec!["economics", "fed", "rates"],
                42,
            )
        }
        Kind::Crypto => {
            subject = rng.range(0, COINS.len() as u64) as usize;
            let (name, sym, _) = COINS[subject];
            (
                format!("{name} daily close"),
                sym.into(),
                format!("Where {name} ({sym}) closes each day, in US dollars."),
                "Crypto",
                "Prices",
                vec!["crypto", "prices"],
                1,
            )
        }
        Kind::Cpi => {
            subject = 0;
            (
                "US inflation (CPI)".into(),
                "CPI".into(),
                "Year-over-year change of the consumer price index, as first published.".into(),
                "Economics",
                "Inflation",
                vec!["economics", "inflation", "cpi"],
                30,
            )
        }
        Kind::Election => {
            subject = rng.range(0, COUNTRIES.len() as u64) as usize;
            let country = COUNTRIES[subject];
            (
                format!("{country} elections"),
                format!("EL{}", country[..2].to_ascii_uppercase()),
                format!("Winners of national and local elections in {country}."),
                "Politics",
                "Elections",
                vec!["politics", "elections", "world"],
                120,
            )
        }
        Kind::BoxOffice => {
            subject = 0;
            (
                "Opening weekend box office".into(),
                "BOX".into(),
                "Domestic opening-weekend gross of wide releases, per the studio's estimate."
                    .into(),
                "Culture",
                "Movies",
                vec!["culture", "movies", "box-office"],
                7,
            )
        }
        Kind::Weather => {
            subject = rng.range(0, text::CITIES.len() as u64) as usize;
            let city = text::CITIES[subject];
            (
                format!("Highest temperature in {city}"),
                format!("HIGH{}", city.replace(' ', "")[..3].to_ascii_uppercase()),
                format!("The daily high recorded at {city}'s main weather station."),
                "Weather",
                "Temperature",
                vec!["weather", "climate"],
                1,
            )
        }
        Kind::Launch => {
            subject = rng.range(0, COMPANIES.len() as u64) as usize;
            let company = COMPANIES[subject];
            (
                format!("{company} product launches"),
                format!(
                    "LAUNCH{}",
                    company.replace(' ', "")[..3].to_ascii_uppercase()
                ),
                format!("Whether {company} ships what it announced, by the stated date."),
                "Tech",
                "Products",
                vec!["tech", "companies"],
                90,
            )
        }
        Kind::Earnings => {
            subject = rng.range(0, COMPANIES.len() as u64) as usize;
            let company = COMPANIES[subject];
            (
                format!("{company} quarterly earnings"),
                format!("EPS{}", company.replace(' ', "")[..3].to_ascii_uppercase()),
                format!("Reported earnings per share of {company}, quarter by quarter."),
                "Business",
                "Earnings",
                vec!["business", "earnings", "stocks"],
                91,
            )
        }
        Kind::Charts => {
            subject = 0;
            (
                "Weekly music chart".into(),
                "CHART".into(),
                "Which song tops the weekly singles chart.".into(),
                "Culture",
                "Music",
                vec!["culture", "music"],
                7,
            )
        }
        Kind::Approval => {
            subject = 0;
            (
                "Presidential approval rating".into(),
                "APPR".into(),
                "The approval rating in the polling average, on the given day.".into(),
                "Politics",
                "Polls",
                vec!["politics", "polls"],
                14,
            )
        }
    };
    SeriesText {
        title,
        code,
        description,
        category,
        subcategory,
        tags: tags.into_iter().map(str::to_owned).collect(),
        cadence_days,
        subject,
    }
}

/// Event `n` of a series, dated `at` (Unix seconds), with up to `markets`
/// questions (at least one).
pub fn event(kind: Kind, series: &SeriesText, at: i64, markets: usize, rng: &mut Rng) -> EventText {
    let day = time::date(at);
    let (y, m, d) = time::civil_from_days(at.div_euclid(86_400));
    let month = MONTHS[(m - 1) as usize];
    let short = format!("{}{}{:02}", y % 100, &month[..3].to_ascii_uppercase(), d);
    let markets = markets.max(1);
    let mut out = Vec::with_capacity(markets);
    let (title, code, description, source) = match kind {
        Kind::Fed => {
            let options = [
                ("Cut 50 bps or more", "C50"),
                ("Cut 25 bps", "C25"),
                ("No change", "H0"),
                ("Hike 25 bps", "H25"),
                ("Hike 50 bps or more", "H50"),
            ];
            for (label, code) in options.iter().take(markets) {
                out.push(MarketText {
                    title: format!("Fed decision in {month} {y}: {label}?"),
                    code: (*code).into(),
                    criteria: format!(
                        "Resolves Yes if the committee's statement of the {month} {y} meeting announces: {label}."
                    ),
                });
            }
            (
                format!("Fed decision in {month} {y}"),
                format!("{y}{}", &month[..3].to_ascii_uppercase()),
                format!("The rate decision of the meeting ending {day}."),
                "Central bank statement",
            )
        }
        Kind::Crypto => {
            let (name, sym, base) = COINS[series.subject];
            let center = base * rng.between(0.85, 1.15);
            let step = nice_step(center / 40.0);
            let first = ((center / step).round() - (markets as f64 / 2.0).floor()) * step;
            for i in 0..markets {
                let strike = first + step * i as f64;
                let shown = if strike >= 100.0 {
                    format!("${}", group_thousands(strike.round() as u64))
                } else {
                    format!("${strike:.2}")
                };
                out.push(MarketText {
                    title: format!("{name} above {shown} on {month} {d}?"),
                    code: format!("T{}", format!("{strike:.2}").trim_end_matches(".00")),
                    criteria: format!(
                        "Resolves Yes if the {sym}/USD close at 00:00 UTC on {day} is above {shown}."
                    ),
                });
            }
            (
                format!("{name} price on {month} {d}, {y}"),
                short.clone(),
                format!("Where {sym} closes on {day}."),
                "Exchange reference rate",
            )
        }
        Kind::Cpi => {
            let center = rng.between(2.2, 3.6);
            for i in 0..markets {
                let x = ((center * 10.0).round() + i as f64 - (markets / 2) as f64) / 10.0;
                out.push(MarketText {
                    title: format!("CPI above {x:.1}% for {month} {y}?"),
                    code: format!("T{x:.1}"),
                    criteria: format!(
                        "Resolves Yes if year-over-year CPI for {month} {y}, as first published, is above {x:.1}%."
                    ),
                });
            }
            (
                format!("Inflation for {month} {y}"),
                format!("{y}{}", &month[..3].to_ascii_uppercase()),
                format!("Year-over-year CPI for {month} {y}."),
                "Statistics bureau release",
            )
        }
        Kind::Election => {
            let country = COUNTRIES[series.subject];
            let office = rng.pick(OFFICES);
            for i in 0..markets {
                let who = text::person(rng);
                out.push(MarketText {
                    title: format!("Will {who} win the {y} {country} {office} election?"),
                    code: format!("C{}", i + 1),
                    criteria: format!(
                        "Resolves Yes if {who} is certified the winner of the {y} {office} election in {country}."
                    ),
                });
            }
            (
                format!("{country} {office} election {y}"),
                format!("{y}{}", &office[..3].to_ascii_uppercase()),
                format!("Who wins the {office} election in {country} held on {day}."),
                "Electoral commission",
            )
        }
        Kind::BoxOffice => {
            let movie = rng.pick(MOVIES);
            let center = rng.between(20.0, 140.0);
            let step = nice_step(center / 6.0);
            for i in 0..markets {
                let x = ((center / step).round() + i as f64 - (markets / 2) as f64).max(1.0) * step;
                out.push(MarketText {
                    title: format!("{movie} opening weekend above ${x:.0}M?"),
                    code: format!("T{x:.0}"),
                    criteria: format!(
                        "Resolves Yes if the domestic opening-weekend gross of {movie} is above ${x:.0} million."
                    ),
                });
            }
            (
                format!("{movie} opening weekend"),
                short.clone(),
                format!("Domestic opening weekend of {movie}, released {day}."),
                "Studio estimate",
            )
        }
        Kind::Weather => {
            let city = text::CITIES[series.subject];
            let center = 30.0 + 55.0 * ((m as f64 - 1.0) / 11.0 * std::f64::consts::PI).sin();
            for i in 0..markets {
                let x = center.round() + 2.0 * (i as f64 - (markets / 2) as f64);
                out.push(MarketText {
                    title: format!("{city} high above {x:.0}°F on {month} {d}?"),
                    code: format!("T{x:.0}"),
                    criteria: format!(
                        "Resolves Yes if the highest temperature recorded in {city} on {day} is above {x:.0}°F."
                    ),
                });
            }
            (
                format!("Highest temperature in {city} on {month} {d}"),
                short.clone(),
                format!("The daily high in {city} on {day}."),
                "National weather service",
            )
        }
        Kind::Launch => {
            let company = COMPANIES[series.subject];
            for i in 0..markets {
                let product = PRODUCTS[(series.subject + i * 3 + d as usize) % PRODUCTS.len()];
                out.push(MarketText {
                    title: format!("Will {company} release {product} before {month} {d}, {y}?"),
                    code: format!("P{}", i + 1),
                    criteria: format!(
                        "Resolves Yes if {company} makes {product} generally available before {day}."
                    ),
                });
            }
            (
                format!("{company} launches by {month} {y}"),
                format!("{y}{}", &month[..3].to_ascii_uppercase()),
                format!("What {company} ships before {day}."),
                "Company press release",
            )
        }
        Kind::Earnings => {
            let company = COMPANIES[series.subject];
            let quarter = (m - 1) / 3 + 1;
            let center = rng.between(0.4, 4.0);
            for i in 0..markets {
                let x = center + 0.1 * (i as f64 - (markets / 2) as f64);
                out.push(MarketText {
                    title: format!("{company} EPS above ${x:.2} in Q{quarter} {y}?"),
                    code: format!("T{x:.2}"),
                    criteria: format!(
                        "Resolves Yes if {company} reports diluted EPS above ${x:.2} for Q{quarter} {y}."
                    ),
                });
            }
            (
                format!("{company} Q{quarter} {y} earnings"),
                format!("{y}Q{quarter}"),
                format!("Earnings per share of {company} for Q{quarter} {y}, reported {day}."),
                "Company filing",
            )
        }
        Kind::Charts => {
            for i in 0..markets {
                let song = SONGS[(i + d as usize) % SONGS.len()];
                out.push(MarketText {
                    title: format!("Will \"{song}\" be #1 on the chart of {month} {d}?"),
                    code: format!("S{}", i + 1),
                    criteria: format!(
                        "Resolves Yes if \"{song}\" tops the weekly singles chart dated {day}."
                    ),
                });
            }
            (
                format!("Number one single, week of {month} {d}"),
                short.clone(),
                format!("The top single of the chart dated {day}."),
                "Chart publisher",
            )
        }
        Kind::Approval => {
            let center = rng.between(38.0, 52.0);
            for i in 0..markets {
                let x = center.round() + 0.5 * (i as f64 - (markets / 2) as f64);
                out.push(MarketText {
                    title: format!("Approval rating above {x:.1}% on {month} {d}?"),
                    code: format!("T{x:.1}"),
                    criteria: format!(
                        "Resolves Yes if the polling average shows approval above {x:.1}% on {day}."
                    ),
                });
            }
            (
                format!("Approval rating on {month} {d}, {y}"),
                short.clone(),
                format!("The approval rating in the polling average on {day}."),
                "Polling average",
            )
        }
    };
    EventText {
        title,
        code,
        description,
        resolution_source: source,
        markets: out,
    }
}

fn nice_step(x: f64) -> f64 {
    let p = 10f64.powf(x.max(1e-9).log10().floor());
    let m = x / p;
    let n = if m < 1.5 {
        1.0
    } else if m < 3.5 {
        2.5
    } else if m < 7.5 {
        5.0
    } else {
        10.0
    };
    n * p
}

fn group_thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_makes_questions() {
        let mut rng = Rng::new(1);
        for kind in KINDS {
            let s = series(kind, &mut rng);
            let e = event(kind, &s, 1_767_225_600, 4, &mut rng);
            assert!(!e.markets.is_empty(), "{kind:?}");
            assert!(e.markets.iter().all(|m| m.title.ends_with('?')), "{kind:?}");
            assert!(
                e.markets.iter().all(|m| m
                    .code
                    .bytes()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'.')),
                "{kind:?}: {:?}",
                e.markets
            );
        }
        assert_eq!(group_thousands(95000), "95,000");
    }
}
