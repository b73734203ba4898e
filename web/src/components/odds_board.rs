//! The odds grid: outcomes by platform with best prices, no-vig odds and
//! arbitrage.

use crate::api::platform_name;
use crate::format;
use leptos::prelude::*;
use predmarket_core::models::OddsFormat;
use predmarket_core::odds::{self, Arbitrage, Quote};
use std::collections::BTreeMap;

/// Stake the arbitrage summary is worked out for.
const BUDGET: f64 = 100.0;

/// Outcomes × platforms of one question, worked out once.
#[derive(Debug, Clone, PartialEq)]
pub struct Board {
    /// Outcome key and label, favourites first.
    pub outcomes: Vec<(String, String)>,
    pub platforms: Vec<String>,
    /// (outcome, platform) → decimal odds.
    pub cells: BTreeMap<(String, String), f64>,
    /// Outcome → best decimal odds.
    pub best: BTreeMap<String, (f64, String)>,
    /// Outcome → fair probability: each platform's prices without its
    /// margin (no-vig), averaged over the platforms quoting the outcome.
    pub fair: BTreeMap<String, f64>,
    /// Platform → its margin (overround) over the outcomes it prices.
    pub margin: BTreeMap<String, f64>,
    pub arbitrage: Option<Arbitrage>,
    /// Sum of the best implied probabilities (below 1: arbitrage).
    pub best_sum: f64,
}

fn platform_of(q: &Quote) -> String {
    q.platform
        .as_ref()
        .map(|p| p.as_str().to_owned())
        .unwrap_or_else(|| "unknown".into())
}

impl Board {
    /// `required`: the outcomes that make the question exhaustive (e.g. a
    /// future's eligible teams); without it the quoted outcomes are taken
    /// to be all of them.
    pub fn new(quotes: &[Quote], required: Option<&[String]>) -> Self {
        let mut labels: BTreeMap<String, String> = BTreeMap::new();
        let mut cells = BTreeMap::new();
        let mut platforms: Vec<String> = Vec::new();
        for q in quotes {
            labels
                .entry(q.outcome.clone())
                .or_insert_with(|| q.label.clone());
            let platform = platform_of(q);
            if !platforms.contains(&platform) {
                platforms.push(platform.clone());
            }
            cells.insert((q.outcome.clone(), platform), q.decimal);
        }
        platforms.sort();
        let best: BTreeMap<String, (f64, String)> = odds::best_prices(quotes)
            .into_iter()
            .map(|(k, q)| (k, (q.decimal, platform_of(&q))))
            .collect();

        let mut fair_sum: BTreeMap<String, (f64, usize)> = BTreeMap::new();
        let mut margin = BTreeMap::new();
        for platform in &platforms {
            let row: Vec<(&String, f64)> = cells
                .iter()
                .filter(|((_, p), _)| p == platform)
                .map(|((o, _), d)| (o, 1.0 / d))
                .collect();
            let probabilities: Vec<f64> = row.iter().map(|(_, p)| *p).collect();
            margin.insert(platform.clone(), odds::overround(&probabilities));
            if let Some(fair) = odds::no_vig(&probabilities) {
                for ((outcome, _), f) in row.iter().zip(fair) {
                    let entry = fair_sum.entry((*outcome).clone()).or_insert((0.0, 0));
                    entry.0 += f;
                    entry.1 += 1;
                }
            }
        }
        let fair: BTreeMap<String, f64> = fair_sum
            .into_iter()
            .map(|(k, (s, n))| (k, s / n as f64))
            .collect();

        let mut outcomes: Vec<(String, String)> = labels.into_iter().collect();
        outcomes.sort_by(|a, b| {
            let pa = best.get(&a.0).map_or(0.0, |(d, _)| 1.0 / d);
            let pb = best.get(&b.0).map_or(0.0, |(d, _)| 1.0 / d);
            pb.total_cmp(&pa).then_with(|| a.1.cmp(&b.1))
        });
        let arbitrage = match required {
            Some(r) if !r.is_empty() => odds::find_arbitrage_among(quotes, r, BUDGET),
            _ => odds::find_arbitrage(quotes, BUDGET),
        };
        let best_sum = best.values().map(|(d, _)| 1.0 / d).sum();
        Self {
            outcomes,
            platforms,
            cells,
            best,
            fair,
            margin,
            arbitrage,
            best_sum,
        }
    }
}

/// The notation switch of the odds boards (american, decimal, probability).
#[component]
pub fn OddsFormatSwitch(
    #[prop(into)] format: Signal<OddsFormat>,
    on_change: Callback<OddsFormat>,
) -> impl IntoView {
    let options = [
        (OddsFormat::American, "American"),
        (OddsFormat::Decimal, "Decimal"),
        (OddsFormat::Probability, "Probability"),
    ];
    view! {
        <div class="segmented odds-switch" role="group" aria-label="Odds format">
            {options
                .into_iter()
                .map(|(f, label)| {
                    let pressed = f.clone();
                    let chosen = f.clone();
                    view! {
                        <button
                            type="button"
                            data-format=f.as_str().to_owned()
                            aria-pressed=move || (format.get() == pressed).to_string()
                            on:click=move |_| on_change.run(chosen.clone())
                        >
                            {label}
                        </button>
                    }
                })
                .collect_view()}
        </div>
    }
}

