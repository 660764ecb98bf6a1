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

    /// See [`ComputeGrid::set_land`]. **Submits and waits.**
    ///
    /// # Errors
    /// Size mismatches and readback failures.
    pub fn set_land(&mut self, land: LandMask) -> Result<(), GpuError> {
        forward!(self, g => g.set_land(land))
    }

    /// Adds an impulse (see [`ComputeGrid::add_impulse`]). **Submits** one command buffer.
    ///
    /// # Errors
    /// A lost device.
    pub fn add_impulse(&mut self, impulse: &Impulse) -> Result<(), GpuError> {
        forward!(self, g => g.add_impulse(impulse))
    }

    /// Records an impulse into the caller's encoder (see [`ComputeGrid::encode_add_impulse`]).
    /// **Records only.**
    ///
    /// # Errors
    /// As [`ComputeGrid::encode_add_impulse`].
    pub fn encode_add_impulse(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        impulse: &Impulse,
    ) -> Result<(), GpuError> {
        forward!(self, g => g.encode_add_impulse(encoder, impulse))
    }

    /// One step with contact events (see [`ComputeGrid::step_with_contacts`]). **Submits** one
    /// command buffer.
    ///
    /// # Errors
    /// Size mismatches and a lost device.
    pub fn step_with_contacts(&mut self, contacts: &ContactMasks) -> Result<(), GpuError> {
        forward!(self, g => g.step_with_contacts(contacts))
    }

    /// Records one step with contact events into the caller's encoder, masks and amplitude
    /// included (see [`ComputeGrid::encode_step_with_contacts`]). **Records only.**
    ///
    /// # Errors
    /// Size mismatches; nothing is recorded then.
    pub fn encode_step_with_contacts(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        contacts: &ContactMasks,
    ) -> Result<(), GpuError> {
        forward!(self, g => g.encode_step_with_contacts(encoder, contacts))
    }

    /// One step. **Submits** one command buffer.
    ///
    /// # Errors
    /// A lost device.
    pub fn step(&mut self) -> Result<(), GpuError> {
        self.step_many(1)
    }

    /// `steps` steps (see [`ComputeGrid::step_many`]). **Submits** one command buffer.
    ///
    /// # Errors
    /// A lost device.
    pub fn step_many(&mut self, steps: u64) -> Result<(), GpuError> {
        forward!(self, g => g.step_many(steps))
    }

    /// Records `steps` steps into the caller's encoder (see [`ComputeGrid::encode_step_many`]).
    /// **Records only**; the grid's bookkeeping advances now, for the operations recorded
    /// after it.
    pub fn encode_step_many(&mut self, encoder: &mut wgpu::CommandEncoder, steps: u64) {
        forward!(self, g => g.encode_step_many(encoder, steps));
    }

    /// Sets both levels (see [`ComputeGrid::upload_f32`]). **Queues a write** that lands at
    /// the next submission, ahead of its command buffers.
    ///
    /// # Errors
    /// Wrong mode or size.
    pub fn upload_f32(&mut self, current: &[f32], previous: &[f32]) -> Result<(), GpuError> {
        forward!(self, g => g.upload_f32(current, previous))
    }

    /// Sets both classic levels (see [`ComputeGrid::upload_i16`]). **Queues a write.**
    ///
    /// # Errors
    /// Wrong mode or size.
    pub fn upload_i16(&mut self, current: &[i16], previous: &[i16]) -> Result<(), GpuError> {
        forward!(self, g => g.upload_i16(current, previous))
    }

    /// Updates the `Rgba32Float` surface texture and returns its view (see
    /// [`ComputeGrid::update_surface`]; bind it without filtering). **Submits** one command
    /// buffer.
    ///
    /// # Errors
    /// Pipeline creation and a lost device.
    pub fn update_surface(&mut self) -> Result<&wgpu::TextureView, GpuError> {
        forward!(self, g => g.update_surface())
    }

    /// Records the surface update into the caller's encoder and returns the `Rgba32Float`
    /// view (see [`ComputeGrid::encode_update_surface`]). **Records only.**
    ///
    /// # Errors
    /// Pipeline creation.
    pub fn encode_update_surface(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
    ) -> Result<&wgpu::TextureView, GpuError> {
        forward!(self, g => g.encode_update_surface(encoder))
    }

    /// Updates the surface and its `Rgba16Float` copy and returns the copy's view, the one to
    /// bind with a linear sampler (see [`ComputeGrid::update_filterable_surface`]). **Submits**
    /// one command buffer.
    ///
    /// # Errors
    /// Pipeline creation and a lost device.
    pub fn update_filterable_surface(&mut self) -> Result<&wgpu::TextureView, GpuError> {
        forward!(self, g => g.update_filterable_surface())
    }

    /// Records [`GpuGrid::update_filterable_surface`] into the caller's encoder. **Records
    /// only.**
    ///
    /// # Errors
    /// Pipeline creation.
    pub fn encode_update_filterable_surface(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
    ) -> Result<&wgpu::TextureView, GpuError> {
        forward!(self, g => g.encode_update_filterable_surface(encoder))
    }

    /// The `Rgba32Float` surface texture; `None` before the first surface update.
    #[must_use]
    pub fn surface_texture(&self) -> Option<&wgpu::Texture> {
        forward!(self, g => g.surface_texture())
    }

    /// The `Rgba16Float` filterable copy of the surface; `None` before the first filterable
    /// update.
    #[must_use]
    pub fn filterable_surface_texture(&self) -> Option<&wgpu::Texture> {
        forward!(self, g => g.filterable_surface_texture())
    }

    /// Updates the surface and reads it back (see [`ComputeGrid::read_surface`]). **Submits
    /// and waits.**
    ///
    /// # Errors
    /// Pipeline creation, a lost device, readback failures.
    pub fn read_surface(&mut self) -> Result<Vec<[f32; 4]>, GpuError> {
        forward!(self, g => g.read_surface())
    }

    /// Updates the surface and its filterable copy and reads the copy back widened to f32
    /// (see [`ComputeGrid::read_filterable_surface`]). **Submits and waits.**
    ///
    /// # Errors
    /// Pipeline creation, a lost device, readback failures.
    pub fn read_filterable_surface(&mut self) -> Result<Vec<[f32; 4]>, GpuError> {
        forward!(self, g => g.read_filterable_surface())
    }

    /// See [`ComputeGrid::heights`]. **Submits and waits.**
    ///
    /// # Errors
    /// Readback failures.
    pub fn heights(&self) -> Result<Vec<f32>, GpuError> {
        forward!(self, g => g.heights())
    }

    /// See [`ComputeGrid::channels`]. **Submits and waits.**
    ///
    /// # Errors
    /// Classic mode; readback failures.
    pub fn channels(&self) -> Result<Vec<f32>, GpuError> {
        forward!(self, g => g.channels())
    }

    /// See [`ComputeGrid::classic_heights`]. **Submits and waits.**
    ///
    /// # Errors
    /// Not classic mode; readback failures.
    pub fn classic_heights(&self) -> Result<Vec<i16>, GpuError> {
        forward!(self, g => g.classic_heights())
    }
}
