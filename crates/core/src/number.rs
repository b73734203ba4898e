//! Numbers to and from text without the standard library's float
//! algorithms: `f64`'s shortest-round-trip `Display` and its correctly
//! rounded `FromStr` (with its 10 KB table of powers of five) were the
//! largest pieces of the npm package's wasm after the requests
//! (docs/benchmarks.md). The numbers here are prices, odds, header values
//! and timestamps: exact in every case the service produces (see each
//! function), approximate only far outside them.

/// A number as text without `f64`'s `Display`, whose shortest-round-trip
/// algorithm (and its tables) was the largest single function of the npm
/// package's wasm. Whole numbers below 10^15 come out as `Display` writes
/// them (`250`, `-110`); other numbers with at most six decimals, very
/// large or small ones with an exponent (`1e20`): enough for a price or a
/// message, not a round trip.
pub fn text(x: f64) -> String {
    if !x.is_finite() {
        let text = if x.is_nan() {
            "NaN"
        } else if x > 0.0 {
            "inf"
        } else {
            "-inf"
        };
        return text.to_owned();
    }
    let mut out = String::new();
    if x < 0.0 {
        out.push('-');
    }
    let mut a = x.abs();
    let mut exponent = 0i32;
    while a >= 1e15 || (a >= 1e9 && a.fract() != 0.0) {
        a /= 10.0;
        exponent += 1;
    }
    if a != 0.0 && a < 1e-4 {
        while a < 1.0 {
            a *= 10.0;
            exponent -= 1;
        }
    }
    let (mut whole, mut fraction) = if a.fract() == 0.0 {
        (a as u64, 0)
    } else {
        let scaled = (a * 1e6).round() as u64;
        (scaled / 1_000_000, scaled % 1_000_000)
    };
    while exponent > 0 && fraction == 0 && whole != 0 && whole % 10 == 0 {
        whole /= 10;
        exponent += 1;
    }
    out.push_str(&whole.to_string());
    if fraction != 0 {
        let mut digits = 6;
        while fraction % 10 == 0 {
            fraction /= 10;
            digits -= 1;
        }
        let text = fraction.to_string();
        out.push('.');
        for _ in text.len()..digits {
            out.push('0');
        }
        out.push_str(&text);
    }
    if exponent != 0 {
        out.push('e');
        out.push_str(&exponent.to_string());
    }
    out
}

/// A decimal number as Rust writes and reads them: an optional sign,
/// digits with an optional `.` (`5.`, `.5`), an optional exponent (`1e3`),
/// or `inf`, `infinity`, `nan` in any case. Surrounding spaces are not
/// allowed (as for `str::parse`).
///
/// Exact (the nearest double, as `str::parse` gives) when the digits
/// without the point make an integer up to 2^53 and the exponent brings
/// it within 10^±22 of it: prices, odds, Unix seconds with microseconds,
/// header values. Beyond that, within a few units in the last place.
pub fn parse(text: &str) -> Option<f64> {
    let (negative, body) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let value = if ["inf", "infinity"]
        .iter()
        .any(|w| body.eq_ignore_ascii_case(w))
    {
        f64::INFINITY
    } else if body.eq_ignore_ascii_case("nan") {
        f64::NAN
    } else {
        decimal(body)?
    };
    Some(if negative { -value } else { value })
}

