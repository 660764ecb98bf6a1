//! [`FoamField`]: white water on a grid. Each cell holds a coverage `f` in `[0, 1]`, raised by
//! sources (breaking crests where the sea's Jacobian falls below a threshold, hulls' bow and
//! stern events, surf on shallow shores) and decaying by a half-life exactly: `f(t) = f(t0) 2^(-(t - t0) / half_life)`
//! from the cell's last source at `t0`. The decay is evaluated from that time each read rather
//! than multiplied in step by step, so it carries no rounding from one step to the next.
//!
//! Foam is carried with the world: [`FoamField::shift`] moves it with a grid that follows a
//! focus ([`crate::FollowingWindow`]), cells coming in clear.

use crate::contact_masks::ContactMasks;
use crate::error::{Result, WaterError};
use crate::size::GridSize;

/// The crest height above still water, as a share of the still depth, at which surf breaks
/// (McCowan 1894: a solitary wave on depth `d` breaks at height `0.78 d`).
pub const SURF_BREAKING_RATIO: f32 = 0.78;

/// Foam coverage on a grid of `size` cells.
///
/// ```
/// use water_core::{FoamField, GridSize};
/// let mut foam = FoamField::new(GridSize::new(8, 8)?, 2.0)?; // half-life 2 s
/// foam.raise(9, 1.0, 0.0); // cell (1, 1) fully white at t = 0 s
/// assert_eq!(foam.coverage_at(9, 2.0), 0.5); // one half-life later
/// assert_eq!(foam.coverage_at(9, 4.0), 0.25);
/// assert_eq!(foam.coverage_at(0, 4.0), 0.0);
/// # Ok::<(), water_core::WaterError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct FoamField {
    size: GridSize,
    half_life: f64,
    /// Each cell's coverage at its last source.
    at_source: Vec<f32>,
    /// The time of each cell's last source, s.
    since: Vec<f64>,
}

impl FoamField {
    /// No foam on `size` cells, decaying with `half_life` seconds.
    ///
    /// # Errors
    /// [`WaterError::NotPositive`] / [`WaterError::NotFinite`] for a `half_life` that is not a
    /// finite number above 0, named `foam half_life`.
    pub fn new(size: GridSize, half_life: f64) -> Result<Self> {
        crate::error::positive("foam half_life", half_life)?;
        Ok(Self {
            size,
            half_life,
            at_source: vec![0.0; size.cells()],
            since: vec![0.0; size.cells()],
        })
    }

    /// The grid's size.
    #[must_use]
    pub fn size(&self) -> GridSize {
        self.size
    }

    /// The half-life, s.
    #[must_use]
    pub fn half_life(&self) -> f64 {
        self.half_life
    }

    /// Cell `i`'s coverage at time `t` (s, not before its last source).
    #[must_use]
    pub fn coverage_at(&self, i: usize, t: f64) -> f32 {
        let f = self.at_source[i];
        if f == 0.0 {
            return 0.0;
        }
        let age = (t - self.since[i]).max(0.0);
        (f64::from(f) * (-age / self.half_life).exp2()) as f32
    }

    /// Every cell's coverage at time `t` (s), row-major, into `out`.
    ///
    /// # Errors
    /// [`WaterError::SizeMismatch`] if `out` is not one value per cell.
    pub fn coverage_into(&self, t: f64, out: &mut [f32]) -> Result<()> {
        self.size.check_len("foam coverage", out.len())?;
        for (i, o) in out.iter_mut().enumerate() {
            *o = self.coverage_at(i, t);
        }
        Ok(())
    }

    /// Every cell's coverage at time `t` (s), row-major.
    #[must_use]
    pub fn coverage(&self, t: f64) -> Vec<f32> {
        (0..self.size.cells())
            .map(|i| self.coverage_at(i, t))
            .collect()
    }

    /// Adds `amount` of coverage to cell `i` at time `t` (s), capped at 1; the cell's decay
    /// starts again from `t`. A NaN or negative amount adds nothing.
    pub fn raise(&mut self, i: usize, amount: f32, t: f64) {
        if amount.is_nan() || amount <= 0.0 {
            return;
        }
        let now = self.coverage_at(i, t);
        self.at_source[i] = (now + amount).min(1.0);
        self.since[i] = t;
    }

