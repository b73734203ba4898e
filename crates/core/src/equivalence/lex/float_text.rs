//! `f64` written as the standard library writes it (`format!("{v}")`,
//! `format!("{v:.1}")`), without its printer: Grisu, Dragon and their
//! tables were 6 KB of the venues wasm's gzip (docs/benchmarks.md,
//! "Fourteenth round: size"). The value's exact decimal expansion comes
//! from a big integer (the reader's, [`decimal::Big`]); the shortest text
//! is found as Dragon4 finds it, each length's two candidates checked by
//! reading them back with the exact reader ([`decimal::read`]). Slow
//! beside Grisu and small; the matcher writes a few numbers per market.

use super::decimal::{self, Big};

/// `format!("{value}")`: the shortest digits that read back as `value`
/// (the nearer of two, the upper on a tie), never an exponent.
pub(crate) fn display(value: f64) -> String {
    signed(value, |v, out| {
        let (digits, point) = shortest(v);
        place(out, &digits, point);
    })
}

/// `format!("{value:.1}")`: the exact value rounded half to even at the
/// first decimal, from the double's bits.
pub(crate) fn tenths(value: f64) -> String {
    signed(value, |v, out| {
        let (mantissa, exponent) = parts(v);
        if exponent >= 0 {
            // A whole number: its digits, and one zero decimal.
            let (digits, point) = exact(v);
            place(out, &digits, point);
            out.push_str(".0");
            return;
        }
        // v × 10 = 10 × mantissa / 2^shift: its quotient, rounded by the
        // remainder against half the divisor.
        let (tens, shift) = (10 * u128::from(mantissa), exponent.unsigned_abs());
        let (quotient, up) = if shift >= 128 {
            (0, false)
        } else {
            let (quotient, rest, half) =
                (tens >> shift, tens & ((1 << shift) - 1), 1 << (shift - 1));
            (quotient, rest > half || (rest == half && quotient % 2 == 1))
        };
        // Below 2^53 × 10: a u64.
        let q = (quotient + u128::from(up)) as u64;
        out.push_str(&(q / 10).to_string());
        out.push('.');
        out.push(char::from(b'0' + (q % 10) as u8));
    })
}

/// The sign and the special values as `Display` writes them ("-0",
/// "NaN", "inf"), `write` for a finite magnitude above 0.
fn signed(value: f64, write: impl FnOnce(f64, &mut String)) -> String {
    if value.is_nan() {
        return "NaN".into();
    }
    let mut out = String::new();
    if value.is_sign_negative() {
        out.push('-');
    }
    let v = value.abs();
    if v.is_infinite() {
        out.push_str("inf");
    } else if v == 0.0 {
        write(0.0, &mut out);
    } else {
        write(v, &mut out);
    }
    out
}

/// The exact decimal expansion of `v` (finite, at least 0): its digits
/// (0–9, no leading or trailing zero) and where the point goes, `v` being
/// `0.d1d2… × 10^point`.
fn exact(v: f64) -> (Vec<u8>, i64) {
    if v == 0.0 {
        return (Vec::new(), 0);
    }
    let (mantissa, exponent) = parts(v);
    // v = mantissa × 2^exponent = mantissa × 5^-exponent / 10^-exponent.
    let mut n = Big(vec![mantissa as u32, (mantissa >> 32) as u32]);
    let mut scale = 0;
    if exponent >= 0 {
        n.shift_left(exponent as usize);
    } else {
        scale = -exponent;
        let mut fives = scale;
        while fives > 0 {
            let step = fives.min(13);
            n.times_plus(5u32.pow(step as u32), 0);
            fives -= step;
        }
    }
    // Nine digits at a time, least significant first.
    let mut digits = Vec::new();
    while n.0.iter().any(|&limb| limb != 0) {
        let mut chunk = n.divide(1_000_000_000);
        for _ in 0..9 {
            digits.push((chunk % 10) as u8);
            chunk /= 10;
        }
    }
    while digits.last() == Some(&0) {
        digits.pop();
    }
    digits.reverse();
    let point = digits.len() as i64 - scale;
    while digits.last() == Some(&0) {
        digits.pop();
    }
    (digits, point)
}

/// `v` (finite, at least 0) as `mantissa × 2^exponent`, the mantissa of
/// at most 53 bits.
fn parts(v: f64) -> (u64, i64) {
    let bits = v.to_bits();
    let biased = (bits >> 52) as i64;
    let fraction = bits & ((1 << 52) - 1);
    if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | 1 << 52, biased - 1075)
    }
}

