//! Still-water depth per cell: where the water is shallow its long waves are slow, `c = sqrt(g d)`
//! (the shallow-water speed), so waves slow, steepen and bend toward the shore.

use crate::error::{finite, positive, within, Result, WaterError};
use crate::land::LandMask;
use crate::params::{Damping, WaveParams};
use crate::size::GridSize;

/// Standard gravity, m/s^2: the default of the scenario key `gravity`.
pub const STANDARD_GRAVITY: f64 = 9.81;

/// Allowed gravity, m/s^2: from a thousandth of the Earth's to a hundred times it, so that
/// `sqrt(g d)` stays a wave speed the solver accepts for any depth it accepts.
pub const GRAVITY_RANGE: (f64, f64) = (1e-3, 1e3);

/// Allowed depths, m: down to the deepest ocean trench's 11 km. Cells at or below 0 are land.
pub const MAX_DEPTH: f64 = 11_000.0;

/// The shallowest uniform depth taken (a grid's `depth`, Airy's relation, a TMA sea), m: a
/// micrometre. Over it the shortest wave any grid resolves moves at 1.5e-5 m/s or more (gravity
/// 1e-3 m/s^2, cells of 1e-6 m), within the wave speeds a grid steps
/// ([`crate::WAVE_SPEED_RANGE`]), so every backend and model takes the depths the others take.
pub const MIN_DEPTH: f64 = 1e-6;

/// Still-water depth `d` of every cell of a grid, metres; land where `d <= 0`.
///
/// With [`WaveParams::shallow_water`] (`c = sqrt(g d_max)` over the deepest cell) and
/// `set_depth` on a [`SignedGrid`](crate::SignedGrid) or [`SplitGrid`](crate::SplitGrid), each
/// cell's waves travel at the shallow-water speed `c = sqrt(g d)`, stepped in the
/// variable-coefficient form `z_new = d_damp (2z - z_old + (dt/h)^2 div(c^2 grad z))`
/// ([`crate::kernels::depth_step`]).
///
/// ```
/// use water_core::{Boundary, Damping, Depth, GridSize, GridWater, SignedGrid, WaveParams};
/// let size = GridSize::new(64, 32)?;
/// // A beach: 2 m deep on the left, shoaling to dry land at the right edge.
/// let metres = (0..size.cells()).map(|i| 2.0 - 2.2 * (i % 64) as f32 / 63.0).collect();
/// let depth = Depth::from_cells(size, metres)?;
/// let params = WaveParams::shallow_water(0.5, &depth, 9.81, 0.05, Damping::NONE)?;
/// let mut water = SignedGrid::new(size, params, Boundary::Reflective);
/// water.set_depth(&depth)?;
/// water.step();
/// # Ok::<(), water_core::WaterError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Depth {
    size: GridSize,
    metres: Vec<f32>,
    deepest: f32,
}

impl Depth {
    /// The same depth `metres` everywhere.
    ///
    /// # Errors
    /// [`WaterError::NotFinite`], [`WaterError::NotPositive`] or [`WaterError::OutOfRange`]
    /// (above [`MAX_DEPTH`]) for the depth.
    pub fn uniform(size: GridSize, metres: f32) -> Result<Self> {
        positive("depth", f64::from(metres))?;
        Self::from_cells(size, vec![metres; size.cells()])
    }

    /// Depths of the cells in row-major order (`y * width + x`), metres; cells at or below 0
    /// are land.
    ///
    /// # Errors
    /// [`WaterError::SizeMismatch`] for the wrong number of values; [`WaterError::NotFinite`]
    /// for a NaN or infinite depth; [`WaterError::OutOfRange`] for a depth above
    /// [`MAX_DEPTH`]; [`WaterError::NotPositive`] when no cell is wet.
    pub fn from_cells(size: GridSize, metres: Vec<f32>) -> Result<Self> {
        size.check_len("depth map", metres.len())?;
        // From below every depth, so a map of land alone names its deepest cell, not 0.
        let mut deepest = f32::NEG_INFINITY;
        for &d in &metres {
            finite("depth", f64::from(d))?;
            if f64::from(d) > MAX_DEPTH {
                return Err(WaterError::OutOfRange {
                    name: "depth",
                    value: f64::from(d),
                    range: "(-inf, 11000] m",
                });
            }
            deepest = deepest.max(d);
        }
        positive(
            "the deepest cell's depth (cells at or below 0 m are land)",
            f64::from(deepest),
        )?;
        Ok(Self {
            size,
            metres,
            deepest,
        })
    }

    /// The grid size.
    #[must_use]
    pub fn size(&self) -> GridSize {
        self.size
    }

    /// Depth of every cell, metres, row-major.
    #[must_use]
    pub fn cells(&self) -> &[f32] {
        &self.metres
    }

    /// The largest depth, metres (> 0).
    #[must_use]
    pub fn deepest(&self) -> f32 {
        self.deepest
    }

    /// Whether every cell has the same depth.
    #[must_use]
    pub fn is_uniform(&self) -> bool {
        self.metres.iter().all(|&d| d == self.deepest)
    }

    /// The cells at or below 0 m: land.
    #[must_use]
    pub fn land(&self) -> LandMask {
        let cells = self.metres.iter().map(|&d| d <= 0.0).collect();
        LandMask::from_cells(self.size, cells).expect("one flag per cell of the same size")
    }

    /// The fraction of the deepest cell's `c^2` each cell has: `max(d, 0) / d_max`, in
    /// `[0, 1]` (land 0).
    pub(crate) fn speed_squared_ratios(&self) -> impl Iterator<Item = f64> + '_ {
        let deepest = f64::from(self.deepest);
        self.metres
            .iter()
            .map(move |&d| f64::from(d).max(0.0) / deepest)
    }
}

/// Checks a uniform depth `d` (m): finite, positive and within [`MIN_DEPTH`] to [`MAX_DEPTH`],
/// as Airy's relation, a TMA sea and a grid's `depth` key take it.
///
/// # Errors
/// [`WaterError::NotFinite`], [`WaterError::NotPositive`] or [`WaterError::OutOfRange`], named
/// `depth`.
pub fn check_depth(d: f64) -> Result<f64> {
    positive("depth", d)?;
    within("depth", d, (MIN_DEPTH, MAX_DEPTH), "[1e-6, 11000] m")
}

/// Checks `gravity` (m/s^2): finite, positive and within [`GRAVITY_RANGE`].
///
/// # Errors
/// [`WaterError::NotFinite`], [`WaterError::NotPositive`] or [`WaterError::OutOfRange`].
pub fn check_gravity(gravity: f64) -> Result<f64> {
    positive("gravity", gravity)?;
    within("gravity", gravity, GRAVITY_RANGE, "[1e-3, 1e3] m/s^2")
}

impl WaveParams {
    /// Parameters for shallow water over `depth`: the wave speed is `sqrt(g d_max)`, the
    /// fastest cell's, so the stability check `a <= 1/2` is made for the largest `c` (the
    /// shallower cells have smaller `a`).
    ///
    /// # Errors
    /// A bad `gravity` ([`check_gravity`]); as [`WaveParams::new`] otherwise, with
    /// [`WaterError::Unstable`] naming the largest stable `dt` for the deepest cell.
    pub fn shallow_water(
        cell_size: f64,
        depth: &Depth,
        gravity: f64,
        dt: f64,
        damping: Damping,
    ) -> Result<Self> {
        let gravity = check_gravity(gravity)?;
        Self::new(
            cell_size,
            (gravity * f64::from(depth.deepest())).sqrt(),
            dt,
            damping,
        )
    }
}
