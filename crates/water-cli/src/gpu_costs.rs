//! What a GPU grid costs besides its cell updates, for `water bench grid --backend gpu`: the
//! fixed price of a dispatch and of a submission, the price of reading a level back, and, with
//! `--storage f16`, what f16 storage costs in accuracy against f32.

use std::time::Instant;
use water_gpu::GpuGridWater;

use serde::Serialize;
use water_core::{GridMode, GridSize};
use water_gpu::round_to_f16;
use water_gpu::Comparison;
use water_gpu::{ComputeGrid, GpuBackend, GpuContext, GpuError, GpuGrid, GridSpec, StorageFormat};

/// Edge of the grid the dispatch costs are measured on: one 16 x 16 workgroup, so a dispatch's
/// cells cost next to nothing and what is left is the dispatch itself.
pub const OVERHEAD_GRID: usize = 16;

/// Steps in the submission timed for the dispatch cost: enough dispatches that the one
/// submission and wait around them are a small share.
pub const OVERHEAD_STEPS: u64 = 1024;

/// Submissions timed one by one for the submission cost (the median is reported).
const SUBMISSIONS: usize = 21;

/// Readbacks timed for the readback cost (the median is reported).
const READBACKS: usize = 5;

/// Fixed costs of a GPU grid, measured by wall clock on the host.
#[derive(Debug, Clone, Serialize)]
pub struct GpuCosts {
    /// Edge of the grid the dispatch and submission costs were measured on, cells.
    pub overhead_grid: usize,
    /// Steps in the one submission timed for the dispatch cost.
    pub overhead_steps: u64,
    /// Dispatches (compute: one per single step, one per fused group of steps) or render passes
    /// (fragment: one per step) those steps took.
    pub overhead_dispatches: u64,
    /// Wall time per dispatch inside one submission, seconds: recording, submitting and running
    /// a dispatch whose cells cost next to nothing.
    pub seconds_per_dispatch: f64,
    /// Median wall time of one step submitted on its own and waited for, seconds: the round trip
    /// each separate submission pays.
    pub seconds_per_submission: f64,
    /// Bytes of one readback of the benchmarked grid's current level as stored (f16 storage
    /// moves half of f32's, plus a padding half per row of odd width).
    pub readback_bytes: u64,
    /// Median wall time of that readback (copy to a staging buffer, map, copy to the host),
    /// seconds. The fragment backend has no raw readback; its `channels()` is timed.
    pub readback_seconds: f64,
    /// `readback_bytes / readback_seconds`, GB/s.
    pub readback_gb_per_s: f64,
    /// Median wall time of `heights()`: the readback plus widening to f32 heights, seconds.
    pub heights_seconds: f64,
}

/// f16 storage's error against f32 storage after the same steps from the same start.
#[derive(Debug, Clone, Serialize)]
pub struct F16Error {
    /// Steps both runs took (`step_many`, so fused dispatches where the boundary has them).
    pub steps: u64,
    /// What was compared: `"heights"`, or for split grids `"channels"` (`p` and `n`; the bench
    /// field puts the same values in both, so their difference would be zero in both storages).
    pub compared: String,
    /// Largest absolute difference, metres.
    pub max_abs: f64,
    /// Root-mean-square difference, metres.
    pub rms: f64,
    /// Largest |value| of the f32 run, metres.
    pub scale: f64,
    /// `max_abs / scale`.
    pub relative_max: f64,
    /// `rms / scale`.
    pub relative_rms: f64,
}

