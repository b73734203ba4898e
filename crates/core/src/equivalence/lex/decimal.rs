//! Numbers of a market's text as `f64`, the nearest double as `str::parse`
//! gives it, without the standard library's float parser: dec2flt and its
//! tables of powers were some of the largest pieces of the venues wasm
//! (docs/benchmarks.md, "Thirteenth round: size"). Two readers: the
//! lexer's ([`read`]: runs of ASCII digits with a `.` between two of them,
//! `95000`, `2.5`, `1.2.3`; no sign, no exponent), and the sportsbook
//! line's ([`signed`]: a sign and what `facts::number` writes).
//!
//! Nearly every number in a market's text has at most 19 significant
//! digits, read in one correctly rounded operation (Clinger's fast path);
//! the others go through an exact integer division ([`Big`]), slow and
//! small, never wrong.

/// `digits` as `digits.parse::<f64>().unwrap_or(0.0)` reads it, for every
/// text of digits with at most one `.` (`5.`, `.5` included); anything
/// else is 0, as the lexer had it (`1.2.3` does not parse).
pub(crate) fn read(digits: &str) -> f64 {
    unsigned(digits).unwrap_or(0.0)
}

/// `text.parse::<f64>().ok()` for a sign and what `facts::number` writes
/// after it: digits with at most one `.`, `inf` (a number too long for a
/// double), or a unit around them (`$5`, `5%`, `5 pts`: not a number). It
/// writes no exponent (neither an integer's nor `f64`'s `Display` does),
/// so an exponent is not read: `None` where `str::parse` would read one.
pub(crate) fn signed(text: &str) -> Option<f64> {
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
        unsigned(body)?
    };
    Some(if negative { -value } else { value })
}

/// Digits with at most one `.` and at least one digit, as `str::parse`
/// reads them; `None` for anything else.
fn unsigned(digits: &str) -> Option<f64> {
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.len() + fraction.len() == 0 || !all_digits(whole) || !all_digits(fraction) {
        return None;
    }
    // The value is `significant / 10^scale`: zeros that change neither
    // dropped, so that the fast path takes every short number.
    let fraction = fraction.trim_end_matches('0');
    let scale = fraction.len();
    let leading = whole.trim_start_matches('0');
    let significant = if leading.is_empty() {
        fraction.trim_start_matches('0')
    } else {
        ""
    };
    if leading.is_empty() && significant.is_empty() {
        return Some(0.0);
    }
    let length = leading.len()
        + if leading.is_empty() {
            significant.len()
        } else {
            scale
        };
    if length <= 19 {
        let n = leading
            .bytes()
            .chain(
                if leading.is_empty() {
                    significant
                } else {
                    fraction
                }
                .bytes(),
            )
            .fold(0u64, |n, b| n * 10 + u64::from(b - b'0'));
        // Both operands exact, so one correctly rounded operation: an
        // integer's conversion, or a division by an exact power of ten.
        if scale == 0 {
            return Some(n as f64);
        }
        if n <= 1 << 53 && scale < POWERS.len() {
            return Some(n as f64 / POWERS[scale]);
        }
    }
    // Past 10^310 a double is infinite, below 10^-330 it is 0, and past
    // `KEPT` significant digits only whether a later one is not 0 can
    // matter (a tie between two doubles has at most 767): a text of any
    // length costs what one of 800 digits does, not its square.
    if leading.len() > 310 {
        return Some(f64::INFINITY);
    }
    if leading.is_empty() && scale - significant.len() > 330 {
        return Some(0.0);
    }
    const KEPT: usize = 800;
    let digits = if leading.is_empty() {
        significant
    } else {
        fraction
    };
    let (mut n, mut scale) = (Big::default(), scale);
    let mut later = false;
    for (k, b) in leading.bytes().chain(digits.bytes()).enumerate() {
        if k < KEPT {
            n.times_plus(10, u32::from(b - b'0'));
        } else {
            // Every digit past `KEPT` is the fraction's (at most 310 are
            // the whole part's), so `scale` stays above 0.
            scale -= 1;
            later |= b != b'0';
        }
    }
    if later {
        // Any digit not 0 in place of the rest: strictly between the
        // same two 800-digit decimals as the text, so rounded the same.
        n.times_plus(10, 1);
        scale += 1;
    }
    Some(exact_quotient(n, scale))
}

