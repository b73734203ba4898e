//! Users of platform_a and platform_b: profiles, their trades and metrics.
//! The trades of a user are derived from the user's seed over the served
//! markets of the platform, at prices on those markets' price paths; the
//! metrics are computed from those trades, so they agree.

use super::catalog::{Catalog, State};
use super::options::Options;
use super::prices::{HOUR, Path};
use super::rng::{Rng, round};
use super::text;
use super::time::iso8601;
use predmarket_core::models::{Profile, ProfileMetrics, ProfileTrade, TradeSide, TradeUser};
use serde_json::json;
use std::collections::{BTreeMap, HashMap, HashSet};

const DAY: i64 = 86_400;
const ADJECTIVES: &[&str] = &[
    "Quiet", "Lucky", "Bold", "Rapid", "Silent", "Golden", "Clever", "Brave", "Calm", "Wild",
];
const NOUNS: &[&str] = &[
    "Harbor", "Falcon", "Comet", "Maple", "River", "Summit", "Ember", "Otter", "Cedar", "Prism",
];

pub struct User {
    pub platform: u8,
    pub user_id: String,
    pub display_name: String,
    pub pseudonym: String,
    pub profile_image: String,
    pub joined_at: i64,
    pub seed: u64,
}

pub struct Profiles {
    /// Users of platform_a (0) and platform_b (1).
    pub users: [Vec<User>; 2],
    /// Lower-case user id or display name → (platform, index).
    index: HashMap<String, (u8, u32)>,
    /// Served market indexes of platform_a and platform_b.
    markets: [Vec<u32>; 2],
}

pub fn generate(options: &Options, catalog: &Catalog) -> Profiles {
    let per_platform = (150.0 * options.scale).round().clamp(50.0, 5_000.0) as usize;
    let mut users: [Vec<User>; 2] = [Vec::new(), Vec::new()];
    let mut index = HashMap::new();
    for (platform, list) in users.iter_mut().enumerate() {
        let mut taken = HashSet::new();
        for i in 0..per_platform {
            let mut rng = Rng::of(options.seed, "user", (platform * 1_000_000 + i) as u64);
            let person = text::person(&mut rng);
            let pseudonym = format!("{}-{}", rng.pick(ADJECTIVES), rng.pick(NOUNS));
            let user_id = if platform == 0 {
                format!("0x{}", rng.hex(40))
            } else {
                format!("u_{}", rng.hex(12))
            };
            let mut display_name = if platform == 0 {
                pseudonym.clone()
            } else {
                format!(
                    "{}{}",
                    person.to_ascii_lowercase().replace(' ', "_"),
                    rng.range(1, 100)
                )
            };
            if !taken.insert(display_name.to_lowercase()) {
                display_name = format!("{display_name}-{i}");
                taken.insert(display_name.to_lowercase());
            }
            if options.hostile {
                display_name = text::hostile(&display_name, i as u64);
            }
            let user = User {
                platform: platform as u8,
                profile_image: format!("https://avatars.example/{user_id}.png"),
                joined_at: options.as_of - rng.range(20, 1_500) as i64 * DAY,
                seed: rng.next_u64(),
                user_id,
                display_name,
                pseudonym,
            };
            index.insert(user.user_id.to_lowercase(), (platform as u8, i as u32));
            index
                .entry(user.display_name.to_lowercase())
                .or_insert((platform as u8, i as u32));
            list.push(user);
        }
    }
    let mut markets: [Vec<u32>; 2] = [Vec::new(), Vec::new()];
    for (i, m) in catalog.markets.iter().enumerate() {
        if !m.mve && m.platform < 2 {
            markets[m.platform as usize].push(i as u32);
        }
    }
    Profiles {
        users,
        index,
        markets,
    }
}

impl Profiles {
    /// A user of `platform` (0 or 1) by id or display name, any case.
    pub fn find(&self, platform: u8, user: &str) -> Option<&User> {
        let &(p, i) = self.index.get(&user.trim().to_lowercase())?;
        (p == platform).then(|| &self.users[p as usize][i as usize])
    }

    /// The `TradeUser` of market trades: user `n` of the platform's pool.
    pub fn trade_user(&self, platform: u8, n: u32) -> Option<TradeUser> {
        let user = self.users.get(platform as usize)?.get(n as usize)?;
        Some(TradeUser {
            name: Some(user.display_name.clone()),
            pseudonym: Some(user.pseudonym.clone()),
            profile_image: Some(user.profile_image.clone()),
            ..Default::default()
        })
    }

    pub fn pool_size(&self, platform: u8) -> u32 {
        self.users
            .get(platform as usize)
            .map_or(0, |u| u.len() as u32)
    }

