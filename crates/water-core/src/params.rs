//! Physical parameters of the grid wave equation and their stability check.

use crate::error::{positive, Result, WaterError};

/// The von Neumann stability limit of the five-point wave stencil: `a <= 1/2`.
///
/// See `docs/math.md` for the proof.
pub const GRID_COURANT_LIMIT: f64 = 0.5;

/// Relative slack for f64 rounding in `(c*dt/h)^2` when comparing with the limit; the
/// stability report uses the same, so a step accepted here is reported stable there.
pub(crate) const COURANT_ROUNDING_SLACK: f64 = 1e-12;

/// Allowed cell sizes `h`, m: a micrometre to a thousand kilometres.
pub const CELL_SIZE_RANGE: (f64, f64) = (1e-6, 1e6);
/// Allowed wave speeds `c`, m/s.
pub const WAVE_SPEED_RANGE: (f64, f64) = (1e-6, 1e6);
/// Allowed time steps `dt`, s: a nanosecond to eleven days.
pub const DT_RANGE: (f64, f64) = (1e-9, 1e6);

/// Checks `h`, `c` and `dt` (when given) against their ranges. Within them every product the
/// solver and its reports form stays finite: `(c dt / h)^2 <= 1e36`, `dt / max_dt <= 1.5e18`
/// substeps (below `u64::MAX`), and a volume `sum z h^2` below 1e30 for heights within
/// impulse limits.
pub(crate) fn check_ranges(cell_size: f64, wave_speed: f64, dt: Option<f64>) -> Result<()> {
    positive("cell_size", cell_size)?;
    positive("wave_speed", wave_speed)?;
    if let Some(dt) = dt {
        positive("dt", dt)?;
    }
    let checks = [
        (
            "cell_size",
            Some(cell_size),
            CELL_SIZE_RANGE,
            "[1e-6, 1e6] m",
        ),
        (
            "wave_speed",
            Some(wave_speed),
            WAVE_SPEED_RANGE,
            "[1e-6, 1e6] m/s",
        ),
        ("dt", dt, DT_RANGE, "[1e-9, 1e6] s"),
    ];
    for (name, value, (lo, hi), range) in checks {
        if let Some(value) = value {
            if !(lo..=hi).contains(&value) {
                return Err(WaterError::OutOfRange { name, value, range });
            }
        }
    }
    Ok(())
}

/// How much of a wave's amplitude survives over time.
///
/// The stepper multiplies each new height by a per-step factor `d` (1 = no damping); since `d`
/// scales the whole update, `z_old` term included, a wave keeps `sqrt(d)` of its amplitude per
/// step. A fraction per second `D` is converted to `d = D^(2 dt)`, so a wave keeps `D` of its
/// amplitude over one second whatever step is chosen (`docs/math.md`, section 1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Damping {
    /// Factor `d` in `[f32::MIN_POSITIVE, 1]` (1.17549435e-38 to 1: below it f32 holds only
    /// subnormal numbers, which the CPU's flush-to-zero makes 0) applied to each step's update
    /// (dimensionless); the amplitude shrinks by `sqrt(d)` per step.
    PerStep(f64),
    /// Fraction of the amplitude, in `[2.2250738585072014e-308, 1]` (above 0, from f64's least
    /// normal number), that survives one second of simulated time; the
    /// per-step factor it makes at the grid's `dt`, `fraction^(2 dt)`, must be at least
    /// `f32::MIN_POSITIVE` as [`Damping::PerStep`]'s is.
    PerSecond(f64),
}

impl Damping {
    /// No damping: energy is conserved by the undamped stencil.
    pub const NONE: Self = Self::PerStep(1.0);

    /// The per-step factor `d` for a time step of `dt` seconds.
    #[must_use]
    pub fn per_step_factor(self, dt: f64) -> f64 {
        match self {
            Self::PerStep(d) => d,
            Self::PerSecond(per_second) => per_second.powf(2.0 * dt),
        }
    }

    /// Checks the damping for steps of `dt` seconds: a factor or fraction in its range, and a
    /// per-second fraction whose per-step factor at `dt` f32 holds.
    ///
    /// # Errors
    /// [`WaterError::NotFinite`] or [`WaterError::OutOfRange`] naming `damping` or
    /// `damping_per_second`.
    pub fn validate_at(self, dt: f64) -> Result<()> {
        self.validate()?;
        // A factor that underflows to 0 is below every normal number too.
        let factor = self.per_step_factor(dt);
        match self {
            Self::PerSecond(value) if factor <= 0.0 || crate::below_f32_normal(factor) => {
                Err(WaterError::OutOfRange {
                    name: "damping_per_second",
                    value,
                    range: "[2.2250738585072014e-308, 1] with damping_per_second^(2 dt) at least \
                            1.17549435e-38 (the per-step factor f32 holds)",
                })
            }
            _ => Ok(()),
        }
    }

