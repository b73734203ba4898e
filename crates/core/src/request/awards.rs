//! `GET /awards/{id}` and `GET /list-awards` (see `outright.rs`).

use crate::models::{Award, AwardResponse, AwardType, ListAwardsResponse};

outright_requests! {
    /// `GET /awards/{id}`.
    get GetAward "GetAwardParams" => AwardResponse,
    /// `GET /list-awards`. Pages by offset; `limit` capped at 25.
    list ListAwards "ListAwardsParams" => ListAwardsResponse { awards: Award },
    kind award_type: AwardType, "One award type (mvp, ...)."
}
