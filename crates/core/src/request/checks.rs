//! The spec's checks on parameters, shared by the requests. Every failure is
//! `Error::InvalidArgument` naming the parameter.

use crate::error::{Error, Quoted};

/// `GET /markets`: maximum 250 (release 0.4.0).
pub const MARKETS_MAX_LIMIT: u32 = 250;
/// `GET /trades`: maximum 1000.
pub const TRADES_MAX_LIMIT: u32 = 1000;
/// `GET /events`: capped at 25 (release 0.3.0, pagination guide).
pub const EVENTS_MAX_LIMIT: u32 = 25;
/// `GET /series`: the spec gives 100 (endpoint reference) and 25 (release
/// history 0.3.0 and the pagination guide). 25 is chosen: two sources of
/// three, and 0.3.0 is the later statement (the 100 is the limit 0.3.0 says
/// it reduced). Since the service caps rather than rejects, a caller asking
/// for more loses nothing: the pager fetches further pages, and the page
/// size the caller sees is the one the service applies.
pub const SERIES_MAX_LIMIT: u32 = 25;
/// Lists whose maximum the spec does not give (list-games, list-futures,
/// list-awards): the pagination guide's 1 to 25.
pub const LIST_MAX_LIMIT: u32 = 25;
/// `GET /price-history`: `limit` 1 to 5000.
pub const PRICE_HISTORY_MAX_LIMIT: u32 = 5000;
/// `GET /price-history`: at most 10 market ids.
pub const PRICE_HISTORY_MAX_MARKETS: usize = 10;
/// `GET /profile/trades`: `limit` 1 to 100.
pub const PROFILE_TRADES_MAX_LIMIT: u32 = 100;
/// Profile operations: `user` is 1 to 100 characters.
pub const PROFILE_USER_MAX_CHARS: usize = 100;

/// `season`: a year. A structural range, shared with the reference server:
/// it catches a two-digit year, a timestamp or a typo, and is wide enough
/// for every season a league on any platform can have (the oldest North
/// American major league's seasons start in the 1870s, but no market on
/// them exists; the upper bound leaves two centuries of headroom).
pub const SEASON_MIN: u32 = 1900;
/// See [`SEASON_MIN`].
pub const SEASON_MAX: u32 = 2200;

/// One value of an open set (platform, league, status, type, sort, ...):
/// not blank and not a comma-separated list. Which values exist is the
/// service's call (`docs/spec/public-service-facts.md`).
pub(crate) fn one_value<T: AsRef<str>>(parameter: &str, value: &Option<T>) -> Result<(), Error> {
    match value.as_ref().map(AsRef::as_ref) {
        Some(v) if v.trim().is_empty() => Err(Error::invalid(parameter, "must not be empty")),
        Some(v) if v.contains(',') => Err(Error::invalid(
            parameter,
            "takes exactly one value; a comma-separated list is not supported",
        )),
        _ => Ok(()),
    }
}

/// An id that goes into the path as one segment: not blank, and not `.` or
/// `..`, which every URL parser resolves as "this" or "the parent" segment
/// (even percent-encoded as `%2e`), so such an id would name another path.
/// Nor may a piece of it between `/` or `\` be one: the id is sent
/// encoded, but a server or cache that decodes `%2F` or `%5C` before
/// resolving would see those pieces as segments.
pub(crate) fn path_id(parameter: &str, value: &str) -> Result<(), Error> {
    if value.trim().is_empty() {
        return Err(Error::invalid(parameter, "must not be empty"));
    }
    if value
        .split(['/', '\\'])
        .any(|piece| piece == "." || piece == "..")
    {
        return Err(Error::invalid(
            parameter,
            "must not be `.` or `..`, nor have such a part between slashes",
        ));
    }
    Ok(())
}

/// A required value of an open set: present, not blank, one value.
pub(crate) fn required_value(parameter: &str, value: &str) -> Result<(), Error> {
    if value.trim().is_empty() {
        return Err(Error::invalid(parameter, "is required"));
    }
    one_value(parameter, &Some(value))
}

