//! One market: its prices, price history, order book (and its recorded
//! depth, where the server records), trades, and the same question on
//! other platforms.

use crate::api::{self, Directory, Feature, Inflight, Loaded};
use crate::components::{
    CalculatorState, CandleChart, CostCalculator, DepthChart, Download, ItemPage, LiveStatus,
    Loader, Loading, OrderbookLadder, OtherPlatforms, PagedResults, PlatformName, PriceChart,
    PricePoint, Quote, RecordedHistory, RemoteImage, StatusBadge, book_depth, change_class,
    platform_id, share_count, yes_change, yes_change_7d, yes_price,
};
use crate::format;
use crate::routes::{self, UrlState};
use leptos::prelude::*;
use predmarket_client::Error;
use predmarket_client::core::change::WatchKind;
use predmarket_client::core::models::{
    Market, MarketsResponse, Orderbook, PriceBar, PriceHistoryResponse, PriceInterval, Trade,
};
use predmarket_client::core::request::{GetMarket, GetOrderbook, GetPriceHistory, ListTrades};
use serde_json::Value;

/// Intervals of the price chart and how many points each shows.
const INTERVALS: [(&str, &str, u32); 5] = [
    ("1m", "1 min", 180),
    ("5m", "5 min", 288),
    ("1h", "1 hour", 168),
    ("4h", "4 hours", 180),
    ("1d", "1 day", 120),
];
const DEFAULT_INTERVAL: &str = "1h";
/// Date ranges of the price history (`?range=`): value, label, seconds.
/// Without one, the chart shows the interval's usual number of bars.
const RANGES: [(&str, &str, i64); 4] = [
    ("1d", "Last day", 86_400),
    ("7d", "Last week", 7 * 86_400),
    ("30d", "Last month", 30 * 86_400),
    ("90d", "Last 3 months", 90 * 86_400),
];
/// Bars in one answer at most: a range longer than this many intervals
/// shows its newest bars (the hint says to pick a longer interval).
const MAX_BARS: i64 = 1_000;
const TRADES_PAGE: u32 = 20;
/// How often the order book is asked for again while the page is open
/// (lengthened by the budget, and when the page is hidden).
fn book_watch_ms() -> f64 {
    WatchKind::Orderbook.default_interval_ms()
}

/// A section of the market page, or why the market's platform has none.
#[derive(Clone)]
enum Section<T> {
    Data(T),
    Unsupported(String),
}

impl<T> Section<T> {
    /// Loads a section when the directory does not say the platform lacks
    /// the feature (the service judges the rest).
    async fn load<F: Future<Output = Result<T, Error>>>(
        directory: Option<Directory>,
        market: &Market,
        feature: Feature,
        what: &str,
        load: impl FnOnce() -> F,
    ) -> Result<Self, Error> {
        let platform = platform_id(market.platform.as_ref());
        let supported = match directory {
            Some(d) => d.supports(&platform, feature).await,
            None => true,
        };
        if !supported {
            let name = match directory {
                Some(d) if !platform.is_empty() => d.name(&platform),
                _ => "This platform".to_owned(),
            };
            return Ok(Self::Unsupported(format!(
                "{name} does not publish {what}."
            )));
        }
        load().await.map(Self::Data)
    }

    fn view<V: IntoView + 'static>(self, data: impl FnOnce(T) -> V) -> AnyView {
        match self {
            Self::Data(value) => data(value).into_any(),
            Self::Unsupported(why) => view! { <p class="empty">{why}</p> }.into_any(),
        }
    }
}

/// One market: prices, key facts, the order book with depth chart and
/// cost calculator, the trades tape and the price history. Page state in
/// the URL: `?side=yes|no&interval=1h&range=7d&chart=candles&taker=1`.
#[component]
pub fn MarketPage(#[prop(into)] id: String) -> impl IntoView {
    let market = api::item_by_id(id, "market", GetMarket::new, |r| r.markets);
    view! {
        <ItemPage class="market-page" back=("/app/markets", "Markets") resource=market what="the market" let:market>
            <MarketView market />
        </ItemPage>
    }
}

