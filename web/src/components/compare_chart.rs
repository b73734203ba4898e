//! Several outcomes' price histories on one SVG chart, for comparing them.

use crate::format;
use leptos::prelude::*;

const W: f64 = 640.0;
const H: f64 = 260.0;
const PAD_L: f64 = 44.0;
const PAD_R: f64 = 10.0;
const PAD_T: f64 = 12.0;
const PAD_B: f64 = 26.0;

/// One market's line: its name (untrusted text) and (time in ms, price).
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub label: String,
    pub points: Vec<(f64, f64)>,
}

/// Several prices over one time axis and one 0–100¢ scale, each line its
/// own colour and dash (so the lines differ without colour too), a legend
/// naming them, and a table of first and last prices for screen readers.
#[component]
pub fn CompareChart(lines: Vec<Line>) -> impl IntoView {
    let lines: Vec<Line> = lines
        .into_iter()
        .map(|mut l| {
            l.points.retain(|(t, p)| t.is_finite() && p.is_finite());
            l.points.sort_by(|a, b| a.0.total_cmp(&b.0));
            l
        })
        .filter(|l| l.points.len() >= 2)
        .collect();
    if lines.is_empty() {
        return view! { <p class="empty">"Not enough price history to compare."</p> }.into_any();
    }
    let all = lines.iter().flat_map(|l| l.points.iter());
    let (t0, t1, lo, hi) = all.fold(
        (
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ),
        |(t0, t1, lo, hi), &(t, p)| (t0.min(t), t1.max(t), lo.min(p), hi.max(p)),
    );
    let t1 = t1.max(t0 + 1.0);
    let margin = ((hi - lo) * 0.1).max(0.01);
    let (lo, hi) = ((lo - margin).max(0.0), (hi + margin).min(1.0));
    let x = move |t: f64| PAD_L + (t - t0) / (t1 - t0) * (W - PAD_L - PAD_R);
    let y = move |p: f64| PAD_T + (hi - p) / (hi - lo) * (H - PAD_T - PAD_B);
    let paths = lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let d: String = l
                .points
                .iter()
                .enumerate()
                .map(|(k, &(t, p))| {
                    format!("{}{:.1},{:.1}", if k == 0 { "M" } else { " L" }, x(t), y(p))
                })
                .collect();
            view! { <path class=format!("series series-{}", i % 10) d=d /> }
        })
        .collect_view();
    let y_ticks: Vec<f64> = (0..=3)
        .map(|i| lo + (hi - lo) * f64::from(i) / 3.0)
        .collect();
    let summary = format!(
        "{} markets from {} to {}",
        lines.len(),
        format::short_datetime_ms(t0),
        format::short_datetime_ms(t1)
    );
    let legend = lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            view! { <li><span class=format!("key series-{}", i % 10) aria-hidden="true"></span><bdi>{l.label.clone()}</bdi></li> }
        })
        .collect_view();
    let rows = lines
        .iter()
        .map(|l| {
            let first = l.points.first().map(|p| p.1);
            let last = l.points.last().map(|p| p.1);
            let change = first.zip(last).map(|(a, b)| b - a);
            view! {
                <tr>
                    <th scope="row"><bdi>{l.label.clone()}</bdi></th>
                    <td class="num">{format::cents(first)}</td>
                    <td class="num">{format::cents(last)}</td>
                    <td class="num">{format::cents_change(change)}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <figure class="chart compare-chart">
            <svg viewBox=format!("0 0 {W} {H}") role="img" aria-label=format!("{summary}; the table below gives each one's first and last price.")>
                {y_ticks
                    .into_iter()
                    .map(|t| view! {
                        <line class="grid" x1=PAD_L y1=y(t) x2=W - PAD_R y2=y(t) />
                        <text class="tick" x=PAD_L - 6.0 y=y(t) + 4.0 text-anchor="end">{format::cents(Some(t))}</text>
                    })
                    .collect_view()}
                <text class="tick" x=PAD_L y=H - 8.0 text-anchor="start">{format::short_datetime_ms(t0)}</text>
                <text class="tick" x=W - PAD_R y=H - 8.0 text-anchor="end">{format::short_datetime_ms(t1)}</text>
                {paths}
            </svg>
            <figcaption>
                <ul class="legend compare-legend">{legend}</ul>
            </figcaption>
            <div class="table-wrap">
                <table class="data compare-table" id="compare-table">
                    <caption class="visually-hidden">"First and last price of each market"</caption>
                    <thead>
                        <tr>
                            <th scope="col">"Market"</th>
                            <th scope="col" class="num">"First"</th>
                            <th scope="col" class="num">"Last"</th>
                            <th scope="col" class="num">"Change"</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        </figure>
    }
    .into_any()
}
