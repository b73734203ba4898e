//! Events and series are two groups of markets under a platform, listed and
//! read by id with the same parameters. `group_requests!` declares both
//! pairs from one text (`events.rs`, `series.rs` only name what differs,
//! such as the `series_id` filter of events).

/// `group_requests!(get GetSeries "GetSeriesParams";
/// list ListSeries "ListSeriesParams" => SeriesResponse { series: Series },
/// max SERIES_MAX_LIMIT; extra list fields)`: the request types (named as
/// their entries of the operation table) and their JS parameter types.
macro_rules! group_requests {
    (
        $(#[$get_doc:meta])*
        get $get:ident $get_ts:literal;
        $(#[$list_doc:meta])*
        list $list:ident $list_ts:literal => $response:ty { $items:ident: $item:ty }, max $max:expr;
        $(#[$query_doc:meta])* query;
        $(#[$nested_doc:meta])* include_nested;
        $($(#[$extra_doc:meta])* $extra:ident,)*
    ) => {
        $(#[$get_doc])*
        #[serde_with::skip_serializing_none]
        #[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize, predmarket_model_derive::Params)]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        #[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
        #[cfg_attr(feature = "tsify", tsify(rename = $get_ts))]
        pub struct $get {
            /// The id (path).
            pub id: String,
            /// Must be the item's own platform (else not found).
            pub platform: Option<$crate::models::PlatformId>,
            /// The platform's own record of each market.
            #[serde(default, deserialize_with = "crate::request::wire::flag")]
            pub include_raw: Option<bool>,
            $(#[$nested_doc])*
            #[serde(default, deserialize_with = "crate::request::wire::flag")]
            pub include_nested: Option<bool>,
        }

        by_id!($get => $response, |r| $crate::request::checks::one_value("platform", &r.platform));

        $(#[$list_doc])*
        #[serde_with::skip_serializing_none]
        #[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize, predmarket_model_derive::Params)]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        #[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
        #[cfg_attr(feature = "tsify", tsify(rename = $list_ts))]
        pub struct $list {
            /// Page size; capped at 25.
            #[serde(default, deserialize_with = "crate::request::wire::whole")]
            #[cfg_attr(feature = "schema", schemars(range(min = 1)))]
            pub limit: Option<u32>,
            /// `next_cursor` of the previous page.
            pub cursor: Option<String>,
            /// `next_offset` of the previous page, where a service pages
            /// this list by offset (the public service's older pages);
            /// `cursor` wins when both are sent.
            #[serde(default, deserialize_with = "crate::request::wire::whole")]
            pub offset: Option<u64>,
            /// One platform id.
            pub platform: Option<$crate::models::PlatformId>,
            $(#[$query_doc])*
            pub query: Option<String>,
            $($(#[$extra_doc])* pub $extra: Option<String>,)*
            /// The platform's own record of each market.
            #[serde(default, deserialize_with = "crate::request::wire::flag")]
            pub include_raw: Option<bool>,
            $(#[$nested_doc])*
            #[serde(default, deserialize_with = "crate::request::wire::flag")]
            pub include_nested: Option<bool>,
        }

        impl $crate::request::Request for $list {
            const OP: $crate::request::Operation = $crate::request::Operation::$list;
            type Response = $response;
            fn checked(&self) -> Result<Self, $crate::error::Error> {
                use $crate::request::checks;
                let mut r = self.clone();
                checks::limit(&mut r.limit, $max)?;
                checks::cursor(&mut r.cursor);
                checks::one_value("platform", &r.platform)?;
                checks::text(&mut r.query);
                $(checks::text(&mut r.$extra);)*
                Ok(r)
            }
        }

        paged!(cursor $list => $item, |r| r.$items, r.pagination.as_ref());
    };
}
