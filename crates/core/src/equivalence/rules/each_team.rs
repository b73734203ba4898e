//! A count of each team's goals apart ("Both Teams To Score") against a
//! total of the game or of one team: read by `predicate::metric_differs`
//! before it vetoes two counts of one game.

use super::super::engine::{Verdict, Vote};
use super::super::totals::PointsOf;
use super::super::{Field, Finding};

/// Each team's goals apart against a total ("Both Teams To Score" /
/// "Over 2.5 Goals"): not one quantity, yet one may imply the other
/// (both scoring is two goals or more), so neither vetoed nor equal.
/// `true` where neither side counts each team apart.
pub(super) fn each_team_apart(a: PointsOf, b: PointsOf, v: &mut Verdict) -> bool {
    if a != PointsOf::EachTeam && b != PointsOf::EachTeam {
        return true;
    }
    v.say(|| {
        (
            Field::Wording,
            Finding::Missing,
            Some(format!("{a:?}")),
            Some(format!("{b:?}")),
            "each team's goals apart against a total: not one count".into(),
        )
    });
    v.vote(Vote::Unknown);
    false
}
