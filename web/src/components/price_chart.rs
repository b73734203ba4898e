//! A market's price history as a line chart, drawn as SVG.

use super::chart_cursor;
use crate::format;
use leptos::prelude::*;

const W: f64 = 640.0;
const H: f64 = 240.0;
const PAD_L: f64 = 44.0;
const PAD_R: f64 = 10.0;
const PAD_T: f64 = 12.0;
const PAD_B: f64 = 26.0;

/// One point of a price line: time (ms since the epoch), price in 0..1,
/// and the best bid and ask when the service sent them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PricePoint {
    pub time_ms: f64,
    /// The close of the bar.
    pub price: f64,
    pub bid: Option<Quote>,
    pub ask: Option<Quote>,
    /// The rest of the bar (a candle), when the platform sends it.
    pub open: Option<f64>,
    pub high: Option<f64>,
    pub low: Option<f64>,
    /// Traded in the bar, in dollars.
    pub volume: Option<f64>,
}

impl PricePoint {
    /// A point with a price only.
    pub fn new(time_ms: f64, price: f64) -> Self {
        Self {
            time_ms,
            price,
            bid: None,
            ask: None,
            open: None,
            high: None,
            low: None,
            volume: None,
        }
    }
}

/// A bid or ask over one bar: its close (the price), and the range it
/// moved in when the platform sends one (an OHLC bar).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Quote {
    pub close: Option<f64>,
    pub high: Option<f64>,
    pub low: Option<f64>,
}

impl Quote {
    /// The quote of a bar; `None` when it holds no finite price.
    pub fn of(bar: &predmarket_core::models::PriceBar) -> Option<Self> {
        let finite = |v: Option<f64>| v.filter(|v| v.is_finite());
        let quote = Self {
            close: finite(bar.close),
            high: finite(bar.high),
            low: finite(bar.low),
        };
        (quote != Self::default()).then_some(quote)
    }

    /// Every value it holds, for the vertical range of the chart.
    fn values(self) -> impl Iterator<Item = f64> {
        [self.close, self.high, self.low].into_iter().flatten()
    }

    /// "54¢", "54¢ (53¢–55¢)" with a range, or the range alone.
    pub fn text(self) -> String {
        let range = match (self.low, self.high) {
            (Some(lo), Some(hi)) => Some(format!(
                "{}–{}",
                format::cents(Some(lo)),
                format::cents(Some(hi))
            )),
            (Some(lo), None) => Some(format!("low {}", format::cents(Some(lo)))),
            (None, Some(hi)) => Some(format!("high {}", format::cents(Some(hi)))),
            (None, None) => None,
        };
        match (self.close, range) {
            (Some(c), Some(r)) => format!("{} ({r})", format::cents(Some(c))),
            (Some(c), None) => format::cents(Some(c)),
            (None, Some(r)) => r,
            (None, None) => format::NONE.into(),
        }
    }
}

/// A side's text, a dash when the point has none.
fn side_text(quote: Option<Quote>) -> String {
    quote.map_or_else(|| format::NONE.to_owned(), Quote::text)
}

/// "Bid 54¢ (53¢–55¢) · Ask 56¢", or `None` when the point has neither.
fn quotes_text(p: &PricePoint) -> Option<String> {
    (p.bid.is_some() || p.ask.is_some())
        .then(|| format!("Bid {} · Ask {}", side_text(p.bid), side_text(p.ask)))
}

