//! `water run`: runs a scenario, writes its arrays and a picture, and summarises.

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::Serialize;

use water_core::GridWater;
use water_gpu::{GpuContext, GpuError};

use crate::bodies::Fleet;
use crate::picture;
use crate::progress::Progress;
use crate::scenario::Scenario;
use crate::simulation::{BackendChoice, Simulation};

/// What a run did, as printed and written to `summary.json`.
#[derive(Debug, Clone, Serialize)]
pub struct RunSummary {
    /// Scenario source.
    pub scenario: String,
    /// Backend that ran it.
    pub backend: String,
    /// The GPU adapter, for GPU backends.
    pub adapter: Option<String>,
    /// Stepper.
    pub mode: String,
    /// Boundary.
    pub boundary: String,
    /// Grid width, cells.
    pub width: usize,
    /// Grid height, cells.
    pub height: usize,
    /// Steps run.
    pub steps: u64,
    /// Courant number of the run.
    pub courant: f64,
    /// Simulated time, seconds.
    pub simulated_seconds: f64,
    /// Wall time of the steps, seconds.
    pub wall_seconds: f64,
    /// Cell updates per second, millions.
    pub mcells_per_s: f64,
    /// Largest |height| at the end (m; classic: integer units).
    pub max_abs_height: f32,
    /// Volume above rest at the end, m^3.
    pub volume: f64,
    /// Discrete energy at the end, m^2 (CPU runs, which keep both time levels on the host).
    pub energy: Option<f64>,
    /// Where each floating body ended, metres.
    pub bodies: Vec<BodySummary>,
    /// Files written.
    pub files: Vec<PathBuf>,
}

/// A floating body's end position.
#[derive(Debug, Clone, Serialize)]
pub struct BodySummary {
    /// Its name.
    pub name: String,
    /// Centre of mass at the end, metres.
    pub position: [f32; 3],
}

/// Runs the whole scenario on `sim`, its floating bodies with it; returns the bodies at the end.
///
/// # Errors
/// GPU failures; bodies whose forces stop being finite.
pub fn simulate(
    sim: &mut Simulation,
    scenario: &Scenario,
    on_step: impl FnMut(u64),
) -> Result<Fleet, RunError> {
    let mut run = ScenarioRun::new(scenario)?;
    run.advance_to(sim, scenario.steps, on_step)?;
    Ok(run.into_fleet())
}

/// A scenario part of the way through: the step reached and its floating bodies. `water render`
/// advances one between frames; [`simulate`] in one go.
#[derive(Debug)]
pub struct ScenarioRun<'a> {
    scenario: &'a Scenario,
    fleet: Fleet,
    step: u64,
}

impl<'a> ScenarioRun<'a> {
    /// The scenario at step 0, its bodies at their start.
    ///
    /// # Errors
    /// A body's mask could not be drawn (never for validated bodies).
    pub fn new(scenario: &'a Scenario) -> Result<Self, RunError> {
        Ok(Self {
            scenario,
            fleet: Fleet::new(
                scenario.bodies.clone(),
                scenario.size,
                scenario.params.cell_size() as f32,
                scenario.contact_amplitude,
            )?,
            step: 0,
        })
    }

    /// Steps taken.
    #[must_use]
    pub fn step(&self) -> u64 {
        self.step
    }

    /// The floating bodies.
    #[must_use]
    pub fn fleet(&self) -> &Fleet {
        &self.fleet
    }

    /// The bodies, at the end of the run.
    #[must_use]
    pub fn into_fleet(self) -> Fleet {
        self.fleet
    }

    /// Runs `sim` on to step `until` (at most the scenario's steps): impulses before their
    /// step; with bodies, one step at a time, the bodies moving on the current water and drawing
    /// their masks before the water steps with them. `on_step` is told the steps done.
    ///
    /// # Errors
    /// GPU failures; bodies whose forces stop being finite.
    pub fn advance_to(
        &mut self,
        sim: &mut Simulation,
        until: u64,
        mut on_step: impl FnMut(u64),
    ) -> Result<(), RunError> {
        let scenario = self.scenario;
        let until = until.min(scenario.steps);
        if until <= self.step {
            return Ok(());
        }
        if self.fleet.is_empty() {
            sim.run_between(scenario, self.step, until, on_step)?;
            self.step = until;
            return Ok(());
        }
        let dt = scenario.params.dt() as f32;
        let cell_size = scenario.params.cell_size() as f32;
        let from = self.step;
        let mut next = scenario
            .impulses
            .iter()
            .filter(|t| t.step >= from)
            .peekable();
        for step in from..until {
            while let Some(timed) = next.next_if(|t| t.step <= step) {
                sim.add_impulse(&timed.impulse)?;
            }
            let fleet = &mut self.fleet;
            sim.with_heights(cell_size, |water| fleet.advance(water, step, dt))??;
            sim.step_with_contacts(self.fleet.contacts())?;
            self.step = step + 1;
            on_step(step + 1);
        }
        Ok(())
    }
}

