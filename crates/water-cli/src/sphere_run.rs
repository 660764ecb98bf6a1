//! `water run` for sphere scenarios: heights per vertex, positions, a map picture, a summary.

use std::path::{Path, PathBuf};
use std::time::Instant;

use glam::Vec3;
use serde::Serialize;
use water_sphere::{Adjacency, Icosphere};

use crate::npy;
use crate::out_dir::OutputDir;
use crate::picture;
use crate::progress::Progress;
use water_gpu::GpuContext;

use crate::run::{
    adapter_line, check_finite, files_with_summary, gpu_for, is_run_output, max_abs_height,
    write_json, wrote_lines, RunError,
};
use water_scene::scenario::SphereScenario;
use water_scene::Water as _;
use water_scene::{Backend, BackendSphere};

/// Width of the map picture, pixels (height is half).
const MAP_WIDTH: usize = 512;

/// What a sphere run did.
#[derive(Debug, Clone, Serialize)]
pub struct SphereSummary {
    /// Scenario source.
    pub scenario: String,
    /// `"cpu"`, `"gpu"` or `"gpu-fragment"`.
    pub backend: String,
    /// Subdivision level.
    pub level: u32,
    /// Vertices.
    pub vertices: usize,
    /// Steps run.
    pub steps: u64,
    /// Wall time, seconds.
    pub wall_seconds: f64,
    /// Largest |height|, m.
    pub max_abs_height: f32,
    /// Area-weighted volume above the rest sphere, m^3.
    pub volume: f64,
    /// The GPU adapter, for the GPU backends.
    pub adapter: Option<String>,
    /// Files written.
    pub files: Vec<PathBuf>,
}

/// For each pixel of an equirectangular map (longitude across, latitude down), the vertex
/// nearest to that direction: a greedy walk over the neighbour rings from the previous pixel's
/// vertex, which on a convex mesh ends at the nearest vertex.
fn map_vertices(sphere: &Icosphere, adjacency: &Adjacency) -> Vec<usize> {
    let p: Vec<Vec3> = sphere.positions().iter().map(|v| v.normalize()).collect();
    let (w, h) = (MAP_WIDTH, MAP_WIDTH / 2);
    let mut out = Vec::with_capacity(w * h);
    let mut at = 0usize;
    for row in 0..h {
        let lat =
            std::f32::consts::FRAC_PI_2 - std::f32::consts::PI * (row as f32 + 0.5) / h as f32;
        for col in 0..w {
            let lon = std::f32::consts::TAU * (col as f32 + 0.5) / w as f32 - std::f32::consts::PI;
            let dir = Vec3::new(lat.cos() * lon.cos(), lat.cos() * lon.sin(), lat.sin());
            loop {
                let best = adjacency
                    .neighbours(at)
                    .iter()
                    .map(|&n| n as usize)
                    .max_by(|&a, &b| p[a].dot(dir).total_cmp(&p[b].dot(dir)))
                    .unwrap_or(at);
                if p[best].dot(dir) > p[at].dot(dir) {
                    at = best;
                } else {
                    break;
                }
            }
            out.push(at);
        }
    }
    out
}

/// Runs the scenario and writes `height.npy` (`[vertices]`, f32, the mesh's vertex order),
/// `positions.npy` (`[vertices, 3]`, m), `height.png` (an equirectangular map of the heights)
/// and `summary.json` into `out`.
///
/// # Errors
/// [`RunError::Io`] for files.
pub fn run_sphere(
    scenario: &SphereScenario,
    backend: Backend,
    out: &Path,
    show_progress: bool,
) -> Result<SphereSummary, RunError> {
    let io = |source| RunError::Io {
        dir: out.to_path_buf(),
        source,
    };
    let mut dir = OutputDir::create(out).map_err(io)?;
    let mut progress = Progress::new("run", scenario.steps, show_progress);
    let start = Instant::now();
    let gpu = gpu_for(backend)?;
    let mut water = BackendSphere::new(scenario.water.clone(), backend, gpu.as_ref())?;
    scenario.play(&mut water, 0, scenario.steps, |done| progress.update(done))?;
    let heights = water.heights()?;
    let adapter = gpu.as_ref().map(GpuContext::describe);
    let wall_seconds = start.elapsed().as_secs_f64();
    progress.finish();
    check_finite(&heights, None, scenario.steps)?;

    let water = &scenario.water;
    let heights = heights.as_slice();
    let n = heights.len();
    dir.write("height.npy", |path| npy::write(path, heights, &[n]))
        .map_err(io)?;
    let positions: Vec<f32> = water
        .sphere()
        .positions()
        .iter()
        .flat_map(|p| p.to_array())
        .collect();
    dir.write("positions.npy", |path| {
        npy::write(path, &positions, &[n, 3])
    })
    .map_err(io)?;

    let pixels: Vec<f32> = map_vertices(water.sphere(), water.adjacency())
        .into_iter()
        .map(|v| heights[v])
        .collect();
    let rgb = picture::colour_map(&pixels, None, picture::robust_scale(&pixels));
    dir.write("height.png", |path| {
        water_render::write_png(path, MAP_WIDTH, MAP_WIDTH / 2, &rgb)
    })
    .map_err(io)?;
    let files = files_with_summary(&dir);

    let summary = SphereSummary {
        scenario: scenario.source.clone(),
        backend: backend.name().into(),
        level: water.sphere().level(),
        vertices: n,
        steps: scenario.steps,
        wall_seconds,
        max_abs_height: max_abs_height(heights),
        volume: heights
            .iter()
            .zip(water.vertex_areas())
            .map(|(&z, a)| f64::from(z) * a)
            .sum(),
        adapter,
        files,
    };
    write_json(dir, "summary.json", &summary, is_run_output).map_err(io)?;
    Ok(summary)
}

impl SphereSummary {
    /// Lines for the terminal.
    #[must_use]
    pub fn to_text(&self) -> String {
        let s = format!(
            "scenario   {}\nbackend    {}  sphere level {} ({} vertices)\n\
             steps      {} in {:.3} s wall\nsurface    max |z| = {:.4}  volume = {:.6e} m^3\n",
            self.scenario,
            self.backend,
            self.level,
            self.vertices,
            self.steps,
            self.wall_seconds,
            self.max_abs_height,
            self.volume
        );
        s + &adapter_line(self.adapter.as_deref()) + &wrote_lines(&self.files)
    }
}
