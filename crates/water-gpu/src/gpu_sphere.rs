//! [`GpuSphere`]: either sphere backend behind one type, for code that lets its user choose
//! (as [`GpuGrid`](crate::GpuGrid) does for the grid).

use water_sphere::{SphereImpulse, SphereWater};

use crate::error::GpuError;
use crate::gpu_backend::GpuBackend;
use crate::gpu_sphere_water::sealed::{AddedHeights, OnDevice};
use crate::gpu_sphere_water::GpuSphereWater;
use crate::readback::PendingReadback;
use crate::sphere_compute::SphereComputeWater;
use crate::sphere_fragment::SphereFragmentWater;

/// Sphere water on either GPU backend.
#[derive(Debug)]
#[allow(
    clippy::large_enum_variant,
    reason = "one water per simulation, held in place: boxing would only add an indirection"
)]
pub enum GpuSphere {
    /// A compute shader over storage buffers.
    Compute(SphereComputeWater),
    /// Render passes into textures.
    Fragment(SphereFragmentWater),
}

impl GpuSphere {
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

    /// The water it holds, as either backend's.
    #[must_use]
    pub fn water(&self) -> &dyn GpuSphereWater {
        match self {
            Self::Compute(w) => w,
            Self::Fragment(w) => w,
        }
    }

    /// The same, mutable.
    pub fn water_mut(&mut self) -> &mut dyn GpuSphereWater {
        match self {
            Self::Compute(w) => w,
            Self::Fragment(w) => w,
        }
    }
}

impl AddedHeights for GpuSphere {
    fn vertex_count(&self) -> usize {
        match self {
            Self::Compute(w) => w.vertex_count(),
            Self::Fragment(w) => w.vertex_count(),
        }
    }

    fn impulse_heights(&self, impulse: &SphereImpulse) -> Vec<f32> {
        match self {
            Self::Compute(w) => w.impulse_heights(impulse),
            Self::Fragment(w) => w.impulse_heights(impulse),
        }
    }

    fn forget_level_reference(&mut self) {
        match self {
            Self::Compute(w) => w.forget_level_reference(),
            Self::Fragment(w) => w.forget_level_reference(),
        }
    }

    fn record_added_heights(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        heights: &[f32],
    ) -> Result<(), GpuError> {
        match self {
            Self::Compute(w) => w.record_added_heights(encoder, heights),
            Self::Fragment(w) => w.record_added_heights(encoder, heights),
        }
    }
}

impl OnDevice for GpuSphere {
    fn device(&self) -> &wgpu::Device {
        self.water().device()
    }

    fn queue(&self) -> &wgpu::Queue {
        self.water().queue()
    }
}

impl GpuSphereWater for GpuSphere {
    fn steps_taken(&self) -> u64 {
        self.water().steps_taken()
    }

    fn encode_step_many(&mut self, encoder: &mut wgpu::CommandEncoder, steps: u64) {
        self.water_mut().encode_step_many(encoder, steps);
    }

    /// The backend's own run: the compute backend's keeps the mean level.
    fn step_many(&mut self, steps: u64) -> Result<(), GpuError> {
        self.water_mut().step_many(steps)
    }

    fn read_heights_async(&self) -> Result<PendingReadback, GpuError> {
        self.water().read_heights_async()
    }
}