#[component]
fn MarketView(market: Market) -> impl IntoView {
    let url = UrlState::new();
    let directory = Directory::get();
    let this = StoredValue::new(market.clone());

    // The market's prices through the tab's stream where the server has
    // one; elsewhere the page's first answer stands, as before (no polls
    // of its own).
    let market_feed = api::follow(
        WatchKind::Market,
        &market.id,
        &GetMarket::new(market.id.clone()),
    );
    let live_market = Signal::derive(move || match market_feed.source() {
        api::Source::Stream(value) => serde_json::from_value::<MarketsResponse>((*value).clone())
            .ok()
            .and_then(|r| r.markets.into_iter().next())
            .unwrap_or_else(|| this.get_value()),
        _ => this.get_value(),
    });

    // The book's live status and refresh sit in the card's head; they
    // exist only once the platform is known to publish books.
    let book_controls = RwSignal::new(None::<BookControls>);
    let book_supported = LocalResource::new(move || {
        let m = this.get_value();
        async move {
            Section::load(directory, &m, Feature::Orderbook, "order books", || async {
                Ok(())
            })
            .await
        }
    });
    let calculator = CalculatorState::new(100.0);

    let taker_only = Memo::new(move |_| url.get("taker").as_deref() == Some("1"));
    let trades_inflight = Inflight::new();
    // Below the fold: asked for when it scrolls into view, so a market's
    // first paint costs three requests. The resource is made
    // only then: a resource that read the signal and then waited was not
    // re-run when the signal changed (Leptos 0.8, seen in the component
    // test), so the trades never came.
    let trades_card = NodeRef::<leptos::html::Article>::new();
    let trades_seen = crate::components::seen(trades_card);
    let trades_tape = move || {
        if !trades_seen.get() {
            return view! { <Loading what="trades" /> }.into_any();
        }
        let trades = LocalResource::new({
            let trades_inflight = trades_inflight.clone();
            move || {
                let request = ListTrades {
                    market_id: this.with_value(|m| m.id.clone()),
                    limit: Some(TRADES_PAGE),
                    cursor: None,
                    offset: None,
                    taker_only: taker_only.get().then_some(true),
                };
                let token = trades_inflight.next();
                let m = this.get_value();
                async move {
                    Section::load(directory, &m, Feature::Trades, "trades", || {
                        api::load_pages(request, 1, &token)
                    })
                    .await
                }
            }
        });
        let trades_inflight = trades_inflight.clone();
        view! {
            <Loader resource=trades what="trades" let:section>
                {section.view(|loaded| view! { <TradesTape loaded inflight=trades_inflight.clone() taker_only=taker_only.get_untracked() /> })}
            </Loader>
        }
        .into_any()
    };

    // Below the fold as well: the search is asked for when the card
    // scrolls into view.
    let venues_card = NodeRef::<leptos::html::Article>::new();
    let venues_seen = crate::components::seen(venues_card);
    let venues = move || {
        if venues_seen.get() {
            {
                let market = this.get_value();
                let search = crate::components::search_text(&market);
                view! { <OtherPlatforms markets=vec![market] search /> }.into_any()
            }
        } else {
            view! { <Loading what="markets on other platforms" /> }.into_any()
        }
    };

    let interval = Memo::new(move |_| {
        url.get("interval")
            .filter(|i| INTERVALS.iter().any(|(v, _, _)| v == i))
            .unwrap_or_else(|| DEFAULT_INTERVAL.into())
    });
    let range = Memo::new(move |_| {
        url.get("range")
            .and_then(|r| RANGES.iter().find(|(v, _, _)| *v == r))
            .map(|(v, _, secs)| (*v, *secs))
    });
    let candles = Memo::new(move |_| url.get("chart").as_deref() == Some("candles"));
    let history_inflight = Inflight::new();
    let history_fresh = api::Revalidate::new();
    let history = LocalResource::new(move || {
        history_fresh.track();
        let interval = interval.get();
        let range = range.get();
        let token = history_inflight.next();
        let m = this.get_value();
        async move {
            let request = history_request(&m.id, &interval, range.map(|(_, secs)| secs));
            let capped = range.is_some_and(|(_, secs)| {
                PriceInterval::from(interval.as_str())
                    .seconds()
                    .is_some_and(|step| secs / step as i64 > MAX_BARS)
            });
            Section::load(directory, &m, Feature::History, "price history", || async {
                let response =
                    api::send_swr(&request, &token, 0.0, history_fresh.trigger()).await?;
                Ok((points_of(&response, &m), capped))
            })
            .await
        }
    });

    view! {
        {move || view! { <MarketHead market=live_market.get() /> }}
        <div class="market-grid">
            <div class="main-col">
                <article class="card" aria-labelledby="history-h">
                    <header class="card-head">
                        <h2 id="history-h">"Price history"</h2>
                        <div class="segmented intervals" role="group" aria-label="Interval">
                            {INTERVALS
                                .iter()
                                .map(|(value, label, _)| {
                                    let value = *value;
                                    view! {
                                        <button
                                            type="button"
                                            data-interval=value
                                            title=*label
                                            aria-pressed=move || (interval.get() == value).to_string()
                                            on:click=move |_| url.set(&[("interval", Some(value.to_owned()))], true)
                                        >
                                            {value}
                                        </button>
                                    }
                                })
                                .collect_view()}
                        </div>
                    </header>
                    <div class="chart-controls">
                        <div class="field">
                            <label for="history-range">"Range"</label>
                            <select id="history-range" on:change=move |ev| {
                                let value = event_target_value(&ev);
                                url.set(&[("range", Some(value))], true)
                            }>
                                <option value="" prop:selected=move || range.get().is_none()>"Recent bars"</option>
                                {RANGES.iter().map(|(value, label, _)| {
                                    let value = *value;
                                    view! { <option value=value prop:selected=move || range.get().is_some_and(|(v, _)| v == value)>{*label}</option> }
                                }).collect_view()}
                            </select>
                        </div>
                        <div class="segmented" role="group" aria-label="Chart style">
                            <button type="button" id="chart-line" aria-pressed=move || (!candles.get()).to_string() on:click=move |_| url.set(&[("chart", None)], true)>"Line"</button>
                            <button type="button" id="chart-candles" aria-pressed=move || candles.get().to_string() on:click=move |_| url.set(&[("chart", Some("candles".to_owned()))], true)>"Candles"</button>
                        </div>
                        {move || this.with_value(|m| m.event_id.clone()).map(|event| view! {
                            <a class="compare-link" href=routes::with_query("/app/compare", &[("event", &event)])>"Compare with the event's markets"</a>
                        })}
                    </div>
                    <Loader resource=history what="price history" let:section>
                        {section.view(|(points, capped)| {
                            // The style switch redraws the bars in hand, no request.
                            let points = StoredValue::new(points);
                            view! {
                                <Download name="price-history" rows=move || points.with_value(|p| history_json(p)) />
                                {capped.then(|| view! { <p class="hint">{format!("Showing the newest {MAX_BARS} bars of the range: pick a longer interval to see all of it.")}</p> })}
                                {move || if candles.get() {
                                    view! { <CandleChart points=points.get_value() /> }.into_any()
                                } else {
                                    view! { <PriceChart points=points.get_value() /> }.into_any()
                                }}
                            }
                        })}
                    </Loader>
                </article>
                <article class="card" aria-labelledby="book-h">
                    <header class="card-head">
                        <h2 id="book-h">"Order book" {move || book_controls.get().map(|c| view! { <LiveStatus feed=c.feed /> })}</h2>
                        {move || book_controls.get().map(|c| view! {
                            <button type="button" class="link" on:click=move |_| c.refresh.run(())>"Refresh"</button>
                        })}
                    </header>
                    // Where the platform has no book, nothing is asked or
                    // followed on the tab's stream: the card says so.
                    <Loader resource=book_supported what="the order book" let:section>
                        {section.view(|()| view! { <LiveBook market=this.get_value() url calculator controls=book_controls /> })}
                    </Loader>
                </article>
                <article class="card" aria-labelledby="recorded-h">
                    <header class="card-head"><h2 id="recorded-h">"Recorded depth"</h2></header>
                    <RecordedHistory kind=WatchKind::Orderbook id=market.id.clone() title="Depth of the yes book" read=book_depth unit=share_count />
                </article>
                <article class="card" aria-labelledby="trades-h" node_ref=trades_card>
                    <header class="card-head">
                        <h2 id="trades-h">"Trades"</h2>
                        <label class="toggle">
                            <input
                                type="checkbox"
                                id="taker-only"
                                prop:checked=move || taker_only.get()
                                on:change=move |ev| {
                                    let on = event_target_checked(&ev);
                                    url.set(&[("taker", on.then(|| "1".to_owned()))], true)
                                }
                            />
                            "Taker trades only"
                        </label>
                    </header>
                    {trades_tape}
                </article>
                <article class="card" aria-labelledby="venues-h" node_ref=venues_card>
                    <header class="card-head">
                        <h2 id="venues-h">"On other platforms"</h2>
                    </header>
                    {venues}
                </article>
            </div>
            <aside class="side-col">
                {move || view! { <MarketFacts market=live_market.get() /> }}
            </aside>
        </div>
    }
}

