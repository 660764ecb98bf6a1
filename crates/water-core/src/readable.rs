//! Numbers as a message gives them to a reader: four significant digits, an exponent outside
//! 1e-3 to 1e6 (`0.03536`, `981`, `2.881e-8`, `1.607e61`), not the 17 digits of an f64
//! (`980.9999999999998`, `0.0004468188653296898`). A limit the reader is told to stay within
//! is rounded toward zero, so that the number written back is within it.

/// `x` to four significant digits, rounded to nearest; `inf`, `NaN` and 0 as Rust writes them.
///
/// ```
/// use water_core::readable;
/// assert_eq!(readable(980.999_999_999_999_8), "981");
/// assert_eq!(readable(0.000_446_818_865_329_689_8), "4.468e-4");
/// assert_eq!(readable(1.606_938_044_258_990_3e61), "1.607e61");
/// assert_eq!(readable(0.5), "0.5");
/// ```
#[must_use]
pub fn readable(x: f64) -> String {
    digits(x, false)
}

/// `x` to four significant digits, rounded toward zero: a largest (or smallest negative) value
/// a reader may write, such as the longest stable step, stays within the limit as printed.
///
/// ```
/// use water_core::readable_at_most;
/// assert_eq!(readable_at_most(0.035_355_339), "0.03535");
/// assert_eq!(readable_at_most(1.212_852_999_477_857_3e-8), "1.212e-8");
/// ```
#[must_use]
pub fn readable_at_most(x: f64) -> String {
    digits(x, true)
}

/// `x` as [`readable`] writes it, or in all its digits where four would not keep it apart from
/// `limit`, the value it is said to pass (a Courant number of 0.50004 is not "0.5 exceeds the
/// limit 0.5").
///
/// ```
/// use water_core::readable_apart;
/// assert_eq!(readable_apart(980.999_999_999_999_8, 0.5), "981");
/// assert_eq!(readable_apart(0.500_04, 0.5), "0.50004");
/// ```
#[must_use]
pub fn readable_apart(x: f64, limit: f64) -> String {
    let short = readable(x);
    let read: f64 = short.parse().unwrap_or(x);
    if (x > limit && read <= limit) || (x < limit && read >= limit) {
        readable_exact(x)
    } else {
        short
    }
}

/// `x` in the shortest digits that read back as `x` itself: a value a reader wrote, given back
/// as written. Whole numbers have no `.0` (`16080000`, `-2`, `0`), and the far ends an exponent
/// (`1e300`, not f64's Display of 301 digits; `1e-9`), as f64's Debug places them.
///
/// ```
/// use water_core::readable_exact;
/// assert_eq!(readable_exact(16_080_000.0), "16080000");
/// assert_eq!(readable_exact(0.123_456_789), "0.123456789");
/// assert_eq!(readable_exact(-2.0), "-2");
/// assert_eq!(readable_exact(1e-300), "1e-300");
/// ```
#[must_use]
pub fn readable_exact(x: f64) -> String {
    whole_without_point(format!("{x:?}"))
}

/// `x` as [`readable_exact`] gives an f64, for a value the caller passed as an f32: its own
/// shortest digits (`0.1`, not the f64 `0.10000000149011612` it widens to).
///
/// ```
/// use water_core::readable_exact_f32;
/// assert_eq!(readable_exact_f32(0.1), "0.1");
/// assert_eq!(readable_exact_f32(-3.0), "-3");
/// ```
#[must_use]
pub fn readable_exact_f32(x: f32) -> String {
    whole_without_point(format!("{x:?}"))
}

/// A list of values, each as [`readable_exact`] gives it: a vector a reader wrote, given back
/// as written (`[0, 0, NaN]`, not `[0.0, 0.0, NaN]`).
///
/// ```
/// use water_core::readable_exact_list;
/// assert_eq!(readable_exact_list(&[0.0, -2.5, f64::NAN]), "[0, -2.5, NaN]");
/// ```
#[must_use]
pub fn readable_exact_list(values: &[f64]) -> String {
    let items: Vec<String> = values.iter().map(|&v| readable_exact(v)).collect();
    format!("[{}]", items.join(", "))
}

