//! Whose points a team total counts: "Kansas City Chiefs Team Total Over
//! 24.5 — vs Las Vegas Raiders" and "Las Vegas Raiders over 24.5 points
//! vs Kansas City?" name the same two teams, the same line and the same
//! game, and ask about two teams' scores. The subject is the counted
//! team, so a disagreement is a `subject_differs` veto; one team named
//! two ways ("Chiefs" / "Kansas City Chiefs", "Kansas City" / "Chiefs")
//! agrees.

use super::super::engine::{Pair, Verdict};
use super::super::{Field, Finding};
use super::subject::{Teams, teams};

/// Two team totals whose counted teams are two teams: different
/// questions. Read from the facts each market's text gave once
/// (`Facts::counted_team`); a pair where either side counts no one
/// team's points is left to the other rules.
pub fn counted_team_differs(p: &Pair<'_>, v: &mut Verdict) {
    let (Some(a), Some(b)) = (&p.fa.counted_team, &p.fb.counted_team) else {
        return;
    };
    match teams(a, b) {
        Teams::Two => {
            v.say(|| {
                (
                    Field::Entities,
                    Finding::Conflicts,
                    Some(a.clone()),
                    Some(b.clone()),
                    "two teams' totals: each counts another team's points".into(),
                )
            });
            v.veto();
        }
        Teams::One => v.say(|| {
            (
                Field::Entities,
                Finding::Agrees,
                Some(a.clone()),
                Some(b.clone()),
                "one team's points counted on both".into(),
            )
        }),
        // Names ending alike after other words: left to the names.
        Teams::Unclear => {}
    }
}
