//! Pieces shared by the pages.

mod boards;
mod candle_chart;
mod compare_chart;
mod cost_calculator;
mod depth_chart;
mod error_notice;
mod filters;
mod group_tables;
mod load_more;
mod loader;
mod market_table;
mod odds_board;
mod orderbook_ladder;
mod paged;
mod platform_warnings;
mod price_chart;
mod remote_image;
mod sports_tables;
mod unread_notice;

pub use boards::{Contest, ContestTable};
pub use candle_chart::CandleChart;
pub use compare_chart::{CompareChart, Line};
pub use cost_calculator::CostCalculator;
pub use depth_chart::DepthChart;
pub use error_notice::ErrorNotice;
pub use filters::{FilterSelect, PlatformFilter, SearchBox, TextFilter};
pub use group_tables::{EventTable, SeriesTable, platform_id};
pub use load_more::LoadMore;
pub use loader::{ItemPage, Loader};
pub use market_table::{
    MarketTable, PlatformName, SortedBy, StatusBadge, change_class, yes_change, yes_change_7d,
    yes_price,
};
pub use odds_board::{Board, OddsBoard, OddsFormatSwitch};
pub use orderbook_ladder::OrderbookLadder;
pub use paged::PagedResults;
pub use platform_warnings::PlatformWarnings;
pub use price_chart::{PriceChart, PricePoint, Quote};
pub use remote_image::RemoteImage;
pub use sports_tables::{GamesTable, TeamsTable, score};
pub use unread_notice::UnreadNotice;

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
