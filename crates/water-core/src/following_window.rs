//! A grid that follows a focus through the world: where its corner lies, in whole cells, and
//! the shifts that keep the focus in its centre cell (DESIGN.md, "Open water", "Following
//! window"). Whole cells, because a shift by whole cells moves both time levels exactly, so the
//! water cannot tell a moved window from a larger grid away from its rim
//! (`tests/following_window.rs`); a fractional move would resample, and blur, every wave.

use glam::{DVec2, I64Vec2};

use crate::error::Result;
use crate::grid_water::GridWater;
use crate::size::GridSize;
use crate::WaterError;

/// The farthest a window's corner may lie from the world's origin, cells: beyond it a cell
/// index is no longer exact in the `f64` world positions it is converted to and from.
pub const MAX_WINDOW_ORIGIN_CELLS: f64 = 1e12;

/// Where a grid of `size` cells, `cell_size` metres wide, lies in the world, and the whole-cell
/// shifts that keep a focus in its centre cell.
///
/// World positions are metres with the world's origin where the grid's corner started; grid
/// positions are metres from the grid's corner `(0, 0)` now.
///
/// ```
/// use water_core::glam::{DVec2, I64Vec2};
/// use water_core::{Boundary, Damping, FollowingWindow, GridSize, GridWater, SignedGrid, WaveParams};
///
/// let size = GridSize::new(64, 64)?;
/// let params = WaveParams::new(0.5, 2.0, 0.05, Damping::NONE)?;
/// let mut water = SignedGrid::new(size, params, Boundary::Absorbing);
/// let mut window = FollowingWindow::new(size, 0.5)?;
/// // A boat at (40.2, 16.0) m: the window's centre cell (32, 32) moves under it.
/// let moved = window.follow(&mut water, DVec2::new(40.2, 16.0))?;
/// assert_eq!(moved, I64Vec2::new(48, 0));
/// assert_eq!(window.origin(), DVec2::new(24.0, 0.0));
/// assert_eq!(window.to_grid(DVec2::new(40.2, 16.0)), DVec2::new(40.2 - 24.0, 16.0));
/// # Ok::<(), water_core::WaterError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FollowingWindow {
    size: GridSize,
    cell_size: f64,
    origin: I64Vec2,
}

impl FollowingWindow {
    /// A window of `size` cells `cell_size` metres wide, its corner at the world's origin.
    ///
    /// # Errors
    /// [`WaterError::NotPositive`] or [`WaterError::NotFinite`] for a bad `cell_size`.
    pub fn new(size: GridSize, cell_size: f64) -> Result<Self> {
        crate::error::positive("cell_size", cell_size)?;
        Ok(Self {
            size,
            cell_size,
            origin: I64Vec2::ZERO,
        })
    }

    /// The same window with its corner at world cell `origin`.
    ///
    /// # Errors
    /// [`WaterError::OutOfRange`] for a corner more than [`MAX_WINDOW_ORIGIN_CELLS`] cells from
    /// the world's origin.
    pub fn with_origin_cells(mut self, origin: I64Vec2) -> Result<Self> {
        for (name, value) in [("origin x", origin.x), ("origin y", origin.y)] {
            if value.unsigned_abs() as f64 > MAX_WINDOW_ORIGIN_CELLS {
                return Err(WaterError::OutOfRange {
                    name,
                    value: value as f64,
                    range: "within 1e12 cells of the world's origin",
                });
            }
        }
        self.origin = origin;
        Ok(self)
    }

    /// The grid's size, cells.
    #[must_use]
    pub fn size(&self) -> GridSize {
        self.size
    }

    /// A cell's side, m.
    #[must_use]
    pub fn cell_size(&self) -> f64 {
        self.cell_size
    }

    /// The world cell the grid's cell `(0, 0)` is.
    #[must_use]
    pub fn origin_cells(&self) -> I64Vec2 {
        self.origin
    }

    /// The world position of the grid's corner, m.
    #[must_use]
    pub fn origin(&self) -> DVec2 {
        self.origin.as_dvec2() * self.cell_size
    }

    /// A world position (m) as a position on the grid (m from its corner).
    #[must_use]
    pub fn to_grid(&self, world: DVec2) -> DVec2 {
        world - self.origin()
    }

    /// A position on the grid (m from its corner) as a world position (m).
    #[must_use]
    pub fn to_world(&self, grid: DVec2) -> DVec2 {
        grid + self.origin()
    }

    /// The cells the window must move by so that `focus` (world, m) lies in its centre cell
    /// `(width / 2, height / 2)`; zero while it does.
    ///
    /// # Errors
    /// [`WaterError::NotFinite`] for a focus that is not finite; [`WaterError::OutOfRange`]
    /// for one more than [`MAX_WINDOW_ORIGIN_CELLS`] cells from the world's origin.
    pub fn shift_for(&self, focus: DVec2) -> Result<I64Vec2> {
        let mut cell = [0_i64; 2];
        for (axis, (value, out)) in [focus.x, focus.y].into_iter().zip(&mut cell).enumerate() {
            let name = ["focus x", "focus y"][axis];
            crate::error::finite(name, value)?;
            let cells = (value / self.cell_size).floor();
            if cells.abs() > MAX_WINDOW_ORIGIN_CELLS {
                return Err(WaterError::OutOfRange {
                    name,
                    value,
                    range: "within 1e12 cells of the world's origin",
                });
            }
            *out = cells as i64;
        }
        let centre = I64Vec2::new(
            (self.size.width() / 2) as i64,
            (self.size.height() / 2) as i64,
        );
        Ok(I64Vec2::from_array(cell) - centre - self.origin)
    }

    /// Moves `water` and this window so that `focus` (world, m) lies in the window's centre
    /// cell, however far it went since the last call (one shift of many cells is the same as
    /// many shifts of one: cells that come in start still either way). Returns the shift,
    /// cells.
    ///
    /// # Errors
    /// As [`FollowingWindow::shift_for`]; the water is not moved then.
    pub fn follow(
        &mut self,
        water: &mut (impl GridWater + ?Sized),
        focus: DVec2,
    ) -> Result<I64Vec2> {
        self.follow_with(focus, |dx, dy| {
            water.shift_window(dx, dy);
            Ok(())
        })
    }

    /// [`FollowingWindow::follow`] for water that moves by other means (GPU water, a scene's
    /// backend): `shift(dx, dy)` moves it as [`GridWater::shift_window`] does, called only when
    /// the window moves, with each count clamped to the grid's side (a shift of a whole side or
    /// more brings in only still water). The window moves only if `shift` succeeds.
    ///
    /// # Errors
    /// As [`FollowingWindow::shift_for`], or what `shift` returns.
    pub fn follow_with<E: From<WaterError>>(
        &mut self,
        focus: DVec2,
        shift: impl FnOnce(isize, isize) -> std::result::Result<(), E>,
    ) -> std::result::Result<I64Vec2, E> {
        let by = self.shift_for(focus)?;
        if by != I64Vec2::ZERO {
            // Clamped so the count fits `isize` on any target.
            let clamp = |d: i64, side: usize| d.clamp(-(side as i64), side as i64) as isize;
            shift(
                clamp(by.x, self.size.width()),
                clamp(by.y, self.size.height()),
            )?;
            self.origin += by;
        }
        Ok(by)
    }
}
