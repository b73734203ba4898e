//! "What would N shares cost": the order book walked for a size with the
//! core's fill.

use crate::format;
use leptos::prelude::*;
use predmarket_core::orderbook::{Book, Side};

/// The calculator's inputs: the shares typed and the side.
#[derive(Clone, Copy)]
pub struct CalculatorState {
    input: RwSignal<String>,
    side: RwSignal<Side>,
}

impl CalculatorState {
    pub fn new(shares: f64) -> Self {
        Self {
            input: RwSignal::new(format::shares(Some(shares)).replace(',', "")),
            side: RwSignal::new(Side::Buy),
        }
    }
}

/// "What would N shares cost": walks the book with the core's fill (VWAP,
/// worst price, slippage, partial fills).
#[component]
pub fn CostCalculator(
    book: Book,
    #[prop(into)] outcome: String,
    #[prop(default = 100.0)] shares: f64,
    /// What the reader typed and chose, when it must outlive this view (a
    /// live book rebuilds the calculator on every refresh).
    #[prop(optional)]
    state: Option<CalculatorState>,
) -> impl IntoView {
    let CalculatorState { input, side } = state.unwrap_or_else(|| CalculatorState::new(shares));
    let book = StoredValue::new(book);
    let requested = Memo::new(move |_| {
        input.with(|s| {
            s.trim()
                .replace(',', "")
                .parse::<f64>()
                .ok()
                .filter(|n| n.is_finite() && *n > 0.0)
        })
    });
    let fill = move || {
        requested
            .get()
            .map(|n| book.with_value(|b| b.fill(side.get(), n)))
    };
    let verb = move || {
        if side.get() == Side::Buy {
            "buy"
        } else {
            "sell"
        }
    };
    let id = format!("shares-{}", outcome.to_lowercase());
    let outcome_label = outcome.clone();
    let outcome_for_payout = StoredValue::new(outcome.clone());
    view! {
        <div class="calculator" data-outcome=outcome.clone()>
            <div class="calc-inputs">
                <div class="segmented" role="group" aria-label="Order side">
                    <button type="button" aria-pressed=move || (side.get() == Side::Buy).to_string() on:click=move |_| side.set(Side::Buy)>"Buy"</button>
                    <button type="button" aria-pressed=move || (side.get() == Side::Sell).to_string() on:click=move |_| side.set(Side::Sell)>"Sell"</button>
                </div>
                <label for=id.clone()>"Shares of " {outcome_label}</label>
                <input
                    id=id
                    class="shares"
                    type="number"
                    min="1"
                    step="1"
                    inputmode="decimal"
                    prop:value=move || input.get()
                    on:input=move |ev| input.set(event_target_value(&ev))
                />
            </div>
            {move || match fill() {
                None => view! { <p class="hint">"Enter a number of shares."</p> }.into_any(),
                Some(f) if f.filled <= 0.0 => view! {
                    <p class="hint empty-side">{format!("Nobody is offering to {} right now.", if f.side == Side::Buy { "sell" } else { "buy" })}</p>
                }.into_any(),
                Some(f) => {
                    let partial = f.is_partial().then(|| view! {
                        <p class="notice warning partial" role="status">
                            {format!("Only {} of {} shares are on the book: the rest would not fill.", format::shares(Some(f.filled)), format::shares(Some(f.requested)))}
                        </p>
                    });
                    view! {
                        <dl class="fill">
                            <div><dt>{move || format!("Total to {}", verb())}</dt><dd class="cost">{format::money(Some(f.cost))}</dd></div>
                            <div><dt>"Average price"</dt><dd class="vwap">{format::cents(f.vwap)}</dd></div>
                            <div><dt>"Best / worst level"</dt><dd>{format::cents(f.best_price)} " / " {format::cents(f.worst_price)}</dd></div>
                            <div><dt>"Slippage"</dt><dd class="slippage">{format::cents(f.slippage)} " (" {format::percent(f.slippage_ratio())} ")"</dd></div>
                            <div><dt>"Levels used"</dt><dd>{f.levels_used}</dd></div>
                            {(f.side == Side::Buy).then(|| view! {
                                <div><dt>{format!("Pays if {} wins", outcome_for_payout.get_value())}</dt><dd class="payout">{format::money(Some(f.filled))} " (" {format::percent((f.cost > 0.0).then(|| (f.filled - f.cost) / f.cost))} ")"</dd></div>
                            })}
                        </dl>
                        {partial}
                    }.into_any()
                }
            }}
        </div>
    }
}
