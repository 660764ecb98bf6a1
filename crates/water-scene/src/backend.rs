//! [`Backend`]: where water is stepped, as users, scenario files and the `water` command name it.

use std::fmt;
use std::str::FromStr;

use water_gpu::GpuBackend;

/// Where the water is stepped.
///
/// ```
/// use water_scene::Backend;
/// let backend: Backend = "gpu-fragment".parse()?;
/// assert_eq!(backend, Backend::GpuFragment);
/// assert_eq!(backend.to_string(), "gpu-fragment");
/// assert!("vulkan".parse::<Backend>().is_err());
/// # Ok::<(), water_scene::UnknownBackend>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Backend {
    /// The CPU reference solver (`water-core`): heights are on the host every step.
    #[default]
    Cpu,
    /// Compute shaders on the GPU (`water_gpu::ComputeGrid`).
    Gpu,
    /// Render-to-texture passes on the GPU (`water_gpu::FragmentGrid`).
    GpuFragment,
}

impl Backend {
    /// Every backend, the reference first.
    pub const ALL: [Self; 3] = [Self::Cpu, Self::Gpu, Self::GpuFragment];

    /// The name: `cpu`, `gpu` or `gpu-fragment`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Cpu => "cpu",
            Self::Gpu => "gpu",
            Self::GpuFragment => "gpu-fragment",
        }
    }

    /// The GPU backend, or `None` for the CPU.
    #[must_use]
    pub fn gpu(self) -> Option<GpuBackend> {
        match self {
            Self::Cpu => None,
            Self::Gpu => Some(GpuBackend::Compute),
            Self::GpuFragment => Some(GpuBackend::Fragment),
        }
    }
}

impl From<GpuBackend> for Backend {
    fn from(gpu: GpuBackend) -> Self {
        match gpu {
            GpuBackend::Compute => Self::Gpu,
            GpuBackend::Fragment => Self::GpuFragment,
        }
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A backend name that is none of `cpu`, `gpu`, `gpu-fragment`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown backend {0:?}; expected cpu, gpu or gpu-fragment")]
pub struct UnknownBackend(pub String);

impl FromStr for Backend {
    type Err = UnknownBackend;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|b| b.name() == name)
            .ok_or_else(|| UnknownBackend(name.to_owned()))
    }
}
