//! "On other platforms": the markets of other platforms a search of a
//! market's subject finds, each classified against it by the core's
//! equivalence (relation and the reasons to check), and for the same or
//! inverted ones the price gap net of fees at a chosen size, from both
//! order books.
//!
//! Only the market, event and series pages and the cross-platform view
//! use it, so its code travels in their split modules, not in the first
//! load.

use super::{Loader, PlatformName, platform_id};
use crate::api::{self, Directory, Feature};
use crate::format;
use crate::routes;
use leptos::prelude::*;
use predmarket_client::core::equivalence::{
    self, Classification, Facts, PairOptions, Reason, Relation,
};
use predmarket_client::core::fees::{self, NetGap, Outcome, Venue};
use predmarket_client::core::models::{Market, Orderbook};
use predmarket_client::core::request::{GetOrderbook, ListMarkets};
use predmarket_client::{CancelToken, Error};

/// Markets one search brings back: one request, enough for the handful of
/// counterparts a question has.
const SEARCH_LIMIT: u32 = 50;
/// Contracts a net gap is priced at until the viewer types another size.
const DEFAULT_SIZE: f64 = 100.0;

/// Words too common to find a question's counterparts by.
const STOP: &[&str] = &[
    "will", "the", "above", "below", "before", "after", "close", "than", "more", "less", "least",
    "most", "with", "from", "into", "over", "under", "this", "that", "what", "which", "when",
    "there", "their", "have", "been", "being", "between", "during", "market", "price",
];

/// The search text for a market's counterparts: the longest name its title
/// mentions as written (the service's search wants every word, and other
/// platforms word the rest differently), else its longest uncommon word.
pub fn search_text(market: &Market) -> Option<String> {
    let title = market.title.as_deref()?;
    let lower = title.to_lowercase();
    let facts = Facts::of(market);
    let name = facts
        .entities
        .iter()
        .filter(|e| lower.contains(e.as_str()))
        .max_by_key(|e| e.chars().count())
        .cloned();
    name.or_else(|| {
        lower
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| w.chars().count() >= 4 && w.chars().any(char::is_alphabetic))
            .filter(|w| !STOP.contains(w))
            .max_by_key(|w| w.chars().count())
            .map(str::to_owned)
    })
}

/// One market of another platform classified against one of the page's.
#[derive(Clone)]
pub struct Counterpart {
    /// Index of the page's market.
    pub own: usize,
    pub other: Market,
    pub classification: Classification,
}

/// The markets of other platforms among `found`, each classified against
/// the page's markets `own`, the related ones first (same, inverted,
/// subset, superset, unsure, then different), each in the service's
/// order. One market is compared with every one found, look-alikes
/// included; several (an event's) through [`equivalence::find_pairs`],
/// which compares only markets sharing a name and a day and leaves the
/// look-alikes out.
pub fn counterparts(own: &[Market], found: Vec<Market>) -> Vec<Counterpart> {
    let platforms: Vec<String> = own
        .iter()
        .map(|m| platform_id(m.platform.as_ref()))
        .collect();
    let found: Vec<Market> = found
        .into_iter()
        .filter(|m| {
            !own.iter().any(|o| o.id == m.id)
                && !platforms.contains(&platform_id(m.platform.as_ref()))
        })
        .collect();
    let mut pairs: Vec<Counterpart> = if let [market] = own {
        found
            .into_iter()
            .map(|other| Counterpart {
                own: 0,
                classification: equivalence::classify(market, &other),
                other,
            })
            .collect()
    } else {
        let n = own.len();
        let all: Vec<Market> = own.iter().cloned().chain(found).collect();
        equivalence::find_pairs(&all, &PairOptions::default())
            .into_iter()
            // Pairs come with a < b: the page's markets first.
            .filter(|p| p.a < n && p.b >= n)
            .map(|p| Counterpart {
                own: p.a,
                other: all[p.b].clone(),
                classification: p.classification,
            })
            .collect()
    };
    pairs.sort_by_key(|p| p.classification.relation);
    pairs
}

/// The order book of a market, or why there is none to use: the
/// directory says its platform publishes none.
async fn book_of(
    directory: Option<Directory>,
    market: &Market,
    cancel: &CancelToken,
) -> Result<Result<Orderbook, String>, Error> {
    let platform = platform_id(market.platform.as_ref());
    if let Some(d) = directory
        && !d.supports(&platform, Feature::Orderbook).await
    {
        return Ok(Err(format!(
            "{} does not publish order books",
            d.name(&platform)
        )));
    }
    let request = GetOrderbook {
        id: market.id.clone(),
        platform: market.platform.clone(),
        include_raw: None,
    };
    Ok(Ok(api::send(&request, cancel).await?.data))
}

