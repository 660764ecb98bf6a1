//! Land: cells where there is no water. They are zero after every step, so waves reflect off
//! them as off a fixed boundary.

use crate::error::{Result, WaterError};
use crate::size::GridSize;

/// A per-cell land mask, stored both as flags and as horizontal runs so that clearing the land
/// after a step touches only land cells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LandMask {
    size: GridSize,
    is_land: Vec<bool>,
    /// `(start, end)` index ranges of consecutive land cells within one row, in row order.
    runs: Vec<(usize, usize)>,
    /// `runs[row_runs[y]..row_runs[y + 1]]` are the runs of row `y`.
    row_runs: Vec<usize>,
}

impl LandMask {
    /// A mask with no land.
    #[must_use]
    pub fn empty(size: GridSize) -> Self {
        Self {
            size,
            is_land: vec![false; size.cells()],
            runs: Vec::new(),
            row_runs: vec![0; size.height() + 1],
        }
    }

    /// A mask from one flag per cell, row-major (`true` = land).
    ///
    /// # Errors
    /// [`WaterError::SizeMismatch`] if `cells.len() != width * height`.
    pub fn from_cells(size: GridSize, cells: Vec<bool>) -> Result<Self> {
        size.check_len("land mask", cells.len())?;
        let mut mask = Self {
            size,
            is_land: cells,
            runs: Vec::new(),
            row_runs: Vec::new(),
        };
        mask.rebuild_runs();
        Ok(mask)
    }

    /// Marks the rectangle `[x0, x1) x [y0, y1)` (cells) as land. Parts outside the grid are
    /// clipped, so a rectangle that only partly overlaps the grid is fine.
    ///
    /// # Errors
    /// [`WaterError::EmptyRect`] if `x0 >= x1` or `y0 >= y1`.
    ///
    /// ```
    /// use water_core::{GridSize, LandMask};
    /// let mut land = LandMask::empty(GridSize::new(16, 16)?);
    /// land.add_rect(0, 0, 4, 100)?; // clipped to the grid's 16 rows
    /// assert_eq!(land.land_cells(), 64);
    /// # Ok::<(), water_core::WaterError>(())
    /// ```
    pub fn add_rect(&mut self, x0: usize, y0: usize, x1: usize, y1: usize) -> Result<()> {
        if x0 >= x1 || y0 >= y1 {
            return Err(WaterError::EmptyRect { x0, y0, x1, y1 });
        }
        let (w, h) = (self.size.width(), self.size.height());
        for y in y0.min(h)..y1.min(h) {
            let row = &mut self.is_land[y * w..(y + 1) * w];
            row[x0.min(w)..x1.min(w)].fill(true);
        }
        self.rebuild_runs();
        Ok(())
    }

    /// The cells that are land in `self` or in `other` (the land set by hand and a depth's dry
    /// cells, say).
    ///
    /// # Errors
    /// [`WaterError::SizeMismatch`] for masks of different grids.
    pub fn union(&self, other: &LandMask) -> Result<LandMask> {
        self.size.check_len("land mask", other.is_land.len())?;
        let cells = self
            .is_land
            .iter()
            .zip(&other.is_land)
            .map(|(&a, &b)| a || b)
            .collect();
        Self::from_cells(self.size, cells)
    }

    /// Grid the mask belongs to.
    #[must_use]
    pub fn size(&self) -> GridSize {
        self.size
    }

    /// True if cell `(x, y)` is land. Cells outside the grid are not land.
    #[must_use]
    pub fn is_land(&self, x: usize, y: usize) -> bool {
        x < self.size.width() && y < self.size.height() && self.is_land[self.size.index(x, y)]
    }

    /// One flag per cell, row-major.
    #[must_use]
    pub fn cells(&self) -> &[bool] {
        &self.is_land
    }

    /// Number of land cells.
    #[must_use]
    pub fn land_cells(&self) -> usize {
        self.runs.iter().map(|(s, e)| e - s).sum()
    }

    /// True if there is no land at all.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }

    /// Sets every land cell of `field` to 0.
    pub(crate) fn clear<T: Copy + Default>(&self, field: &mut [T]) {
        for &(start, end) in &self.runs {
            field[start..end].fill(T::default());
        }
    }

    /// Sets the land cells of row `y` to 0; `row` is that row of a field.
    #[inline]
    pub(crate) fn clear_row<T: Copy + Default>(&self, y: usize, row: &mut [T]) {
        let base = y * self.size.width();
        for &(start, end) in &self.runs[self.row_runs[y]..self.row_runs[y + 1]] {
            row[start - base..end - base].fill(T::default());
        }
    }

    /// Moves the mask with a window shift: new cell (x, y) takes old cell (x + dx, y + dy);
    /// cells from outside the old window are water (as [`crate::GridWater::shift_window`] moves
    /// a grid's land).
    pub fn shift(&mut self, dx: isize, dy: isize) {
        // No land moves nowhere: the open sea's following grids shift every step.
        if self.is_empty() {
            return;
        }
        crate::window::shift_cells(&mut self.is_land, self.size, dx, dy, false);
        self.rebuild_runs();
    }

    fn rebuild_runs(&mut self) {
        self.runs.clear();
        self.row_runs.clear();
        let w = self.size.width();
        for (y, row) in self.is_land.chunks_exact(w).enumerate() {
            self.row_runs.push(self.runs.len());
            let mut x = 0;
            while x < w {
                if row[x] {
                    let start = x;
                    while x < w && row[x] {
                        x += 1;
                    }
                    self.runs.push((y * w + start, y * w + x));
                } else {
                    x += 1;
                }
            }
        }
        self.row_runs.push(self.runs.len());
    }
}
