//! [`StorageFormat`]: how a GPU compute grid stores its cells (the CPU grids compute and store
//! f32, so the format is the compute grid's own option, [`crate::ComputeGrid::with_storage`],
//! not part of the [`crate::GridSpec`] every backend shares). The f16 packing itself is
//! `storage.rs`.

use water_core::GridSize;

/// How a compute grid stores each cell of a level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum StorageFormat {
    /// 4 bytes per cell, the CPU reference's own precision. The default: it is the format the
    /// backends agree with the CPU in to `water_gpu::F32_TOLERANCE`.
    #[default]
    F32,
    /// 2 bytes per cell (binary16, two per `u32` word), arithmetic still in f32. Signed and
    /// split grids on the compute backend only.
    F16,
}

impl StorageFormat {
    /// Both formats.
    pub const ALL: [Self; 2] = [Self::F32, Self::F16];

    /// `"f32"` or `"f16"`, as the `water` command spells them.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::F32 => "f32",
            Self::F16 => "f16",
        }
    }

    /// Bytes per stored cell, ignoring the padding half of odd rows.
    #[must_use]
    pub fn bytes_per_cell(self) -> usize {
        match self {
            Self::F32 => 4,
            Self::F16 => 2,
        }
    }

    /// `u32` words per row of `width` cells (f32: one per cell; f16: `ceil(width / 2)`).
    #[must_use]
    pub fn words_per_row(self, width: usize) -> usize {
        match self {
            Self::F32 => width,
            Self::F16 => width.div_ceil(2),
        }
    }

    /// Bytes of one time level of `channels` planes.
    #[must_use]
    pub fn level_bytes(self, size: GridSize, channels: usize) -> u64 {
        (self.words_per_row(size.width()) * size.height() * channels * 4) as u64
    }
}

impl std::fmt::Display for StorageFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