/// The size a net gap is priced at: the text as typed, and the size it
/// reads as (`None` until it is a positive number).
pub fn gap_size() -> (RwSignal<String>, Memo<Option<f64>>) {
    let text = RwSignal::new(DEFAULT_SIZE.to_string());
    let size = Memo::new(move |_| {
        text.get()
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|s| s.is_finite() && *s > 0.0)
    });
    (text, size)
}

/// The field of [`gap_size`]'s text.
#[component]
pub fn SizeField(id: &'static str, text: RwSignal<String>) -> impl IntoView {
    view! {
        <div class="field venue-size">
            <label for=id>"Net gap at size (contracts)"</label>
            <input
                id=id
                type="number"
                min="1"
                prop:value=move || text.get()
                on:input=move |ev| text.set(event_target_value(&ev))
            />
        </div>
    }
}

/// "On other platforms" for the page's markets (one on a market page, an
/// event's on its page): one search of `search` on the service, the other
/// platforms' markets classified against them.
#[component]
pub fn OtherPlatforms(markets: Vec<Market>, search: Option<String>) -> impl IntoView {
    let own = StoredValue::new(markets);
    let several = own.with_value(|m| m.len() > 1);
    let (size_text, size) = gap_size();
    let found = LocalResource::new(move || {
        let (own, search) = (own.get_value(), search.clone());
        async move {
            let Some(query) = search.filter(|q| !own.is_empty() && !q.is_empty()) else {
                return Ok(Vec::new());
            };
            let request = ListMarkets {
                query: Some(query),
                limit: Some(SEARCH_LIMIT),
                ..ListMarkets::default()
            };
            let response = api::send(&request, &CancelToken::new()).await?;
            Ok(counterparts(&own, response.markets))
        }
    });
    let row = move |p: Counterpart| {
        let market = own.with_value(|m| m[p.own].clone());
        let shown = several.then(|| market.title.clone().unwrap_or_else(|| market.id.clone()));
        view! { <CounterpartRow market shown other=p.other c=p.classification size /> }
    };
    view! {
        <SizeField id="venue-size" text=size_text />
        <Loader resource=found what="markets on other platforms" let:pairs>
            {
                let (related, different): (Vec<_>, Vec<_>) = pairs
                    .into_iter()
                    .partition(|p| p.classification.relation != Relation::Different);
                let n_different = different.len();
                view! {
                    {related.is_empty().then(|| view! {
                        <p class="empty">"No market of another platform found that asks a related question."</p>
                    })}
                    <ul class="venues">{related.into_iter().map(row).collect_view()}</ul>
                    {(n_different > 0).then(|| view! {
                        <details class="venues-different">
                            <summary>{format!("{n_different} look-alike market(s) asking a different question")}</summary>
                            <ul class="venues">{different.into_iter().map(row).collect_view()}</ul>
                        </details>
                    })}
                }
            }
        </Loader>
    }
}

/// A reason as one line a person can check; `here` and `there` name the
/// two markets' sides (a pair's platforms, or "here" and "there").
pub fn reason_text(r: &Reason, here: &str, there: &str) -> String {
    let field = format::words(
        &serde_json::to_value(r.field)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default(),
    );
    let sides = match (&r.a, &r.b) {
        (Some(a), Some(b)) if a == b => format!(" ({a})"),
        (Some(a), Some(b)) => format!(" ({here}: {a}; {there}: {b})"),
        (Some(a), None) => format!(" ({here}: {a}; {there}: not said)"),
        (None, Some(b)) => format!(" ({here}: not said; {there}: {b})"),
        (None, None) => String::new(),
    };
    format!("{field}: {}{sides}", r.note)
}

/// Why two markets are not one question, in words: each veto's rule and
/// what it found, the two sides named by `here` and `there`.
pub fn veto_lines(c: &Classification, here: &str, there: &str) -> Vec<String> {
    c.vetoes
        .iter()
        .map(|rule| {
            let found: Vec<String> = c
                .reasons
                .iter()
                .filter(|r| r.rule == *rule)
                .map(|r| reason_text(r, here, there))
                .collect();
            let name = format::words(rule.as_str());
            if found.is_empty() {
                name
            } else {
                format!("{name}: {}", found.join("; "))
            }
        })
        .collect()
}

/// The vetoes of a pair, when there are any: why no gap is shown.
#[component]
pub fn Vetoes(lines: Vec<String>) -> impl IntoView {
    (!lines.is_empty()).then(|| {
        view! {
            <div class="vetoes">
                <p>"Not one question, so no gap is shown:"</p>
                <ul>{lines.into_iter().map(|l| view! { <li>{l}</li> }).collect_view()}</ul>
            </div>
        }
    })
}

