use crate::format;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

const W: f64 = 640.0;
const H: f64 = 240.0;
const PAD_L: f64 = 44.0;
const PAD_R: f64 = 10.0;
const PAD_T: f64 = 12.0;
const PAD_B: f64 = 26.0;

/// One point of a price line: time (ms since the epoch) and price in 0..1.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PricePoint {
    pub time_ms: f64,
    pub price: f64,
}

/// A price line over time, with a crosshair that follows the pointer or the
/// arrow keys (the chart is focusable), and a text summary for screen
/// readers.
#[component]
pub fn PriceChart(points: Vec<PricePoint>) -> impl IntoView {
    let points: Vec<PricePoint> = points
        .into_iter()
        .filter(|p| p.time_ms.is_finite() && p.price.is_finite())
        .collect();
    if points.len() < 2 {
        return view! { <p class="empty">"Not enough price history to chart."</p> }.into_any();
    }
    let (t0, t1) = (
        points[0].time_ms,
        points[points.len() - 1]
            .time_ms
            .max(points[0].time_ms + 1.0),
    );
    let (mut lo, mut hi) = points
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
            (lo.min(p.price), hi.max(p.price))
        });
    let margin = ((hi - lo) * 0.1).max(0.005);
    lo = (lo - margin).max(0.0);
    hi = (hi + margin).min(1.0);
    let x = move |t: f64| PAD_L + (t - t0) / (t1 - t0) * (W - PAD_L - PAD_R);
    let y = move |p: f64| PAD_T + (hi - p) / (hi - lo) * (H - PAD_T - PAD_B);
    let line: String = points
        .iter()
        .enumerate()
        .map(|(i, p)| {
            format!(
                "{}{:.1},{:.1}",
                if i == 0 { "M" } else { " L" },
                x(p.time_ms),
                y(p.price)
            )
        })
        .collect();
    let area = format!(
        "{line} L{:.1},{:.1} L{:.1},{:.1} Z",
        x(t1),
        H - PAD_B,
        x(t0),
        H - PAD_B
    );
    let first = points[0].price;
    let last = points[points.len() - 1].price;
    let (min, max) = points
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
            (a.min(p.price), b.max(p.price))
        });
    let trend = if last >= first { "up" } else { "down" };
    let summary = format!(
        "Price from {} to {} between {} and {}; low {}, high {}",
        format::cents(Some(first)),
        format::cents(Some(last)),
        format::short_datetime_ms(t0),
        format::short_datetime_ms(t1),
        format::cents(Some(min)),
        format::cents(Some(max)),
    );
    let y_ticks: Vec<f64> = (0..=3)
        .map(|i| lo + (hi - lo) * f64::from(i) / 3.0)
        .collect();
    let n = points.len();
    let points = StoredValue::new(points);
    let hover = RwSignal::new(None::<usize>);

    let on_move = move |ev: web_sys::PointerEvent| {
        let Some(target) = ev
            .current_target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        else {
            return;
        };
        let rect = target.get_bounding_client_rect();
        if rect.width() <= 0.0 {
            return;
        }
        let vx = (f64::from(ev.client_x()) - rect.left()) / rect.width() * W;
        let t = t0 + (vx - PAD_L) / (W - PAD_L - PAD_R) * (t1 - t0);
        let index = points.with_value(|ps| {
            ps.iter()
                .enumerate()
                .min_by(|a, b| (a.1.time_ms - t).abs().total_cmp(&(b.1.time_ms - t).abs()))
                .map(|(i, _)| i)
        });
        hover.set(index);
    };
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let current = hover.get_untracked();
        let next = match ev.key().as_str() {
            "ArrowLeft" => Some(current.map_or(n - 1, |i| i.saturating_sub(1))),
            "ArrowRight" => Some(current.map_or(n - 1, |i| (i + 1).min(n - 1))),
            "Home" => Some(0),
            "End" => Some(n - 1),
            "Escape" => None,
            _ => return,
        };
        ev.prevent_default();
        hover.set(next);
    };
    let readout = move || {
        hover.get().and_then(|i| points.with_value(|ps| ps.get(i).copied())).map(|p| {
            let (px, py) = (x(p.time_ms), y(p.price));
            let anchor = if px > W * 0.7 { "end" } else { "start" };
            let tx = if px > W * 0.7 { px - 8.0 } else { px + 8.0 };
            view! {
                <line class="crosshair" x1=px y1=PAD_T x2=px y2=H - PAD_B />
                <circle class="dot" cx=px cy=py r="4" />
                <text class="readout" x=tx y=PAD_T + 12.0 text-anchor=anchor>
                    {format!("{} · {}", format::short_datetime_ms(p.time_ms), format::cents(Some(p.price)))}
                </text>
            }
        })
    };
    let live = move || {
        hover
            .get()
            .and_then(|i| points.with_value(|ps| ps.get(i).copied()))
            .map(|p| {
                format!(
                    "{}: {}",
                    format::short_datetime_ms(p.time_ms),
                    format::cents(Some(p.price))
                )
            })
            .unwrap_or_default()
    };
    view! {
        <figure class=format!("chart price-chart trend-{trend}")>
            <svg
                viewBox=format!("0 0 {W} {H}")
                role="img"
                tabindex="0"
                aria-label=format!("{summary}. Use the arrow keys to read points.")
                on:pointermove=on_move
                on:pointerleave=move |_| hover.set(None)
                on:keydown=on_key
                on:blur=move |_| hover.set(None)
            >
                {y_ticks
                    .into_iter()
                    .map(|t| {
                        view! {
                            <line class="grid" x1=PAD_L y1=y(t) x2=W - PAD_R y2=y(t) />
                            <text class="tick" x=PAD_L - 6.0 y=y(t) + 4.0 text-anchor="end">{format::cents(Some(t))}</text>
                        }
                    })
                    .collect_view()}
                <text class="tick" x=PAD_L y=H - 8.0 text-anchor="start">{format::short_datetime_ms(t0)}</text>
                <text class="tick" x=W - PAD_R y=H - 8.0 text-anchor="end">{format::short_datetime_ms(t1)}</text>
                <path class="area" d=area />
                <path class="line" d=line />
                {readout}
            </svg>
            <figcaption>
                <span>{summary}</span>
                <span class="visually-hidden" aria-live="polite">{live}</span>
            </figcaption>
        </figure>
    }
    .into_any()
}
