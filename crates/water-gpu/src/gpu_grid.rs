//! [`GpuGrid`]: either backend behind one type, for code that lets its user choose.

use water_core::{ContactMasks, Impulse, LandMask};

use crate::compute_grid::ComputeGrid;
use crate::error::GpuError;
use crate::fragment_grid::FragmentGrid;
use crate::spec::GridSpec;

/// Which GPU backend steps the grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GpuBackend {
    /// Compute shaders ([`ComputeGrid`]).
    Compute,
    /// Render passes into textures ([`FragmentGrid`]).
    Fragment,
}

impl GpuBackend {
    /// The name the `water` command uses: `gpu` or `gpu-fragment`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Compute => "gpu",
            Self::Fragment => "gpu-fragment",
        }
    }
}

/// A grid on either GPU backend.
#[derive(Debug)]
#[allow(
    clippy::large_enum_variant,
    reason = "one grid per simulation, held in place: boxing would only add an indirection"
)]
pub enum GpuGrid {
    /// Compute shaders.
    Compute(ComputeGrid),
    /// Render passes.
    Fragment(FragmentGrid),
}

/// Forwards a method call to whichever backend the grid holds.
macro_rules! forward {
    ($self:ident, $grid:ident => $call:expr) => {
        match $self {
            GpuGrid::Compute($grid) => $call,
            GpuGrid::Fragment($grid) => $call,
        }
    };
}

impl GpuGrid {
    /// Still water of `spec` on `backend`, on the caller's device.
    ///
    /// # Errors
    /// As [`ComputeGrid::new`] and [`FragmentGrid::new`].
    pub fn new(
        backend: GpuBackend,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        spec: GridSpec,
    ) -> Result<Self, GpuError> {
        Ok(match backend {
            GpuBackend::Compute => Self::Compute(ComputeGrid::new(device, queue, spec)?),
            GpuBackend::Fragment => Self::Fragment(FragmentGrid::new(device, queue, spec)?),
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

    /// What the grid simulates.
    #[must_use]
    pub fn spec(&self) -> &GridSpec {
        forward!(self, g => g.spec())
    }

    /// Steps taken so far.
    #[must_use]
    pub fn steps_taken(&self) -> u64 {
        forward!(self, g => g.steps_taken())
    }

    /// See [`ComputeGrid::set_land`].
    ///
    /// # Errors
    /// Size mismatches and readback failures.
    pub fn set_land(&mut self, land: LandMask) -> Result<(), GpuError> {
        forward!(self, g => g.set_land(land))
    }

    /// See [`ComputeGrid::add_impulse`].
    ///
    /// # Errors
    /// A lost device.
    pub fn add_impulse(&mut self, impulse: &Impulse) -> Result<(), GpuError> {
        forward!(self, g => g.add_impulse(impulse))
    }

    /// See [`ComputeGrid::step_with_contacts`].
    ///
    /// # Errors
    /// Size mismatches and a lost device.
    pub fn step_with_contacts(&mut self, contacts: &ContactMasks) -> Result<(), GpuError> {
        forward!(self, g => g.step_with_contacts(contacts))
    }

    /// One step.
    ///
    /// # Errors
    /// A lost device.
    pub fn step(&mut self) -> Result<(), GpuError> {
        self.step_many(1)
    }

    /// See [`ComputeGrid::step_many`].
    ///
    /// # Errors
    /// A lost device.
    pub fn step_many(&mut self, steps: u64) -> Result<(), GpuError> {
        forward!(self, g => g.step_many(steps))
    }

    /// Records steps into the caller's encoder without submitting.
    pub fn encode_step_many(&mut self, encoder: &mut wgpu::CommandEncoder, steps: u64) {
        forward!(self, g => g.encode_step_many(encoder, steps));
    }

    /// See [`ComputeGrid::upload_f32`].
    ///
    /// # Errors
    /// Wrong mode or size.
    pub fn upload_f32(&mut self, current: &[f32], previous: &[f32]) -> Result<(), GpuError> {
        forward!(self, g => g.upload_f32(current, previous))
    }

    /// See [`ComputeGrid::upload_i16`].
    ///
    /// # Errors
    /// Wrong mode or size.
    pub fn upload_i16(&mut self, current: &[i16], previous: &[i16]) -> Result<(), GpuError> {
        forward!(self, g => g.upload_i16(current, previous))
    }

    /// See [`ComputeGrid::update_surface`].
    ///
    /// # Errors
    /// Pipeline creation and a lost device.
    pub fn update_surface(&mut self) -> Result<&wgpu::TextureView, GpuError> {
        forward!(self, g => g.update_surface())
    }

    /// See [`ComputeGrid::read_surface`].
    ///
    /// # Errors
    /// Pipeline creation, a lost device, readback failures.
    pub fn read_surface(&mut self) -> Result<Vec<[f32; 4]>, GpuError> {
        forward!(self, g => g.read_surface())
    }

    /// See [`ComputeGrid::heights`].
    ///
    /// # Errors
    /// Readback failures.
    pub fn heights(&self) -> Result<Vec<f32>, GpuError> {
        forward!(self, g => g.heights())
    }

    /// See [`ComputeGrid::channels`].
    ///
    /// # Errors
    /// Classic mode; readback failures.
    pub fn channels(&self) -> Result<Vec<f32>, GpuError> {
        forward!(self, g => g.channels())
    }

    /// See [`ComputeGrid::classic_heights`].
    ///
    /// # Errors
    /// Not classic mode; readback failures.
    pub fn classic_heights(&self) -> Result<Vec<i16>, GpuError> {
        forward!(self, g => g.classic_heights())
    }
}
