//! How often a watch (a view kept live by polling) may ask the service,
//! so that every watch of a key together fits its budget.
//! Sans-IO arithmetic; the client and the demo run the timers.

/// The share of the key's per-minute limit all watches together may use:
/// the rest stays for what the user opens.
pub const WATCH_SHARE: f64 = 0.5;

/// Requests kept back: below this many left in the window, watches slow
/// down to [`LOW_BUDGET_INTERVAL_MS`] so pages still load.
pub const RESERVE: u32 = 10;

/// A watch's interval while the budget is nearly spent.
pub const LOW_BUDGET_INTERVAL_MS: f64 = 15_000.0;

/// How much slower a watch polls while its page is hidden.
pub const HIDDEN_FACTOR: f64 = 6.0;

/// One watch as the scheduler sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Watch {
    /// What the caller asked for.
    pub interval_ms: f64,
    /// On screen (a hidden page, or a view scrolled away, is not).
    pub visible: bool,
}

/// The interval each watch gets, in order: what it asked for, slower when
/// hidden, and never faster than the budget affords. Visible watches are
/// served first: hidden ones share what the visible ones leave, and only
/// when nothing is left do all of them slow to the low-budget pace. An
/// interval is only ever lengthened, so polling cannot cause a 429.
pub fn intervals(watches: &[Watch], limit_per_minute: u32, remaining: u32) -> Vec<f64> {
    intervals_with_share(watches, limit_per_minute, remaining, WATCH_SHARE)
}

/// [`intervals`] with the share of the budget all watches together may use
/// given (a server polling for many viewers keeps `1 - share` for its
/// visitors' own requests). A share outside `(0, 1]` is read as
/// [`WATCH_SHARE`].
pub fn intervals_with_share(
    watches: &[Watch],
    limit_per_minute: u32,
    remaining: u32,
    share: f64,
) -> Vec<f64> {
    let share = if share > 0.0 && share <= 1.0 {
        share
    } else {
        WATCH_SHARE
    };
    let low = remaining <= RESERVE;
    let affordable = (f64::from(limit_per_minute) * share).max(1.0);
    let wanted = |w: &Watch| {
        let base = w.interval_ms.max(1.0);
        if w.visible {
            base
        } else {
            base * HIDDEN_FACTOR
        }
    };
    let per_minute = |ms: f64| 60_000.0 / ms;
    let visible_rate: f64 = watches
        .iter()
        .filter(|w| w.visible)
        .map(|w| per_minute(wanted(w)))
        .sum();
    let hidden_rate: f64 = watches
        .iter()
        .filter(|w| !w.visible)
        .map(|w| per_minute(wanted(w)))
        .sum();
    // Visible watches take what they need up to the share; hidden ones
    // split the rest (at least a sliver, so they are not starved forever).
    let visible_scale = (visible_rate / affordable).max(1.0);
    let left = (affordable - visible_rate.min(affordable)).max(affordable * 0.05);
    let hidden_scale = (hidden_rate / left).max(1.0);
    watches
        .iter()
        .map(|w| {
            let scale = if w.visible {
                visible_scale
            } else {
                hidden_scale
            };
            let ms = wanted(w) * scale;
            if low {
                ms.max(LOW_BUDGET_INTERVAL_MS)
            } else {
                ms
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn watch(interval_ms: f64, visible: bool) -> Watch {
        Watch {
            interval_ms,
            visible,
        }
    }

    fn rate(intervals: &[f64]) -> f64 {
        intervals.iter().map(|ms| 60_000.0 / ms).sum()
    }

    #[test]
    fn a_larger_share_grants_more_and_a_bad_one_is_the_default() {
        let watches = vec![watch(1_000.0, true); 10];
        let half = intervals_with_share(&watches, 100, 80, 0.5);
        let most = intervals_with_share(&watches, 100, 80, 0.9);
        assert!(rate(&most) > rate(&half));
        assert!(rate(&most) <= 90.0 + 1e-9, "{most:?}");
        for bad in [0.0, -1.0, 1.5, f64::NAN] {
            assert_eq!(intervals_with_share(&watches, 100, 80, bad), half);
        }
    }

    #[test]
    fn what_fits_is_granted_as_asked() {
        let got = intervals(&[watch(5_000.0, true), watch(10_000.0, true)], 100, 80);
        assert_eq!(got, vec![5_000.0, 10_000.0]);
    }

    #[test]
    fn too_many_watches_are_slowed_to_the_share() {
        let watches = vec![watch(1_000.0, true); 10];
        let got = intervals(&watches, 100, 80);
        assert!(rate(&got) <= 100.0 * WATCH_SHARE + 1e-9, "{got:?}");
        assert!(got.iter().all(|ms| *ms >= 1_000.0));
    }

    #[test]
    fn hidden_watches_go_slower_and_after_the_visible_ones() {
        let got = intervals(&[watch(2_000.0, true), watch(2_000.0, false)], 100, 80);
        assert_eq!(got[0], 2_000.0);
        assert_eq!(got[1], 2_000.0 * HIDDEN_FACTOR);
        // Visible watches using the whole share leave hidden ones a sliver.
        let mut many = vec![watch(1_200.0, true)];
        many.push(watch(1_000.0, false));
        let got = intervals(&many, 100, 80);
        assert_eq!(got[0], 1_200.0);
        assert!(rate(&got[1..]) <= 100.0 * WATCH_SHARE * 0.05 + 1e-9);
    }

    #[test]
    fn a_nearly_spent_budget_slows_every_watch() {
        let got = intervals(&[watch(1_000.0, true)], 100, RESERVE);
        assert_eq!(got, vec![LOW_BUDGET_INTERVAL_MS]);
        let got = intervals(&[watch(60_000.0, true)], 100, 0);
        assert_eq!(got, vec![60_000.0], "never made faster");
    }

    #[test]
    fn intervals_only_ever_lengthen() {
        for n in 1..20 {
            for remaining in [0, 5, 50, 100] {
                let watches: Vec<_> = (0..n)
                    .map(|i| watch(500.0 + f64::from(i) * 700.0, i % 3 != 0))
                    .collect();
                let got = intervals(&watches, 100, remaining);
                for (w, ms) in watches.iter().zip(&got) {
                    assert!(*ms >= w.interval_ms, "{w:?} {ms}");
                }
            }
        }
    }
}
