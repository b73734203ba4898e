//! `GET /series` and `GET /series/{id}` (see `group.rs`).

use super::checks::SERIES_MAX_LIMIT;
use crate::models::{Series, SeriesResponse};

group_requests! {
    /// `GET /series/{id}`.
    get GetSeries "GetSeriesParams";
    /// `GET /series`. `limit` is capped at [`SERIES_MAX_LIMIT`] (25; see
    /// there why not 100). With `query` the service runs in search mode.
    list ListSeries "ListSeriesParams" => SeriesResponse { series: Series }, max SERIES_MAX_LIMIT;
    /// Search mode: words in the series' text or its events' titles.
    query;
    /// Include each series' events (service default: false).
    include_nested;
}
