//! A scenario's simulation, of whichever mode, with what each mode writes out.

use std::path::{Path, PathBuf};

use water_core::{ClassicGrid, GridMode, GridWater, SignedGrid, SplitGrid};

use crate::npy;
use crate::scenario::Scenario;

/// Most steps `run` takes between progress reports.
pub const RUN_CHUNK_STEPS: u64 = 64;

/// The simulation a scenario describes.
#[derive(Debug, Clone)]
pub enum Simulation {
    /// Signed mode.
    Signed(SignedGrid),
    /// Split mode.
    Split(SplitGrid),
    /// Classic mode.
    Classic(ClassicGrid),
}

impl Simulation {
    /// Builds the scenario's grid with its land (impulses are added while running).
    #[must_use]
    pub fn new(scenario: &Scenario) -> Self {
        let mut sim = match scenario.mode {
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
            GridMode::Classic => Self::Classic(
                ClassicGrid::new(
                    scenario.size,
                    scenario.params.cell_size(),
                    scenario.classic_shift,
                )
                .unwrap_or_else(|e| unreachable!("shift validated when parsing: {e}")),
            ),
        };
        sim.water_mut()
            .set_land(scenario.land.clone())
            .unwrap_or_else(|e| unreachable!("land was built for this grid: {e}"));
        sim
    }

    /// The simulation as the common trait.
    #[must_use]
    pub fn water(&self) -> &dyn GridWater {
        match self {
            Self::Signed(g) => g,
            Self::Split(g) => g,
            Self::Classic(g) => g,
        }
    }

    /// The simulation as the common trait, mutably.
    pub fn water_mut(&mut self) -> &mut dyn GridWater {
        match self {
            Self::Signed(g) => g,
            Self::Split(g) => g,
            Self::Classic(g) => g,
        }
    }

    /// Runs the whole scenario: impulses before their step, the steps between them as
    /// multi-step runs (of at most [`RUN_CHUNK_STEPS`], so progress can be shown); `on_step` is
    /// told how many steps are done.
    pub fn run(&mut self, scenario: &Scenario, mut on_step: impl FnMut(u64)) {
        let mut next = scenario.impulses.iter().peekable();
        let mut step = 0;
        while step < scenario.steps {
            while let Some(timed) = next.next_if(|t| t.step <= step) {
                self.water_mut().add_impulse(&timed.impulse);
            }
            let until = next
                .peek()
                .map_or(scenario.steps, |t| t.step.min(scenario.steps))
                .min(step + RUN_CHUNK_STEPS);
            self.water_mut().step_many(until - step);
            step = until;
            on_step(step);
        }
    }

    /// Writes `height.npy` (`[height, width]`, f32; i16 in classic mode) and, in split mode,
    /// `positive.npy` and `negative.npy` into `dir`. Returns the files written.
    ///
    /// # Errors
    /// The first I/O error.
    pub fn write_arrays(&self, dir: &Path) -> std::io::Result<Vec<PathBuf>> {
        let size = self.water().size();
        let shape = [size.height(), size.width()];
        let mut written = Vec::new();
        let mut put_f32 = |name: &str, data: &[f32]| {
            let path = dir.join(name);
            npy::write(&path, data, &shape)?;
            written.push(path);
            Ok::<(), std::io::Error>(())
        };
        match self {
            Self::Signed(g) => put_f32("height.npy", g.current())?,
            Self::Split(g) => {
                put_f32("height.npy", &g.heights())?;
                put_f32("positive.npy", g.positive().current())?;
                put_f32("negative.npy", g.negative().current())?;
            }
            Self::Classic(g) => {
                let path = dir.join("height.npy");
                npy::write(&path, g.current(), &shape)?;
                written.push(path);
            }
        }
        Ok(written)
    }
}
