//! The `Paged` implementations of the list requests, one line each.

use super::PagePosition;
use crate::models::{OffsetPagination, Pagination};

/// The position a cursor parameter stands for (empty: the first page).
pub(crate) fn position_of_cursor(cursor: Option<&str>) -> Option<PagePosition> {
    cursor
        .filter(|c| !c.is_empty())
        .map(|c| PagePosition::Cursor(c.to_owned()))
}

/// The cursor to send for a page position (an offset has no cursor form).
pub(crate) fn cursor_of(position: Option<PagePosition>) -> Option<String> {
    match position {
        Some(PagePosition::Cursor(c)) => Some(c),
        _ => None,
    }
}

/// The next page of a cursor-paged list, per the rules of service.md: its
/// `next_cursor`, or, on the public service's older pages that page by
/// offset, its `next_offset`. No pagination object: the list ends.
pub(crate) fn next_cursor(pagination: Option<&Pagination>) -> Option<PagePosition> {
    pagination.and_then(Pagination::next_position)
}

pub(crate) fn position_of_offset(offset: Option<u64>) -> Option<PagePosition> {
    offset.filter(|o| *o > 0).map(PagePosition::Offset)
}

pub(crate) fn offset_of(position: Option<PagePosition>) -> Option<u64> {
    match position {
        Some(PagePosition::Offset(o)) => Some(o),
        _ => None,
    }
}

/// The next offset page. No pagination object (the public 2.0.0
/// list-futures and list-awards): the list ends.
pub(crate) fn next_offset(pagination: Option<&OffsetPagination>) -> Option<PagePosition> {
    pagination.and_then(|p| p.next()).map(PagePosition::Offset)
}

/// `paged!(cursor ListMarkets => Market, |r| r.markets, r.pagination.as_ref())`:
/// the request pages by `cursor` (or `offset`), its items are `r.markets`
/// and the pagination object is the last expression.
macro_rules! paged {
    (cursor $request:ty => $item:ty, |$r:ident| $items:expr, $pagination:expr) => {
        impl $crate::request::Paged for $request {
            const PAGING: $crate::request::Paging = $crate::request::Paging::Cursor;
            type Item = $item;
            fn position(&self) -> Option<$crate::request::PagePosition> {
                $crate::request::paging::position_of_cursor(self.cursor.as_deref())
                    .or_else(|| $crate::request::paging::position_of_offset(self.offset))
            }
            fn set_position(&mut self, position: Option<$crate::request::PagePosition>) {
                self.offset = $crate::request::paging::offset_of(position.clone());
                self.cursor = $crate::request::paging::cursor_of(position);
            }
            fn next_position($r: &Self::Response) -> Option<$crate::request::PagePosition> {
                $crate::request::paging::next_cursor($pagination)
            }
            fn items($r: &Self::Response) -> &[$item] {
                &$items
            }
            fn into_items($r: Self::Response) -> Vec<$item> {
                $items
            }
        }
    };
    (offset $request:ty => $item:ty, |$r:ident| $items:expr, $pagination:expr) => {
        impl $crate::request::Paged for $request {
            const PAGING: $crate::request::Paging = $crate::request::Paging::Offset;
            type Item = $item;
            fn position(&self) -> Option<$crate::request::PagePosition> {
                $crate::request::paging::position_of_offset(self.offset)
            }
            fn set_position(&mut self, position: Option<$crate::request::PagePosition>) {
                self.offset = $crate::request::paging::offset_of(position);
            }
            fn next_position($r: &Self::Response) -> Option<$crate::request::PagePosition> {
                $crate::request::paging::next_offset($pagination)
            }
            fn items($r: &Self::Response) -> &[$item] {
                &$items
            }
            fn into_items($r: Self::Response) -> Vec<$item> {
                $items
            }
        }
    };
}
