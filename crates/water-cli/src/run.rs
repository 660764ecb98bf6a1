//! `water run`: runs a scenario, writes its arrays and a picture, and summarises.

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::Serialize;

use crate::picture;
use crate::progress::Progress;
use crate::scenario::Scenario;
use crate::simulation::Simulation;

/// What a run did, as printed and written to `summary.json`.
#[derive(Debug, Clone, Serialize)]
pub struct RunSummary {
    /// Scenario source.
    pub scenario: String,
    /// Backend that ran it.
    pub backend: String,
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
    /// Discrete energy at the end, m^2.
    pub energy: f64,
    /// Files written.
    pub files: Vec<PathBuf>,
}

/// Runs `scenario` on the CPU and writes `height.npy` (and split channels), `height.png` and
/// `summary.json` into `out`.
///
/// # Errors
/// I/O errors creating `out` or writing files.
pub fn run_cpu(
    scenario: &Scenario,
    out: &Path,
    show_progress: bool,
) -> std::io::Result<RunSummary> {
    std::fs::create_dir_all(out)?;
    let mut sim = Simulation::new(scenario);
    let mut progress = Progress::new("run", scenario.steps, show_progress);
    let start = Instant::now();
    sim.run(scenario, |done| progress.update(done));
    let wall_seconds = start.elapsed().as_secs_f64();
    progress.finish();

    let water = sim.water();
    let heights = water.heights();
    let mut files = sim.write_arrays(out)?;
    let size = water.size();
    let rgb = picture::colour_map(
        &heights,
        (!scenario.land.is_empty()).then(|| scenario.land.cells()),
        picture::robust_scale(&heights),
    );
    let png = out.join("height.png");
    picture::write_png(&png, size.width(), size.height(), &rgb)?;
    files.push(png);
    let summary_path = out.join("summary.json");
    files.push(summary_path.clone());

    let courant = if scenario.mode == water_core::GridMode::Classic {
        0.5
    } else {
        scenario.params.courant()
    };
    let summary = RunSummary {
        scenario: scenario.source.clone(),
        backend: "cpu".into(),
        mode: scenario.mode.name().into(),
        boundary: water.boundary().name().into(),
        width: size.width(),
        height: size.height(),
        steps: scenario.steps,
        courant,
        simulated_seconds: scenario.steps as f64 * scenario.params.dt(),
        wall_seconds,
        mcells_per_s: size.cells() as f64 * scenario.steps as f64 / wall_seconds.max(1e-12) / 1e6,
        max_abs_height: heights.iter().fold(0.0f32, |m, z| m.max(z.abs())),
        volume: water.volume(),
        energy: water.energy(),
        files,
    };
    let json = serde_json::to_string_pretty(&summary).map_err(std::io::Error::other)?;
    std::fs::write(&summary_path, json + "\n")?;
    Ok(summary)
}

impl RunSummary {
    /// Human-readable lines for the terminal.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "scenario   {}\nbackend    {}  mode {}  boundary {}\ngrid       {} x {}  a = {:.4}\n\
             steps      {} ({:.3} s simulated) in {:.3} s wall, {:.1} Mcell/s\n\
             surface    max |z| = {:.4}  volume = {:.6e} m^3  energy = {:.6e} m^2\n",
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
        );
        for f in &self.files {
            s.push_str(&format!("wrote      {}\n", f.display()));
        }
        s
    }
}
