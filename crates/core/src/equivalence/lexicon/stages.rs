//! The stages of a competition short of winning it, as `rules::predicate`'s
//! `stage_nested` reads them: a stage's own word ("the final", "the
//! playoffs") and a verb that puts a side in a competition without its
//! winning ("reach the World Series", "make the Finals", "qualify for",
//! "advance to", "appear in"), where the competition may be named by its
//! own name, which is its final, with no stage word.

/// Stages of a competition short of winning it, and a place short of
/// first that a win implies ("a podium at the Monaco Grand Prix": the
/// top three, the winner among them).
pub(crate) const STAGES: &[&str] = &["final", "semifinal", "quarterfinal", "playoff", "podium"];

/// Verbs of reaching a stage, as written (a side's raw words).
pub(crate) const STAGE_VERBS: &[&str] = &[
    "reach",
    "reaches",
    "make",
    "makes",
    "qualify",
    "qualifies",
    "advance",
    "advances",
    "appear",
    "appears",
];