/// An SVG path through the points that have a value (`None` breaks no
/// line: the gap is bridged, as the price line does).
fn path_of(points: impl Iterator<Item = (f64, f64)>) -> String {
    points
        .enumerate()
        .map(|(i, (x, y))| format!("{}{x:.1},{y:.1}", if i == 0 { "M" } else { " L" }))
        .collect()
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
    // The range holds the bid and ask too, so their lines stay inside.
    let (mut lo, mut hi) = points
        .iter()
        .flat_map(|p| {
            let quotes = p.bid.into_iter().chain(p.ask).flat_map(Quote::values);
            std::iter::once(p.price).chain(quotes)
        })
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    let margin = ((hi - lo) * 0.1).max(0.005);
    lo = (lo - margin).max(0.0);
    hi = (hi + margin).min(1.0);
    let x = move |t: f64| PAD_L + (t - t0) / (t1 - t0) * (W - PAD_L - PAD_R);
    let y = move |p: f64| PAD_T + (hi - p) / (hi - lo) * (H - PAD_T - PAD_B);
    let line = path_of(points.iter().map(|p| (x(p.time_ms), y(p.price))));
    // Bid and ask: their closes as lines, their high–low range (when the
    // bars have one) as a band behind them.
    let side_line = |side: fn(&PricePoint) -> Option<Quote>| {
        let line = path_of(points.iter().filter_map(|p| {
            let close = side(p)?.close?;
            Some((x(p.time_ms), y(close)))
        }));
        let ranged: Vec<(f64, f64, f64)> = points
            .iter()
            .filter_map(|p| {
                let q = side(p)?;
                Some((x(p.time_ms), y(q.high?), y(q.low?)))
            })
            .collect();
        let band = (ranged.len() >= 2).then(|| {
            let top = path_of(ranged.iter().map(|&(px, hy, _)| (px, hy)));
            let bottom: String = ranged
                .iter()
                .rev()
                .map(|&(px, _, ly)| format!(" L{px:.1},{ly:.1}"))
                .collect();
            format!("{top}{bottom} Z")
        });
        (line, band)
    };
    let (bid_line, bid_band) = side_line(|p| p.bid);
    let (ask_line, ask_band) = side_line(|p| p.ask);
    let has_quotes = points.iter().any(|p| p.bid.is_some() || p.ask.is_some());
    let last_quotes = points
        .iter()
        .rev()
        .find(|p| p.bid.is_some() || p.ask.is_some())
        .map(|p| format!("; last bid {}, ask {}", side_text(p.bid), side_text(p.ask)));
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
    let mut summary = format!(
        "Price from {} to {} between {} and {}; low {}, high {}",
        format::cents(Some(first)),
        format::cents(Some(last)),
        format::short_datetime_ms(t0),
        format::short_datetime_ms(t1),
        format::cents(Some(min)),
        format::cents(Some(max)),
    );
    if let Some(q) = &last_quotes {
        summary.push_str(q);
    }
    let y_ticks: Vec<f64> = (0..=3)
        .map(|i| lo + (hi - lo) * f64::from(i) / 3.0)
        .collect();
    let n = points.len();
    let points = StoredValue::new(points);
    let hover = RwSignal::new(None::<usize>);

    let on_move = move |ev: web_sys::PointerEvent| {
        let Some(vx) = chart_cursor::view_x(&ev, W) else {
            return;
        };
        let t = t0 + (vx - PAD_L) / (W - PAD_L - PAD_R) * (t1 - t0);
        let index = points.with_value(|ps| {
            ps.iter()
                .enumerate()
                .min_by(|a, b| (a.1.time_ms - t).abs().total_cmp(&(b.1.time_ms - t).abs()))
                .map(|(i, _)| i)
        });
        hover.set(index);
    };
    let on_key = chart_cursor::on_key(hover, n);
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
                {quotes_text(&p).map(|q| view! {
                    <text class="quotes-readout" x=tx y=PAD_T + 34.0 text-anchor=anchor>{q}</text>
                })}
            }
        })
    };
    let live = move || {
        hover
            .get()
            .and_then(|i| points.with_value(|ps| ps.get(i).copied()))
            .map(|p| {
                let quotes = quotes_text(&p)
                    .map(|q| format!(", {q}"))
                    .unwrap_or_default();
                format!(
                    "{}: {}{quotes}",
                    format::short_datetime_ms(p.time_ms),
                    format::cents(Some(p.price))
                )
            })
            .unwrap_or_default()
    };
    view! {
        <figure class=format!("chart price-chart trend-{trend}{}", if has_quotes { " with-quotes" } else { "" })>
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
                {bid_band.map(|d| view! { <path class="band bid-band" d=d /> })}
                {ask_band.map(|d| view! { <path class="band ask-band" d=d /> })}
                {(!bid_line.is_empty()).then(|| view! { <path class="quote-line bid-line" d=bid_line /> })}
                {(!ask_line.is_empty()).then(|| view! { <path class="quote-line ask-line" d=ask_line /> })}
                <path class="line" d=line />
                {readout}
            </svg>
            <figcaption>
                {has_quotes.then(|| view! {
                    <span class="legend">
                        <span class="key price">"Price"</span>
                        <span class="key bid">"Bid"</span>
                        <span class="key ask">"Ask"</span>
                    </span>
                })}
                <span>{summary}</span>
                <span class="visually-hidden" aria-live="polite">{live}</span>
            </figcaption>
            {has_quotes.then(|| view! { <PriceTable points=points.get_value() /> })}
        </figure>
    }
    .into_any()
}

/// The points as a table, folded away: the exact bid and ask of every bar
/// (with its range), which a line cannot show.
#[component]
fn PriceTable(points: Vec<PricePoint>) -> impl IntoView {
    let rows = points
        .iter()
        .rev()
        .map(|p| {
            view! {
                <tr>
                    <td>{format::datetime_ms(p.time_ms)}</td>
                    <td class="num">{format::cents(Some(p.price))}</td>
                    <td class="num bid">{side_text(p.bid)}</td>
                    <td class="num ask">{side_text(p.ask)}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <details class="chart-data">
            <summary>"Prices, bid and ask by bar"</summary>
            <div class="table-wrap">
                <table class="data price-points">
                    <caption class="visually-hidden">"Price history, newest first"</caption>
                    <thead>
                        <tr>
                            <th scope="col">"Time"</th>
                            <th scope="col" class="num">"Price"</th>
                            <th scope="col" class="num">"Bid (low–high)"</th>
                            <th scope="col" class="num">"Ask (low–high)"</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        </details>
    }
}