/// The price history of one market: the interval's usual number of bars,
/// or every bar of the last `range_secs` seconds (up to [`MAX_BARS`]).
/// The market's order book as a page asks it (and as the device keeps
/// the stream's copy of it).
fn book_request(market: &Market) -> GetOrderbook {
    GetOrderbook {
        id: market.id.clone(),
        platform: market.platform.clone(),
        include_raw: None,
    }
}

/// The bars of the price chart as rows for a download: the time as ISO
/// text and in ms, the bar, and the best bid and ask when the service sent
/// them.
fn history_json(points: &[PricePoint]) -> serde_json::Value {
    use serde_json::json;
    let quote =
        |q: Option<Quote>| q.map(|q| json!({ "close": q.close, "high": q.high, "low": q.low }));
    points
        .iter()
        .map(|p| {
            let time = js_sys::Date::new(&p.time_ms.into()).to_iso_string();
            json!({
                "time": String::from(time),
                "time_ms": p.time_ms,
                "close": p.price,
                "open": p.open,
                "high": p.high,
                "low": p.low,
                "volume": p.volume,
                "bid": quote(p.bid),
                "ask": quote(p.ask),
            })
        })
        .collect()
}

fn history_request(id: &str, interval: &str, range_secs: Option<i64>) -> GetPriceHistory {
    let usual = INTERVALS
        .iter()
        .find(|(v, _, _)| *v == interval)
        .map_or(168, |(_, _, n)| *n);
    let step = PriceInterval::from(interval)
        .seconds()
        .map_or(3_600, |s| s as i64);
    let (start_ts, limit) = match range_secs {
        Some(secs) => {
            let now = (js_sys::Date::now() / 1000.0) as i64;
            let bars = (secs / step).clamp(2, MAX_BARS) as u32;
            (Some((now - secs).max(0)), bars)
        }
        None => (None, usual),
    };
    GetPriceHistory {
        market_ids: vec![id.to_owned()],
        interval: Some(PriceInterval::from(interval)),
        start_ts,
        limit: Some(limit),
        ..GetPriceHistory::default()
    }
}

