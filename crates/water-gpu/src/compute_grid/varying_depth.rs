//! Water of varying depth on the compute backend: the faces in a storage buffer (binding 7 of
//! `shaders/grid_step.wgsl`) and the step pipeline with `depth_enabled` set, so each step runs
//! the variable-coefficient stencil of `shaders/shared/depth_cell.wgsl` (CPU twin:
//! `crates/water-core/src/kernels/depth_step.rs`). The fused kernel is the five-point stencil
//! only, so steps over a depth are single dispatches. The dispersive model takes a depth map
//! through its own kernels (`spectral.rs`).

use water_core::Depth;

use super::ComputeGrid;
use crate::depth_faces::{face_texels, faces_for, DEPTH_ENABLED};
use crate::device_calls::{check_storage_bytes, storage_buffer, validated};
use crate::error::GpuError;
use crate::gpu_grid_water::GpuGridWater;
use crate::grid_core::DepthStore;
use crate::pipelines::compute_pipeline_with_constants;
use crate::shaders;

impl ComputeGrid {
    /// The wave model's faces and pipeline over `depth`.
    fn take_wave_depth(&mut self, depth: &Depth) -> Result<(), GpuError> {
        let faces = faces_for(&self.core.spec, self.storage, depth)?;
        let texels = face_texels(&faces);
        let bytes = size_of_val(texels.as_slice()) as u64;
        check_storage_bytes(&self.core.device, bytes)?;
        let device = self.core.device.clone();
        let (buffer, pipeline) = validated(&device, || {
            (
                storage_buffer(&device, "water depth faces", bytes),
                compute_pipeline_with_constants(
                    &device,
                    shaders::GRID_STEP,
                    "grid_step over depth",
                    "main",
                    &[(DEPTH_ENABLED, 1.0)],
                ),
            )
        })?;
        self.core
            .queue
            .write_buffer(&buffer, 0, bytemuck::cast_slice(&texels));
        self.faces = buffer;
        self.step_pipeline = pipeline;
        self.fused_pipeline = None;
        self.step_groups.clear();
        self.core.has_depth = true;
        Ok(())
    }
}

impl DepthStore for ComputeGrid {
    /// [`GpuGridWater::set_depth`] for the compute backend.
    fn take_depth(&mut self, depth: &Depth) -> Result<(), GpuError> {
        if let (Some(airy), Some(plan)) = (self.core.spec.dispersion, &mut self.spectral) {
            // The dispersive model: its own depth kernels (`spectral.rs`); the dry cells are
            // land as below.
            plan.set_depth(
                &self.core.device,
                &self.core.queue,
                &self.core.spec,
                &airy,
                depth,
            )?;
        } else {
            self.take_wave_depth(depth)?;
        }
        let dry = depth.land();
        self.core.land_parts.dry = (!dry.is_empty()).then_some(dry);
        let placed = self.core.land_parts.placed.clone();
        self.set_land(placed)
    }
}
