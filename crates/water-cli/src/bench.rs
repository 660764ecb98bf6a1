//! `water bench grid`: steps a grid as fast as it goes and reports one JSON line.
//!
//! The field starts as the C peer's does (`../shared/peers/stencil_peer.c`): interior cell `i`
//! holds `((i*7) % 97) * 0.001`, the previous level 0.9 times that, `a = 0.25`, `d = 0.999`,
//! fixed edges; cells per second count the cells a step updates, as the peer counts them.

use std::time::Instant;
use water_gpu::GpuGridWater;

use serde::Serialize;
use water_gpu::{GpuBackend, GpuContext, GpuGrid, GridSpec, StorageFormat};

use water_core::{Boundary, Damping, GridMode, WaveParams};
use water_scene::benchmark::{
    bench_pool, c_peer_bench, c_peer_grid, c_peer_height, parallelism_for,
};
use water_sphere::SphereLayout;

pub use crate::bench_report::{checksums, BenchError, BenchGrid, BenchModel, BenchReport};
use crate::bench_report::{cpu_threads, grid_report, time_gpu_steps};

/// Runs the benchmark on a pool of the requested size.
///
/// # Errors
/// [`BenchError`] for a bad size, zero steps or threads, or a pool that cannot start.
pub fn bench_grid(spec: &BenchGrid) -> Result<BenchReport, BenchError> {
    if spec.steps == 0 {
        return Err(BenchError::Invalid(
            "--steps must be at least 1, got 0".into(),
        ));
    }
    if let BenchModel::Dispersive { depth } = spec.model {
        return crate::bench_dispersive::bench_dispersive(spec, depth);
    }
    if let Some(kind) = spec.backend.gpu() {
        return bench_gpu(spec, kind);
    }
    let threads = cpu_threads(spec)?;
    let (pool, mut water) = c_peer_bench(spec.size, spec.mode, spec.boundary, threads)?;
    water.set_temporal_blocking(spec.blocking);
    let (blocked, seconds) = pool.install(|| {
        let blocked = !spec.single_step && water.blocks(spec.steps);
        let start = Instant::now();
        if spec.single_step {
            for _ in 0..spec.steps {
                water.step();
            }
        } else {
            water.step_many(spec.steps);
        }
        (blocked, start.elapsed().as_secs_f64())
    });
    let cells_per_step = cells_per_step(spec.size, spec.boundary);
    let sums = checksums(&water.heights());
    // `grid_report` names the spec's storage: f32 here, as `cpu_threads` refused any other.
    Ok(BenchReport {
        stepper: if spec.single_step {
            "single-step"
        } else {
            "multi-step"
        }
        .into(),
        blocked,
        ..grid_report(
            spec,
            "cpu",
            "wave",
            threads,
            (seconds, "wall"),
            cells_per_step,
            sums,
        )
    })
}

/// Updated cells per step of an `n x n` grid (fixed edges do not update).
fn cells_per_step(n: usize, boundary: Boundary) -> usize {
    if boundary == Boundary::Fixed {
        (n - 2) * (n - 2)
    } else {
        n * n
    }
}

