//! `water run`: runs a scenario, writes its arrays and a picture, and summarises.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::Serialize;

use water_gpu::{GpuContext, GpuError};
use water_scene::scenario::{Scenario, ScenarioRun, RUN_CHUNK_STEPS};
use water_scene::{Backend, BodyId, CsvTrajectory, Scene, SceneError, SceneEvent, TrajectorySink};

use crate::limits::{self, MemoryError};
use crate::npy;
use crate::out_dir::OutputDir;
use crate::picture;
use crate::progress::Progress;
use water_scene::WaterGrid as _;

/// What a run did, as printed and written to `summary.json`.
#[derive(Debug, Clone, Serialize)]
pub struct RunSummary {
    /// Scenario source.
    pub scenario: String,
    /// Backend that ran it.
    pub backend: String,
    /// The GPU adapter, for GPU backends.
    pub adapter: Option<String>,
    /// Water model: `wave` (one speed for every wavelength) or `dispersive` (Airy's relation).
    pub model: String,
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
    /// Courant number of the run, `a = (c dt / h)^2` against the limit 1/2; for the
    /// dispersive model `c` is the shortest resolved wave's phase speed, so `a <= 1/2` is its
    /// limit `omega_max dt <= pi`.
    pub courant: f64,
    /// Simulated time, seconds.
    pub simulated_seconds: f64,
    /// Wall time of the steps, seconds.
    pub wall_seconds: f64,
    /// Cell updates per second, millions.
    pub mcells_per_s: f64,
    /// Largest |height| at the end (m; classic: integer units).
    pub max_abs_height: f32,
    /// Volume of the grid's water above rest at the end (the ambient sea left out), m^3.
    pub volume: f64,
    /// Discrete energy at the end, m^2 (CPU runs, which keep both time levels on the host).
    pub energy: Option<f64>,
    /// Where each floating body ended, metres.
    pub bodies: Vec<BodySummary>,
    /// How the bodies made waves (`[contacts]`), when there are bodies.
    pub contacts: Option<ContactsSummary>,
    /// The ambient sea (`[ocean]`), if any: `height.npy` is then the sea plus the grid's water.
    pub ocean: Option<OceanSummary>,
    /// Where the grid's corner ended in the world, m (`[focus]` moves it; `[0, 0]` without
    /// one): `height.npy`'s cell `(x, y)` is centred at `origin + ((x + 1/2) h, (y + 1/2) h)`.
    pub origin: [f64; 2],
    /// Every cascade, the grid first (`[grid] cascades`): `cascade-K.npy` holds cascade K's
    /// heights for K >= 1.
    pub cascades: Vec<CascadeSummary>,
    /// Files written.
    pub files: Vec<PathBuf>,
}

/// Where a cascade ended and what its cells are.
#[derive(Debug, Clone, Serialize)]
pub struct CascadeSummary {
    /// Its corner in the world at the end, m.
    pub origin: [f64; 2],
    /// Its cells' side, m.
    pub cell_size: f64,
    /// Cells across.
    pub width: usize,
    /// Cells down.
    pub height: usize,
}

/// The ambient sea of a run.
#[derive(Debug, Clone, Serialize)]
pub struct OceanSummary {
    /// The spectrum's name.
    pub spectrum: String,
    /// The height (m) above the sea at which the spectrum's wind speed is defined.
    pub wind_height_m: f64,
    /// `4 sqrt(sum over the synthesised modes of E|h(k)|^2)`, m.
    pub hs_spectrum: f64,
    /// The seed.
    pub seed: u64,
    /// The choppiness `lambda`.
    pub choppiness: f64,
    /// The sea's periodic tiles' sides, m, largest first.
    pub tile_lengths_m: Vec<f64>,
    /// Largest |height| of the sea alone over the grid at the end, m.
    pub max_abs_height: f32,
}

/// How a run's bodies made waves.
#[derive(Debug, Clone, Serialize)]
pub struct ContactsSummary {
    /// `"events"` or `"displacement"`.
    pub source: &'static str,
    /// Its amplitude: m per m/s of body speed (events), a scale of the bodies' weight heads
    /// (displacement).
    pub amplitude: f32,
}

