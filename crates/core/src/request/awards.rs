//! `GET /awards/{id}` and `GET /list-awards` (see `board.rs`).

use crate::models::{Award, AwardResponse, AwardType, ListAwardsResponse};

board_requests! {
    /// `GET /awards/{id}`.
    get GetAward "GetAwardParams" => AwardResponse,
    /// `GET /list-awards`. Pages by offset; `limit` capped at 25.
    list ListAwards "ListAwardsParams" => ListAwardsResponse { awards: Award },
    kind award_type: AwardType, "One award type (mvp, ...)."
}
