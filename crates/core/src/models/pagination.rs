//! The two paging models of the service: cursor (markets, events, series,
//! trades, games, profile trades) and offset (list-futures, list-awards).

use predmarket_model_derive::model;
use serde::{Deserialize, Serialize};

/// Cursor pagination: continue while `has_more` and `next_cursor` is not null.
#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Pagination {
    #[model(integer)]
    pub total: Option<f64>,
    #[model(integer)]
    pub limit: Option<f64>,
    pub has_more: Option<bool>,
    /// Opaque; null when there is no further page. Always serialized (as
    /// `null` when absent) because the spec lists it as "string or null".
    #[model(always)]
    pub next_cursor: Option<String>,
}

impl Pagination {
    /// The cursor of the next page: a non-empty `next_cursor`, unless
    /// `has_more` is false. (An absent `has_more` with a cursor is read as
    /// "more": the pager's loop guard bounds the cost of being wrong.)
    pub fn next(&self) -> Option<&str> {
        if self.has_more == Some(false) {
            return None;
        }
        self.next_cursor.as_deref().filter(|c| !c.is_empty())
    }
}

/// Offset pagination (list-futures, list-awards).
#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct OffsetPagination {
    #[model(integer)]
    pub total: Option<f64>,
    #[model(integer)]
    pub limit: Option<f64>,
    #[model(integer)]
    pub offset: Option<f64>,
    pub has_more: Option<bool>,
    /// Null when there is no further page.
    #[model(integer)]
    #[model(always)]
    pub next_offset: Option<f64>,
}

impl OffsetPagination {
    /// The offset of the next page: `next_offset` when `has_more` is not
    /// false; a negative or fractional offset is treated as none.
    pub fn next(&self) -> Option<u64> {
        if self.has_more == Some(false) {
            return None;
        }
        match self.next_offset {
            Some(n) if n.is_finite() && n >= 0.0 && n.fract() == 0.0 => Some(n as u64),
            _ => None,
        }
    }
}
