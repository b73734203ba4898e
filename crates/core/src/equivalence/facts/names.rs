//! What the subject rule (`rules::subject`) reads of a market's names in
//! every candidate pair, read once per market: which names are words of
//! a measured quantity, whether the US is the only one, and what the
//! static tables say of each, so that a name the other side does not
//! write is looked up in them once, not once per pair.

use super::super::lexicon::{
    may_stand_for_a_team, of_a_shared_city, quantity_members_of, team_codes,
};
use super::Facts;

/// What the tables say of one name: each `false` is a test of
/// `rules::subject::unmatched` that cannot find the name accounted for,
/// whatever the other side writes, so it is not run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct NameTables {
    /// A given name of one of this side's names (`given_names`).
    pub(crate) given: bool,
    /// A team or city word of `TEAM_CITIES` (`city_stands_for_team`).
    pub(crate) team_or_city: bool,
    /// A team or a sportsbook's code (`team_of_the_game`).
    pub(crate) team_or_code: bool,
    /// A word of a city with two teams (`team_of_a_shared_city`).
    pub(crate) shared_city: bool,
    /// A short form of this side, or a word of a name it glosses
    /// (`ShortForms::short_or_glossed`): without it, `accounts_for` needs
    /// the other side to write a short form.
    pub(crate) short_or_glossed: bool,
}

impl NameTables {
    /// Every test run: for a name not read here.
    pub(crate) const ALL: Self = Self {
        given: true,
        team_or_city: true,
        team_or_code: true,
        shared_city: true,
        short_or_glossed: true,
    };
}

impl Facts {
    /// Reads the names once `entities` is final (sorted, each name once,
    /// so an index stands for its name).
    pub(super) fn read_names(&mut self) {
        self.quantity_names = self
            .entities
            .iter()
            .enumerate()
            .flat_map(|(k, e)| quantity_members_of(e).map(move |(i, bit)| (k, i, bit)))
            .collect();
        self.us_alone = matches!(self.entities.as_slice(), [us] if us == "us");
        self.name_tables = self
            .entities
            .iter()
            .map(|e| NameTables {
                given: self.given_names.iter().any(|(given, _)| given == e),
                team_or_city: may_stand_for_a_team(e),
                team_or_code: team_codes::is_team_or_code(e),
                shared_city: of_a_shared_city(e),
                short_or_glossed: self.short_forms.short_or_glossed(e),
            })
            .collect();
    }

    /// The tables' answers for `entities[entity]`.
    pub(crate) fn name_tables(&self, entity: usize) -> NameTables {
        self.name_tables
            .get(entity)
            .copied()
            .unwrap_or(NameTables::ALL)
    }

    /// The name `entities[entity]` is a subject against `other`: neither
    /// a word of a measured quantity `other` names too (the quantity
    /// rules compare it, not the subject rule) nor one of a member of a
    /// family `other` names no member of ("YoY" against a side naming no
    /// period).
    pub(crate) fn is_subject_name(&self, entity: usize, other: &Facts) -> bool {
        !self.quantity_names.iter().any(|&(k, i, bit)| {
            k == entity
                && other
                    .quantities
                    .get(i)
                    .is_none_or(|&mask| mask & bit != 0 || mask == 0)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::lexicon::{
        TEAM_CITIES, city_stands_for_team, may_stand_for_a_team, of_a_shared_city,
        team_of_a_shared_city,
    };

    /// A word the tables rule out is never accounted for by the test they
    /// stand for, even against a side that writes every word: over every
    /// team and city word of the table (either spelling) and words of no
    /// team.
    #[test]
    fn a_word_the_tables_rule_out_is_never_accounted_for() {
        let mut words: Vec<&str> = TEAM_CITIES
            .iter()
            .flat_map(|&(team, city)| std::iter::once(team).chain(city.iter().copied()))
            .flat_map(|w| [w, w.strip_suffix('s').unwrap_or(w)])
            .collect();
        words.extend([
            "new york",
            "los angeles",
            "bitcoin",
            "fed",
            "trump",
            "us",
            "x",
        ]);
        let (mut teams, mut shared) = (0, 0);
        for w in words {
            if may_stand_for_a_team(w) {
                teams += 1;
            } else {
                assert!(!city_stands_for_team(w, |_| true), "{w}");
            }
            if of_a_shared_city(w) {
                shared += 1;
            } else {
                assert!(!team_of_a_shared_city(w, |_| true, |_| true), "{w}");
            }
        }
        // The tables do read the teams' words.
        assert!(teams > 100 && shared > 5, "{teams} {shared}");
    }
}
