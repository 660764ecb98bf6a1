//! One interface over the CPU reference and the GPU backends, so a scenario runs unchanged on
//! each.

use water_core::{
    ClassicGrid, ContactMasks, GridMode, GridWater, Impulse, LandMask, SignedGrid, SplitGrid,
};
use water_gpu::{GpuBackend, GpuContext, GpuError, GpuGrid, GridSpec};

/// Which implementation runs a scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BackendKind {
    /// `water-core` on the CPU.
    Cpu,
    /// `water-gpu`'s compute shaders.
    Compute,
    /// `water-gpu`'s render passes.
    Fragment,
}

impl BackendKind {
    /// All backends, the reference first.
    pub const ALL: [Self; 3] = [Self::Cpu, Self::Compute, Self::Fragment];

    /// Name as the CLI spells it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Cpu => "cpu",
            Self::Compute => "gpu",
            Self::Fragment => "gpu-fragment",
        }
    }
}

/// A running simulation on some backend.
pub enum Backend {
    /// CPU reference.
    Cpu(Box<dyn GridWater>),
    /// Either GPU backend.
    Gpu(Box<GpuGrid>),
}

impl Backend {
    /// Builds still water of `spec` on `kind` (GPU kinds need `gpu`).
    ///
    /// # Errors
    /// What the backend's constructor reports; [`GpuError::Unsupported`] for a GPU kind
    /// without a context.
    pub fn new(
        kind: BackendKind,
        spec: GridSpec,
        gpu: Option<&GpuContext>,
    ) -> Result<Self, GpuError> {
        let gpu_backend = match kind {
            BackendKind::Cpu => {
                spec.check()?;
                return Ok(Self::Cpu(match spec.mode {
                    GridMode::Signed => {
                        Box::new(SignedGrid::new(spec.size, spec.params, spec.boundary))
                    }
                    GridMode::Split => {
                        Box::new(SplitGrid::new(spec.size, spec.params, spec.boundary))
                    }
                    GridMode::Classic => Box::new(ClassicGrid::new(
                        spec.size,
                        spec.params.cell_size(),
                        spec.classic_shift,
                    )?),
                }));
            }
            BackendKind::Compute => GpuBackend::Compute,
            BackendKind::Fragment => GpuBackend::Fragment,
        };
        let g = gpu.ok_or_else(|| GpuError::Unsupported(format!("{} needs a GPU", kind.name())))?;
        Ok(Self::Gpu(Box::new(GpuGrid::new(
            gpu_backend,
            &g.device,
            &g.queue,
            spec,
        )?)))
    }

    /// Replaces the land.
    ///
    /// # Errors
    /// Size mismatches and readback failures.
    pub fn set_land(&mut self, land: LandMask) -> Result<(), GpuError> {
        match self {
            Self::Cpu(w) => Ok(w.set_land(land)?),
            Self::Gpu(g) => g.set_land(land),
        }
    }

    /// Adds an impulse.
    ///
    /// # Errors
    /// A lost device.
    pub fn add_impulse(&mut self, impulse: &Impulse) -> Result<(), GpuError> {
        match self {
            Self::Cpu(w) => {
                w.add_impulse(impulse);
                Ok(())
            }
            Self::Gpu(g) => g.add_impulse(impulse),
        }
    }

    /// One step with contact events.
    ///
    /// # Errors
    /// Size mismatches.
    pub fn step_with_contacts(&mut self, contacts: &ContactMasks) -> Result<(), GpuError> {
        match self {
            Self::Cpu(w) => Ok(w.step_with_contacts(contacts)?),
            Self::Gpu(g) => g.step_with_contacts(contacts),
        }
    }

    /// `steps` steps without contacts (one submission on the GPU).
    ///
    /// # Errors
    /// A lost device.
    pub fn step_many(&mut self, steps: u64) -> Result<(), GpuError> {
        match self {
            Self::Cpu(w) => {
                w.step_many(steps);
                Ok(())
            }
            Self::Gpu(g) => g.step_many(steps),
        }
    }

    /// Current heights as f32 (classic: its integers).
    ///
    /// # Errors
    /// Readback failures.
    pub fn heights(&self) -> Result<Vec<f32>, GpuError> {
        match self {
            Self::Cpu(w) => Ok(w.heights()),
            Self::Gpu(g) => g.heights(),
        }
    }

    /// Current classic heights, for bit-exact comparison.
    ///
    /// # Errors
    /// [`GpuError::Unsupported`] outside classic mode; readback failures.
    pub fn classic_heights(&self) -> Result<Vec<i16>, GpuError> {
        match self {
            Self::Cpu(w) => {
                if w.mode() != GridMode::Classic {
                    return Err(GpuError::Unsupported("not a classic grid".into()));
                }
                // Classic heights are whole numbers within the i16 range.
                Ok(w.heights().into_iter().map(|v| v as i16).collect())
            }
            Self::Gpu(g) => g.classic_heights(),
        }
    }
}
