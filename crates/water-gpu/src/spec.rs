//! What a GPU grid simulates: the same description the CPU grids are built from.

use water_core::{Boundary, ClassicGrid, GridMode, GridSize, StencilCoefficients, WaveParams};

use crate::error::GpuError;

/// Size, physics, boundary and mode of a GPU grid.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GridSpec {
    /// Grid size.
    pub size: GridSize,
    /// Physical parameters (classic mode steps at `a = 1/2` whatever they say).
    pub params: WaveParams,
    /// Edge treatment (classic mode: fixed only).
    pub boundary: Boundary,
    /// Stepper.
    pub mode: GridMode,
    /// Classic damping shift `k` in `1..=15` (`None`: undamped); ignored by other modes.
    pub classic_shift: Option<u32>,
}

impl GridSpec {
    /// A spec with the classic shift at its default (5).
    #[must_use]
    pub fn new(size: GridSize, params: WaveParams, boundary: Boundary, mode: GridMode) -> Self {
        Self {
            size,
            params,
            boundary,
            mode,
            classic_shift: Some(water_core::DEFAULT_CLASSIC_SHIFT),
        }
    }

    /// The same spec with another classic shift.
    #[must_use]
    pub fn with_classic_shift(mut self, shift: Option<u32>) -> Self {
        self.classic_shift = shift;
        self
    }

    /// Checks what the CPU grids would refuse.
    ///
    /// # Errors
    /// [`GpuError::Unsupported`] for classic mode with another boundary than fixed,
    /// [`GpuError::Invalid`] for a classic shift outside `1..=15`.
    pub fn check(&self) -> Result<(), GpuError> {
        if self.mode == GridMode::Classic {
            if self.boundary != Boundary::Fixed {
                return Err(water_core::WaterError::ClassicBoundary {
                    boundary: self.boundary.name(),
                }
                .into());
            }
            ClassicGrid::new(self.size, self.params.cell_size(), self.classic_shift)?;
        }
        Ok(())
    }

    /// The stencil coefficients the shaders use (the CPU grids' own).
    #[must_use]
    pub fn coefficients(&self) -> StencilCoefficients {
        self.params.coefficients()
    }
}
