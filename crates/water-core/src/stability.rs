//! Stability report for a wave speed, cell size and optional step: what `water stability` prints.

use crate::error::Result;
use crate::params::{
    check_ranges, courant, max_stable_dt, COURANT_ROUNDING_SLACK, GRID_COURANT_LIMIT,
};

/// How a choice of `c`, `h` and `dt` relates to the stability limit of the grid stencil.
///
/// ```
/// use water_core::StabilityReport;
/// let r = StabilityReport::new(2.0, 0.1, Some(0.05))?;
/// assert!(!r.is_stable());
/// assert_eq!(r.substeps, 2); // 0.05 s splits into two stable steps of 0.025 s
/// # Ok::<(), water_core::WaterError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StabilityReport {
    /// Wave speed `c`, m/s.
    pub wave_speed: f64,
    /// Cell size `h`, m.
    pub cell_size: f64,
    /// The step asked about, s (the largest stable step when none was given).
    pub dt: f64,
    /// Courant number `a = (c*dt/h)^2` of `dt`.
    pub courant: f64,
    /// Stability limit of `a` (1/2).
    pub limit: f64,
    /// Largest stable step `h / (c*sqrt 2)`, s.
    pub max_stable_dt: f64,
    /// Smallest number of equal substeps that splits `dt` into stable steps.
    pub substeps: u64,
}

impl StabilityReport {
    /// Builds the report. Without `dt`, the largest stable step is reported.
    ///
    /// # Errors
    /// [`crate::WaterError::NotFinite`] or [`crate::WaterError::NotPositive`] for bad inputs,
    /// [`crate::WaterError::OutOfRange`] outside the ranges [`crate::WaveParams::new`] accepts.
    pub fn new(wave_speed: f64, cell_size: f64, dt: Option<f64>) -> Result<Self> {
        check_ranges(cell_size, wave_speed, dt)?;
        let max_dt = max_stable_dt(cell_size, wave_speed);
        let dt = dt.unwrap_or(max_dt);
        let a = courant(cell_size, wave_speed, dt);
        Ok(Self {
            wave_speed,
            cell_size,
            dt,
            courant: a,
            limit: GRID_COURANT_LIMIT,
            max_stable_dt: max_dt,
            substeps: substeps_for(dt, max_dt),
        })
    }

    /// True when `a <= 1/2`, with the rounding slack [`crate::WaveParams::new`] allows: a step
    /// that `WaveParams::new` accepts (such as the largest stable one, whose `a` may round a hair
    /// above 1/2) is reported stable, and one it refuses is not.
    #[must_use]
    pub fn is_stable(&self) -> bool {
        self.courant <= self.limit * (1.0 + COURANT_ROUNDING_SLACK)
    }
}

/// Number of equal substeps of at most `max_dt` that cover `dt` (at least 1).
#[must_use]
pub fn substeps_for(dt: f64, max_dt: f64) -> u64 {
    let n = (dt / max_dt).ceil();
    // A hair over an integer from rounding (e.g. 2.0000000001) must not cost a whole substep.
    let n = if (dt / max_dt - (n - 1.0)).abs() < 1e-12 {
        n - 1.0
    } else {
        n
    };
    n.max(1.0) as u64
}
