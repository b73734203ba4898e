//! The local data the server serves, generated deterministically from a
//! seed and a scale: the same options give the same data, byte for byte.

pub mod catalog;
pub mod leagues;
pub mod names;
pub mod odds;
pub mod options;
pub mod platforms;
pub mod prices;
pub mod profiles;
pub mod rng;
pub mod search;
pub mod sports;
pub mod text;
pub mod themes;
pub mod time;
pub mod venues;

use catalog::{Catalog, MarketRow, State};
pub use options::Options;

/// Sort keys of the market listing: the core's `MarketSort` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MarketSort {
    Volume24h,
    Volume7d,
    VolumeTotal,
    Liquidity,
    OpenInterest,
    CreatedAt,
    TradingEndAt,
}

impl MarketSort {
    pub const ALL: [MarketSort; 7] = [
        Self::Volume24h,
        Self::Volume7d,
        Self::VolumeTotal,
        Self::Liquidity,
        Self::OpenInterest,
        Self::CreatedAt,
        Self::TradingEndAt,
    ];

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.as_str() == name)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Volume24h => "volume_24h",
            Self::Volume7d => "volume_7d",
            Self::VolumeTotal => "volume_total",
            Self::Liquidity => "liquidity",
            Self::OpenInterest => "open_interest",
            Self::CreatedAt => "created_at",
            Self::TradingEndAt => "trading_end_at",
        }
    }

    fn key(self, row: &MarketRow) -> f64 {
        match self {
            Self::Volume24h => row.volume_24h,
            Self::Volume7d => row.volume_7d,
            Self::VolumeTotal => row.volume_total,
            Self::Liquidity => row.liquidity,
            Self::OpenInterest => row.open_interest,
            Self::CreatedAt => row.created_at as f64,
            Self::TradingEndAt => row.end_at as f64,
        }
    }
}

pub struct Dataset {
    pub options: Options,
    pub catalog: Catalog,
    pub sports: sports::Sports,
    pub profiles: profiles::Profiles,
    /// Served markets (MVE excluded), in descending order of each sort key.
    orders: Vec<Vec<u32>>,
    /// Position of each market in each of `orders` (MVE: `u32::MAX`).
    ranks: Vec<Vec<u32>>,
    /// Titles of all markets, for `query`.
    titles: search::TextIndex,
    /// Served markets per (platform or any, state or any).
    counts: [[u32; 4]; 6],
    /// `data_freshness` of every answer (the data does not change).
    freshness: String,
    /// The known answers of the cross-platform pairs (never served).
    venue_labels: Vec<venues::Label>,
}

impl Dataset {
    pub fn generate(options: &Options) -> Self {
        let mut catalog = catalog::generate(options);
        let venue_labels = venues::generate(options, &mut catalog);
        let sports = sports::generate(options);
        let profiles = profiles::generate(options, &catalog);
        let visible: Vec<u32> = (0..catalog.markets.len() as u32)
            .filter(|&i| !catalog.markets[i as usize].mve)
            .collect();
        let m = &catalog.markets;
        let orders: Vec<Vec<u32>> = std::thread::scope(|scope| {
            let handles: Vec<_> = MarketSort::ALL
                .iter()
                .map(|sort| {
                    let visible = &visible;
                    scope.spawn(move || {
                        let mut order = visible.clone();
                        // Descending, ties by position so every walk is stable.
                        order.sort_by(|&a, &b| {
                            sort.key(&m[b as usize])
                                .total_cmp(&sort.key(&m[a as usize]))
                                .then(a.cmp(&b))
                        });
                        order
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect()
        });
        let ranks = orders
            .iter()
            .map(|order: &Vec<u32>| {
                let mut rank = vec![u32::MAX; m.len()];
                for (position, &i) in order.iter().enumerate() {
                    rank[i as usize] = position as u32;
                }
                rank
            })
            .collect();
        let titles = search::TextIndex::new(m.iter().map(|r| r.title.as_ref()));
        let mut counts = [[0u32; 4]; 6];
        for &i in &visible {
            let row = &m[i as usize];
            let s = 1 + row.state as usize;
            let p = 1 + row.platform as usize;
            for (pp, ss) in [(0, 0), (0, s), (p, 0), (p, s)] {
                counts[pp][ss] += 1;
            }
        }
        Self {
            options: options.clone(),
            catalog,
            sports,
            profiles,
            orders,
            ranks,
            titles,
            counts,
            freshness: time::iso8601(options.as_of - 60),
            venue_labels,
        }
    }

    pub fn as_of(&self) -> i64 {
        self.options.as_of
    }

    /// The served markets in `sort` order (descending).
    pub fn market_order(&self, sort: MarketSort) -> &[u32] {
        &self.orders[sort as usize]
    }

    /// Position of every market in `sort` order (`u32::MAX` for those never
    /// served).
    pub fn market_ranks(&self, sort: MarketSort) -> &[u32] {
        &self.ranks[sort as usize]
    }

    /// Markets (MVE included) whose title holds every word, ascending.
    pub fn markets_titled(&self, words: &search::Words) -> Vec<u32> {
        self.titles.rows(words)
    }

    /// Served markets on `platform` (index) in `state`, each optional.
    pub fn market_count(&self, platform: Option<u8>, state: Option<State>) -> u32 {
        let p = platform.map_or(0, |p| 1 + p as usize);
        let s = state.map_or(0, |s| 1 + s as usize);
        self.counts[p][s]
    }

    /// A served market by id.
    pub fn market(&self, id: &str) -> Option<&MarketRow> {
        self.catalog
            .market_index
            .get(id)
            .map(|&i| &self.catalog.markets[i as usize])
    }

    /// Ids of platform_b's multivariate markets, which are never served
    /// (for tests of that exclusion).
    pub fn mve_market_ids(&self) -> Vec<String> {
        self.catalog
            .markets
            .iter()
            .filter(|m| m.mve)
            .map(|m| m.id.to_string())
            .collect()
    }

    /// The known answers of the labelled cross-platform pairs: for tests
    /// of the equivalence classifier, which must not see them.
    pub fn venue_labels(&self) -> &[venues::Label] {
        &self.venue_labels
    }

    /// The data's freshness stamp (ISO 8601).
    pub fn freshness(&self) -> &str {
        &self.freshness
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_are_the_cores() {
        let names: Vec<&str> = MarketSort::ALL.iter().map(|s| s.as_str()).collect();
        assert_eq!(names, predmarket_core::models::MarketSort::KNOWN);
    }
}
