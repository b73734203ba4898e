//! The subject: the names each question mentions, and who must win.

use super::super::engine::{Aspect, Pair, Verdict, Vote};
use super::super::facts::Facts;
use super::super::lexicon::OPPOSED;
use super::super::{Field, Finding};
use super::join;

/// Every word of a (possibly multi-word) name is mentioned by `f`.
pub(crate) fn mentions_all(f: &Facts, entity: &str) -> bool {
    entity.split(' ').all(|w| f.mentions(w)) || f.mentions(entity)
}

/// A name one side has that the other never mentions, on both sides, is
/// two subjects; two opposed names alone are the two sides of a contest.
pub fn subject_differs<'a>(p: &Pair<'a>, v: &mut Verdict) {
    let (fa, fb) = (p.fa, p.fb);
    let unmatched = |x: &'a Facts, y: &Facts| -> Vec<&'a str> {
        x.entities
            .iter()
            .map(String::as_str)
            .filter(|e| !mentions_all(y, e))
            .collect()
    };
    let (only_a, only_b) = (unmatched(fa, fb), unmatched(fb, fa));
    // Two opposed names, and nothing else unmatched on one side ("a
    // Democrat ... US election" / "the Republican candidate").
    let opposed = OPPOSED.iter().any(|&(x, y)| {
        [(x, y), (y, x)].iter().any(|&(x, y)| {
            only_a.contains(&x) && only_b.contains(&y) && (only_a.len() == 1 || only_b.len() == 1)
        })
    });
    if opposed {
        v.say(|| {
            (
                Field::Entities,
                Finding::Opposite,
                Some(only_a.join(", ")),
                Some(only_b.join(", ")),
                "the two sides of a two-way contest".into(),
            )
        });
        v.vote(Vote::Opposite);
        v.evidence(Aspect::Subject);
    } else if !only_a.is_empty() && !only_b.is_empty() {
        v.say(|| {
            (
                Field::Entities,
                Finding::Conflicts,
                Some(only_a.join(", ")),
                Some(only_b.join(", ")),
                "each names what the other does not".into(),
            )
        });
        v.veto();
    } else if fa.entities.is_empty() && fb.entities.is_empty() {
        v.say(|| {
            (
                Field::Entities,
                Finding::Missing,
                None,
                None,
                "no names to compare".into(),
            )
        });
    } else {
        let shared = fa.entities.iter().any(|e| mentions_all(fb, e))
            || fb.entities.iter().any(|e| mentions_all(fa, e));
        v.say(|| {
            let extra: Vec<&str> = only_a.iter().chain(&only_b).copied().collect();
            let note = if extra.is_empty() {
                "the same names".to_owned()
            } else {
                format!("one also names {}", extra.join(", "))
            };
            (
                Field::Entities,
                Finding::Agrees,
                join(&fa.entities),
                join(&fb.entities),
                note,
            )
        });
        if shared {
            v.evidence(Aspect::Subject);
        } else if fa.entities.is_empty() || fb.entities.is_empty() {
            v.vote(Vote::Unknown);
        }
    }
}

/// Who must win: "Celtics beat Lakers" against "Lakers beat Celtics"
/// names the same teams with YES on the other side.
pub fn winner_differs(p: &Pair<'_>, v: &mut Verdict) {
    let (Some(wa), Some(wb)) = (&p.fa.winner, &p.fb.winner) else {
        return;
    };
    let covers = |w: &str, f: &Facts| w.split(' ').any(|x| f.mentions(x));
    let agree = wa.split(' ').any(|x| wb.split(' ').any(|y| x == y));
    if agree {
        v.say(|| {
            (
                Field::Entities,
                Finding::Agrees,
                Some(wa.clone()),
                Some(wb.clone()),
                "the same side must win".into(),
            )
        });
    } else if covers(wa, p.fb) && covers(wb, p.fa) {
        v.say(|| {
            (
                Field::Entities,
                Finding::Opposite,
                Some(wa.clone()),
                Some(wb.clone()),
                "each needs the other side to win".into(),
            )
        });
        v.vote(Vote::Opposite);
    }
}
