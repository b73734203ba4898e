//! Reading list bodies in every envelope the public service documents
//! (docs/spec/public-service-facts.md, "Envelopes"), keeping the rest
//! of a page when one item cannot be read.
//!
//! Each list response's `Deserialize` reads the body once as a JSON value,
//! then looks for its parts at the top level or inside `data`: `/trades`
//! sends `{trades, pagination, meta}` or `{data: {trades, pagination,
//! meta}, meta}`; `/list-games` `{data: {games, pagination}, meta}` or
//! `{games, pagination, meta}`; events lists sit under `events` or (older
//! pages) `markets`; a pagination object may be absent (the list then
//! ends). Serialization is the derived one: the server writes the spec's
//! shape.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

/// One list item that could not be read. The other items of the page are
/// kept; the page's `skipped` says how many were not and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkippedItem {
    /// Position in the list as sent (0-based).
    pub index: usize,
    /// What was wrong, with the path inside the item (`odds.decimal: …`).
    pub reason: String,
}

impl std::fmt::Display for SkippedItem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "item {}: {}", self.index, self.reason)
    }
}

/// A list response (or page) that reports the items it could not read.
pub trait Skipped {
    /// The items left out of this page, with why.
    fn skipped(&self) -> &[SkippedItem];
}

/// Decodes every element of `value` (an array) as `T`; those that fail are
/// reported, not fatal. Absent or `null`: no items. Anything else is not a
/// list: an error.
pub(crate) fn decode_items<T: DeserializeOwned>(
    value: Option<Value>,
) -> Result<(Vec<T>, Vec<SkippedItem>), String> {
    let items = match value {
        None | Some(Value::Null) => return Ok((Vec::new(), Vec::new())),
        Some(Value::Array(items)) => items,
        Some(other) => return Err(format!("expected a list, found {}", kind(&other))),
    };
    let mut out = Vec::with_capacity(items.len());
    let mut skipped = Vec::new();
    for (index, item) in items.into_iter().enumerate() {
        match decode_item::<T>(item) {
            Ok(v) => out.push(v),
            Err(reason) => skipped.push(SkippedItem { index, reason }),
        }
    }
    Ok((out, skipped))
}

/// One item, or why not, with the path inside it (`odds.decimal: …`).
#[cfg(feature = "item-paths")]
fn decode_item<T: DeserializeOwned>(item: Value) -> Result<T, String> {
    serde_path_to_error::deserialize::<_, T>(item).map_err(|e| {
        let path = e.path().to_string();
        if path == "." {
            e.inner().to_string()
        } else {
            format!("{path}: {}", e.inner())
        }
    })
}

/// One item, or why not (without the path: see the feature `item-paths`).
#[cfg(not(feature = "item-paths"))]
fn decode_item<T: DeserializeOwned>(item: Value) -> Result<T, String> {
    T::deserialize(item).map_err(|e| e.to_string())
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// A response body as an object, with `data` (when it is an object) as a
/// second place to look.
pub(crate) struct Body {
    top: Map<String, Value>,
    data: Map<String, Value>,
}

impl Body {
    pub(crate) fn new<E: serde::de::Error>(value: Value) -> Result<Self, E> {
        let Value::Object(mut top) = value else {
            return Err(E::custom(format!(
                "expected an object, found {}",
                kind(&value)
            )));
        };
        let data = match top.remove("data") {
            Some(Value::Object(data)) => data,
            Some(other) => {
                top.insert("data".to_owned(), other);
                Map::new()
            }
            None => Map::new(),
        };
        Ok(Self { top, data })
    }

    /// The first of `keys` found, inside `data` first, then at the top.
    pub(crate) fn take(&mut self, keys: &[&str]) -> Option<Value> {
        keys.iter().find_map(|k| {
            self.data
                .remove(*k)
                .filter(|v| !v.is_null())
                .or_else(|| self.top.remove(*k).filter(|v| !v.is_null()))
        })
    }

    /// The first of `keys` at the top first (e.g. the envelope's `meta`),
    /// then inside `data`.
    pub(crate) fn take_top(&mut self, keys: &[&str]) -> Option<Value> {
        keys.iter().find_map(|k| {
            self.top
                .remove(*k)
                .filter(|v| !v.is_null())
                .or_else(|| self.data.remove(*k).filter(|v| !v.is_null()))
        })
    }

    /// `key` from both places, merged: the public service's `{data:
    /// {trades, pagination, meta}, meta}` says the market in the inner
    /// `meta` and the time taken in the outer one. Keys of both are kept;
    /// where both say a key, the top level's value wins.
    pub(crate) fn take_merged(&mut self, key: &str) -> Option<Value> {
        let top = self.top.remove(key).filter(|v| !v.is_null());
        let inner = self.data.remove(key).filter(|v| !v.is_null());
        merge_objects(inner, top)
    }

    /// A part decoded as `T`; one that does not decode reads as absent
    /// (a list stays readable with a malformed `meta`).
    pub(crate) fn part<T: DeserializeOwned>(value: Option<Value>) -> Option<T> {
        value.and_then(|v| T::deserialize(v).ok())
    }

    /// The items under the first of `keys`; the list is required (a body
    /// without it is not this operation's).
    pub(crate) fn items<T: DeserializeOwned, E: serde::de::Error>(
        &mut self,
        keys: &[&str],
    ) -> Result<(Vec<T>, Vec<SkippedItem>), E> {
        let value = self.take(keys);
        if value.is_none() {
            return Err(E::custom(format!("no `{}` list in the body", keys[0])));
        }
        decode_items(value).map_err(E::custom)
    }
}

/// `outer` laid over `inner` when both are objects (the outer's values
/// win); otherwise whichever is present, the outer first.
pub(crate) fn merge_objects(inner: Option<Value>, outer: Option<Value>) -> Option<Value> {
    match (inner, outer) {
        (Some(Value::Object(mut inner)), Some(Value::Object(outer))) => {
            inner.extend(outer);
            Some(Value::Object(inner))
        }
        (inner, outer) => outer.or(inner),
    }
}

/// `Deserialize` of a list response whose parts may sit at the top level
/// or inside `data`:
/// `list_response!(MarketsResponse { markets: ["markets"], pagination, meta })`.
macro_rules! list_response {
    ($ty:ident { $items:ident: [$($key:literal),+] $(, $part:ident)* }) => {
        impl<'de> ::serde::Deserialize<'de> for $ty {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                use $crate::models::list::Body;
                let mut body = Body::new(<::serde_json::Value as ::serde::Deserialize>::deserialize(d)?)?;
                let ($items, skipped) = body.items(&[$($key),+])?;
                Ok(Self {
                    $items,
                    $($part: Body::part(body.take_merged(stringify!($part))),)*
                    skipped,
                })
            }
        }

        impl $crate::models::Skipped for $ty {
            fn skipped(&self) -> &[$crate::models::SkippedItem] {
                &self.skipped
            }
        }
    };
}

