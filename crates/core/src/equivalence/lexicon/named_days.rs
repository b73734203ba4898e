//! Days of the year known by a name ("Christmas Day 2029", "Thanksgiving
//! 2029", "New Year's Eve"), as the public holiday calendars state them:
//! a fixed month and day, or the nth (or last) weekday of a month. A
//! title that names the day is read as that day, so it meets a title
//! that writes the date ("Dec 25, 2029").
//!
//! The US days listed are those other countries name alike
//! ("Independence Day", "Thanksgiving"): no named day is read where a
//! capitalized name stands just before it ("Canada's Thanksgiving",
//! "Orthodox Christmas": see `read::windows::named_day`).

/// How a named day falls in its year.
#[derive(Debug, Clone, Copy)]
pub enum Falls {
    /// A month and a day.
    On(i64, i64),
    /// The `n`th weekday of a month (weekday 0 is Sunday); `n` = 0 is the
    /// last one.
    Nth { month: i64, weekday: i64, n: i64 },
    /// The day after the fourth Thursday of November (Black Friday).
    AfterThanksgiving,
}

/// A named day: its words (as the lexer writes them, possessives taken
/// off: "New Year's Eve" is "new year eve") and how it falls.
pub struct NamedDay {
    pub words: &'static [&'static str],
    pub falls: Falls,
}

const fn on(words: &'static [&'static str], month: i64, day: i64) -> NamedDay {
    NamedDay {
        words,
        falls: Falls::On(month, day),
    }
}

/// A US day (the US calendar's date, where another country's differs).
const fn us(words: &'static [&'static str], falls: Falls) -> NamedDay {
    NamedDay { words, falls }
}

/// Longest names first: "christmas eve" before "christmas".
pub const NAMED_DAYS: &[NamedDay] = &[
    on(&["new", "year", "eve"], 12, 31),
    on(&["new", "years", "eve"], 12, 31),
    on(&["new", "year", "day"], 1, 1),
    on(&["new", "years", "day"], 1, 1),
    on(&["christmas", "eve"], 12, 24),
    on(&["christmas", "day"], 12, 25),
    on(&["christmas"], 12, 25),
    on(&["xmas"], 12, 25),
    on(&["boxing", "day"], 12, 26),
    on(&["halloween"], 10, 31),
    on(&["valentine", "day"], 2, 14),
    on(&["fourth", "of", "july"], 7, 4),
    us(&["independence", "day"], Falls::On(7, 4)),
    us(&["juneteenth"], Falls::On(6, 19)),
    us(&["veterans", "day"], Falls::On(11, 11)),
    us(
        &["thanksgiving", "day"],
        Falls::Nth {
            month: 11,
            weekday: 4,
            n: 4,
        },
    ),
    us(
        &["thanksgiving"],
        Falls::Nth {
            month: 11,
            weekday: 4,
            n: 4,
        },
    ),
    us(&["black", "friday"], Falls::AfterThanksgiving),
    us(
        &["memorial", "day"],
        Falls::Nth {
            month: 5,
            weekday: 1,
            n: 0,
        },
    ),
    us(
        &["labor", "day"],
        Falls::Nth {
            month: 9,
            weekday: 1,
            n: 1,
        },
    ),
];

/// Events held in one month of their year, as their organisers'
/// calendars have held them for twenty years: a question about the
/// event in a year and one about it in that month ask about one window
/// (the Super Bowl is played in February, the US midterm elections are
/// held in November).
pub const EVENT_MONTHS: &[(&[&str], i64)] = &[
    (&["super", "bowl"], 2),
    (&["midterms"], 11),
    (&["midterm"], 11),
];

/// The day (days since the epoch) a named day falls on in `year`.
pub fn day_in(falls: Falls, year: i64) -> i64 {
    use crate::time::days_from_civil;
    // 1970-01-01 was a Thursday (weekday 4).
    let weekday = |day: i64| (day + 4).rem_euclid(7);
    let nth = |month: i64, wd: i64, n: i64| {
        if n == 0 {
            let (ny, nm) = if month == 12 {
                (year + 1, 1)
            } else {
                (year, month + 1)
            };
            let last = days_from_civil(ny, nm, 1) - 1;
            last - (weekday(last) - wd).rem_euclid(7)
        } else {
            let first = days_from_civil(year, month, 1);
            first + (wd - weekday(first)).rem_euclid(7) + 7 * (n - 1)
        }
    };
    match falls {
        Falls::On(m, d) => days_from_civil(year, m, d),
        Falls::Nth { month, weekday, n } => nth(month, weekday, n),
        Falls::AfterThanksgiving => nth(11, 4, 4) + 1,
    }
}

#[cfg(test)]
mod tests {
    use super::{Falls, day_in};
    use crate::time::days_from_civil;

    #[test]
    fn the_floating_days_fall_where_the_calendars_put_them() {
        let thanksgiving = Falls::Nth {
            month: 11,
            weekday: 4,
            n: 4,
        };
        // Thanksgiving 2029 is November 22; 2026's November 26.
        assert_eq!(day_in(thanksgiving, 2029), days_from_civil(2029, 11, 22));
        assert_eq!(day_in(thanksgiving, 2026), days_from_civil(2026, 11, 26));
        assert_eq!(
            day_in(Falls::AfterThanksgiving, 2029),
            days_from_civil(2029, 11, 23)
        );
        // Memorial Day 2030 is May 27 (the last Monday); Labor Day 2030
        // September 2 (the first).
        let memorial = Falls::Nth {
            month: 5,
            weekday: 1,
            n: 0,
        };
        assert_eq!(day_in(memorial, 2030), days_from_civil(2030, 5, 27));
        let labor = Falls::Nth {
            month: 9,
            weekday: 1,
            n: 1,
        };
        assert_eq!(day_in(labor, 2030), days_from_civil(2030, 9, 2));
        assert_eq!(
            day_in(Falls::On(12, 31), 2029),
            days_from_civil(2029, 12, 31)
        );
    }
}