/// A floating body's end position, and whether it left the water.
#[derive(Debug, Clone, Serialize)]
pub struct BodySummary {
    /// Its name.
    pub name: String,
    /// Centre of mass at the end, metres.
    pub position: [f32; 3],
    /// The first step during which part of it went beyond the water's edge
    /// ([`SceneEvent::LeftWater`]: from then on it floats on still water at rest level there);
    /// `None` if it never did.
    pub left_water_step: Option<u64>,
    /// Whether part of it is beyond the water's edge at the end.
    pub off_water: bool,
}

/// The first step each body that left the water left it in ([`SceneEvent::LeftWater`]).
pub type LeftWater = HashMap<BodyId, u64>;

/// Runs the whole scenario on `scene` (built by [`Scenario::scene`]), recording every body's
/// state after every step into `trajectory` when one is given; returns the step each body that
/// left the water first left it in. The scene's events are drained between runs of
/// [`RUN_CHUNK_STEPS`] (kept, they would grow with every crossing of a long run).
///
/// # Errors
/// GPU failures; a body whose step failed, named with the step and the cause; the sink's
/// failure.
pub fn simulate(
    scene: &mut Scene,
    scenario: &Scenario,
    mut trajectory: Option<&mut dyn TrajectorySink>,
    mut on_step: impl FnMut(u64),
) -> Result<LeftWater, RunError> {
    let mut run = ScenarioRun::new(scenario);
    let mut left = LeftWater::new();
    loop {
        let until = scene
            .steps_taken()
            .saturating_add(RUN_CHUNK_STEPS)
            .min(scenario.steps);
        // Reborrowed for this run alone (a `dyn` behind `&mut` keeps its lifetime otherwise).
        let sink = trajectory
            .as_mut()
            .map(|t| &mut **t as &mut dyn TrajectorySink);
        run.advance_to(scene, until, sink, &mut on_step)?;
        for event in scene.drain_events() {
            if let SceneEvent::LeftWater { body, step } = event {
                left.entry(body).or_insert(step);
            }
        }
        if scene.steps_taken() >= scenario.steps {
            return Ok(left);
        }
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
    /// The scene: a body's failed step (named, with the step), or its water.
    #[error(transparent)]
    Scene(#[from] SceneError),
    /// A floating body's mask for a picture.
    #[error("floating body: {0}")]
    Body(#[from] water_buoyancy::BuoyancyError),
    /// The run would not fit in memory.
    #[error(transparent)]
    Memory(#[from] MemoryError),
    /// The water's heights stopped being numbers: nothing is written.
    #[error("the water diverged within its {steps} steps: {at} holds {value}; no heights written")]
    Diverged {
        /// Steps run.
        steps: u64,
        /// The first place that is not finite: `cell (x, y)` or `vertex i`.
        at: String,
        /// What it holds: NaN or an infinity.
        value: f32,
    },
}

/// [`RunError::Diverged`] for the first height that is not finite: of a grid `width` cells
/// wide, or of a sphere's vertices (`None`).
pub(crate) fn check_finite(
    heights: &[f32],
    width: Option<usize>,
    steps: u64,
) -> Result<(), RunError> {
    let Some(i) = heights.iter().position(|z| !z.is_finite()) else {
        return Ok(());
    };
    Err(RunError::Diverged {
        steps,
        at: width.map_or_else(
            || format!("vertex {i}"),
            |w| format!("cell ({}, {})", i % w, i / w),
        ),
        value: heights[i],
    })
}

/// Names of the files `water run` writes, grid and sphere runs alike: on success, files of these
/// names that an earlier run left in the folder and this one did not write are removed.
#[must_use]
pub fn is_run_output(name: &str) -> bool {
    matches!(
        name,
        "height.npy"
            | "ocean.npy"
            | "foam.npy"
            | "positive.npy"
            | "negative.npy"
            | "positions.npy"
            | "height.png"
            | "bodies.csv"
            | "summary.json"
    ) || cascade_index(name).is_some()
}

/// `K` of a `cascade-K.npy` (K = 1 to [`water_scene::MAX_CASCADES`] - 1).
fn cascade_index(name: &str) -> Option<usize> {
    let k: usize = name
        .strip_prefix("cascade-")?
        .strip_suffix(".npy")?
        .parse()
        .ok()?;
    (1..water_scene::MAX_CASCADES).contains(&k).then_some(k)
}

/// The GPU a run on `backend` needs: none for the CPU.
///
/// # Errors
/// No adapter, or one that cannot hold the simulation's buffers.
pub(crate) fn gpu_for(backend: Backend) -> Result<Option<GpuContext>, GpuError> {
    backend.gpu().map(|_| GpuContext::headless()).transpose()
}

/// Every file a run writes, in the order written: those pending in `dir`, then
/// `summary.json`, which is written last.
#[must_use]
pub(crate) fn files_with_summary(dir: &OutputDir) -> Vec<PathBuf> {
    dir.pending_paths()
        .into_iter()
        .chain([dir.path("summary.json")])
        .collect()
}

/// Ends a command's output: writes `summary` as the JSON file `name`, gives every file its
/// name and removes what an earlier run left in the folder (the files `is_ours` claims), so
/// that it holds only this run's files.
///
/// # Errors
/// The first I/O error.
pub(crate) fn write_json(
    mut dir: OutputDir,
    name: &str,
    summary: &impl Serialize,
    is_ours: impl Fn(&str) -> bool,
) -> std::io::Result<()> {
    let json = serde_json::to_string_pretty(summary).map_err(std::io::Error::other)?;
    dir.write(name, |path| std::fs::write(path, json + "\n"))?;
    dir.commit(is_ours)?;
    Ok(())
}

/// The largest |height|; NaN if any height is NaN (`f32::max` would skip it and report the
/// rest).
#[must_use]
pub(crate) fn max_abs_height(heights: &[f32]) -> f32 {
    heights.iter().fold(0.0f32, |m, z| {
        if z.is_nan() || m.is_nan() {
            f32::NAN
        } else {
            m.max(z.abs())
        }
    })
}

/// The summary line naming the GPU adapter, where there is one.
#[must_use]
pub(crate) fn adapter_line(adapter: Option<&str>) -> String {
    adapter.map_or_else(String::new, |adapter| format!("adapter    {adapter}\n"))
}

/// The summary lines naming each file written, in order.
pub(crate) fn wrote_lines<'a>(files: impl IntoIterator<Item = &'a PathBuf>) -> String {
    files
        .into_iter()
        .map(|f| format!("wrote      {}\n", f.display()))
        .collect()
}

/// Refuses a grid scenario whose buffers would not fit in memory, before any is allocated.
///
/// # Errors
/// [`MemoryError`] with the estimate and the memory available.
pub fn check_grid_memory(scenario: &Scenario) -> Result<(), MemoryError> {
    let size = scenario.size;
    let cascades = match scenario.cascades {
        1 => String::new(),
        k => format!(", {k} cascades of it"),
    };
    limits::check_memory(
        &format!(
            "a {} x {} grid in {} mode{cascades}",
            size.width(),
            size.height(),
            scenario.mode.name()
        ),
        limits::scenario_grid_bytes(scenario).saturating_mul(scenario.cascades as u64),
    )
}

/// Runs `scenario` on `backend` and writes `height.npy` (and split channels), `height.png` and
/// `summary.json` into `out`.
///
/// # Errors
/// [`RunError::Gpu`] for GPU failures (no adapter, limits, lost device), [`RunError::Io`] for
/// files.
pub fn run_scenario(
    scenario: &Scenario,
    backend: Backend,
    out: &Path,
    show_progress: bool,
) -> Result<RunSummary, RunError> {
    let io = |source| RunError::Io {
        dir: out.to_path_buf(),
        source,
    };
    check_grid_memory(scenario)?;
    let mut dir = OutputDir::create(out).map_err(io)?;
    let gpu = gpu_for(backend)?;
    let mut scene = scenario.scene(backend, gpu.as_ref())?;
    let mut progress = Progress::new("run", scenario.steps, show_progress);
    let mut trajectory = if scenario.bodies.is_empty() {
        None
    } else {
        let (csv_temporary, _) = dir.start("bodies.csv");
        let file = std::io::BufWriter::new(std::fs::File::create(&csv_temporary).map_err(io)?);
        let mut csv = CsvTrajectory::new(file).map_err(io)?;
        scene.record(&mut csv)?;
        Some(csv)
    };
    let start = Instant::now();
    let left_water = simulate(
        &mut scene,
        scenario,
        trajectory.as_mut().map(|t| t as &mut dyn TrajectorySink),
        |done| progress.update(done),
    )?;
    let mut outputs = scene.water().outputs()?;
    let wall_seconds = start.elapsed().as_secs_f64();
    progress.finish();
    check_finite(
        &outputs.heights,
        Some(scenario.size.width()),
        scenario.steps,
    )?;

    let size = scenario.size;
    let volume = water_core::diagnostics::volume(&outputs.heights, scenario.params.cell_size());
    let mut ocean = None;
    if let Some(spec) = &scenario.ocean {
        // height.npy is the surface a user sees: the sea plus the grid's water, at the cell
        // centres, the sea's time that of the last step.
        let centres = water_scene::cell_centres(
            size,
            scenario.params.cell_size() as f32,
            scene.window_origin().as_vec2(),
        );
        let sea_heights = scene
            .sea_frame()
            .map(|f| f.heights(&centres))
            .unwrap_or_default();
        for (h, s) in outputs.heights.iter_mut().zip(&sea_heights) {
            *h += s;
        }
        dir.write("ocean.npy", |path| {
            npy::write(path, &sea_heights, &[size.height(), size.width()])
        })
        .map_err(io)?;
        let sea = scene
            .ocean()
            .expect("a scenario's [ocean] is set on its scene");
        ocean = Some(OceanSummary {
            spectrum: spec.spectrum.name().into(),
            wind_height_m: spec.spectrum.wind_height(),
            hs_spectrum: sea.hs_spectrum(),
            seed: spec.seed,
            choppiness: spec.choppiness,
            tile_lengths_m: sea.tiles().iter().map(|t| t.length).collect(),
            max_abs_height: max_abs_height(&sea_heights),
        });
    }
    if let Some(foam) = scene.foam_coverage() {
        dir.write("foam.npy", |path| {
            npy::write(path, &foam, &[size.height(), size.width()])
        })
        .map_err(io)?;
    }
    let mut cascades = Vec::with_capacity(scene.cascade_count());
    for k in 0..scene.cascade_count() {
        let spec = scene.cascade_spec(k)?;
        let (w, h) = (spec.size.width(), spec.size.height());
        if k > 0 {
            let heights = scene.cascade_heights(k)?;
            check_finite(&heights, Some(w), scenario.steps)?;
            dir.write(&format!("cascade-{k}.npy"), |path| {
                npy::write(path, &heights, &[h, w])
            })
            .map_err(io)?;
        }
        cascades.push(CascadeSummary {
            origin: scene.cascade_origin(k)?.to_array(),
            cell_size: spec.params.cell_size(),
            width: w,
            height: h,
        });
    }
    let heights = &outputs.heights;
    npy::write_grid_arrays(&outputs, &mut dir, size.width(), size.height()).map_err(io)?;
    let land = scenario.land_now(&scene);
    let rgb = picture::colour_map(
        heights,
        (!land.is_empty()).then(|| land.cells()),
        picture::robust_scale(heights),
    );
    dir.write("height.png", |png| {
        water_render::write_png(png, size.width(), size.height(), &rgb)
    })
    .map_err(io)?;
    if let Some(csv) = trajectory {
        csv.finish().map_err(io)?;
    }
    let files = files_with_summary(&dir);

    let courant = if scenario.mode == water_core::GridMode::Classic {
        0.5
    } else {
        scenario.params.courant()
    };
    let bodies = scene
        .body_ids()
        .map(|id| {
            scene.body(id).map(|b| BodySummary {
                name: b.name.to_owned(),
                position: b.position.to_array(),
                left_water_step: left_water.get(&id).copied(),
                off_water: b.off_water,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let summary = RunSummary {
        scenario: scenario.source.clone(),
        backend: backend.name().into(),
        adapter: gpu.as_ref().map(GpuContext::describe),
        model: if scenario.dispersion.is_some() {
            "dispersive"
        } else {
            "wave"
        }
        .into(),
        mode: scenario.mode.name().into(),
        boundary: scenario.boundary.name().into(),
        width: size.width(),
        height: size.height(),
        steps: scenario.steps,
        courant,
        simulated_seconds: scenario.steps as f64 * scenario.params.dt(),
        wall_seconds,
        mcells_per_s: size.cells() as f64 * scenario.steps as f64 / wall_seconds.max(1e-12) / 1e6,
        max_abs_height: max_abs_height(heights),
        volume,
        energy: scene.water().energy(),
        contacts: (!bodies.is_empty()).then(|| ContactsSummary {
            source: scenario.contact_source.name(),
            amplitude: scenario.contact_amplitude,
        }),
        bodies,
        ocean,
        origin: scene.window_origin().to_array(),
        cascades,
        files,
    };
    write_json(dir, "summary.json", &summary, is_run_output).map_err(io)?;
    Ok(summary)
}

impl RunSummary {
    /// Human-readable lines for the terminal.
    #[must_use]
    pub fn to_text(&self) -> String {
        let s = format!(
            "scenario   {}\nbackend    {}  model {}  mode {}  boundary {}\ngrid       {} x {}  a = {:.4}\n\
             steps      {} ({:.3} s simulated) in {:.3} s wall, {:.1} Mcell/s\n\
             surface    max |z| = {:.4}  volume = {:.6e} m^3  energy = {}\n",
            self.scenario,
            self.backend,
            self.model,
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
        let sea = self.ocean.as_ref().map_or_else(String::new, |o| {
            format!(
                "ocean      {} (wind at {} m), Hs of its modes {:.3} m, seed {}, choppiness {}\n",
                o.spectrum, o.wind_height_m, o.hs_spectrum, o.seed, o.choppiness
            )
        });
        let window = if self.origin == [0.0, 0.0] {
            String::new()
        } else {
            let [x, y] = self.origin;
            format!("window     corner ends at ({x:.3}, {y:.3}) m\n")
        };
        let bodies: String = self
            .bodies
            .iter()
            .map(|b| {
                let [x, y, z] = b.position;
                let edge = match (b.left_water_step, b.off_water) {
                    (Some(step), true) => {
                        format!(", off the water (it first left it at step {step})")
                    }
                    (Some(step), false) => {
                        format!(" (left the water at step {step}, back on it by the end)")
                    }
                    (None, true) => ", off the water".to_owned(),
                    (None, false) => String::new(),
                };
                format!(
                    "body       {} ends at ({x:.3}, {y:.3}, {z:.3}) m{edge}\n",
                    b.name
                )
            })
            .collect();
        let cascades = if self.cascades.len() > 1 {
            let cells: Vec<String> = self
                .cascades
                .iter()
                .map(|c| format!("{:.3}", c.cell_size))
                .collect();
            format!(
                "cascades   {} of {} x {} cells of {} m\n",
                self.cascades.len(),
                self.width,
                self.height,
                cells.join(", ")
            )
        } else {
            String::new()
        };
        s + &sea
            + &window
            + &cascades
            + &adapter_line(self.adapter.as_deref())
            + &bodies
            + &wrote_lines(&self.files)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_nan_height_is_reported_not_skipped() {
        assert_eq!(max_abs_height(&[0.5, -2.0, 1.0]), 2.0);
        assert!(max_abs_height(&[0.5, f32::NAN, 3.0]).is_nan());
        assert!(max_abs_height(&[f32::NAN, 3.0]).is_nan());
        assert_eq!(max_abs_height(&[0.5, f32::NEG_INFINITY]), f32::INFINITY);
    }

    #[test]
    fn divergence_names_the_first_cell_that_is_not_finite() {
        assert!(check_finite(&[0.0, 1.0, -1.0], Some(3), 10).is_ok());
        let heights = [0.0, 1.0, 2.0, 3.0, f32::INFINITY, f32::NAN];
        let err = check_finite(&heights, Some(3), 7).expect_err("an infinity");
        assert_eq!(
            err.to_string(),
            "the water diverged within its 7 steps: cell (1, 1) holds inf; no heights written"
        );
        let err = check_finite(&heights, None, 7).expect_err("an infinity");
        assert!(err.to_string().contains("vertex 4 holds inf"), "{err}");
    }
}
