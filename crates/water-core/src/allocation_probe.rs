//! A fallible check that a build's buffers will fit, for constructors that allocate many
//! buffers in many places (an icosphere's subdivision, sphere water's operator): reserving the
//! whole estimate once with `Vec::try_reserve_exact` and freeing it asks the allocator the
//! question the real buffers would, so a process short of memory (or under `ulimit -v`) gets
//! [`WaterError::OutOfMemory`] naming the bytes before any of them, not an abort half-way.
//! Untouched reserved pages cost nothing. Grids allocate their few buffers fallibly instead
//! ([`crate::SignedGrid::try_new`]).

use crate::error::{Result, WaterError};

/// Reserves `bytes` fallibly and frees them.
///
/// # Errors
/// [`WaterError::OutOfMemory`] naming `what` and `bytes` when the allocator refuses them.
pub fn probe_allocation(what: &'static str, bytes: u64) -> Result<()> {
    let refused = WaterError::OutOfMemory { what, bytes };
    let len = usize::try_from(bytes).map_err(|_| refused.clone())?;
    let mut probe: Vec<u8> = Vec::new();
    probe.try_reserve_exact(len).map_err(|_| refused)?;
    Ok(())
}
