//! The pollers' share of the upstream budget, divided per visitor rather
//! than per topic.
//!
//! Every visitor watching something gets an equal part of the share. A
//! topic's polls are charged to its viewers, split evenly among them, so a
//! topic watched by many counts once, and one visitor's topics divide that
//! visitor's part: a visitor watching many resources slows only its own.
//! Topics nobody watches (in their grace period) or that ended take no
//! part: the caller leaves them out.
//!
//! Each visitor's topics are slowed by one factor, as much as its part
//! needs; a topic shared by several visitors polls at the fastest pace one
//! of them affords. What comes out is each topic's wanted interval, which
//! the core's scheduler (`schedule::intervals_with_share`) then fits into
//! the whole share (sharing can overspend a little) and the budget left.

use std::collections::HashMap;
use std::hash::Hash;

/// One watched topic: the interval its kind wants and who watches it.
pub struct Demand<'a, V> {
    pub wanted_ms: f64,
    pub viewers: &'a [V],
}

/// Each topic's interval (ms) under its viewers' parts of
/// `per_minute` polls a minute, in order. Never shorter than wanted.
pub fn per_visitor<V: Eq + Hash + Copy>(topics: &[Demand<'_, V>], per_minute: f64) -> Vec<f64> {
    let rate = |t: &Demand<'_, V>| 60_000.0 / t.wanted_ms.max(1.0);
    // What each visitor's topics cost it at the pace they want.
    let mut cost: HashMap<V, f64> = HashMap::new();
    for topic in topics {
        let viewers = topic.viewers.len().max(1) as f64;
        for viewer in topic.viewers {
            *cost.entry(*viewer).or_default() += rate(topic) / viewers;
        }
    }
    let part = per_minute.max(0.0) / cost.len().max(1) as f64;
    let factor: HashMap<V, f64> = cost
        .into_iter()
        .map(|(viewer, cost)| (viewer, (part / cost).min(1.0)))
        .collect();
    topics
        .iter()
        .map(|topic| {
            // Nobody to charge: it does not poll (its caller leaves it out).
            if topic.viewers.is_empty() {
                return topic.wanted_ms.max(1.0);
            }
            let best = topic
                .viewers
                .iter()
                .filter_map(|v| factor.get(v).copied())
                .fold(0.0_f64, f64::max);
            if best > 0.0 {
                topic.wanted_ms.max(1.0) / best
            } else {
                f64::INFINITY
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn per_minute(intervals: &[f64]) -> f64 {
        intervals.iter().map(|ms| 60_000.0 / ms).sum()
    }

    #[test]
    fn one_visitor_watching_many_topics_slows_only_its_own() {
        // A good viewer wants one poll a second of one book; an attacker
        // watches 512 books. 120 polls a minute between them.
        let good = ["good"];
        let attacker = ["attacker"];
        let mut topics = vec![Demand {
            wanted_ms: 1_000.0,
            viewers: &good[..],
        }];
        topics.extend((0..512).map(|_| Demand {
            wanted_ms: 1_000.0,
            viewers: &attacker[..],
        }));
        let got = per_visitor(&topics, 120.0);
        assert_eq!(got[0], 1_000.0, "the good viewer's part covers its book");
        // The attacker's 512 books share its 60 polls a minute.
        let theirs = per_minute(&got[1..]);
        assert!((theirs - 60.0).abs() < 1e-6, "{theirs}");
    }

    #[test]
    fn a_topic_watched_by_many_counts_once() {
        let many: Vec<u32> = (0..1_000).collect();
        let topics = [Demand {
            wanted_ms: 1_000.0,
            viewers: &many[..],
        }];
        // A thousand viewers of one book cost one poll a second.
        assert_eq!(per_visitor(&topics, 60.0), [1_000.0]);
    }

    #[test]
    fn a_shared_topic_polls_at_the_pace_its_most_frugal_viewer_affords() {
        // "a" watches one book, "b" the same and 99 more.
        let both = ["a", "b"];
        let b = ["b"];
        let mut topics = vec![Demand {
            wanted_ms: 1_000.0,
            viewers: &both[..],
        }];
        topics.extend((0..99).map(|_| Demand {
            wanted_ms: 1_000.0,
            viewers: &b[..],
        }));
        let got = per_visitor(&topics, 120.0);
        assert_eq!(got[0], 1_000.0);
        assert!(got[1] > 1_000.0 * 99.0 / 60.0, "{}", got[1]);
    }

    #[test]
    fn nobody_watching_is_what_was_wanted() {
        let none: [u8; 0] = [];
        let topics = [Demand {
            wanted_ms: 5_000.0,
            viewers: &none[..],
        }];
        assert_eq!(per_visitor(&topics, 60.0), [5_000.0]);
    }
}
