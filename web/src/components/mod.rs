//! Pieces shared by the pages.

mod candle_chart;
mod chart_cursor;
mod compare_chart;
mod cost_calculator;
mod depth_chart;
mod download;
mod error_notice;
mod filters;
mod group_tables;
mod history_chart;
mod live_status;
mod load_more;
mod loader;
mod market_table;
mod odds_board;
mod orderbook_ladder;
mod outrights;
mod paged;
mod platform_warnings;
mod price_chart;
mod recorded_history;
mod remote_image;
mod sports_tables;
mod unread_notice;
mod venues;

pub use candle_chart::CandleChart;
pub use compare_chart::{CompareChart, Line};
pub use cost_calculator::{CalculatorState, CostCalculator};
pub use depth_chart::DepthChart;
pub use download::{Download, file_text};
pub use error_notice::ErrorNotice;
pub use filters::{FilterSelect, PlatformFilter, SearchBox, TextFilter};
pub use group_tables::{EventTable, SeriesTable, platform_id};
pub use history_chart::{HistoryChart, Sample, breaks, continuity_text, labels};
pub use live_status::{LiveStatus, freshness_text};
pub use load_more::LoadMore;
pub use loader::{ItemPage, Loader};
pub use market_table::{
    MarketTable, PlatformName, SortedBy, StatusBadge, change_class, yes_change, yes_change_7d,
    yes_price,
};
pub use odds_board::{Board, OddsBoard, OddsFormatSwitch};
pub use orderbook_ladder::OrderbookLadder;
pub use outrights::{Outright, OutrightTable};
pub use paged::PagedResults;
pub use platform_warnings::PlatformWarnings;
pub use price_chart::{PriceChart, PricePoint, Quote};
pub use recorded_history::{
    Reading, RecordedHistory, RecordedView, book_depth, decimal_odds, game_odds, samples,
    share_count,
};
pub use remote_image::RemoteImage;
pub use sports_tables::{GamesTable, TeamsTable, score};
pub use unread_notice::UnreadNotice;
pub use venues::{
    Counterpart, GapView, OtherPlatforms, SizeField, Vetoes, counterparts, gap_size, reason_text,
    search_text, veto_lines,
};

use leptos::prelude::*;

/// The placeholder while a section loads: a spinner, or, while the call
/// waits for the rate budget (shared by every tab of the key), a countdown
/// to when it goes.
#[component]
pub fn Loading(#[prop(into)] what: String) -> impl IntoView {
    let until = crate::api::budget_wait_until();
    let now = RwSignal::new(js_sys::Date::now());
    let handle = set_interval_with_handle(
        move || now.set(js_sys::Date::now()),
        std::time::Duration::from_millis(250),
    )
    .ok();
    on_cleanup(move || {
        if let Some(h) = handle {
            h.clear();
        }
    });
    let left = move || ((until.get() - now.get()) / 1000.0).ceil();
    view! {
        <div class="loading" aria-busy="true" role="status">
            {move || if left() > 0.0 {
                view! {
                    <span class="budget-countdown">
                        "Waiting for the rate budget: " {what.clone()} " in "
                        <span class="secs">{left()}</span> " s"
                    </span>
                }.into_any()
            } else {
                view! {
                    <span class="spinner" aria-hidden="true"></span>
                    {format!("Loading {what}…")}
                }.into_any()
            }}
        </div>
    }
}

/// Becomes true once the element of `node` has been on screen (and stays
/// so): for sections below the fold that cost a request. Where there is no
/// IntersectionObserver, at once.
pub fn seen<E>(node: NodeRef<E>) -> RwSignal<bool>
where
    E: leptos::html::ElementType + 'static,
    E::Output: wasm_bindgen::JsCast + Clone + 'static,
{
    use wasm_bindgen::JsCast;
    use wasm_bindgen::prelude::*;
    let seen = RwSignal::new(false);
    let observer = StoredValue::new_local(None::<JsValue>);
    Effect::new(move |_| {
        let Some(element) = node.get() else {
            return;
        };
        let element: JsValue = element.unchecked_into();
        let class = js_sys::Reflect::get(&js_sys::global(), &"IntersectionObserver".into())
            .ok()
            .and_then(|c| c.dyn_into::<js_sys::Function>().ok());
        let Some(class) = class else {
            seen.set(true);
            return;
        };
        // Owned by JS, not by this view: the observer may still call it
        // after the view is gone (a detached element reports once more),
        // and then `try_set` is a no-op. Seen once is seen for good: the
        // observer stops there, so a view built on `seen` is built once (a
        // second `set(true)` would rebuild it: a set notifies even when the
        // value does not change).
        let callback = Closure::<dyn FnMut(js_sys::Array, JsValue)>::new(
            move |entries: js_sys::Array, observer: JsValue| {
                let visible = entries.iter().any(|entry| {
                    js_sys::Reflect::get(&entry, &"isIntersecting".into())
                        .ok()
                        .is_some_and(|v| v.is_truthy())
                });
                if visible {
                    if let Ok(disconnect) = js_sys::Reflect::get(&observer, &"disconnect".into())
                        .and_then(|f| f.dyn_into::<js_sys::Function>())
                    {
                        let _ = disconnect.call0(&observer);
                    }
                    if seen.try_get_untracked() == Some(false) {
                        let _ = seen.try_set(true);
                    }
                }
            },
        );
        let callback = callback.into_js_value();
        let created = js_sys::Reflect::construct(&class, &js_sys::Array::of1(&callback));
        match created {
            Ok(instance) => {
                if let Ok(observe) = js_sys::Reflect::get(&instance, &"observe".into())
                    .and_then(|f| f.dyn_into::<js_sys::Function>())
                {
                    let _ = observe.call1(&instance, &element);
                }
                observer.set_value(Some(instance));
            }
            Err(_) => seen.set(true),
        }
    });
    on_cleanup(move || {
        if let Some(instance) = observer.try_with_value(|v| v.clone()).flatten()
            && let Ok(disconnect) = js_sys::Reflect::get(&instance, &"disconnect".into())
                .and_then(|f| f.dyn_into::<js_sys::Function>())
        {
            let _ = disconnect.call0(&instance);
        }
    });
    seen
}

/// What is left of the rate budget this minute (every tab of the key
/// together), refreshed every second.
#[component]
pub fn BudgetMeter() -> impl IntoView {
    let read = || {
        crate::api::client()
            .ok()
            .map(|c| (c.rate_budget_remaining(), c.config().rate_limit_per_minute))
    };
    let budget = RwSignal::new(read());
    let handle = set_interval_with_handle(
        move || budget.set(read()),
        std::time::Duration::from_secs(1),
    )
    .ok();
    on_cleanup(move || {
        if let Some(h) = handle {
            h.clear();
        }
    });
    move || {
        budget.get().map(|(left, limit)| {
            let low = u64::from(left) * 5 < u64::from(limit);
            view! {
                <span
                    class="budget-meter"
                    class:low=low
                    title="Requests this browser may still send this minute, shared by every tab on this key"
                >
                    {format!("Budget: {left} of {limit} left this minute")}
                </span>
            }
        })
    }
}
