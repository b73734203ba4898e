//! Cross-platform pairs with known answers, for measuring the core's
//! equivalence classifier on served data.
//!
//! Each group is one subject found nowhere else in the data (an invented
//! coin, country, company or town), asked on one of the standalone
//! platforms (the anchor) and, worded another platform's way, on a second
//! one (the counterpart): the same question, its inverse, a narrower one,
//! a look-alike that differs only by a date, a threshold or a name, or
//! none. The answers are kept in [`Label`]s beside the catalog, never in
//! the markets: the served JSON carries only what any market carries.
//! Since every subject is unique to its group, any two labelled markets of
//! different groups are different questions.

use super::catalog::{self, Catalog, MarketSpec, State};
use super::options::Options;
use super::prices::Quote;
use super::rng::Rng;
use super::text::MONTHS;
use super::time::civil_from_days;
use predmarket_core::equivalence::Relation;

const DAY: i64 = 86_400;

/// What a counterpart is, relative to its anchor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    Same,
    Inverted,
    /// The counterpart asks a narrower question.
    Narrower,
    /// The same wording but another date.
    LookalikeDate,
    /// The same wording but thresholds that neither match nor nest.
    LookalikeThreshold,
    /// The same wording about another person or company.
    LookalikeName,
    /// No counterpart.
    Alone,
}

/// The known answer of one group.
#[derive(Debug, Clone, PartialEq)]
pub struct Label {
    pub anchor: Box<str>,
    pub counterpart: Option<Box<str>>,
    pub variant: Variant,
    /// How the anchor relates to the counterpart.
    pub truth: Relation,
}

#[derive(Debug, Clone, Copy)]
enum Kind {
    Coin,
    Inflation,
    Weather,
    Election,
    Launch,
}

const KINDS: [Kind; 5] = [
    Kind::Coin,
    Kind::Inflation,
    Kind::Weather,
    Kind::Election,
    Kind::Launch,
];
const VARIANTS: [Variant; 6] = [
    Variant::Same,
    Variant::Inverted,
    Variant::Narrower,
    Variant::LookalikeDate,
    Variant::LookalikeThreshold,
    Variant::Alone,
];
/// Groups per (kind, variant).
const REPEATS: usize = 3;

// Invented subjects: none of them appears in the rest of the data.
const COIN_HEADS: &[&str] = &[
    "Quark", "Zephyr", "Nebula", "Photon", "Tessel", "Vortex", "Lumen", "Corvid",
];
const COIN_TAILS: &[&str] = &["coin", "cash", "chain"];
const COUNTRIES: &[&str] = &[
    "Freedonia",
    "Sylvania",
    "Latveria",
    "Genovia",
    "Elbonia",
    "Borduria",
    "Syldavia",
    "Ruritania",
    "Grand Fenwick",
    "Kyrzbekistan",
    "Zubrowka",
    "Markovia",
    "Carpania",
    "Vulgaria",
    "Pottsylvania",
    "Krakozhia",
    "Santa Prisca",
    "Qurac",
];
const TOWNS: &[&str] = &[
    "Port Aldren",
    "Westmarch",
    "Kettleby",
    "Ravenmoor",
    "Dunhollow",
    "Brightwater",
    "Oakshade",
    "Mirefield",
    "Stonebridge",
    "Ashcombe",
    "Thornbury",
    "Wrenfield",
    "Hollowmere",
    "Greywick",
    "Elmstead",
    "Farrowdale",
    "Marlow Cross",
    "Pellbrook",
];
const MAKERS: &[&str] = &[
    "Helix Motors",
    "Nimbus Aerospace",
    "Orchid Devices",
    "Quill Systems",
    "Basalt Labs",
    "Juniper Robotics",
    "Kestrel Audio",
    "Lantern Health",
    "Meridian Optics",
    "Nova Kitchens",
    "Onyx Mobility",
    "Prism Wearables",
    "Quasar Networks",
    "Rune Gaming",
    "Sable Energy",
    "Tidal Batteries",
    "Umber Drones",
    "Vellum Books",
    "Willow Textiles",
    "Xenon Displays",
];
const GOODS: &[&str] = &[
    "a smart ring",
    "a folding e-bike",
    "a home robot",
    "a solar roof tile",
    "a hearing aid",
];
const GIVEN: &[&str] = &[
    "Alinta", "Bram", "Cosima", "Dariel", "Esmé", "Fintan", "Galina", "Hollis", "Ilse", "Joaquim",
    "Kirra", "Leander",
];
const FAMILY: &[&str] = &[
    "Vantongeren",
    "Achterberg",
    "Moravcsik",
    "Ndiaye",
    "Quispe",
    "Rautio",
    "Szabó",
    "Tuilagi",
    "Ulloa",
    "Varga",
    "Wójcik",
    "Yilmaz",
];
const SOURCES: [&str; 2] = ["Official source", "Consensus of credible reporting"];