/// The points of the market's first outcome (the history may hold both).
fn points_of(response: &PriceHistoryResponse, market: &Market) -> Vec<PricePoint> {
    let mine: Vec<_> = response.points_of(&market.id).collect();
    let points: Vec<_> = if mine.is_empty() {
        response.data.iter().collect()
    } else {
        mine
    };
    let first_outcome = market
        .outcomes
        .as_ref()
        .and_then(|o| o.first())
        .map(|o| o.id.clone());
    let outcome = first_outcome
        .filter(|id| points.iter().any(|p| p.outcome_id.as_deref() == Some(id)))
        .or_else(|| points.iter().find_map(|p| p.outcome_id.clone()));
    let mut out: Vec<PricePoint> = points
        .into_iter()
        .filter(|p| outcome.is_none() || p.outcome_id == outcome)
        .filter_map(|p| {
            let price = p.price.as_ref().and_then(|b| b.close)?;
            let quotes = p.bid_ask.as_ref();
            let side = |bar: Option<&PriceBar>| bar.and_then(Quote::of);
            let bar = p.price.as_ref();
            Some(PricePoint {
                time_ms: format::epoch_ms(p.timestamp?)?,
                price,
                bid: side(quotes.and_then(|q| q.bid.as_ref())),
                ask: side(quotes.and_then(|q| q.ask.as_ref())),
                open: bar.and_then(|b| b.open),
                high: bar.and_then(|b| b.high),
                low: bar.and_then(|b| b.low),
                volume: p.volume,
            })
        })
        .collect();
    out.sort_by(|a, b| a.time_ms.total_cmp(&b.time_ms));
    out
}

