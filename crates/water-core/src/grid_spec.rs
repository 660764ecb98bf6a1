//! [`GridSpec`]: what a grid simulates, on any backend: size, physics, boundary, mode and model.

use crate::{
    AiryDispersion, Boundary, ClassicGrid, GridMode, GridSize, Result, StencilCoefficients,
    WaterError, WaveParams,
};

/// Size, physics, boundary and mode of a grid: what every backend simulates alike.
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
    /// The dispersive model's relation ([`crate::DispersiveGrid`], signed mode, periodic or
    /// absorbing edges, on the CPU); `None` for the wave model (the five-point stencil).
    pub dispersion: Option<AiryDispersion>,
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
            classic_shift: Some(crate::DEFAULT_CLASSIC_SHIFT),
            dispersion: None,
        }
    }

    /// The same spec stepped by the dispersive model under `airy` (see
    /// [`WaveParams::dispersive`] for its parameters).
    #[must_use]
    pub fn with_dispersion(mut self, airy: AiryDispersion) -> Self {
        self.dispersion = Some(airy);
        self
    }

    /// The same spec with another classic shift.
    #[must_use]
    pub fn with_classic_shift(mut self, shift: Option<u32>) -> Self {
        self.classic_shift = shift;
        self
    }

    /// Checks what the CPU grids would refuse: classic mode with another boundary than fixed or a
    /// shift outside `1..=15`. (The GPU backends add their own refusals.)
    ///
    /// # Errors
    /// [`WaterError::ClassicBoundary`], and what [`ClassicGrid::new`] refuses.
    pub fn check(&self) -> Result<()> {
        if self.dispersion.is_some() {
            if self.mode != GridMode::Signed {
                return Err(WaterError::ModeNotOffered {
                    mode: self.mode.name(),
                    model: "dispersive",
                    offered: "signed",
                });
            }
            if !matches!(self.boundary, Boundary::Periodic | Boundary::Absorbing) {
                return Err(WaterError::BoundaryNotOffered {
                    boundary: self.boundary.name(),
                    model: "dispersive",
                    offered: "periodic or absorbing",
                });
            }
        }
        if self.mode == GridMode::Classic {
            if self.boundary != Boundary::Fixed {
                return Err(WaterError::ClassicBoundary {
                    boundary: self.boundary.name(),
                });
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
