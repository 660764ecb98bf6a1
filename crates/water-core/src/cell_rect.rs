//! [`CellRect`]: a rectangle of a grid's cells, such as the patch of water under a floating
//! body that is all its forces need.

use glam::Vec2;

use crate::error::{Result, WaterError};
use crate::size::GridSize;

/// Cells `[x0, x0 + width) x [y0, y0 + height)` of a grid: never empty once checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CellRect {
    /// First column.
    pub x0: usize,
    /// First row.
    pub y0: usize,
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
}

impl CellRect {
    /// Every cell of a grid of `size`.
    #[must_use]
    pub fn whole(size: GridSize) -> Self {
        Self {
            x0: 0,
            y0: 0,
            width: size.width(),
            height: size.height(),
        }
    }

    /// The cells whose values sampling anywhere within `radius` metres of `centre` (world
    /// metres, the grid from `(0, 0)` with cells `cell_size` wide) reads: the cells under the
    /// disc, one more all round for bilinear weights and one more for the central differences
    /// of normals, clipped to the grid. A disc wholly off the grid gets the grid cell nearest
    /// to it (sampling off the grid reads no cell, so any one serves).
    ///
    /// ```
    /// use glam::Vec2;
    /// use water_core::{CellRect, GridSize};
    /// let size = GridSize::new(64, 32)?;
    /// // 0.25 m about (1.0, 1.0) on 0.1 m cells: cells 7..=12 under it, 2 more each side.
    /// let rect = CellRect::around(size, 0.1, Vec2::new(1.0, 1.0), 0.25);
    /// assert_eq!((rect.x0, rect.width), (5, 10));
    /// // Clipped at the rim.
    /// let corner = CellRect::around(size, 0.1, Vec2::ZERO, 0.25);
    /// assert_eq!((corner.x0, corner.y0, corner.width, corner.height), (0, 0, 5, 5));
    /// # Ok::<(), water_core::WaterError>(())
    /// ```
    #[must_use]
    pub fn around(size: GridSize, cell_size: f32, centre: Vec2, radius: f32) -> Self {
        const HALO: f32 = 2.0;
        let (w, h) = (size.width() as f32, size.height() as f32);
        let lo = (centre - Vec2::splat(radius)) / cell_size - Vec2::splat(HALO);
        let hi = (centre + Vec2::splat(radius)) / cell_size + Vec2::splat(HALO);
        // Non-finite inputs clamp to the grid's first cell rather than to nothing.
        let clip = |v: f32, max: f32| {
            if v.is_nan() {
                0.0
            } else {
                v.floor().clamp(0.0, max - 1.0)
            }
        };
        let (x0, x1) = (clip(lo.x, w), clip(hi.x, w));
        let (y0, y1) = (clip(lo.y, h), clip(hi.y, h));
        Self {
            x0: x0 as usize,
            y0: y0 as usize,
            width: (x1 - x0) as usize + 1,
            height: (y1 - y0) as usize + 1,
        }
    }

    /// Number of cells.
    #[must_use]
    pub fn cells(&self) -> usize {
        self.width * self.height
    }

    /// Whether it holds cell `(x, y)`.
    #[must_use]
    pub fn contains(&self, x: usize, y: usize) -> bool {
        (self.x0..self.x0 + self.width).contains(&x)
            && (self.y0..self.y0 + self.height).contains(&y)
    }

    /// Whether it holds every cell of `other`.
    #[must_use]
    pub fn holds(&self, other: &Self) -> bool {
        other.x0 >= self.x0
            && other.y0 >= self.y0
            && other.x0 + other.width <= self.x0 + self.width
            && other.y0 + other.height <= self.y0 + self.height
    }

    /// Checks that it is not empty and lies inside a grid of `size`.
    ///
    /// # Errors
    /// [`WaterError::RectOutsideGrid`] naming the rectangle and the grid.
    pub fn check_inside(&self, size: GridSize) -> Result<()> {
        let inside = self.width > 0
            && self.height > 0
            && self
                .x0
                .checked_add(self.width)
                .is_some_and(|x1| x1 <= size.width())
            && self
                .y0
                .checked_add(self.height)
                .is_some_and(|y1| y1 <= size.height());
        if inside {
            Ok(())
        } else {
            Err(WaterError::RectOutsideGrid {
                x0: self.x0,
                y0: self.y0,
                width: self.width,
                height: self.height,
                grid_width: size.width(),
                grid_height: size.height(),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_disc_off_the_grid_or_not_finite_still_gets_one_cell_inside() {
        let size = GridSize::new(16, 8).expect("size");
        for centre in [
            Vec2::new(-100.0, -100.0),
            Vec2::new(1e9, 1e9),
            Vec2::NAN,
            Vec2::new(f32::INFINITY, 0.0),
        ] {
            let rect = CellRect::around(size, 0.5, centre, 1.0);
            rect.check_inside(size).expect("inside");
        }
        let rect = CellRect {
            x0: 10,
            y0: 0,
            width: 7,
            height: 1,
        };
        let err = rect.check_inside(size).expect_err("past the rim");
        assert!(err.to_string().contains("16 x 8 grid"), "{err}");
    }
}