/// A float's Debug form with the `.0` of a whole number taken off.
fn whole_without_point(mut debug: String) -> String {
    if debug.ends_with(".0") {
        debug.truncate(debug.len() - 2);
    }
    debug
}

fn digits(x: f64, toward_zero: bool) -> String {
    if !x.is_finite() || x == 0.0 {
        return format!("{x:?}");
    }
    // The shortest digits that read back as `x` itself where four or fewer do (`1e-6`, whose
    // f64 lies a hair below a millionth); else the formatter's exact digits, to nearest at
    // four, or far enough past four that cutting them there rounds toward zero.
    let shortest = format!("{:e}", x.abs());
    let written = if shortest
        .split('e')
        .next()
        .map_or(0, |m| m.replace('.', "").len())
        <= 4
    {
        shortest
    } else if toward_zero {
        format!("{:.40e}", x.abs())
    } else {
        format!("{:.3e}", x.abs())
    };
    let (digits, exponent) = written.split_once('e').expect("an exponent");
    let exponent: i32 = exponent.parse().expect("a whole exponent");
    let mantissa: String = digits
        .chars()
        .filter(char::is_ascii_digit)
        .chain(std::iter::repeat('0'))
        .take(4)
        .collect();
    let sign = if x < 0.0 { "-" } else { "" };
    let (lead, rest) = mantissa.split_at(1);
    let rest = rest.trim_end_matches('0');
    if (-3..6).contains(&exponent) {
        // Plain: the digits with the point `exponent` places after the first.
        let all = format!("{lead}{rest}");
        let point = exponent + 1;
        let body = if point <= 0 {
            format!("0.{}{all}", "0".repeat(point.unsigned_abs() as usize))
        } else if point as usize >= all.len() {
            format!("{all}{}", "0".repeat(point as usize - all.len()))
        } else {
            format!("{}.{}", &all[..point as usize], &all[point as usize..])
        };
        format!("{sign}{body}")
    } else if rest.is_empty() {
        format!("{sign}{lead}e{exponent}")
    } else {
        format!("{sign}{lead}.{rest}e{exponent}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_digits_plain_between_a_thousandth_and_a_million_else_an_exponent() {
        for (x, near, at_most) in [
            (980.999_999_999_999_8, "981", "980.9"),
            (0.000_446_818_865_329_689_8, "4.468e-4", "4.468e-4"),
            (3.132_091_957_639_217_4e-15, "3.132e-15", "3.132e-15"),
            (0.006_352_029_3, "0.006352", "0.006352"),
            (0.035_355_339, "0.03536", "0.03535"),
            (1e-6, "1e-6", "1e-6"),
            (1000.0, "1000", "1000"),
            (999_999.9, "1e6", "999900"),
            (123_456.0, "123500", "123400"),
            (-2.5, "-2.5", "-2.5"),
            (0.001, "0.001", "0.001"),
            (1e300, "1e300", "1e300"),
        ] {
            assert_eq!(readable(x), near, "{x:?}");
            assert_eq!(readable_at_most(x), at_most, "{x:?}");
            // What is printed toward zero never passes the value.
            let back: f64 = readable_at_most(x).parse().expect("a number");
            assert!(back.abs() <= x.abs(), "{x:?}: {back}");
        }
        assert_eq!(readable(0.0), "0.0");
        assert_eq!(readable(f64::INFINITY), "inf");
    }

    #[test]
    fn exact_gives_back_every_digit_a_value_was_written_with() {
        for (x, written) in [
            (16_080_000.0, "16080000"),
            (0.1, "0.1"),
            (123_456.789, "123456.789"),
            (-2.0, "-2"),
            (-0.000_012_34, "-1.234e-5"),
            (1e300, "1e300"),
            (0.500_000_000_000_000_1, "0.5000000000000001"),
            (0.0, "0"),
        ] {
            assert_eq!(readable_exact(x), written, "{x:?}");
            assert_eq!(readable_exact(x).parse::<f64>(), Ok(x), "{x:?} reads back");
        }
        // An error's message names the value as it was written.
        let e = crate::WaterError::OutOfRange {
            name: "fetch",
            value: 16_080_000.0,
            range: "(0, 1e7]",
        };
        assert_eq!(
            e.to_string(),
            "fetch = 16080000 is outside the allowed range (0, 1e7]"
        );
    }
}
