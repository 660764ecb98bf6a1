//! Sampling a height field at world positions: heights, gradients and normals.
//! GPU twin of the cell normals: `shaders/surface_normals.wgsl`.
//!
//! The grid covers `[0, W*h) x [0, H*h)` in world units (metres); cell `(x, y)` is centred at
//! `((x + 0.5) h, (y + 0.5) h)`. Height is along +z, so a flat surface has normal `(0, 0, 1)`.
//! Outside the grid every query returns `None`.
//!
//! A view may hold only a patch of the grid's cells ([`HeightView::patch`]): sampling is then
//! the whole grid's wherever it reads only the patch's cells, bit for bit, which is what a body
//! or a point query needs (`CellRect::around`); a cell outside the patch reads the patch's
//! nearest cell.

use glam::{Vec2, Vec3};

use crate::cell_rect::CellRect;
use crate::error::Result;
use crate::size::GridSize;

/// A borrowed height field (the whole grid or a patch of it) with its cell size: what sampling
/// reads.
#[derive(Debug, Clone, Copy)]
pub struct HeightView<'a> {
    size: GridSize,
    cell_size: f32,
    heights: &'a [f32],
    /// The cells `heights` holds: the whole grid unless a patch.
    patch: CellRect,
}

impl<'a> HeightView<'a> {
    /// Wraps `heights` (row-major, one per cell, metres) of a grid with cells `cell_size` metres
    /// wide.
    ///
    /// # Errors
    /// [`crate::WaterError::SizeMismatch`] if `heights` does not match `size`;
    /// [`crate::WaterError::NotPositive`] / [`crate::WaterError::NotFinite`] for a bad
    /// `cell_size`.
    ///
    /// ```
    /// use glam::Vec2;
    /// use water_core::{GridSize, HeightView};
    /// let size = GridSize::new(4, 4)?;
    /// let heights: Vec<f32> = (0..16).map(|i| (i % 4) as f32).collect(); // z = x
    /// let view = HeightView::new(size, 0.5, &heights)?;
    /// assert_eq!(view.nearest(Vec2::new(0.3, 0.3)), Some(0.0));
    /// assert_eq!(view.bilinear(Vec2::new(0.5, 0.5)), Some(0.5)); // halfway between x = 0 and 1
    /// assert_eq!(view.bilinear(Vec2::new(-0.1, 0.5)), None);
    /// # Ok::<(), water_core::WaterError>(())
    /// ```
    pub fn new(size: GridSize, cell_size: f32, heights: &'a [f32]) -> Result<Self> {
        crate::error::positive("cell_size", f64::from(cell_size))?;
        size.check_len("height field", heights.len())?;
        Ok(Self {
            size,
            cell_size,
            heights,
            patch: CellRect::whole(size),
        })
    }

    /// Wraps the heights of the cells in `patch` (row-major within it, metres) of a grid of
    /// `size`: sampling reads the grid's geometry (its extent, its rim) and these cells.
    ///
    /// # Errors
    /// [`crate::WaterError::RectOutsideGrid`] for a patch not inside the grid;
    /// [`crate::WaterError::SizeMismatch`] if `heights` does not hold one value per patch cell;
    /// a bad `cell_size` as [`HeightView::new`].
    ///
    /// ```
    /// use glam::Vec2;
    /// use water_core::{CellRect, GridSize, HeightView};
    /// let size = GridSize::new(8, 8)?;
    /// let whole: Vec<f32> = (0..64).map(|i| (i % 8) as f32 * 0.1).collect();
    /// let rect = CellRect { x0: 2, y0: 3, width: 4, height: 4 };
    /// let w = &whole;
    /// let cells: Vec<f32> = (3..7).flat_map(|y| (2..6).map(move |x| w[y * 8 + x])).collect();
    /// let patch = HeightView::patch(size, 1.0, rect, &cells)?;
    /// let full = HeightView::new(size, 1.0, &whole)?;
    /// let p = Vec2::new(4.2, 4.9);
    /// assert_eq!(patch.bilinear(p), full.bilinear(p));
    /// assert_eq!(patch.normal(p), full.normal(p));
    /// # Ok::<(), water_core::WaterError>(())
    /// ```
    pub fn patch(
        size: GridSize,
        cell_size: f32,
        patch: CellRect,
        heights: &'a [f32],
    ) -> Result<Self> {
        crate::error::positive("cell_size", f64::from(cell_size))?;
        patch.check_inside(size)?;
        let cells = patch.cells();
        if heights.len() != cells {
            return Err(crate::WaterError::SizeMismatch {
                what: "height patch",
                width: patch.width,
                height: patch.height,
                expected: cells,
                actual: heights.len(),
            });
        }
        Ok(Self {
            size,
            cell_size,
            heights,
            patch,
        })
    }

    /// The cells the view holds: the whole grid unless made by [`HeightView::patch`].
    #[must_use]
    pub fn cells_held(&self) -> CellRect {
        self.patch
    }

    /// For sizes and cell sizes a grid type has already validated.
    pub(crate) fn from_validated(size: GridSize, cell_size: f32, heights: &'a [f32]) -> Self {
        debug_assert_eq!(heights.len(), size.cells());
        Self {
            size,
            cell_size,
            heights,
            patch: CellRect::whole(size),
        }
    }

    /// Grid size.
    #[must_use]
    pub fn size(&self) -> GridSize {
        self.size
    }

