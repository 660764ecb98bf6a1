//! [`GpuBackend`]: which GPU backend steps a grid or a sphere. A leaf: it imports nothing from
//! this crate, so the error type and every backend can name it without a circle of imports.

/// Which GPU backend steps the grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GpuBackend {
    /// Compute shaders ([`crate::ComputeGrid`]).
    Compute,
    /// Render passes into textures ([`crate::FragmentGrid`]).
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
