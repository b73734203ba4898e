//! Series, events and markets of the five market platforms.
//!
//! platform_a and platform_b group markets into events and events into
//! series; platform_c, platform_d and platform_e list standalone markets.
//! Every model is serialized once, at start-up, with the core's types, and
//! kept as JSON text next to the few facts that filters and sorts need: at
//! 100 000 markets that is far smaller than keeping the models, and a page
//! of a listing is a copy of ready bytes.

use super::options::Options;
use super::platforms::MARKETS;
use super::prices::{self, Path, Quote};
use super::rng::{Rng, round};
use super::text;
use super::themes::{self, KINDS, Kind};
use super::time::iso8601;
use predmarket_core::models::{
    Event, Market, MarketMetadata, MarketStatus, MarketType, Outcome, PlatformId, Series,
};
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::ops::Range;

const DAY: i64 = 86_400;

/// The state of a market, as far as filters are concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    Open,
    Closed,
    Resolved,
}

impl State {
    pub const ALL: [&'static str; 3] = ["open", "closed", "resolved"];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Open => "open",
            Self::Closed => "closed",
            Self::Resolved => "resolved",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "open" => Some(Self::Open),
            "closed" => Some(Self::Closed),
            "resolved" => Some(Self::Resolved),
            _ => None,
        }
    }

    pub(super) fn at(end: i64, as_of: i64) -> Self {
        if end >= as_of {
            Self::Open
        } else if end >= as_of - 2 * DAY {
            Self::Closed
        } else {
            Self::Resolved
        }
    }
}

/// What filters, sorts and derived resources (orderbook, trades, history)
/// need of a market; the rest is in `json`.
pub struct MarketRow {
    pub id: Box<str>,
    /// Index into `platforms::MARKETS`.
    pub platform: u8,
    pub state: State,
    pub category: &'static str,
    pub event: Option<u32>,
    pub series: Option<u32>,
    pub quote: Quote,
    pub volatility: f32,
    pub volume_24h: f64,
    pub volume_7d: f64,
    pub volume_total: f64,
    pub liquidity: f64,
    pub open_interest: f64,
    pub created_at: i64,
    pub end_at: i64,
    pub trade_count: u32,
    /// platform_b's multivariate combo markets: generated, never served.
    pub mve: bool,
    pub title: Box<str>,
    pub json: Box<str>,
}

impl MarketRow {
    pub fn platform(&self) -> &'static str {
        MARKETS[self.platform as usize]
    }

    /// The market's own stream of random numbers (orderbook, trades, path).
    pub fn seed(&self, dataset_seed: u64) -> u64 {
        Rng::of(dataset_seed, &self.id, 0).next_u64()
    }

    /// Time the market's data stops: `as_of` while open, its end after.
    pub fn last_active(&self, as_of: i64) -> i64 {
        if self.state == State::Open {
            as_of
        } else {
            self.end_at
        }
    }
}

pub struct EventRow {
    pub id: Box<str>,
    pub platform: u8,
    pub series: u32,
    /// Indexes of its markets (contiguous).
    pub markets: Range<u32>,
    pub end_at: i64,
    pub open: bool,
    pub category: &'static str,
    pub search: Box<str>,
    pub json: Box<str>,
}

pub struct SeriesRow {
    pub id: Box<str>,
    pub platform: u8,
    pub events: Range<u32>,
    pub category: &'static str,
    /// Lower-case title, description and tags, for search mode.
    pub search: Box<str>,
    pub json: Box<str>,
}

pub struct Catalog {
    pub markets: Vec<MarketRow>,
    pub events: Vec<EventRow>,
    pub series: Vec<SeriesRow>,
    pub market_index: HashMap<Box<str>, u32>,
    pub event_index: HashMap<Box<str>, u32>,
    pub series_index: HashMap<Box<str>, u32>,
}

/// Share of the visible markets per platform (a, b, c, d, e).
const SHARES: [f64; 5] = [0.36, 0.28, 0.14, 0.12, 0.10];
/// Visible markets at scale 1.
pub const BASE_MARKETS: f64 = 5_000.0;

