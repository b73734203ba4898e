//! The platform directory: `GET /platforms`, in the spec's `{platforms,
//! meta}` and the public service's older `{markets: {platforms, health},
//! sports: {platforms, health}, meta}`.

use super::SkippedItem;
use super::list::{Body, decode_items};
use predmarket_model_derive::model;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

open_enum!(
    /// `platform.status`; the spec shows `available`.
    PlatformStatus, PLATFORM_STATUS_TS {
        Available = "available",
        Degraded = "degraded",
        Unavailable = "unavailable",
        Maintenance = "maintenance",
    }
);

open_enum!(
    /// `platform.health.status`; the spec shows `pass`.
    HealthStatus, HEALTH_STATUS_TS {
        Pass = "pass",
        Warn = "warn",
        Fail = "fail",
    }
);

/// One platform of the directory (`GET /platforms`). The older pages key
/// it `platform` and name it `display_name`: those are read as `id` and
/// `name` when these are absent (and kept as sent).
#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Platform {
    pub id: String,
    pub name: Option<String>,
    #[model(ts = "PlatformStatus")]
    pub status: Option<PlatformStatus>,
    pub health: Option<PlatformHealth>,
    /// A list of `{name, available}`, or (older pages) an object of
    /// booleans: see [`PlatformEndpoints::available`].
    pub endpoints: Option<PlatformEndpoints>,
    pub features: Option<PlatformFeatures>,
    /// Every other field, as sent.
    #[serde(flatten)]
    #[cfg_attr(feature = "schema", schemars(skip))]
    #[model(ts = "Record<string, unknown>")]
    pub extra: BTreeMap<String, Value>,
}

/// A platform's endpoints in either documented form.
#[model]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum PlatformEndpoints {
    List(Vec<PlatformEndpoint>),
    Flags(BTreeMap<String, bool>),
}

impl From<Vec<PlatformEndpoint>> for PlatformEndpoints {
    fn from(list: Vec<PlatformEndpoint>) -> Self {
        Self::List(list)
    }
}

impl PlatformEndpoints {
    /// Whether the endpoint `name` is available; `None` when not listed.
    pub fn is_available(&self, name: &str) -> Option<bool> {
        self.available()
            .into_iter()
            .find(|(n, _)| *n == name)
            .map(|(_, available)| available)
    }

    /// Each endpoint with whether it is available, in the order sent (an
    /// object's keys sorted).
    pub fn available(&self) -> Vec<(&str, bool)> {
        match self {
            Self::List(list) => list
                .iter()
                .map(|e| (e.name.as_str(), e.available))
                .collect(),
            Self::Flags(flags) => flags.iter().map(|(k, v)| (k.as_str(), *v)).collect(),
        }
    }
}

/// A platform object as sent, made readable by [`Platform`]: `platform` /
/// `display_name` give `id` / `name` when those are absent.
fn platform_value(mut value: Value) -> Value {
    if let Some(o) = value.as_object_mut() {
        for (spec, older) in [("id", "platform"), ("name", "display_name")] {
            if o.get(spec).is_none_or(Value::is_null)
                && let Some(v) = o.get(older).filter(|v| v.is_string()).cloned()
            {
                o.insert(spec.to_owned(), v);
            }
        }
    }
    value
}

#[model]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlatformHealth {
    #[model(ts = "HealthStatus")]
    pub status: Option<HealthStatus>,
    /// ISO 8601.
    #[model(timestamp)]
    pub last_check: Option<String>,
    pub response_time_ms: Option<f64>,
}

#[model]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlatformEndpoint {
    pub name: String,
    pub available: bool,
}

#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PlatformFeatures {
    pub orderbook: Option<bool>,
    pub trades: Option<bool>,
    pub historical_data: Option<bool>,
    pub user_profiles: Option<bool>,
    /// The other features the older pages name, as sent.
    #[serde(flatten)]
    #[cfg_attr(feature = "schema", schemars(skip))]
    #[model(ts = "Record<string, unknown>")]
    pub extra: BTreeMap<String, Value>,
}

/// `meta` of `GET /platforms`.
#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PlatformsMeta {
    pub request_time: Option<f64>,
    pub total: Option<f64>,
    /// Every other field (`timestamp`, `version` on older pages), as sent.
    #[serde(flatten)]
    #[cfg_attr(feature = "schema", schemars(skip))]
    #[model(ts = "Record<string, unknown>")]
    pub extra: BTreeMap<String, Value>,
}

/// One section of the older directory (`markets` or `sports`): its
/// platforms as sent, their health and count. Every platform of the
/// sections is also in [`PlatformsResponse::platforms`], once.
#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PlatformSection {
    pub platforms: Option<Vec<Platform>>,
    /// Platform id → its health (`"healthy"`).
    #[model(ts = "Record<string, unknown>")]
    pub health: Option<BTreeMap<String, Value>>,
    #[model(integer)]
    pub total_platforms: Option<f64>,
    /// Every other field, as sent.
    #[serde(flatten)]
    #[cfg_attr(feature = "schema", schemars(skip))]
    #[model(ts = "Record<string, unknown>")]
    pub extra: BTreeMap<String, Value>,
}

