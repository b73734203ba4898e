//! Live views: every view that keeps itself fresh asks the page's one
//! scheduler, which fits them all into the rate budget together (one
//! timer, not one per view).

use super::session::{Revalidate, client};
use leptos::prelude::*;

/// Every live view of the page, fitted into the rate budget together by
/// the core's scheduler ([`intervals`]): one timer, not one per view.
///
/// [`intervals`]: predmarket_client::core::schedule::intervals
#[derive(Default)]
struct Watches {
    next_id: u64,
    active: Vec<Active>,
    timer: Option<leptos::leptos_dom::helpers::IntervalHandle>,
}

struct Active {
    id: u64,
    interval_ms: f64,
    last_ms: f64,
    fresh: Revalidate,
}

thread_local! {
    static WATCHES: std::cell::RefCell<Watches> = std::cell::RefCell::new(Watches::default());
}

/// The scheduler's tick: which views are due now, by the intervals the
/// budget affords every active view together (slower while the page is
/// hidden or the budget, shared by every tab of the key, runs low; never
/// faster than asked).
fn tick() {
    use predmarket_client::core::schedule::{Watch, intervals};
    let visible = web_sys::window()
        .and_then(|w| w.document())
        .is_none_or(|d| !d.hidden());
    let Ok(client) = client() else {
        return;
    };
    let (limit, remaining) = (
        client.config().rate_limit_per_minute,
        client.rate_budget_remaining(),
    );
    let now = js_sys::Date::now();
    let due: Vec<Revalidate> = WATCHES.with(|w| {
        let mut w = w.borrow_mut();
        let wanted: Vec<Watch> = w
            .active
            .iter()
            .map(|a| Watch {
                interval_ms: a.interval_ms,
                visible,
            })
            .collect();
        let every = intervals(&wanted, limit, remaining);
        w.active
            .iter_mut()
            .zip(every)
            .filter(|(a, every)| now - a.last_ms >= *every)
            .map(|(a, _)| {
                a.last_ms = now;
                a.fresh
            })
            .collect()
    });
    // Outside the borrow: a reload may build or drop views (and watches).
    for fresh in due {
        (fresh.trigger())();
    }
}

/// Keeps a view live: asks `fresh` to reload about every `interval_ms`, as
/// the page's one scheduler allows it, until the view goes away.
pub fn watch(interval_ms: f64, fresh: Revalidate) {
    let id = WATCHES.with(|w| {
        let mut w = w.borrow_mut();
        w.next_id += 1;
        let id = w.next_id;
        w.active.push(Active {
            id,
            interval_ms,
            last_ms: js_sys::Date::now(),
            fresh,
        });
        if w.timer.is_none() {
            w.timer = set_interval_with_handle(tick, std::time::Duration::from_millis(500)).ok();
        }
        id
    });
    on_cleanup(move || {
        WATCHES.with(|w| {
            let mut w = w.borrow_mut();
            w.active.retain(|a| a.id != id);
            if w.active.is_empty()
                && let Some(timer) = w.timer.take()
            {
                timer.clear();
            }
        });
    });
}
