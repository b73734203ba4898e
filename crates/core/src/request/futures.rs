//! `GET /futures/{id}` and `GET /list-futures` (see `outright.rs`).

use crate::models::{Future, FutureResponse, FutureType, ListFuturesResponse};

outright_requests! {
    /// `GET /futures/{id}`.
    get GetFuture "GetFutureParams" => FutureResponse,
    /// `GET /list-futures`. Pages by offset; `limit` is capped at 25 (the
    /// pagination guide's range; the spec gives no maximum here).
    list ListFutures "ListFuturesParams" => ListFuturesResponse { futures: Future },
    kind future_type: FutureType, "One future type (championship, division, conference, ...)."
}
