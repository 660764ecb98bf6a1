//! A hull mask uploaded from the CPU: for renderers whose bodies are rasterised on the CPU
//! (`water_buoyancy::rasterise_grid_mask`), where no [`crate::ContactMaskRenderer`] holds one
//! on the GPU.

use water_core::GridSize;

use crate::device_calls::texture_2d;
use crate::error::GpuError;

/// One `R32Float` texel per cell, non-zero where a hull cuts the water: what
/// [`crate::render::GridSurfaceRenderer::prepare`] takes as its hull mask.
#[derive(Debug)]
pub struct HullMaskTexture {
    texture: wgpu::Texture,
    view: wgpu::TextureView,
    size: GridSize,
}

impl HullMaskTexture {
    /// A mask of `size` cells, all open water.
    #[must_use]
    pub fn new(device: &wgpu::Device, size: GridSize) -> Self {
        let texture = texture_2d(
            device,
            "water hull mask",
            (size.width() as u32, size.height() as u32),
            wgpu::TextureFormat::R32Float,
            wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        );
        Self {
            view: texture.create_view(&Default::default()),
            texture,
            size,
        }
    }

    /// Replaces the mask with `cells` (row-major, one value per cell).
    ///
    /// # Errors
    /// [`GpuError::BadRenderSetting`] when `cells` is not one value per cell.
    pub fn write(&self, queue: &wgpu::Queue, cells: &[f32]) -> Result<(), GpuError> {
        if cells.len() != self.size.cells() {
            return Err(GpuError::BadRenderSetting {
                what: "hull mask cells",
                value: cells.len().to_string(),
                requirement: "one value per grid cell",
            });
        }
        queue.write_texture(
            self.texture.as_image_copy(),
            bytemuck::cast_slice(cells),
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(self.size.width() as u32 * 4),
                rows_per_image: None,
            },
            self.texture.size(),
        );
        Ok(())
    }

    /// The view to pass to [`crate::render::GridSurfaceRenderer::prepare`].
    #[must_use]
    pub fn view(&self) -> &wgpu::TextureView {
        &self.view
    }
}
