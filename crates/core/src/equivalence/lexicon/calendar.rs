//! The calendar of the exchanges, as far as a question's window needs it:
//! a year's last close is on its last trading day, which is the last
//! weekday of December, or the one before December 31 where the exchange
//! is closed that day (Korea, Japan, Germany, Brazil).

/// The indices (as the lexer reads their names and tickers) whose
/// exchange does not trade on December 31.
const CLOSED_ON_DECEMBER_31: &[&str] = &[
    "bovespa", "dax", "ibovespa", "kosdaq", "kospi", "nikkei", "topix",
];

/// `names` names an index of an exchange closed on December 31.
pub fn closed_on_december_31(names: impl Fn(&str) -> bool) -> bool {
    CLOSED_ON_DECEMBER_31.iter().any(|w| names(w))
}

/// The last trading day (days since the epoch) of the year whose
/// December 31 is `december_31`: that day, or December 30 where the
/// exchange is closed on the 31st, moved back over a weekend.
pub fn last_trading_day(december_31: i64, closed_on_the_31st: bool) -> i64 {
    let mut day = december_31 - i64::from(closed_on_the_31st);
    // 1970-01-01 was a Thursday: 0 is Sunday, 6 Saturday.
    while matches!((day + 4).rem_euclid(7), 0 | 6) {
        day -= 1;
    }
    day
}

#[cfg(test)]
mod tests {
    use super::last_trading_day;
    use crate::time::days_from_civil;

    #[test]
    fn the_last_trading_day_skips_the_31st_where_closed_and_the_weekend() {
        // December 31, 2027 is a Friday.
        let end_2027 = days_from_civil(2027, 12, 31);
        assert_eq!(last_trading_day(end_2027, false), end_2027);
        assert_eq!(
            last_trading_day(end_2027, true),
            days_from_civil(2027, 12, 30)
        );
        // December 31, 2028 is a Sunday: Friday the 29th either way.
        let end_2028 = days_from_civil(2028, 12, 31);
        assert_eq!(
            last_trading_day(end_2028, false),
            days_from_civil(2028, 12, 29)
        );
        assert_eq!(
            last_trading_day(end_2028, true),
            days_from_civil(2028, 12, 29)
        );
    }
}
