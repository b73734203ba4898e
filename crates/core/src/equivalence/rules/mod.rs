//! The table of rules the engine ([`super::engine`]) runs, in order, one
//! module per family: the gates that decide whether a pair can be
//! compared at all, the subject, the window, the threshold, the
//! predicate and its measured quantity (and a state held on a day
//! against its end by then), a qualifier on one side, the
//! settlement, and last, whether every part of each side is accounted for
//! by the other (without which `same` and `inverted` are not earned).
//!
//! A rule is a small item with a stable code ([`RuleCode`]); a miss is
//! fixed in the one rule, or in the lexicon ([`super::lexicon`]) it reads.

mod counted_team;
mod each_team;
mod game_codes;
mod gate;
mod predicate;
mod qualifier;
mod ranked;
mod settlement;
mod subject;
pub(crate) mod tenure;
pub(crate) mod threshold;
pub(crate) mod unexplained;
mod window;
pub(crate) mod window_otherwise;

use super::engine::{Rule, RuleCode};

/// Every rule, in the order it runs. Later rules may read what earlier
/// ones left in the verdict (the threshold's shape, a stage matched).
pub const RULES: &[Rule] = &[
    Rule {
        code: RuleCode::BinaryOnly,
        check: gate::binary_only,
    },
    Rule {
        code: RuleCode::YesSideNamed,
        check: gate::yes_side_named,
    },
    Rule {
        code: RuleCode::OnePlatform,
        check: gate::one_platform,
    },
    Rule {
        code: RuleCode::SubjectDiffers,
        check: subject::subject_differs,
    },
    Rule {
        code: RuleCode::WinnerDiffers,
        check: subject::winner_differs,
    },
    // Two teams' totals in one game name the same teams: the subject
    // differs in whose points are counted.
    Rule {
        code: RuleCode::SubjectDiffers,
        check: counted_team::counted_team_differs,
    },
    Rule {
        code: RuleCode::CutoffDiffers,
        check: window::cutoff_differs,
    },
    Rule {
        code: RuleCode::TimeOfDayDiffers,
        check: window::time_of_day_differs,
    },
    Rule {
        code: RuleCode::ThresholdDiffers,
        check: threshold::threshold_differs,
    },
    Rule {
        code: RuleCode::ComparatorDiffers,
        check: threshold::comparator_differs,
    },
    // The comparator of two named subjects: which one is put higher.
    Rule {
        code: RuleCode::ComparatorDiffers,
        check: ranked::ranked_order_differs,
    },
    Rule {
        code: RuleCode::BandVsTail,
        check: threshold::band_vs_tail,
    },
    Rule {
        code: RuleCode::NumbersDiffer,
        check: threshold::numbers_differ,
    },
    Rule {
        code: RuleCode::StageNested,
        check: predicate::stage_nested,
    },
    Rule {
        code: RuleCode::AntonymNegation,
        check: predicate::antonym_negation,
    },
    Rule {
        code: RuleCode::AntonymContrary,
        check: predicate::antonym_contrary,
    },
    Rule {
        code: RuleCode::AntonymConditional,
        check: predicate::antonym_conditional,
    },
    Rule {
        code: RuleCode::MetricDiffers,
        check: predicate::metric_differs,
    },
    Rule {
        code: RuleCode::QualifierOneSided,
        check: qualifier::qualifier_one_sided,
    },
    Rule {
        code: RuleCode::Wording,
        check: predicate::wording,
    },
    Rule {
        code: RuleCode::Negation,
        check: predicate::negation,
    },
    Rule {
        code: RuleCode::SettlementSourceDiffers,
        check: settlement::settlement_source_differs,
    },
    Rule {
        code: RuleCode::VoidBranchDiffers,
        check: settlement::void_branch_differs,
    },
    Rule {
        code: RuleCode::CloseTime,
        check: settlement::close_time,
    },
    Rule {
        code: RuleCode::CriteriaThreshold,
        check: settlement::criteria_threshold,
    },
    Rule {
        code: RuleCode::UnexplainedDifference,
        check: unexplained::unexplained_difference,
    },
];

/// `Some(text)` unless the list is empty.
pub(crate) fn join(items: &[String]) -> Option<String> {
    (!items.is_empty()).then(|| items.join(", "))
}
