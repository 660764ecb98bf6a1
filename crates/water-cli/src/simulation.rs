//! A scenario's simulation on any backend: the CPU grid of its mode, or a GPU grid.

use std::path::{Path, PathBuf};

use water_core::{
    ClassicGrid, ContactMasks, GridMode, GridWater, HeightView, Impulse, SignedGrid, SplitGrid,
};
use water_gpu::{GpuBackend, GpuContext, GpuError, GpuGrid, GridSpec};

use crate::npy;
use crate::scenario::Scenario;

/// Most steps `run` takes between progress reports.
pub const RUN_CHUNK_STEPS: u64 = 64;

/// Where a scenario runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BackendChoice {
    /// The CPU reference.
    Cpu,
    /// A GPU backend.
    Gpu(GpuBackend),
}

impl BackendChoice {
    /// Every backend, the reference first.
    pub const ALL: [Self; 3] = [
        Self::Cpu,
        Self::Gpu(GpuBackend::Compute),
        Self::Gpu(GpuBackend::Fragment),
    ];

    /// The name on the command line: `cpu`, `gpu` or `gpu-fragment`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Cpu => "cpu",
            Self::Gpu(b) => b.name(),
        }
    }

    /// Parses a command-line name.
    ///
    /// # Errors
    /// A message listing the names for anything else.
    pub fn parse(name: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|b| b.name() == name)
            .ok_or_else(|| format!("unknown backend {name:?}; expected cpu, gpu or gpu-fragment"))
    }
}

/// The simulation a scenario describes.
#[derive(Debug)]
pub enum Simulation {
    /// Signed mode on the CPU.
    Signed(SignedGrid),
    /// Split mode on the CPU.
    Split(SplitGrid),
    /// Classic mode on the CPU.
    Classic(ClassicGrid),
    /// Any mode on a GPU backend.
    Gpu(Box<GpuGrid>),
}

/// The final state of a run, as the files hold it.
#[derive(Debug, Clone, PartialEq)]
pub struct Outputs {
    /// Heights, f32 (classic: its integers).
    pub heights: Vec<f32>,
    /// Split mode's channels `(p, n)`.
    pub channels: Option<(Vec<f32>, Vec<f32>)>,
    /// Classic mode's i16 heights.
    pub classic: Option<Vec<i16>>,
}

impl Simulation {
    /// Builds the scenario's grid with its land on `backend` (GPU backends need `gpu`).
    ///
    /// # Errors
    /// What the GPU backend reports (limits, lost device); the CPU side cannot fail for a
    /// validated scenario.
    pub fn new(
        scenario: &Scenario,
        backend: BackendChoice,
        gpu: Option<&GpuContext>,
    ) -> Result<Self, GpuError> {
        let mut sim = match backend {
            BackendChoice::Cpu => match scenario.mode {
                GridMode::Signed => Self::Signed(SignedGrid::new(
                    scenario.size,
                    scenario.params,
                    scenario.boundary,
                )),
                GridMode::Split => Self::Split(SplitGrid::new(
                    scenario.size,
                    scenario.params,
                    scenario.boundary,
                )),
                GridMode::Classic => Self::Classic(ClassicGrid::new(
                    scenario.size,
                    scenario.params.cell_size(),
                    scenario.classic_shift,
                )?),
            },
            BackendChoice::Gpu(kind) => {
                let gpu = gpu.ok_or_else(|| {
                    GpuError::Unsupported(format!("backend {} needs a GPU", kind.name()))
                })?;
                let spec = GridSpec::new(
                    scenario.size,
                    scenario.params,
                    scenario.boundary,
                    scenario.mode,
                )
                .with_classic_shift(scenario.classic_shift);
                Self::Gpu(Box::new(GpuGrid::new(kind, &gpu.device, &gpu.queue, spec)?))
            }
        };
        match &mut sim {
            Self::Gpu(g) => g.set_land(scenario.land.clone())?,
            cpu => cpu
                .cpu_mut()
                .map_or(Ok(()), |w| w.set_land(scenario.land.clone()))?,
        }
        Ok(sim)
    }

    fn cpu_mut(&mut self) -> Option<&mut dyn GridWater> {
        match self {
            Self::Signed(g) => Some(g),
            Self::Split(g) => Some(g),
            Self::Classic(g) => Some(g),
            Self::Gpu(_) => None,
        }
    }

    /// The CPU grid, if the simulation runs on the CPU.
    #[must_use]
    pub fn cpu(&self) -> Option<&dyn GridWater> {
        match self {
            Self::Signed(g) => Some(g),
            Self::Split(g) => Some(g),
            Self::Classic(g) => Some(g),
            Self::Gpu(_) => None,
        }
    }

    pub(crate) fn add_impulse(&mut self, impulse: &Impulse) -> Result<(), GpuError> {
        match self {
            Self::Gpu(g) => g.add_impulse(impulse),
            cpu => {
                if let Some(w) = cpu.cpu_mut() {
                    w.add_impulse(impulse);
                }
                Ok(())
            }
        }
    }

