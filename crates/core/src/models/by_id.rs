//! The envelopes of one sports item by id (`GET /games/{id}`,
//! `/futures/{id}`, `/awards/{id}`): the spec's `{data: item, meta}`, and
//! the public service's older `{games|futures|awards: [item, …],
//! pagination, meta}`, where one item may come as several objects with
//! the same id (one per platform) whose markets belong together. The
//! response types merge those; this reads the envelope.

use serde_json::Value;

/// The parts of a by-id body: the item objects in order, and the
/// envelope's `meta` and `pagination`.
pub(crate) struct ById {
    pub items: Vec<Value>,
    pub meta: Option<Value>,
    pub pagination: Option<Value>,
}

impl ById {
    /// Reads `{data: item | [item, …], meta}` or `{<key>: [item, …],
    /// pagination, meta}`.
    pub fn read(value: Value, key: &str) -> Result<Self, String> {
        let Value::Object(mut top) = value else {
            return Err("expected an object".to_owned());
        };
        let meta = top.remove("meta").filter(|m| !m.is_null());
        let mut pagination = top.remove("pagination").filter(|p| !p.is_null());
        let items = match (top.remove("data"), top.remove(key)) {
            (Some(Value::Object(mut data)), _) if !data.contains_key("id") => {
                // `{data: {<key>: [...], pagination}}`: the list nested.
                match data.remove(key) {
                    Some(Value::Array(items)) => {
                        pagination = pagination.or_else(|| data.remove("pagination"));
                        items
                    }
                    _ => vec![Value::Object(data)],
                }
            }
            (Some(data @ Value::Object(_)), _) => vec![data],
            (Some(Value::Array(items)), _) | (_, Some(Value::Array(items))) => items,
            _ => return Err(format!("no `data` or `{key}` in the body")),
        };
        Ok(Self {
            items,
            meta,
            pagination,
        })
    }
}
