//! The classifier's engine: a loop over the table of rules
//! ([`super::rules::RULES`]). Each rule reads the facts of both markets
//! and records what it found in a [`Verdict`]: a vote on the relation,
//! positive evidence on one aspect of the question, a veto, a field that
//! disagrees, and the reasons, each naming its rule.
//!
//! The verdict is then read once: a veto makes the questions
//! `different`; `same` or `inverted` needs positive evidence on the
//! subject, the measured quantity, the threshold and the window, and
//! every part of each side accounted for by the other, and is `unsure`
//! without them.

use super::facts::Facts;
use super::rules::RULES;
use super::{Classification, Field, Finding, OutcomeMapping, Reason, Relation};
use crate::models::Market;
use serde::Serialize;

/// The stable, machine-readable name of a rule: what a reason, a veto or
/// a missing piece of evidence is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RuleCode {
    /// Only binary markets are compared.
    BinaryOnly,
    /// Which outcome is YES must be said.
    YesSideNamed,
    /// Both markets are on one platform.
    OnePlatform,
    /// The names each market mentions.
    SubjectDiffers,
    /// Who must win for YES.
    WinnerDiffers,
    /// The dates, periods and deadlines.
    CutoffDiffers,
    /// The time of day (and its zone) a price is read at.
    TimeOfDayDiffers,
    /// The thresholds' values.
    ThresholdDiffers,
    /// One value, another comparator (≥ against >).
    ComparatorDiffers,
    /// A band ("between 3.0% and 3.1%") against a tail ("above 3.0%").
    BandVsTail,
    /// Numbers that are neither the threshold nor a date.
    NumbersDiffer,
    /// A stage of a competition against winning it.
    StageNested,
    /// Predicates that ask the opposite ("hold" / "change").
    AntonymNegation,
    /// Opposite predicates both of which can be NO ("cut" / "hike").
    AntonymContrary,
    /// Opposite predicates that are complements only where no draw can
    /// happen ("win" / "lose").
    AntonymConditional,
    /// The measured quantity (unemployment against inflation).
    MetricDiffers,
    /// A way of meeting YES one side names and the other leaves open
    /// ("win by KO/TKO" / "win").
    QualifierOneSided,
    /// How much of the wording the two share.
    Wording,
    /// One asks the negative ("not", "avoid", "fail to").
    Negation,
    /// The sources the markets settle on.
    SettlementSourceDiffers,
    /// What happens when the event is cancelled or postponed.
    VoidBranchDiffers,
    /// The close times.
    CloseTime,
    /// The thresholds the rules state against those of the titles.
    CriteriaThreshold,
    /// `same` or `inverted` with a part of one side the other does not
    /// account for (a qualifier, a line, a scope word, a rules-only branch).
    UnexplainedDifference,
    /// `same` or `inverted` without positive evidence on an aspect.
    EvidenceMissing,
    /// How YES of one market maps onto the other.
    OutcomeMapping,
}

impl RuleCode {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::BinaryOnly => "binary_only",
            Self::YesSideNamed => "yes_side_named",
            Self::OnePlatform => "one_platform",
            Self::SubjectDiffers => "subject_differs",
            Self::WinnerDiffers => "winner_differs",
            Self::CutoffDiffers => "cutoff_differs",
            Self::TimeOfDayDiffers => "time_of_day_differs",
            Self::ThresholdDiffers => "threshold_differs",
            Self::ComparatorDiffers => "comparator_differs",
            Self::BandVsTail => "band_vs_tail",
            Self::NumbersDiffer => "numbers_differ",
            Self::StageNested => "stage_nested",
            Self::AntonymNegation => "antonym_negation",
            Self::AntonymContrary => "antonym_contrary",
            Self::AntonymConditional => "antonym_conditional",
            Self::MetricDiffers => "metric_differs",
            Self::QualifierOneSided => "qualifier_one_sided",
            Self::Wording => "wording",
            Self::Negation => "negation",
            Self::SettlementSourceDiffers => "settlement_source_differs",
            Self::VoidBranchDiffers => "void_branch_differs",
            Self::CloseTime => "close_time",
            Self::CriteriaThreshold => "criteria_threshold",
            Self::UnexplainedDifference => "unexplained_difference",
            Self::EvidenceMissing => "evidence_missing",
            Self::OutcomeMapping => "outcome_mapping",
        }
    }
}

