//! Worked examples of the fifteenth round's readings of windows written
//! otherwise (branch recall19): a day known by its name, a zone that
//! moves the day across midnight, a window open at its end, a year's
//! last close written as "finish" or "the end of", a span of days, an
//! event held in one month. Each beside a look-alike that must stay
//! `different` or `unsure`. The two marked "fails without" were run on
//! the branch point (fa322d9) and fail there; the others hold there too
//! (the branch point read those windows more coarsely, as `unsure` or
//! `different`): they keep the new readings from reaching too far.

use super::worked_market::{neither_same_nor_inverted, titles_relation as relation};
use super::*;

const XMAS: &str = "2029-12-26T05:00:00Z";

#[test]
fn a_named_day_is_its_date_and_not_the_day_before() {
    let named = (
        "Will Central Park get measurable snow on Christmas Day 2029?",
        XMAS,
    );
    let dated = ("Measurable snow at Central Park on Dec 25, 2029?", XMAS);
    assert_eq!(relation(named, dated), Relation::Same);
    // Christmas Eve is another day: fails without the reading (a year
    // against a day was `unsure`).
    let eve = ("Measurable snow at Central Park on Dec 24, 2029?", XMAS);
    assert_eq!(relation(named, eve), Relation::Different);
    // Another calendar's Christmas is another day (January 7).
    let orthodox = (
        "Measurable snow in Moscow on Orthodox Christmas Day 2030?",
        "2030-01-08T05:00:00Z",
    );
    let dec_25 = (
        "Measurable snow in Moscow on Dec 25, 2030?",
        "2030-01-08T05:00:00Z",
    );
    assert!(neither_same_nor_inverted(relation(orthodox, dec_25)));
}

#[test]
fn a_time_in_another_zone_moves_the_day_in_utc() {
    const NEW_YEAR: &str = "2031-01-01T05:00:00Z";
    let et = (
        "Will Ethereum be above $5,000 at 11:59 PM ET on December 31, 2030?",
        NEW_YEAR,
    );
    // 11:59 PM ET on December 31 is January 1 in UTC: not the UTC day of
    // December 31. Fails without the reading (`unsure`).
    let utc_day = (
        "ETH above $5,000 on December 31, 2030?",
        "2030-12-31T23:59:00Z",
    );
    assert_eq!(relation(et, utc_day), Relation::Different);
    // 7pm EST on February 27 is midnight UTC opening February 28.
    let est = (
        "XRP above $5 on Feb 27, 2030 at 7pm EST?",
        "2030-02-28T00:00:00Z",
    );
    let utc = (
        "XRP above $5.00 on Feb 28, 2030 at 00:00 UTC?",
        "2030-02-28T00:00:00Z",
    );
    assert_eq!(relation(est, utc), Relation::Same);
}

#[test]
fn a_window_open_at_its_end_splits_only_the_next_occurrence() {
    const END_2028: &str = "2028-12-31T23:59:00Z";
    let before = (
        "Will the next Canadian federal election be held before 2029?",
        END_2028,
    );
    let later = ("Next Canadian federal election in 2029 or later?", END_2028);
    assert_eq!(relation(before, later), Relation::Inverted);
    // A game may be cancelled: No on both, so not complements, and the
    // windows do not meet.
    let released = ("Will The Witcher 5 be released before 2029?", END_2028);
    let delayed = ("The Witcher 5 delayed to 2029 or later?", END_2028);
    assert_eq!(relation(released, delayed), Relation::Different);
}

#[test]
fn a_year_end_close_is_the_last_trading_day_only_where_both_close_on_it() {
    let last_close = "2028-12-29T21:00:00Z";
    let finish = ("Will the S&P 500 finish 2028 above 9,000?", last_close);
    let day = ("S&P 500 close on Dec 29, 2028: above 9,000?", last_close);
    assert_eq!(relation(finish, day), Relation::Same);
    // A coin trades on December 31: its end of 2028 is not December 29's
    // price (the guard on the close times; "end of 2028" is now read as a
    // year's last close).
    let coin_end = (
        "Will Bitcoin be above $150k at the end of 2028?",
        "2028-12-31T23:59:00Z",
    );
    let coin_day = (
        "Bitcoin above $150k on December 29, 2028?",
        "2028-12-29T23:59:00Z",
    );
    assert!(neither_same_nor_inverted(relation(coin_end, coin_day)));
    // Finishing a year above a level is not reaching it during the year.
    let hit = ("Will the S&P 500 reach 9,000 in 2028?", last_close);
    assert!(neither_same_nor_inverted(relation(finish, hit)));
}

#[test]
fn a_span_of_days_is_not_its_first_day() {
    let close = "2027-12-07T23:59:00Z";
    let week = ("Elon Musk 300 or more tweets Dec 1-7, 2027?", close);
    let spelled = (
        "Elon Musk 300 or more tweets between Dec 1 and 7, 2027?",
        close,
    );
    assert_eq!(relation(week, spelled), Relation::Same);
    // "Dec 1-7" is the week, not December 1.
    let day = ("Elon Musk 300 or more tweets on Dec 1, 2027?", close);
    assert!(neither_same_nor_inverted(relation(week, day)));
}

#[test]
fn an_event_held_in_one_month_is_that_month_and_no_other() {
    let close = "2030-02-10T23:30:00Z";
    let numbered = ("Will the Buffalo Bills win Super Bowl LXIV?", close);
    let month = (
        "Will the Buffalo Bills win the Super Bowl in February 2030?",
        close,
    );
    assert_eq!(relation(numbered, month), Relation::Same);
    let january = (
        "Will the Buffalo Bills win the Super Bowl in January 2030?",
        close,
    );
    assert!(neither_same_nor_inverted(relation(numbered, january)));
}

/// Found after merging recall18: with a party's seats read as a
/// quantity's member ("Republican House majority"), its name was set
/// aside and the two sides of the contest were read as one subject
/// (`same`). The names are now read from the entities too.
#[test]
fn the_two_parties_of_one_house_are_the_two_sides_of_a_contest() {
    let close = "2030-11-05T23:59:00Z";
    let dem = (
        "Will the Democratic Party control the House after the 2030 midterms?",
        close,
    );
    let gop = ("Republican House majority after the 2030 midterms?", close);
    assert!(!matches!(relation(dem, gop), Relation::Same));
    let month = (
        "Will the Democratic Party win a House majority in the November 2030 midterms?",
        close,
    );
    assert!(!matches!(relation(month, gop), Relation::Same));
}