    pub(crate) fn validate(self) -> Result<()> {
        // A per-step factor below f32's least normal number is 0 (or flushed to it) in the f32
        // kernels: full damping, which 0 itself is refused as (no wave survives a step of 1e-30
        // anyway). A per-second fraction is raised to 2 dt in f64 first.
        let (name, value, too_small, range) = match self {
            Self::PerStep(v) => (
                "damping",
                v,
                v <= 0.0 || crate::below_f32_normal(v),
                "[1.17549435e-38, 1] (less is flushed to 0 in f32: every wave stopped)",
            ),
            Self::PerSecond(v) => (
                "damping_per_second",
                v,
                v < f64::MIN_POSITIVE,
                "[2.2250738585072014e-308, 1] (above 0, from f64's least normal number)",
            ),
        };
        if !value.is_finite() {
            return Err(WaterError::NotFinite { name, value });
        }
        if too_small || value > 1.0 {
            return Err(WaterError::OutOfRange { name, value, range });
        }
        Ok(())
    }
}

/// Validated physical parameters of a grid simulation.
///
/// Construct with [`WaveParams::new`]; every instance satisfies the stability condition
/// `a = (c*dt/h)^2 <= 1/2`.
///
/// ```
/// use water_core::{Damping, WaveParams};
/// let p = WaveParams::new(0.1, 2.0, 1.0 / 60.0, Damping::PerStep(0.999))?;
/// assert!((p.courant() - (2.0 * (1.0 / 60.0) / 0.1f64).powi(2)).abs() < 1e-12);
/// // Too large a step is refused with the largest stable one named.
/// let err = WaveParams::new(0.1, 2.0, 0.1, Damping::NONE).unwrap_err();
/// assert!(err.to_string().contains("0.5"));
/// # Ok::<(), water_core::WaterError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WaveParams {
    cell_size: f64,
    wave_speed: f64,
    dt: f64,
    damping: Damping,
}

impl WaveParams {
    /// Validates and builds parameters.
    ///
    /// * `cell_size` — `h`, the edge of one square cell, in metres.
    /// * `wave_speed` — `c`, in metres per second.
    /// * `dt` — the fixed time step, in seconds.
    /// * `damping` — per step or per second, see [`Damping`].
    ///
    /// # Errors
    /// [`WaterError::NotFinite`] / [`WaterError::NotPositive`] for bad numbers,
    /// [`WaterError::OutOfRange`] for damping outside the range [`Damping`] names and for `h`,
    /// `c` or `dt` outside [`CELL_SIZE_RANGE`], [`WAVE_SPEED_RANGE`] or [`DT_RANGE`], and
    /// [`WaterError::Unstable`]
    /// (naming `a`, the limit 0.5 and the largest stable `dt`) when `a > 1/2`.
    pub fn new(cell_size: f64, wave_speed: f64, dt: f64, damping: Damping) -> Result<Self> {
        check_ranges(cell_size, wave_speed, Some(dt))?;
        damping.validate_at(dt)?;
        let params = Self {
            cell_size,
            wave_speed,
            dt,
            damping,
        };
        let courant = params.courant();
        // `dt = h / (c*sqrt 2)` squares back to 0.5 plus an ulp or two; such a step is the
        // limit itself, not past it, and the coefficients clamp `a` to exactly 0.5.
        if courant > GRID_COURANT_LIMIT * (1.0 + COURANT_ROUNDING_SLACK) {
            return Err(WaterError::Unstable {
                courant,
                limit: GRID_COURANT_LIMIT,
                max_stable_dt: params.max_stable_dt(),
            });
        }
        Ok(params)
    }