/// `Deserialize` of a `{data: Page, meta}` response whose page may also sit
/// at the top level (`{games, pagination, meta}`): the envelope's `meta` is
/// taken first (merged with a `meta` inside `data`, where the older pages
/// put `data_freshness`), the page's parts are then found inside `data` or
/// at the top.
macro_rules! page_envelope {
    ($ty:ident => $page:ident) => {
        impl<'de> ::serde::Deserialize<'de> for $ty {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let mut value = <::serde_json::Value as ::serde::Deserialize>::deserialize(d)?;
                let outer = value.as_object_mut().and_then(|o| o.remove("meta"));
                let inner = value
                    .get_mut("data")
                    .and_then(::serde_json::Value::as_object_mut)
                    .and_then(|o| o.remove("meta"));
                let meta = $crate::models::list::merge_objects(inner, outer);
                Ok(Self {
                    data: <$page as ::serde::Deserialize>::deserialize(value)
                        .map_err(<D::Error as ::serde::de::Error>::custom)?,
                    meta: $crate::models::list::Body::part(meta),
                })
            }
        }

        impl $crate::models::Skipped for $ty {
            fn skipped(&self) -> &[$crate::models::SkippedItem] {
                &self.data.skipped
            }
        }
    };
}

/// A cursor-paged list response, `{pagination, <items>, meta}`, declared
/// with its `Deserialize` (see [`list_response!`]):
/// `list_envelope!(/// docs  MarketsResponse { markets: Market ["markets"], meta: ListMeta })`.
macro_rules! list_envelope {
    ($(#[$attr:meta])* $ty:ident { $items:ident: $item:ident [$($key:literal),+], meta: $meta:ident }) => {
        // After the derives: `#[model]` only sees what follows it, and a
        // `tsify(..)` attribute needs the `Tsify` derive it adds.
        #[::predmarket_model_derive::model]
        #[derive(Debug, Clone, PartialEq, ::serde::Serialize)]
        $(#[$attr])*
        pub struct $ty {
            pub pagination: Option<$crate::models::Pagination>,
            pub $items: Vec<$item>,
            pub meta: Option<$crate::models::$meta>,
            /// Items of the page that could not be read (the others are kept).
            #[serde(skip)]
            pub skipped: Vec<$crate::models::SkippedItem>,
        }

        list_response!($ty {
            $items: [$($key),+],
            pagination,
            meta
        });
    };
}

/// `new(id)` of resources whose only required field is `id`: the
/// resource with only its id, for building data and tests.
macro_rules! with_id_only {
    ($($ty:ident),+) => {
        $(
            impl $ty {
                #[doc = concat!("A [`", stringify!($ty), "`] with only its id, for building data and tests.")]
                pub fn new(id: impl Into<String>) -> Self {
                    Self {
                        id: id.into(),
                        ..Default::default()
                    }
                }
            }
        )+
    };
}
