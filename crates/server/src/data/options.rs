//! What the generated data depends on (built from the command line by
//! `config::Config::data_options`).

use super::names;

/// What the generated data depends on.
#[derive(Debug, Clone)]
pub struct Options {
    pub seed: u64,
    pub scale: f64,
    pub hostile: bool,
    /// How platform and league ids are spelled on the wire.
    pub names: names::Names,
    /// The data's "now" (Unix seconds): 00:00 UTC of the anchor day.
    /// Timestamps, game days and price paths are relative to it.
    pub as_of: i64,
}