#[component]
fn MarketHead(market: Market) -> impl IntoView {
    let title = market.title.clone().unwrap_or_else(|| market.id.clone());
    let platform = platform_id(market.platform.as_ref());
    let status = market.status.as_ref().map(|s| s.as_str().to_owned());
    let event = market
        .event_id
        .clone()
        .map(|id| (id, market.event_name.clone()));
    let series = market.series_id.clone();
    let yes = yes_price(&market);
    let change = yes_change(&market);
    let change_7d = yes_change_7d(&market);
    let no = market.current_price("no").or_else(|| yes.map(|y| 1.0 - y));
    let image = market.image_url.clone();
    view! {
        <header class="page-head market-head">
            // The title says what the picture is of: it decorates.
            <RemoteImage url=image alt="" class="market-image" />
            <div class="head-text">
                <h1><bdi>{title}</bdi></h1>
                <p class="tags">
                    <PlatformName id=platform />
                    {status.map(|s| view! { <StatusBadge status=s /> })}
                    {event.map(|(id, name)| view! {
                        <a class="tag" href=routes::event(&id)>"Event: " <bdi>{name.unwrap_or_else(|| id.clone())}</bdi></a>
                    })}
                    {series.map(|id| view! {
                        <a class="tag series-link" href=routes::series(&id)>"Series: " <bdi>{id.clone()}</bdi></a>
                    })}
                    {market.category.clone().map(|c| view! {
                        <a class="tag" href=routes::with_query("/app/markets", &[("category", &c)])><bdi>{c.clone()}</bdi></a>
                    })}
                    {market.trading_end_at.clone().map(|t| view! { <span class="muted">"Closes " {format::date(Some(&t))}</span> })}
                </p>
            </div>
        </header>
        <div class="stats" role="group" aria-label="Key figures">
            <div class="stat yes"><span class="k">"Yes"</span><span class="v">{format::cents(yes)}</span>
                {change.map(|c| view! { <span class=change_class(Some(c))>{format::cents_change(Some(c))} " 24h"</span> })}
                {change_7d.map(|c| view! { <span class=format!("{} week", change_class(Some(c)))>{format::cents_change(Some(c))} " 7d"</span> })}
            </div>
            <div class="stat no"><span class="k">"No"</span><span class="v">{format::cents(no)}</span></div>
            <div class="stat"><span class="k">"24h volume"</span><span class="v">{format::money(market.volume_24h)}</span></div>
            <div class="stat"><span class="k">"Liquidity"</span><span class="v">{format::money(market.liquidity)}</span></div>
            <div class="stat"><span class="k">"Open interest"</span><span class="v">{format::money(market.open_interest)}</span></div>
            <div class="stat"><span class="k">"Traders"</span><span class="v">{format::integer(market.unique_traders)}</span></div>
        </div>
    }
}

fn quote_part(value: Option<&Value>, key: &str) -> Option<f64> {
    value?.as_object()?.get(key)?.as_f64()
}

