//! Odds as the sports operations send them. Conversions and the math over
//! several platforms live in `crate::odds`.

use predmarket_model_derive::model;
use serde::{Deserialize, Serialize};

open_enum!(
    /// `odds_format` of `GET /futures/{id}` and `GET /awards/{id}`.
    OddsFormat, ODDS_FORMAT_TS {
        American = "american",
        Decimal = "decimal",
        Probability = "probability",
    }
);

/// One price in three notations. All three are optional because
/// `odds_format` may make the service send only one; [`Odds::probability`]
/// derives the implied probability from whichever is present.
#[model]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Odds {
    /// A string such as `"+250"` or `"-110"`.
    #[serde(deserialize_with = "super::wire::american_odds")]
    #[model(ts = "string | number")]
    pub american: Option<String>,
    pub decimal: Option<f64>,
    /// In 0..1.
    pub implied_probability: Option<f64>,
}
