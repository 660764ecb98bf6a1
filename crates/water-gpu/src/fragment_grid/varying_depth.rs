//! The fragment grid over a varying depth: the faces in a texture and the step pipeline with
//! `depth_enabled` set. Twin of `compute_grid/varying_depth.rs`.

use water_core::Depth;

use super::FragmentGrid;
use crate::depth_faces::{face_texels, faces_for, DEPTH_ENABLED};
use crate::device_calls::{texture_2d, validated};
use crate::error::GpuError;
use crate::gpu_grid_water::GpuGridWater;
use crate::grid_core::DepthStore;
use crate::pipelines::full_screen_pipeline_with_constants;
use crate::shaders;
use crate::storage_format::StorageFormat;

/// An `Rgba32Float` texture of `(width, height)` texels holding `texels` row-major: the depth's
/// faces as the fragment step reads them.
pub(super) fn faces_texture(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    (width, height): (u32, u32),
    texels: &[[f32; 4]],
) -> wgpu::TextureView {
    let texture = texture_2d(
        device,
        "water depth faces",
        (width, height),
        wgpu::TextureFormat::Rgba32Float,
        wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
    );
    queue.write_texture(
        texture.as_image_copy(),
        bytemuck::cast_slice(texels),
        wgpu::TexelCopyBufferLayout {
            offset: 0,
            bytes_per_row: Some(width * 16),
            rows_per_image: None,
        },
        texture.size(),
    );
    texture.create_view(&Default::default())
}

impl DepthStore for FragmentGrid {
    /// [`GpuGridWater::set_depth`] for the fragment backend: the faces in a texture and the step
    /// pipeline with `depth_enabled` set (CPU twin: `crates/water-core/src/kernels/depth_step.rs`).
    fn take_depth(&mut self, depth: &Depth) -> Result<(), GpuError> {
        let faces = faces_for(&self.core.spec, StorageFormat::F32, depth)?;
        let texels = face_texels(&faces);
        let size = self.core.spec.size;
        let device = self.core.device.clone();
        let (view, pipeline) = validated(&device, || {
            (
                faces_texture(
                    &device,
                    &self.core.queue,
                    (size.width() as u32, size.height() as u32),
                    &texels,
                ),
                full_screen_pipeline_with_constants(
                    &device,
                    shaders::GRID_STEP_FRAGMENT,
                    "grid_step_fragment over depth",
                    "fs_main",
                    self.format,
                    &[(DEPTH_ENABLED, 1.0)],
                ),
            )
        })?;
        self.faces = view;
        self.step_pipeline = pipeline;
        self.core.has_depth = true;
        let dry = depth.land();
        self.core.land_parts.dry = (!dry.is_empty()).then_some(dry);
        let placed = self.core.land_parts.placed.clone();
        self.set_land(placed)
    }
}