    /// Cell size, metres.
    #[must_use]
    pub fn cell_size(&self) -> f32 {
        self.cell_size
    }

    /// World extent of the grid, metres: `(W*h, H*h)`.
    #[must_use]
    pub fn extent(&self) -> Vec2 {
        Vec2::new(self.size.width() as f32, self.size.height() as f32) * self.cell_size
    }

    /// The height of cell `(x, y)`; outside a patch, of the patch's nearest cell (for the
    /// whole grid the clamps change nothing).
    fn at(&self, x: usize, y: usize) -> f32 {
        let p = &self.patch;
        let px = x.clamp(p.x0, p.x0 + p.width - 1) - p.x0;
        let py = y.clamp(p.y0, p.y0 + p.height - 1) - p.y0;
        self.heights[py * p.width + px]
    }

    /// Position in cell units (cell centres at integers), if `world` is inside the grid.
    fn cell_coords(&self, world: Vec2) -> Option<Vec2> {
        let e = self.extent();
        let inside = world.x >= 0.0 && world.y >= 0.0 && world.x < e.x && world.y < e.y;
        inside.then(|| world / self.cell_size - Vec2::splat(0.5))
    }

    /// Height (m) of cell `(x, y)` of the grid (outside a patch: of its nearest held cell).
    ///
    /// # Panics
    /// If `(x, y)` is outside the grid.
    #[must_use]
    pub fn cell(&self, x: usize, y: usize) -> f32 {
        assert!(
            x < self.size.width() && y < self.size.height(),
            "cell ({x}, {y}) is outside the {} x {} grid",
            self.size.width(),
            self.size.height()
        );
        self.at(x, y)
    }

    /// Height (m) of the cell containing `world`.
    #[must_use]
    pub fn nearest(&self, world: Vec2) -> Option<f32> {
        let e = self.extent();
        if !(world.x >= 0.0 && world.y >= 0.0 && world.x < e.x && world.y < e.y) {
            return None;
        }
        let c = world / self.cell_size;
        let x = (c.x as usize).min(self.size.width() - 1);
        let y = (c.y as usize).min(self.size.height() - 1);
        Some(self.at(x, y))
    }

    /// Height (m) interpolated bilinearly between the four nearest cell centres; within half a
    /// cell of the rim the edge cells' values are held.
    #[must_use]
    pub fn bilinear(&self, world: Vec2) -> Option<f32> {
        let c = self.cell_coords(world)?;
        Some(self.bilinear_cells(c, |x, y| self.at(x, y)))
    }

    fn bilinear_cells(&self, c: Vec2, value: impl Fn(usize, usize) -> f32) -> f32 {
        let max = Vec2::new(
            (self.size.width() - 1) as f32,
            (self.size.height() - 1) as f32,
        );
        let c = c.clamp(Vec2::ZERO, max);
        let (x0, y0) = (c.x.floor() as usize, c.y.floor() as usize);
        let (x1, y1) = (
            (x0 + 1).min(self.size.width() - 1),
            (y0 + 1).min(self.size.height() - 1),
        );
        let (tx, ty) = (c.x - x0 as f32, c.y - y0 as f32);
        let top = value(x0, y0) * (1.0 - tx) + value(x1, y0) * tx;
        let bottom = value(x0, y1) * (1.0 - tx) + value(x1, y1) * tx;
        top * (1.0 - ty) + bottom * ty
    }

    /// Gradient `(dz/dx, dz/dy)` (dimensionless, m per m) at cell `(x, y)`: central differences
    /// over two cells, one-sided at the rim.
    #[must_use]
    pub fn cell_gradient(&self, x: usize, y: usize) -> Vec2 {
        let (w, h) = (self.size.width(), self.size.height());
        let diff =
            |lo: usize, hi: usize, a: f32, b: f32| (b - a) / ((hi - lo) as f32 * self.cell_size);
        let (xl, xr) = (x.saturating_sub(1), (x + 1).min(w - 1));
        let (yl, yr) = (y.saturating_sub(1), (y + 1).min(h - 1));
        Vec2::new(
            diff(xl, xr, self.at(xl, y), self.at(xr, y)),
            diff(yl, yr, self.at(x, yl), self.at(x, yr)),
        )
    }

    /// Unit normal of cell `(x, y)`: `normalize(-dz/dx, -dz/dy, 1)` from [`Self::cell_gradient`].
    /// GPU twin: `shaders/surface_normals.wgsl`.
    #[must_use]
    pub fn cell_normal(&self, x: usize, y: usize) -> Vec3 {
        let g = self.cell_gradient(x, y);
        Vec3::new(-g.x, -g.y, 1.0).normalize()
    }

    /// Gradient at a world position, bilinearly interpolated from the cells' gradients.
    #[must_use]
    pub fn gradient(&self, world: Vec2) -> Option<Vec2> {
        let c = self.cell_coords(world)?;
        let gx = self.bilinear_cells(c, |x, y| self.cell_gradient(x, y).x);
        let gy = self.bilinear_cells(c, |x, y| self.cell_gradient(x, y).y);
        Some(Vec2::new(gx, gy))
    }

    /// Unit surface normal at a world position: `normalize(-dz/dx, -dz/dy, 1)`.
    #[must_use]
    pub fn normal(&self, world: Vec2) -> Option<Vec3> {
        self.gradient(world)
            .map(|g| Vec3::new(-g.x, -g.y, 1.0).normalize())
    }
}
