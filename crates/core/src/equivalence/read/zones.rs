//! The zones a time of day is written in, and their offsets from UTC on
//! the date it is read on (daylight saving time moves them).

use crate::time::{civil_from_days, days_from_civil};

/// Hours from UTC of a zone written after a time, by the date it is read
/// on: "ET" (and New York time) is EDT from mid-March to early November;
/// London time ("3:00 PM London", the LBMA's auctions) is BST from the
/// last Sunday of March to the last Sunday of October. CET and CEST are
/// read as written, whatever the date.
pub(crate) fn zone_offset(zone: &str, day: Option<i64>) -> Option<i64> {
    let summer = day
        .map(civil_from_days)
        .is_some_and(|(_, m, d)| (4..=10).contains(&m) || (m == 3 && d >= 8) || (m == 11 && d < 7));
    let european_summer = day.is_some_and(european_summer_time);
    Some(match zone {
        "london" => i64::from(european_summer),
        "bst" => 1,
        "cet" => 1,
        "cest" => 2,
        "utc" | "gmt" | "z" => 0,
        "est" => -5,
        "edt" => -4,
        "et" => {
            if summer {
                -4
            } else {
                -5
            }
        }
        "pst" => -8,
        "pdt" => -7,
        "pt" => {
            if summer {
                -7
            } else {
                -8
            }
        }
        _ => return None,
    })
}

/// Whether `day` (days since the epoch) falls in Europe's summer time:
/// from the last Sunday of March up to the last Sunday of October. The
/// clocks change at 01:00 UTC on those Sundays; a time read on one of
/// them is taken at the offset of most of that day (summer on March's,
/// winter on October's).
fn european_summer_time(day: i64) -> bool {
    let (year, month, _) = civil_from_days(day);
    // The last Sunday of a month of 31 days: its 31st, back to Sunday
    // (the epoch's day 0, 1970-01-01, was a Thursday: 4 days after one).
    let last_sunday = |m: i64| {
        let last = days_from_civil(year, m, 31);
        last - (last + 4).rem_euclid(7)
    };
    (3..=10).contains(&month) && day >= last_sunday(3) && day < last_sunday(10)
}
