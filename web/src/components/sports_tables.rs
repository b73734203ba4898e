//! Games and teams as tables, and a game's score from its metadata.

use super::StatusBadge;
use crate::format;
use crate::routes;
use leptos::prelude::*;
use predmarket_client::core::models::{Game, Team};

/// The score of a game from its metadata, away first.
pub fn score(game: &Game) -> Option<String> {
    let meta = game.metadata.as_ref()?;
    let away = meta.get("away_score")?.as_f64()?;
    let home = meta.get("home_score")?.as_f64()?;
    Some(format!("{away:.0} – {home:.0}"))
}

/// Games as a table: date, title, status, score.
#[component]
pub fn GamesTable(#[prop(into)] games: Signal<Vec<Game>>) -> impl IntoView {
    view! {
        <div class="table-wrap">
            <table class="data games" id="games">
                <caption class="visually-hidden">"Games"</caption>
                <thead>
                    <tr>
                        <th scope="col">"Date"</th>
                        <th scope="col" class="title-col">"Game"</th>
                        <th scope="col">"Status"</th>
                        <th scope="col" class="num">"Score"</th>
                    </tr>
                </thead>
                <tbody>
                    <For each=move || games.get() key=|g: &Game| g.id.clone() let:game>
                        <tr data-id=game.id.clone()>
                            <td>{format::datetime(game.scheduled_at.as_deref())}</td>
                            <th scope="row" class="title-col">
                                <a href=routes::game(&game.id) class="title"><bdi>{game.title.clone().unwrap_or_else(|| game.id.clone())}</bdi></a>
                            </th>
                            <td>{game.status.as_ref().map(|s| view! { <StatusBadge status=s.as_str().to_owned() /> })}</td>
                            <td class="num">{score(&game).unwrap_or_else(|| format::NONE.into())}</td>
                        </tr>
                    </For>
                </tbody>
            </table>
        </div>
    }
}

/// A league's teams: colours, name, abbreviation, place, conference,
/// division, venue, founding year.
#[component]
pub fn TeamsTable(teams: Vec<Team>) -> impl IntoView {
    let rows = teams
        .into_iter()
        .map(|t| {
            let meta = t.metadata.clone().unwrap_or_default();
            let swatches = meta
                .colors
                .unwrap_or_default()
                .iter()
                .filter_map(|c| format::safe_color(c))
                .map(|c| view! { <span class="swatch" style=format!("background:{c}") aria-hidden="true"></span> })
                .collect_view();
            let place = [t.city.clone(), t.state.clone()]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(", ");
            view! {
                <tr data-id=t.service_id.clone()>
                    <th scope="row" class="title-col">
                        <span class="swatches">{swatches}</span>
                        <bdi>{t.name.clone().unwrap_or_else(|| t.service_id.clone())}</bdi>
                    </th>
                    <td>{t.abbreviation.clone().unwrap_or_default()}</td>
                    <td><bdi>{place}</bdi></td>
                    <td><bdi>{t.conference.clone().unwrap_or_default()}</bdi></td>
                    <td><bdi>{t.division.clone().unwrap_or_default()}</bdi></td>
                    <td><bdi>{meta.stadium.clone().unwrap_or_default()}</bdi></td>
                    <td class="num">{meta.founded.map(|f| format!("{f:.0}")).unwrap_or_default()}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="table-wrap">
            <table class="data teams" id="teams">
                <caption class="visually-hidden">"Teams"</caption>
                <thead>
                    <tr>
                        <th scope="col" class="title-col">"Team"</th>
                        <th scope="col">"Abbr."</th>
                        <th scope="col">"City"</th>
                        <th scope="col">"Conference"</th>
                        <th scope="col">"Division"</th>
                        <th scope="col">"Venue"</th>
                        <th scope="col" class="num">"Founded"</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}
