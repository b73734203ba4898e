//! How numbers, prices, odds and times read on screen. Pure functions, so
//! every page shows a value the same way and tests can pin the output.

use predmarket_core::models::OddsFormat;
use predmarket_core::odds;

/// A dash for "not known", so empty cells never look like zero.
pub const NONE: &str = "—";

/// A price in 0..1 as cents: 0.29 → "29¢", 0.285 → "28.5¢".
pub fn cents(price: Option<f64>) -> String {
    match price.filter(|p| p.is_finite()) {
        Some(p) => {
            let c = p * 100.0;
            if (c - c.round()).abs() < 0.05 {
                format!("{:.0}¢", c.round())
            } else {
                format!("{c:.1}¢")
            }
        }
        None => NONE.into(),
    }
}

/// A signed price change in cents: +1.5¢, −2¢.
pub fn cents_change(change: Option<f64>) -> String {
    match change.filter(|c| c.is_finite()) {
        Some(c) if c.abs() < 0.0005 => "0¢".into(),
        Some(c) => {
            let sign = if c > 0.0 { "+" } else { "−" };
            format!("{sign}{}", cents(Some(c.abs())))
        }
        None => NONE.into(),
    }
}

/// A probability in 0..1 as a percentage: 0.2857 → "28.6%".
pub fn percent(p: Option<f64>) -> String {
    match p.filter(|p| p.is_finite()) {
        Some(p) => format!("{:.1}%", p * 100.0),
        None => NONE.into(),
    }
}

/// Digits grouped by thousands: 1234567.8 → "1,234,568".
pub fn integer(n: Option<f64>) -> String {
    match n.filter(|n| n.is_finite()) {
        Some(n) => group(n.round().abs() as u64, n < -0.5),
        None => NONE.into(),
    }
}

fn group(n: u64, negative: bool) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    if negative {
        out.push('−');
    }
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A size in shares, with decimals only when there are some: 1,250 or 12.5.
pub fn shares(n: Option<f64>) -> String {
    match n.filter(|n| n.is_finite()) {
        Some(n) if (n - n.round()).abs() < 1e-9 => integer(Some(n)),
        Some(n) => format!("{n:.2}"),
        None => NONE.into(),
    }
}

/// Dollars, three significant digits from a thousand on ($645K, $98.5K,
/// $4.86K, $1.87M), cents below ($12.34).
pub fn money(n: Option<f64>) -> String {
    match n.filter(|n| n.is_finite()) {
        Some(n) => {
            let sign = if n < 0.0 { "−" } else { "" };
            let a = n.abs();
            let (value, unit) = if a >= 1e9 {
                (a / 1e9, "B")
            } else if a >= 1e6 {
                (a / 1e6, "M")
            } else if a >= 1e3 {
                (a / 1e3, "K")
            } else {
                return format!("{sign}${a:.2}");
            };
            let decimals = if value >= 100.0 {
                0
            } else if value >= 10.0 {
                1
            } else {
                2
            };
            format!("{sign}${value:.decimals$}{unit}")
        }
        None => NONE.into(),
    }
}

/// Odds in the chosen notation, from decimal odds.
pub fn odds(decimal: f64, format: &OddsFormat) -> String {
    match format {
        OddsFormat::American => odds::decimal_to_american(decimal).unwrap_or_else(|_| NONE.into()),
        OddsFormat::Probability => percent(odds::decimal_to_probability(decimal).ok()),
        _ => {
            if decimal.is_finite() && decimal > 1.0 {
                format!("{decimal:.2}")
            } else {
                NONE.into()
            }
        }
    }
}

/// The notation a URL value names; american (the leagues' own) when
/// absent or unknown.
pub fn odds_format(value: Option<&str>) -> OddsFormat {
    match value.map(OddsFormat::from) {
        Some(f) if f.is_known() => f,
        _ => OddsFormat::American,
    }
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// Milliseconds since the epoch of a time as the service sends it as
/// text: RFC 3339 in any precision or offset, date-only, or Unix seconds or
/// milliseconds as digits. Read by `predmarket_core::time`, so the demo and
/// the library agree on every form.
pub fn parse_time(text: &str) -> Option<f64> {
    predmarket_core::time::timestamp_ms(text).map(|ms| ms as f64)
}

/// Milliseconds since the epoch of a Unix time the models hold as a number
/// (trades, price points: seconds once decoded; a millisecond value is
/// recognised by its size, as the core does).
pub fn epoch_ms(n: f64) -> Option<f64> {
    predmarket_core::time::number_ms(n).map(|ms| ms as f64)
}

/// A text that names a day without a time (`2025-09-04`): shown as a date
/// even where a time is expected, not as a made-up midnight.
fn is_date_only(text: &str) -> bool {
    let t = text.trim();
    t.len() == 10 && t.as_bytes().get(4) == Some(&b'-')
}

fn date_of(ms: f64) -> js_sys::Date {
    js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(ms))
}

