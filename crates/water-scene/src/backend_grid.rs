//! [`BackendGrid`]: grid water on any backend behind one type.

use water_core::{
    ClassicGrid, ContactMasks, Depth, DispersiveGrid, GridMode, GridWater, HeightView, Impulse,
    LandMask, SignedGrid, SplitGrid, WaterError,
};
use water_gpu::GpuGridWater;
use water_gpu::{GpuContext, GpuGrid, GridSpec};

use crate::backend::Backend;
use crate::error::SceneError;

/// Grid water on the CPU reference (in its mode's own stepper) or on a GPU backend.
#[derive(Debug)]
pub enum BackendGrid {
    /// Signed mode on the CPU.
    Signed(SignedGrid),
    /// Split mode on the CPU.
    Split(SplitGrid),
    /// Classic mode on the CPU.
    Classic(ClassicGrid),
    /// The dispersive model on the CPU ([`GridSpec::dispersion`]).
    Dispersive(Box<DispersiveGrid>),
    /// Any mode on a GPU backend.
    Gpu(Box<GpuGrid>),
}

/// The state of grid water as files hold it.
#[derive(Debug, Clone, PartialEq)]
pub struct GridOutputs {
    /// Heights, f32, row-major (classic: its integers).
    pub heights: Vec<f32>,
    /// Split mode's channels `(p, n)`.
    pub channels: Option<(Vec<f32>, Vec<f32>)>,
    /// Classic mode's i16 heights.
    pub classic: Option<Vec<i16>>,
}

impl BackendGrid {
    /// Still water of `spec` with `land` on `backend` (GPU backends run on `gpu`).
    ///
    /// # Errors
    /// [`SceneError::NoGpu`] for a GPU backend without a context; what the backend's
    /// constructor reports (limits, a classic grid with another boundary than fixed, ...).
    pub fn new(
        spec: GridSpec,
        land: LandMask,
        backend: Backend,
        gpu: Option<&GpuContext>,
    ) -> Result<Self, SceneError> {
        let mut grid = Self::still(spec, backend, gpu)?;
        grid.set_land(land)?;
        Ok(grid)
    }

    /// Still water of `spec` on `backend`, without land.
    fn still(
        spec: GridSpec,
        backend: Backend,
        gpu: Option<&GpuContext>,
    ) -> Result<Self, SceneError> {
        // The dispersive model on a GPU backend: the compute grid runs it, the fragment grid
        // refuses it by name (below, through `GpuGrid::new`).
        if let (Some(airy), None) = (spec.dispersion, backend.gpu()) {
            spec.check()?;
            let params = spec.params;
            return Ok(Self::Dispersive(Box::new(DispersiveGrid::new(
                spec.size,
                params.cell_size(),
                params.dt(),
                params.damping(),
                airy,
                spec.boundary,
            )?)));
        }
        Ok(match backend.gpu() {
            None => {
                spec.check()?;
                match spec.mode {
                    // Allocated fallibly: a grid too large for this process's memory is an
                    // error naming the bytes, not an abort.
                    GridMode::Signed => {
                        Self::Signed(SignedGrid::try_new(spec.size, spec.params, spec.boundary)?)
                    }
                    GridMode::Split => {
                        Self::Split(SplitGrid::try_new(spec.size, spec.params, spec.boundary)?)
                    }
                    GridMode::Classic => Self::Classic(ClassicGrid::new(
                        spec.size,
                        spec.params.cell_size(),
                        spec.classic_shift,
                    )?),
                }
            }
            Some(kind) => {
                let gpu = gpu.ok_or(SceneError::NoGpu { backend })?;
                Self::Gpu(Box::new(GpuGrid::new(kind, &gpu.device, &gpu.queue, spec)?))
            }
        })
    }

    /// The backend it runs on.
    #[must_use]
    pub fn backend(&self) -> Backend {
        match self {
            Self::Gpu(g) => g.backend().into(),
            _ => Backend::Cpu,
        }
    }

    /// The CPU grid, if it runs on the CPU.
    #[must_use]
    pub fn cpu(&self) -> Option<&dyn GridWater> {
        match self {
            Self::Signed(g) => Some(g),
            Self::Split(g) => Some(g),
            Self::Classic(g) => Some(g),
            Self::Dispersive(g) => Some(g.as_ref()),
            Self::Gpu(_) => None,
        }
    }

    /// The CPU grid, mutable.
    pub fn cpu_mut(&mut self) -> Option<&mut dyn GridWater> {
        match self {
            Self::Signed(g) => Some(g),
            Self::Split(g) => Some(g),
            Self::Classic(g) => Some(g),
            Self::Dispersive(g) => Some(g.as_mut()),
            Self::Gpu(_) => None,
        }
    }