/// A rule of the table: its code and the check it runs.
pub struct Rule {
    pub code: RuleCode,
    pub check: fn(&Pair<'_>, &mut Verdict),
}

/// The two markets and their facts, as every rule reads them.
pub struct Pair<'a> {
    pub a: &'a Market,
    pub b: &'a Market,
    pub fa: &'a Facts,
    pub fb: &'a Facts,
}

/// What one rule says about the relation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Vote {
    Same,
    /// The first question is narrower.
    Narrower,
    Wider,
    /// YES on one is NO on the other, on this aspect.
    Opposite,
    /// The aspect cannot tell.
    Unknown,
}

/// The aspects of a question on which `same` and `inverted` need
/// positive evidence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aspect {
    Subject,
    Quantity,
    Threshold,
    Window,
}

const ASPECTS: [(Aspect, &str); 4] = [
    (Aspect::Subject, "the subject"),
    (Aspect::Quantity, "the measured quantity"),
    (Aspect::Threshold, "the threshold and its comparator"),
    (Aspect::Window, "the window"),
];

/// What the rules found so far, and the reasons, built only when asked
/// for: a list of thousands of pairs is classified without formatting a
/// word.
pub struct Verdict {
    detailed: bool,
    /// The rule running: each reason and veto is recorded under it.
    rule: RuleCode,
    reasons: Vec<Reason>,
    /// The votes cast, one bit per kind (only which kinds were cast
    /// matters): no allocation per pair.
    votes: u8,
    /// The aspects with positive evidence, one bit each.
    evidence: u8,
    /// The rules that vetoed, in the order they did, each once: held in
    /// place (a list is made only for a verdict that is kept, see
    /// [`run_kept`]; most candidate pairs are vetoed and dropped).
    vetoes: Vetoes,
    /// How many rules found the question asked the other way round.
    flips: usize,
    disagreements: Vec<Field>,
    /// A gate closed: the pair cannot be compared at all.
    closed: bool,
    /// Facts one rule leaves for a later one.
    pub(crate) threshold_shape: Option<super::rules::threshold::Shape>,
    pub(crate) staged: bool,
    /// The lexicon found the same measured quantity on both sides.
    pub(crate) quantity_named: bool,
    /// A part of one side the other does not account for: `same` and
    /// `inverted` are not earned.
    unexplained: bool,
}

impl Verdict {
    /// Adds a reason under the running rule; `make` runs only when the
    /// reasons are wanted.
    pub fn say(
        &mut self,
        make: impl FnOnce() -> (Field, Finding, Option<String>, Option<String>, String),
    ) {
        if self.detailed {
            let (field, finding, a, b, note) = make();
            self.reasons.push(Reason {
                rule: self.rule,
                field,
                finding,
                a,
                b,
                note,
            });
        }
    }

    pub fn vote(&mut self, v: Vote) {
        self.votes |= 1 << v as u8;
    }

    fn voted(&self, v: Vote) -> bool {
        self.votes & 1 << v as u8 != 0
    }

    pub fn evidence(&mut self, aspect: Aspect) {
        self.evidence |= 1 << aspect as u8;
    }

    fn has_evidence(&self, aspect: Aspect) -> bool {
        self.evidence & 1 << aspect as u8 != 0
    }

    /// The running rule finds two different questions.
    pub fn veto(&mut self) {
        self.vetoes.add(self.rule);
    }

    /// The running rule finds one question asked the other way round.
    pub fn flip(&mut self) {
        self.flips += 1;
    }

    pub fn disagree(&mut self, field: Field) {
        self.disagreements.push(field);
    }

