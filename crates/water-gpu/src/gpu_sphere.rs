//! [`GpuSphereWater`]: either sphere backend behind one type, for code that lets its user choose
//! (as [`GpuGrid`](crate::GpuGrid) does for the grid).

use water_sphere::{SphereImpulse, SphereWater};

use crate::error::GpuError;
use crate::gpu_grid::GpuBackend;
use crate::readback::PendingReadback;
use crate::sphere_compute::SphereComputeWater;
use crate::sphere_fragment::SphereFragmentWater;

/// Sphere water on either GPU backend.
#[derive(Debug)]
#[allow(
    clippy::large_enum_variant,
    reason = "one water per simulation, held in place: boxing would only add an indirection"
)]
pub enum GpuSphereWater {
    /// A compute shader over storage buffers.
    Compute(SphereComputeWater),
    /// Render passes into textures.
    Fragment(SphereFragmentWater),
}

/// Forwards a method call to whichever backend the water holds.
macro_rules! forward {
    ($self:ident, $water:ident => $call:expr) => {
        match $self {
            GpuSphereWater::Compute($water) => $call,
            GpuSphereWater::Fragment($water) => $call,
        }
    };
}

impl GpuSphereWater {
    /// `water`'s mesh, weights, coefficients and state on `backend`, on the caller's device.
    ///
    /// # Errors
    /// As [`SphereComputeWater::new`] and [`SphereFragmentWater::new`].
    pub fn new(
        backend: GpuBackend,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        water: &SphereWater,
    ) -> Result<Self, GpuError> {
        Ok(match backend {
            GpuBackend::Compute => Self::Compute(SphereComputeWater::new(device, queue, water)?),
            GpuBackend::Fragment => Self::Fragment(SphereFragmentWater::new(device, queue, water)?),
        })
    }

    /// Which backend this is.
    #[must_use]
    pub fn backend(&self) -> GpuBackend {
        match self {
            Self::Compute(_) => GpuBackend::Compute,
            Self::Fragment(_) => GpuBackend::Fragment,
        }
    }

    /// Steps taken on the GPU.
    #[must_use]
    pub fn steps_taken(&self) -> u64 {
        forward!(self, w => w.steps_taken())
    }

    /// Records `steps` steps into the caller's encoder.
    pub fn encode_step_many(&mut self, encoder: &mut wgpu::CommandEncoder, steps: u64) {
        forward!(self, w => w.encode_step_many(encoder, steps));
    }

    /// `steps` steps in one submission.
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`].
    pub fn step_many(&mut self, steps: u64) -> Result<(), GpuError> {
        forward!(self, w => w.step_many(steps))
    }

    /// Adds a click, as [`SphereWater::click`] does.
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`].
    pub fn add_impulse(&mut self, click: &SphereImpulse) -> Result<(), GpuError> {
        forward!(self, w => w.add_impulse(click))
    }

    /// Starts reading the current heights back (4 bytes per vertex, little-endian f32).
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`].
    pub fn read_heights_async(&self) -> Result<PendingReadback, GpuError> {
        forward!(self, w => w.read_heights_async())
    }

    /// The current heights (blocking readback), one per vertex in the mesh's order.
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`].
    pub fn heights(&self) -> Result<Vec<f32>, GpuError> {
        forward!(self, w => w.heights())
    }
}
