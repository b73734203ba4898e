//! One module per page.

pub mod award;
pub mod event;
pub mod events;
pub mod future;
pub mod game;
pub mod market;
pub mod markets;
pub mod not_found;
pub mod platforms;
pub mod series;
pub mod series_list;
pub mod settings;
pub mod sports;
