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
use predmarket_core::capabilities::{Capability, PLATFORM_CAPABILITIES, capabilities_of};
use predmarket_core::models::{
    HealthStatus, Platform, PlatformEndpoint, PlatformFeatures, PlatformHealth, PlatformStatus,
};

// What each platform serves is the core's table
// (`predmarket_core::capabilities`), read by the handlers and the
// directory. The arrays below are only storage orders: a market, event or
// sports row keeps its platform as an index into one of them. The test
// `storage_orders_follow_the_table` holds them to the table.

/// Storage order of the market platforms (`MarketRow::platform`).
pub const MARKETS: [&str; 5] = [
    "platform_a",
    "platform_b",
    "platform_c",
    "platform_d",
    "platform_e",
];
/// Storage order of the event and series platforms.
pub const EVENTS: [&str; 2] = ["platform_a", "platform_b"];
/// Storage order of the sports platforms (quotes of games, futures,
/// awards; keys of team platform_ids).
pub const SPORTS: [&str; 5] = [
    "platform_a",
    "platform_b",
    "platform_f",
    "platform_g",
    "platform_h",
];

/// A platform's label, or its renamed id (see `names`).
pub fn is_platform(id: &str) -> bool {
    super::names::label_of_any(id).is_some_and(|label| capabilities_of(label).is_some())
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

/// The platform directory; a platform failed by `--fail-platform` shows as
/// unavailable with a failing health check.
pub fn directory(
    seed: u64,
    names: Names,
    now_iso: &str,
    down: &dyn Fn(&str) -> bool,
) -> Vec<Platform> {
    PLATFORM_CAPABILITIES
        .iter()
        .enumerate()
        .map(|(i, served)| {
            let id = served.platform;
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
                        ("markets", Capability::Markets),
                        ("events", Capability::Events),
                        ("series", Capability::Series),
                        ("orderbook", Capability::Orderbook),
                        ("trades", Capability::Trades),
                        ("price-history", Capability::PriceHistory),
                        ("profile", Capability::Profiles),
                        ("sports", Capability::Sports),
                    ]
                    .into_iter()
                    .map(|(name, capability)| PlatformEndpoint {
                        name: name.to_owned(),
                        available: served.has(capability),
                    })
                    .collect::<Vec<_>>()
                    .into(),
                ),
                features: Some(PlatformFeatures {
                    orderbook: Some(served.orderbook),
                    trades: Some(served.trades),
                    historical_data: Some(served.price_history),
                    user_profiles: Some(served.profiles),
                    ..Default::default()
                }),
                ..Default::default()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::platforms;

    #[test]
    fn storage_orders_follow_the_table() {
        assert_eq!(platforms(Capability::Markets), MARKETS);
        assert_eq!(platforms(Capability::Events), EVENTS);
        assert_eq!(platforms(Capability::Series), EVENTS);
        assert_eq!(platforms(Capability::Sports), SPORTS);
    }

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
