//! The spec's checks on parameters, shared by the requests. Every failure is
//! `Error::InvalidArgument` naming the parameter.

use crate::error::Error;
use crate::models::{League, PlatformId};

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

/// Platforms of `GET /series` and `GET /events`.
pub(crate) const SERIES_EVENTS_PLATFORMS: &[PlatformId] =
    &[PlatformId::PlatformA, PlatformId::PlatformB];
/// Platforms of `GET /markets/{id}` (and, by this project's choice, of
/// `GET /markets`: the platforms whose markets the service can return).
pub(crate) const MARKET_PLATFORMS: &[PlatformId] = &[
    PlatformId::PlatformA,
    PlatformId::PlatformB,
    PlatformId::PlatformC,
    PlatformId::PlatformD,
    PlatformId::PlatformE,
];
/// Platforms of `GET /markets/{id}/orderbook`.
pub(crate) const ORDERBOOK_PLATFORMS: &[PlatformId] = &[
    PlatformId::PlatformA,
    PlatformId::PlatformB,
    PlatformId::PlatformC,
    PlatformId::PlatformD,
];
/// Platforms with user profiles.
pub(crate) const PROFILE_PLATFORMS: &[PlatformId] = &[PlatformId::PlatformA, PlatformId::PlatformB];
/// Platforms queried for sports data (futures and awards `platform`).
pub(crate) const SPORTS_PLATFORMS: &[PlatformId] = &[
    PlatformId::PlatformA,
    PlatformId::PlatformB,
    PlatformId::PlatformF,
    PlatformId::PlatformG,
    PlatformId::PlatformH,
];

fn one_of(values: &[&str]) -> String {
    format!("must be one of {}", values.join(", "))
}

/// Exactly one platform, and one this operation accepts.
pub(crate) fn platform<'a>(
    value: Option<&'a PlatformId>,
    allowed: &[PlatformId],
) -> Result<Option<&'a str>, Error> {
    let Some(value) = value else {
        return Ok(None);
    };
    let s = value.as_str();
    if s.contains(',') {
        return Err(Error::invalid(
            "platform",
            "takes exactly one platform; a comma-separated list is not supported",
        ));
    }
    if !allowed.contains(value) {
        let names: Vec<&str> = allowed.iter().map(PlatformId::as_str).collect();
        return Err(Error::invalid(
            "platform",
            format!("{s:?} is not accepted here; {}", one_of(&names)),
        ));
    }
    Ok(Some(s))
}

/// A platform the operation requires.
pub(crate) fn required_platform<'a>(
    value: Option<&'a PlatformId>,
    allowed: &[PlatformId],
) -> Result<&'a str, Error> {
    platform(value, allowed)?.ok_or_else(|| Error::invalid("platform", "is required"))
}

/// A league label the service knows.
pub(crate) fn league(
    parameter: &str,
    value: Option<&League>,
) -> Result<Option<&'static str>, Error> {
    match value {
        None => Ok(None),
        Some(League::Other(other)) => Err(Error::invalid(
            parameter,
            format!("{other:?} is not a league; {}", one_of(League::KNOWN)),
        )),
        Some(known) => Ok(League::KNOWN.iter().copied().find(|k| *k == known.as_str())),
    }
}

/// A league the operation requires.
pub(crate) fn required_league(value: Option<&League>) -> Result<&'static str, Error> {
    league("league", value)?.ok_or_else(|| Error::invalid("league", "is required"))
}

/// A page size: 0 is an error; above `max` it is capped (the service caps
/// too, never rejects).
pub(crate) fn limit(value: Option<u32>, max: u32) -> Result<Option<u32>, Error> {
    match value {
        Some(0) => Err(Error::invalid(
            "limit",
            format!("must be between 1 and {max}"),
        )),
        Some(n) => Ok(Some(n.min(max))),
        None => Ok(None),
    }
}

/// A value of an open value set that must be one of the known values
/// (a request parameter, unlike a response field, is checked).
pub(crate) fn known<'a>(
    parameter: &str,
    value: &'a str,
    is_known: bool,
    known: &[&str],
) -> Result<&'a str, Error> {
    if is_known {
        Ok(value)
    } else {
        Err(Error::invalid(
            parameter,
            format!("{value:?} is not accepted; {}", one_of(known)),
        ))
    }
}

/// A cursor as sent: an empty one means "first page".
pub(crate) fn cursor(value: Option<&str>) -> Option<&str> {
    value.filter(|c| !c.is_empty())
}

/// A free-text value: blank means absent (a cleared search box is no search).
pub(crate) fn text(value: Option<&str>) -> Option<&str> {
    value.filter(|t| !t.trim().is_empty())
}

/// A required non-blank query value.
pub(crate) fn required_text<'a>(parameter: &str, value: &'a str) -> Result<&'a str, Error> {
    if value.trim().is_empty() {
        Err(Error::invalid(parameter, "is required"))
    } else {
        Ok(value)
    }
}

/// A calendar date `YYYY-MM-DD`.
pub(crate) fn date(parameter: &str, value: Option<&str>) -> Result<Option<(u32, u32, u32)>, Error> {
    let Some(value) = value else {
        return Ok(None);
    };
    let bad = || Error::invalid(parameter, format!("{value:?} is not a date YYYY-MM-DD"));
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

pub(crate) fn bool_str(value: Option<bool>) -> Option<&'static str> {
    value.map(|b| if b { "true" } else { "false" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_cap_and_zero_is_an_error() {
        assert_eq!(limit(Some(5000), 250), Ok(Some(250)));
        assert_eq!(limit(Some(7), 250), Ok(Some(7)));
        assert_eq!(limit(None, 250), Ok(None));
        assert_eq!(limit(Some(0), 250).unwrap_err().parameter(), Some("limit"));
    }

    #[test]
    fn one_platform_only() {
        let two = PlatformId::from("platform_a,platform_b");
        let err = platform(Some(&two), SERIES_EVENTS_PLATFORMS).unwrap_err();
        assert_eq!(err.parameter(), Some("platform"));
        assert!(err.to_string().contains("exactly one"), "{err}");
        let c = PlatformId::PlatformC;
        let err = platform(Some(&c), SERIES_EVENTS_PLATFORMS).unwrap_err();
        assert!(err.to_string().contains("platform_a, platform_b"), "{err}");
        assert_eq!(
            platform(Some(&c), ORDERBOOK_PLATFORMS),
            Ok(Some("platform_c"))
        );
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
