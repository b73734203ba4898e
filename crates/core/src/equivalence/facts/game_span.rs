//! How much of a game a rules text counts, what a tie does there, and
//! whether the listed starters must start, read once per market
//! (`Facts::read_rules_facts`): "90 minutes plus stoppage time; extra
//! time and penalties do not count" and "regulation time plus stoppage
//! time only" say one thing, "overtime counts" and "totals include
//! overtime" another. Two sides that state the same span have
//! accounted for each other's words of it
//! (`rules/unexplained/rules_text.rs`); two spans, or one side's span
//! against a side silent on it, still stop `same`, and so do listed
//! starters on one side only.

/// Regulation time only (extra time, overtime and penalties not counted).
pub(crate) const REGULATION: u8 = 1;
/// Overtime or extra time counts.
pub(crate) const OVERTIME: u8 = 2;
/// A tie or a draw resolves No.
pub(crate) const TIE_NO: u8 = 4;
/// The wager stands only if the listed starters start (baseball's
/// "listed pitchers": void if either named starting pitcher is changed),
/// where a book's "action" bet stands whoever starts: a pitcher changed
/// before the game voids one and settles the other.
pub(crate) const LISTED_STARTERS: u8 = 8;
/// The span bits ([`REGULATION`], [`OVERTIME`]).
pub(crate) const SPAN: u8 = REGULATION | OVERTIME;

/// A sentence that makes the listed starters a condition of the wager:
/// it names them ("both listed pitchers must start for action"), and
/// does not set them aside ("wagers stand regardless of the listed
/// pitchers").
fn listed_starters(sentence: &str) -> bool {
    [
        "listed pitcher",
        "listed starting pitcher",
        "listed starter",
    ]
    .iter()
    .any(|p| sentence.contains(p))
        && !sentence.contains("regardless")
}

/// Words that name time added to a game.
fn is_added_time(w: &str) -> bool {
    matches!(w, "overtime" | "extra" | "penalties" | "shootout" | "ot")
}

/// Words that set what they follow or precede aside.
fn negates(w: &str) -> bool {
    matches!(w, "not" | "excluding" | "excludes" | "excluded" | "without")
}

/// What one sentence's words (lower-case) say of the span and of a tie.
fn span_of_sentence(words: &[&str]) -> u8 {
    let mut bits = 0;
    let regulation = words.contains(&"regulation")
        || words
            .windows(2)
            .any(|p| p == ["90", "minutes"] || p == ["full", "time"]);
    let added = words.iter().position(|w| is_added_time(w));
    if let Some(at) = added {
        // "extra time and penalties do not count", "excluding overtime":
        // a negation near the added time sets it aside.
        let near = words[at.saturating_sub(2)..words.len().min(at + 6)]
            .iter()
            .any(|w| negates(w));
        let counted = words
            .iter()
            .any(|w| w.starts_with("count") || w.starts_with("includ"));
        if near {
            bits |= REGULATION;
        } else if counted {
            bits |= OVERTIME;
        }
    } else if regulation {
        bits |= REGULATION;
    }
    let tie = words.iter().any(|w| matches!(*w, "tie" | "draw" | "tied"));
    let resolves_no = words.iter().enumerate().any(|(i, w)| {
        w.starts_with("resolve") && words[i + 1..].iter().take(5).any(|n| *n == "no")
    });
    if tie && resolves_no {
        bits |= TIE_NO;
    }
    bits
}

/// The span and tie bits a rules text (`lower`, lower-cased) states.
pub(crate) fn game_span(lower: &str) -> u8 {
    // Most rules texts say nothing of a game: not split at all then.
    const CUES: &[&str] = &[
        "overtime",
        "regulation",
        "extra",
        "penalt",
        "shootout",
        "minutes",
        "full time",
        "tie",
        "draw",
        "ot",
        "listed",
    ];
    if !CUES.iter().any(|c| lower.contains(c)) {
        return 0;
    }
    lower
        .split(['.', ';', '\n'])
        .map(|sentence| {
            let words: Vec<&str> = sentence
                .split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty())
                .collect();
            let starters = if listed_starters(sentence) {
                LISTED_STARTERS
            } else {
                0
            };
            span_of_sentence(&words) | starters
        })
        .fold(0, |a, b| a | b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(text: &str) -> u8 {
        game_span(&text.to_lowercase())
    }

    #[test]
    fn regulation_and_overtime_written_each_way() {
        let soccer = "Settled on the result at the end of 90 minutes plus stoppage time; extra \
                      time and penalties do not count.";
        assert_eq!(of(soccer), REGULATION);
        assert_eq!(of("Regulation time plus stoppage time only."), REGULATION);
        assert_eq!(of("Overtime counts."), OVERTIME);
        assert_eq!(of("Team totals include overtime."), OVERTIME);
        assert_eq!(
            of("Resolves on the final score, overtime included."),
            OVERTIME
        );
        assert_eq!(of("Excluding overtime."), REGULATION);
        assert_eq!(of("Resolves Yes if the Fed cuts."), 0);
    }

    #[test]
    fn a_tie_that_resolves_no() {
        assert_eq!(
            of(
                "The result after regulation time (90 minutes plus stoppage time) is used; a tie \
                resolves all team markets to No."
            ),
            REGULATION | TIE_NO
        );
        assert_eq!(of("A draw resolves No."), TIE_NO);
        // A push returns the stakes: no `TIE_NO`.
        assert_eq!(of("If the game ends in a tie, bets are a push."), 0);
    }

    #[test]
    fn listed_pitchers_against_action() {
        assert_eq!(
            of("Listed pitchers: both listed pitchers must start or the wager is void."),
            LISTED_STARTERS
        );
        assert_eq!(
            of("Action: wagers stand regardless of starting pitchers."),
            0
        );
        assert_eq!(
            of("Action. Bets stand regardless of the listed pitchers."),
            0
        );
        assert_eq!(
            of("Both listed pitchers must start for action."),
            LISTED_STARTERS
        );
    }
}
