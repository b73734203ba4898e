//! The one shape of the outrights, futures and awards (service.md,
//! "Future", "Award"): an
//! item of a league and season with one market per platform, each market
//! a list of priced quotes, and the `{data, meta}` / `{data: {<items>,
//! pagination}, meta}` envelopes. Only the wire names differ
//! (`future_name` / `award_name`, `outcomes` / `candidates`,
//! `outcome_name` / `player_name`), and serde names are fixed per type, so
//! the shape is declared once here and each resource names its fields
//! (`future.rs`, `award.rs`) rather than sharing a generic type that would
//! need `#[serde(flatten)]` (which buffers every quote and gives JS an
//! intersection type). What reads quotes whatever their resource goes
//! through [`Priced`] and [`PricedMarket`].

use super::{Odds, PlatformId};

/// One priced outcome as the odds math reads it: a future's outcome, an
/// award's candidate, a game market's outcome.
pub trait Priced {
    /// The outcome's name as sent (`outcome_name`, `player_name`).
    fn label(&self) -> Option<&str>;
    /// The team's `service_id`, when the outcome is a team; `None` where
    /// the team does not identify the outcome (an award's candidates are
    /// players: two may share a team).
    fn team(&self) -> Option<&str>;
    fn odds(&self) -> Option<&Odds>;
    /// The price in 0..1, for outcomes that carry one besides odds.
    fn price(&self) -> Option<f64> {
        None
    }
}

/// One platform's market of priced outcomes.
pub trait PricedMarket {
    type Outcome: Priced;
    fn platform(&self) -> Option<&PlatformId>;
    fn market_id(&self) -> Option<&str>;
    fn outcomes(&self) -> &[Self::Outcome];
}

