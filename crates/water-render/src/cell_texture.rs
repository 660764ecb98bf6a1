//! One texel per grid cell, written from the CPU: the shared store of
//! [`super::HullMaskTexture`] and [`super::FoamTexture`] (`R32Float`), and of
//! [`super::CpuSurfaceTexture`] (`Rgba32Float`).

use water_core::GridSize;

use water_gpu::device_calls::texture_2d;
use water_gpu::GpuError;

#[derive(Debug)]
pub(super) struct CellTexture {
    texture: wgpu::Texture,
    view: wgpu::TextureView,
    size: GridSize,
    /// f32 values a texel: 1 (`R32Float`) or 4 (`Rgba32Float`).
    channels: usize,
}

impl CellTexture {
    /// Zero in each of `size` cells, one `R32Float` texel a cell.
    pub(super) fn new(device: &wgpu::Device, label: &str, size: GridSize) -> Self {
        Self::with_format(device, label, size, wgpu::TextureFormat::R32Float, 1)
    }

    /// Zero in each of `size` cells, one `Rgba32Float` texel a cell.
    pub(super) fn rgba(device: &wgpu::Device, label: &str, size: GridSize) -> Self {
        Self::with_format(device, label, size, wgpu::TextureFormat::Rgba32Float, 4)
    }

    fn with_format(
        device: &wgpu::Device,
        label: &str,
        size: GridSize,
        format: wgpu::TextureFormat,
        channels: usize,
    ) -> Self {
        let texture = texture_2d(
            device,
            label,
            (size.width() as u32, size.height() as u32),
            format,
            wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        );
        Self {
            view: texture.create_view(&Default::default()),
            texture,
            size,
            channels,
        }
    }

    pub(super) fn size(&self) -> GridSize {
        self.size
    }

    /// Replaces the texels with `cells` (row-major, one texel's channels per cell); `what` names
    /// them in the error.
    pub(super) fn write(
        &self,
        queue: &wgpu::Queue,
        cells: &[f32],
        what: &'static str,
    ) -> Result<(), GpuError> {
        if cells.len() != self.size.cells() * self.channels {
            return Err(GpuError::BadRenderSetting {
                what,
                value: cells.len().to_string(),
                requirement: if self.channels == 1 {
                    "one value per grid cell"
                } else {
                    "four values per grid cell"
                },
            });
        }
        queue.write_texture(
            self.texture.as_image_copy(),
            bytemuck::cast_slice(cells),
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some((self.size.width() * self.channels * 4) as u32),
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