    fn step_many(&mut self, steps: u64) -> Result<(), GpuError> {
        match self {
            Self::Gpu(g) => g.step_many(steps),
            cpu => {
                if let Some(w) = cpu.cpu_mut() {
                    w.step_many(steps);
                }
                Ok(())
            }
        }
    }

    /// One step with bow and stern events from `contacts`.
    ///
    /// # Errors
    /// A lost GPU device; masks of another grid size.
    pub fn step_with_contacts(&mut self, contacts: &ContactMasks) -> Result<(), GpuError> {
        match self {
            Self::Gpu(g) => g.step_with_contacts(contacts),
            cpu => match cpu.cpu_mut() {
                Some(w) => w.step_with_contacts(contacts).map_err(GpuError::from),
                None => Ok(()),
            },
        }
    }

    /// Calls `f` with the current heights as a sampling view (`cell_size` metres per cell): no
    /// copy for a signed CPU grid, `p - n` for a split one, a readback on the GPU.
    ///
    /// # Errors
    /// A failed readback.
    pub fn with_heights<R>(
        &self,
        cell_size: f32,
        f: impl FnOnce(&HeightView<'_>) -> R,
    ) -> Result<R, GpuError> {
        match self {
            Self::Signed(g) => Ok(f(&g.view())),
            Self::Gpu(g) => Ok(f(&g.height_snapshot()?.view())),
            cpu => {
                let w = cpu.cpu().expect("CPU variants have a CPU grid");
                let heights = w.heights();
                Ok(f(&HeightView::new(w.size(), cell_size, &heights)?))
            }
        }
    }

    /// Runs the whole scenario: impulses before their step, the steps between them as
    /// multi-step runs (of at most [`RUN_CHUNK_STEPS`], so progress can be shown); `on_step` is
    /// told how many steps are done.
    ///
    /// # Errors
    /// A lost GPU device.
    pub fn run(&mut self, scenario: &Scenario, on_step: impl FnMut(u64)) -> Result<(), GpuError> {
        self.run_between(scenario, 0, scenario.steps, on_step)
    }

    /// [`Simulation::run`] from step `from` (the steps before it taken, with their impulses) to
    /// step `to`: impulses at steps `from..to` land before their step.
    ///
    /// # Errors
    /// A lost GPU device.
    pub fn run_between(
        &mut self,
        scenario: &Scenario,
        from: u64,
        to: u64,
        mut on_step: impl FnMut(u64),
    ) -> Result<(), GpuError> {
        let to = to.min(scenario.steps);
        let mut next = scenario
            .impulses
            .iter()
            .filter(|t| t.step >= from)
            .peekable();
        let mut step = from;
        while step < to {
            while let Some(timed) = next.next_if(|t| t.step <= step) {
                self.add_impulse(&timed.impulse)?;
            }
            let until = next
                .peek()
                .map_or(to, |t| t.step.min(to))
                .min(step + RUN_CHUNK_STEPS);
            self.step_many(until - step)?;
            step = until;
            on_step(step);
        }
        Ok(())
    }

    /// The final state (a readback on the GPU).
    ///
    /// # Errors
    /// A failed readback.
    pub fn outputs(&self) -> Result<Outputs, GpuError> {
        Ok(match self {
            Self::Signed(g) => Outputs {
                heights: g.current().to_vec(),
                channels: None,
                classic: None,
            },
            Self::Split(g) => Outputs {
                heights: g.heights(),
                channels: Some((
                    g.positive().current().to_vec(),
                    g.negative().current().to_vec(),
                )),
                classic: None,
            },
            Self::Classic(g) => Outputs {
                heights: g.heights(),
                channels: None,
                classic: Some(g.current().to_vec()),
            },
            Self::Gpu(g) => {
                let cells = g.spec().size.cells();
                match g.spec().mode {
                    GridMode::Signed => Outputs {
                        heights: g.heights()?,
                        channels: None,
                        classic: None,
                    },
                    GridMode::Split => {
                        let both = g.channels()?;
                        let (p, n) = both.split_at(cells);
                        Outputs {
                            heights: p.iter().zip(n).map(|(p, n)| p - n).collect(),
                            channels: Some((p.to_vec(), n.to_vec())),
                            classic: None,
                        }
                    }
                    GridMode::Classic => {
                        let classic = g.classic_heights()?;
                        Outputs {
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

impl Outputs {
    /// Writes `height.npy` (`[height, width]`, f32; i16 in classic mode) and, in split mode,
    /// `positive.npy` and `negative.npy` into `dir`. Returns the files written.
    ///
    /// # Errors
    /// The first I/O error.
    pub fn write_arrays(
        &self,
        dir: &Path,
        width: usize,
        height: usize,
    ) -> std::io::Result<Vec<PathBuf>> {
        let shape = [height, width];
        let mut written = Vec::new();
        let path = dir.join("height.npy");
        match &self.classic {
            Some(classic) => npy::write(&path, classic, &shape)?,
            None => npy::write(&path, &self.heights, &shape)?,
        }
        written.push(path);
        if let Some((p, n)) = &self.channels {
            for (name, data) in [("positive.npy", p), ("negative.npy", n)] {
                let path = dir.join(name);
                npy::write(&path, data, &shape)?;
                written.push(path);
            }
        }
        Ok(written)
    }
}