/// `water bench grid --backend gpu|gpu-fragment`: the same field, uploaded to a GPU grid; one
/// warm-up step (pipeline compilation), then `steps` steps in one submission. Compute runs are
/// timed with GPU timestamp queries where the device offers them, everything else by wall
/// clock from submission to completion. Then the fixed costs ([`crate::gpu_costs::measure`])
/// and, with f16 storage, its error against f32 ([`crate::gpu_costs::f16_error`]).
fn bench_gpu(spec: &BenchGrid, kind: GpuBackend) -> Result<BenchReport, BenchError> {
    let cpu = c_peer_grid(spec.size, spec.mode, spec.boundary)?;
    let size = cpu.size();
    let gpu = GpuContext::headless()?;
    let params = WaveParams::new(1.0, 1.0, 0.5, Damping::PerStep(0.999))?;
    let grid_spec = GridSpec::new(size, params, spec.boundary, spec.mode);
    let mut grid = GpuGrid::with_storage(kind, &gpu.device, &gpu.queue, grid_spec, spec.storage)?;
    let n = spec.size;
    let z = |i: usize| c_peer_height(n, i);
    let channels = if spec.mode == GridMode::Split { 2 } else { 1 };
    let upload = |grid: &mut GpuGrid| -> Result<(), water_gpu::GpuError> {
        if spec.mode == GridMode::Classic {
            let cur: Vec<i16> = (0..size.cells())
                .map(|i| (z(i) * 10_000.0) as i16)
                .collect();
            let old: Vec<i16> = (0..size.cells()).map(|i| (z(i) * 9_000.0) as i16).collect();
            grid.upload_i16(&cur, &old)
        } else {
            let cur: Vec<f32> = (0..size.cells() * channels)
                .map(|i| z(i % size.cells()))
                .collect();
            let old: Vec<f32> = cur.iter().map(|v| v * 0.9).collect();
            grid.upload_f32(&cur, &old)
        }
    };
    let (seconds, timing) = time_gpu_steps(&gpu, &mut grid, spec.steps, upload)?;
    let sums = checksums(&grid.heights()?);
    let cells_per_step = cells_per_step(spec.size, spec.boundary);
    let info = gpu.adapter.get_info();
    let gpu_costs = crate::gpu_costs::measure(&gpu, kind, grid_spec, spec.storage, &grid)?;
    let f16_error = if spec.storage == StorageFormat::F16 {
        let current: Vec<f32> = (0..size.cells() * channels)
            .map(|i| z(i % size.cells()))
            .collect();
        let previous: Vec<f32> = current.iter().map(|v| v * 0.9).collect();
        Some(crate::gpu_costs::f16_error(
            &gpu, grid_spec, &current, &previous, spec.steps,
        )?)
    } else {
        None
    };
    Ok(BenchReport {
        adapter: Some(gpu.describe()),
        software_renderer: info.device_type == wgpu::DeviceType::Cpu,
        gpu_costs: Some(gpu_costs),
        f16_error,
        ..grid_report(
            spec,
            kind.name(),
            "wave",
            0,
            (seconds, timing),
            cells_per_step,
            sums,
        )
    })
}

/// What `water bench sphere` measures.
#[derive(Debug, Clone, PartialEq)]
pub struct SphereBench {
    /// Subdivision level.
    pub level: u32,
    /// Steps per timed run.
    pub steps: u64,
    /// Threads in the pool.
    pub threads: usize,
    /// The Laplace-Beltrami stepper instead of the demo's mean.
    pub laplace_beltrami: bool,
    /// Layouts to time, each from the same water; one report each.
    pub layouts: Vec<SphereLayout>,
    /// Timed runs per layout, interleaved across the layouts so that a busy spell on the
    /// machine hits them alike; the report gives the median. 1 to [`MAX_SPHERE_REPEATS`].
    pub repeats: usize,
}

/// One `water bench sphere` result.
#[derive(Debug, Clone, Serialize)]
pub struct SphereBenchReport {
    /// `"sphere"`.
    pub bench: String,
    /// `"mean"` or `"laplace-beltrami"`.
    pub stepper: String,
    /// `"rhombus"` or `"gather"`.
    pub layout: String,
    /// Subdivision level.
    pub level: u32,
    /// Vertices.
    pub vertices: usize,
    /// Steps per timed run.
    pub steps: u64,
    /// Threads in the pool.
    pub threads: usize,
    /// Timed runs.
    pub repeats: usize,
    /// Median wall time of a run, seconds.
    pub seconds: f64,
    /// Every run's wall time, seconds, in the order they ran.
    pub all_seconds: Vec<f64>,
    /// Billions of vertex updates per second, from the median time.
    pub gvertex_updates_per_s: f64,
    /// Sum of the heights after a run: the same for every layout, which step alike to the bit.
    pub checksum: f64,
}

/// Most timed runs per layout `bench sphere` takes: its line lists every run's seconds (16
/// million of them made a 128 MB line).
pub const MAX_SPHERE_REPEATS: usize = 1000;