    /// Parameters for the given `h` and `c` with the largest stable step, `a = 1/2` exactly.
    ///
    /// This is the setting of classic (Hugo Elias) mode.
    ///
    /// # Errors
    /// As [`WaveParams::new`] for bad `cell_size`, `wave_speed` or `damping`.
    pub fn at_limit(cell_size: f64, wave_speed: f64, damping: Damping) -> Result<Self> {
        check_ranges(cell_size, wave_speed, None)?;
        let dt = max_stable_dt(cell_size, wave_speed);
        // `h / (c*sqrt 2)` squared back may round a hair above 1/2; pin it.
        let params = Self {
            cell_size,
            wave_speed,
            dt,
            damping,
        };
        damping.validate_at(dt)?;
        Ok(params)
    }

    /// Cell size `h`, metres.
    #[must_use]
    pub fn cell_size(&self) -> f64 {
        self.cell_size
    }

    /// Wave speed `c`, metres per second.
    #[must_use]
    pub fn wave_speed(&self) -> f64 {
        self.wave_speed
    }

    /// Time step `dt`, seconds.
    #[must_use]
    pub fn dt(&self) -> f64 {
        self.dt
    }

    /// The damping as given.
    #[must_use]
    pub fn damping(&self) -> Damping {
        self.damping
    }

    /// Courant number `a = (c*dt/h)^2` (dimensionless).
    #[must_use]
    pub fn courant(&self) -> f64 {
        courant(self.cell_size, self.wave_speed, self.dt)
    }

    /// Per-step damping factor `d` (dimensionless, 1 = none).
    #[must_use]
    pub fn damping_factor(&self) -> f64 {
        self.damping.per_step_factor(self.dt)
    }

    /// Largest stable step for this `h` and `c`, seconds: `h / (c*sqrt 2)`.
    #[must_use]
    pub fn max_stable_dt(&self) -> f64 {
        max_stable_dt(self.cell_size, self.wave_speed)
    }

    /// The f32 coefficients the stencil kernels use.
    #[must_use]
    pub fn coefficients(&self) -> StencilCoefficients {
        StencilCoefficients::new(
            self.courant().min(GRID_COURANT_LIMIT),
            self.damping_factor(),
        )
    }
}

/// Courant number `a = (c*dt/h)^2` for cell size `h` (m), wave speed `c` (m/s) and step `dt` (s).
#[must_use]
pub fn courant(cell_size: f64, wave_speed: f64, dt: f64) -> f64 {
    let s = wave_speed * dt / cell_size;
    s * s
}

/// Largest stable step of the five-point stencil, `h / (c*sqrt 2)`, in seconds.
#[must_use]
pub fn max_stable_dt(cell_size: f64, wave_speed: f64) -> f64 {
    cell_size / (wave_speed * std::f64::consts::SQRT_2)
}

/// The three f32 numbers every grid kernel (CPU and GPU) computes with:
/// `z_new = d * (a*(zN + zS + zE + zW) + b*z - z_old)` with `b = 2 - 4a`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StencilCoefficients {
    /// Courant number `a`.
    pub a: f32,
    /// Centre weight `2 - 4a`.
    pub b: f32,
    /// Per-step damping factor `d`.
    pub d: f32,
}

impl StencilCoefficients {
    /// Coefficients for Courant number `a` and per-step damping `d`.
    ///
    /// `a` and `b` are rounded to f32 together so that `4a + b == 2` holds exactly: the
    /// weights of a uniform field then sum to exactly 2, as in exact arithmetic. Rounding them
    /// independently (e.g. `a = 0.3`) leaves `4a + b = 2 + 6e-8`, which turns the still-water
    /// mode into one that grows by a factor of about 1 + 2.4e-4 per step: a slow exponential
    /// instability of the mean level. The price is a change of `a` below 2^-26.
    #[must_use]
    pub fn new(a: f64, d: f64) -> Self {
        let b = (2.0 - 4.0 * f64::from(a as f32)) as f32;
        // For b in [1, 2), 2 - b is a multiple of 2^-23 below 1, so (2 - b)/4 is exact in f32;
        // for b < 1 it is exact by Sterbenz's lemma.
        let a = ((2.0 - f64::from(b)) / 4.0) as f32;
        Self { a, b, d: d as f32 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_of_a_uniform_field_sum_to_exactly_two() {
        for i in 1..=5000 {
            let a = f64::from(i) / 10_000.0;
            let k = StencilCoefficients::new(a, 1.0);
            assert_eq!(4.0 * f64::from(k.a) + f64::from(k.b), 2.0, "a = {a}");
            assert!(
                (f64::from(k.a) - a).abs() < 1e-7,
                "a = {a} moved to {}",
                k.a
            );
        }
    }
}
