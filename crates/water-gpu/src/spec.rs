//! What a GPU grid simulates: [`GridSpec`], the same description the CPU grids are built from
//! (`water_core::GridSpec`), and the refusals of the GPU backends on top of the CPU's.

pub use water_core::GridSpec;
use water_core::{GridMode, StorageFormat};

use crate::error::GpuError;

/// Checks what the CPU grids would refuse, and f16 storage of a classic grid.
///
/// # Errors
/// [`GpuError::Unsupported`] for classic mode with f16 storage; what [`GridSpec::check`]
/// refuses, as [`GpuError::Invalid`].
pub(crate) fn check_gpu_spec(spec: &GridSpec) -> Result<(), GpuError> {
    if spec.mode == GridMode::Classic && spec.storage != StorageFormat::F32 {
        // Classic cells are i16 integers whose wrap-around is part of the contract; a float
        // format cannot hold them bit for bit.
        return Err(GpuError::Unsupported(format!(
            "{} storage is not offered for classic grids, which store i16 cells; \
             use signed or split mode",
            spec.storage
        )));
    }
    Ok(spec.check()?)
}
