//! [`below_f32_normal`]: the test every input that the f32 kernels carry takes against f32's
//! least normal number, so that the limit the messages print can be typed back.

/// Whether `value` is not 0 and f32 holds it only as a subnormal or 0: its size, rounded to
/// the nearest f32, is below `f32::MIN_POSITIVE` (the kernels flush such numbers to 0, so an
/// input that small would be taken and lost). The test is on the rounded f32, not on the f64:
/// the decimal the messages print as the limit, `1.17549435e-38`, is a hair below
/// `f32::MIN_POSITIVE` as an f64 but rounds to it, and is taken.
///
/// ```
/// use water_core::below_f32_normal;
/// assert!(!below_f32_normal(1.17549435e-38)); // the printed limit, typed back
/// assert!(!below_f32_normal(0.0));
/// assert!(below_f32_normal(1e-40));
/// assert!(below_f32_normal(-1e-40));
/// ```
#[must_use]
pub fn below_f32_normal(value: f64) -> bool {
    value != 0.0 && (value.abs() as f32) < f32::MIN_POSITIVE
}

#[cfg(test)]
mod tests {
    use super::below_f32_normal;

    #[test]
    fn the_least_normal_f32_and_every_decimal_that_rounds_to_it_are_taken() {
        let least = f64::from(f32::MIN_POSITIVE);
        assert!(!below_f32_normal(least));
        assert!(!below_f32_normal(-least));
        assert!(!below_f32_normal(
            "1.17549435e-38".parse().expect("a number")
        ));
        assert!(!below_f32_normal(
            "1.1754944e-38".parse().expect("a number")
        ));
        // Halfway to the subnormal below it still rounds up (to even: the normal one's
        // mantissa is even); a little further it does not.
        let next_down = f64::from(f32::from_bits(f32::MIN_POSITIVE.to_bits() - 1));
        assert!(!below_f32_normal(least - (least - next_down) * 0.49));
        assert!(below_f32_normal(least - (least - next_down) * 0.51));
        assert!(below_f32_normal(next_down));
        assert!(below_f32_normal(f64::MIN_POSITIVE));
        assert!(!below_f32_normal(1.0));
        assert!(
            !below_f32_normal(1e300),
            "past f32 is not below its least normal"
        );
    }
}
