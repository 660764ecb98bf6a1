//! The fragment grid's levels between host and device: writes of whole textures and their
//! readback without row padding. Twin of `compute_grid/level_io.rs`.

use super::FragmentGrid;
use crate::error::GpuError;
use crate::readback::read_texture;

/// Bytes per texel of a field format.
pub(super) fn texel_bytes(format: wgpu::TextureFormat) -> u32 {
    if format == wgpu::TextureFormat::Rg32Float {
        8
    } else {
        4
    }
}

impl FragmentGrid {
    pub(super) fn write_r32(&self, texture: &wgpu::Texture, bytes: &[u8]) {
        let size = self.core.spec.size;
        self.core.queue.write_texture(
            texture.as_image_copy(),
            bytes,
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(size.width() as u32 * 4),
                rows_per_image: None,
            },
            texture.size(),
        );
    }

    pub(super) fn write_field(&self, index: usize, bytes: &[u8]) {
        let texture = &self.textures[index];
        self.core.queue.write_texture(
            texture.as_image_copy(),
            bytes,
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(texture.width() * texel_bytes(self.format)),
                rows_per_image: None,
            },
            texture.size(),
        );
    }

    /// Reads texture `index` back, without row padding.
    pub(super) fn read_texture(&self, index: usize) -> Result<Vec<u8>, GpuError> {
        read_texture(
            &self.core.device,
            &self.core.queue,
            &self.textures[index],
            texel_bytes(self.format),
        )
    }
}