/// Why a run failed.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// Writing the outputs.
    #[error("writing to {dir}: {source}")]
    Io {
        /// The output folder.
        dir: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The GPU backend.
    #[error(transparent)]
    Gpu(#[from] GpuError),
    /// Options out of range.
    #[error("{0}")]
    Options(String),
    /// A floating body (forces that stopped being finite).
    #[error("floating body: {0}")]
    Bodies(#[from] water_buoyancy::BuoyancyError),
}

/// Runs `scenario` on `backend` and writes `height.npy` (and split channels), `height.png` and
/// `summary.json` into `out`.
///
/// # Errors
/// [`RunError::Gpu`] for GPU failures (no adapter, limits, lost device), [`RunError::Io`] for
/// files.
pub fn run_scenario(
    scenario: &Scenario,
    backend: BackendChoice,
    out: &Path,
    show_progress: bool,
) -> Result<RunSummary, RunError> {
    let io = |source| RunError::Io {
        dir: out.to_path_buf(),
        source,
    };
    std::fs::create_dir_all(out).map_err(io)?;
    let gpu = match backend {
        BackendChoice::Cpu => None,
        BackendChoice::Gpu(_) => Some(GpuContext::headless()?),
    };
    let mut sim = Simulation::new(scenario, backend, gpu.as_ref())?;
    let mut progress = Progress::new("run", scenario.steps, show_progress);
    let start = Instant::now();
    let fleet = simulate(&mut sim, scenario, |done| progress.update(done))?;
    let outputs = sim.outputs()?;
    let wall_seconds = start.elapsed().as_secs_f64();
    progress.finish();

    let size = scenario.size;
    let heights = &outputs.heights;
    let mut files = outputs
        .write_arrays(out, size.width(), size.height())
        .map_err(io)?;
    let rgb = picture::colour_map(
        heights,
        (!scenario.land.is_empty()).then(|| scenario.land.cells()),
        picture::robust_scale(heights),
    );
    let png = out.join("height.png");
    picture::write_png(&png, size.width(), size.height(), &rgb).map_err(io)?;
    files.push(png);
    if !fleet.is_empty() {
        let csv = out.join("bodies.csv");
        fleet.write_csv(&csv).map_err(io)?;
        files.push(csv);
    }
    let summary_path = out.join("summary.json");
    files.push(summary_path.clone());

    let courant = if scenario.mode == water_core::GridMode::Classic {
        0.5
    } else {
        scenario.params.courant()
    };
    let summary = RunSummary {
        scenario: scenario.source.clone(),
        backend: backend.name().into(),
        adapter: gpu.as_ref().map(GpuContext::describe),
        mode: scenario.mode.name().into(),
        boundary: scenario.boundary.name().into(),
        width: size.width(),
        height: size.height(),
        steps: scenario.steps,
        courant,
        simulated_seconds: scenario.steps as f64 * scenario.params.dt(),
        wall_seconds,
        mcells_per_s: size.cells() as f64 * scenario.steps as f64 / wall_seconds.max(1e-12) / 1e6,
        max_abs_height: heights.iter().fold(0.0f32, |m, z| m.max(z.abs())),
        volume: water_core::diagnostics::volume(heights, scenario.params.cell_size()),
        energy: sim.cpu().map(GridWater::energy),
        bodies: fleet
            .positions()
            .into_iter()
            .map(|(name, p)| BodySummary {
                name,
                position: p.to_array(),
            })
            .collect(),
        files,
    };
    let json = serde_json::to_string_pretty(&summary).map_err(|e| io(std::io::Error::other(e)))?;
    std::fs::write(&summary_path, json + "\n").map_err(io)?;
    Ok(summary)
}

impl RunSummary {
    /// Human-readable lines for the terminal.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "scenario   {}\nbackend    {}  mode {}  boundary {}\ngrid       {} x {}  a = {:.4}\n\
             steps      {} ({:.3} s simulated) in {:.3} s wall, {:.1} Mcell/s\n\
             surface    max |z| = {:.4}  volume = {:.6e} m^3  energy = {}\n",
            self.scenario,
            self.backend,
            self.mode,
            self.boundary,
            self.width,
            self.height,
            self.courant,
            self.steps,
            self.simulated_seconds,
            self.wall_seconds,
            self.mcells_per_s,
            self.max_abs_height,
            self.volume,
            self.energy
                .map_or_else(|| "n/a (GPU)".to_owned(), |e| format!("{e:.6e} m^2"))
        );
        if let Some(adapter) = &self.adapter {
            s.push_str(&format!("adapter    {adapter}\n"));
        }
        for b in &self.bodies {
            let [x, y, z] = b.position;
            s.push_str(&format!(
                "body       {} ends at ({x:.3}, {y:.3}, {z:.3}) m\n",
                b.name
            ));
        }
        for f in &self.files {
            s.push_str(&format!("wrote      {}\n", f.display()));
        }
        s
    }
}