    pub fn profile(&self, user: &User) -> Profile {
        let mut rng = Rng::of(user.seed, "profile", 0);
        let followers = rng.log_normal(40.0, 1.5).round();
        Profile {
            user_id: Some(user.user_id.clone()),
            display_name: Some(user.display_name.clone()),
            profile_image: Some(user.profile_image.clone()),
            description: Some(format!(
                "Trading since {}. Mostly {}.",
                &iso8601(user.joined_at)[..4],
                rng.pick(&["politics", "crypto", "economics", "culture", "weather"])
            )),
            joined_at: Some(iso8601(user.joined_at)),
            follower_count: Some(followers),
            following_count: Some(rng.log_normal(25.0, 1.0).round()),
            profile_view_count: Some((followers * rng.between(5.0, 40.0)).round()),
            metadata: Some(BTreeMap::from([
                ("pseudonym".to_owned(), json!(user.pseudonym)),
                ("verified".to_owned(), json!(rng.chance(0.1))),
            ])),
            ..Default::default()
        }
    }

    /// The user's trades, newest first.
    pub fn trades(
        &self,
        user: &User,
        catalog: &Catalog,
        seed: u64,
        as_of: i64,
    ) -> Vec<ProfileTrade> {
        let markets = &self.markets[user.platform as usize];
        if markets.is_empty() {
            return Vec::new();
        }
        let mut rng = Rng::of(user.seed, "trades", 0);
        let count = rng.range(15, 240) as usize;
        let favourites: Vec<u32> = (0..rng.range(3, 30)).map(|_| *rng.pick(markets)).collect();
        let mut t = as_of - rng.range(60, 6 * 3_600) as i64;
        let mut out = Vec::with_capacity(count);
        for n in 0..count {
            let row = &catalog.markets[*rng.pick(&favourites) as usize];
            let active_until = row.last_active(as_of);
            let at = t.min(active_until - 60);
            let hours = ((active_until - at) / HOUR + 2).max(2);
            let market_seed = row.seed(seed);
            let path = Path::hours(
                market_seed,
                row.quote,
                active_until,
                f64::from(row.volatility),
                hours,
            );
            let yes_price = round((path.at(at) / 0.01).round() * 0.01, 2).clamp(0.01, 0.99);
            let yes = rng.chance(0.65);
            let price = if yes {
                yes_price
            } else {
                round(1.0 - yes_price, 2)
            };
            let buy = rng.chance(0.6);
            let size = round(rng.log_normal(80.0, 1.1).max(1.0), 0);
            let hash = format!("0x{}", rng.hex(64));
            out.push(ProfileTrade {
                trade_id: format!("{}-{}", &user.user_id[..10.min(user.user_id.len())], n),
                market_id: Some(row.id.to_string()),
                ticker: Some(row.id.to_string()),
                title: Some(row.title.to_string()),
                side: Some(if buy { TradeSide::Buy } else { TradeSide::Sell }),
                outcome: Some(if yes { "Yes" } else { "No" }.to_owned()),
                price: Some(price),
                size: Some(size),
                timestamp: Some(at as f64),
                transaction_hash: Some(hash),
                metadata: Some(BTreeMap::from([
                    (
                        "market_status".to_owned(),
                        json!(if row.state == State::Open {
                            "open"
                        } else {
                            "closed"
                        }),
                    ),
                    ("notional".to_owned(), json!(round(price * size, 2))),
                ])),
                ..Default::default()
            });
            t -= rng.range(600, 3 * DAY as u64) as i64;
        }
        out.sort_by(|a, b| {
            b.timestamp
                .unwrap_or(0.0)
                .total_cmp(&a.timestamp.unwrap_or(0.0))
                .then_with(|| a.trade_id.cmp(&b.trade_id))
        });
        out
    }

    /// Metrics computed from the user's trades.
    pub fn metrics(&self, user: &User, trades: &[ProfileTrade]) -> ProfileMetrics {
        let mut rng = Rng::of(user.seed, "metrics", 0);
        let volume: f64 = trades
            .iter()
            .map(|t| t.price.unwrap_or(0.0) * t.size.unwrap_or(0.0))
            .sum();
        let markets: HashSet<&str> = trades
            .iter()
            .filter_map(|t| t.market_id.as_deref())
            .collect();
        let roi = rng.between(-0.35, 0.45);
        let pnl = volume * roi;
        let open_interest = volume * rng.between(0.05, 0.4);
        ProfileMetrics {
            volume: Some(round(volume, 2)),
            pnl: Some(round(pnl, 2)),
            num_markets_traded: Some(markets.len() as f64),
            roi: Some(round(roi, 4)),
            portfolio_value: Some(round(open_interest + pnl.max(0.0), 2)),
            open_interest: Some(round(open_interest, 2)),
        }
    }
}
