//! Decoding speed of a 250-market page (`GET /markets?limit=250`) into the
//! typed models, natively.
//!
//! `cargo run --release -p predmarket-core --example decode_bench`
//!
//! The page is generated deterministically with every field of a market
//! filled (about 2.2 KB per market, a little more than the 472 KB page of
//! `perf-notes.md`), metadata included with two raw keys beyond the
//! spec's so the `extra` map is exercised. Prints the median of several
//! timed rounds in MB/s (10^6 bytes per second of JSON text).

// `json!` of a fully populated market nests deeper than the default allows.
#![recursion_limit = "512"]

use predmarket_core::models::MarketsResponse;
use serde_json::{Value, json};
use std::hint::black_box;
use std::time::{Duration, Instant};

const MARKETS: usize = 250;
const ROUNDS: usize = 15;
const ROUND_TIME: Duration = Duration::from_millis(200);

/// A small deterministic generator: same page on every run.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 11
    }
    fn unit(&mut self) -> f64 {
        (self.next() % 1_000_000) as f64 / 1_000_000.0
    }
    fn price(&mut self) -> f64 {
        // Prices with full float noise, as platforms send them.
        0.01 + self.unit() * 0.98 + self.unit() * 1e-9
    }
}

fn market(i: usize, r: &mut Lcg) -> Value {
    let platform = ["platform_a", "platform_b", "platform_c", "platform_d"][i % 4];
    let yes = r.price();
    let status = ["open", "closed", "resolved", "suspended"][i % 4];
    let category = ["politics", "economics", "sports", "science"][i % 4];
    json!({
        "id": format!("{platform}_{:016x}", r.next()),
        "platform": platform,
        "platform_id": format!("0x{:032x}", (r.next() as u128) << 40 | r.next() as u128),
        "title": format!("Will outcome number {i} happen before the end of the quarter?"),
        "status": status,
        "market_type": "binary",
        "outcomes": [{"id": "yes", "name": "Yes"}, {"id": "no", "name": "No"}],
        "current_prices": {"yes": {"price": yes, "bid": yes - 0.01, "ask": yes + 0.01}, "no": {"price": 1.0 - yes}},
        "last_synced_at": "2025-02-01T12:00:00.000Z",
        "event_id": format!("ev_{}", i / 5),
        "event_name": format!("Event group {} of the season", i / 5),
        "event_slug": format!("event-group-{}", i / 5),
        "series_id": format!("se_{}", i / 25),
        "slug": format!("outcome-{i}"),
        "market_slug": format!("will-outcome-number-{i}-happen-before-the-end-of-the-quarter"),
        "description": "This market resolves to Yes if the outcome described in the title happens before the end of the quarter, as reported by the resolution source. Otherwise it resolves to No. \"Quoted\" text and unicode: é ü ✓.",
        "category": category,
        "subcategory": "general",
        "tags": ["quarterly", "featured", format!("tag{}", i % 7)],
        "volume_24h": r.unit() * 1e6,
        "volume_7d": r.unit() * 7e6,
        "volume_total": r.unit() * 5e7,
        "liquidity": r.unit() * 2e5,
        "liquidity_score": r.unit(),
        "open_interest": r.unit() * 1e6,
        "unique_traders": r.next() % 10_000,
        "fee_rate": 0.02,
        "trading_fee": 0.01,
        "withdrawal_fee": 0,
        "source_url": format!("https://{platform}.example/market/outcome-{i}"),
        "image_url": format!("https://{platform}.example/img/outcome-{i}.png"),
        "created_at": "2024-12-01T00:00:00Z",
        "trading_start_at": "2024-12-01T00:00:00Z",
        "trading_end_at": "2025-03-31T23:59:59Z",
        "resolution_date": "2025-03-31",
        "resolution_criteria": "Official publication of the result by the resolution source.",
        "resolution_source": "https://source.example/results",
        "price_24h_changes": {"yes": r.unit() - 0.5, "no": r.unit() - 0.5},
        "price_7d_changes": {"yes": r.unit() - 0.5, "no": r.unit() - 0.5},
        "last_trades": {"yes": {"price": yes, "size": r.next() % 1000, "timestamp": 1_738_411_200u64 + i as u64}},
        "metadata": {
            "conditionId": format!("0x{:064x}", r.next()),
            "ammType": "clob",
            "marketType": "normal",
            "formatType": "percent",
            "competitive": r.unit(),
            "score": r.unit() * 100.0,
            "bestBid": yes - 0.01,
            "bestAsk": yes + 0.01,
            "spread": 0.02,
            "clobTokenIds": [format!("{}", r.next()), format!("{}", r.next())],
            "negRisk": false,
            "questionId": format!("0x{:064x}", r.next())
        }
    })
}

fn page() -> String {
    let mut r = Lcg(0x5eed);
    let markets: Vec<Value> = (0..MARKETS).map(|i| market(i, &mut r)).collect();
    let page = json!({
        "pagination": {"total": 12_345, "limit": MARKETS, "has_more": true, "next_cursor": "eyJvZmZzZXQiOjI1MH0="},
        "markets": markets,
        "meta": {"request_time": 42.5, "cache_hit": false, "data_freshness": "2025-02-01T12:00:03Z"}
    });
    serde_json::to_string(&page).unwrap_or_default()
}

fn main() {
    let text = page();
    let bytes = text.len();
    // Check once that the page is what it claims, outside the timing.
    let decoded: MarketsResponse = match serde_json::from_str(&text) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("the generated page does not decode: {e}");
            std::process::exit(1);
        }
    };
    assert_eq!(decoded.markets.len(), MARKETS);

    let mut rates = Vec::with_capacity(ROUNDS);
    for _ in 0..ROUNDS {
        let start = Instant::now();
        let mut n = 0u32;
        while start.elapsed() < ROUND_TIME {
            let r: Result<MarketsResponse, _> = serde_json::from_str(black_box(&text));
            black_box(r.map(|r| r.markets.len()).unwrap_or(0));
            n += 1;
        }
        let secs = start.elapsed().as_secs_f64();
        rates.push(bytes as f64 * f64::from(n) / secs / 1e6);
    }
    rates.sort_by(f64::total_cmp);
    let median = rates[rates.len() / 2];
    println!(
        "decode {MARKETS}-market page: {} bytes ({:.0} KB), median {:.0} MB/s (min {:.0}, max {:.0}) over {ROUNDS} rounds; {:.2} ms per page",
        bytes,
        bytes as f64 / 1024.0,
        median,
        rates[0],
        rates[rates.len() - 1],
        bytes as f64 / median / 1e3,
    );
}