    /// The pair cannot be compared: no later rule runs.
    pub fn close(&mut self) {
        self.closed = true;
    }

    pub fn vetoed(&self) -> bool {
        self.vetoes.len != 0
    }

    /// The running rule finds a part of one side the other does not
    /// account for: the verdict cannot be `same` or `inverted`.
    pub fn unexplained(&mut self) {
        self.unexplained = true;
    }

    /// No veto and no vote yet that rules out `same` or `inverted`
    /// (evidence may still come from the rules after this one).
    pub fn open_to_equal(&self) -> bool {
        !self.vetoed()
            && !self.voted(Vote::Unknown)
            && !self.voted(Vote::Narrower)
            && !self.voted(Vote::Wider)
    }

    /// The votes so far still allow `same` or `inverted`: no veto,
    /// nothing narrower, wider or unknown, and evidence on every aspect.
    pub fn may_be_equal(&self) -> bool {
        self.open_to_equal() && ASPECTS.iter().all(|(aspect, _)| self.has_evidence(*aspect))
    }

    /// The reasons are wanted: without them, a rule may stop at its first
    /// finding.
    pub fn detailed(&self) -> bool {
        self.detailed
    }

    /// Some aspect has no positive evidence.
    fn evidence_missing(&self) -> bool {
        ASPECTS
            .iter()
            .any(|(aspect, _)| !self.has_evidence(*aspect))
    }

    /// The relation the votes give, before negation and evidence.
    fn combined(&self) -> Relation {
        if self.vetoed() {
            return Relation::Different;
        }
        if self.voted(Vote::Unknown) {
            return Relation::Unsure;
        }
        let narrower = self.voted(Vote::Narrower);
        let wider = self.voted(Vote::Wider);
        let opposite = self.voted(Vote::Opposite);
        match (narrower, wider, opposite) {
            (false, false, false) => Relation::Same,
            (false, false, true) => Relation::Inverted,
            (true, false, false) => Relation::Subset,
            (false, true, false) => Relation::Superset,
            // Narrower in one aspect and wider in another: overlapping
            // questions, neither implies the other.
            (true, true, _) => Relation::Different,
            _ => Relation::Unsure,
        }
    }
}

/// The vetoes of one verdict, without an allocation: each rule runs
/// once and a code is listed once, so the table's length bounds them.
#[derive(Clone, Copy)]
struct Vetoes {
    codes: [RuleCode; RULES.len()],
    len: usize,
}

impl Vetoes {
    const NONE: Self = Self {
        codes: [RuleCode::BinaryOnly; RULES.len()],
        len: 0,
    };

    fn listed(&self) -> &[RuleCode] {
        self.codes.get(..self.len).unwrap_or_default()
    }

    fn add(&mut self, code: RuleCode) {
        if !self.listed().contains(&code)
            && let Some(slot) = self.codes.get_mut(self.len)
        {
            *slot = code;
            self.len += 1;
        }
    }
}

/// Runs the table of rules over a pair (see the module doc).
pub fn run(a: &Market, b: &Market, fa: &Facts, fb: &Facts, detailed: bool) -> Classification {
    let pair = Pair { a, b, fa, fb };
    let v = run_rules(&pair, detailed);
    let settled = settle(&v);
    let classification = conclude(v, settled, &pair);
    #[cfg(test)]
    super::verdicts_log::record(a, b, detailed, &classification);
    classification
}

/// [`run`], for a list that keeps only some relations: the verdict is
/// made (its reasons and lists allocated) only when `kept` keeps its
/// relation.
pub fn run_kept(
    p: &Pair<'_>,
    detailed: bool,
    kept: impl Fn(Relation) -> bool,
) -> Option<Classification> {
    let v = run_rules(p, detailed);
    let settled = settle(&v);
    // The tests' dump records every verdict, kept or not.
    if !cfg!(test) && !kept(settled.0) {
        return None;
    }
    let classification = conclude(v, settled, p);
    #[cfg(test)]
    super::verdicts_log::record(p.a, p.b, detailed, &classification);
    kept(settled.0).then_some(classification)
}

