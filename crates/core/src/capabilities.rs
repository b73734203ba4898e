//! What each platform of `docs/spec/service.md` serves: one table, read
//! by the reference server (to enforce the spec's per-operation platform
//! rules) and by the demo (to show what a platform offers).
//!
//! The client side never uses it to reject a value: the public service's
//! platform ids are not these labels (`docs/spec/public-service-facts.md`),
//! so which platform serves what is the service's call.

use crate::models::PlatformId;

/// A kind of data a platform may serve.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Capability {
    /// Markets, listed and by id (`/markets`, `/markets/{id}`).
    Markets,
    /// Events (`/events`).
    Events,
    /// Series (`/series`).
    Series,
    /// Order books (`/markets/{id}/orderbook`).
    Orderbook,
    /// Trades (`/trades`).
    Trades,
    /// Price history (`/price-history`).
    PriceHistory,
    /// User profiles (`/profile/info`, `/profile/trades`).
    Profiles,
    /// Sports data: games, futures, awards (queried for `/list-games`,
    /// `/futures`, `/awards`; keys of team `platform_ids`).
    Sports,
}

impl Capability {
    pub const ALL: [Capability; 8] = [
        Self::Markets,
        Self::Events,
        Self::Series,
        Self::Orderbook,
        Self::Trades,
        Self::PriceHistory,
        Self::Profiles,
        Self::Sports,
    ];

    /// A short name, for display and error messages.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Markets => "markets",
            Self::Events => "events",
            Self::Series => "series",
            Self::Orderbook => "orderbook",
            Self::Trades => "trades",
            Self::PriceHistory => "price_history",
            Self::Profiles => "profiles",
            Self::Sports => "sports",
        }
    }
}

/// The capabilities of one platform.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlatformCapabilities {
    /// The platform's label in service.md.
    pub platform: &'static str,
    pub markets: bool,
    pub events: bool,
    pub series: bool,
    pub orderbook: bool,
    pub trades: bool,
    pub price_history: bool,
    pub profiles: bool,
    pub sports: bool,
}

impl PlatformCapabilities {
    pub fn has(&self, capability: Capability) -> bool {
        match capability {
            Capability::Markets => self.markets,
            Capability::Events => self.events,
            Capability::Series => self.series,
            Capability::Orderbook => self.orderbook,
            Capability::Trades => self.trades,
            Capability::PriceHistory => self.price_history,
            Capability::Profiles => self.profiles,
            Capability::Sports => self.sports,
        }
    }
}

const NONE: PlatformCapabilities = PlatformCapabilities {
    platform: "",
    markets: false,
    events: false,
    series: false,
    orderbook: false,
    trades: false,
    price_history: false,
    profiles: false,
    sports: false,
};

/// Every platform of service.md and what it serves. Sources: the label
/// table (markets by id: a to e; orderbook: a to d; series and events,
/// trades, profiles: a and b; sports: a, b, f, g, h) and
/// where-the-spec-is-silent.md (price history: a, b, c).
pub const PLATFORM_CAPABILITIES: &[PlatformCapabilities] = &[
    PlatformCapabilities {
        platform: "platform_a",
        markets: true,
        events: true,
        series: true,
        orderbook: true,
        trades: true,
        price_history: true,
        profiles: true,
        sports: true,
    },
    PlatformCapabilities {
        platform: "platform_b",
        markets: true,
        events: true,
        series: true,
        orderbook: true,
        trades: true,
        price_history: true,
        profiles: true,
        sports: true,
    },
    PlatformCapabilities {
        platform: "platform_c",
        markets: true,
        orderbook: true,
        price_history: true,
        ..NONE
    },
    PlatformCapabilities {
        platform: "platform_d",
        markets: true,
        orderbook: true,
        ..NONE
    },
    PlatformCapabilities {
        platform: "platform_e",
        markets: true,
        ..NONE
    },
    PlatformCapabilities {
        platform: "platform_f",
        sports: true,
        ..NONE
    },
    PlatformCapabilities {
        platform: "platform_g",
        sports: true,
        ..NONE
    },
    PlatformCapabilities {
        platform: "platform_h",
        sports: true,
        ..NONE
    },
];

/// The capabilities of `platform`, if it is one of the table.
pub fn capabilities_of(platform: &str) -> Option<&'static PlatformCapabilities> {
    PLATFORM_CAPABILITIES
        .iter()
        .find(|p| p.platform == platform)
}

/// The platforms that have `capability`, in the table's order.
pub fn platforms_with(capability: Capability) -> impl Iterator<Item = PlatformId> {
    PLATFORM_CAPABILITIES
        .iter()
        .filter(move |p| p.has(capability))
        .map(|p| PlatformId::from(p.platform))
}

/// Whether `platform` is in the table and has `capability`.
pub fn supports(platform: &str, capability: Capability) -> bool {
    capabilities_of(platform).is_some_and(|p| p.has(capability))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_matches_the_spec() {
        let names = |c| {
            platforms_with(c)
                .map(|p| p.as_str().to_owned())
                .collect::<Vec<_>>()
        };
        assert_eq!(names(Capability::Series), ["platform_a", "platform_b"]);
        assert_eq!(names(Capability::Events), ["platform_a", "platform_b"]);
        assert_eq!(names(Capability::Markets).len(), 5);
        assert_eq!(
            names(Capability::Orderbook),
            ["platform_a", "platform_b", "platform_c", "platform_d"]
        );
        assert_eq!(names(Capability::Trades), ["platform_a", "platform_b"]);
        assert_eq!(
            names(Capability::PriceHistory),
            ["platform_a", "platform_b", "platform_c"]
        );
        assert_eq!(names(Capability::Profiles), ["platform_a", "platform_b"]);
        assert_eq!(
            names(Capability::Sports),
            [
                "platform_a",
                "platform_b",
                "platform_f",
                "platform_g",
                "platform_h"
            ]
        );
        assert!(supports("platform_c", Capability::Orderbook));
        assert!(!supports("platform_e", Capability::Orderbook));
        assert!(!supports("polymarket", Capability::Markets));
        // Every platform label of the models is in the table.
        for label in crate::models::PlatformId::KNOWN {
            assert!(capabilities_of(label).is_some(), "{label}");
        }
    }
}
