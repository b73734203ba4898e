//! A recorded history drawn as stepped lines, one per series, broken
//! wherever the archive says a row does not follow the one before (a
//! `gap`, a `resync`, a recorder's restart): what happened in between is
//! unknown, so no line crosses it; the stretch is shaded instead. A
//! summary and a table of every row stand beside the drawing.

use crate::api::Continuity;
use crate::format;
use leptos::prelude::*;

const W: f64 = 640.0;
const H: f64 = 200.0;
const PAD_L: f64 = 8.0;
const PAD_R: f64 = 8.0;
const PAD_T: f64 = 12.0;
const PAD_B: f64 = 26.0;

/// One recorded row as a chart reads it: when, how it follows the row
/// before, and its values by series label.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    pub at_ms: f64,
    pub continuity: Continuity,
    pub values: Vec<(String, f64)>,
}

impl Sample {
    fn value(&self, label: &str) -> Option<f64> {
        self.values
            .iter()
            .find(|(l, v)| l == label && v.is_finite())
            .map(|(_, v)| *v)
    }
}

/// The series' labels, in the order they first appear.
pub fn labels(samples: &[Sample]) -> Vec<String> {
    let mut labels: Vec<String> = Vec::new();
    for (label, _) in samples.iter().flat_map(|s| &s.values) {
        if !labels.contains(label) {
            labels.push(label.clone());
        }
    }
    labels
}

/// The stretches no line may cross: from the row before a break to the
/// row that breaks, with the break's continuity.
pub fn breaks(samples: &[Sample]) -> Vec<(f64, f64, Continuity)> {
    samples
        .windows(2)
        .filter(|pair| pair[1].continuity.breaks())
        .map(|pair| (pair[0].at_ms, pair[1].at_ms, pair[1].continuity))
        .collect()
}

/// The stepped path of one series: each value holds until the next row;
/// the pen lifts at a break and where the row has no value.
fn series_path(
    samples: &[Sample],
    label: &str,
    x: impl Fn(f64) -> f64,
    y: impl Fn(f64) -> f64,
) -> String {
    let mut d = String::new();
    let mut drawing = false;
    for sample in samples {
        if sample.continuity.breaks() {
            drawing = false;
        }
        match sample.value(label) {
            Some(v) if drawing => {
                d.push_str(&format!(" H{:.1} V{:.1}", x(sample.at_ms), y(v)));
            }
            Some(v) => {
                d.push_str(&format!(" M{:.1},{:.1}", x(sample.at_ms), y(v)));
                drawing = true;
            }
            None => drawing = false,
        }
    }
    d.trim_start().to_owned()
}

/// How a row follows the one before, in words.
pub fn continuity_text(continuity: Continuity) -> String {
    match continuity {
        Continuity::First => "first recorded".into(),
        Continuity::Continues => "continues".into(),
        // 0: a gap whose length the server did not say.
        Continuity::Gap(0) => "after a gap".into(),
        Continuity::Gap(ms) => format!("after a gap of {}", seconds(ms as f64)),
        Continuity::Resync => "after lost rows".into(),
    }
}

fn seconds(ms: f64) -> String {
    format!("{} s", format::integer(Some((ms / 1000.0).round())))
}

