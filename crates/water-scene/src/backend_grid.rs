//! [`BackendGrid`]: grid water on the CPU reference or a GPU backend behind one type, as a
//! [`crate::Scene`] holds it; each backend's part is its own file (`water/cpu_grid.rs`,
//! `water/gpu_grid.rs`).

use water_core::{ContactMasks, Depth, GridWater, HeightView, Impulse, LandMask};
use water_gpu::{GpuContext, GpuGrid, GridSpec};

use crate::backend::Backend;
use crate::error::SceneError;
use crate::water::{CpuGrid, GridOutputs, Water, WaterGrid};

/// Grid water on the CPU reference (in its mode's own stepper) or on a GPU backend. It is
/// [`Water`] and [`WaterGrid`] as the one it holds is.
#[derive(Debug)]
#[expect(
    clippy::large_enum_variant,
    reason = "a scene holds one, for its life; the CPU grid inline keeps its modes matchable"
)]
pub enum BackendGrid {
    /// On the CPU.
    Cpu(CpuGrid),
    /// On a GPU backend, any mode.
    Gpu(Box<GpuGrid>),
}

impl BackendGrid {
    /// Still water of `spec` with `land` on `backend` (GPU backends run on `gpu`).
    ///
    /// # Errors
    /// [`SceneError::NoGpu`] for a GPU backend without a context; what the backend's
    /// constructor reports (limits, a classic grid with another boundary than fixed, the
    /// dispersive model on the fragment backend, ...).
    pub fn new(
        spec: GridSpec,
        land: LandMask,
        backend: Backend,
        gpu: Option<&GpuContext>,
    ) -> Result<Self, SceneError> {
        let mut grid = match backend.gpu() {
            None => Self::Cpu(CpuGrid::still(spec)?),
            Some(kind) => {
                let gpu = gpu.ok_or(SceneError::NoGpu { backend })?;
                Self::Gpu(Box::new(GpuGrid::new(kind, &gpu.device, &gpu.queue, spec)?))
            }
        };
        grid.set_land(land)?;
        Ok(grid)
    }

    /// The CPU grid as the core's [`GridWater`], if it runs on the CPU.
    #[must_use]
    pub fn cpu(&self) -> Option<&dyn GridWater> {
        match self {
            Self::Cpu(g) => Some(g.grid()),
            Self::Gpu(_) => None,
        }
    }

    /// The CPU grid as the core's [`GridWater`], mutable.
    pub fn cpu_mut(&mut self) -> Option<&mut dyn GridWater> {
        match self {
            Self::Cpu(g) => Some(g.grid_mut()),
            Self::Gpu(_) => None,
        }
    }

    /// The GPU grid, if it runs on a GPU.
    #[must_use]
    pub fn gpu(&self) -> Option<&GpuGrid> {
        match self {
            Self::Gpu(g) => Some(g),
            Self::Cpu(_) => None,
        }
    }

    /// The GPU grid, mutable.
    pub fn gpu_mut(&mut self) -> Option<&mut GpuGrid> {
        match self {
            Self::Gpu(g) => Some(g),
            Self::Cpu(_) => None,
        }
    }

    /// The water it holds, as grid water.
    fn held(&self) -> &dyn WaterGrid {
        match self {
            Self::Cpu(g) => g,
            Self::Gpu(g) => g,
        }
    }

    /// The water it holds, mutable.
    fn held_mut(&mut self) -> &mut dyn WaterGrid {
        match self {
            Self::Cpu(g) => g,
            Self::Gpu(g) => g,
        }
    }
}

impl Water for BackendGrid {
    type Impulse = Impulse;
    type Contacts = ContactMasks;

    fn backend(&self) -> Backend {
        self.held().backend()
    }

    fn add_impulse(&mut self, impulse: &Impulse) -> Result<(), SceneError> {
        self.held_mut().add_impulse(impulse)
    }

    fn step_many(&mut self, steps: u64) -> Result<(), SceneError> {
        self.held_mut().step_many(steps)
    }

    fn step_frame(&mut self, steps: u64) -> Result<(), SceneError> {
        self.held_mut().step_frame(steps)
    }

    fn step_with_contacts(&mut self, contacts: &ContactMasks) -> Result<(), SceneError> {
        self.held_mut().step_with_contacts(contacts)
    }

    fn heights(&self) -> Result<Vec<f32>, SceneError> {
        self.held().heights()
    }
}

impl WaterGrid for BackendGrid {
    fn set_land(&mut self, land: LandMask) -> Result<(), SceneError> {
        self.held_mut().set_land(land)
    }

    fn set_depth(&mut self, depth: &Depth) -> Result<(), SceneError> {
        self.held_mut().set_depth(depth)
    }

    fn shift_window(&mut self, dx: isize, dy: isize) -> Result<(), SceneError> {
        self.held_mut().shift_window(dx, dy)
    }

    fn heights_view<'a>(
        &'a self,
        cell_size: f32,
        scratch: &'a mut Vec<f32>,
    ) -> Result<HeightView<'a>, SceneError> {
        self.held().heights_view(cell_size, scratch)
    }

    fn classic_heights(&self) -> Result<Vec<i16>, SceneError> {
        self.held().classic_heights()
    }

    fn energy(&self) -> Option<f64> {
        self.held().energy()
    }

    fn outputs(&self) -> Result<GridOutputs, SceneError> {
        self.held().outputs()
    }
}
