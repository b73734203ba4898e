//! Times in every form the public service sends (see
//! docs/spec/public-service-facts.md, "Values"): RFC 3339 with no
//! fraction, milliseconds or microseconds, `Z` or an offset (`+00:00`);
//! date-only (`2025-09-04`); Unix seconds as numbers; Unix milliseconds as
//! strings. The models keep the value as sent; these helpers give one
//! normalized form (milliseconds since the epoch, UTC) for sorting and
//! display.

/// Numbers at or above this are milliseconds, below it seconds: 10^11
/// seconds is the year 5138, 10^11 milliseconds is March 1973, so neither
/// reading is plausible on the wrong side.
const MS_THRESHOLD: f64 = 1e11;

/// Milliseconds since the Unix epoch of a time given as text in any
/// documented form, or `None` when it is none of them.
///
/// ```
/// use predmarket_core::time::timestamp_ms;
/// let t = 1_757_008_800_000; // 2025-09-04T18:00:00Z
/// assert_eq!(timestamp_ms("2025-09-04T18:00:00Z"), Some(t));
/// assert_eq!(timestamp_ms("2025-09-04T18:00:00.000+00:00"), Some(t));
/// assert_eq!(timestamp_ms("2025-09-04T20:00:00.000000+02:00"), Some(t));
/// assert_eq!(timestamp_ms("1757008800"), Some(t));
/// assert_eq!(timestamp_ms("1757008800000"), Some(t));
/// assert_eq!(timestamp_ms("2025-09-04"), Some(1_756_944_000_000));
/// assert_eq!(timestamp_ms("soon"), None);
/// ```
pub fn timestamp_ms(text: &str) -> Option<i64> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    // A date has a `-` after its first character; a number has none.
    if !text.get(1..).unwrap_or_default().contains('-')
        && let Some(n) = crate::number::parse(text)
    {
        return number_ms(n);
    }
    rfc3339_ms(text)
}

/// Milliseconds since the epoch of a Unix time given as a number: seconds,
/// or milliseconds when it is 10^11 or more.
pub fn number_ms(n: f64) -> Option<i64> {
    if !n.is_finite() {
        return None;
    }
    let ms = if n.abs() >= MS_THRESHOLD {
        n
    } else {
        n * 1000.0
    };
    // Within ±10^15 ms (about ±31 700 years): beyond it, not a time.
    (ms.abs() < 1e15).then(|| ms.round() as i64)
}

/// [`timestamp_ms`] of a JSON value: a string or a number.
pub fn value_ms(value: &serde_json::Value) -> Option<i64> {
    match value {
        serde_json::Value::String(s) => timestamp_ms(s),
        serde_json::Value::Number(n) => number_ms(n.as_f64()?),
        _ => None,
    }
}

/// `YYYY-MM-DDTHH:MM:SSZ` (UTC, whole seconds) of milliseconds since the
/// epoch.
pub fn format_rfc3339(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

fn digits(s: &str, n: usize) -> Option<(i64, &str)> {
    if s.len() < n || !s.as_bytes()[..n].iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some((s[..n].parse().ok()?, &s[n..]))
}

fn expect(s: &str, c: char) -> Option<&str> {
    s.strip_prefix(c)
}

fn rfc3339_ms(s: &str) -> Option<i64> {
    let (year, s) = digits(s, 4)?;
    let (month, s) = digits(expect(s, '-')?, 2)?;
    let (day, s) = digits(expect(s, '-')?, 2)?;
    if !(1..=12).contains(&month) || !(1..=days_in_month(year, month)).contains(&day) {
        return None;
    }
    let date_ms = days_from_civil(year, month, day) * 86_400_000;
    if s.is_empty() {
        return Some(date_ms);
    }
    let s = s.strip_prefix(['T', 't', ' '])?;
    let (hour, s) = digits(s, 2)?;
    let (minute, mut s) = digits(expect(s, ':')?, 2)?;
    let mut second = 0;
    if let Some(rest) = s.strip_prefix(':') {
        let (sec, rest) = digits(rest, 2)?;
        second = sec;
        s = rest;
    }
    let mut frac_ms = 0;
    if let Some(rest) = s.strip_prefix(['.', ',']) {
        let len = rest.bytes().take_while(u8::is_ascii_digit).count();
        if len == 0 {
            return None;
        }
        let frac = &rest[..len];
        let padded = format!("{:0<3}", &frac[..len.min(3)]);
        frac_ms = padded.parse::<i64>().ok()?;
        s = &rest[len..];
    }
    if hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    let offset_min = match s {
        "" | "Z" | "z" => 0,
        _ => {
            let sign = match s.as_bytes()[0] {
                b'+' => 1,
                b'-' => -1,
                _ => return None,
            };
            let (oh, rest) = digits(&s[1..], 2)?;
            let rest = rest.strip_prefix(':').unwrap_or(rest);
            let (om, rest) = if rest.is_empty() {
                (0, rest)
            } else {
                digits(rest, 2)?
            };
            if !rest.is_empty() || oh > 23 || om > 59 {
                return None;
            }
            sign * (oh * 60 + om)
        }
    };
    Some(date_ms + ((hour * 60 + minute - offset_min) * 60 + second) * 1000 + frac_ms)
}

fn is_leap(y: i64) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        2 if is_leap(y) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 (H. Hinnant's `days_from_civil`).
pub(crate) fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

pub(crate) fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const T: i64 = 1_757_008_800_000; // 2025-09-04T18:00:00Z

    #[test]
    fn every_documented_form() {
        for form in [
            "2025-09-04T18:00:00Z",
            "2025-09-04T18:00:00+00:00",
            "2025-09-04T18:00:00.000Z",
            "2025-09-04T18:00:00.000000Z",
            "2025-09-04T18:00:00.000000+00:00",
            "2025-09-04T14:00:00-04:00",
            "2025-09-04 18:00:00",
            "1757008800",
            "1757008800000",
            " 1757008800 ",
        ] {
            assert_eq!(timestamp_ms(form), Some(T), "{form}");
        }
        assert_eq!(timestamp_ms("2025-09-04T18:00:00.123456Z"), Some(T + 123));
        assert_eq!(timestamp_ms("2025-09-04"), Some(T - 18 * 3_600_000));
        assert_eq!(number_ms(1_757_008_800.0), Some(T));
        assert_eq!(number_ms(1_757_008_800_000.0), Some(T));
        assert_eq!(value_ms(&serde_json::json!(1_757_008_800)), Some(T));
        assert_eq!(value_ms(&serde_json::json!("1757008800000")), Some(T));
        for bad in [
            "",
            "soon",
            "2025-13-01",
            "2025-02-30",
            "2025-09-04T25:00Z",
            "2025-09-04X",
        ] {
            assert_eq!(timestamp_ms(bad), None, "{bad}");
        }
        assert_eq!(format_rfc3339(T), "2025-09-04T18:00:00Z");
        assert_eq!(format_rfc3339(0), "1970-01-01T00:00:00Z");
    }

    proptest! {
        #[test]
        fn formatting_and_parsing_agree(secs in -2_000_000_000i64..100_000_000_000i64) {
            let ms = secs * 1000;
            prop_assert_eq!(timestamp_ms(&format_rfc3339(ms)), Some(ms));
        }
    }
}
