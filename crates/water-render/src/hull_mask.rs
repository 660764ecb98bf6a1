//! A hull mask uploaded from the CPU: for renderers whose bodies are rasterised on the CPU
//! (`water_buoyancy::rasterise_grid_mask`), where no [`water_gpu::ContactMaskRenderer`] holds one
//! on the GPU.

use water_core::GridSize;

use super::cell_texture::CellTexture;
use water_gpu::GpuError;

/// One `R32Float` texel per cell, non-zero where a hull cuts the water: what
/// [`crate::GridSurfaceRenderer::prepare`] takes as its hull mask.
#[derive(Debug)]
pub struct HullMaskTexture(CellTexture);

impl HullMaskTexture {
    /// A mask of `size` cells, all open water.
    #[must_use]
    pub fn new(device: &wgpu::Device, size: GridSize) -> Self {
        Self(CellTexture::new(device, "water hull mask", size))
    }

    /// Replaces the mask with `cells` (row-major, one value per cell).
    ///
    /// # Errors
    /// [`GpuError::BadRenderSetting`] when `cells` is not one value per cell.
    pub fn write(&self, queue: &wgpu::Queue, cells: &[f32]) -> Result<(), GpuError> {
        self.0.write(queue, cells, "hull mask cells")
    }

    /// The view to pass to [`crate::GridSurfaceRenderer::prepare`].
    #[must_use]
    pub fn view(&self) -> &wgpu::TextureView {
        self.0.view()
    }
}
