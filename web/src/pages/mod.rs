//! One module per page; a page that serves two resources (events and
//! series, futures and awards) is one module.

pub mod catalog;
pub mod compare;
pub mod game;
pub mod group;
pub mod market;
pub mod markets;
pub mod not_found;
pub mod outright;
pub mod platforms;
pub mod profile;
pub mod settings;
pub mod sports;
pub mod venues;