impl PlatformSection {
    /// The health the section gives a platform, as text (`"healthy"`).
    pub fn health_of(&self, platform: &str) -> Option<&str> {
        self.health.as_ref()?.get(platform)?.as_str()
    }
}

/// Response of `GET /platforms`: `{platforms, meta}`. The older pages'
/// `{markets: {platforms, health, total_platforms}, sports: {…}, meta}`
/// is read too: `platforms` then holds every platform of both sections
/// once (the first object of an id, with what later ones add), and
/// `markets` / `sports` say which platforms each section lists and their
/// health.
#[model]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlatformsResponse {
    pub platforms: Vec<Platform>,
    pub meta: Option<PlatformsMeta>,
    /// The older directory's prediction-market section.
    pub markets: Option<PlatformSection>,
    /// The older directory's sports section.
    pub sports: Option<PlatformSection>,
    /// Items of the page that could not be read (the others are kept).
    #[serde(skip)]
    pub skipped: Vec<SkippedItem>,
}

impl super::Skipped for PlatformsResponse {
    fn skipped(&self) -> &[SkippedItem] {
        &self.skipped
    }
}

impl<'de> Deserialize<'de> for PlatformsResponse {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let mut body = Body::new(Value::deserialize(d)?)?;
        let meta = Body::part(body.take_merged("meta"));
        if let Some(Value::Array(list)) = body.take(&["platforms"]) {
            let list = list.into_iter().map(platform_value).collect();
            let (platforms, skipped) =
                decode_items(Some(Value::Array(list))).map_err(D::Error::custom)?;
            return Ok(Self {
                platforms,
                meta,
                markets: None,
                sports: None,
                skipped,
            });
        }
        let mut skipped = Vec::new();
        let mut offset = 0;
        let mut section = |value: Option<Value>| -> Result<Option<PlatformSection>, D::Error> {
            let Some(Value::Object(mut o)) = value else {
                return Ok(None);
            };
            let list = match o.remove("platforms") {
                Some(Value::Array(list)) => list,
                _ => Vec::new(),
            };
            let count = list.len();
            let list: Vec<Value> = list.into_iter().map(platform_value).collect();
            let (items, bad) = decode_items(Some(Value::Array(list))).map_err(D::Error::custom)?;
            skipped.extend(bad.into_iter().map(|mut s| {
                s.index += offset;
                s
            }));
            offset += count;
            let mut section: PlatformSection =
                Body::part(Some(Value::Object(o))).unwrap_or_default();
            section.platforms = Some(items);
            Ok(Some(section))
        };
        let markets = section(body.take(&["markets"]))?;
        let sports = section(body.take(&["sports"]))?;
        if markets.is_none() && sports.is_none() {
            return Err(D::Error::custom("no `platforms` list in the body"));
        }
        let mut platforms: Vec<Platform> = Vec::new();
        let listed = [&markets, &sports]
            .into_iter()
            .flatten()
            .flat_map(|s| s.platforms.iter().flatten());
        for item in listed {
            match platforms.iter_mut().find(|p| p.id == item.id) {
                Some(known) => known.merge(item.clone()),
                None => platforms.push(item.clone()),
            }
        }
        Ok(Self {
            platforms,
            meta,
            markets,
            sports,
            skipped,
        })
    }
}

impl Platform {
    /// What a second object of the same id adds (the older directory lists
    /// a platform in each of its sections).
    fn merge(&mut self, other: Self) {
        self.name = self.name.take().or(other.name);
        self.status = self.status.take().or(other.status);
        self.health = self.health.take().or(other.health);
        self.endpoints = match (self.endpoints.take(), other.endpoints) {
            (Some(PlatformEndpoints::Flags(mut mine)), Some(PlatformEndpoints::Flags(theirs))) => {
                for (k, v) in theirs {
                    mine.entry(k).or_insert(v);
                }
                Some(PlatformEndpoints::Flags(mine))
            }
            (Some(PlatformEndpoints::List(mut mine)), Some(PlatformEndpoints::List(theirs))) => {
                for e in theirs {
                    if !mine.iter().any(|m| m.name == e.name) {
                        mine.push(e);
                    }
                }
                Some(PlatformEndpoints::List(mine))
            }
            (mine, theirs) => mine.or(theirs),
        };
        self.features = match (self.features.take(), other.features) {
            (Some(mut mine), Some(theirs)) => {
                mine.orderbook = mine.orderbook.or(theirs.orderbook);
                mine.trades = mine.trades.or(theirs.trades);
                mine.historical_data = mine.historical_data.or(theirs.historical_data);
                mine.user_profiles = mine.user_profiles.or(theirs.user_profiles);
                for (k, v) in theirs.extra {
                    mine.extra.entry(k).or_insert(v);
                }
                Some(mine)
            }
            (mine, theirs) => mine.or(theirs),
        };
        for (k, v) in other.extra {
            self.extra.entry(k).or_insert(v);
        }
    }
}

/// Response of `listPlatforms`.
pub type ListPlatformsResponse = PlatformsResponse;
