//! The one shape of futures and awards (service.md, "Future", "Award"): an
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

/// Declares one board resource: its item, the market of one platform, its
/// quotes, and the envelopes of its by-id and list operations. `$team_key`
/// says whether a quote's team identifies it across platforms.
macro_rules! board {
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
        #[derive(Debug, Clone, PartialEq, ::serde::Serialize, ::serde::Deserialize)]
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
        }

        $(#[$market_doc])*
        #[::predmarket_model_derive::model]
        #[derive(Debug, Clone, Default, PartialEq, ::serde::Serialize, ::serde::Deserialize)]
        pub struct $market {
            #[model(ts = "PlatformId")]
            pub platform: Option<$crate::models::PlatformId>,
            pub market_id: Option<String>,
            pub $quotes: Option<Vec<$quote>>,
        }

        $(#[$quote_doc])*
        #[::predmarket_model_derive::model]
        #[derive(Debug, Clone, Default, PartialEq, ::serde::Serialize, ::serde::Deserialize)]
        pub struct $quote {
            $(#[$label_doc])*
            pub $label: Option<String>,
            pub odds: Option<$crate::models::Odds>,
            /// The team's `service_id`; the public service spells it
            /// `team_polyrouter_id`, accepted as an alias.
            #[model(also = "team_polyrouter_id")]
            pub team_service_id: Option<String>,
            pub volume_24h: Option<f64>,
            pub last_trade_price: Option<f64>,
            #[model(ts = "Record<string, unknown>")]
            pub metadata: Option<::std::collections::BTreeMap<String, ::serde_json::Value>>,
        }

        impl $crate::models::Priced for $quote {
            fn label(&self) -> Option<&str> {
                self.$label.as_deref()
            }
            fn team(&self) -> Option<&str> {
                if $team_key {
                    self.team_service_id.as_deref()
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
        #[derive(Debug, Clone, PartialEq, ::serde::Serialize, ::serde::Deserialize)]
        pub struct $response {
            pub data: $item,
            pub meta: Option<$crate::models::SportsMeta>,
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
