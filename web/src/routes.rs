//! The app's URLs in one place, so links and navigation agree. Ids from
//! the service become one encoded path segment.

/// Where the reference server serves the demo (`--web DIR`).
pub const BASE: &str = "/app";

/// The pages of the app, by path under [`BASE`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Page {
    Markets,
    Market(String),
    Events,
    Event(String),
    SeriesList,
    Series(String),
    Sports,
    Game(String),
    Future(String),
    Award(String),
    /// A user of a platform: (platform id, user name or address).
    Profile(String, String),
    /// Price histories of several markets on one chart.
    Compare,
    /// The pairs of markets of different platforms among those of the
    /// market list's filters.
    Venues,
    Platforms,
    Settings,
    NotFound,
}

impl Page {
    /// The page of a path such as `/app/markets/123` (ids decoded).
    pub fn of_path(path: &str) -> Self {
        let rest = path.strip_prefix(BASE).unwrap_or(path);
        let parts: Vec<&str> = rest.split('/').filter(|p| !p.is_empty()).collect();
        let id = |s: &str| decode(s);
        match parts.as_slice() {
            [] | ["markets"] => Self::Markets,
            ["markets", m] => Self::Market(id(m)),
            ["events"] => Self::Events,
            ["events", e] => Self::Event(id(e)),
            ["series"] => Self::SeriesList,
            ["series", s] => Self::Series(id(s)),
            ["sports"] => Self::Sports,
            ["sports", "games", g] => Self::Game(id(g)),
            ["sports", "futures", f] => Self::Future(id(f)),
            ["sports", "awards", a] => Self::Award(id(a)),
            ["profiles", p, u] => Self::Profile(id(p), id(u)),
            ["compare"] => Self::Compare,
            ["venues"] => Self::Venues,
            ["platforms"] => Self::Platforms,
            ["settings"] => Self::Settings,
            _ => Self::NotFound,
        }
    }
}

fn segment(id: &str) -> String {
    String::from(js_sys::encode_uri_component(id))
}

/// An id from a path segment (the location keeps reserved characters such
/// as `/`, `?`, `#`, `@` encoded).
pub fn decode(param: &str) -> String {
    js_sys::decode_uri_component(param)
        .ok()
        .map(String::from)
        .unwrap_or_else(|| param.to_owned())
}

pub fn market(id: &str) -> String {
    format!("{BASE}/markets/{}", segment(id))
}

pub fn event(id: &str) -> String {
    format!("{BASE}/events/{}", segment(id))
}

pub fn series(id: &str) -> String {
    format!("{BASE}/series/{}", segment(id))
}

pub fn game(id: &str) -> String {
    format!("{BASE}/sports/games/{}", segment(id))
}

pub fn future(id: &str) -> String {
    format!("{BASE}/sports/futures/{}", segment(id))
}

pub fn award(id: &str) -> String {
    format!("{BASE}/sports/awards/{}", segment(id))
}

/// A user's profile page; `user` is a display name, pseudonym or address
/// as the service knows it.
pub fn profile(platform: &str, user: &str) -> String {
    format!("{BASE}/profiles/{}/{}", segment(platform), segment(user))
}

/// The cross-platform view of the markets a list's filters select
/// (`(key, value)` as in the market list's URL).
pub fn venues(filters: &[(&str, &str)]) -> String {
    with_query(&format!("{BASE}/venues"), filters)
}

/// The market list with these filters.
pub fn markets(filters: &[(&str, &str)]) -> String {
    with_query(&format!("{BASE}/markets"), filters)
}

pub fn sports(league: &str, view: &str) -> String {
    with_query(
        &format!("{BASE}/sports"),
        &[("league", league), ("view", view)],
    )
}

/// `path?k=v&...`, skipping empty values.
pub fn with_query(path: &str, pairs: &[(&str, &str)]) -> String {
    let query: Vec<String> = pairs
        .iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| format!("{k}={}", segment(v)))
        .collect();
    if query.is_empty() {
        path.to_owned()
    } else {
        format!("{path}?{}", query.join("&"))
    }
}

use leptos::prelude::*;
use leptos_router::NavigateOptions;
use leptos_router::hooks::{use_location, use_navigate, use_query_map};
use leptos_router::params::ParamsMap;
use predmarket_client::core::models::OddsFormat;
use std::rc::Rc;

type Navigate = Rc<dyn Fn(&str, NavigateOptions)>;

/// A page's state in the URL query, so every view is a shareable link.
#[derive(Clone, Copy)]
pub struct UrlState {
    query: Memo<ParamsMap>,
    path: Memo<String>,
    navigate: StoredValue<Navigate, LocalStorage>,
}

impl UrlState {
    /// Call while building the page (it needs the router).
    pub fn new() -> Self {
        let navigate = use_navigate();
        Self {
            query: use_query_map(),
            path: use_location().pathname,
            navigate: StoredValue::new_local(Rc::new(navigate) as Navigate),
        }
    }

    /// A parameter (reactive), empty values read as absent.
    pub fn get(&self, key: &str) -> Option<String> {
        self.query
            .with(|q| q.get_str(key).map(str::to_owned))
            .filter(|v| !v.trim().is_empty())
    }

    pub fn get_untracked(&self, key: &str) -> Option<String> {
        self.query
            .with_untracked(|q| q.get_str(key).map(str::to_owned))
            .filter(|v| !v.trim().is_empty())
    }

    /// How many pages of a list a shared link asks to preload (`?pages=`),
    /// read once per load: growing the list updates it and must not
    /// reload the list. Each page is a request, so a link may ask for 8.
    pub fn pages_to_preload(&self) -> usize {
        self.get_untracked("pages")
            .and_then(|p| p.parse().ok())
            .unwrap_or(1)
            .clamp(1, 8)
    }

    /// Records how many pages are on screen, without a history entry.
    pub fn set_pages(&self, pages: usize) {
        self.set(&[("pages", Some(pages.to_string()))], true);
    }

    /// The odds notation of a sports page, kept in `?odds=`, and the way
    /// to change it (no history entry).
    pub fn odds_format(&self) -> (Memo<OddsFormat>, Callback<OddsFormat>) {
        let url = *self;
        let format = Memo::new(move |_| crate::format::odds_format(url.get("odds").as_deref()));
        let set = Callback::new(move |f: OddsFormat| {
            url.set(&[("odds", Some(f.as_str().to_owned()))], true)
        });
        (format, set)
    }

    /// Changes some parameters (`None` removes one). A filter change is a
    /// new history entry; `replace` is for bookkeeping such as the number
    /// of pages loaded, which the back button should not step through.
    pub fn set(&self, changes: &[(&str, Option<String>)], replace: bool) {
        let mut query = self.query.get_untracked();
        for (key, value) in changes {
            match value.as_deref().map(str::trim).filter(|v| !v.is_empty()) {
                Some(v) => query.replace(key.to_string(), v.to_owned()),
                None => {
                    query.remove(key);
                }
            }
        }
        let url = format!("{}{}", self.path.get_untracked(), query.to_query_string());
        let options = NavigateOptions {
            resolve: false,
            replace,
            scroll: false,
            ..Default::default()
        };
        self.navigate.with_value(|navigate| navigate(&url, options));
    }
}

impl Default for UrlState {
    fn default() -> Self {
        Self::new()
    }
}
