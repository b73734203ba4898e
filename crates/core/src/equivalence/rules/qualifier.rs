//! A qualifier on one side only: "win by KO/TKO" against "win", "win in
//! regulation" against "win" (read from
//! [`super::super::lexicon::QUALIFIERS`]). The qualified question is the
//! narrower one; two different qualifiers of one family ("by KO" / "by
//! decision") ask two questions.

use super::super::engine::{Pair, Verdict, Vote};
use super::super::lexicon::{QUALIFIERS, Qualifier};
use super::super::{Field, Finding};

/// The first phrase of each member a mask names, for the reasons.
fn named(q: &Qualifier, mask: u32) -> Option<String> {
    let words: Vec<String> = (0..q.members.len())
        .filter(|m| mask & 1 << m != 0)
        .filter_map(|m| q.members[m].first().map(|phrase| phrase.join(" ")))
        .collect();
    (!words.is_empty()).then(|| words.join(", "))
}

/// A qualifier one side names and the other leaves open narrows the
/// side that names it; different qualifiers of one family are a veto.
pub fn qualifier_one_sided(p: &Pair<'_>, v: &mut Verdict) {
    for (i, q) in QUALIFIERS.iter().enumerate() {
        let ma = p.fa.qualifiers.get(i).copied().unwrap_or(0);
        let mb = p.fb.qualifiers.get(i).copied().unwrap_or(0);
        if ma == mb {
            continue;
        }
        let (vote, finding, note) = match (ma, mb) {
            (_, 0) => (
                Some(Vote::Narrower),
                Finding::Nested,
                "the first names a way of meeting YES the second leaves open",
            ),
            (0, _) => (
                Some(Vote::Wider),
                Finding::Nested,
                "the second names a way of meeting YES the first leaves open",
            ),
            _ => (None, Finding::Conflicts, "different ways of meeting YES"),
        };
        v.say(|| {
            (
                Field::Wording,
                finding,
                named(q, ma),
                named(q, mb),
                format!("{note} ({})", q.family),
            )
        });
        match vote {
            Some(vote) => v.vote(vote),
            None => v.veto(),
        }
    }
}
