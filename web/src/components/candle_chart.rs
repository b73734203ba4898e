//! The price history as candles with a volume band, drawn as SVG.

use super::PricePoint;
use super::chart_cursor;
use crate::format;
use leptos::prelude::*;

const W: f64 = 640.0;
const H: f64 = 280.0;
const PAD_L: f64 = 44.0;
const PAD_R: f64 = 10.0;
const PAD_T: f64 = 12.0;
/// The price pane ends here; the volume bars fill the band below it.
const PRICE_B: f64 = 196.0;
const VOL_T: f64 = 206.0;
const VOL_B: f64 = 254.0;

/// A bar's open, high and low, falling back to its close where the
/// platform sent none (such a bar draws as a flat tick).
fn ohlc(p: &PricePoint) -> (f64, f64, f64, f64) {
    let close = p.price;
    let open = p.open.filter(|v| v.is_finite()).unwrap_or(close);
    let high = p
        .high
        .filter(|v| v.is_finite())
        .unwrap_or(close)
        .max(open.max(close));
    let low = p
        .low
        .filter(|v| v.is_finite())
        .unwrap_or(close)
        .min(open.min(close));
    (open, high, low, close)
}

/// "Open 54¢ · High 56¢ · Low 53¢ · Close 55¢ · Volume $1.2K".
fn bar_text(p: &PricePoint) -> String {
    let (o, h, l, c) = ohlc(p);
    let mut text = format!(
        "Open {} · High {} · Low {} · Close {}",
        format::cents(Some(o)),
        format::cents(Some(h)),
        format::cents(Some(l)),
        format::cents(Some(c))
    );
    if let Some(v) = p.volume {
        text.push_str(&format!(" · Volume {}", format::money(Some(v))));
    }
    text
}

