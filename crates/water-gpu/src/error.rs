//! Typed errors of the GPU backends.

use thiserror::Error;

/// Everything that can go wrong on the GPU side.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum GpuError {
    /// No adapter matched the request (no GPU and no software Vulkan/GL driver such as Mesa's
    /// lavapipe or llvmpipe).
    #[error("no GPU adapter found ({0}); on Debian install mesa-vulkan-drivers for lavapipe")]
    NoAdapter(String),
    /// The adapter refused the device request.
    #[error("the GPU adapter refused to create a device: {0}")]
    RequestDevice(String),
    /// The grid needs more than the device allows.
    #[error("the grid needs {what} = {needed}, but this device allows at most {limit}")]
    TooLarge {
        /// Which limit (e.g. `"storage buffer binding size (bytes)"`).
        what: &'static str,
        /// What the grid needs.
        needed: u64,
        /// The device's limit.
        limit: u64,
    },
    /// The simulation parameters are invalid (the CPU reference's own check).
    #[error(transparent)]
    Invalid(#[from] water_core::WaterError),
    /// A combination the backend does not offer.
    #[error("{0}")]
    Unsupported(String),
    /// wgpu reported a validation error (a bug in this crate, or a device without a feature).
    #[error("GPU validation error: {0}")]
    Validation(String),
    /// The device was lost (driver reset, device removed, or destroyed).
    #[error("the GPU device was lost: {0}")]
    DeviceLost(String),
}