    /// Breaking crests at time `t` (s): every cell whose Jacobian (`det(I + grad D)` of the
    /// choppy sea there, row-major: [`crate::ocean::SeaSample::jacobian`]) is below `threshold`
    /// turns fully white. Gives how many cells broke.
    ///
    /// # Errors
    /// [`WaterError::SizeMismatch`] for the wrong number of Jacobians;
    /// [`WaterError::NotFinite`] for a NaN or infinite `threshold`, named
    /// `foam jacobian_threshold`.
    pub fn add_breaking(&mut self, jacobians: &[f32], threshold: f32, t: f64) -> Result<usize> {
        crate::error::finite("foam jacobian_threshold", f64::from(threshold))?;
        self.size.check_len("sea Jacobians", jacobians.len())?;
        let mut broke = 0;
        for (i, &j) in jacobians.iter().enumerate() {
            if j < threshold {
                self.raise(i, 1.0, t);
                broke += 1;
            }
        }
        Ok(broke)
    }

    /// Surf at time `t` (s): every wet cell whose still-water depth `d` (m, row-major) is below
    /// `shore_depth` (m) turns fully white where the surface stands higher above its still level
    /// than [`SURF_BREAKING_RATIO`] times `d` (McCowan's limit: a solitary wave breaks when its
    /// crest reaches 0.78 of the depth). Dry cells (`d <= 0`) never foam. Gives how many cells
    /// broke.
    ///
    /// # Errors
    /// [`WaterError::SizeMismatch`] for heights or depths of another grid;
    /// [`WaterError::NotPositive`] / [`WaterError::NotFinite`] for a `shore_depth` that is not
    /// a finite number above 0, named `foam shore_depth`.
    pub fn add_shore(
        &mut self,
        heights: &[f32],
        depths: &[f32],
        shore_depth: f32,
        t: f64,
    ) -> Result<usize> {
        crate::error::positive("foam shore_depth", f64::from(shore_depth))?;
        self.size
            .check_len("heights for shore foam", heights.len())?;
        self.size.check_len("depths for shore foam", depths.len())?;
        let mut broke = 0;
        for (i, (&z, &d)) in heights.iter().zip(depths).enumerate() {
            if d > 0.0 && d < shore_depth && z > SURF_BREAKING_RATIO * d {
                self.raise(i, 1.0, t);
                broke += 1;
            }
        }
        Ok(broke)
    }

    /// Wakes at time `t` (s): every cell a hull arrived at or left this step (a bow or stern
    /// event: one of `C_new`, `C_old` zero and the other not) gains `amount` of coverage.
    ///
    /// # Errors
    /// [`WaterError::SizeMismatch`] for masks of another grid.
    pub fn add_wake(&mut self, masks: &ContactMasks, amount: f32, t: f64) -> Result<()> {
        if masks.size() != self.size {
            return Err(WaterError::SizeMismatch {
                what: "contact masks for foam",
                width: self.size.width(),
                height: self.size.height(),
                expected: self.size.cells(),
                actual: masks.size().cells(),
            });
        }
        // A hull arriving or leaving: with the displacement source the masks hold each cell's
        // depth under the hull, which changes every step the hull heaves; only the edges of its
        // path are the bow's and the stern's.
        for (i, (new, old)) in masks.new_mask().iter().zip(masks.old_mask()).enumerate() {
            if (*new != 0.0) != (*old != 0.0) {
                self.raise(i, amount, t);
            }
        }
        Ok(())
    }

    /// Moves the foam with a grid that moved by `(dx, dy)` cells
    /// ([`crate::GridWater::shift_window`]: new cell `(x, y)` holds old cell `(x + dx, y + dy)`),
    /// cells coming in clear: foam stays where it is in the world.
    pub fn shift(&mut self, dx: isize, dy: isize) {
        crate::window::shift_cells(&mut self.at_source, self.size, dx, dy, 0.0);
        crate::window::shift_cells(&mut self.since, self.size, dx, dy, 0.0);
    }
}
