//! [`CpuGrid`]: grid water on the CPU reference, each mode in its own stepper; its twin on the
//! GPU is `water/gpu_grid.rs`.

use water_core::{
    ClassicGrid, ContactMasks, Depth, DispersiveGrid, GridMode, GridWater, HeightView, Impulse,
    LandMask, SignedGrid, SplitGrid, WaterError,
};
use water_gpu::GridSpec;

use super::{not_classic, GridOutputs, Water, WaterGrid};
use crate::backend::Backend;
use crate::error::SceneError;

/// Grid water on the CPU reference, in its mode's own stepper.
#[derive(Debug)]
pub enum CpuGrid {
    /// Signed mode.
    Signed(SignedGrid),
    /// Split mode.
    Split(SplitGrid),
    /// Classic mode.
    Classic(ClassicGrid),
    /// The dispersive model ([`GridSpec::dispersion`]).
    Dispersive(Box<DispersiveGrid>),
}

impl CpuGrid {
    /// Still water of `spec`, without land. Allocated fallibly: a grid too large for this
    /// process's memory is an error naming the bytes, not an abort.
    ///
    /// # Errors
    /// What [`GridSpec::check`] refuses; what the mode's constructor refuses (a classic grid
    /// with another boundary than fixed, memory).
    pub fn still(spec: GridSpec) -> Result<Self, SceneError> {
        spec.check()?;
        let params = spec.params;
        if let Some(airy) = spec.dispersion {
            return Ok(Self::Dispersive(Box::new(DispersiveGrid::new(
                spec.size,
                params.cell_size(),
                params.dt(),
                params.damping(),
                airy,
                spec.boundary,
            )?)));
        }
        Ok(match spec.mode {
            GridMode::Signed => {
                Self::Signed(SignedGrid::try_new(spec.size, params, spec.boundary)?)
            }
            GridMode::Split => Self::Split(SplitGrid::try_new(spec.size, params, spec.boundary)?),
            GridMode::Classic => Self::Classic(ClassicGrid::new(
                spec.size,
                params.cell_size(),
                spec.classic_shift,
            )?),
        })
    }

    /// The grid as the core's [`GridWater`].
    #[must_use]
    pub fn grid(&self) -> &dyn GridWater {
        match self {
            Self::Signed(g) => g,
            Self::Split(g) => g,
            Self::Classic(g) => g,
            Self::Dispersive(g) => g.as_ref(),
        }
    }

    /// The grid as the core's [`GridWater`], mutable.
    pub fn grid_mut(&mut self) -> &mut dyn GridWater {
        match self {
            Self::Signed(g) => g,
            Self::Split(g) => g,
            Self::Classic(g) => g,
            Self::Dispersive(g) => g.as_mut(),
        }
    }

    /// The heights as the grid holds them (no copy), for signed water and the dispersive model;
    /// `None` for split and classic water, whose heights are computed from what they hold.
    #[must_use]
    pub fn held_heights(&self) -> Option<&[f32]> {
        match self {
            Self::Signed(g) => Some(g.current()),
            Self::Dispersive(g) => Some(g.field().current()),
            Self::Split(_) | Self::Classic(_) => None,
        }
    }
}

impl Water for CpuGrid {
    type Impulse = Impulse;
    type Contacts = ContactMasks;

    fn backend(&self) -> Backend {
        Backend::Cpu
    }

    fn add_impulse(&mut self, impulse: &Impulse) -> Result<(), SceneError> {
        self.grid_mut().add_impulse(impulse);
        Ok(())
    }

    fn step_many(&mut self, steps: u64) -> Result<(), SceneError> {
        self.grid_mut().step_many(steps);
        Ok(())
    }

    fn step_with_contacts(&mut self, contacts: &ContactMasks) -> Result<(), SceneError> {
        Ok(self.grid_mut().step_with_contacts(contacts)?)
    }

    fn heights(&self) -> Result<Vec<f32>, SceneError> {
        Ok(self.grid().heights())
    }
}

impl WaterGrid for CpuGrid {
    fn set_land(&mut self, land: LandMask) -> Result<(), SceneError> {
        Ok(self.grid_mut().set_land(land)?)
    }

    fn set_depth(&mut self, depth: &Depth) -> Result<(), SceneError> {
        match self {
            Self::Signed(g) => g.set_depth(depth)?,
            Self::Split(g) => g.set_depth(depth)?,
            Self::Classic(_) => Err(WaterError::ClassicTakesNo { what: "depth" })?,
            Self::Dispersive(g) => g.set_depth(depth)?,
        }
        Ok(())
    }

    fn shift_window(&mut self, dx: isize, dy: isize) -> Result<(), SceneError> {
        self.grid_mut().shift_window(dx, dy);
        Ok(())
    }

    fn heights_view<'a>(
        &'a self,
        cell_size: f32,
        scratch: &'a mut Vec<f32>,
    ) -> Result<HeightView<'a>, SceneError> {
        match self {
            Self::Signed(g) => Ok(g.view()),
            Self::Dispersive(g) => Ok(g.view()),
            Self::Split(g) => {
                scratch.clear();
                scratch.extend(
                    g.positive()
                        .current()
                        .iter()
                        .zip(g.negative().current())
                        .map(|(p, n)| p - n),
                );
                Ok(HeightView::new(g.size(), cell_size, scratch)?)
            }
            Self::Classic(g) => {
                *scratch = g.heights();
                Ok(HeightView::new(g.size(), cell_size, scratch)?)
            }
        }
    }

    fn classic_heights(&self) -> Result<Vec<i16>, SceneError> {
        match self {
            Self::Classic(g) => Ok(g.current().to_vec()),
            Self::Signed(_) | Self::Dispersive(_) => Err(not_classic(GridMode::Signed)),
            Self::Split(_) => Err(not_classic(GridMode::Split)),
        }
    }

    fn energy(&self) -> Option<f64> {
        Some(self.grid().energy())
    }

    fn outputs(&self) -> Result<GridOutputs, SceneError> {
        Ok(match self {
            Self::Signed(g) => GridOutputs {
                heights: g.current().to_vec(),
                channels: None,
                classic: None,
            },
            Self::Dispersive(g) => GridOutputs {
                heights: g.field().current().to_vec(),
                channels: None,
                classic: None,
            },
            Self::Split(g) => GridOutputs {
                heights: g.heights(),
                channels: Some((
                    g.positive().current().to_vec(),
                    g.negative().current().to_vec(),
                )),
                classic: None,
            },
            Self::Classic(g) => GridOutputs {
                heights: g.heights(),
                channels: None,
                classic: Some(g.current().to_vec()),
            },
        })
    }
}
