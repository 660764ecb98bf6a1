//! What `water bench grid` measures and reports, and the timing and report helpers both of its
//! models share ([`crate::bench`]: the wave model; [`crate::bench_dispersive`]: the spectral step).

use std::time::Instant;

use serde::Serialize;
use water_gpu::{GpuContext, GpuGrid, GpuGridWater, StorageFormat};

use crate::gpu_costs::{F16Error, GpuCosts};
use water_core::{Boundary, GridMode, TemporalBlocking};
use water_scene::benchmark::BenchSetupError;
use water_scene::Backend;

/// One benchmark run's result, printed as a JSON line.
#[derive(Debug, Clone, Serialize)]
pub struct BenchReport {
    /// `"cpu"`, `"gpu"` or `"gpu-fragment"`.
    pub backend: String,
    /// `"wave"` (the five-point stencil) or `"dispersive"` (the spectral step).
    pub model: String,
    /// The dispersive model's uniform depth, m (`None`: deep water, or the wave model).
    pub depth: Option<f64>,
    /// Stepper name.
    pub mode: String,
    /// Boundary name.
    pub boundary: String,
    /// Grid edge, cells.
    pub size: usize,
    /// Steps timed.
    pub steps: u64,
    /// Threads in the CPU pool (0 for GPU backends).
    pub threads: usize,
    /// Wall time of the timed steps, seconds.
    pub seconds: f64,
    /// Updated cells per step.
    pub cells_per_step: usize,
    /// Billions of cell updates per second.
    pub gcells_per_s: f64,
    /// `"multi-step"` (one `step_many` call) or `"single-step"` (one `step` call per step).
    pub stepper: String,
    /// Whether the multi-step run was temporally blocked.
    pub blocked: bool,
    /// How `seconds` was measured: `"wall"`, or `"gpu-timestamp"` (GPU timestamp queries
    /// around the steps' compute pass).
    pub timing: String,
    /// The GPU adapter, for GPU backends.
    pub adapter: Option<String>,
    /// True when the adapter is a software rasteriser (e.g. lavapipe): its figures say nothing
    /// about GPU performance.
    pub software_renderer: bool,
    /// Sum of the final heights, to check runs compute the same thing.
    pub checksum: f64,
    /// Root mean square of the final heights, m: a second check that runs compute the same
    /// thing, where a step keeps the sum.
    pub rms: f64,
    /// `"f32"` or `"f16"`: how the GPU grid stored its cells (the CPU stores f32).
    pub storage: String,
    /// Fixed costs of the GPU backend: per dispatch, per submission, per readback (`None` on
    /// the CPU).
    pub gpu_costs: Option<GpuCosts>,
    /// With f16 storage: its error against f32 storage after the same steps (`None`
    /// otherwise).
    pub f16_error: Option<F16Error>,
}

/// What to benchmark.
#[derive(Debug, Clone, Copy)]
pub struct BenchGrid {
    /// Grid edge, cells.
    pub size: usize,
    /// Steps to time.
    pub steps: u64,
    /// Threads (`None`: all cores).
    pub threads: Option<usize>,
    /// Stepper.
    pub mode: GridMode,
    /// Boundary.
    pub boundary: Boundary,
    /// Time `steps` separate single steps instead of one multi-step run.
    pub single_step: bool,
    /// Temporal blocking of the multi-step run.
    pub blocking: TemporalBlocking,
    /// Where the steps run.
    pub backend: Backend,
    /// How the GPU grid stores its cells ([`StorageFormat::F16`]: compute backend only).
    pub storage: StorageFormat,
    /// Which water model steps.
    pub model: BenchModel,
}

/// The water model a grid bench steps.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BenchModel {
    /// The five-point wave stencil, from the C peer's field ([`water_scene::benchmark`]).
    Wave,
    /// The dispersive spectral step in the FFTW peer's setting ([`crate::bench_dispersive`]).
    Dispersive {
        /// Uniform depth, m; `None` for deep water.
        depth: Option<f64>,
    },
}