/// Appends the labelled groups' markets to `catalog` (standalone, on
/// platform_c, platform_d and platform_e) and returns their labels.
pub fn generate(options: &Options, catalog: &mut Catalog) -> Vec<Label> {
    let mut labels = Vec::new();
    let mut n = 0usize;
    for (k, kind) in KINDS.iter().enumerate() {
        for (v, variant) in VARIANTS.iter().enumerate() {
            for r in 0..REPEATS {
                let subject = v * REPEATS + r;
                let mut rng = Rng::of(options.seed, "venues", n as u64);
                let pair = questions(*kind, *variant, subject, options.as_of, &mut rng);
                // Anchor and counterpart on two different standalone platforms.
                let anchor_platform = 2 + ((n + k) % 3) as u8;
                let other_platform = 2 + ((n + k + 1 + r % 2) % 3) as u8;
                let anchor = push(options, catalog, anchor_platform, &pair.anchor, &mut rng);
                let counterpart = pair
                    .counterpart
                    .as_ref()
                    .map(|q| push(options, catalog, other_platform, q, &mut rng));
                labels.push(Label {
                    anchor,
                    counterpart,
                    variant: pair.variant,
                    truth: pair.truth,
                });
                n += 1;
            }
        }
    }
    labels
}

struct Question {
    category: &'static str,
    title: String,
    criteria: String,
    source: &'static str,
    end_at: i64,
    p: f64,
}

struct Pair {
    variant: Variant,
    anchor: Question,
    counterpart: Option<Question>,
    truth: Relation,
}

fn push(
    options: &Options,
    catalog: &mut Catalog,
    platform: u8,
    q: &Question,
    rng: &mut Rng,
) -> Box<str> {
    let id = loop {
        let id = match platform {
            2 => format!("0x{}", rng.hex(40)),
            3 => {
                let mut slug = super::text::slugify(&q.title);
                slug.truncate(48);
                format!("{}-m{}", slug.trim_end_matches('-'), rng.hex(4))
            }
            _ => format!(
                "{}{}",
                char::from(b'A' + rng.range(0, 26) as u8),
                rng.hex(11)
            ),
        };
        if !catalog.market_index.contains_key(id.as_str()) {
            break id;
        }
    };
    let mut mrng = Rng::of(options.seed, &id, 1);
    let quote = Quote::around(q.p, &mut mrng);
    let row = catalog::market(
        options,
        &mut mrng,
        MarketSpec {
            id: id.clone(),
            platform,
            state: State::at(q.end_at, options.as_of),
            quote,
            title: q.title.clone(),
            description: q.criteria.clone(),
            criteria: q.criteria.clone(),
            source: q.source,
            category: q.category,
            subcategory: q.category,
            tags: &[],
            end_at: q.end_at,
            parent: None,
            event: None,
            series: None,
            mve: false,
            n: catalog.markets.len() as u64,
        },
    );
    catalog
        .market_index
        .insert(row.id.clone(), catalog.markets.len() as u32);
    catalog.markets.push(row);
    id.into()
}

fn day_parts(at: i64) -> (i64, &'static str, i64) {
    let (y, m, d) = civil_from_days(at.div_euclid(DAY));
    (y, MONTHS[(m - 1) as usize], i64::from(d))
}

fn money(x: f64) -> String {
    let s = format!("{}", x.round() as i64);
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    format!("${out}")
}

