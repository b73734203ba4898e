//! The local data the server serves, generated deterministically from a seed.

pub mod time;

use predmarket_core::models::{
    HealthStatus, Platform, PlatformEndpoint, PlatformFeatures, PlatformHealth, PlatformStatus,
};

pub struct Dataset {
    pub platforms: Vec<Platform>,
}

/// The eight platform labels of service.md, with the display names of the
/// local data and what each one offers.
const PLATFORMS: [(&str, &str, [bool; 4]); 8] = [
    // (label, name, [orderbook, trades, historical_data, user_profiles])
    ("platform_a", "Platform A", [true, true, true, true]),
    ("platform_b", "Platform B", [true, true, true, true]),
    ("platform_c", "Platform C", [true, false, true, false]),
    ("platform_d", "Platform D", [true, false, false, false]),
    ("platform_e", "Platform E", [false, false, false, false]),
    ("platform_f", "Platform F", [false, false, false, false]),
    ("platform_g", "Platform G", [false, false, false, false]),
    ("platform_h", "Platform H", [false, false, false, false]),
];

impl Dataset {
    pub fn generate(seed: u64) -> Self {
        let now = time::now_iso8601();
        let platforms = PLATFORMS
            .iter()
            .enumerate()
            .map(|(i, (id, name, [orderbook, trades, history, profiles]))| {
                // Deterministic, varied health: one platform degraded.
                let response_time =
                    40.0 + ((seed.wrapping_mul(31).wrapping_add(i as u64 * 97)) % 260) as f64;
                let degraded = i == 4;
                Platform {
                    id: (*id).to_owned(),
                    name: Some((*name).to_owned()),
                    status: Some(if degraded {
                        PlatformStatus::Degraded
                    } else {
                        PlatformStatus::Available
                    }),
                    health: Some(PlatformHealth {
                        status: Some(if degraded {
                            HealthStatus::Warn
                        } else {
                            HealthStatus::Pass
                        }),
                        last_check: Some(now.clone()),
                        response_time_ms: Some(if degraded {
                            response_time * 6.0
                        } else {
                            response_time
                        }),
                    }),
                    endpoints: Some(
                        [
                            ("markets", i <= 4),
                            ("orderbook", *orderbook),
                            ("trades", *trades),
                            ("price-history", *history),
                            ("profile", *profiles),
                            ("sports", i <= 1 || i >= 5),
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
            .collect();
        Self { platforms }
    }
}