    /// The GPU grid, if it runs on a GPU.
    #[must_use]
    pub fn gpu(&self) -> Option<&GpuGrid> {
        match self {
            Self::Gpu(g) => Some(g),
            _ => None,
        }
    }

    /// The GPU grid, mutable.
    pub fn gpu_mut(&mut self) -> Option<&mut GpuGrid> {
        match self {
            Self::Gpu(g) => Some(g),
            _ => None,
        }
    }

    /// Runs `gpu` on a GPU grid or `cpu` on a CPU one.
    fn on_either(
        &mut self,
        gpu: impl FnOnce(&mut GpuGrid) -> Result<(), water_gpu::GpuError>,
        cpu: impl FnOnce(&mut dyn GridWater) -> Result<(), WaterError>,
    ) -> Result<(), SceneError> {
        match self {
            Self::Gpu(g) => gpu(g)?,
            other => {
                if let Some(w) = other.cpu_mut() {
                    cpu(w)?;
                }
            }
        }
        Ok(())
    }

    /// Replaces the land and zeroes its cells (a round trip through the host on the GPU: for
    /// setting up, not for every frame).
    ///
    /// # Errors
    /// A mask of another size; a failed GPU readback.
    pub fn set_land(&mut self, land: LandMask) -> Result<(), SceneError> {
        if let Self::Gpu(g) = self {
            return Ok(g.set_land(land)?);
        }
        match self.cpu_mut() {
            Some(w) => Ok(w.set_land(land)?),
            None => Ok(()),
        }
    }

    /// Sets the still-water depth of every cell ([`SignedGrid::set_depth`]; on the GPU
    /// [`GpuGridWater::set_depth`], a host round trip for the dry cells).
    ///
    /// # Errors
    /// [`WaterError::ClassicTakesNo`] in classic mode (a typed GPU error there on the GPU);
    /// a depth of another size; f16 storage on the GPU; a failed readback.
    pub fn set_depth(&mut self, depth: &Depth) -> Result<(), SceneError> {
        match self {
            Self::Signed(g) => g.set_depth(depth)?,
            Self::Split(g) => g.set_depth(depth)?,
            Self::Classic(_) => Err(WaterError::ClassicTakesNo { what: "depth" })?,
            Self::Dispersive(g) => g.set_depth(depth)?,
            Self::Gpu(g) => g.set_depth(depth)?,
        }
        Ok(())
    }

    /// The classic grid's i16 heights, for bit-exact comparison (a readback on the GPU).
    ///
    /// # Errors
    /// [`SceneError::Water`] outside classic mode; a failed readback.
    pub fn classic_heights(&self) -> Result<Vec<i16>, SceneError> {
        match self {
            Self::Classic(g) => Ok(g.current().to_vec()),
            Self::Gpu(g) => Ok(g.classic_heights()?),
            Self::Signed(_) | Self::Dispersive(_) => Err(not_classic(GridMode::Signed)),
            Self::Split(_) => Err(not_classic(GridMode::Split)),
        }
    }

    /// Adds an impulse to the current level (a submission on the GPU).
    ///
    /// # Errors
    /// A lost GPU device.
    pub fn add_impulse(&mut self, impulse: &Impulse) -> Result<(), SceneError> {
        self.on_either(
            |g| g.add_impulse(impulse),
            |w| {
                w.add_impulse(impulse);
                Ok(())
            },
        )
    }

    /// Moves the window by whole cells: new cell `(x, y)` takes old cell `(x + dx, y + dy)` in
    /// both levels, cells that come in are still water, the land moves with the water
    /// ([`GridWater::shift_window`]; on the GPU `GpuGridWater::shift_window`, one submission).
    ///
    /// # Errors
    /// A lost GPU device.
    pub fn shift_window(&mut self, dx: isize, dy: isize) -> Result<(), SceneError> {
        self.on_either(
            |g| g.shift_window(dx, dy),
            |w| {
                w.shift_window(dx, dy);
                Ok(())
            },
        )
    }

    /// `steps` steps without contact events (one submission on the GPU).
    ///
    /// # Errors
    /// A lost GPU device.
    pub fn step_many(&mut self, steps: u64) -> Result<(), SceneError> {
        self.on_either(
            |g| g.step_many(steps),
            |w| {
                w.step_many(steps);
                Ok(())
            },
        )
    }

