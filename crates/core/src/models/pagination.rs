//! The two paging models of the service: cursor (markets, events, series,
//! trades, games, profile trades) and offset (list-futures, list-awards,
//! and every list on the public service's older pages).

use predmarket_model_derive::model;
use serde::{Deserialize, Serialize};

/// Cursor pagination: continue while `has_more` and `next_cursor` is not
/// null. The public service's older pages send the offset model in the
/// same place (`{total, limit, offset, has_more, next_offset}`), so both
/// positions are read: a list continues on `next_offset` when it has no
/// `next_cursor` (see [`Pagination::next_position`]).
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
    /// Offset model (older pages): where this page starts.
    #[model(integer)]
    pub offset: Option<f64>,
    /// Offset model (older pages): where the next page starts; null at the
    /// end.
    #[model(integer)]
    pub next_offset: Option<f64>,
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

    /// The offset of the next page when the list pages by offset: a
    /// whole, non-negative `next_offset`, unless `has_more` is false or a
    /// cursor is given (a cursor wins).
    pub fn next_offset(&self) -> Option<u64> {
        if self.next().is_some() || self.has_more == Some(false) {
            return None;
        }
        whole(self.next_offset)
    }

    /// Where the next page starts, in either model: the cursor when there
    /// is one, else the offset; `None` at the end of the list.
    pub fn next_position(&self) -> Option<crate::request::PagePosition> {
        match self.next() {
            Some(cursor) => Some(crate::request::PagePosition::Cursor(cursor.to_owned())),
            None => self.next_offset().map(crate::request::PagePosition::Offset),
        }
    }
}

/// A page offset: a finite, whole, non-negative number.
fn whole(n: Option<f64>) -> Option<u64> {
    match n {
        Some(n) if n.is_finite() && n >= 0.0 && n.fract() == 0.0 => Some(n as u64),
        _ => None,
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
        whole(self.next_offset)
    }
}