#[component]
fn MarketFacts(market: Market) -> impl IntoView {
    let outcomes = market
        .outcomes
        .clone()
        .unwrap_or_default()
        .into_iter()
        .map(|o| {
            let name = o.name.clone().unwrap_or_else(|| o.id.clone());
            let key = name.to_lowercase();
            let raw = market.current_prices.as_ref().and_then(|p| p.get(&key).or_else(|| p.get(&name)));
            let price = market.current_price(&key);
            let (bid, ask) = (quote_part(raw, "bid"), quote_part(raw, "ask"));
            let width = price.map_or(0.0, |p| (p * 100.0).clamp(0.0, 100.0));
            view! {
                <li class="outcome">
                    <div class="row">
                        <span class="name"><bdi>{name}</bdi></span>
                        <span class="price">{format::cents(price)}</span>
                    </div>
                    <div class="meter" aria-hidden="true"><span style=format!("width:{width:.1}%")></span></div>
                    {(bid.is_some() || ask.is_some()).then(|| view! {
                        <div class="sub">"Bid " {format::cents(bid)} " · Ask " {format::cents(ask)}</div>
                    })}
                </li>
            }
        })
        .collect_view();
    let meta = market.metadata.clone().unwrap_or_default();
    let source = format::safe_url(market.source_url.as_deref());
    let mut facts: Vec<(&'static str, String)> = vec![
        ("Market id", market.id.clone()),
        (
            "Type",
            market
                .market_type
                .as_ref()
                .map(|t| format::words(t.as_str()))
                .unwrap_or_else(|| format::NONE.into()),
        ),
        ("Created", format::date(market.created_at.as_deref())),
        (
            "Trading ends",
            format::datetime(market.trading_end_at.as_deref()),
        ),
        ("Resolves", format::date(market.resolution_date.as_deref())),
        ("7d volume", format::money(market.volume_7d)),
        ("Total volume", format::money(market.volume_total)),
        ("Fee rate", format::percent(market.fee_rate)),
    ];
    if let Some(at) = market.resolved_at.as_deref() {
        facts.push(("Resolved", format::datetime(Some(at))));
    }
    // Fees the platform charges per trade and on withdrawal: a rate when
    // below 1, else an amount in dollars (the service does not say which).
    for (name, fee) in [
        ("Trading fee", market.trading_fee),
        ("Withdrawal fee", market.withdrawal_fee),
    ] {
        if let Some(fee) = fee {
            let text = if fee == 0.0 {
                "none".to_owned()
            } else if fee.abs() < 1.0 {
                format::percent(Some(fee))
            } else {
                format::money(Some(fee))
            };
            facts.push((name, text));
        }
    }
    if let Some(sub) = market.subcategory.clone() {
        facts.push(("Subcategory", sub));
    }
    if meta.best_bid.is_some() || meta.best_ask.is_some() {
        facts.push((
            "Best bid / ask",
            format!(
                "{} / {}",
                format::cents(meta.best_bid),
                format::cents(meta.best_ask)
            ),
        ));
    }
    if let Some(c) = meta.condition_id.clone() {
        facts.push(("Condition id", c));
    }
    if let Some(r) = market.resolution_source.clone() {
        facts.push(("Resolution source", r));
    }
    let facts = facts
        .into_iter()
        .map(|(k, v)| view! { <div><dt>{k}</dt><dd><bdi>{v}</bdi></dd></div> })
        .collect_view();
    let tags = market.tags.clone().unwrap_or_default();
    view! {
        <article class="card" aria-labelledby="outcomes-h">
            <h2 id="outcomes-h">"Outcomes"</h2>
            <ul class="outcomes">{outcomes}</ul>
        </article>
        <article class="card about" aria-labelledby="about-h">
            <h2 id="about-h">"About"</h2>
            {market.description.clone().map(|d| view! { <p class="description">{d}</p> })}
            {market.resolution_criteria.clone().filter(|c| Some(c) != market.description.as_ref()).map(|c| view! {
                <h3>"Resolution"</h3>
                <p class="description">{c}</p>
            })}
            <dl class="facts">{facts}</dl>
            {(!tags.is_empty()).then(|| view! {
                <p class="tags">{tags.into_iter().map(|t| view! { <span class="tag"><bdi>{t}</bdi></span> }).collect_view()}</p>
            })}
            {source.map(|href| view! {
                <p><a href=href target="_blank" rel="noopener noreferrer nofollow">"View on the platform ↗"</a></p>
            })}
        </article>
    }
}

/// What the order book card's head offers once the book is live.
#[derive(Clone, Copy)]
struct BookControls {
    feed: api::Feed,
    refresh: Callback<()>,
}