/// Outcomes × platforms with the best price of each outcome highlighted,
/// the fair (no-vig) probability, each platform's margin, and a flag when
/// the best prices together form an arbitrage.
#[component]
pub fn OddsBoard(
    quotes: Vec<Quote>,
    #[prop(into)] format: Signal<OddsFormat>,
    #[prop(into)] caption: String,
    #[prop(optional)] required: Option<Vec<String>>,
    /// The quotes of the board before a live refresh: prices that moved
    /// since are marked `changed`.
    #[prop(default = None)]
    before: Option<Vec<Quote>>,
) -> impl IntoView {
    if quotes.is_empty() {
        return view! { <p class="empty">"No platform prices this yet."</p> }.into_any();
    }
    let board = Board::new(&quotes, required.as_deref());
    let cells_before = before.map(|q| Board::new(&q, required.as_deref()).cells);
    let Board {
        outcomes,
        platforms,
        cells,
        best,
        fair,
        margin,
        arbitrage,
        best_sum,
    } = board;
    let head = platforms
        .iter()
        .map(|p| view! { <th scope="col" class="num">{platform_name(p)}</th> })
        .collect_view();
    let rows = outcomes
        .into_iter()
        .map(|(key, label)| {
            let best_here = best.get(&key).cloned();
            let cells_view = platforms
                .iter()
                .map(|p| {
                    let decimal = cells.get(&(key.clone(), p.clone())).copied();
                    let is_best = matches!((decimal, &best_here), (Some(d), Some((b, _))) if (d - b).abs() < 1e-12);
                    let changed = cells_before.as_ref().is_some_and(|before| {
                        let was = before.get(&(key.clone(), p.clone())).copied();
                        match (was, decimal) {
                            (Some(a), Some(b)) => (a - b).abs() > 1e-12,
                            (a, b) => a.is_some() != b.is_some(),
                        }
                    });
                    view! {
                        <td class="num" class:best=is_best class:changed=changed data-platform=p.clone()>
                            {move || decimal.map(|d| format::odds(d, &format.get())).unwrap_or_else(|| format::NONE.into())}
                            {is_best.then(|| view! { <span class="visually-hidden">" (best price)"</span> })}
                        </td>
                    }
                })
                .collect_view();
            let best_cell = best_here.map(|(d, p)| {
                view! {
                    <span class="best-odds">{move || format::odds(d, &format.get())}</span>
                    <span class="sub">{platform_name(&p)}</span>
                }
            });
            view! {
                <tr data-outcome=key.clone()>
                    <th scope="row"><bdi>{label}</bdi></th>
                    {cells_view}
                    <td class="num best-col">{best_cell}</td>
                    <td class="num fair">{format::percent(fair.get(&key).copied())}</td>
                </tr>
            }
        })
        .collect_view();
    let margins = platforms
        .iter()
        .map(|p| view! { <td class="num">{format::percent(margin.get(p).copied())}</td> })
        .collect_view();
    let flag = match arbitrage {
        Some(arb) => {
            let legs = arb
                .legs
                .iter()
                .map(|leg| {
                    let platform = leg.quote.platform.as_ref().map(|p| platform_name(p.as_str())).unwrap_or_default();
                    let label = leg.quote.label.clone();
                    let d = leg.quote.decimal;
                    view! {
                        <li>
                            {format::money(Some(leg.stake))} " on " <bdi>{label}</bdi> " at " {move || format::odds(d, &format.get())}
                            " (" {platform} ")"
                        </li>
                    }
                })
                .collect_view();
            view! {
                <div class="arb found" role="status">
                    <strong>"Arbitrage"</strong>
                    {format!(
                        " The best prices imply {} in total: {} spread over every outcome returns {} whichever wins ({} before fees).",
                        format::percent(Some(arb.implied_sum)),
                        format::money(Some(arb.total_stake)),
                        format::money(Some(arb.guaranteed_payout)),
                        format::percent(Some(arb.roi)),
                    )}
                    <ul class="legs">{legs}</ul>
                </div>
            }
            .into_any()
        }
        None => view! {
            <p class="arb none">
                {format!("No arbitrage: the best prices imply {} in total.", format::percent(Some(best_sum)))}
            </p>
        }
        .into_any(),
    };
    view! {
        <div class="odds-board">
            <div class="table-wrap">
                <table class="data board">
                    <caption>{caption}<span class="sub">"Best price per outcome highlighted"</span></caption>
                    <thead>
                        <tr>
                            <th scope="col">"Outcome"</th>
                            {head}
                            <th scope="col" class="num">"Best"</th>
                            <th scope="col" class="num">"Fair (no-vig)"</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                    <tfoot>
                        <tr>
                            <th scope="row">"Margin"</th>
                            {margins}
                            <td></td>
                            <td></td>
                        </tr>
                    </tfoot>
                </table>
            </div>
            {flag}
        </div>
    }
    .into_any()
}
