//! Futures and awards are the two outright markets (long-term markets on
//! a league and season), of one shape: a by-id request and an
//! offset-paged list per league with a kind filter. `outright_requests!`
//! declares both pairs from one text, so a parameter added here reaches
//! both operations (`futures.rs`, `awards.rs` only name what differs).

use super::checks::{self, LIST_MAX_LIMIT};
use crate::error::Error;
use crate::models::{League, OddsFormat, PlatformId};

/// The checks of a by-id outright request.
pub(crate) fn check_item(
    platform: &Option<PlatformId>,
    odds_format: &Option<OddsFormat>,
) -> Result<(), Error> {
    checks::one_value("platform", platform)?;
    checks::one_value("odds_format", odds_format)
}

/// The checks of an outright list (`kind` is `future_type` or `award_type`).
pub(crate) fn check_list<T: AsRef<str>>(
    league: &League,
    kind: (&str, &Option<T>),
    season: Option<u32>,
    limit: &mut Option<u32>,
    offset: &mut Option<u64>,
) -> Result<(), Error> {
    checks::required_value("league", league.as_str())?;
    checks::one_value(kind.0, kind.1)?;
    checks::season(season)?;
    checks::limit(limit, LIST_MAX_LIMIT)?;
    if *offset == Some(0) {
        *offset = None;
    }
    Ok(())
}

/// `outright_requests!(get GetFuture "GetFutureParams" => FutureResponse,
/// list ListFutures "ListFuturesParams" => ListFuturesResponse { futures:
/// Future }, kind future_type: FutureType, "doc")`: the request types
/// (named as their entries of the operation table), their JS parameter
/// type names and answers.
macro_rules! outright_requests {
    (
        $(#[$get_doc:meta])*
        get $get:ident $get_ts:literal => $get_response:ty,
        $(#[$list_doc:meta])*
        list $list:ident $list_ts:literal => $list_response:ty
            { $items:ident: $item:ty },
        kind $kind:ident: $kind_type:ty, $kind_doc:literal
    ) => {
        $(#[$get_doc])*
        #[serde_with::skip_serializing_none]
        #[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize, predmarket_model_derive::Params)]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        #[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
        #[cfg_attr(feature = "tsify", tsify(rename = $get_ts))]
        pub struct $get {
            /// Like `<league>_<name>_<season>` (path).
            pub id: String,
            /// Only this platform's quotes.
            pub platform: Option<$crate::models::PlatformId>,
            /// american, decimal or probability.
            pub odds_format: Option<$crate::models::OddsFormat>,
        }

        by_id!($get => $get_response, |r| $crate::request::outright::check_item(&r.platform, &r.odds_format));

        $(#[$list_doc])*
        #[serde_with::skip_serializing_none]
        #[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize, predmarket_model_derive::Params)]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        #[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
        #[cfg_attr(feature = "tsify", tsify(rename = $list_ts))]
        pub struct $list {
            /// One league id.
            pub league: $crate::models::League,
            #[doc = $kind_doc]
            pub $kind: Option<$kind_type>,
            /// A year from 1900 to 2200.
            #[serde(default, deserialize_with = "crate::request::wire::whole")]
            #[cfg_attr(feature = "schema", schemars(range(min = 1900, max = 2200)))]
            pub season: Option<u32>,
            /// Only this platform's quotes.
            pub platform: Option<$crate::models::PlatformId>,
            /// american, decimal or probability.
            pub odds_format: Option<$crate::models::OddsFormat>,
            /// Page size; capped at 25.
            #[serde(default, deserialize_with = "crate::request::wire::whole")]
            #[cfg_attr(feature = "schema", schemars(range(min = 1)))]
            pub limit: Option<u32>,
            /// `next_offset` of the previous page.
            #[serde(default, deserialize_with = "crate::request::wire::whole")]
            pub offset: Option<u64>,
        }

        impl $list {
            pub fn new(league: $crate::models::League) -> Self {
                Self {
                    league,
                    ..Self::default()
                }
            }
        }

        impl $crate::request::Request for $list {
            const OP: $crate::request::Operation = $crate::request::Operation::$list;
            type Response = $list_response;
            fn checked(&self) -> Result<Self, $crate::error::Error> {
                let mut r = self.clone();
                $crate::request::outright::check_list(
                    &r.league,
                    (stringify!($kind), &r.$kind),
                    r.season,
                    &mut r.limit,
                    &mut r.offset,
                )?;
                $crate::request::outright::check_item(&r.platform, &r.odds_format)?;
                Ok(r)
            }
        }

        paged!(offset $list => $item, |r| r.data.$items, r.data.pagination.as_ref());
    };
}
