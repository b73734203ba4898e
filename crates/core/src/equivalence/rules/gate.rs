//! Gates: whether a pair can be compared at all (binary markets whose YES
//! side is named), and what is worth saying before the comparison.

use super::super::engine::{Pair, Verdict};
use super::super::{Field, Finding};
use crate::models::Market;

/// Only binary markets are compared.
pub fn binary_only(p: &Pair<'_>, v: &mut Verdict) {
    if p.fa.non_binary || p.fb.non_binary {
        let kind = |m: &Market| m.market_type.as_ref().map(|t| t.as_str().to_owned());
        v.say(|| {
            (
                Field::MarketType,
                Finding::Missing,
                kind(p.a),
                kind(p.b),
                "only binary markets are compared".into(),
            )
        });
        v.close();
    }
}

/// Outcomes named otherwise than yes/no (a moneyline's two teams) do not
/// say which one is YES.
pub fn yes_side_named(p: &Pair<'_>, v: &mut Verdict) {
    if p.fa.no_yes_side || p.fb.no_yes_side {
        let names = |m: &Market| {
            m.outcomes.as_ref().map(|o| {
                o.iter()
                    .map(|x| x.name.clone().unwrap_or_else(|| x.id.clone()))
                    .collect::<Vec<_>>()
                    .join(" / ")
            })
        };
        v.say(|| {
            (
                Field::OutcomeMapping,
                Finding::Missing,
                names(p.a),
                names(p.b),
                "outcomes not named yes/no: which one is YES is not said".into(),
            )
        });
        v.close();
    }
}

/// Both markets on one platform: said, not judged, so not even compared
/// without reasons (a read of both markets' platforms for every pair).
pub fn one_platform(p: &Pair<'_>, v: &mut Verdict) {
    if v.detailed() && p.a.platform.is_some() && p.a.platform == p.b.platform {
        let name = |m: &Market| m.platform.as_ref().map(|x| x.as_str().to_owned());
        v.say(|| {
            (
                Field::Platform,
                Finding::Agrees,
                name(p.a),
                name(p.b),
                "both on one platform".into(),
            )
        });
    }
}