fn run_rules(pair: &Pair<'_>, detailed: bool) -> Verdict {
    let mut v = Verdict {
        detailed,
        rule: RuleCode::BinaryOnly,
        reasons: Vec::new(),
        votes: 0,
        evidence: 0,
        vetoes: Vetoes::NONE,
        flips: 0,
        disagreements: Vec::new(),
        closed: false,
        threshold_shape: None,
        staged: false,
        quantity_named: false,
        unexplained: false,
    };
    for rule in RULES {
        v.rule = rule.code;
        (rule.check)(pair, &mut v);
        // Without reasons, the first veto settles it: the pair is
        // `different` whatever the later rules find.
        if v.closed || (!detailed && v.vetoed()) {
            break;
        }
    }
    v
}

/// The relation the verdict gives once every rule has run, and whether a
/// `same` or `inverted` was made `unsure` for want of evidence.
fn settle(v: &Verdict) -> (Relation, bool) {
    let mut relation = if v.closed {
        Relation::Unsure
    } else {
        v.combined()
    };
    if v.flips % 2 == 1 {
        relation = match relation {
            Relation::Same => Relation::Inverted,
            Relation::Inverted => Relation::Same,
            Relation::Subset | Relation::Superset => Relation::Unsure,
            other => other,
        };
    }
    // The rule that found the unexplained part has said which it is.
    if v.unexplained && matches!(relation, Relation::Same | Relation::Inverted) {
        relation = Relation::Unsure;
    }
    if matches!(relation, Relation::Same | Relation::Inverted) && v.evidence_missing() {
        return (Relation::Unsure, true);
    }
    (relation, false)
}

/// The verdict, its relation settled: the reasons for a missing piece of
/// evidence (`without_evidence`: `settle` made a `same` or `inverted`
/// `unsure` for it) and for the outcome mapping (naming the outcome of
/// each market that pays, where a market names its outcomes for a
/// selection), and the lists.
fn conclude(
    mut v: Verdict,
    (relation, without_evidence): (Relation, bool),
    p: &Pair<'_>,
) -> Classification {
    if without_evidence {
        let missing: Vec<&str> = ASPECTS
            .iter()
            .filter(|(aspect, _)| !v.has_evidence(*aspect))
            .map(|(_, name)| *name)
            .collect();
        v.rule = RuleCode::EvidenceMissing;
        v.say(|| {
            (
                Field::Wording,
                Finding::Missing,
                None,
                None,
                format!("nothing shows the two agree on {}", missing.join(", ")),
            )
        });
    }
    let outcome_mapping = match relation {
        Relation::Same | Relation::Subset | Relation::Superset => Some(OutcomeMapping::YesYes),
        Relation::Inverted => Some(OutcomeMapping::YesNo),
        _ => None,
    };
    if let Some(m) = outcome_mapping {
        v.rule = RuleCode::OutcomeMapping;
        v.say(|| {
            let note = match (m, relation) {
                (OutcomeMapping::YesNo, _) => "YES on the first is NO on the second",
                (_, Relation::Subset) => "YES on the first implies YES on the second",
                (_, Relation::Superset) => "YES on the second implies YES on the first",
                _ => "YES on the first is YES on the second",
            };
            let yes_there = m != OutcomeMapping::YesNo;
            let here = p.fa.yes_outcome.outcome_name(p.a, true);
            let there = p.fb.yes_outcome.outcome_name(p.b, yes_there);
            (
                Field::OutcomeMapping,
                Finding::Agrees,
                Some(here.unwrap_or_else(|| "yes".into())),
                Some(there.unwrap_or_else(|| if yes_there { "yes" } else { "no" }.into())),
                note.into(),
            )
        });
    }
    v.disagreements.sort();
    v.disagreements.dedup();
    Classification {
        relation,
        outcome_mapping,
        reasons: v.reasons,
        disagreements: v.disagreements,
        vetoes: v.vetoes.listed().to_vec(),
    }
}