/// Errors of the bench command.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// Bad size or parameters.
    #[error(transparent)]
    Water(#[from] water_core::WaterError),
    /// The GPU backend failed.
    #[error(transparent)]
    Gpu(#[from] water_gpu::GpuError),
    /// The benchmark's setup (a thread pool that cannot start, a bad size).
    #[error(transparent)]
    Setup(#[from] BenchSetupError),
    /// Nonsense request.
    #[error("{0}")]
    Invalid(String),
}

/// Times `steps` steps of `grid` from the start `upload` writes: one warm-up step (pipeline
/// compilation, first-use work in the driver), then the start again, so the timed steps compute
/// exactly what the CPU bench computes. Compute grids are timed with GPU timestamp queries where
/// the device offers them, everything else by wall clock from submission to completion.
/// Returns the seconds and how they were timed.
pub(crate) fn time_gpu_steps(
    gpu: &GpuContext,
    grid: &mut GpuGrid,
    steps: u64,
    upload: impl Fn(&mut GpuGrid) -> Result<(), water_gpu::GpuError>,
) -> Result<(f64, &'static str), water_gpu::GpuError> {
    let wait = || {
        gpu.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map(|_| ())
            .map_err(|e| water_gpu::GpuError::DeviceLost(e.to_string()))
    };
    upload(grid)?;
    grid.step_many(1)?;
    wait()?;
    upload(grid)?;
    Ok(match grid {
        GpuGrid::Compute(g) => {
            let start = Instant::now();
            match g.step_many_timed(steps)? {
                Some(gpu_seconds) => (gpu_seconds, "gpu-timestamp"),
                None => (start.elapsed().as_secs_f64(), "wall"),
            }
        }
        GpuGrid::Fragment(g) => {
            let start = Instant::now();
            g.step_many(steps)?;
            wait()?;
            (start.elapsed().as_secs_f64(), "wall")
        }
    })
}

/// A timed `water bench grid` run's line as most runs fill it: the spec's size, boundary, mode,
/// steps and storage, the rate of `cells_per_step` over `(seconds, timing)` and the `sums` of
/// [`checksums`], for one unblocked multi-step run with no adapter, GPU costs or depth. A run
/// that differs sets those fields over it.
pub(crate) fn grid_report(
    spec: &BenchGrid,
    backend: &str,
    model: &str,
    threads: usize,
    (seconds, timing): (f64, &str),
    cells_per_step: usize,
    (checksum, rms): (f64, f64),
) -> BenchReport {
    BenchReport {
        backend: backend.into(),
        model: model.into(),
        depth: None,
        mode: spec.mode.name().into(),
        boundary: spec.boundary.name().into(),
        size: spec.size,
        steps: spec.steps,
        threads,
        seconds,
        cells_per_step,
        gcells_per_s: cells_per_step as f64 * spec.steps as f64 / seconds.max(1e-12) / 1e9,
        stepper: "multi-step".into(),
        blocked: false,
        timing: timing.into(),
        adapter: None,
        software_renderer: false,
        checksum,
        rms,
        storage: spec.storage.name().into(),
        gpu_costs: None,
        f16_error: None,
    }
}

/// The sum and the root mean square of `heights`.
#[must_use]
pub fn checksums(heights: &[f32]) -> (f64, f64) {
    let sum = heights.iter().map(|&v| f64::from(v)).sum();
    let squares: f64 = heights.iter().map(|&v| f64::from(v) * f64::from(v)).sum();
    (sum, (squares / heights.len().max(1) as f64).sqrt())
}

/// The threads of a CPU bench (`None`: all cores), refusing a GPU storage format and zero
/// threads by name.
pub(crate) fn cpu_threads(spec: &BenchGrid) -> Result<usize, BenchError> {
    if spec.storage != StorageFormat::F32 {
        return Err(BenchError::Invalid(format!(
            "--storage {} is a GPU storage format: use it with --backend gpu",
            spec.storage
        )));
    }
    let threads = spec.threads.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    if threads == 0 {
        return Err(BenchError::Invalid("--threads must be at least 1".into()));
    }
    Ok(threads)
}