fn decimal(body: &str) -> Option<f64> {
    let (number, exponent) = match body.find(['e', 'E']) {
        Some(at) => (&body[..at], Some(&body[at + 1..])),
        None => (body, None),
    };
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.len() + fraction.len() == 0 || !all_digits(whole) || !all_digits(fraction) {
        return None;
    }
    let mut exp: i64 = match exponent {
        None => 0,
        Some(e) => {
            let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
            if digits.is_empty() || !all_digits(digits) {
                return None;
            }
            let magnitude = digits.bytes().fold(0i64, |n, b| {
                n.saturating_mul(10)
                    .saturating_add(i64::from(b - b'0'))
                    .min(1 << 40)
            });
            if e.starts_with('-') {
                -magnitude
            } else {
                magnitude
            }
        }
    };
    // The significant digits as an integer, as many as fit; the ones
    // that do not only move the exponent.
    let mut mantissa: u64 = 0;
    let mut exact = true;
    for (i, b) in whole.bytes().chain(fraction.bytes()).enumerate() {
        let in_fraction = i >= whole.len();
        match mantissa
            .checked_mul(10)
            .and_then(|m| m.checked_add(u64::from(b - b'0')))
        {
            Some(m) if m <= 1 << 53 => {
                mantissa = m;
                if in_fraction {
                    exp -= 1;
                }
            }
            _ => {
                exact &= b == b'0';
                if !in_fraction {
                    exp += 1;
                }
            }
        }
    }
    const POWERS: [f64; 23] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
        1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ];
    let m = mantissa as f64;
    if mantissa == 0 {
        return Some(0.0);
    }
    if exact && exp.unsigned_abs() < 23 {
        // Both operands exact: one correctly rounded operation.
        let power = POWERS[exp.unsigned_abs() as usize];
        return Some(if exp < 0 { m / power } else { m * power });
    }
    let mut value = m;
    let mut left = exp;
    while left > 0 {
        let step = left.min(22);
        value *= POWERS[step as usize];
        left -= step;
        if value.is_infinite() {
            break;
        }
    }
    while left < 0 {
        let step = (-left).min(22);
        value /= POWERS[step as usize];
        left += step;
        if value == 0.0 {
            break;
        }
    }
    Some(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn numbers_as_text() {
        for (x, expected) in [
            (250.0, "250"),
            (-110.0, "-110"),
            (0.0, "0"),
            (1.5, "1.5"),
            (0.05, "0.05"),
            (1.909091, "1.909091"),
            (1e20, "1e20"),
            (123456789012.0, "123456789012"),
            (0.00001, "1e-5"),
            (f64::NAN, "NaN"),
            (f64::NEG_INFINITY, "-inf"),
        ] {
            assert_eq!(super::text(x), expected, "{x}");
        }
    }

    #[test]
    fn numbers_from_text() {
        for text in [
            "0",
            "1",
            "+250",
            "-110",
            "1.5",
            ".5",
            "5.",
            "1e3",
            "1E-3",
            "2.5e+2",
            "0.1",
            "0.3",
            "1.909090909090909",
            "1700000000.123456",
            "9007199254740993",
            "123456789012345678901234567890",
            "1e400",
            "1e-400",
            "-0",
            "inf",
            "-Infinity",
            "00012",
            "4.9e-324",
        ] {
            let ours = parse(text).unwrap();
            let std: f64 = text.parse().unwrap();
            let close = ours == std || ((ours - std) / std).abs() < 1e-15;
            assert!(close, "{text}: {ours} vs {std}");
        }
        assert!(parse("nan").unwrap().is_nan());
        for bad in [
            "", ".", "e3", "1e", "1e+", "--1", "+-1", " 1", "1 ", "0x10", "1,5", "1.2.3", "abc",
        ] {
            assert_eq!(parse(bad), None, "{bad:?}");
            assert!(bad.parse::<f64>().is_err(), "{bad:?} std");
        }
    }

    proptest! {
        #[test]
        fn whole_numbers_as_display_writes_them(n in -999_999_999_999_999i64..999_999_999_999_999) {
            prop_assert_eq!(text(n as f64), n.to_string());
        }

        #[test]
        fn exact_where_the_service_writes_numbers(m in 0u64..(1 << 53), decimals in 0usize..12, e in -22i32..22) {
            let digits = m.to_string();
            let text = if decimals == 0 || decimals >= digits.len() {
                format!("{digits}e{e}")
            } else {
                let (a, b) = digits.split_at(digits.len() - decimals);
                format!("{a}.{b}")
            };
            prop_assert_eq!(parse(&text), text.parse::<f64>().ok(), "{}", text);
        }
    }
}
