//! Directional spreading `D(theta) = N(s) cos^(2s)((theta - theta0) / 2)`: how a sea's energy
//! is shared between directions around the mean direction `theta0` (Longuet-Higgins et al.
//! 1963). Its integral over a turn is 1.

use std::f64::consts::PI;

use crate::error::{finite, within, Result};

/// The spreading exponents accepted: 1 (broad) to 1e4 (a swell from one direction, about a
/// degree wide).
pub const SPREADING_RANGE: (f64, f64) = (1.0, 1e4);
/// The default spreading exponent: a wind sea's typical spread.
pub const DEFAULT_SPREADING: f64 = 10.0;

/// `cos^(2s)` spreading around a mean direction.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DirectionalSpreading {
    mean_direction: f64,
    exponent: f64,
    normalisation: f64,
}

impl DirectionalSpreading {
    /// Spreading around `direction_degrees` (where the waves travel to: 0 = +x, 90 = +y) with
    /// exponent `s`.
    ///
    /// # Errors
    /// [`WaterError::NotFinite`](crate::WaterError::NotFinite) for a NaN or infinite
    /// direction, [`WaterError::OutOfRange`](crate::WaterError::OutOfRange) for `s` outside
    /// [1, 1e4] (key `spreading`).
    pub fn new(direction_degrees: f64, s: f64) -> Result<Self> {
        finite("direction", direction_degrees)?;
        finite("spreading", s)?;
        within("spreading", s, SPREADING_RANGE, "[1, 1e4]")?;
        Ok(Self {
            // Reduced to one turn first: a direction whole turns away is the same direction,
            // and radians of 1e300 degrees would leave no bits for the angle between a wave and
            // the mean, flattening D(theta). `rem_euclid` is exact for directions >= 0; for a
            // negative one the turn it adds rounds (a tiny negative one lands on 360 itself, the
            // same direction).
            mean_direction: direction_degrees.rem_euclid(360.0).to_radians(),
            exponent: s,
            // N(s) = Gamma(s + 1) / (2 sqrt(pi) Gamma(s + 1/2)).
            normalisation: (ln_gamma(s + 1.0) - ln_gamma(s + 0.5)).exp() / (2.0 * PI.sqrt()),
        })
    }

    /// The mean direction, radians from +x toward +y, in [0, 2 pi] (2 pi only for a tiny
    /// negative direction).
    #[must_use]
    pub fn mean_direction(&self) -> f64 {
        self.mean_direction
    }

    /// The exponent `s`.
    #[must_use]
    pub fn exponent(&self) -> f64 {
        self.exponent
    }

    /// `D(theta)`, per radian, for a direction `theta` in radians.
    #[must_use]
    pub fn density(&self, theta: f64) -> f64 {
        let half = 0.5 * (theta - self.mean_direction);
        // cos^2 of the half angle is (1 + cos) / 2: no sign to lose for odd powers.
        let c2 = 0.5 * (1.0 + (2.0 * half).cos());
        self.normalisation * c2.max(0.0).powf(self.exponent)
    }

    /// The first circular moment `integral of cos(theta - theta0) D(theta)`: `s / (s + 1)`
    /// (what a measured spread is compared with).
    #[must_use]
    pub fn first_moment(&self) -> f64 {
        self.exponent / (self.exponent + 1.0)
    }
}

/// `ln Gamma(x)` for `x > 0` (Lanczos, g = 7, nine terms; relative error below 1e-13).
fn ln_gamma(x: f64) -> f64 {
    const G: f64 = 7.0;
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection: Gamma(x) Gamma(1 - x) = pi / sin(pi x).
        return (PI / (PI * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = C[0];
    let t = x + G + 0.5;
    for (i, c) in C.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    0.5 * (2.0 * PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn integral(f: impl Fn(f64) -> f64) -> f64 {
        let n = 100_000;
        let h = 2.0 * PI / f64::from(n);
        (0..n)
            .map(|i| f(-PI + (f64::from(i) + 0.5) * h))
            .sum::<f64>()
            * h
    }

    #[test]
    fn the_spreading_integrates_to_one_and_has_the_exact_first_moment() {
        for s in [1.0, 2.5, 10.0, 300.0] {
            let d = DirectionalSpreading::new(40.0, s).expect("valid");
            let total = integral(|t| d.density(t));
            assert!((total - 1.0).abs() < 1e-6, "s = {s}: {total}");
            let m1 = integral(|t| (t - d.mean_direction()).cos() * d.density(t));
            assert!((m1 - s / (s + 1.0)).abs() < 1e-6, "s = {s}: {m1}");
        }
    }

    #[test]
    fn a_direction_whole_turns_away_spreads_the_same() {
        // 30 degrees plus 2^45 turns is an exact f64 (an even number past 2^53); its radians,
        // unreduced, are off by hundredths of a radian. 1e300 degrees is some direction: its
        // spread must still integrate to one and peak in one direction.
        let d = DirectionalSpreading::new(30.0, 10.0).expect("valid");
        let turned = DirectionalSpreading::new(30.0 + 360.0 * 2f64.powi(45), 10.0).expect("valid");
        for i in 0..64 {
            let theta = -PI + f64::from(i) * PI / 32.0;
            assert_eq!(d.density(theta), turned.density(theta), "theta = {theta}");
        }
        let far = DirectionalSpreading::new(1e300, 10.0).expect("valid");
        let total = integral(|t| far.density(t));
        assert!((total - 1.0).abs() < 1e-6, "direction 1e300: {total}");
        let m1 = integral(|t| (t - far.mean_direction()).cos() * far.density(t));
        assert!((m1 - 10.0 / 11.0).abs() < 1e-6, "direction 1e300: {m1}");
    }

    #[test]
    fn ln_gamma_matches_factorials() {
        let mut f = 1.0f64;
        for n in 1..20 {
            f *= f64::from(n);
            assert!((ln_gamma(f64::from(n) + 1.0) - f.ln()).abs() < 1e-10, "{n}");
        }
        assert!((ln_gamma(0.5) - PI.sqrt().ln()).abs() < 1e-12);
    }

    #[test]
    fn spreading_below_one_is_refused_with_the_limit() {
        let e = DirectionalSpreading::new(0.0, 0.5).expect_err("s < 1");
        assert!(
            e.to_string().contains("spreading") && e.to_string().contains("[1, 1e4]"),
            "{e}"
        );
    }
}