/// A season year within [`SEASON_MIN`]..=[`SEASON_MAX`].
pub(crate) fn season(value: Option<u32>) -> Result<(), Error> {
    match value {
        Some(y) if !(SEASON_MIN..=SEASON_MAX).contains(&y) => Err(Error::invalid(
            "season",
            format!("must be a year from {SEASON_MIN} to {SEASON_MAX}"),
        )),
        _ => Ok(()),
    }
}

/// A page size: 0 is an error; above `max` it is capped (the service caps
/// too, never rejects).
pub(crate) fn limit(value: &mut Option<u32>, max: u32) -> Result<(), Error> {
    match value {
        Some(0) => Err(Error::invalid(
            "limit",
            format!("must be between 1 and {max}"),
        )),
        Some(n) => {
            *n = (*n).min(max);
            Ok(())
        }
        None => Ok(()),
    }
}

/// A cursor as sent: an empty one means "first page".
pub(crate) fn cursor(value: &mut Option<String>) {
    if value.as_deref().is_some_and(str::is_empty) {
        *value = None;
    }
}

/// A free-text value: blank means absent (a cleared search box is no search).
pub(crate) fn text(value: &mut Option<String>) {
    if value.as_deref().is_some_and(|t| t.trim().is_empty()) {
        *value = None;
    }
}

/// A calendar date `YYYY-MM-DD`.
pub(crate) fn date(parameter: &str, value: Option<&str>) -> Result<Option<(u32, u32, u32)>, Error> {
    let Some(value) = value else {
        return Ok(None);
    };
    let bad = || {
        Error::invalid(
            parameter,
            format!("{} is not a date YYYY-MM-DD", Quoted(value)),
        )
    };
    let bytes = value.as_bytes();
    if bytes.len() != 10 || bytes[4] != b'-' || bytes[7] != b'-' {
        return Err(bad());
    }
    let num = |range: std::ops::Range<usize>| -> Result<u32, Error> {
        let part = value.get(range).ok_or_else(bad)?;
        if !part.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        part.parse().map_err(|_| bad())
    };
    let (y, m, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    if !crate::game_id::is_valid_date(y, m, d) {
        return Err(bad());
    }
    Ok(Some((y, m, d)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_cap_and_zero_is_an_error() {
        let capped = |v: Option<u32>| {
            let mut v = v;
            limit(&mut v, 250).map(|()| v)
        };
        assert_eq!(capped(Some(5000)), Ok(Some(250)));
        assert_eq!(capped(Some(7)), Ok(Some(7)));
        assert_eq!(capped(None), Ok(None));
        assert_eq!(capped(Some(0)).unwrap_err().parameter(), Some("limit"));
    }

    #[test]
    fn one_value_of_any_name() {
        assert_eq!(one_value("platform", &Some("polymarket")), Ok(()));
        assert_eq!(one_value("platform", &None::<String>), Ok(()));
        let err = one_value("platform", &Some("a,b")).unwrap_err();
        assert_eq!(err.parameter(), Some("platform"));
        assert!(err.to_string().contains("exactly one"), "{err}");
        assert!(one_value("league", &Some(" ")).is_err());
        assert!(required_value("league", "").is_err());
        assert_eq!(required_value("league", "nfl"), Ok(()));
    }

    #[test]
    fn seasons() {
        assert_eq!(season(Some(SEASON_MIN)), Ok(()));
        assert_eq!(season(Some(SEASON_MAX)), Ok(()));
        assert!(season(Some(25)).is_err());
        assert!(season(Some(SEASON_MAX + 1)).is_err());
    }

    #[test]
    fn dates() {
        assert_eq!(date("from", Some("2024-02-29")), Ok(Some((2024, 2, 29))));
        assert!(date("from", Some("2025-02-29")).is_err());
        assert!(date("from", Some("2025-2-01")).is_err());
        assert!(date("to", Some("2025-13-01")).is_err());
        assert!(date("to", Some("２０２５-01-01")).is_err());
    }
}
