//! `GET /events` and `GET /events/{id}` (see `group.rs`).

use super::checks::EVENTS_MAX_LIMIT;
use crate::models::{Event, EventsResponse};

group_requests! {
    /// `GET /events/{id}`.
    get GetEvent "GetEventParams";
    /// `GET /events`. The spec names `limit`, `cursor` and `platform`;
    /// `query`, `series_id`, `include_raw` and `include_nested` are this
    /// project's choice, mirroring `GET /series` and `GET /events/{id}`.
    list ListEvents "ListEventsParams" => EventsResponse { events: Event }, max EVENTS_MAX_LIMIT;
    /// Words that must all occur in the title.
    query;
    /// Include each event's markets.
    include_nested;
    /// Only the events of one series.
    series_id,
    /// Only the events of one category (e.g. Politics), as markets filter.
    category,
}
