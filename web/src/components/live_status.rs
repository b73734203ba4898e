//! The live / stale indicator of a view kept fresh: where its data comes
//! from and how old it is, as text ("live · 2 s", "stale: poll_failed ·
//! 40 s", "polled · 3 s", "cached · 5 min" while a reload shows what the
//! device kept), read out politely when the state changes.

use crate::api::{Feed, Freshness};
use leptos::prelude::*;

/// Seconds as the indicator shows them: "2 s", "3 min", "2 h".
fn age_text(ms: f64) -> String {
    let s = (ms / 1000.0).floor().max(0.0);
    if s < 90.0 {
        format!("{s:.0} s")
    } else if s < 90.0 * 60.0 {
        format!("{:.0} min", (s / 60.0).floor())
    } else {
        format!("{:.0} h", (s / 3600.0).floor())
    }
}

/// The state in words, and the data's age at `now_ms` when known.
pub fn freshness_text(freshness: &Freshness, now_ms: f64) -> (String, Option<String>) {
    let state = match freshness {
        Freshness::Waiting => "connecting".to_owned(),
        Freshness::Live { .. } => "live".to_owned(),
        Freshness::Stale { reason, .. } => format!("stale: {reason}"),
        Freshness::Polled { .. } => "polled".to_owned(),
        Freshness::Cached { .. } => "cached".to_owned(),
        Freshness::Refused { code } => format!("not live: {code}"),
    };
    (state, freshness.age_ms(now_ms).map(age_text))
}

/// The indicator: its state word in a live region (announced when it
/// changes, not every second), the age beside it.
#[component]
pub fn LiveStatus(feed: Feed) -> impl IntoView {
    let now = RwSignal::new(js_sys::Date::now());
    let handle = set_interval_with_handle(
        move || {
            now.try_set(js_sys::Date::now());
        },
        std::time::Duration::from_secs(1),
    )
    .ok();
    on_cleanup(move || {
        if let Some(h) = handle {
            h.clear();
        }
    });
    let freshness = feed.freshness();
    let state = Memo::new(move |_| freshness_text(&freshness.get(), 0.0).0);
    let kind = move || match freshness.get() {
        Freshness::Live { .. } => "live",
        Freshness::Stale { .. } | Freshness::Refused { .. } => "stale",
        Freshness::Polled { .. } => "polled",
        Freshness::Cached { .. } => "cached",
        Freshness::Waiting => "waiting",
    };
    let age = move || {
        freshness_text(&freshness.get(), now.get())
            .1
            .map(|a| format!(" · {a}"))
    };
    view! {
        <span class="live-status" data-state=kind title="Where this data comes from and how old it is">
            <span class="live-dot" aria-hidden="true"></span>
            <span class="live-state" role="status" aria-live="polite">{move || state.get()}</span>
            <span class="live-age">{age}</span>
        </span>
    }
}
