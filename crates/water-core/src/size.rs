//! Grid dimensions and their limits.

use crate::error::{Result, WaterError};

/// Smallest supported grid edge, in cells: a fixed boundary needs one interior cell.
pub const MIN_GRID_DIM: usize = 3;
/// Largest supported grid edge, in cells (2^16), the texture limit of most GPUs times four.
pub const MAX_GRID_DIM: usize = 65_536;
/// Largest supported number of cells (2^30): two f32 buffers of this size already take 8 GiB.
pub const MAX_GRID_CELLS: usize = 1 << 30;

/// Validated grid dimensions: `width` cells along x, `height` cells along y, row-major.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GridSize {
    width: usize,
    height: usize,
}

impl GridSize {
    /// Checks the dimensions against [`MIN_GRID_DIM`], [`MAX_GRID_DIM`] and [`MAX_GRID_CELLS`].
    ///
    /// # Errors
    /// [`WaterError::GridDimension`] or [`WaterError::TooManyCells`].
    ///
    /// ```
    /// use water_core::GridSize;
    /// assert_eq!(GridSize::new(256, 128)?.cells(), 32_768);
    /// assert!(GridSize::new(0, 128).is_err());
    /// # Ok::<(), water_core::WaterError>(())
    /// ```
    pub fn new(width: usize, height: usize) -> Result<Self> {
        for (axis, value) in [("width", width), ("height", height)] {
            if !(MIN_GRID_DIM..=MAX_GRID_DIM).contains(&value) {
                return Err(WaterError::GridDimension {
                    axis,
                    value,
                    min: MIN_GRID_DIM,
                    max: MAX_GRID_DIM,
                });
            }
        }
        let cells = width.saturating_mul(height);
        if cells > MAX_GRID_CELLS {
            return Err(WaterError::TooManyCells {
                width,
                height,
                cells,
                max_cells: MAX_GRID_CELLS,
            });
        }
        Ok(Self { width, height })
    }

    /// Cells along x.
    #[must_use]
    pub fn width(&self) -> usize {
        self.width
    }

    /// Cells along y.
    #[must_use]
    pub fn height(&self) -> usize {
        self.height
    }

    /// `width * height`.
    #[must_use]
    pub fn cells(&self) -> usize {
        self.width * self.height
    }

    /// Row-major index of cell `(x, y)`: `y * width + x`.
    #[must_use]
    pub fn index(&self, x: usize, y: usize) -> usize {
        y * self.width + x
    }

    /// Checks that a per-cell buffer has exactly one value per cell.
    ///
    /// # Errors
    /// [`WaterError::SizeMismatch`] naming `what`.
    pub fn check_len(&self, what: &'static str, len: usize) -> Result<()> {
        if len == self.cells() {
            Ok(())
        } else {
            Err(WaterError::SizeMismatch {
                what,
                width: self.width,
                height: self.height,
                expected: self.cells(),
                actual: len,
            })
        }
    }
}