/// A recorded history: the lines of `samples` (oldest first), `unit`
/// reading each value, with what it is (`title`) in its summary.
#[component]
pub fn HistoryChart(
    #[prop(into)] title: String,
    samples: Vec<Sample>,
    unit: fn(f64) -> String,
) -> impl IntoView {
    let (Some(first), Some(last)) = (samples.first(), samples.last()) else {
        return view! { <p class="empty">"Nothing recorded in this window."</p> }.into_any();
    };
    let (t0, t1) = (first.at_ms, last.at_ms.max(first.at_ms + 1.0));
    let labels = labels(&samples);
    let values = samples
        .iter()
        .flat_map(|s| s.values.iter().map(|(_, v)| *v));
    let (lo, hi) = values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    let (lo, hi) = if lo.is_finite() {
        let margin = ((hi - lo) * 0.08).max(hi.abs() * 0.02).max(1e-6);
        (lo - margin, hi + margin)
    } else {
        (0.0, 1.0)
    };
    let x = move |ms: f64| PAD_L + (ms - t0) / (t1 - t0) * (W - PAD_L - PAD_R);
    let y = move |v: f64| H - PAD_B - (v - lo) / (hi - lo) * (H - PAD_T - PAD_B);
    let breaks = breaks(&samples);
    let missing_ms: f64 = breaks.iter().map(|(from, to, _)| to - from).sum();
    let summary = format!(
        "{title}: {} recorded answers from {} to {}; {} break{} in the record ({} without a known answer), where no line is drawn.",
        samples.len(),
        format::time_ms(first.at_ms),
        format::time_ms(last.at_ms),
        breaks.len(),
        if breaks.len() == 1 { "" } else { "s" },
        seconds(missing_ms),
    );
    let paths: Vec<(usize, String, String)> = labels
        .iter()
        .enumerate()
        .map(|(i, label)| (i, label.clone(), series_path(&samples, label, x, y)))
        .collect();
    let shaded = breaks
        .iter()
        .map(|(from, to, continuity)| {
            let (left, right) = (x(*from), x(*to));
            let tip = format!(
                "{} to {}: no known answer ({})",
                format::time_ms(*from),
                format::time_ms(*to),
                continuity_text(*continuity)
            );
            view! {
                <rect class="gap" x=left y=PAD_T width={(right - left).max(1.0)} height={H - PAD_T - PAD_B}>
                    <title>{tip}</title>
                </rect>
            }
        })
        .collect_view();
    let head = labels.clone();
    let rows = samples
        .iter()
        .map(|s| {
            let cells = labels
                .iter()
                .map(|l| view! { <td class="num">{s.value(l).map(unit).unwrap_or_else(|| format::NONE.into())}</td> })
                .collect_view();
            let class = if s.continuity.breaks() { "break" } else { "" };
            view! {
                <tr class=class>
                    <td>{format::time_ms(s.at_ms)}</td>
                    <td>{continuity_text(s.continuity)}</td>
                    {cells}
                </tr>
            }
        })
        .collect_view();
    let count = samples.len();
    view! {
        <figure class="chart history-chart">
            <svg viewBox=format!("0 0 {W} {H}") role="img" aria-label=summary.clone()>
                <line class="axis" x1=PAD_L y1=H - PAD_B x2=W - PAD_R y2=H - PAD_B />
                {shaded}
                {paths
                    .into_iter()
                    .map(|(i, label, d)| view! { <path class=format!("series s{}", i % 4) data-label=label d=d /> })
                    .collect_view()}
                <text class="tick" x=PAD_L y=H - 8.0 text-anchor="start">{format::time_ms(t0)}</text>
                <text class="tick" x=W - PAD_R y=H - 8.0 text-anchor="end">{format::time_ms(t1)}</text>
                <text class="tick" x=PAD_L y=PAD_T + 2.0 text-anchor="start">{unit(hi)}</text>
            </svg>
            <figcaption>
                {labels
                    .iter()
                    .enumerate()
                    .map(|(i, label)| view! { <span class=format!("key s{}", i % 4)>{label.clone()}</span> })
                    .collect_view()}
                {(!breaks.is_empty()).then(|| view! { <span class="key gap">"No known answer"</span> })}
            </figcaption>
        </figure>
        <p class="history-summary">{summary}</p>
        <details class="history-rows">
            <summary>{format!("Every recorded answer ({count})")}</summary>
            <table class="history-rows">
                <thead>
                    <tr>
                        <th scope="col">"Received"</th>
                        <th scope="col">"Continuity"</th>
                        {head.into_iter().map(|l| view! { <th scope="col" class="num">{l}</th> }).collect_view()}
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </details>
    }
    .into_any()
}