/// The anchor and counterpart questions of one group. `subject` picks the
/// group's own invented subject.
fn questions(kind: Kind, variant: Variant, subject: usize, as_of: i64, rng: &mut Rng) -> Pair {
    let at = as_of + rng.range(3, 150) as i64 * DAY;
    let (y, month, d) = day_parts(at);
    let p = rng.between(0.2, 0.8);
    let source = SOURCES[subject % 2];
    let category = match kind {
        Kind::Coin => "Crypto",
        Kind::Inflation => "Economics",
        Kind::Weather => "Weather",
        Kind::Election => "Politics",
        Kind::Launch => "Tech",
    };
    let q = |title: String, criteria: String, end_at: i64, p: f64| Question {
        category,
        title,
        criteria,
        source,
        end_at,
        p,
    };
    let same_truth = match variant {
        Variant::Same => Relation::Same,
        Variant::Inverted => Relation::Inverted,
        // The counterpart is narrower: YES on it implies YES on the anchor.
        Variant::Narrower => Relation::Superset,
        Variant::Alone => Relation::Different,
        _ => Relation::Different,
    };
    // Some counterparts close a few hours off (the relation holds, but the
    // classifier must name the field) or cite another source (a veto:
    // below).
    let drift = if subject % 3 == 2 { 6 * 3_600 } else { 0 };
    let (anchor, counterpart) = match kind {
        Kind::Coin => {
            let coin = format!(
                "{}{}",
                COIN_HEADS[subject % COIN_HEADS.len()],
                COIN_TAILS[subject / COIN_HEADS.len() % COIN_TAILS.len()]
            );
            let step = 250.0 * (1 + rng.range(0, 4)) as f64;
            let x = step * rng.range(4, 40) as f64;
            let mon = &month[..3];
            let crit = |cmp: &str, v: &str, day: &str| {
                format!("Resolves Yes if the {coin}/USD close on {day} is {cmp} {v}.")
            };
            let date = format!("{month} {d}, {y}");
            let mut anchor = q(
                format!("{coin} above {} on {month} {d}?", money(x)),
                crit("above", &money(x), &date),
                at,
                p,
            );
            let other = match variant {
                Variant::Same => q(
                    format!("Will {coin} close above {} on {mon} {d}, {y}?", money(x)),
                    crit("above", &money(x), &date),
                    at + drift,
                    p,
                ),
                Variant::Inverted => q(
                    format!(
                        "Will {coin} close at or below {} on {mon} {d}, {y}?",
                        money(x)
                    ),
                    crit("at or below", &money(x), &date),
                    at + drift,
                    1.0 - p,
                ),
                Variant::Narrower => q(
                    format!("{coin} above {} on {month} {d}?", money(x + step)),
                    crit("above", &money(x + step), &date),
                    at,
                    p * 0.7,
                ),
                Variant::LookalikeDate => {
                    let (y2, month2, d2) = day_parts(at + DAY);
                    q(
                        format!(
                            "Will {coin} close above {} on {} {d2}, {y2}?",
                            money(x),
                            &month2[..3]
                        ),
                        crit("above", &money(x), &format!("{month2} {d2}, {y2}")),
                        at + DAY,
                        p,
                    )
                }
                _ => {
                    anchor = q(
                        format!(
                            "{coin} between {} and {} on {month} {d}?",
                            money(x),
                            money(x + step)
                        ),
                        crit(
                            "between",
                            &format!("{} and {}", money(x), money(x + step)),
                            &date,
                        ),
                        at,
                        0.3,
                    );
                    q(
                        format!(
                            "Will {coin} close between {} and {} on {mon} {d}, {y}?",
                            money(x + step),
                            money(x + 2.0 * step)
                        ),
                        crit(
                            "between",
                            &format!("{} and {}", money(x + step), money(x + 2.0 * step)),
                            &date,
                        ),
                        at,
                        0.3,
                    )
                }
            };
            (anchor, other)
        }
        Kind::Inflation => {
            let country = COUNTRIES[subject % COUNTRIES.len()];
            let x = (rng.range(15, 45) as f64) / 10.0;
            let up = x + 0.2;
            let crit = |cmp: &str, v: f64, m: &str| {
                format!(
                    "Resolves Yes if {country}'s year-over-year inflation for {m} {y}, as first published, is {cmp} {v:.1}%."
                )
            };
            let mut anchor = q(
                format!("{country} inflation above {x:.1}% for {month} {y}?"),
                crit("above", x, month),
                at,
                p,
            );
            let other = match variant {
                Variant::Same => q(
                    format!("Will {month} {y} inflation in {country} come in above {x:.1}%?"),
                    crit("above", x, month),
                    at + drift,
                    p,
                ),
                Variant::Inverted => q(
                    format!("{country} inflation at {x:.1}% or less for {month} {y}?"),
                    crit("at or below", x, month),
                    at + drift,
                    1.0 - p,
                ),
                Variant::Narrower => q(
                    format!("Will {month} {y} inflation in {country} come in above {up:.1}%?"),
                    crit("above", up, month),
                    at,
                    p * 0.7,
                ),
                Variant::LookalikeDate => {
                    let (y2, month2, _) = day_parts(at + 31 * DAY);
                    q(
                        format!("Will {month2} {y2} inflation in {country} come in above {x:.1}%?"),
                        crit("above", x, month2),
                        at + 31 * DAY,
                        p,
                    )
                }
                _ => {
                    anchor = q(
                        format!(
                            "{country} inflation between {x:.1}% and {up:.1}% for {month} {y}?"
                        ),
                        format!(
                            "Resolves Yes if {country}'s inflation for {month} {y} is between {x:.1}% and {up:.1}%."
                        ),
                        at,
                        0.3,
                    );
                    q(
                        format!(
                            "Will {month} {y} inflation in {country} be between {up:.1}% and {:.1}%?",
                            up + 0.2
                        ),
                        format!(
                            "Resolves Yes if {country}'s inflation for {month} {y} is between {up:.1}% and {:.1}%.",
                            up + 0.2
                        ),
                        at,
                        0.3,
                    )
                }
            };
            (anchor, other)
        }
        Kind::Weather => {
            let town = TOWNS[subject % TOWNS.len()];
            let x = rng.range(40, 100) as f64;
            let mon = &month[..3];
            let crit = |cmp: &str, v: f64, day: &str| {
                format!(
                    "Resolves Yes if the highest temperature recorded in {town} on {day} is {cmp} {v:.0}°F."
                )
            };
            let date = format!("{month} {d}, {y}");
            let mut anchor = q(
                format!("{town} high above {x:.0}°F on {month} {d}?"),
                crit("above", x, &date),
                at,
                p,
            );
            let other = match variant {
                Variant::Same => q(
                    format!(
                        "Will the high temperature in {town} exceed {x:.0}°F on {mon} {d}, {y}?"
                    ),
                    crit("above", x, &date),
                    at + drift,
                    p,
                ),
                Variant::Inverted => q(
                    format!("{town} high at or below {x:.0}°F on {mon} {d}, {y}?"),
                    crit("at or below", x, &date),
                    at + drift,
                    1.0 - p,
                ),
                Variant::Narrower => q(
                    format!(
                        "Will the high temperature in {town} exceed {:.0}°F on {mon} {d}, {y}?",
                        x + 3.0
                    ),
                    crit("above", x + 3.0, &date),
                    at,
                    p * 0.7,
                ),
                Variant::LookalikeDate => {
                    let (y2, month2, d2) = day_parts(at + DAY);
                    q(
                        format!(
                            "Will the high temperature in {town} exceed {x:.0}°F on {} {d2}, {y2}?",
                            &month2[..3]
                        ),
                        crit("above", x, &format!("{month2} {d2}, {y2}")),
                        at + DAY,
                        p,
                    )
                }
                _ => {
                    anchor = q(
                        format!(
                            "{town} high between {x:.0}°F and {:.0}°F on {month} {d}?",
                            x + 2.0
                        ),
                        format!(
                            "Resolves Yes if the high in {town} on {date} is between {x:.0}°F and {:.0}°F.",
                            x + 2.0
                        ),
                        at,
                        0.3,
                    );
                    q(
                        format!(
                            "Will the high temperature in {town} be between {:.0}°F and {:.0}°F on {mon} {d}, {y}?",
                            x + 3.0,
                            x + 5.0
                        ),
                        format!(
                            "Resolves Yes if the high in {town} on {date} is between {:.0}°F and {:.0}°F.",
                            x + 3.0,
                            x + 5.0
                        ),
                        at,
                        0.3,
                    )
                }
            };
            (anchor, other)
        }
        Kind::Election => {
            let country = COUNTRIES[(subject + 7) % COUNTRIES.len()];
            let who = format!(
                "{} {}",
                GIVEN[subject % GIVEN.len()],
                FAMILY[subject % FAMILY.len()]
            );
            let rival = format!(
                "{} {}",
                GIVEN[(subject + 5) % GIVEN.len()],
                FAMILY[(subject + 3) % FAMILY.len()]
            );
            let crit = |name: &str, year: i64| {
                format!(
                    "Resolves Yes if {name} is certified the winner of the {year} presidential election in {country}."
                )
            };
            let anchor = q(
                format!("Will {who} win the {y} {country} presidential election?"),
                crit(&who, y),
                at,
                p,
            );
            let other = match variant {
                Variant::Same | Variant::Narrower => q(
                    format!("{who} to win {country} presidential election {y}?"),
                    crit(&who, y),
                    at + drift,
                    p,
                ),
                Variant::Inverted => q(
                    format!("Will {who} not win the {y} {country} presidential election?"),
                    crit(&who, y),
                    at + drift,
                    1.0 - p,
                ),
                Variant::LookalikeDate => q(
                    format!("{who} to win {country} presidential election {}?", y + 4),
                    crit(&who, y + 4),
                    at + 4 * 365 * DAY,
                    p,
                ),
                _ => q(
                    format!("{rival} to win {country} presidential election {y}?"),
                    crit(&rival, y),
                    at,
                    1.0 - p,
                ),
            };
            (anchor, other)
        }
        Kind::Launch => {
            let maker = MAKERS[subject % MAKERS.len()];
            let rival = MAKERS[(subject + 7) % MAKERS.len()];
            let good = GOODS[subject % GOODS.len()];
            let crit = |who: &str, day: &str| {
                format!("Resolves Yes if {who} makes {good} generally available before {day}.")
            };
            let date = format!("{month} {d}, {y}");
            let anchor = q(
                format!("Will {maker} release {good} before {month} {d}, {y}?"),
                crit(maker, &date),
                at,
                p,
            );
            let other = match variant {
                Variant::Same => q(
                    format!("{maker} to launch {good} by {month} {d}?"),
                    crit(maker, &date),
                    at + drift,
                    p,
                ),
                Variant::Inverted => q(
                    format!("Will {maker} fail to release {good} before {month} {d}, {y}?"),
                    crit(maker, &date),
                    at + drift,
                    1.0 - p,
                ),
                Variant::Narrower | Variant::LookalikeDate => {
                    // An earlier deadline is narrower: "swapped" dates of a
                    // deadline nest instead of differing.
                    let (y2, month2, d2) = day_parts(at - 30 * DAY);
                    q(
                        format!("{maker} to launch {good} by {month2} {d2}, {y2}?"),
                        crit(maker, &format!("{month2} {d2}, {y2}")),
                        at - 30 * DAY,
                        p * 0.7,
                    )
                }
                _ => q(
                    format!("Will {rival} release {good} before {month} {d}, {y}?"),
                    crit(rival, &date),
                    at,
                    p,
                ),
            };
            (anchor, other)
        }
    };
    // Elections have no narrower question and launches no threshold:
    // those groups are asked as the nearest variant instead.
    let (variant, truth) = match (kind, variant) {
        (Kind::Election, Variant::Narrower) => (Variant::Same, Relation::Same),
        (Kind::Launch, Variant::LookalikeDate) => (Variant::Narrower, Relation::Superset),
        (Kind::Election | Kind::Launch, Variant::LookalikeThreshold) => {
            (Variant::LookalikeName, Relation::Different)
        }
        _ => (variant, same_truth),
    };
    let variant_has_counterpart = variant != Variant::Alone;
    let mut counterpart = counterpart;
    let mut truth = truth;
    if subject % 3 == 1 && matches!(variant, Variant::Same | Variant::Inverted) {
        counterpart.source = SOURCES[(subject + 1) % 2];
        // Two named sources can settle one question two ways: the
        // classifier's `settlement_source_differs` veto makes them two
        // questions, with no gap shown between them.
        truth = Relation::Different;
    }
    Pair {
        variant,
        anchor,
        counterpart: variant_has_counterpart.then_some(counterpart),
        truth,
    }
}