fn wait(gpu: &GpuContext) -> Result<(), GpuError> {
    gpu.device
        .poll(wgpu::PollType::wait_indefinitely())
        .map(|_| ())
        .map_err(|e| GpuError::DeviceLost(e.to_string()))
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// Times `f` (which waits for the GPU itself) `runs` times; the median, seconds.
fn timed(runs: usize, mut f: impl FnMut() -> Result<(), GpuError>) -> Result<f64, GpuError> {
    let mut seconds = Vec::with_capacity(runs);
    for _ in 0..runs {
        let start = Instant::now();
        f()?;
        seconds.push(start.elapsed().as_secs_f64());
    }
    Ok(median(seconds))
}

/// Measures the fixed costs of `grid` (the benchmarked grid, of `spec` stored as `storage`, on
/// `backend`): dispatch and submission costs on a fresh [`OVERHEAD_GRID`]² grid of the same
/// mode, boundary and storage; readback costs on `grid` itself.
///
/// # Errors
/// What the GPU backends report.
pub fn measure(
    gpu: &GpuContext,
    backend: GpuBackend,
    spec: GridSpec,
    storage: StorageFormat,
    grid: &GpuGrid,
) -> Result<GpuCosts, GpuError> {
    let tiny_spec = GridSpec {
        size: GridSize::new(OVERHEAD_GRID, OVERHEAD_GRID)?,
        ..spec
    };
    let mut tiny = GpuGrid::with_storage(backend, &gpu.device, &gpu.queue, tiny_spec, storage)?;
    // Warm up: pipelines, bind groups and the driver's first-use work.
    tiny.step_many(2 * water_gpu::FUSED_STEPS + 1)?;
    wait(gpu)?;
    let before = dispatches(&tiny);
    let start = Instant::now();
    tiny.step_many(OVERHEAD_STEPS)?;
    wait(gpu)?;
    let seconds = start.elapsed().as_secs_f64();
    let overhead_dispatches = dispatches(&tiny) - before;
    let seconds_per_submission = timed(SUBMISSIONS, || {
        tiny.step()?;
        wait(gpu)
    })?;

    let (readback_bytes, readback_seconds) = match grid {
        GpuGrid::Compute(g) => (
            g.current_buffer().size(),
            timed(READBACKS, || g.read_current_async()?.wait().map(|_| ()))?,
        ),
        GpuGrid::Fragment(g) => {
            let channels = if spec.mode == GridMode::Split { 2 } else { 1 };
            (
                (spec.size.cells() * channels * 4) as u64,
                timed(READBACKS, || {
                    if spec.mode == GridMode::Classic {
                        g.classic_heights().map(|_| ())
                    } else {
                        g.channels().map(|_| ())
                    }
                })?,
            )
        }
    };
    let heights_seconds = timed(READBACKS, || grid.heights().map(|_| ()))?;
    Ok(GpuCosts {
        overhead_grid: OVERHEAD_GRID,
        overhead_steps: OVERHEAD_STEPS,
        overhead_dispatches,
        seconds_per_dispatch: seconds / overhead_dispatches.max(1) as f64,
        seconds_per_submission,
        readback_bytes,
        readback_seconds,
        readback_gb_per_s: readback_bytes as f64 / readback_seconds.max(1e-12) / 1e9,
        heights_seconds,
    })
}

/// Dispatches (compute) or render passes (fragment, one per step) recorded so far.
fn dispatches(grid: &GpuGrid) -> u64 {
    match grid {
        GpuGrid::Compute(g) => g.dispatches_recorded(),
        GpuGrid::Fragment(g) => g.steps_taken(),
    }
}

/// Runs `spec` on the compute backend twice, in f32 and in f16 storage, `steps` steps from the
/// same levels (`current` and `previous`, rounded to f16 first so both runs start alike), and
/// measures the f16 run against the f32 run.
///
/// # Errors
/// What the compute backend reports (e.g. a classic `spec`, which has no f16 storage).
pub fn f16_error(
    gpu: &GpuContext,
    spec: GridSpec,
    current: &[f32],
    previous: &[f32],
    steps: u64,
) -> Result<F16Error, GpuError> {
    let current: Vec<f32> = current.iter().map(|&v| round_to_f16(v)).collect();
    let previous: Vec<f32> = previous.iter().map(|&v| round_to_f16(v)).collect();
    let split = spec.mode == GridMode::Split;
    let run = |storage: StorageFormat| -> Result<Vec<f32>, GpuError> {
        let mut grid = ComputeGrid::with_storage(&gpu.device, &gpu.queue, spec, storage)?;
        grid.upload_f32(&current, &previous)?;
        grid.step_many(steps)?;
        if split {
            grid.channels()
        } else {
            grid.heights()
        }
    };
    let reference = run(StorageFormat::F32)?;
    let candidate = run(StorageFormat::F16)?;
    let c = Comparison::measure(&reference, &candidate);
    let scale = f64::from(c.scale).max(f64::MIN_POSITIVE);
    Ok(F16Error {
        steps,
        compared: if split { "channels" } else { "heights" }.into(),
        max_abs: f64::from(c.max_abs),
        rms: f64::from(c.rms),
        scale: f64::from(c.scale),
        relative_max: f64::from(c.max_abs) / scale,
        relative_rms: f64::from(c.rms) / scale,
    })
}
