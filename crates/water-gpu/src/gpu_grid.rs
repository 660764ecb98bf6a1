//! [`GpuGrid`]: either backend behind one type, for code that lets its user choose.

use water_core::{ContactMasks, Depth, Impulse, LandMask};

use crate::compute_grid::ComputeGrid;
use crate::error::GpuError;
use crate::fragment_grid::FragmentGrid;
use crate::gpu_backend::GpuBackend;
use crate::gpu_grid_water::{sealed::GridTargets, GpuGridWater};
use crate::normal_height::NormalHeightTexture;
use crate::spec::GridSpec;
use crate::storage_format::StorageFormat;

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

    /// Still water of `spec` on `backend`, each level's cells stored as `storage` says
    /// ([`ComputeGrid::with_storage`]; the fragment backend stores f32 alone).
    ///
    /// # Errors
    /// As [`GpuGrid::new`] and [`ComputeGrid::with_storage`] (f16 storage of a classic grid or
    /// of the dispersive model refused); [`GpuError::StorageNotOffered`] for f16 storage on the
    /// fragment backend.
    pub fn with_storage(
        backend: GpuBackend,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        spec: GridSpec,
        storage: StorageFormat,
    ) -> Result<Self, GpuError> {
        match (backend, storage) {
            (GpuBackend::Compute, _) => Ok(Self::Compute(ComputeGrid::with_storage(
                device, queue, spec, storage,
            )?)),
            (GpuBackend::Fragment, StorageFormat::F32) => Self::new(backend, device, queue, spec),
            // Half-float textures would be a second f16 path with its own conversions and
            // tests; only the compute backend's packed words are built and measured.
            (GpuBackend::Fragment, StorageFormat::F16) => Err(GpuError::StorageNotOffered {
                storage,
                reason: "by the fragment backend (gpu-fragment), which stores f32 textures; \
                         the compute backend (gpu) offers it",
            }),
        }
    }

    /// Which backend this is.
    #[must_use]
    pub fn backend(&self) -> GpuBackend {
        match self {
            Self::Compute(_) => GpuBackend::Compute,
            Self::Fragment(_) => GpuBackend::Fragment,
        }
    }

    /// The grid it holds, as either backend's water.
    #[must_use]
    pub fn water(&self) -> &dyn GpuGridWater {
        match self {
            Self::Compute(g) => g,
            Self::Fragment(g) => g,
        }
    }

    /// The same, mutable.
    pub fn water_mut(&mut self) -> &mut dyn GpuGridWater {
        match self {
            Self::Compute(g) => g,
            Self::Fragment(g) => g,
        }
    }
}

impl GridTargets for GpuGrid {
    fn device(&self) -> &wgpu::Device {
        self.water().device()
    }

    fn queue(&self) -> &wgpu::Queue {
        self.water().queue()
    }

    fn normal_height(&mut self) -> Option<&mut NormalHeightTexture> {
        self.water_mut().normal_height()
    }

    fn normal_height_ref(&self) -> Option<&NormalHeightTexture> {
        self.water().normal_height_ref()
    }
}

/// Each backend's own passes; what only submits them comes from the trait's defaults.
impl GpuGridWater for GpuGrid {
    fn spec(&self) -> &GridSpec {
        self.water().spec()
    }

    fn steps_taken(&self) -> u64 {
        self.water().steps_taken()
    }

    fn land(&self) -> &LandMask {
        self.water().land()
    }

    fn set_land(&mut self, land: LandMask) -> Result<(), GpuError> {
        self.water_mut().set_land(land)
    }

    fn set_depth(&mut self, depth: &Depth) -> Result<(), GpuError> {
        self.water_mut().set_depth(depth)
    }

    fn encode_add_impulse(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        impulse: &Impulse,
    ) -> Result<(), GpuError> {
        self.water_mut().encode_add_impulse(encoder, impulse)
    }

    fn encode_shift_window(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        dx: isize,
        dy: isize,
    ) -> Result<(), GpuError> {
        self.water_mut().encode_shift_window(encoder, dx, dy)
    }

    fn encode_step_with_contacts(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        contacts: &ContactMasks,
    ) -> Result<(), GpuError> {
        self.water_mut()
            .encode_step_with_contacts(encoder, contacts)
    }

    fn encode_step_many(&mut self, encoder: &mut wgpu::CommandEncoder, steps: u64) {
        self.water_mut().encode_step_many(encoder, steps);
    }

    /// The backend's own: the compute backend cuts runs where mean-level corrections fall.
    fn step_many(&mut self, steps: u64) -> Result<(), GpuError> {
        self.water_mut().step_many(steps)
    }

    fn upload_f32(&mut self, current: &[f32], previous: &[f32]) -> Result<(), GpuError> {
        self.water_mut().upload_f32(current, previous)
    }

    fn upload_i16(&mut self, current: &[i16], previous: &[i16]) -> Result<(), GpuError> {
        self.water_mut().upload_i16(current, previous)
    }

    fn heights(&self) -> Result<Vec<f32>, GpuError> {
        self.water().heights()
    }

    fn channels(&self) -> Result<Vec<f32>, GpuError> {
        self.water().channels()
    }

    fn classic_heights(&self) -> Result<Vec<i16>, GpuError> {
        self.water().classic_heights()
    }

    fn encode_update_normal_height(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
    ) -> Result<&wgpu::TextureView, GpuError> {
        self.water_mut().encode_update_normal_height(encoder)
    }
}