/// One counterpart: its platform, title, relation and reasons, and for a
/// same or inverted one with no veto the net gap; `shown` names the page's market when
/// the page has several.
#[component]
fn CounterpartRow(
    market: Market,
    shown: Option<String>,
    other: Market,
    c: Classification,
    size: Memo<Option<f64>>,
) -> impl IntoView {
    let relation = c.relation.as_str();
    let platform = platform_id(other.platform.as_ref());
    let href = routes::market(&other.id);
    let title = other.title.clone().unwrap_or_else(|| other.id.clone());
    let reasons = c
        .reasons
        .iter()
        .map(|r| reason_text(r, "here", "there"))
        .collect::<Vec<_>>();
    let vetoes = veto_lines(&c, "here", "there");
    let priced = c.allows_gap();
    let id = other.id.clone();
    view! {
        <li class="venue" data-id=id data-relation=relation>
            {shown.map(|t| view! { <p class="venue-own">"For " <bdi>{t}</bdi> ":"</p> })}
            <div class="venue-head">
                <PlatformName id=platform />
                <a href=href><bdi>{title}</bdi></a>
                <span class=format!("relation relation-{relation}")>{relation}</span>
            </div>
            <Vetoes lines=vetoes />
            <ul class="reasons">
                {reasons.into_iter().map(|r| view! { <li>{r}</li> }).collect_view()}
            </ul>
            {priced.then(|| view! { <GapView market other c size /> })}
        </li>
    }
}

/// The net gap of a same or inverted pair, from both order books (none
/// asked of a platform the directory says publishes none).
#[component]
pub fn GapView(
    market: Market,
    other: Market,
    c: Classification,
    size: Memo<Option<f64>>,
) -> impl IntoView {
    // Read where the component is built, as the market page does, not
    // from inside the resource's future.
    let directory = Directory::get();
    let pair = StoredValue::new((market, other, c));
    let books = LocalResource::new(move || {
        let (a, b, _) = pair.get_value();
        async move {
            let cancel = CancelToken::new();
            let (ba, bb) = futures::join!(
                book_of(directory, &a, &cancel),
                book_of(directory, &b, &cancel)
            );
            Ok::<_, Error>(match (ba?, bb?) {
                (Ok(ba), Ok(bb)) => Ok((ba, bb)),
                (Err(why), _) | (_, Err(why)) => Err(why),
            })
        }
    });
    view! {
        <Loader resource=books what="both order books" let:books>
            {match books {
                Err(why) => view! { <p class="empty gap-skipped">{format!("No net gap: {why}.")}</p> }.into_any(),
                Ok((ba, bb)) => {
                    let books = StoredValue::new((ba, bb));
                    (move || {
                        let Some(size) = size.get() else {
                            return view! { <p class="hint">"Enter a size above zero."</p> }.into_any();
                        };
                        let now = js_sys::Date::now();
                        let gap = pair.with_value(|(a, b, c)| books.with_value(|(ba, bb)| {
                            fees::net_gap(
                                Venue { market: a, orderbook: ba, fee: None },
                                Venue { market: b, orderbook: bb, fee: None },
                                c,
                                size,
                                Some(now as i64),
                            )
                        }));
                        match gap {
                            Some(gap) => view! { <GapLine gap size now /> }.into_any(),
                            None => view! { <p class="empty gap-none">"The books hold nothing to buy on one side."</p> }.into_any(),
                        }
                    })
                    .into_any()
                }
            }}
        </Loader>
    }
}

#[component]
fn GapLine(gap: NetGap, size: f64, now: f64) -> impl IntoView {
    let leg = |i: usize| {
        let l = &gap.legs[i];
        let outcome = match l.outcome {
            Outcome::Yes => "YES",
            Outcome::No => "NO",
        };
        let name = api::platform_name(l.platform.as_deref().unwrap_or_default());
        let age = l
            .quote_age_ms
            .map(|ms| format::ago_ms(now - ms as f64, now))
            .unwrap_or_else(|| "age unknown".to_owned());
        format!(
            "{outcome} on {name} at {} (quote {age})",
            format::cents(l.vwap)
        )
    };
    let legs = format!("{}; {}", leg(0), leg(1));
    let net = format::money(Some(gap.net_profit));
    let mut notes = Vec::new();
    if gap.partial {
        notes.push(format!(
            "only {} of {} contracts in the books",
            format::shares(Some(gap.size)),
            format::shares(Some(size))
        ));
    }
    if gap.fees_unknown {
        notes.push("a platform's fees are unknown: none assumed".to_owned());
    }
    view! {
        <div class="net-gap">
            <p>
                <strong>{format!("Net gap at size {}: ", format::shares(Some(size)))}</strong>
                <span class="net-profit">{net}</span>
                {format!(" (cost {}, fees {})", format::money(Some(gap.cost)), format::money(Some(gap.fees)))}
                {gap.conditional.then(|| view! { <em class="conditional">" if the two questions are the same"</em> })}
            </p>
            <p class="legs">{legs}</p>
            {(!notes.is_empty()).then(|| view! { <p class="hint">{notes.join("; ")}</p> })}
        </div>
    }
}
