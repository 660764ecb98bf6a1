//! What a GPU grid simulates: the same description the CPU grids are built from.

use water_core::{Boundary, ClassicGrid, GridMode, GridSize, StencilCoefficients, WaveParams};

use crate::error::GpuError;
use crate::storage::StorageFormat;

/// Size, physics, boundary, mode and storage format of a GPU grid.
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
    /// How the compute backend stores cells ([`StorageFormat::F32`] unless asked otherwise).
    /// [`StorageFormat::F16`] is offered for signed and split grids on the compute backend; the
    /// fragment backend and classic grids refuse it. The CPU grids always compute in f32.
    pub storage: StorageFormat,
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
            storage: StorageFormat::F32,
        }
    }

    /// The same spec with another storage format.
    #[must_use]
    pub fn with_storage(mut self, storage: StorageFormat) -> Self {
        self.storage = storage;
        self
    }

    /// The same spec with another classic shift.
    #[must_use]
    pub fn with_classic_shift(mut self, shift: Option<u32>) -> Self {
        self.classic_shift = shift;
        self
    }

    /// Checks what the CPU grids would refuse, and f16 storage of a classic grid.
    ///
    /// # Errors
    /// [`GpuError::Unsupported`] for classic mode with another boundary than fixed or with f16
    /// storage, [`GpuError::Invalid`] for a classic shift outside `1..=15`.
    pub fn check(&self) -> Result<(), GpuError> {
        if self.mode == GridMode::Classic {
            if self.storage != StorageFormat::F32 {
                // Classic cells are i16 integers whose wrap-around is part of the contract; a
                // float format cannot hold them bit for bit.
                return Err(GpuError::Unsupported(format!(
                    "{} storage is not offered for classic grids, which store i16 cells; \
                     use signed or split mode",
                    self.storage
                )));
            }
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
