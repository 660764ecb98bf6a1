//! Grid water on either GPU backend (`water_gpu::GpuGrid`) as the scenes step it; its twin on
//! the CPU is `water/cpu_grid.rs`. Each call forwards to [`GpuGridWater`], which records the
//! backend's own passes.
//!
//! The traits are the boxed grid's, as [`crate::BackendGrid::Gpu`] holds it: a `GpuGrid` itself
//! answers to [`GpuGridWater`] alone, so code with both traits in scope never calls
//! ambiguously. On a `Box<GpuGrid>` with [`Water`] in scope, its methods are the ones called
//! (`backend()` gives a [`Backend`], errors are `SceneError`s); on `&GpuGrid` (`&**boxed`),
//! [`GpuGridWater`]'s.

use water_core::{ContactMasks, Depth, GridMode, HeightView, Impulse, LandMask};
use water_gpu::{GpuGrid, GpuGridWater};

use super::{GridOutputs, Water, WaterGrid};
use crate::backend::Backend;
use crate::error::SceneError;

impl Water for Box<GpuGrid> {
    type Impulse = Impulse;
    type Contacts = ContactMasks;

    fn backend(&self) -> Backend {
        GpuGrid::backend(self).into()
    }

    fn add_impulse(&mut self, impulse: &Impulse) -> Result<(), SceneError> {
        Ok(GpuGridWater::add_impulse(&mut **self, impulse)?)
    }

    fn step_many(&mut self, steps: u64) -> Result<(), SceneError> {
        Ok(GpuGridWater::step_many(&mut **self, steps)?)
    }

    fn step_frame(&mut self, steps: u64) -> Result<(), SceneError> {
        Ok(GpuGridWater::step_frame(&mut **self, steps)?)
    }

    fn step_with_contacts(&mut self, contacts: &ContactMasks) -> Result<(), SceneError> {
        Ok(GpuGridWater::step_with_contacts(&mut **self, contacts)?)
    }

    fn heights(&self) -> Result<Vec<f32>, SceneError> {
        Ok(GpuGridWater::heights(&**self)?)
    }
}

impl WaterGrid for Box<GpuGrid> {
    fn set_land(&mut self, land: LandMask) -> Result<(), SceneError> {
        Ok(GpuGridWater::set_land(&mut **self, land)?)
    }

    fn set_depth(&mut self, depth: &Depth) -> Result<(), SceneError> {
        Ok(GpuGridWater::set_depth(&mut **self, depth)?)
    }

    fn shift_window(&mut self, dx: isize, dy: isize) -> Result<(), SceneError> {
        Ok(GpuGridWater::shift_window(&mut **self, dx, dy)?)
    }

    fn heights_view<'a>(
        &'a self,
        _cell_size: f32,
        scratch: &'a mut Vec<f32>,
    ) -> Result<HeightView<'a>, SceneError> {
        // The grid's spec knows its own cell size.
        let spec = self.spec();
        *scratch = GpuGridWater::heights(&**self)?;
        Ok(HeightView::new(
            spec.size,
            spec.params.cell_size() as f32,
            scratch,
        )?)
    }

    fn classic_heights(&self) -> Result<Vec<i16>, SceneError> {
        Ok(GpuGridWater::classic_heights(&**self)?)
    }

    fn energy(&self) -> Option<f64> {
        None
    }

    fn outputs(&self) -> Result<GridOutputs, SceneError> {
        let cells = self.spec().size.cells();
        Ok(match self.spec().mode {
            GridMode::Signed => GridOutputs {
                heights: GpuGridWater::heights(&**self)?,
                channels: None,
                classic: None,
            },
            GridMode::Split => {
                let both = self.channels()?;
                let (p, n) = both.split_at(cells);
                GridOutputs {
                    heights: p.iter().zip(n).map(|(p, n)| p - n).collect(),
                    channels: Some((p.to_vec(), n.to_vec())),
                    classic: None,
                }
            }
            GridMode::Classic => {
                let classic = GpuGridWater::classic_heights(&**self)?;
                GridOutputs {
                    heights: classic.iter().map(|&v| f32::from(v)).collect(),
                    channels: None,
                    classic: Some(classic),
                }
            }
        })
    }
}
