//! The fragment grid's levels between host and device: writes of whole textures and their
//! readback without row padding; the uploads and readbacks of `GpuGridWater`. Twin of
//! `compute_grid/level_io.rs`.

use water_core::GridMode;

use super::FragmentGrid;
use crate::error::GpuError;
use crate::grid_core::{check_level_len, LevelIo, LevelStore};
use crate::readback::{f32s, i32s, read_texture};

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

    /// Sets the current and the previous level to texels as stored (the uploads' last step).
    fn write_levels(&self, current: &[u8], previous: &[u8]) {
        self.write_field(self.core.levels.current(), current);
        self.write_field(self.core.levels.previous(), previous);
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

impl LevelIo for FragmentGrid {
    /// Both levels of a signed or split grid (split: `p` for all cells, then `n`), by
    /// `queue.write_texture`, split channels interleaved into RG texels.
    fn upload_f32_levels(&mut self, current: &[f32], previous: &[f32]) -> Result<(), GpuError> {
        let cells = self.core.spec.size.cells();
        let channels = if self.core.spec.mode == GridMode::Split {
            2
        } else {
            1
        };
        for (what, level) in [("current level", current), ("previous level", previous)] {
            check_level_len(self.core.spec.size, what, cells * channels, level.len())?;
        }
        self.invalidate_level();
        // Interleave split channels into RG texels.
        let texels = |level: &[f32]| -> Vec<f32> {
            if channels == 1 {
                level.to_vec()
            } else {
                (0..cells)
                    .flat_map(|i| [level[i], level[cells + i]])
                    .collect()
            }
        };
        self.write_levels(
            bytemuck::cast_slice(&texels(current)),
            bytemuck::cast_slice(&texels(previous)),
        );
        Ok(())
    }

    /// Both levels of a classic grid, widened to the texture's i32 texels.
    fn upload_i16_levels(&mut self, current: &[i16], previous: &[i16]) -> Result<(), GpuError> {
        for level in [current, previous] {
            self.core
                .spec
                .size
                .check_len("classic level", level.len())?;
        }
        let widen = |v: &[i16]| v.iter().map(|&x| i32::from(x)).collect::<Vec<i32>>();
        self.write_levels(
            bytemuck::cast_slice(&widen(current)),
            bytemuck::cast_slice(&widen(previous)),
        );
        Ok(())
    }

    /// Current heights as f32, row-major: signed heights, split `p - n`, classic values.
    /// **Submits and waits** (submit any encoder holding this grid's recorded operations
    /// first).
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] if the readback fails.
    fn read_heights(&self) -> Result<Vec<f32>, GpuError> {
        let bytes = self.read_texture(self.core.levels.current())?;
        Ok(match self.core.spec.mode {
            GridMode::Signed => f32s(&bytes),
            GridMode::Split => f32s(&bytes)
                .chunks_exact(2)
                .map(|pn| pn[0] - pn[1])
                .collect(),
            GridMode::Classic => i32s(&bytes).into_iter().map(|v| v as f32).collect(),
        })
    }

    /// The current level's channels as f32: `p` for all cells then `n` in split mode, the RG
    /// texels taken apart. **Submits and waits.**
    fn read_channels(&self) -> Result<Vec<f32>, GpuError> {
        let values = f32s(&self.read_texture(self.core.levels.current())?);
        if self.core.spec.mode != GridMode::Split {
            return Ok(values);
        }
        let p = values.iter().step_by(2);
        let n = values.iter().skip(1).step_by(2);
        Ok(p.chain(n).copied().collect())
    }

    /// The current classic heights. **Submits and waits.**
    fn read_classic_heights(&self) -> Result<Vec<i16>, GpuError> {
        let bytes = self.read_texture(self.core.levels.current())?;
        Ok(i32s(&bytes).into_iter().map(|v| v as i16).collect())
    }
}