struct Ids {
    taken: HashSet<String>,
    next_numeric: [u64; 3],
}

impl Ids {
    fn unique(&mut self, candidate: String) -> String {
        if self.taken.insert(candidate.clone()) {
            return candidate;
        }
        let mut n = 2;
        loop {
            let next = format!("{candidate}{n}");
            if self.taken.insert(next.clone()) {
                return next;
            }
            n += 1;
        }
    }

    /// Numeric ids of platform_a: markets, events, series.
    fn numeric(&mut self, kind: usize) -> String {
        let base = [500_000, 20_000, 1_000][kind];
        self.next_numeric[kind] += 1;
        (base + self.next_numeric[kind]).to_string()
    }
}

/// What the event and series of a market say about it.
pub(super) struct Parent<'a> {
    event_id: &'a str,
    event_title: &'a str,
    event_slug: &'a str,
    series_id: &'a str,
}

impl Catalog {
    fn empty() -> Self {
        Self {
            markets: Vec::new(),
            events: Vec::new(),
            series: Vec::new(),
            market_index: HashMap::new(),
            event_index: HashMap::new(),
            series_index: HashMap::new(),
        }
    }

    /// Appends `part`, whose indexes count from its own start.
    fn append(&mut self, part: Catalog) {
        let market_off = self.markets.len() as u32;
        let event_off = self.events.len() as u32;
        let series_off = self.series.len() as u32;
        self.markets.extend(part.markets.into_iter().map(|mut m| {
            m.event = m.event.map(|e| e + event_off);
            m.series = m.series.map(|s| s + series_off);
            m
        }));
        self.events.extend(part.events.into_iter().map(|mut e| {
            e.series += series_off;
            e.markets = e.markets.start + market_off..e.markets.end + market_off;
            e
        }));
        self.series.extend(part.series.into_iter().map(|mut s| {
            s.events = s.events.start + event_off..s.events.end + event_off;
            s
        }));
    }
}