/// The shortest digits that read back as `v` (finite, above 0) and their
/// point, as core's `flt2dec::strategy::dragon::format_shortest` chooses
/// them: at the first length where the expansion cut there (`down`) or
/// that plus one in its last place (`up`) reads back as `v`, `up` if only
/// it does, or if both do and the rest of the expansion is half a unit of
/// the last place or more.
fn shortest(v: f64) -> (Vec<u8>, i64) {
    let (digits, point) = exact(v);
    let reads_back = |d: &[u8], p: i64| {
        let mut text = String::new();
        place(&mut text, d, p);
        decimal::read(&text).to_bits() == v.to_bits()
    };
    for n in 1..digits.len() {
        let down = &digits[..n];
        let mut up = down.to_vec();
        let up_point = point + plus_one(&mut up);
        while up.last() == Some(&0) {
            up.pop();
        }
        let (down_ok, up_ok) = (reads_back(down, point), reads_back(&up, up_point));
        if up_ok && (!down_ok || digits[n] >= 5) {
            return (up, up_point);
        }
        if down_ok {
            return (down.to_vec(), point);
        }
    }
    (digits, point)
}

/// Adds one in the last place of `digits` (none: the place before the
/// first); a carry out of the first digit puts a `1` before them and moves
/// the point one place right (returned: 1, else 0).
fn plus_one(digits: &mut Vec<u8>) -> i64 {
    for d in digits.iter_mut().rev() {
        if *d == 9 {
            *d = 0;
        } else {
            *d += 1;
            return 0;
        }
    }
    digits.insert(0, 1);
    1
}

/// `0.d1d2… × 10^point` as `Display` writes it (`flt2dec::digits_to_dec_str`
/// with no minimum of decimals): "0.00d…", "d.d…" or "d…000".
fn place(out: &mut String, digits: &[u8], point: i64) {
    let len = digits.len() as i64;
    if digits.is_empty() {
        out.push('0');
    } else if point <= 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', (-point) as usize));
        push_digits(out, digits);
    } else if point < len {
        push_digits(out, &digits[..point as usize]);
        out.push('.');
        push_digits(out, &digits[point as usize..]);
    } else {
        push_digits(out, digits);
        out.extend(std::iter::repeat_n('0', (point - len) as usize));
    }
}

fn push_digits(out: &mut String, digits: &[u8]) {
    out.extend(digits.iter().map(|&d| char::from(b'0' + d)));
}

#[cfg(test)]
mod tests {
    use super::{display, tenths};
    use crate::equivalence::lex::MULTIPLIERS;
    use proptest::prelude::*;

    fn same(v: f64) -> Result<(), TestCaseError> {
        prop_assert_eq!(display(v), format!("{v}"), "{:?}", v.to_bits());
        prop_assert_eq!(tenths(v), format!("{v:.1}"), "{:?}", v.to_bits());
        Ok(())
    }

    #[test]
    fn values_near_the_edges() {
        let mut values = vec![
            0.0,
            -0.0,
            f64::NAN,
            f64::INFINITY,
            -f64::INFINITY,
            f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
            1e23,
            1e23_f64.next_down(),
            1e23_f64.next_up(),
            1100.0000000000002,
            0.05,
            0.25,
            0.35,
            0.95,
            9.95,
            99.95,
            1e15,
            123456789012345680.0,
            2f64.powi(60),
            2f64.powi(-60),
        ];
        for k in -30..=30 {
            let p = 10f64.powi(k);
            values.extend([p, p * 1.5, p * 2.0 / 3.0, p.next_up(), p.next_down()]);
        }
        for v in values {
            same(v).unwrap();
            same(-v).unwrap();
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]

        /// Any double, by its bits.
        #[test]
        fn any_double(bits in any::<u64>()) {
            same(f64::from_bits(bits))?;
        }

        /// What the lexer makes: a written decimal (up to 20 digits, a
        /// point anywhere) times its multipliers, one or two.
        #[test]
        fn what_the_lexer_makes(
            digits in "[0-9]{1,20}",
            at in 0usize..20,
            first in 0usize..MULTIPLIERS.len() + 1,
            second in 0usize..MULTIPLIERS.len() + 1,
        ) {
            let at = at.min(digits.len());
            let text = format!("{}.{}", &digits[..at], &digits[at..]);
            let mut v = super::decimal::read(&text);
            for m in [first, second] {
                if let Some((_, m)) = MULTIPLIERS.get(m) {
                    v *= m;
                }
            }
            same(v)?;
        }

        /// Differences of close times in hours, as `rules::settlement`
        /// writes them, up to ten years of milliseconds.
        #[test]
        fn hours_apart(ms in 0i64..315_360_000_000) {
            same(ms as f64 / 3_600_000.0)?;
        }
    }
}
