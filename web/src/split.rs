//! The pages a first visit does not need, loaded from wasm modules of their
//! own when first shown: the market page from one, the sports pages from
//! another, the cross-platform view from a third (reached from the market
//! list, it needs little of the others' code), the events, series,
//! profile, compare, platforms and settings pages from a fourth.
//!
//! In the shipped build (`cargo xtask web` sets `--cfg predmarket_split` and
//! runs wasm-split on the output) each function below is a split point: its
//! code and everything only it reaches leave the main module (the
//! first load went from about 603 to 435 KB gzip). Without the cfg (the
//! component tests, `trunk serve`) they are ordinary functions and the app
//! is one module, as before.
//!
//! The market list and the not-found page stay in the main module: every
//! first visit without a deep link lands on the list.

// The split macro declares the chunk's loader and the function's import and
// export: `extern` items, which the workspace's `unsafe_code` lint covers.
#![cfg_attr(predmarket_split, allow(unsafe_code))]

use crate::pages;
use leptos::prelude::*;

/// A page function: a split point when built with `predmarket_split`, with
/// `$preload` to fetch its module without building the page. The pages of
/// one `$chunk` share a module (their code overlaps; fewer modules, fewer
/// requests on a visit).
macro_rules! split_page {
    ($chunk:ident / $preload:ident: $name:ident ( $($arg:ident : $ty:ty),* ) => $body:expr) => {
        #[cfg_attr(
            predmarket_split,
            leptos::wasm_split::wasm_split(
                $chunk,
                wasm_split_path = ::leptos::wasm_split,
                preload($preload)
            )
        )]
        pub fn $name($($arg: $ty),*) -> AnyView {
            $body
        }
    };
}

split_page!(market / load_market: market(id: String) => view! { <pages::market::MarketPage id /> }.into_any());
split_page!(sports / load_sports: sports() => view! { <pages::sports::SportsPage /> }.into_any());
split_page!(sports / load_game: game(id: String) => view! { <pages::game::GamePage id /> }.into_any());
split_page!(sports / load_future: future(id: String) => view! { <pages::outright::FuturePage id /> }.into_any());
split_page!(sports / load_award: award(id: String) => view! { <pages::outright::AwardPage id /> }.into_any());
split_page!(pages / load_events: events() => view! { <pages::catalog::EventsPage /> }.into_any());
split_page!(pages / load_event: event(id: String) => view! { <pages::group::EventPage id /> }.into_any());
split_page!(pages / load_series_list: series_list() => view! { <pages::catalog::SeriesListPage /> }.into_any());
split_page!(pages / load_series: series(id: String) => view! { <pages::group::SeriesPage id /> }.into_any());
split_page!(pages / load_profile: profile(platform: String, user: String) => {
    view! { <pages::profile::ProfilePage platform user /> }.into_any()
});
split_page!(pages / load_compare: compare() => view! { <pages::compare::ComparePage /> }.into_any());
split_page!(venues / load_venues: venues() => view! { <pages::venues::VenuesPage /> }.into_any());
split_page!(pages / load_platforms: platforms() => view! { <pages::platforms::PlatformsPage /> }.into_any());
split_page!(pages / load_settings: settings() => view! { <pages::settings::SettingsPage /> }.into_any());

/// Shows `$page(args)`: at once in a one-module build, through [`lazy`] in
/// a split build (`$preload` is the page's, see `split_page!`).
macro_rules! show {
    ($page:ident / $preload:ident ( $($arg:expr),* )) => {{
        #[cfg(predmarket_split)]
        let view = $crate::split::lazy($crate::split::$preload(), move || {
            $crate::split::$page($($arg),*)
        });
        #[cfg(not(predmarket_split))]
        let view = $crate::split::$page($($arg),*);
        view
    }};
}
pub(crate) use show;

/// The page `build` makes, shown once `preload` has fetched its module
/// (nothing before: from the cache that takes milliseconds, from the server
/// one request).
///
/// The page is then built in the view's own reactive closure, exactly as in
/// a one-module build (`build`'s future is ready at once when its module is
/// in), not inside a task as awaiting `build` or `Suspend` would. Leaving
/// the page before the module is in cancels the load's task.
#[cfg(predmarket_split)]
pub fn lazy<F>(
    preload: impl std::future::Future<Output = ()> + 'static,
    build: impl FnOnce() -> F + 'static,
) -> AnyView
where
    F: std::future::Future<Output = AnyView>,
{
    let loaded = RwSignal::new(false);
    untrack(|| {
        leptos::task::spawn_local_scoped_with_cancellation(async move {
            preload.await;
            loaded.set(true);
        })
    });
    let build = StoredValue::new_local(Some(build));
    (move || {
        if !loaded.get() {
            return None;
        }
        let build = build.try_update_value(Option::take).flatten()?;
        let mut page = std::pin::pin!(build());
        let mut context = std::task::Context::from_waker(std::task::Waker::noop());
        match page.as_mut().poll(&mut context) {
            std::task::Poll::Ready(view) => Some(view),
            // Not reached: the module is in, nothing is left to wait for.
            std::task::Poll::Pending => None,
        }
    })
    .into_any()
}
