//! The outrights, futures and awards, drawn as one shape (a question, its
//! outcomes, every platform's prices).

use crate::format;
use crate::routes;
use leptos::prelude::*;
use predmarket_client::core::models::{Award, Future};
use predmarket_client::core::odds::{self, Quote};

/// A future or an award as the demo shows it: one question, its outcomes
/// and every platform's prices. Both resources read into this one shape,
/// so their list and their page are drawn once.
#[derive(Debug, Clone, PartialEq)]
pub struct Outright {
    pub id: String,
    pub name: String,
    /// The future or award type, as words.
    pub kind: Option<String>,
    pub season: Option<f64>,
    pub league: Option<String>,
    pub deadline: Option<String>,
    pub description: Option<String>,
    pub eligibility: Option<String>,
    /// The outcomes that make the question exhaustive (a future's
    /// eligible teams), when the service lists them.
    pub required: Vec<String>,
    pub quotes: Vec<Quote>,
    /// How many platforms have a market on it.
    pub platforms: usize,
    /// The page of this outright.
    pub href: String,
    /// The sports view that lists its kind (`futures`, `awards`).
    pub list_view: &'static str,
}

impl Outright {
    /// The favourite: the outcome whose best price implies the highest
    /// probability, and that probability.
    pub fn favourite(&self) -> Option<(String, f64)> {
        odds::best_prices(&self.quotes)
            .into_values()
            .max_by(|a, b| a.probability().total_cmp(&b.probability()))
            .map(|q| (q.label.clone(), q.probability()))
    }
}

impl From<&Future> for Outright {
    fn from(f: &Future) -> Self {
        let meta = f.metadata.clone().unwrap_or_default();
        Self {
            id: f.id.clone(),
            name: f.future_name.clone().unwrap_or_else(|| f.id.clone()),
            kind: f.future_type.as_ref().map(|t| format::words(t.as_str())),
            season: f.season,
            league: f.league.as_ref().map(|l| l.as_str().to_owned()),
            deadline: meta.deadline,
            description: meta.description,
            eligibility: None,
            required: meta.eligible_teams.unwrap_or_default(),
            quotes: odds::future_quotes(f),
            platforms: f.platform_ids().len(),
            href: routes::future(&f.id),
            list_view: "futures",
        }
    }
}

impl From<&Award> for Outright {
    fn from(a: &Award) -> Self {
        let meta = a.metadata.clone().unwrap_or_default();
        Self {
            id: a.id.clone(),
            name: a.award_name.clone().unwrap_or_else(|| a.id.clone()),
            kind: a.award_type.as_ref().map(|t| format::words(t.as_str())),
            season: a.season,
            league: a.league.as_ref().map(|l| l.as_str().to_owned()),
            deadline: meta.deadline,
            description: meta.description,
            eligibility: meta.eligibility,
            required: Vec::new(),
            quotes: odds::award_quotes(a),
            platforms: a.platform_ids().len(),
            href: routes::award(&a.id),
            list_view: "awards",
        }
    }
}

/// Futures or awards as a table: name, type, favourite and its chance,
/// platforms, deadline.
#[component]
pub fn OutrightTable(
    #[prop(into)] outrights: Signal<Vec<Outright>>,
    /// The table's id and caption ("futures", "Futures").
    id: &'static str,
    caption: &'static str,
) -> impl IntoView {
    view! {
        <div class="table-wrap">
            <table class="data boards" id=id>
                <caption class="visually-hidden">{caption}</caption>
                <thead>
                    <tr>
                        <th scope="col" class="title-col">"Market"</th>
                        <th scope="col">"Type"</th>
                        <th scope="col">"Favourite"</th>
                        <th scope="col" class="num">"Chance"</th>
                        <th scope="col" class="num">"Platforms"</th>
                        <th scope="col">"Deadline"</th>
                    </tr>
                </thead>
                <tbody>
                    <For each=move || outrights.get() key=|c: &Outright| c.id.clone() let:row>
                        {
                            let favourite = row.favourite();
                            view! {
                                <tr data-id=row.id.clone()>
                                    <th scope="row" class="title-col">
                                        <a href=row.href.clone() class="title"><bdi>{row.name.clone()}</bdi></a>
                                        {row.season.map(|s| view! { <span class="sub">{format!("Season {s:.0}")}</span> })}
                                    </th>
                                    <td>{row.kind.clone().unwrap_or_default()}</td>
                                    <td><bdi>{favourite.as_ref().map(|(n, _)| n.clone()).unwrap_or_else(|| format::NONE.into())}</bdi></td>
                                    <td class="num">{format::percent(favourite.as_ref().map(|(_, p)| *p))}</td>
                                    <td class="num">{row.platforms}</td>
                                    <td>{format::date(row.deadline.as_deref())}</td>
                                </tr>
                            }
                        }
                    </For>
                </tbody>
            </table>
        </div>
    }
}