const POWERS: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// `n / 10^scale` rounded to the nearest double, ties to even: the
/// quotient taken with at least 64 bits (`n` shifted left first), the
/// double's bits cut from its top, the rest and the division's remainder
/// deciding the rounding.
fn exact_quotient(mut n: Big, scale: usize) -> f64 {
    // 10^scale < 2^(4 scale): the quotient keeps 64 bits or more.
    let shift = if scale == 0 { 0 } else { 64 + 4 * scale };
    n.shift_left(shift);
    let mut inexact = false;
    let mut left = scale;
    while left > 0 {
        let step = left.min(9);
        inexact |= n.divide(10u32.pow(step as u32)) != 0;
        left -= step;
    }
    // The value is in [2^top, 2^(top + 1)).
    let bits = n.bits();
    let top = bits as i64 - 1 - shift as i64;
    if top > 1023 {
        return f64::INFINITY;
    }
    // Bits a double keeps of it: 53, fewer below 2^-1022.
    let precision = if top >= -1022 { 53 } else { top + 1075 };
    let cut = bits as i64 - precision;
    let (mantissa, half, rest) = if precision <= 0 {
        // Below half the least subnormal, or (at 0) from half of it up.
        (0, precision == 0, precision < 0 || n.any_below(bits - 1))
    } else {
        let cut = cut as usize;
        (
            n.take(cut, precision as usize),
            n.bit(cut - 1),
            n.any_below(cut - 1),
        )
    };
    let up = half && (rest || inexact || mantissa & 1 == 1);
    let mantissa = mantissa + u64::from(up);
    times_power_of_two(mantissa as f64, cut - shift as i64)
}

/// `x * 2^exponent`, exact when the result is a double (the caller rounded
/// `x` to the bits it has there).
fn times_power_of_two(x: f64, exponent: i64) -> f64 {
    let power = |e: i64| f64::from_bits(((e + 1023) as u64) << 52);
    if exponent >= -1022 {
        x * power(exponent.min(1023))
    } else {
        // Through a normal intermediate: 2^exponent itself is subnormal.
        x * power(exponent + 200) * power(-200)
    }
}

/// An unsigned integer of any size, 32 bits a limb, least significant
/// first: only what [`exact_quotient`] and `float_text`'s exact expansion
/// need.
#[derive(Default)]
pub(super) struct Big(pub(super) Vec<u32>);

impl Big {
    pub(super) fn times_plus(&mut self, factor: u32, add: u32) {
        let mut carry = u64::from(add);
        for limb in &mut self.0 {
            let v = u64::from(*limb) * u64::from(factor) + carry;
            *limb = v as u32;
            carry = v >> 32;
        }
        if carry != 0 {
            self.0.push(carry as u32);
        }
    }

    pub(super) fn shift_left(&mut self, bits: usize) {
        let (limbs, bits) = (bits / 32, bits % 32);
        if bits != 0 {
            let mut carry = 0;
            for limb in &mut self.0 {
                let v = (u64::from(*limb) << bits) | carry;
                *limb = v as u32;
                carry = v >> 32;
            }
            if carry != 0 {
                self.0.push(carry as u32);
            }
        }
        self.0.splice(0..0, std::iter::repeat_n(0, limbs));
    }

    /// Divides in place, returns the remainder.
    pub(super) fn divide(&mut self, divisor: u32) -> u32 {
        let mut rem = 0u64;
        for limb in self.0.iter_mut().rev() {
            let v = (rem << 32) | u64::from(*limb);
            *limb = (v / u64::from(divisor)) as u32;
            rem = v % u64::from(divisor);
        }
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
        rem as u32
    }

    fn bits(&self) -> usize {
        self.0
            .last()
            .map_or(0, |top| 32 * self.0.len() - top.leading_zeros() as usize)
    }

    fn bit(&self, at: usize) -> bool {
        self.0
            .get(at / 32)
            .is_some_and(|l| (l >> (at % 32)) & 1 == 1)
    }

    /// Whether any bit below `at` is set.
    fn any_below(&self, at: usize) -> bool {
        (0..at).any(|i| self.bit(i))
    }

    /// The `count` (at most 64) bits from `from` up.
    fn take(&self, from: usize, count: usize) -> u64 {
        (0..count)
            .rev()
            .fold(0, |m, i| (m << 1) | u64::from(self.bit(from + i)))
    }
}

#[cfg(test)]
mod tests {
    use super::{read, signed};
    use proptest::prelude::*;

    fn same_as_std(text: &str) -> Result<(), TestCaseError> {
        let std = text.parse::<f64>().unwrap_or(0.0);
        prop_assert_eq!(read(text).to_bits(), std.to_bits(), "{}", text);
        Ok(())
    }

