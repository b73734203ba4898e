//! Game ids: `{Away}v{Home}{YYYYMMDD}@{LEAGUE}` (release 0.2.0), e.g.
//! `KCvSF20250209@LGA`, and the older form without `@{LEAGUE}`, which the
//! service still accepts.
//!
//! Team codes are ASCII upper-case letters and digits (1 to 8), which keeps
//! the lower-case `v` separator unambiguous; the league suffix is ASCII
//! letters, digits or `_` (1 to 16).

use crate::error::Error;
use std::fmt;
use std::str::FromStr;

const PARAMETER: &str = "game_id";
const MAX_TEAM: usize = 8;
const MAX_LEAGUE: usize = 16;

/// A calendar date of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GameDate {
    pub year: u16,
    pub month: u8,
    pub day: u8,
}

impl GameDate {
    /// A date, if it exists in the Gregorian calendar.
    pub fn new(year: u16, month: u8, day: u8) -> Option<Self> {
        is_valid_date(year.into(), month.into(), day.into()).then_some(Self { year, month, day })
    }

    /// `YYYY-MM-DD`.
    pub fn iso(&self) -> String {
        format!("{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

impl fmt::Display for GameDate {
    /// `YYYYMMDD`, as in game ids.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}{:02}{:02}", self.year, self.month, self.day)
    }
}

fn is_leap(year: u32) -> bool {
    (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400)
}

/// Days in a month of a year (0 for a month that does not exist).
pub fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap(year) => 29,
        2 => 28,
        _ => 0,
    }
}

/// Whether `year-month-day` exists (years 1 to 9999).
pub fn is_valid_date(year: u32, month: u32, day: u32) -> bool {
    (1..=9999).contains(&year) && day >= 1 && day <= days_in_month(year, month)
}

/// A parsed game id.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct GameId {
    pub away: String,
    pub home: String,
    pub date: GameDate,
    /// The suffix after `@`, absent in the older form.
    pub league: Option<String>,
}

impl GameId {
    pub fn parse(id: &str) -> Result<Self, Error> {
        let bad =
            |why: &str| Error::invalid(PARAMETER, format!("{} {why}", crate::error::Quoted(id)));
        let shape = "is not {Away}v{Home}{YYYYMMDD}[@{LEAGUE}]";

        let (body, league) = match id.split_once('@') {
            Some((body, league)) => (body, Some(league)),
            None => (id, None),
        };
        if let Some(league) = league {
            let ok = !league.is_empty()
                && league.len() <= MAX_LEAGUE
                && league
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_');
            if !ok {
                return Err(bad("has an invalid league suffix"));
            }
        }
        // The date is the last 8 bytes of the body; checked to be ASCII
        // digits before slicing so the split is on a char boundary.
        if body.len() < 8 + 3 {
            return Err(bad(shape));
        }
        let split = body.len() - 8;
        let digits = body.as_bytes().get(split..).unwrap_or_default();
        if !digits.iter().all(u8::is_ascii_digit) {
            return Err(bad(shape));
        }
        let (teams, date) = body.split_at(split);
        let num = |r: std::ops::Range<usize>| date.get(r).and_then(|s| s.parse::<u32>().ok());
        let (Some(y), Some(m), Some(d)) = (num(0..4), num(4..6), num(6..8)) else {
            return Err(bad(shape));
        };
        if !is_valid_date(y, m, d) {
            return Err(bad("has a date that does not exist"));
        }
        let team_ok = |t: &str| (1..=MAX_TEAM).contains(&t.len()) && t.bytes().all(is_team_byte);
        let Some((away, home)) = teams.split_once('v') else {
            return Err(bad(shape));
        };
        if !team_ok(away) || !team_ok(home) {
            return Err(bad(shape));
        }
        Ok(Self {
            away: away.to_owned(),
            home: home.to_owned(),
            date: GameDate {
                year: y as u16,
                month: m as u8,
                day: d as u8,
            },
            league: league.map(str::to_owned),
        })
    }

