//! What the service says it has: its platforms (names, endpoints,
//! features) and its leagues, loaded once and kept, for every filter, tab
//! and display name of the demo.

use super::session::{is_gone, send_swr};
use leptos::prelude::*;
use predmarket_client::core::models::{LeagueInfo, Platform, PlatformsResponse};
use predmarket_client::core::request::{GetLeagueInfo, ListPlatforms};
use predmarket_client::{CancelToken, Error};

/// What the service says it has: its platforms (`GET /platforms`, loaded
/// with the app, for names, filters and features) and its leagues (`GET
/// /league-info`, loaded the first time a page asks, then kept). Every
/// filter, tab and display name of the demo comes from here, never from
/// the labels of service.md (docs/spec/public-service-facts.md:
/// "Identifiers are not the labels").
#[derive(Clone, Copy)]
pub struct Directory {
    pub resource: LocalResource<Result<PlatformsResponse, Error>>,
    platforms: Memo<Vec<Platform>>,
    leagues_wanted: RwSignal<bool>,
    leagues: LocalResource<Result<Vec<LeagueInfo>, Error>>,
    /// The leagues once loaded, as a plain signal: a display name read
    /// from it inside a page's `<Transition>` must not suspend the page
    /// on the league request (a direct load of a future's page waited
    /// forever on it).
    known_leagues: RwSignal<Vec<LeagueInfo>>,
}

/// How long kept platforms and leagues are used without asking again.
const DIRECTORY_MAX_AGE_MS: f64 = 10.0 * 60.0 * 1000.0;

impl Directory {
    pub fn provide() -> Self {
        // Platforms and leagues change rarely: what this device kept in
        // the last ten minutes is used without asking (one request a visit).
        let resource = LocalResource::new(|| async {
            send_swr(
                &ListPlatforms,
                &CancelToken::new(),
                DIRECTORY_MAX_AGE_MS,
                || (),
            )
            .await
        });
        let platforms = Memo::new(move |_| {
            resource
                .read()
                .as_ref()
                .and_then(|r| r.as_ref().ok())
                .map(|r| r.platforms.clone())
                .unwrap_or_default()
        });
        let leagues_wanted = RwSignal::new(false);
        // Until a page asks, the first fetch waits (the market list costs
        // no league request), and it must end when asked: the resource's
        // task awaits its current future before it looks at any change, so
        // a future pending for ever held every later fetch back (a page
        // built after that task started, from a link or a split module,
        // waited for ever).
        let (asked, on_ask) = futures::channel::oneshot::channel::<()>();
        let on_ask = std::cell::Cell::new(Some(on_ask));
        let asked = std::cell::Cell::new(Some(asked));
        Effect::new(move |_| {
            if leagues_wanted.get()
                && let Some(asked) = asked.take()
            {
                let _ = asked.send(());
            }
        });
        let leagues = LocalResource::new(move || {
            let wait = (!leagues_wanted.get_untracked()).then(|| on_ask.take());
            async move {
                if let Some(Some(on_ask)) = wait {
                    let _ = on_ask.await;
                }
                let response = send_swr(
                    &GetLeagueInfo::default(),
                    &CancelToken::new(),
                    DIRECTORY_MAX_AGE_MS,
                    || (),
                )
                .await?;
                Ok(response.data.leagues().to_vec())
            }
        });
        let known_leagues = RwSignal::new(Vec::new());
        Effect::new(move |_| {
            if let Some(Ok(list)) = leagues.read().as_ref() {
                known_leagues.set(list.clone());
            }
        });
        let directory = Self {
            resource,
            platforms,
            leagues_wanted,
            leagues,
            known_leagues,
        };
        provide_context(directory);
        directory
    }

    /// The directory of the app, if there is one (component tests mount
    /// pieces without it).
    pub fn get() -> Option<Self> {
        use_context::<Self>()
    }

    /// Asks the service again (after the settings changed).
    pub fn refetch(&self) {
        self.resource.refetch();
        if self.leagues_wanted.get_untracked() {
            self.leagues.refetch();
        }
    }

    /// The display name of a platform (reactive): its `name` in the
    /// directory, else its id as the service spells it.
    pub fn name(&self, id: &str) -> String {
        self.platforms
            .with(|all| all.iter().find(|p| p.id == id).and_then(|p| p.name.clone()))
            .unwrap_or_else(|| id.to_owned())
    }

    /// The platforms that serve an endpoint (`markets`, `events`, …), as
    /// (id, name) in the directory's order (reactive). A platform that
    /// lists no such endpoint is offered: only the service knows, and it
    /// answers with an error the page shows.
    pub fn platforms_serving(&self, endpoint: &str) -> Vec<(String, String)> {
        self.platforms.with(|all| {
            all.iter()
                .filter(|p| {
                    p.endpoints
                        .as_ref()
                        .and_then(|e| e.is_available(endpoint))
                        .unwrap_or(true)
                })
                .map(|p| (p.id.clone(), p.name.clone().unwrap_or_else(|| p.id.clone())))
                .collect()
        })
    }

    /// Whether a platform offers a feature. Waits for the directory; when
    /// it failed or does not say, the answer is yes and the service judges.
    pub async fn supports(&self, platform: &str, feature: Feature) -> bool {
        if is_gone(self.resource) {
            return true;
        }
        let Ok(directory) = self.resource.await else {
            return true;
        };
        let features = directory
            .platforms
            .iter()
            .find(|p| p.id == platform)
            .and_then(|p| p.features.clone())
            .unwrap_or_default();
        let flag = match feature {
            Feature::Orderbook => features.orderbook,
            Feature::Trades => features.trades,
            Feature::History => features.historical_data,
            Feature::Profiles => features.user_profiles,
        };
        flag.unwrap_or(true)
    }

    /// The leagues of the service, in its order (loads them on first use).
    pub fn leagues(&self) -> LocalResource<Result<Vec<LeagueInfo>, Error>> {
        if !self.leagues_wanted.get_untracked() {
            self.leagues_wanted.set(true);
        }
        self.leagues
    }

    /// A league's short name (abbreviation, else name) once the leagues
    /// are known (reactive).
    pub fn league_name(&self, id: &str) -> Option<String> {
        self.leagues();
        self.known_leagues.with(|all| {
            let league = all.iter().find(|l| l.id == id)?;
            league.abbreviation.clone().or_else(|| league.name.clone())
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Feature {
    Orderbook,
    Trades,
    History,
    Profiles,
}

/// The display name of a platform, from the directory when the app has one.
pub fn platform_name(id: &str) -> String {
    match Directory::get() {
        Some(d) => d.name(id),
        None => id.to_owned(),
    }
}

/// A league's short name from the directory, once it knows the leagues
/// (reactive; asks for them the first time).
pub fn league_name(id: &str) -> Option<String> {
    Directory::get().and_then(|d| d.league_name(id))
}