    #[test]
    fn numbers_the_lexer_writes() {
        for text in [
            "0",
            "000",
            "95000",
            "2.5",
            "0.1",
            "0.30",
            "1.2.3",
            "5.",
            ".5",
            ".",
            "",
            "1909090909090909.5",
            "9007199254740993",
            "9007199254740993.0000000000000000000001",
            "18446744073709551615",
            "18446744073709551616.5",
            "123456789012345678901234567890",
            "0.000000000000000000000000000001",
            "179769313486231570000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
        ] {
            same_as_std(text).unwrap();
        }
        let tiny = |zeros: usize, digits: &str| format!("0.{}{digits}", "0".repeat(zeros));
        // The least subnormal, half of it (a tie: to 0), and just above.
        same_as_std(&tiny(323, "4940656458412465441765687928682213723651")).unwrap();
        same_as_std(&tiny(323, "2470328229206232720882538")).unwrap();
        same_as_std(&tiny(323, "24703282292062327208828")).unwrap();
        same_as_std(&tiny(307, "22250738585072011")).unwrap();
        same_as_std(&format!("1{}", "0".repeat(309))).unwrap();
        // Past 800 digits: a tie between two doubles, then just above it
        // by a digit far down, then the rest all zeros.
        let tie = "9007199254740993";
        same_as_std(&format!("{tie}.{}", "0".repeat(2000))).unwrap();
        same_as_std(&format!("{tie}.{}1", "0".repeat(2000))).unwrap();
        same_as_std(&format!("0.{}{tie}{}1", "0".repeat(300), "0".repeat(900))).unwrap();
        same_as_std(&format!("{}.5", "9".repeat(400))).unwrap();
        same_as_std(&format!("0.{}5", "0".repeat(400))).unwrap();
    }

    /// What `facts::number` writes after a line's sign: a whole number,
    /// `f64`'s `Display`, or either with a unit.
    fn signed_same_as_std(written: &str) -> Result<(), TestCaseError> {
        for text in [
            format!("+{written}"),
            format!("-{written}"),
            written.to_owned(),
        ] {
            let ours = signed(&text).map(f64::to_bits);
            prop_assert_eq!(ours, text.parse::<f64>().ok().map(f64::to_bits), "{}", text);
        }
        Ok(())
    }

    #[test]
    fn lines_as_facts_write_them() {
        for written in [
            "6.5", "110", "0", "inf", "$5", "5%", "5°F", "5 pts", "", "+", ".5", "5.", "1.2.3",
        ] {
            signed_same_as_std(written).unwrap();
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]

        /// Every value the lexer makes (its digits times a multiplier) as
        /// `facts::number` writes it, read back with a sign.
        #[test]
        fn lines_of_the_lexers_values(digits in "[0-9]{1,20}(\\.[0-9]{1,20})?", multiplier in 0usize..5) {
            let value = read(&digits) * [1.0, 1e3, 1e6, 1e9, 1e12][multiplier];
            signed_same_as_std(&format!("{value}"))?;
            signed_same_as_std(&format!("{}", value as i64))?;
        }

        /// Any text of the lexer's shape, short or long.
        #[test]
        fn digits_and_dots(text in "[0-9]{1,30}(\\.[0-9]{1,30}){0,2}") {
            same_as_std(&text)?;
        }

        /// Leading and trailing zeros around any digits.
        #[test]
        fn zeros_around(zeros in 0usize..40, digits in "[1-9][0-9]{0,25}", trailing in 0usize..40, point in 0usize..30) {
            let digits = format!("{}{digits}{}", "0".repeat(zeros), "0".repeat(trailing));
            let at = point.min(digits.len());
            same_as_std(&format!("{}.{}", &digits[..at], &digits[at..]))?;
            same_as_std(&digits)?;
        }

        /// Exactly halfway between two doubles (an odd 54-bit integer over
        /// 2^t, written with t decimals), and a last digit either side.
        #[test]
        fn ties_and_their_neighbours(m in (1u128 << 53)..(1 << 54), t in 0u32..40) {
            let m = m | 1;
            let digits = (m * 5u128.pow(t.min(25))).to_string();
            let t = t.min(25) as usize;
            let text = if t == 0 { digits } else {
                format!("{}.{}", &digits[..digits.len() - t], &digits[digits.len() - t..])
            };
            same_as_std(&text)?;
            same_as_std(&format!("{text}{}1", if t == 0 { "." } else { "" }))?;
            same_as_std(&format!("{text}{}0000000000000000000000000001", if t == 0 { "." } else { "" }))?;
        }

        /// Longer than the digits kept: what lies past them decides only
        /// through whether it is 0.
        #[test]
        fn past_the_digits_kept(digits in "[1-9][0-9]{700,900}", point in 0usize..320, tail in "[0-9]{0,30}") {
            let at = point.min(digits.len());
            same_as_std(&format!("{}.{}{tail}", &digits[..at], &digits[at..]))?;
            same_as_std(&format!("0.{}{tail}", &digits[..at + 400.min(digits.len() - at)]))?;
        }

        /// Near and beyond the ends of the doubles.
        #[test]
        fn huge_and_tiny(zeros in 300usize..340, digits in "[1-9][0-9]{0,40}") {
            same_as_std(&format!("0.{}{digits}", "0".repeat(zeros)))?;
            same_as_std(&format!("{digits}{}", "0".repeat(zeros - 30)))?;
        }
    }
}