    /// Builds an id, checking every part.
    pub fn new(
        away: impl Into<String>,
        home: impl Into<String>,
        date: GameDate,
        league: Option<String>,
    ) -> Result<Self, Error> {
        let id = Self {
            away: away.into(),
            home: home.into(),
            date,
            league,
        };
        // One set of rules: what we build must parse back.
        Self::parse(&id.to_string())
    }

    /// The same game in the older form, without the league suffix.
    pub fn without_league(&self) -> Self {
        Self {
            league: None,
            ..self.clone()
        }
    }

    /// Whether two ids name the same game, one of them possibly without the
    /// league suffix.
    pub fn same_game(&self, other: &Self) -> bool {
        self.away == other.away
            && self.home == other.home
            && self.date == other.date
            && match (&self.league, &other.league) {
                (Some(a), Some(b)) => a.eq_ignore_ascii_case(b),
                _ => true,
            }
    }
}

fn is_team_byte(b: u8) -> bool {
    b.is_ascii_uppercase() || b.is_ascii_digit()
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}v{}{}", self.away, self.home, self.date)?;
        if let Some(league) = &self.league {
            write!(f, "@{league}")?;
        }
        Ok(())
    }
}

impl FromStr for GameId {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        Self::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn both_forms_parse() {
        let id = GameId::parse("KCvSF20250209@LGA").unwrap();
        assert_eq!((id.away.as_str(), id.home.as_str()), ("KC", "SF"));
        assert_eq!(id.date, GameDate::new(2025, 2, 9).unwrap());
        assert_eq!(id.league.as_deref(), Some("LGA"));
        let old = GameId::parse("KCvSF20250209").unwrap();
        assert_eq!(old.league, None);
        assert!(id.same_game(&old));
        assert_eq!(id.without_league(), old);
        assert_eq!(id.date.iso(), "2025-02-09");
        assert_eq!(
            GameId::parse("BOSvNY20240229@league_b")
                .unwrap()
                .league
                .as_deref(),
            Some("league_b")
        );
    }

    #[test]
    fn invalid_dates_and_shapes_are_errors() {
        for bad in [
            "KCvSF20250230@LGA",    // 30 February
            "KCvSF20230229",        // not a leap year
            "KCvSF20251301",        // month 13
            "KCvSF20250100",        // day 0
            "KCSF20250209@LGA",     // no separator
            "vSF20250209",          // no away team
            "KCv20250209",          // no home team
            "KCvSF2025029@LGA",     // 7-digit date
            "KCvSF20250209@",       // empty league
            "KCvSF20250209@L-A",    // bad league
            "KCvSF20250209@A@B",    // two suffixes
            "kcvsf20250209",        // lower-case teams
            "KCvSFé20250209",       // non-ASCII
            "KCvSF2025020é",        // non-ASCII in the date
            "ABCDEFGHIvSF20250209", // team too long
            "",
        ] {
            let err = GameId::parse(bad).expect_err(bad);
            assert_eq!(err.parameter(), Some("game_id"), "{bad}");
        }
    }

    fn date() -> impl Strategy<Value = GameDate> {
        (1900u16..2100, 1u8..=12, 1u8..=31)
            .prop_filter_map("valid date", |(y, m, d)| GameDate::new(y, m, d))
    }

    proptest! {
        #[test]
        fn format_then_parse_round_trips(
            away in "[A-Z0-9]{1,8}",
            home in "[A-Z0-9]{1,8}",
            date in date(),
            league in proptest::option::of("[A-Za-z0-9_]{1,16}"),
        ) {
            let id = GameId::new(away, home, date, league).unwrap();
            let text = id.to_string();
            prop_assert_eq!(GameId::parse(&text).unwrap(), id.clone());
            prop_assert_eq!(GameId::parse(&id.without_league().to_string()).unwrap().league, None);
        }

        #[test]
        fn parsing_never_panics(s in "\\PC{0,40}") {
            let _ = GameId::parse(&s);
        }
    }
}
