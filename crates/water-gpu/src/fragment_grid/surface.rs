//! The surface texture of [`FragmentGrid`]: normals and heights of the current level
//! (`shaders/surface_normals.wgsl`, one full-screen pass). Twin of `compute_grid/surface.rs`.

use water_core::GridMode;

use super::FragmentGrid;
use crate::device_calls::{bind_numbered, made_on_first_use};
use crate::error::GpuError;
use crate::grid_core::SurfaceStore;
use crate::normal_height::{NormalHeightTexture, NORMAL_HEIGHT_FORMAT};
use crate::pipelines::{full_screen_pass, full_screen_pipeline};
use crate::shaders;
use crate::storage::StorageFormat;

impl SurfaceStore for FragmentGrid {
    /// Records the surface update (as [`FragmentGrid::update_normal_height`](crate::GpuGridWater::update_normal_height)) into the caller's
    /// encoder and returns the texture's view. **Records only**: the pass reads the level that
    /// is current at this point of the recording, so record it after the frame's steps.
    ///
    /// # Errors
    /// [`GpuError::Validation`] if the pipeline is refused (on first use).
    fn encode_surface(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
    ) -> Result<&wgpu::TextureView, GpuError> {
        let (mode, current) = (self.core.spec.mode, self.core.levels.current());
        let device = self.core.device.clone();
        let pipeline = made_on_first_use(&device, &mut self.surface_pipeline, || {
            full_screen_pipeline(
                &device,
                shaders::SURFACE_NORMALS,
                "surface_normals",
                NormalHeightTexture::fragment_entry(mode),
                NORMAL_HEIGHT_FORMAT,
            )
        })?;
        let core = &mut self.core;
        let surface = core.surface.get_or_insert_with(|| {
            NormalHeightTexture::new(&device, &core.spec, StorageFormat::F32, false)
        });
        let field_binding = if mode == GridMode::Classic { 5 } else { 4 };
        let group = bind_numbered(
            &device,
            &pipeline.get_bind_group_layout(0),
            "water surface",
            [
                (0, surface.uniforms.as_entire_binding()),
                (
                    field_binding,
                    wgpu::BindingResource::TextureView(&self.views[current]),
                ),
            ],
        );
        full_screen_pass(encoder, &surface.view, pipeline, &group);
        Ok(&surface.view)
    }
}
