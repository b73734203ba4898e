//! Pieces shared by the pages.

mod cost_calculator;
mod depth_chart;
mod error_notice;
mod load_more;
mod market_table;
mod odds_board;
mod orderbook_ladder;
mod platform_warnings;
mod price_chart;

pub use cost_calculator::CostCalculator;
pub use depth_chart::DepthChart;
pub use error_notice::ErrorNotice;
pub use load_more::LoadMore;
pub use market_table::{MarketTable, PlatformName, SortedBy, StatusBadge, yes_change, yes_price};
pub use odds_board::{Board, OddsBoard, OddsFormatSwitch};
pub use orderbook_ladder::OrderbookLadder;
pub use platform_warnings::PlatformWarnings;
pub use price_chart::{PriceChart, PricePoint};

use leptos::prelude::*;

/// The placeholder while a section loads.
#[component]
pub fn Loading(#[prop(into)] what: String) -> impl IntoView {
    view! {
        <div class="loading" aria-busy="true" role="status">
            <span class="spinner" aria-hidden="true"></span>
            {format!("Loading {what}…")}
        </div>
    }
}