/// The order book of a market whose platform publishes books: through the
/// tab's stream where the server has one, else polled.
#[component]
fn LiveBook(
    market: Market,
    url: UrlState,
    calculator: CalculatorState,
    controls: RwSignal<Option<BookControls>>,
) -> impl IntoView {
    let this = StoredValue::new(market);
    let book_inflight = Inflight::new();
    let book_fresh = api::Revalidate::new();
    let book_feed = this.with_value(|m| api::follow(WatchKind::Orderbook, &m.id, &book_request(m)));
    let orderbook = LocalResource::new(move || {
        book_fresh.track();
        let source = book_feed.source();
        let token = book_inflight.next();
        let m = this.get_value();
        async move {
            let request = book_request(&m);
            Ok::<_, Error>(
                api::live_answer(&request, source, book_feed, &token, book_fresh)
                    .await?
                    .data,
            )
        }
    });
    api::watch(book_watch_ms(), book_fresh, Some(book_feed));
    controls.set(Some(BookControls {
        feed: book_feed,
        refresh: Callback::new(move |()| orderbook.refetch()),
    }));
    let last_book = StoredValue::new(None::<Orderbook>);
    view! {
        <Loader resource=orderbook what="the order book" let:book>
            {
                // A live book is rebuilt on every refresh: the book before
                // marks what changed, and the calculator's inputs live
                // here, not in it.
                let before = last_book.get_value();
                last_book.set_value(Some(book.clone()));
                view! { <BookView book before url calculator /> }
            }
        </Loader>
    }
}

#[component]
fn BookView(
    book: Orderbook,
    before: Option<Orderbook>,
    url: UrlState,
    calculator: CalculatorState,
) -> impl IntoView {
    let side = Memo::new(move |_| {
        if url.get("side").as_deref() == Some("no") {
            "no"
        } else {
            "yes"
        }
    });
    let meta = book.metadata.clone().unwrap_or_default();
    let timestamp = book.timestamp.clone();
    let book = StoredValue::new(book);
    let tab = move |value: &'static str, label: &'static str| {
        view! {
            <button
                type="button"
                role="tab"
                id=format!("side-{value}")
                aria-selected=move || (side.get() == value).to_string()
                on:click=move |_| url.set(&[("side", (value == "no").then(|| "no".to_owned()))], true)
            >
                {label}
            </button>
        }
    };
    view! {
        <Download name="orderbook" rows=move || book.with_value(|b| serde_json::to_value(b).unwrap_or_default()) />
        <div class="tabs" role="tablist" aria-label="Outcome">
            {tab("yes", "Yes")}
            {tab("no", "No")}
        </div>
        {move || {
            let outcome = if side.get() == "no" { "No" } else { "Yes" };
            let b = book.with_value(|ob| if outcome == "No" { ob.no_book() } else { ob.yes_book() });
            let b_before = before.as_ref().map(|ob| if outcome == "No" { ob.no_book() } else { ob.yes_book() });
            if b.is_empty() {
                return view! { <p class="empty" role="tabpanel">"Nobody has an order on this side right now."</p> }.into_any();
            }
            let near = b.depth_within(0.05);
            let flags = [
                b.is_crossed().then_some("Crossed: the best bid is above the best ask (stale or merged data)."),
                b.is_locked().then_some("Locked: the best bid equals the best ask."),
                b.is_one_sided().then_some("One-sided: only one side has orders."),
            ];
            let flags = flags.into_iter().flatten().map(|f| view! { <p class="notice warning">{f}</p> }).collect_view();
            view! {
                <div role="tabpanel" aria-labelledby=format!("side-{}", outcome.to_lowercase()) class="book" data-side=outcome.to_lowercase()>
                    <div class="stats compact">
                        <div class="stat"><span class="k">"Best bid"</span><span class="v bid">{format::cents(b.best_bid().map(|l| l.price))}</span></div>
                        <div class="stat"><span class="k">"Best ask"</span><span class="v ask">{format::cents(b.best_ask().map(|l| l.price))}</span></div>
                        <div class="stat"><span class="k">"Spread"</span><span class="v spread">{format::cents(b.spread())}</span></div>
                        <div class="stat"><span class="k">"Mid"</span><span class="v mid">{format::cents(b.mid())}</span></div>
                        <div class="stat"><span class="k">"Depth ±5¢"</span><span class="v">{format::shares(Some(near.bid_size))} " / " {format::shares(Some(near.ask_size))}</span></div>
                    </div>
                    {flags}
                    <DepthChart curve=b.depth_curve() mid=b.mid() />
                    <div class="book-grid">
                        <OrderbookLadder book=b.clone() outcome=outcome before=b_before />
                        <div class="calc-wrap">
                            <h3>"Cost to trade"</h3>
                            <CostCalculator book=b outcome=outcome state=calculator />
                        </div>
                    </div>
                </div>
            }
            .into_any()
        }}
        <p class="fine">
            {format!(
                "Tick {} · Minimum order {} · As of {}",
                format::cents(meta.tick_size),
                format::shares(meta.min_order_size),
                format::datetime(timestamp.as_deref())
            )}
        </p>
    }
}

