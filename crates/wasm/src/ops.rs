//! Every operation of the JS client as data: its parameter table, where
//! its id goes when the caller passes the id alone, how its lists page, and
//! one function that turns read values into the checked HTTP request.
//!
//! Why: each exported method used to be generic over its request type, so
//! every method (and every pager) carried its own copy of reading,
//! checking, rendering and paging, most of the package's wasm. Now the
//! methods hand a descriptor to one function compiled once; what is left
//! per operation is [`build`], whose checks and rendering are the core
//! request's own (`R::from_values`, `Request::to_http`), so nothing here
//! restates a rule. How each list pages and where its items are come from
//! the core's operation table; [`op`] is an exhaustive `match` on it.

use predmarket_client::Error;
use predmarket_client::core::request::params::{Param, Value};
use predmarket_client::core::request::*;

/// Where a list's items are in a page and how it pages, as the core's
/// operation table declares: each item key is looked for inside `data`
/// first, then at the top level; the pagination object at the top level
/// first, then inside `data` (the public service wraps some lists in
/// `data` and not others; the core's response models read by this rule).
pub struct Layout {
    pub items: &'static [&'static str],
    /// Offset paging (`next_offset`) rather than cursor paging.
    pub offset: bool,
}

/// The places to look for the pagination object, in order.
pub const PAGINATION: &[&[&str]] = &[&["pagination"], &["data", "pagination"]];

/// Which page a request asks for.
pub enum At {
    /// As the caller's parameters say (a `cursor` or `offset` of theirs).
    Given,
    /// A page of a paging session (`None`: the first).
    Page(Option<PagePosition>),
}

/// A request ready to send, and where the caller's parameters start.
pub struct Built {
    pub http: HttpRequest,
    pub start: Option<PagePosition>,
}

pub struct Op {
    pub params: &'static [Param],
    /// The parameter the first argument fills when it is a string.
    pub id_key: Option<&'static str>,
    pub build: fn(Vec<Option<Value>>, At) -> Result<Built, Error>,
    /// Lists: how their pages are laid out.
    pub layout: Option<Layout>,
}

/// The request of an operation on one item or of a list without paging.
fn build<R: Request>(values: Vec<Option<Value>>, _: At) -> Result<Built, Error> {
    Ok(Built {
        http: R::from_values(values).to_http()?,
        start: None,
    })
}

/// The request of a list at a page.
fn build_page<R: Paged>(values: Vec<Option<Value>>, at: At) -> Result<Built, Error> {
    let mut request = R::from_values(values);
    let start = request.position();
    if let At::Page(position) = at {
        request.set_position(position);
    }
    Ok(Built {
        http: request.to_http()?,
        start,
    })
}

const fn one<R: Request>(id_key: Option<&'static str>) -> Op {
    Op {
        params: R::PARAMS,
        id_key,
        build: build::<R>,
        layout: None,
    }
}

const fn list<R: Paged>(id_key: Option<&'static str>) -> Op {
    Op {
        params: R::PARAMS,
        id_key,
        build: build_page::<R>,
        layout: Some(Layout {
            items: R::OP.items(),
            offset: matches!(R::PAGING, Paging::Offset),
        }),
    }
}

/// The descriptor of each operation, from the core's operation table: a
/// list pages by its `Paged` implementation, and a bare id fills the
/// table's `id` parameter.
macro_rules! descriptors {
    ($(
        $(#[$doc:meta])*
        $variant:ident($request:path) $method:ident $name:literal $path:literal $paging:ident [$($item:literal),*]
            pager[$($pager:tt)*] args($($args:tt)+) -> $answer:ident cache($fresh:literal, $revalidate:literal);
    )+) => {
        /// The descriptor of `operation`.
        pub fn op(operation: Operation) -> &'static Op {
            match operation {
                $(Operation::$variant => {
                    static OP: Op = descriptors!(@op $request, $paging, Operation::$variant.id_param());
                    &OP
                })+
            }
        }
    };
    (@op $request:path, single, $id:expr) => {
        one::<$request>($id)
    };
    (@op $request:path, $paging:ident, $id:expr) => {
        list::<$request>($id)
    };
}

predmarket_client::core::for_each_operation!(descriptors);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_page_by_the_tables_model() {
        for &operation in Operation::ALL {
            let op = op(operation);
            match (&op.layout, operation.paging()) {
                (Some(layout), Some(paging)) => {
                    assert_eq!(layout.offset, paging == Paging::Offset, "{operation}");
                    assert_eq!(layout.items, operation.items());
                    let key = if layout.offset { "offset" } else { "cursor" };
                    assert!(op.params.iter().any(|p| p.name == key), "{key}");
                }
                (None, None) => {}
                _ => panic!("{operation}: layout and paging disagree"),
            }
        }
    }

    #[test]
    fn a_page_replaces_the_callers_position() {
        let markets = op(Operation::ListMarkets);
        let values = |cursor: &str| {
            markets
                .params
                .iter()
                .map(|p| (p.name == "cursor").then(|| Value::Text(cursor.to_owned())))
                .collect::<Vec<_>>()
        };
        let given = (markets.build)(values("c1"), At::Given).unwrap();
        assert_eq!(given.http.get("cursor"), Some("c1"));
        assert_eq!(given.start, Some(PagePosition::Cursor("c1".to_owned())));
        let next = PagePosition::Cursor("c2".to_owned());
        let page = (markets.build)(values("c1"), At::Page(Some(next))).unwrap();
        assert_eq!(page.http.get("cursor"), Some("c2"));
        let first = (markets.build)(values("c1"), At::Page(None)).unwrap();
        assert_eq!(first.http.get("cursor"), None);
    }
}