pub fn generate(options: &Options) -> Catalog {
    let total = (BASE_MARKETS * options.scale).round().max(5.0) as usize;
    // Each platform is generated on its own thread: ids of different
    // platforms have different formats, so they cannot collide, and every
    // platform draws from its own random streams, so the result does not
    // depend on scheduling.
    let parts: Vec<Catalog> = std::thread::scope(|scope| {
        let handles: Vec<_> = SHARES
            .iter()
            .enumerate()
            .map(|(p, share)| {
                scope.spawn(move || {
                    let mut part = Catalog::empty();
                    let mut ids = Ids {
                        taken: HashSet::new(),
                        next_numeric: [0; 3],
                    };
                    let target = ((total as f64 * share).round() as usize).max(1);
                    if p < 2 {
                        grouped(options, &mut part, &mut ids, p as u8, target);
                    } else {
                        standalone(options, &mut part, &mut ids, p as u8, target);
                    }
                    if p == 1 {
                        let mve = (total as f64 * SHARES[1] * 0.08).round() as usize;
                        multivariate(options, &mut part, &mut ids, mve.max(1));
                    }
                    part
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    let mut catalog = Catalog::empty();
    for part in parts {
        catalog.append(part);
    }
    for (i, m) in catalog.markets.iter().enumerate() {
        if !m.mve {
            catalog.market_index.insert(m.id.clone(), i as u32);
        }
    }
    for (i, e) in catalog.events.iter().enumerate() {
        catalog.event_index.insert(e.id.clone(), i as u32);
    }
    for (i, s) in catalog.series.iter().enumerate() {
        catalog.series_index.insert(s.id.clone(), i as u32);
    }
    catalog
}

fn hostile(options: &Options, text: String, n: u64) -> String {
    if options.hostile {
        text::hostile(&text, n)
    } else {
        text
    }
}

/// Series → events → markets for platform_a or platform_b.
fn grouped(options: &Options, catalog: &mut Catalog, ids: &mut Ids, platform: u8, target: usize) {
    let label = MARKETS[platform as usize];
    let wire = options.names.wire(label);
    let mut made = 0usize;
    let mut series_n = 0u64;
    while made < target {
        let mut rng = Rng::of(options.seed, label, series_n);
        series_n += 1;
        let kind = *rng.pick(&KINDS);
        let text = themes::series(kind, &mut rng);
        let series_id = if platform == 0 {
            ids.numeric(2)
        } else {
            ids.unique(format!("KX{}", text.code))
        };
        let series_index = catalog.series.len() as u32;
        let n_events = 1 + (rng.unit() * rng.unit() * 12.0) as usize;
        let past = (n_events as f64 * rng.between(0.1, 0.35)).round() as i64;
        let first_event = catalog.events.len() as u32;
        let series_title = hostile(options, text.title.clone(), series_n);
        let mut series_volume = 0.0;
        let mut series_markets = 0u64;
        for j in 0..n_events as i64 {
            if made >= target {
                break;
            }
            let at = options.as_of
                + (j - past) * text.cadence_days * DAY
                + rng.range(0, 20) as i64 * 3_600
                + DAY / 2;
            let wanted = (1 + (rng.unit() * rng.unit() * 8.0) as usize).min(target - made);
            let event_text = themes::event(kind, &text, at, wanted, &mut rng);
            let event_id = if platform == 0 {
                ids.numeric(1)
            } else {
                ids.unique(format!("{series_id}-{}", event_text.code))
            };
            let event_slug = text::slugify(&event_text.title);
            let event_title = hostile(options, event_text.title.clone(), made as u64 + 1);
            let event_index = catalog.events.len() as u32;
            let first_market = catalog.markets.len() as u32;
            let probabilities = event_probabilities(kind, event_text.markets.len(), &mut rng);
            let state = State::at(at, options.as_of);
            let mut event_volume = 0.0;
            for (k, question) in event_text.markets.iter().enumerate() {
                let id = if platform == 0 {
                    ids.numeric(0)
                } else {
                    ids.unique(format!("{event_id}-{}", question.code))
                };
                let mut mrng = Rng::of(options.seed, &id, 1);
                let quote = Quote::around(probabilities[k], &mut mrng);
                let parent = Parent {
                    event_id: &event_id,
                    event_title: &event_title,
                    event_slug: &event_slug,
                    series_id: &series_id,
                };
                let row = market(
                    options,
                    &mut mrng,
                    MarketSpec {
                        id,
                        platform,
                        state,
                        quote,
                        title: question.title.clone(),
                        description: format!("{} {}", event_text.description, question.criteria),
                        criteria: question.criteria.clone(),
                        source: event_text.resolution_source,
                        category: text.category,
                        subcategory: text.subcategory,
                        tags: &text.tags,
                        end_at: at,
                        parent: Some(parent),
                        event: Some(event_index),
                        series: Some(series_index),
                        mve: false,
                        n: catalog.markets.len() as u64,
                    },
                );
                event_volume += row.volume_total;
                catalog.markets.push(row);
                made += 1;
            }
            let markets = first_market..catalog.markets.len() as u32;
            let count = markets.len();
            series_volume += event_volume;
            series_markets += count as u64;
            let mut event = Event::new(event_id.clone());
            event.platform = Some(PlatformId::from(wire));
            event.platform_id = Some(event_id.clone());
            event.title = Some(event_title.clone());
            event.last_synced_at = Some(iso8601(options.as_of - 60));
            event.series_id = Some(series_id.clone());
            event.slug = Some(event_slug.clone());
            event.description = Some(hostile(
                options,
                event_text.description.clone(),
                made as u64 + 3,
            ));
            event.image_url = Some(image_url(wire, "events", &event_id));
            event.resolution_source_url = Some(format!(
                "https://sources.example/{}",
                text::slugify(event_text.resolution_source)
            ));
            event.event_start_at = Some(iso8601(at - text.cadence_days.clamp(1, 30) * DAY));
            event.event_end_at = Some(iso8601(at));
            event.market_count = Some(count as f64);
            event.total_volume = Some(round(event_volume, 2));
            catalog.events.push(EventRow {
                id: event_id.into(),
                platform,
                series: series_index,
                markets,
                end_at: at,
                open: state == State::Open,
                category: text.category,
                search: event_title.to_lowercase().into(),
                json: to_json(&event),
            });
        }
        let events = first_event..catalog.events.len() as u32;
        let mut series = Series::new(series_id.clone());
        series.platform = Some(PlatformId::from(wire));
        series.platform_id = Some(series_id.clone());
        series.title = Some(series_title.clone());
        series.last_synced_at = Some(iso8601(options.as_of - 60));
        series.slug = Some(text::slugify(&text.title));
        series.description = Some(hostile(options, text.description.clone(), series_n + 2));
        series.image_url = Some(image_url(wire, "series", &series_id));
        series.category = Some(text.category.to_owned());
        series.tags = Some(text.tags.clone());
        series.event_count = Some(events.len() as f64);
        series.market_count = Some(series_markets as f64);
        series.total_volume = Some(round(series_volume, 2));
        let search = format!(
            "{} {} {} {}",
            series_title,
            text.description,
            text.category,
            text.tags.join(" ")
        )
        .to_lowercase();
        catalog.series.push(SeriesRow {
            id: series_id.into(),
            platform,
            events,
            category: text.category,
            search: search.into(),
            json: to_json(&series),
        });
    }
}

/// Probabilities of an event's markets: exclusive outcomes sum to about 1,
/// thresholds fall as the threshold rises, others are independent.
fn event_probabilities(kind: Kind, n: usize, rng: &mut Rng) -> Vec<f64> {
    match kind {
        Kind::Fed | Kind::Election | Kind::Charts => {
            let weights: Vec<f64> = (0..n).map(|_| rng.log_normal(1.0, 1.2)).collect();
            let sum: f64 = weights.iter().sum();
            weights
                .iter()
                .map(|w| (w / sum).clamp(0.01, 0.99))
                .collect()
        }
        Kind::Launch => (0..n).map(|_| rng.between(0.05, 0.9)).collect(),
        _ => {
            let center = rng.between(-1.0, 1.0);
            let scale = rng.between(0.6, 1.6);
            (0..n)
                .map(|i| {
                    let x = (i as f64 - (n as f64 - 1.0) / 2.0) / scale - center;
                    (1.0 / (1.0 + x.exp())).clamp(0.01, 0.99)
                })
                .collect()
        }
    }
}

/// Standalone markets of platform_c, platform_d or platform_e.
fn standalone(
    options: &Options,
    catalog: &mut Catalog,
    ids: &mut Ids,
    platform: u8,
    target: usize,
) {
    let label = MARKETS[platform as usize];
    for n in 0..target as u64 {
        let mut rng = Rng::of(options.seed, label, n);
        let kind = *rng.pick(&KINDS);
        let text = themes::series(kind, &mut rng);
        let at = options.as_of + (rng.range(0, 200) as i64 - 30) * DAY + DAY / 2;
        let event_text = themes::event(kind, &text, at, 4, &mut rng);
        let question = rng.pick(&event_text.markets).clone();
        let id = match platform {
            2 => ids.unique(format!("0x{}", rng.hex(40))),
            3 => {
                let mut slug = text::slugify(&question.title);
                slug.truncate(48);
                let slug = slug.trim_end_matches('-').to_owned();
                ids.unique(format!("{slug}-m{}", rng.hex(4)))
            }
            _ => ids.unique(mixed_case_id(&mut rng)),
        };
        let mut mrng = Rng::of(options.seed, &id, 1);
        let quote = Quote::draw(&mut mrng);
        let row = market(
            options,
            &mut mrng,
            MarketSpec {
                id,
                platform,
                state: State::at(at, options.as_of),
                quote,
                title: question.title.clone(),
                description: format!("{} {}", event_text.description, question.criteria),
                criteria: question.criteria.clone(),
                source: event_text.resolution_source,
                category: text.category,
                subcategory: text.subcategory,
                tags: &text.tags,
                end_at: at,
                parent: None,
                event: None,
                series: None,
                mve: false,
                n: catalog.markets.len() as u64,
            },
        );
        catalog.markets.push(row);
    }
}

/// platform_b's multivariate ("MVE") combo markets: parlays of several legs.
/// The service excludes them from every platform_b answer, so they exist
/// only to prove that exclusion.
fn multivariate(options: &Options, catalog: &mut Catalog, ids: &mut Ids, count: usize) {
    const LEGS: [&str; 6] = [
        "yes Home win",
        "yes Over 45.5",
        "no Away cover -3.5",
        "yes Player A 100+ yards",
        "no Overtime",
        "yes Both teams score",
    ];
    for n in 0..count as u64 {
        let mut rng = Rng::of(options.seed, "mve", n);
        let id = ids.unique(format!(
            "KXMVESPORTSMULTIGAMEEXTENDED-S{}-{}",
            rng.range(2025, 2027),
            rng.hex(10).to_ascii_uppercase()
        ));
        let legs: Vec<&str> = (0..rng.range(2, 5)).map(|_| *rng.pick(&LEGS)).collect();
        let quote = Quote::around(rng.between(0.02, 0.3), &mut rng);
        let row = market(
            options,
            &mut rng,
            MarketSpec {
                id,
                platform: 1,
                state: State::Open,
                quote,
                title: legs.join(","),
                description: "Multivariate combo market.".into(),
                criteria: "Resolves Yes if every leg resolves as stated.".into(),
                source: "Official league data",
                category: "Sports",
                subcategory: "Parlays",
                tags: &["sports".to_owned(), "mve".to_owned()],
                end_at: options.as_of + 3 * DAY,
                parent: None,
                event: None,
                series: None,
                mve: true,
                n: catalog.markets.len() as u64,
            },
        );
        catalog.markets.push(row);
    }
}

fn mixed_case_id(rng: &mut Rng) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
    let mut id: Vec<u8> = (0..12).map(|_| *rng.pick(ALPHABET)).collect();
    // One upper- and one lower-case letter, so the id never reads as
    // another platform's format.
    id[0] = b'A' + rng.range(0, 26) as u8;
    id[1] = b'a' + rng.range(0, 26) as u8;
    String::from_utf8(id).unwrap_or_default()
}

fn image_url(platform: &str, kind: &str, id: &str) -> String {
    format!(
        "https://img.{}.example/{kind}/{}.png",
        platform.replace('_', "-"),
        text::slugify(id)
    )
}

fn to_json<T: serde::Serialize>(value: &T) -> Box<str> {
    serde_json::to_string(value)
        .unwrap_or_else(|_| "{}".to_owned())
        .into_boxed_str()
}

pub(super) struct MarketSpec<'a> {
    pub(super) id: String,
    pub(super) platform: u8,
    pub(super) state: State,
    pub(super) quote: Quote,
    pub(super) title: String,
    pub(super) description: String,
    pub(super) criteria: String,
    pub(super) source: &'static str,
    pub(super) category: &'static str,
    pub(super) subcategory: &'static str,
    pub(super) tags: &'a [String],
    pub(super) end_at: i64,
    pub(super) parent: Option<Parent<'a>>,
    pub(super) event: Option<u32>,
    pub(super) series: Option<u32>,
    pub(super) mve: bool,
    /// Running number, to vary hostile text.
    pub(super) n: u64,
}

pub(super) fn market(options: &Options, rng: &mut Rng, spec: MarketSpec<'_>) -> MarketRow {
    let label = MARKETS[spec.platform as usize];
    let wire = options.names.wire(label);
    let as_of = options.as_of;
    let quote = spec.quote;
    let state = spec.state;
    let created_at = spec.end_at.min(as_of)
        - rng.range(3 * 24, 120 * 24) as i64 * 3_600
        - rng.range(0, 3_600) as i64;
    let last_active = if state == State::Open {
        as_of
    } else {
        spec.end_at
    };
    let volatility = rng.between(0.02, 0.12) as f32;
    let seed = Rng::of(options.seed, &spec.id, 0).next_u64();
    let path = Path::hours(seed, quote, last_active, f64::from(volatility), 24 * 7);
    let platform_factor = [1.6, 1.2, 0.5, 0.4, 0.2][spec.platform as usize];
    let volume_total = round(rng.log_normal(25_000.0 * platform_factor, 1.5), 2);
    let volume_7d = if state == State::Open {
        round(volume_total * rng.between(0.04, 0.4), 2)
    } else {
        0.0
    };
    let volume_24h = round(volume_7d * rng.between(0.05, 0.35), 2);
    let book = prices::ladder(seed, quote);
    let liquidity = if state == State::Open {
        round(
            book.yes_bids
                .iter()
                .chain(&book.yes_asks)
                .map(|l| l.price * l.size)
                .sum::<f64>(),
            2,
        )
    } else {
        0.0
    };
    let trade_count = ((volume_total / 150.0) as u32).clamp(20, 1_500);
    let last_trade = prices::trades(seed, quote, &path, last_active, trade_count, 7 * DAY, 1)
        .next()
        .map(|t| (t.timestamp, t.size))
        .unwrap_or((last_active, 1.0));

    let title = if options.hostile {
        text::hostile(&spec.title, spec.n)
    } else {
        spec.title
    };
    let slug = text::slugify(&title);
    let yes_price = match state {
        State::Resolved if quote.last() >= 0.5 => 1.0,
        State::Resolved => 0.0,
        _ => quote.last(),
    };
    let no_price = round(1.0 - yes_price, 2);
    let change = |hours: i64| round(yes_price - path.at(last_active - hours * 3_600), 3);
    let (yes_id, no_id, token_ids, condition_id) = if spec.platform == 0 {
        let yes = decimal_token(rng);
        let no = decimal_token(rng);
        (
            yes.clone(),
            no.clone(),
            Some(vec![yes, no]),
            Some(format!("0x{}", rng.hex(64))),
        )
    } else {
        ("yes".to_owned(), "no".to_owned(), None, None)
    };
    let open = state == State::Open;
    let mut prices = BTreeMap::new();
    prices.insert(
        "yes".to_owned(),
        if open {
            json!({"price": yes_price, "bid": quote.bid(), "ask": quote.ask()})
        } else {
            json!({ "price": yes_price })
        },
    );
    prices.insert(
        "no".to_owned(),
        if open {
            json!({
                "price": no_price,
                "bid": round(1.0 - quote.ask(), 2),
                "ask": round(1.0 - quote.bid(), 2),
            })
        } else {
            json!({ "price": no_price })
        },
    );
    let mut m = Market::new(spec.id.clone());
    m.platform = Some(PlatformId::from(wire));
    m.platform_id = Some(spec.id.clone());
    m.title = Some(title.clone());
    m.status = Some(MarketStatus::from(state.as_str()));
    m.market_type = Some(MarketType::Binary);
    m.outcomes = Some(vec![
        Outcome {
            id: yes_id,
            name: Some("Yes".into()),
        },
        Outcome {
            id: no_id,
            name: Some("No".into()),
        },
    ]);
    m.current_prices = Some(prices);
    m.last_synced_at = Some(iso8601(as_of - rng.range(5, 300) as i64));
    if let Some(parent) = &spec.parent {
        m.event_id = Some(parent.event_id.to_owned());
        m.event_name = Some(parent.event_title.to_owned());
        m.event_slug = Some(parent.event_slug.to_owned());
        m.series_id = Some(parent.series_id.to_owned());
    }
    m.slug = Some(
        spec.parent
            .as_ref()
            .map_or_else(|| slug.clone(), |p| p.event_slug.to_owned()),
    );
    m.market_slug = Some(slug.clone());
    m.description = Some(if options.hostile {
        text::hostile(&spec.description, spec.n + 1)
    } else {
        spec.description
    });
    m.category = Some(spec.category.to_owned());
    m.subcategory = Some(spec.subcategory.to_owned());
    m.tags = Some(spec.tags.to_vec());
    m.volume_24h = Some(volume_24h);
    m.volume_7d = Some(volume_7d);
    m.volume_total = Some(volume_total);
    m.liquidity = Some(liquidity);
    m.liquidity_score = Some(round((liquidity.max(1.0).log10() / 6.0).min(1.0), 3));
    let open_interest = if open {
        round(volume_total * rng.between(0.1, 0.6), 2)
    } else {
        0.0
    };
    m.open_interest = Some(open_interest);
    m.unique_traders = Some((volume_total / rng.log_normal(180.0, 0.4)).round().max(1.0));
    let fee = [0.0, 0.07, 0.02, 0.01, 0.0][spec.platform as usize];
    m.fee_rate = Some(fee);
    m.trading_fee = Some(fee);
    m.withdrawal_fee = Some(0.0);
    m.source_url = Some(format!(
        "https://{}.example/market/{}",
        wire.replace('_', "-"),
        slug
    ));
    m.image_url = Some(image_url(wire, "markets", &spec.id));
    m.created_at = Some(iso8601(created_at));
    m.trading_start_at = Some(iso8601(created_at + 3_600));
    m.trading_end_at = Some(iso8601(spec.end_at));
    m.resolution_date = Some(iso8601(spec.end_at + DAY));
    if state == State::Resolved {
        m.resolved_at = Some(iso8601(spec.end_at + rng.range(2, 40) as i64 * 3_600));
    }
    m.resolution_criteria = Some(spec.criteria);
    m.resolution_source = Some(spec.source.to_owned());
    m.price_24h_changes = Some(changes(change(24)));
    m.price_7d_changes = Some(changes(change(24 * 7)));
    let mut last = BTreeMap::new();
    last.insert(
        "yes".to_owned(),
        json!({"price": quote.last(), "size": last_trade.1, "timestamp": last_trade.0}),
    );
    m.last_trades = Some(last);
    let mut metadata = MarketMetadata {
        condition_id,
        clob_token_ids: token_ids,
        ..MarketMetadata::default()
    };
    if spec.platform == 0 {
        metadata.amm_type = Some("clob".into());
        metadata.market_type = Some("normal".into());
        metadata.format_type = Some("binary".into());
        metadata.competitive = Some(round(1.0 - (quote.mid() - 0.5).abs() * 2.0, 3));
        metadata.score = Some(round(rng.unit(), 3));
    } else if spec.platform == 1 {
        metadata.market_type = Some(if spec.mve { "multivariate" } else { "binary" }.into());
    }
    if open {
        metadata.best_bid = Some(quote.bid());
        metadata.best_ask = Some(quote.ask());
        metadata.spread = Some(quote.spread());
    }
    m.metadata = Some(metadata);

    MarketRow {
        id: spec.id.into(),
        platform: spec.platform,
        state,
        category: spec.category,
        event: spec.event,
        series: spec.series,
        quote,
        volatility,
        volume_24h,
        volume_7d,
        volume_total,
        liquidity,
        open_interest,
        created_at,
        end_at: spec.end_at,
        trade_count,
        mve: spec.mve,
        title: title.into(),
        json: to_json(&m),
    }
}

fn changes(delta: f64) -> BTreeMap<String, Value> {
    let mut out = BTreeMap::new();
    out.insert("yes".to_owned(), json!(delta));
    out.insert("no".to_owned(), json!(round(-delta, 3)));
    out
}

/// A 77-digit decimal token id, like platform_a's outcome tokens.
fn decimal_token(rng: &mut Rng) -> String {
    let mut out = String::with_capacity(77);
    out.push(char::from(b'1' + rng.range(0, 9) as u8));
    while out.len() < 77 {
        let chunk = rng.next_u64() % 10_000_000_000_000_000_000;
        out.push_str(&format!("{chunk:019}"));
    }
    out.truncate(77);
    out
}
