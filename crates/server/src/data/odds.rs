//! Odds in the three notations of the sports operations, derived from one
//! another so that they always agree: the American line is the canonical
//! form (whole numbers, as books quote them), decimal odds and the implied
//! probability follow from it exactly (then rounded to four places).

use super::rng::round;
use predmarket_core::models::{Odds, OddsFormat};

/// The American line of an implied probability in 0..1, e.g. 0.2 → +400,
/// 0.6 → -150.
pub fn american_line(probability: f64) -> i64 {
    let p = probability.clamp(0.001, 0.999);
    if p >= 0.5 {
        -((100.0 * p / (1.0 - p)).round() as i64).max(100)
    } else {
        ((100.0 * (1.0 - p) / p).round() as i64).max(100)
    }
}

pub fn decimal_of(line: i64) -> f64 {
    if line > 0 {
        1.0 + line as f64 / 100.0
    } else {
        1.0 + 100.0 / (line.unsigned_abs().max(100)) as f64
    }
}

/// All three notations of an implied probability, or only the one asked
/// for with `odds_format`. The core's conversions derive decimal odds and
/// the probability from the American line, so client and server agree.
pub fn odds(probability: f64, format: Option<&OddsFormat>) -> Odds {
    let line = american_line(probability);
    let american = if line > 0 {
        format!("+{line}")
    } else {
        line.to_string()
    };
    let exact = Odds::from_american(&american).unwrap_or_else(|_| Odds {
        american: Some(american.clone()),
        decimal: Some(decimal_of(line)),
        implied_probability: Some(1.0 / decimal_of(line)),
    });
    let all = Odds {
        american: exact.american,
        decimal: exact.decimal.map(|d| round(d, 4)),
        implied_probability: exact.implied_probability.map(|p| round(p, 4)),
    };
    match format {
        Some(OddsFormat::American) => Odds {
            decimal: None,
            implied_probability: None,
            ..all
        },
        Some(OddsFormat::Decimal) => Odds {
            american: None,
            implied_probability: None,
            ..all
        },
        Some(OddsFormat::Probability) => Odds {
            american: None,
            decimal: None,
            ..all
        },
        _ => all,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notations_agree() {
        assert_eq!(american_line(0.2), 400);
        assert_eq!(american_line(0.6), -150);
        assert_eq!(american_line(0.5), -100);
        let o = odds(0.6, None);
        assert_eq!(o.american.as_deref(), Some("-150"));
        assert_eq!(o.decimal, Some(1.6667));
        assert_eq!(o.implied_probability, Some(0.6));
        for i in 1..1000 {
            let o = odds(i as f64 / 1000.0, None);
            let d = o.decimal.unwrap();
            let p = o.implied_probability.unwrap();
            assert!((1.0 / d - p).abs() < 1e-3, "{o:?}");
        }
        let only = odds(0.3, Some(&OddsFormat::Decimal));
        assert!(only.american.is_none() && only.implied_probability.is_none());
    }
}
