//! Airy's dispersion relation of linear water waves: how fast each wavelength oscillates under
//! gravity and surface tension over water of depth `d`.

use crate::depth::{check_depth, check_gravity};
#[cfg(doc)]
use crate::error::WaterError;
use crate::error::{finite, positive, within, Result};

/// Surface tension of clean water against air at 20 degrees C, N/m.
pub const WATER_SURFACE_TENSION: f64 = 0.0728;

/// Density of fresh water, kg/m^3: the default of the scenario key `density`.
pub const WATER_DENSITY: f64 = 1000.0;

/// The restoring forces of linear water waves, for
/// `omega^2 = (g k + sigma k^3 / rho) tanh(k d)` (deep water: `tanh = 1`).
///
/// ```
/// use water_core::AiryDispersion;
/// // Deep water: a 10 m wave has a period of 2.53 s.
/// let deep = AiryDispersion::gravity_waves(9.81)?;
/// let k = std::f64::consts::TAU / 10.0;
/// assert!((std::f64::consts::TAU / deep.omega(k) - 2.53).abs() < 0.01);
/// # Ok::<(), water_core::WaterError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AiryDispersion {
    gravity: f64,
    surface_tension: f64,
    density: f64,
    depth: Option<f64>,
}

impl crate::params::WaveParams {
    /// Parameters of dispersive water under `airy`: cell size `h`, step `dt` and damping as
    /// for the wave model, and as wave speed the phase speed of the shortest wave the grid
    /// resolves (the diagonal Nyquist mode, `k_max = pi sqrt 2 / h`). With that speed the usual
    /// check `a = (c dt / h)^2 <= 1/2` is exactly the spectral step's limit
    /// `omega_max dt <= pi` (`docs/math.md`, section 13), and the largest stable `dt` it names,
    /// `h / (c sqrt 2)`, is `pi / omega_max`.
    ///
    /// # Errors
    /// [`WaterError::DispersiveUnstable`] for `dt >= pi / omega_max`; otherwise as
    /// [`crate::WaveParams::new`].
    pub fn dispersive(
        cell_size: f64,
        airy: &AiryDispersion,
        dt: f64,
        damping: crate::params::Damping,
    ) -> Result<Self> {
        positive("cell_size", cell_size)?;
        // The spectral limit first, so a dt at or past it is named in the model's own terms
        // (the Courant check below has a rounding slack at `a = 1/2`, the double root).
        crate::dispersive_grid::check_dispersive_dt(cell_size, dt, airy)?;
        let k_max = crate::kernels::spectral_step::largest_wavenumber(cell_size);
        Self::new(cell_size, airy.phase_speed(k_max), dt, damping)
    }
}

impl AiryDispersion {
    /// Gravity waves on deep water (no surface tension), `g` in m/s^2.
    ///
    /// # Errors
    /// A bad `gravity` ([`check_gravity`]).
    pub fn gravity_waves(gravity: f64) -> Result<Self> {
        Self::new(gravity, 0.0, WATER_DENSITY, None)
    }

    /// Every term: gravity `g` (m/s^2), surface tension `sigma` (N/m, 0 for none), density
    /// `rho` (kg/m^3) and the still-water depth `d` (m; `None` for deep water).
    ///
    /// # Errors
    /// [`WaterError::NotFinite`], [`WaterError::NotPositive`] or [`WaterError::OutOfRange`]
    /// naming the value: gravity as [`check_gravity`], surface tension in `[0, 10]` N/m,
    /// density in `[1e-3, 1e5]` kg/m^3, depth in `[1e-6, 11000]` m (at a micrometre the shortest
    /// wave a grid resolves still moves faster than the slowest wave speed a grid steps, 1e-6
    /// m/s, at every gravity and cell size taken).
    pub fn new(
        gravity: f64,
        surface_tension: f64,
        density: f64,
        depth: Option<f64>,
    ) -> Result<Self> {
        check_gravity(gravity)?;
        finite("surface_tension", surface_tension)?;
        within(
            "surface_tension",
            surface_tension,
            (0.0, 10.0),
            "[0, 10] N/m",
        )?;
        positive("density", density)?;
        // From a gram a cubic metre: lighter, surface tension's `sigma k^3 / rho` at the finest
        // cells passes f64 (omega_max of inf; 5e-324 kg/m^3 did).
        within("density", density, (1e-3, 1e5), "[1e-3, 1e5] kg/m^3")?;
        if let Some(d) = depth {
            check_depth(d)?;
        }
        Ok(Self {
            gravity,
            surface_tension,
            density,
            depth,
        })
    }

    /// Gravity, m/s^2.
    #[must_use]
    pub fn gravity(&self) -> f64 {
        self.gravity
    }

    /// Surface tension, N/m.
    #[must_use]
    pub fn surface_tension(&self) -> f64 {
        self.surface_tension
    }

    /// Density, kg/m^3.
    #[must_use]
    pub fn density(&self) -> f64 {
        self.density
    }

    /// Still-water depth, m (`None`: deep water).
    #[must_use]
    pub fn depth(&self) -> Option<f64> {
        self.depth
    }

    /// The angular frequency (rad/s) of a wave of wavenumber `k` (rad/m, `k >= 0`).
    #[must_use]
    pub fn omega(&self, k: f64) -> f64 {
        let restoring = self.gravity * k + self.surface_tension * k.powi(3) / self.density;
        let depth_factor = self.depth.map_or(1.0, |d| (k * d).tanh());
        (restoring * depth_factor).sqrt()
    }

    /// The phase speed `omega / k` (m/s) of wavenumber `k > 0`.
    #[must_use]
    pub fn phase_speed(&self, k: f64) -> f64 {
        self.omega(k) / k
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::spectral_step::largest_wavenumber;
    use crate::{CELL_SIZE_RANGE, GRAVITY_RANGE, WAVE_SPEED_RANGE};

    #[test]
    fn the_shallowest_depth_and_the_lightest_density_keep_the_shortest_wave_steppable() {
        // Slowest corner: least gravity, shallowest depth, no surface tension; every cell size.
        let airy = AiryDispersion::new(GRAVITY_RANGE.0, 0.0, 1000.0, Some(crate::MIN_DEPTH))
            .expect("the shallowest depth is taken");
        for h in [CELL_SIZE_RANGE.0, 1e-3, 1.0, CELL_SIZE_RANGE.1] {
            let c = airy.phase_speed(largest_wavenumber(h));
            assert!(
                (WAVE_SPEED_RANGE.0..=WAVE_SPEED_RANGE.1).contains(&c),
                "cells of {h} m: {c} m/s"
            );
        }
        // The lightest density with the strongest surface tension keeps omega finite.
        let light = AiryDispersion::new(9.81, 10.0, 1e-3, None).expect("a gram a cubic metre");
        assert!(light
            .omega(largest_wavenumber(CELL_SIZE_RANGE.0))
            .is_finite());
        let e = AiryDispersion::new(9.81, 0.07, 5e-324, None).expect_err("lighter than a gram");
        assert_eq!(e.parameter(), Some("density"), "{e}");
        // Shallower is refused by the depth's name (sqrt(g d) would leave the speeds stepped).
        let e = AiryDispersion::new(9.81, 0.0, 1000.0, Some(1e-14)).expect_err("too shallow");
        assert_eq!(e.parameter(), Some("depth"), "{e}");
    }
}