/// The trades tape. A platform that marks no trade as taker or maker
/// ignores the taker filter: said, so an unchanged list is not a puzzle.
#[component]
fn TradesTape(loaded: Loaded<ListTrades>, inflight: Inflight, taker_only: bool) -> impl IntoView {
    let unmarked = taker_only && loaded.items.iter().all(|t| t.taker.is_none());
    let now = js_sys::Date::now();
    view! {
        {(unmarked && !loaded.items.is_empty()).then(|| view! {
            <p class="hint">"This platform does not mark takers: the filter has no effect here."</p>
        })}
        <PagedResults
            loaded
            inflight
            noun="trades"
            empty={|| view! { <p class="empty">"No trades yet."</p> }}
            table={move |trades: Signal<Vec<Trade>>| view! {
                <Download name="trades" rows=move || serde_json::to_value(trades.get_untracked()).unwrap_or_default() />
                <div class="table-wrap">
                    <table class="data trades" id="trades">
                        <caption class="visually-hidden">"Trades, newest first"</caption>
                        <thead>
                            <tr>
                                <th scope="col">"Time"</th>
                                <th scope="col">"Side"</th>
                                <th scope="col">"Outcome"</th>
                                <th scope="col" class="num">"Price"</th>
                                <th scope="col" class="num">"Shares"</th>
                                <th scope="col" class="num">"Value"</th>
                                <th scope="col">"Role"</th>
                                <th scope="col">"Trader"</th>
                            </tr>
                        </thead>
                        <tbody>
                            <For each=move || trades.get() key=|t: &Trade| t.trade_id.clone() let:trade>
                                <TradeRow trade now />
                            </For>
                        </tbody>
                    </table>
                </div>
            }}
        />
    }
}

#[component]
pub fn TradeRow(trade: Trade, now: f64) -> impl IntoView {
    let when = trade.timestamp.and_then(format::epoch_ms);
    let side = trade
        .side
        .as_ref()
        .map(|s| s.as_str().to_owned())
        .unwrap_or_default();
    let side_class = format!(
        "side side-{}",
        side.chars()
            .filter(char::is_ascii_alphabetic)
            .collect::<String>()
    );
    // Some platforms send `price` 100 times too small beside `yes_price`:
    // the row shows the price the core chooses (see `Trade::shown_price`).
    let price = trade.shown_price();
    let value = price.zip(trade.size).map(|(p, s)| p * s);
    let user = trade
        .user
        .as_ref()
        .and_then(|u| u.name.clone().or_else(|| u.pseudonym.clone()));
    // A trader's name links to their profile on the trade's platform.
    let platform = platform_id(trade.platform.as_ref());
    let trader = match user {
        Some(name) if !platform.is_empty() => {
            view! { <a href=routes::profile(&platform, &name) class="trader-link"><bdi>{name.clone()}</bdi></a> }.into_any()
        }
        Some(name) => view! { <bdi>{name}</bdi> }.into_any(),
        None => format::NONE.into_any(),
    };
    let role = match trade.taker {
        Some(true) => "Taker",
        Some(false) => "Maker",
        None => format::NONE,
    };
    view! {
        <tr>
            <td title=when.map(format::datetime_ms)>{when.map(|w| format::ago_ms(w, now)).unwrap_or_else(|| format::NONE.into())}</td>
            <td><span class=side_class>{format::words(&side)}</span></td>
            <td><bdi>{trade.outcome.clone().unwrap_or_default()}</bdi></td>
            <td class="num">{format::cents(price)}</td>
            <td class="num">{format::shares(trade.size)}</td>
            <td class="num">{format::money(value)}</td>
            <td>{role}</td>
            <td class="trader">{trader}</td>
        </tr>
    }
}
