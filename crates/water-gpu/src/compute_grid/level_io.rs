//! Levels in and out of [`ComputeGrid`]: uploads (f32 words, or f16 pairs packed per row)
//! and readbacks decoded to f32, with land cleared in the stored words.

use water_core::{GridMode, LandMask};

use super::ComputeGrid;
use crate::error::GpuError;
use crate::grid_core::{check_level_len, LevelIo, LevelStore};
use crate::readback::{f32s, i32s, PendingReadback};
use crate::storage::{check_f16_range, pack_f16_rows, unpack_f16_rows, StorageFormat};

impl ComputeGrid {
    pub(super) fn upload(&mut self, current: &[u8], previous: &[u8]) -> Result<(), GpuError> {
        let expected = self.fields[0].size() as usize;
        for (what, bytes) in [("current level", current), ("previous level", previous)] {
            // In words: the bytes are always whole words (cast from f32, i32 or u32).
            check_level_len(self.core.spec.size, what, expected / 4, bytes.len() / 4)?;
        }
        self.invalidate_level();
        self.core
            .queue
            .write_buffer(&self.fields[self.core.levels.current()], 0, current);
        self.core
            .queue
            .write_buffer(&self.fields[self.core.levels.previous()], 0, previous);
        Ok(())
    }

    /// Starts reading the current level back as raw bytes, laid out as
    /// [`ComputeGrid::current_buffer`] says (f16 storage: packed words, half the bytes; widen
    /// them with `unpack_f16_rows`). Poll the device and take the bytes from
    /// the returned [`PendingReadback`] when they arrive. **Submits** a copy; does not wait.
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] when the device no longer accepts work.
    pub fn read_current_async(&self) -> Result<PendingReadback, GpuError> {
        let buffer = &self.fields[self.core.levels.current()];
        PendingReadback::start(&self.core.device, &self.core.queue, buffer, buffer.size())
    }

    /// The raw bytes of a level as `channels * cells` f32 values (f16 widened exactly).
    pub(super) fn decode(&self, bytes: &[u8]) -> Vec<f32> {
        match self.storage {
            StorageFormat::F32 => f32s(bytes),
            StorageFormat::F16 => unpack_f16_rows(
                &bytemuck::pod_collect_to_vec(bytes),
                self.core.spec.size.width(),
            ),
        }
    }

    /// The number of values per level (`channels * cells`), whatever the storage format: what
    /// [`ComputeGrid::upload_f32`](crate::GpuGridWater::upload_f32) takes and [`ComputeGrid::channels`](crate::GpuGridWater::channels) returns.
    #[must_use]
    pub fn values_per_level(&self) -> usize {
        self.channels as usize * self.core.spec.size.cells()
    }
}

/// Zeroes the land cells of every channel of a level's words: whole words of f32 (or i32)
/// storage, the cell's half of the word with f16 storage.
pub(super) fn clear_land_words(words: &mut [u32], land: &LandMask, storage: StorageFormat) {
    let size = land.size();
    let width = size.width();
    let row_words = storage.words_per_row(width);
    let plane = row_words * size.height();
    for channel in words.chunks_exact_mut(plane) {
        for (i, _) in land.cells().iter().enumerate().filter(|(_, &dry)| dry) {
            let (x, y) = (i % width, i / width);
            match storage {
                // 0.0f32 and 0i32 share their bits.
                StorageFormat::F32 => channel[i] = 0,
                StorageFormat::F16 => {
                    // +0 in binary16 is all zero bits too; keep the other cell's half.
                    let keep = if x % 2 == 0 { 0xffff_0000 } else { 0x0000_ffff };
                    channel[y * row_words + x / 2] &= keep;
                }
            }
        }
    }
}

impl LevelIo for ComputeGrid {
    /// Both levels of signed or split water, packed for f16 storage.
    fn upload_f32_levels(&mut self, current: &[f32], previous: &[f32]) -> Result<(), GpuError> {
        match self.storage {
            StorageFormat::F32 => self.upload(
                bytemuck::cast_slice(current),
                bytemuck::cast_slice(previous),
            ),
            StorageFormat::F16 => {
                let expected = self.values_per_level();
                for (what, values) in [("current level", current), ("previous level", previous)] {
                    check_level_len(self.core.spec.size, what, expected, values.len())?;
                    check_f16_range(what, values)?;
                }
                let width = self.core.spec.size.width();
                self.upload(
                    bytemuck::cast_slice(&pack_f16_rows(current, width)),
                    bytemuck::cast_slice(&pack_f16_rows(previous, width)),
                )
            }
        }
    }

    /// Both levels of classic water, widened to the kernel's i32 words.
    fn upload_i16_levels(&mut self, current: &[i16], previous: &[i16]) -> Result<(), GpuError> {
        let widen = |v: &[i16]| v.iter().map(|&x| i32::from(x)).collect::<Vec<i32>>();
        self.upload(
            bytemuck::cast_slice(&widen(current)),
            bytemuck::cast_slice(&widen(previous)),
        )
    }

    /// The current level read back (waits) as heights.
    fn read_heights(&self) -> Result<Vec<f32>, GpuError> {
        let bytes = self.read_current_async()?.wait()?;
        let cells = self.core.spec.size.cells();
        Ok(match self.core.spec.mode {
            GridMode::Signed => self.decode(&bytes),
            GridMode::Split => {
                let v = self.decode(&bytes);
                v[..cells]
                    .iter()
                    .zip(&v[cells..])
                    .map(|(p, n)| p - n)
                    .collect()
            }
            GridMode::Classic => i32s(&bytes).into_iter().map(|v| v as f32).collect(),
        })
    }

    /// The current level's raw channels read back (waits), f16 widened.
    fn read_channels(&self) -> Result<Vec<f32>, GpuError> {
        Ok(self.decode(&self.read_current_async()?.wait()?))
    }

    /// The current classic level read back (waits).
    fn read_classic_heights(&self) -> Result<Vec<i16>, GpuError> {
        let bytes = self.read_current_async()?.wait()?;
        // The kernel only ever stores values already wrapped or clamped to i16.
        Ok(i32s(&bytes).into_iter().map(|v| v as i16).collect())
    }
}
