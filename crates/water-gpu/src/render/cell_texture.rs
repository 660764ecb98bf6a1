//! One `R32Float` texel per grid cell, written from the CPU: the shared store of
//! [`super::HullMaskTexture`] and [`super::FoamTexture`].

use water_core::GridSize;

use crate::device_calls::texture_2d;
use crate::error::GpuError;

#[derive(Debug)]
pub(super) struct CellTexture {
    texture: wgpu::Texture,
    view: wgpu::TextureView,
    size: GridSize,
}

impl CellTexture {
    /// Zero in each of `size` cells.
    pub(super) fn new(device: &wgpu::Device, label: &str, size: GridSize) -> Self {
        let texture = texture_2d(
            device,
            label,
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

    pub(super) fn size(&self) -> GridSize {
        self.size
    }

    /// Replaces the texels with `cells` (row-major, one per cell); `what` names them in the
    /// error.
    pub(super) fn write(
        &self,
        queue: &wgpu::Queue,
        cells: &[f32],
        what: &'static str,
    ) -> Result<(), GpuError> {
        if cells.len() != self.size.cells() {
            return Err(GpuError::BadRenderSetting {
                what,
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

    pub(super) fn view(&self) -> &wgpu::TextureView {
        &self.view
    }
}