    /// `steps` steps as a frame loop runs them: on the GPU one submission that never waits,
    /// the mean-level keeper's correction landing a frame later
    /// ([`GpuGridWater::step_frame`]); on the CPU as [`BackendGrid::step_many`].
    ///
    /// # Errors
    /// A lost GPU device.
    pub fn step_frame(&mut self, steps: u64) -> Result<(), SceneError> {
        self.on_either(
            |g| g.step_frame(steps),
            |w| {
                w.step_many(steps);
                Ok(())
            },
        )
    }

    /// One step with bow and stern events from `contacts` (uploaded on the GPU).
    ///
    /// # Errors
    /// Masks of another grid size; a lost GPU device.
    pub fn step_with_contacts(&mut self, contacts: &ContactMasks) -> Result<(), SceneError> {
        self.on_either(
            |g| g.step_with_contacts(contacts),
            |w| w.step_with_contacts(contacts),
        )
    }

    /// Calls `f` with the current heights as a sampling view (`cell_size` metres per cell): no
    /// copy for a signed CPU grid, `p - n` into `scratch` for a split one, a readback on the GPU
    /// (which waits for the GPU).
    ///
    /// # Errors
    /// A failed readback.
    pub fn with_heights<R>(
        &self,
        cell_size: f32,
        scratch: &mut Vec<f32>,
        f: impl FnOnce(&HeightView<'_>) -> R,
    ) -> Result<R, SceneError> {
        match self {
            Self::Signed(g) => Ok(f(&g.view())),
            Self::Dispersive(g) => Ok(f(&g.view())),
            Self::Split(g) => {
                scratch.clear();
                scratch.extend(
                    g.positive()
                        .current()
                        .iter()
                        .zip(g.negative().current())
                        .map(|(p, n)| p - n),
                );
                Ok(f(&HeightView::new(g.size(), cell_size, scratch)?))
            }
            Self::Classic(g) => {
                *scratch = g.heights();
                Ok(f(&HeightView::new(g.size(), cell_size, scratch)?))
            }
            Self::Gpu(g) => Ok(f(&g.height_snapshot()?.view())),
        }
    }

    /// Current heights, row-major (a readback on the GPU).
    ///
    /// # Errors
    /// A failed readback.
    pub fn heights(&self) -> Result<Vec<f32>, SceneError> {
        Ok(match self {
            Self::Gpu(g) => g.heights()?,
            cpu => cpu.cpu().map(GridWater::heights).unwrap_or_default(),
        })
    }

    /// The discrete energy (CPU grids, which hold both time levels on the host).
    #[must_use]
    pub fn energy(&self) -> Option<f64> {
        self.cpu().map(GridWater::energy)
    }

    /// The state as files hold it (a readback on the GPU).
    ///
    /// # Errors
    /// A failed readback.
    pub fn outputs(&self) -> Result<GridOutputs, SceneError> {
        Ok(match self {
            Self::Signed(g) => GridOutputs {
                heights: g.current().to_vec(),
                channels: None,
                classic: None,
            },
            Self::Dispersive(g) => GridOutputs {
                heights: g.field().current().to_vec(),
                channels: None,
                classic: None,
            },
            Self::Split(g) => GridOutputs {
                heights: g.heights(),
                channels: Some((
                    g.positive().current().to_vec(),
                    g.negative().current().to_vec(),
                )),
                classic: None,
            },
            Self::Classic(g) => GridOutputs {
                heights: g.heights(),
                channels: None,
                classic: Some(g.current().to_vec()),
            },
            Self::Gpu(g) => {
                let cells = g.spec().size.cells();
                match g.spec().mode {
                    GridMode::Signed => GridOutputs {
                        heights: g.heights()?,
                        channels: None,
                        classic: None,
                    },
                    GridMode::Split => {
                        let both = g.channels()?;
                        let (p, n) = both.split_at(cells);
                        GridOutputs {
                            heights: p.iter().zip(n).map(|(p, n)| p - n).collect(),
                            channels: Some((p.to_vec(), n.to_vec())),
                            classic: None,
                        }
                    }
                    GridMode::Classic => {
                        let classic = g.classic_heights()?;
                        GridOutputs {
                            heights: classic.iter().map(|&v| f32::from(v)).collect(),
                            channels: None,
                            classic: Some(classic),
                        }
                    }
                }
            }
        })
    }
}

/// The error for i16 heights asked of a CPU grid in another mode.
fn not_classic(mode: GridMode) -> SceneError {
    water_gpu::GpuError::WrongMode {
        operation: "classic_heights",
        mode,
        instead: "heights",
    }
    .into()
}
