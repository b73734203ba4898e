//! The demo's data layer: everything between the pages and the service.
//!
//! - `settings`: which service and key, kept in the browser;
//! - `session`: the client of those settings (shared rate budget, answers
//!   kept on this device), sending with stale-while-revalidate, and
//!   cancellation tied to the view;
//! - `directory`: the platforms and leagues the service says it has;
//! - `loaders`: the resource of a page about one item;
//! - `lists`: paged lists, their first pages and "load more";
//! - `live`: the tab's one stream of the resources on screen, and the one
//!   scheduler of the views that poll instead;
//! - `history`: a watched resource's recorded rows, where the server
//!   records or replays.
//!
//! The modules form a chain, each naming only those before it (settings ←
//! session ← directory, lists, live, history ← loaders); nothing here
//! names the views. The pages use the names re-exported below.

mod directory;
mod history;
mod lists;
mod live;
mod loaders;
mod session;
mod settings;

pub use directory::{Directory, Feature, league_name, platform_name};
pub use history::{Continuity, HistoryRow, Recorded, parse_history, recorded};
pub use lists::{Listing, Loaded, More, PAGE_SIZE, PagedList, Unread, load_pages};
pub use live::{Feed, Freshness, Source, follow, watch};
pub use loaders::{item_by_id, item_by_id_live, live_answer, missing};
pub use session::{
    Inflight, Revalidate, budget_wait_until, client, client_for, is_gone, send, send_swr,
};
pub use settings::Settings;
