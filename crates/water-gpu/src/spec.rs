//! What a GPU grid simulates: [`GridSpec`], the same description the CPU grids are built from
//! (`water_core::GridSpec`), and the refusals of the GPU backends on top of the CPU's.

use water_core::GridMode;
pub use water_core::GridSpec;

use crate::storage_format::StorageFormat;

use crate::error::GpuError;

/// Checks what the CPU grids would refuse, and f16 `storage` of a classic grid.
///
/// # Errors
/// [`GpuError::StorageNotOffered`] for classic mode with f16 storage; what [`GridSpec::check`]
/// refuses, as [`GpuError::Invalid`].
pub(crate) fn check_gpu_spec(spec: &GridSpec, storage: StorageFormat) -> Result<(), GpuError> {
    if spec.mode == GridMode::Classic && storage != StorageFormat::F32 {
        // Classic cells are i16 integers whose wrap-around is part of the contract; a float
        // format cannot hold them bit for bit.
        return Err(GpuError::StorageNotOffered {
            storage,
            reason: "for classic grids, which store i16 cells; use signed or split mode",
        });
    }
    Ok(spec.check()?)
}

/// `level` (any number of channel planes of `spec.size` cells) with its land cells and, on a
/// fixed grid (classic grids are always fixed), its rim set to zero: what the CPU grids do to
/// levels a caller edited before their next step, so an upload of the same levels steps alike
/// (DESIGN.md: edge cells of a fixed grid stay 0; land is dry). A level of another length is
/// returned as it is, for the size check to refuse.
pub(crate) fn settled_level<T: Copy + Default>(
    spec: &GridSpec,
    land: &water_core::LandMask,
    level: &[T],
) -> Vec<T> {
    let size = spec.size;
    let cells = size.cells();
    let mut out = level.to_vec();
    if cells == 0 || !level.len().is_multiple_of(cells) {
        return out;
    }
    let rim = spec.boundary == water_core::Boundary::Fixed || spec.mode == GridMode::Classic;
    let (w, h) = (size.width(), size.height());
    for plane in out.chunks_exact_mut(cells) {
        for (i, dry) in land.cells().iter().enumerate() {
            if *dry {
                plane[i] = T::default();
            }
        }
        if rim {
            for x in 0..w {
                plane[x] = T::default();
                plane[(h - 1) * w + x] = T::default();
            }
            for y in 0..h {
                plane[y * w] = T::default();
                plane[y * w + w - 1] = T::default();
            }
        }
    }
    out
}
