//! Heights read back from the GPU at one moment, as a [`HeightSource`] floating bodies can ask.
//!
//! A body's forces need the water on the CPU; one readback per frame (or per few steps) is the
//! usual trade. The snapshot keeps the grid's geometry with the heights, so sampling answers
//! exactly what the CPU grid's [`HeightView`] would for the same heights.

use glam::Vec3;

use water_core::{GridSize, HeightSource, HeightView, SurfaceLevel, SurfaceSample};

use crate::error::GpuError;
use crate::gpu_grid::GpuGrid;
use crate::gpu_grid_water::GpuGridWater;

/// A grid's heights (m; classic mode: its integer units) after `step` steps, with its cell size.
#[derive(Debug, Clone, PartialEq)]
pub struct HeightSnapshot {
    size: GridSize,
    cell_size: f32,
    step: u64,
    heights: Vec<f32>,
}

impl HeightSnapshot {
    /// Heights of the grid, row-major.
    #[must_use]
    pub fn heights(&self) -> &[f32] {
        &self.heights
    }

    /// Steps the grid had taken when read.
    #[must_use]
    pub fn step(&self) -> u64 {
        self.step
    }

    /// The heights as a sampling view (nearest, bilinear, gradients, normals).
    #[must_use]
    pub fn view(&self) -> HeightView<'_> {
        HeightView::new(self.size, self.cell_size, &self.heights)
            .expect("a snapshot's heights match its grid, checked when read")
    }
}

impl HeightSource for HeightSnapshot {
    fn surface_at(&self, position: Vec3) -> Option<SurfaceSample> {
        self.view().surface_at(position)
    }

    fn level_at(&self, position: Vec3) -> Option<SurfaceLevel> {
        self.view().level_at(position)
    }
}

impl GpuGrid {
    /// Reads the current heights back (blocking) into a [`HeightSnapshot`].
    ///
    /// # Errors
    /// Readback failures, a lost device.
    pub fn height_snapshot(&self) -> Result<HeightSnapshot, GpuError> {
        let spec = self.spec();
        let heights = self.heights()?;
        // A readback of the wrong length would be a backend bug; refuse it rather than sample it.
        spec.size
            .check_len("GPU height readback", heights.len())
            .map_err(GpuError::from)?;
        Ok(HeightSnapshot {
            size: spec.size,
            cell_size: spec.params.cell_size() as f32,
            step: self.steps_taken(),
            heights,
        })
    }
}
