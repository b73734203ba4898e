//! The order book's cumulative depth per side, drawn as SVG.

use crate::format;
use leptos::prelude::*;
use predmarket_core::orderbook::{DepthCurve, DepthPoint};

const W: f64 = 640.0;
const H: f64 = 220.0;
const PAD_L: f64 = 8.0;
const PAD_R: f64 = 8.0;
const PAD_T: f64 = 12.0;
const PAD_B: f64 = 26.0;

/// The price window of the chart: both curves, a little margin, within 0..1.
fn window(curve: &DepthCurve) -> Option<(f64, f64)> {
    let prices = curve.bids.iter().chain(&curve.asks).map(|p| p.price);
    let (lo, hi) = prices.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
        (lo.min(p), hi.max(p))
    });
    if !lo.is_finite() || !hi.is_finite() {
        return None;
    }
    let margin = ((hi - lo) * 0.08).max(0.01);
    Some((
        (lo - margin).max(0.0),
        (hi + margin).min(1.0).max(lo + 0.01),
    ))
}

/// A step path of one side, from its best price outward, closed to the axis.
fn side_path(
    points: &[DepthPoint],
    x: impl Fn(f64) -> f64,
    y: impl Fn(f64) -> f64,
    edge: f64,
) -> String {
    let Some(first) = points.first() else {
        return String::new();
    };
    let mut d = format!(
        "M{:.1},{:.1} L{:.1},{:.1}",
        x(first.price),
        y(0.0),
        x(first.price),
        y(first.cumulative)
    );
    let mut last = first.cumulative;
    for p in &points[1..] {
        d.push_str(&format!(
            " L{:.1},{:.1} L{:.1},{:.1}",
            x(p.price),
            y(last),
            x(p.price),
            y(p.cumulative)
        ));
        last = p.cumulative;
    }
    d.push_str(&format!(
        " L{:.1},{:.1} L{:.1},{:.1} Z",
        x(edge),
        y(last),
        x(edge),
        y(0.0)
    ));
    d
}

/// Cumulative depth of both sides of one outcome's book (the core's depth
/// curve): bids to the left of the spread, asks to the right.
#[component]
pub fn DepthChart(curve: DepthCurve, #[prop(default = None)] mid: Option<f64>) -> impl IntoView {
    let Some((lo, hi)) = window(&curve) else {
        return view! { <p class="empty depth-empty">"No resting orders to chart."</p> }.into_any();
    };
    let max = curve
        .bids
        .last()
        .map(|p| p.cumulative)
        .unwrap_or(0.0)
        .max(curve.asks.last().map(|p| p.cumulative).unwrap_or(0.0))
        .max(1.0);
    let x = move |price: f64| PAD_L + (price - lo) / (hi - lo) * (W - PAD_L - PAD_R);
    let y = move |size: f64| H - PAD_B - size / max * (H - PAD_T - PAD_B);
    let bids = side_path(&curve.bids, x, y, lo);
    let asks = side_path(&curve.asks, x, y, hi);
    let ticks: Vec<f64> = (0..=4)
        .map(|i| lo + (hi - lo) * f64::from(i) / 4.0)
        .collect();
    let label = format!(
        "Depth chart: {} bid levels down to {}, {} ask levels up to {}; deepest side {} shares",
        curve.bids.len(),
        format::cents(curve.bids.last().map(|p| p.price)),
        curve.asks.len(),
        format::cents(curve.asks.last().map(|p| p.price)),
        format::shares(Some(max)),
    );
    let aria = label.clone();
    view! {
        <figure class="chart depth-chart">
            <svg viewBox=format!("0 0 {W} {H}") role="img" aria-label=aria>
                <title>{label}</title>
                <line class="axis" x1=PAD_L y1=H - PAD_B x2=W - PAD_R y2=H - PAD_B />
                {ticks
                    .into_iter()
                    .map(|t| {
                        view! {
                            <text class="tick" x=x(t) y=H - 8.0 text-anchor="middle">{format::cents(Some(t))}</text>
                        }
                    })
                    .collect_view()}
                <text class="tick depth-max" x=W / 2.0 y=PAD_T + 2.0 text-anchor="middle">{format!("{} shares deep", format::shares(Some(max.round())))}</text>
                <path class="bids" d=bids />
                <path class="asks" d=asks />
                {mid.map(|m| view! { <line class="mid" x1=x(m) y1=PAD_T x2=x(m) y2=H - PAD_B /> })}
            </svg>
            <figcaption>
                <span class="key bid">"Bids"</span>
                <span class="key ask">"Asks"</span>
                {mid.map(|m| view! { <span class="key mid">"Mid " {format::cents(Some(m))}</span> })}
            </figcaption>
        </figure>
    }
    .into_any()
}