/// Steps sphere water of `level` (unit sphere, rough start) `steps` times on `threads` threads,
/// `repeats` times from the same start in each layout.
///
/// # Errors
/// Bad level, zero steps, threads or repeats (or repeats past [`MAX_SPHERE_REPEATS`]), no
/// layout, or a pool that cannot start.
pub fn bench_sphere(bench: &SphereBench) -> Result<Vec<SphereBenchReport>, BenchError> {
    use water_sphere::{Icosphere, SphereStepper, SphereWater};
    let SphereBench {
        level,
        steps,
        threads,
        laplace_beltrami,
        ref layouts,
        repeats,
    } = *bench;
    if steps == 0 || threads == 0 || repeats == 0 {
        return Err(BenchError::Invalid(format!(
            "--steps ({steps}), --threads ({threads}) and --repeats ({repeats}) must be at least 1"
        )));
    }
    if repeats > MAX_SPHERE_REPEATS {
        return Err(BenchError::Invalid(format!(
            "--repeats {repeats} is out of range: expected 1 to {MAX_SPHERE_REPEATS} (the line \
             lists every run's seconds)"
        )));
    }
    if layouts.is_empty() {
        return Err(BenchError::Invalid("no layout to time".into()));
    }
    let sphere = Icosphere::new(level, 1.0).map_err(|e| BenchError::Invalid(e.to_string()))?;
    let stepper = if laplace_beltrami {
        // Well inside the limit at any level: dt a third of the edge over the speed.
        let edge = 4.0 / (vertex_edges(level) as f64);
        SphereStepper::LaplaceBeltrami {
            wave_speed: 1.0,
            dt: edge / 3.0,
        }
    } else {
        SphereStepper::Mean { a: 0.5 }
    };
    let mut water = SphereWater::new(sphere, stepper, Damping::PerStep(0.999))
        .map_err(|e| BenchError::Invalid(e.to_string()))?;
    let n = water.heights().len();
    let start_heights: Vec<f32> = (0..n).map(|i| ((i * 7) % 97) as f32 * 0.001).collect();
    water.set_parallelism(parallelism_for(threads));
    let mut runs: Vec<SphereWater> = layouts
        .iter()
        .map(|&layout| {
            let mut w = water.clone();
            w.set_layout(layout);
            w
        })
        .collect();
    let pool = bench_pool(threads)?;
    let mut seconds = vec![Vec::with_capacity(repeats); runs.len()];
    pool.install(|| -> Result<(), BenchError> {
        for _ in 0..repeats {
            for (w, times) in runs.iter_mut().zip(&mut seconds) {
                w.set_at_rest(&start_heights)
                    .map_err(|e| BenchError::Invalid(e.to_string()))?;
                let start = Instant::now();
                w.step_many(steps);
                times.push(start.elapsed().as_secs_f64());
            }
        }
        Ok(())
    })?;
    Ok(runs
        .iter()
        .zip(seconds)
        .map(|(w, all_seconds)| {
            let seconds = median(&all_seconds);
            SphereBenchReport {
                bench: "sphere".into(),
                stepper: if laplace_beltrami {
                    "laplace-beltrami"
                } else {
                    "mean"
                }
                .into(),
                layout: match w.layout() {
                    SphereLayout::Rhombus => "rhombus",
                    SphereLayout::Gather => "gather",
                }
                .into(),
                level,
                vertices: n,
                steps,
                threads,
                repeats,
                seconds,
                all_seconds,
                gvertex_updates_per_s: n as f64 * steps as f64 / seconds / 1e9,
                checksum: w.heights().iter().map(|&v| f64::from(v)).sum(),
            }
        })
        .collect())
}

/// The median of `values` (the mean of the middle two for an even count).
fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let m = sorted.len() / 2;
    if sorted.len().is_multiple_of(2) {
        0.5 * (sorted[m - 1] + sorted[m])
    } else {
        sorted[m]
    }
}

/// Edges along a great circle of an icosphere of `level`, roughly: `5 * 2^level`.
fn vertex_edges(level: u32) -> u64 {
    5 * (1u64 << level.min(20))
}
