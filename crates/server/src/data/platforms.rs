//! The eight platform labels, what each offers, and how a market id tells
//! its platform.
//!
//! Market id formats (documented in the OpenAPI document, used to
//! auto-detect the platform of an orderbook request):
//! - platform_a: digits only (`512873`);
//! - platform_b: an upper-case ticker with dashes (`KXFED-26MAR-C25`);
//! - platform_c: `0x` and 40 lower-case hex digits;
//! - platform_d: a lower-case slug with dashes (`btc-above-100k-jun-30-4f2a`);
//! - platform_e: 12 mixed-case letters and digits (`aB3dE5fG7hJ9`).

use super::names::Names;
use predmarket_core::models::{
    HealthStatus, Platform, PlatformEndpoint, PlatformFeatures, PlatformHealth, PlatformStatus,
};

pub const ALL: [&str; 8] = [
    "platform_a",
    "platform_b",
    "platform_c",
    "platform_d",
    "platform_e",
    "platform_f",
    "platform_g",
    "platform_h",
];
/// Platforms with prediction markets (`GET /markets`, market by id).
pub const MARKETS: [&str; 5] = [
    "platform_a",
    "platform_b",
    "platform_c",
    "platform_d",
    "platform_e",
];
/// Platforms with events and series.
pub const EVENTS: [&str; 2] = ["platform_a", "platform_b"];
pub const ORDERBOOK: [&str; 4] = ["platform_a", "platform_b", "platform_c", "platform_d"];
pub const TRADES: [&str; 2] = ["platform_a", "platform_b"];
pub const HISTORY: [&str; 3] = ["platform_a", "platform_b", "platform_c"];
pub const PROFILES: [&str; 2] = ["platform_a", "platform_b"];
/// Platforms queried for sports data (keys of team platform_ids).
pub const SPORTS: [&str; 5] = [
    "platform_a",
    "platform_b",
    "platform_f",
    "platform_g",
    "platform_h",
];

/// A platform's label, or its renamed id (see `names`).
pub fn is_platform(id: &str) -> bool {
    super::names::label_of_any(id).is_some_and(|label| ALL.contains(&label))
}

/// Index of a market platform (0 = platform_a).
pub fn market_index(label: &str) -> Option<usize> {
    MARKETS.iter().position(|p| *p == label)
}

/// The platform a market id belongs to, from its format alone.
pub fn detect(id: &str) -> Option<&'static str> {
    let bytes = id.as_bytes();
    if bytes.is_empty() {
        return None;
    }
    if bytes.iter().all(u8::is_ascii_digit) {
        return Some("platform_a");
    }
    if id.len() == 42
        && id.starts_with("0x")
        && bytes[2..]
            .iter()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(b))
    {
        return Some("platform_c");
    }
    let has_dash = id.contains('-');
    if has_dash
        && bytes
            .iter()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || *b == b'-' || *b == b'.')
    {
        return Some("platform_b");
    }
    if has_dash
        && bytes
            .iter()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-')
    {
        return Some("platform_d");
    }
    if id.len() == 12 && bytes.iter().all(u8::is_ascii_alphanumeric) {
        return Some("platform_e");
    }
    None
}

/// (label, [orderbook, trades, historical_data, user_profiles])
const DIRECTORY: [(&str, [bool; 4]); 8] = [
    ("platform_a", [true, true, true, true]),
    ("platform_b", [true, true, true, true]),
    ("platform_c", [true, false, true, false]),
    ("platform_d", [true, false, false, false]),
    ("platform_e", [false, false, false, false]),
    ("platform_f", [false, false, false, false]),
    ("platform_g", [false, false, false, false]),
    ("platform_h", [false, false, false, false]),
];

/// The platform directory; a platform failed by `--fail-platform` shows as
/// unavailable with a failing health check.
pub fn directory(
    seed: u64,
    names: Names,
    now_iso: &str,
    down: &dyn Fn(&str) -> bool,
) -> Vec<Platform> {
    DIRECTORY
        .iter()
        .enumerate()
        .map(|(i, (id, [orderbook, trades, history, profiles]))| {
            let response_time =
                40.0 + ((seed.wrapping_mul(31).wrapping_add(i as u64 * 97)) % 260) as f64;
            // One platform degraded, so the demo has something to show.
            let degraded = i == 4;
            let (status, health, response_time) = if down(id) {
                (PlatformStatus::Unavailable, HealthStatus::Fail, 0.0)
            } else if degraded {
                (
                    PlatformStatus::Degraded,
                    HealthStatus::Warn,
                    response_time * 6.0,
                )
            } else {
                (PlatformStatus::Available, HealthStatus::Pass, response_time)
            };
            Platform {
                id: names.wire(id).to_owned(),
                name: Some(names.platform_name(id)),
                status: Some(status),
                health: Some(PlatformHealth {
                    status: Some(health),
                    last_check: Some(now_iso.to_owned()),
                    response_time_ms: Some(response_time),
                }),
                endpoints: Some(
                    [
                        ("markets", MARKETS.contains(id)),
                        ("events", EVENTS.contains(id)),
                        ("series", EVENTS.contains(id)),
                        ("orderbook", *orderbook),
                        ("trades", *trades),
                        ("price-history", *history),
                        ("profile", *profiles),
                        ("sports", SPORTS.contains(id)),
                    ]
                    .into_iter()
                    .map(|(name, available)| PlatformEndpoint {
                        name: name.to_owned(),
                        available,
                    })
                    .collect(),
                ),
                features: Some(PlatformFeatures {
                    orderbook: Some(*orderbook),
                    trades: Some(*trades),
                    historical_data: Some(*history),
                    user_profiles: Some(*profiles),
                }),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn id_formats_tell_the_platform() {
        assert_eq!(detect("512873"), Some("platform_a"));
        assert_eq!(detect("KXFED-26MAR-C25"), Some("platform_b"));
        assert_eq!(detect("KXBTC-26JAN05-T95000.5"), Some("platform_b"));
        assert_eq!(
            detect("0x1234567890abcdef1234567890abcdef12345678"),
            Some("platform_c")
        );
        assert_eq!(detect("btc-above-100k-4f2a"), Some("platform_d"));
        assert_eq!(detect("aB3dE5fG7hJ9"), Some("platform_e"));
        assert_eq!(detect("what?"), None);
        assert_eq!(detect(""), None);
    }
}
