//! One module per page; a page that serves two resources (events and
//! series, futures and awards) is one module.

pub mod catalog;
pub mod contest;
pub mod event;
pub mod game;
pub mod market;
pub mod markets;
pub mod not_found;
pub mod platforms;
pub mod series;
pub mod settings;
pub mod sports;
