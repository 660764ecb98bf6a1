//! The surface texture of [`ComputeGrid`]: normals and heights of the current level, drawn by
//! the renderers (`shaders/surface_normals.wgsl`, one compute pass).

use super::{ComputeGrid, TILE};
use crate::device_calls::{bind_numbered, made_on_first_use, record_compute_pass};
use crate::error::GpuError;
use crate::grid_core::SurfaceStore;
use crate::normal_height::NormalHeightTexture;
use crate::pipelines::compute_pipeline;
use crate::shaders;

impl SurfaceStore for ComputeGrid {
    /// [`GpuGridWater::encode_update_normal_height`](crate::GpuGridWater::encode_update_normal_height):
    /// the pass recorded, its pipeline and texture made on first use.
    fn encode_surface(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
    ) -> Result<&wgpu::TextureView, GpuError> {
        let device = self.core.device.clone();
        let pipeline = made_on_first_use(&device, &mut self.surface_pipeline, || {
            compute_pipeline(&device, shaders::SURFACE_NORMALS, "surface_normals", "main")
        })?;
        let (field, size) = (
            &self.fields[self.core.levels.current()],
            self.core.spec.size,
        );
        let core = &mut self.core;
        let surface = core.surface.get_or_insert_with(|| {
            NormalHeightTexture::new(&device, &core.spec, self.storage, true)
        });
        // One field buffer, seen as f32 (1), i32 (2) and packed f16 (6) words: the uniforms say
        // which view the pass reads.
        let field = field.as_entire_binding();
        let group = bind_numbered(
            &device,
            &pipeline.get_bind_group_layout(0),
            "water surface",
            [
                (0, surface.uniforms.as_entire_binding()),
                (1, field.clone()),
                (2, field.clone()),
                (6, field),
                (3, wgpu::BindingResource::TextureView(&surface.view)),
            ],
        );
        record_compute_pass(
            encoder,
            "water normal and height",
            pipeline,
            [&group],
            [
                (size.width() as u32).div_ceil(TILE),
                (size.height() as u32).div_ceil(TILE),
                1,
            ],
        );
        Ok(&surface.view)
    }
}