/// Declares one outright resource: its item, the market of one platform, its
/// quotes, and the envelopes of its by-id and list operations. `$team_key`
/// says whether a quote's team identifies it across platforms.
macro_rules! outright {
    (
        $(#[$item_doc:meta])*
        $item:ident {
            $(#[$name_doc:meta])* $name:ident,
            $kind:ident: $kind_ty:ident as $kind_ts:literal,
            metadata: $metadata:ident,
            $($(#[$extra_doc:meta])* $extra:ident: $extra_ty:ident as $extra_ts:literal,)*
        }
        $(#[$market_doc:meta])*
        $market:ident { $quotes:ident: $quote:ident }
        $(#[$quote_doc:meta])*
        quote { $(#[$label_doc:meta])* $label:ident, team_key: $team_key:literal }
        $(#[$response_doc:meta])*
        $response:ident,
        $(#[$page_doc:meta])*
        $page:ident { $items:ident: $items_key:literal },
        $(#[$list_doc:meta])*
        $list:ident,
    ) => {
        $(#[$item_doc])*
        #[::predmarket_model_derive::model]
        #[derive(Debug, Clone, Default, PartialEq, ::serde::Serialize, ::serde::Deserialize)]
        pub struct $item {
            pub id: String,
            $(#[$name_doc])*
            pub $name: Option<String>,
            #[model(ts = "League")]
            pub league: Option<$crate::models::League>,
            #[model(ts = $kind_ts)]
            pub $kind: Option<$kind_ty>,
            $(
                $(#[$extra_doc])*
                #[model(ts = $extra_ts)]
                pub $extra: Option<$extra_ty>,
            )*
            #[model(integer)]
            pub season: Option<f64>,
            pub markets: Option<Vec<$market>>,
            pub metadata: Option<$metadata>,
            /// The platforms that carry it, as the older list pages say
            /// (the list items have no `markets`).
            #[model(ts = "PlatformId[]")]
            pub platforms: Option<Vec<$crate::models::PlatformId>>,
            /// Platform → its id there, as the 2.0.0 list pages say.
            #[model(ts = "Record<string, unknown>")]
            pub platform_markets: Option<::std::collections::BTreeMap<String, ::serde_json::Value>>,
            /// Every other field, as sent.
            #[serde(flatten)]
            #[cfg_attr(feature = "schema", schemars(skip))]
            #[model(ts = "Record<string, unknown>")]
            pub extra: ::std::collections::BTreeMap<String, ::serde_json::Value>,
        }

        impl $item {
            /// The platforms that carry it: those of its markets, of
            /// `platforms` and of `platform_markets`, each once, in that
            /// order.
            pub fn platform_ids(&self) -> Vec<$crate::models::PlatformId> {
                let mut out: Vec<$crate::models::PlatformId> = Vec::new();
                let from_markets = self
                    .markets
                    .iter()
                    .flatten()
                    .filter_map(|m| m.platform.clone());
                let listed = self.platforms.iter().flatten().cloned();
                let keyed = self
                    .platform_markets
                    .iter()
                    .flat_map(|m| m.keys())
                    .map(|k| $crate::models::PlatformId::from(k.as_str()));
                for p in from_markets.chain(listed).chain(keyed) {
                    if !p.as_str().is_empty() && !out.contains(&p) {
                        out.push(p);
                    }
                }
                out
            }

            /// Another object with the same id (the older by-id pages send
            /// one per platform): its markets and platforms join these.
            fn merge(&mut self, other: Self) {
                if let Some(markets) = other.markets {
                    self.markets.get_or_insert_with(Vec::new).extend(markets);
                }
                if let Some(platforms) = other.platforms {
                    let mine = self.platforms.get_or_insert_with(Vec::new);
                    for p in platforms {
                        if !mine.contains(&p) {
                            mine.push(p);
                        }
                    }
                }
                if let Some(keyed) = other.platform_markets {
                    let mine = self.platform_markets.get_or_insert_with(Default::default);
                    for (k, v) in keyed {
                        mine.entry(k).or_insert(v);
                    }
                }
                for (k, v) in other.extra {
                    self.extra.entry(k).or_insert(v);
                }
            }
        }

        $(#[$market_doc])*
        #[::predmarket_model_derive::model]
        #[derive(Debug, Clone, Default, PartialEq, ::serde::Serialize, ::serde::Deserialize)]
        pub struct $market {
            #[model(ts = "PlatformId")]
            pub platform: Option<$crate::models::PlatformId>,
            pub market_id: Option<String>,
            pub $quotes: Option<Vec<$quote>>,
            /// Every other field, as sent.
            #[serde(flatten)]
            #[cfg_attr(feature = "schema", schemars(skip))]
            #[model(ts = "Record<string, unknown>")]
            pub extra: ::std::collections::BTreeMap<String, ::serde_json::Value>,
        }

        $(#[$quote_doc])*
        #[::predmarket_model_derive::model]
        #[derive(Debug, Clone, Default, PartialEq, ::serde::Serialize, ::serde::Deserialize)]
        pub struct $quote {
            $(#[$label_doc])*
            pub $label: Option<String>,
            pub odds: Option<$crate::models::Odds>,
            /// The team's `service_id` (see `team_id`).
            pub team_service_id: Option<String>,
            /// The team's id as the public service spells it.
            pub team_polyrouter_id: Option<String>,
            pub volume_24h: Option<f64>,
            pub last_trade_price: Option<f64>,
            #[model(ts = "Record<string, unknown>")]
            pub metadata: Option<::std::collections::BTreeMap<String, ::serde_json::Value>>,
            /// Every other field, as sent.
            #[serde(flatten)]
            #[cfg_attr(feature = "schema", schemars(skip))]
            #[model(ts = "Record<string, unknown>")]
            pub extra: ::std::collections::BTreeMap<String, ::serde_json::Value>,
        }

        impl $quote {
            /// The team's id, whichever spelling was sent.
            pub fn team_id(&self) -> Option<&str> {
                self.team_service_id
                    .as_deref()
                    .or(self.team_polyrouter_id.as_deref())
            }
        }

        impl $crate::models::Priced for $quote {
            fn label(&self) -> Option<&str> {
                self.$label.as_deref()
            }
            fn team(&self) -> Option<&str> {
                if $team_key {
                    self.team_id()
                } else {
                    None
                }
            }
            fn odds(&self) -> Option<&$crate::models::Odds> {
                self.odds.as_ref()
            }
        }

        impl $crate::models::PricedMarket for $market {
            type Outcome = $quote;
            fn platform(&self) -> Option<&$crate::models::PlatformId> {
                self.platform.as_ref()
            }
            fn market_id(&self) -> Option<&str> {
                self.market_id.as_deref()
            }
            fn outcomes(&self) -> &[$quote] {
                self.$quotes.as_deref().unwrap_or_default()
            }
        }

        $(#[$response_doc])*
        #[::predmarket_model_derive::model]
        #[derive(Debug, Clone, PartialEq, ::serde::Serialize)]
        pub struct $response {
            pub data: $item,
            pub meta: Option<$crate::models::SportsMeta>,
            /// Sent by the older pages' `{<items>: [...], pagination, meta}`.
            pub pagination: Option<$crate::models::OffsetPagination>,
        }

        /// `{data, meta}`, or the older pages' `{<items>: [item, …],
        /// pagination, meta}` whose objects with the first one's id are
        /// one item (one object per platform).
        impl<'de> ::serde::Deserialize<'de> for $response {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                use ::serde::de::Error;
                let by_id = $crate::models::by_id::ById::read(
                    <::serde_json::Value as ::serde::Deserialize>::deserialize(d)?,
                    $items_key,
                )
                .map_err(D::Error::custom)?;
                let mut items = by_id.items.into_iter();
                let first = items
                    .next()
                    .ok_or_else(|| D::Error::custom(concat!("no ", $items_key, " in the body")))?;
                let mut data = <$item as ::serde::Deserialize>::deserialize(first)
                    .map_err(D::Error::custom)?;
                for item in items {
                    if let Ok(other) = <$item as ::serde::Deserialize>::deserialize(item)
                        && other.id == data.id
                    {
                        data.merge(other);
                    }
                }
                Ok(Self {
                    data,
                    meta: $crate::models::list::Body::part(by_id.meta),
                    pagination: $crate::models::list::Body::part(by_id.pagination),
                })
            }
        }

        $(#[$page_doc])*
        #[::predmarket_model_derive::model]
        #[derive(Debug, Clone, PartialEq, ::serde::Serialize)]
        pub struct $page {
            pub $items: Vec<$item>,
            pub pagination: Option<$crate::models::OffsetPagination>,
            /// Items of the page that could not be read (the others are kept).
            #[serde(skip)]
            pub skipped: Vec<$crate::models::SkippedItem>,
        }

        list_response!($page {
            $items: [$items_key],
            pagination
        });

        $(#[$list_doc])*
        #[::predmarket_model_derive::model]
        #[derive(Debug, Clone, PartialEq, ::serde::Serialize)]
        pub struct $list {
            pub data: $page,
            pub meta: Option<$crate::models::SportsMeta>,
        }

        page_envelope!($list => $page);
    };
}