/// "Nov 23, 2026", in UTC so every reader sees the same day as the service.
pub fn date_ms(ms: f64) -> String {
    let d = date_of(ms);
    let month = MONTHS
        .get(d.get_utc_month() as usize)
        .copied()
        .unwrap_or("?");
    format!("{month} {}, {}", d.get_utc_date(), d.get_utc_full_year())
}

/// "Nov 23, 2026 04:00 UTC".
pub fn datetime_ms(ms: f64) -> String {
    let d = date_of(ms);
    format!(
        "{} {:02}:{:02} UTC",
        date_ms(ms),
        d.get_utc_hours(),
        d.get_utc_minutes()
    )
}

/// "Nov 23 04:00", for chart axes.
pub fn short_datetime_ms(ms: f64) -> String {
    let d = date_of(ms);
    let month = MONTHS
        .get(d.get_utc_month() as usize)
        .copied()
        .unwrap_or("?");
    format!(
        "{month} {} {:02}:{:02}",
        d.get_utc_date(),
        d.get_utc_hours(),
        d.get_utc_minutes()
    )
}

/// "Nov 23 04:00:05 UTC", for recorded answers seconds apart.
pub fn time_ms(ms: f64) -> String {
    format!(
        "{}:{:02} UTC",
        short_datetime_ms(ms),
        date_of(ms).get_utc_seconds()
    )
}

/// A date of a time in any documented form; the text itself when it is
/// none of them (it came from the service and is shown as it is).
pub fn date(text: Option<&str>) -> String {
    match text {
        Some(s) => parse_time(s).map(date_ms).unwrap_or_else(|| s.to_owned()),
        None => NONE.into(),
    }
}

/// A date and time of a time in any documented form (only the date for a
/// date-only text); the text itself when it is none of them.
pub fn datetime(text: Option<&str>) -> String {
    match text {
        Some(s) if is_date_only(s) => date(Some(s)),
        Some(s) => parse_time(s)
            .map(datetime_ms)
            .unwrap_or_else(|| s.to_owned()),
        None => NONE.into(),
    }
}

/// "5 s ago", "3 min ago", "2 h ago", else the date.
pub fn ago_ms(ms: f64, now_ms: f64) -> String {
    let s = ((now_ms - ms) / 1000.0).max(0.0);
    if s < 60.0 {
        format!("{s:.0} s ago")
    } else if s < 3600.0 {
        format!("{:.0} min ago", (s / 60.0).floor())
    } else if s < 86_400.0 {
        format!("{:.0} h ago", (s / 3600.0).floor())
    } else {
        datetime_ms(ms)
    }
}

/// A wire label as words: "not_started" → "Not started".
pub fn words(label: &str) -> String {
    let spaced = label.replace(['_', '-'], " ");
    let mut chars = spaced.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A link target from the service, only when it is plain http(s): a
/// `javascript:` or `data:` URL in hostile data must never become a link.
pub fn safe_url(url: Option<&str>) -> Option<String> {
    let url = url?.trim();
    let lower = url.to_ascii_lowercase();
    let ok = (lower.starts_with("https://") || lower.starts_with("http://"))
        && !url
            .chars()
            .any(|c| c.is_control() || c.is_whitespace() || c == '"' || c == '<' || c == '>');
    ok.then(|| url.to_owned())
}

/// A CSS colour from the service, only as `#rgb`/`#rrggbb`: anything else
/// could smuggle other declarations into a style attribute.
pub fn safe_color(color: &str) -> Option<String> {
    let hex = color.strip_prefix('#')?;
    (matches!(hex.len(), 3 | 6) && hex.chars().all(|c| c.is_ascii_hexdigit()))
        .then(|| format!("#{hex}"))
}