/// Price bars as candles (open to close as the body, high to low as the
/// wick; green when the bar closed at or above its open) over the volume
/// traded in each bar. Focusable: the arrow keys move a readout from bar
/// to bar, announced to screen readers.
#[component]
pub fn CandleChart(points: Vec<PricePoint>) -> impl IntoView {
    let points: Vec<PricePoint> = points
        .into_iter()
        .filter(|p| p.time_ms.is_finite() && p.price.is_finite())
        .collect();
    if points.len() < 2 {
        return view! { <p class="empty">"Not enough price history to chart."</p> }.into_any();
    }
    let n = points.len();
    let (low, high) = points.iter().map(ohlc).fold(
        (f64::INFINITY, f64::NEG_INFINITY),
        |(lo, hi), (_, h, l, _)| (lo.min(l), hi.max(h)),
    );
    let margin = ((high - low) * 0.08).max(0.005);
    let (lo, hi) = ((low - margin).max(0.0), (high + margin).min(1.0));
    let max_volume = points
        .iter()
        .filter_map(|p| p.volume)
        .filter(|v| v.is_finite() && *v > 0.0)
        .fold(0.0, f64::max);
    // Bars sit in equal slots: the service's bars are evenly spaced, and a
    // gap in the data should not squeeze its neighbours.
    let slot = (W - PAD_L - PAD_R) / n as f64;
    let body = (slot * 0.7).clamp(1.0, 14.0);
    let x = move |i: usize| PAD_L + slot * (i as f64 + 0.5);
    let y = move |p: f64| PAD_T + (hi - p) / (hi - lo) * (PRICE_B - PAD_T);
    let bars = points
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let (o, h, l, c) = ohlc(p);
            let cx = x(i);
            let dir = if c >= o { "up" } else { "down" };
            let top = y(o.max(c));
            let height = (y(o.min(c)) - top).max(1.0);
            let volume = p.volume.filter(|_| max_volume > 0.0).map(|v| {
                let vh = (v.max(0.0) / max_volume) * (VOL_B - VOL_T);
                view! { <rect class=format!("volume {dir}") x=cx - body / 2.0 y=VOL_B - vh width=body height=vh.max(0.5) /> }
            });
            view! {
                <g class=format!("candle {dir}")>
                    <line class="wick" x1=cx y1=y(h) x2=cx y2=y(l) />
                    <rect class="body" x=cx - body / 2.0 y=top width=body height=height />
                </g>
                {volume}
            }
        })
        .collect_view();
    let (first, last) = (points[0], points[n - 1]);
    let (t0, t1) = (first.time_ms, last.time_ms);
    let summary = format!(
        "{n} bars from {} to {}; first open {}, last close {}, low {}, high {}",
        format::short_datetime_ms(t0),
        format::short_datetime_ms(t1),
        format::cents(Some(ohlc(&first).0)),
        format::cents(Some(last.price)),
        format::cents(Some(low)),
        format::cents(Some(high)),
    );
    let y_ticks: Vec<f64> = (0..=3)
        .map(|i| lo + (hi - lo) * f64::from(i) / 3.0)
        .collect();
    let points = StoredValue::new(points);
    let hover = RwSignal::new(None::<usize>);
    let on_key = chart_cursor::on_key(hover, n);
    let on_move = move |ev: web_sys::PointerEvent| {
        let Some(vx) = chart_cursor::view_x(&ev, W) else {
            return;
        };
        let i = ((vx - PAD_L) / slot).floor();
        hover.set(Some(i.clamp(0.0, (n - 1) as f64) as usize));
    };
    let bar_of = move || {
        hover
            .get()
            .and_then(|i| points.with_value(|ps| ps.get(i).copied().map(|p| (i, p))))
    };
    let readout = move || {
        bar_of().map(|(i, p)| {
            let px = x(i);
            let anchor = if px > W * 0.6 { "end" } else { "start" };
            let tx = if px > W * 0.6 { px - 8.0 } else { px + 8.0 };
            view! {
                <line class="crosshair" x1=px y1=PAD_T x2=px y2=VOL_B />
                <text class="readout" x=tx y=PAD_T + 12.0 text-anchor=anchor>{format::short_datetime_ms(p.time_ms)}</text>
                <text class="quotes-readout" x=tx y=PAD_T + 30.0 text-anchor=anchor>{bar_text(&p)}</text>
            }
        })
    };
    let live = move || {
        bar_of()
            .map(|(_, p)| format!("{}: {}", format::short_datetime_ms(p.time_ms), bar_text(&p)))
            .unwrap_or_default()
    };
    view! {
        <figure class="chart candle-chart">
            <svg
                viewBox=format!("0 0 {W} {H}")
                role="img"
                tabindex="0"
                aria-label=format!("Candles: {summary}. Use the arrow keys to read bars.")
                on:keydown=on_key
                on:pointermove=on_move
                on:pointerleave=move |_| hover.set(None)
                on:blur=move |_| hover.set(None)
            >
                {y_ticks
                    .into_iter()
                    .map(|t| view! {
                        <line class="grid" x1=PAD_L y1=y(t) x2=W - PAD_R y2=y(t) />
                        <text class="tick" x=PAD_L - 6.0 y=y(t) + 4.0 text-anchor="end">{format::cents(Some(t))}</text>
                    })
                    .collect_view()}
                {(max_volume > 0.0).then(|| view! {
                    <text class="tick" x=PAD_L - 6.0 y=VOL_T + 8.0 text-anchor="end">{format::money(Some(max_volume))}</text>
                    <line class="axis" x1=PAD_L y1=VOL_B x2=W - PAD_R y2=VOL_B />
                })}
                <text class="tick" x=PAD_L y=H - 8.0 text-anchor="start">{format::short_datetime_ms(t0)}</text>
                <text class="tick" x=W - PAD_R y=H - 8.0 text-anchor="end">{format::short_datetime_ms(t1)}</text>
                {bars}
                {readout}
            </svg>
            <figcaption>
                <span>{summary}</span>
                {(max_volume > 0.0).then(|| view! { <span>"Bars below: volume traded in each bar."</span> })}
                <span class="visually-hidden" aria-live="polite">{live}</span>
            </figcaption>
        </figure>
    }
    .into_any()
}
