//! The settlement: the sources the markets settle on, what happens when
//! the event is cancelled or postponed, the close times, and the
//! thresholds the rules state.

use super::super::engine::{Pair, Verdict};
use super::super::lex::tenths_f64;
use super::super::lexicon::publishers::PUBLISHERS;
use super::super::{CLOSE_TOLERANCE_MS, Field, Finding};
use super::threshold::compare_thresholds;

/// Two named sources, neither of which names the other, can settle one
/// question two ways (two price indexes either side of a strike, two
/// weather stations): two questions. A missing source is a risk to check.
pub fn settlement_source_differs(p: &Pair<'_>, v: &mut Verdict) {
    let (a, b) = (p.a, p.b);
    let shown = || (a.resolution_source.clone(), b.resolution_source.clone());
    match (&p.fa.source, &p.fb.source) {
        (Some(x), Some(y)) if x == y || x.contains(y.as_str()) || y.contains(x.as_str()) => {
            v.say(|| {
                let (a, b) = shown();
                (
                    Field::ResolutionSource,
                    Finding::Agrees,
                    a,
                    b,
                    "the same source".into(),
                )
            });
        }
        // One publisher written two ways ("BLS" / "Bureau of Labor
        // Statistics", "NWS" / "weather.gov").
        (Some(_), Some(_)) if one_source_field(p) => {
            v.say(|| {
                let (a, b) = shown();
                let kind = one_publisher(
                    p.fa.rules_facts.source_publishers,
                    p.fb.rules_facts.source_publishers,
                )
                .unwrap_or("publisher");
                (
                    Field::ResolutionSource,
                    Finding::Agrees,
                    a,
                    b,
                    format!("one {kind} named two ways"),
                )
            });
        }
        (Some(_), Some(_)) => {
            v.say(|| {
                let (a, b) = shown();
                (
                    Field::ResolutionSource,
                    Finding::Conflicts,
                    a,
                    b,
                    "different settlement sources can settle it two ways".into(),
                )
            });
            v.veto();
        }
        // The field missing on a side, where both name the same
        // publisher in their texts: one source.
        _ if one_publisher(
            p.fa.rules_facts.publishers.bits,
            p.fb.rules_facts.publishers.bits,
        )
        .is_some() =>
        {
            v.say(|| {
                let (a, b) = shown();
                let kind = one_publisher(
                    p.fa.rules_facts.publishers.bits,
                    p.fb.rules_facts.publishers.bits,
                )
                .unwrap_or("publisher");
                (
                    Field::ResolutionSource,
                    Finding::Agrees,
                    a,
                    b,
                    format!("the same {kind} named by both"),
                )
            });
        }
        // The field missing where the rules name the source (an agency,
        // a URL, a venue): no risk left to check.
        (x, y)
            if (x.is_some() || p.fa.rules_facts.names_source)
                && (y.is_some() || p.fb.rules_facts.names_source) =>
        {
            v.say(|| {
                let (a, b) = shown();
                (
                    Field::ResolutionSource,
                    Finding::Missing,
                    a,
                    b,
                    "no resolution source field; the rules name the source".into(),
                )
            });
        }
        _ => {
            v.say(|| {
                let (a, b) = shown();
                (
                    Field::ResolutionSource,
                    Finding::Missing,
                    a,
                    b,
                    "a resolution source is missing".into(),
                )
            });
            v.disagree(Field::ResolutionSource);
        }
    }
}

/// The two `resolution_source` fields name one publisher and nothing
/// else that differs: "BLS" / "Bureau of Labor Statistics", "NWS Central
/// Park" / "National Weather Service, Central Park"; "NWS Central Park" /
/// "NWS LaGuardia Airport" are two stations of one publisher.
fn one_source_field(p: &Pair<'_>) -> bool {
    let (x, y) = (&p.fa.rules_facts, &p.fb.rules_facts);
    let within = |a: &[String], b: &[String]| a.iter().all(|w| b.contains(w));
    one_publisher(x.source_publishers, y.source_publishers).is_some()
        && (within(&x.source_rest, &y.source_rest) || within(&y.source_rest, &x.source_rest))
}

/// The kind of publisher two sets of publishers name in common, if the
/// sets are the same (each side names the other's, and no other).
fn one_publisher(x: u128, y: u128) -> Option<&'static str> {
    (x != 0 && x == y).then(|| {
        PUBLISHERS
            .get(x.trailing_zeros() as usize)
            .map_or("publisher", |p| p.kind)
    })
}

/// What each market's rules say it resolves to when the event is
/// cancelled or postponed: two answers are two questions.
pub fn void_branch_differs(p: &Pair<'_>, v: &mut Verdict) {
    let (Some(x), Some(y)) = (&p.fa.void_outcome, &p.fb.void_outcome) else {
        return;
    };
    let (finding, note) = if x == y {
        (Finding::Agrees, "the same outcome if the event is void")
    } else {
        (Finding::Conflicts, "other outcomes if the event is void")
    };
    v.say(|| {
        (
            Field::ResolutionCriteria,
            finding,
            Some(x.clone()),
            Some(y.clone()),
            note.into(),
        )
    });
    if finding == Finding::Conflicts {
        v.veto();
    }
}

/// Close times more than an hour apart: a risk to check, not a veto (a
/// platform may stop trading before the question's own instant).
pub fn close_time(p: &Pair<'_>, v: &mut Verdict) {
    let (a, b) = (p.a, p.b);
    match (p.fa.close_ms, p.fb.close_ms) {
        (Some(x), Some(y)) if (x - y).abs() > CLOSE_TOLERANCE_MS => {
            // Written as `{hours:.1}` would, without the float printer.
            let hours = tenths_f64((x - y).abs() as f64 / 3_600_000.0);
            v.say(|| {
                (
                    Field::CloseTime,
                    Finding::Disagrees,
                    a.trading_end_at.clone().or(a.resolution_date.clone()),
                    b.trading_end_at.clone().or(b.resolution_date.clone()),
                    format!("close times {hours} h apart"),
                )
            });
            v.disagree(Field::CloseTime);
        }
        (Some(_), Some(_)) => v.say(|| {
            (
                Field::CloseTime,
                Finding::Agrees,
                a.trading_end_at.clone(),
                b.trading_end_at.clone(),
                "close within an hour".into(),
            )
        }),
        _ => v.say(|| {
            (
                Field::CloseTime,
                Finding::Missing,
                None,
                None,
                "a close time is missing".into(),
            )
        }),
    }
}

/// The criteria's own thresholds must tell the same story as the titles'.
pub fn criteria_threshold(p: &Pair<'_>, v: &mut Verdict) {
    let (fa, fb) = (p.fa, p.fb);
    let from_criteria = match (&fa.criteria_threshold, &fb.criteria_threshold) {
        (Some(x), Some(y)) => compare_thresholds(x, y, false),
        _ => None,
    };
    if let (Some(t), Some(c)) = (v.threshold_shape, from_criteria)
        && t != c
    {
        v.say(|| {
            (
                Field::ResolutionCriteria,
                Finding::Disagrees,
                fa.criteria_threshold.as_ref().map(ToString::to_string),
                fb.criteria_threshold.as_ref().map(ToString::to_string),
                "the criteria's thresholds relate otherwise than the titles'".into(),
            )
        });
        v.disagree(Field::ResolutionCriteria);
    }
}
