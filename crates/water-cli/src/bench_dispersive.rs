//! `water bench grid --model dispersive`: times the dispersive model's spectral step with the
//! same JSON line as the wave model's bench ([`crate::bench`]).
//!
//! The setting is the FFTW peer's (`../shared/peers/spectral/spectral_peer.c`) and the
//! `grid-models` criterion bench's: cells of 0.05 m, dt = 0.02 s, g = 9.81 m/s^2, no surface
//! tension, undamped, both levels the same ripples `0.01 ((i 7919 mod 1013) / 1013 - 0.5)` m,
//! periodic edges unless `--boundary absorbing`, deep water unless `--depth D` (a uniform
//! depth, so Airy's `tanh(k D)` enters the multiplier). Cells per second count every cell.

use std::time::Instant;

use water_core::{AiryDispersion, Boundary, Damping, DispersiveGrid, GridMode, GridSize};
use water_core::{GridWater, TemporalBlocking, WaveParams};
use water_gpu::{GpuBackend, GpuContext, GpuGrid, GpuGridWater, GridSpec};
use water_scene::benchmark::{bench_pool, parallelism_for};

use crate::bench_report::{
    checksums, cpu_threads, grid_report, time_gpu_steps, BenchError, BenchGrid, BenchReport,
};

/// Cell size of the bench, m (the peer's `CELL`).
pub const CELL_SIZE: f64 = 0.05;
/// Time step of the bench, s (the peer's `DT`).
pub const DT: f64 = 0.02;
/// Gravity of the bench, m/s^2.
pub const GRAVITY: f64 = 9.81;

/// The peer's ripples: height of cell `i`, m.
#[must_use]
pub fn ripple(i: usize) -> f32 {
    0.01 * ((i * 7919 % 1013) as f32 / 1013.0 - 0.5)
}

/// Airy's relation for the bench: deep water, or a uniform `depth` in m.
fn airy(depth: Option<f64>) -> Result<AiryDispersion, BenchError> {
    AiryDispersion::new(GRAVITY, 0.0, water_core::WATER_DENSITY, depth)
        .map_err(|e| BenchError::Invalid(crate::option_names::as_option(&e)))
}

/// Refuses what the dispersive model does not take, naming the option.
fn check(spec: &BenchGrid) -> Result<(), BenchError> {
    if spec.mode != GridMode::Signed {
        return Err(BenchError::Invalid(format!(
            "--mode {} is a wave-model stepper: the dispersive model has one (leave --mode out)",
            spec.mode.name()
        )));
    }
    if !matches!(spec.boundary, Boundary::Periodic | Boundary::Absorbing) {
        return Err(BenchError::Invalid(format!(
            "--boundary {}: the dispersive model offers periodic or absorbing edges",
            spec.boundary.name()
        )));
    }
    if spec.single_step {
        return Err(BenchError::Invalid(
            "--single-step: the dispersive model steps one step at a time already".into(),
        ));
    }
    if spec.blocking != TemporalBlocking::Auto {
        return Err(BenchError::Invalid(
            "--blocking: temporal blocking is the wave stencil's; the spectral step has none \
             (leave --blocking out)"
                .into(),
        ));
    }
    Ok(())
}

/// Runs the dispersive bench of `spec` over water `depth` m deep (`None`: deep water).
///
/// # Errors
/// [`BenchError`] for options the model does not take, a bad depth or size, or a GPU failure.
pub fn bench_dispersive(spec: &BenchGrid, depth: Option<f64>) -> Result<BenchReport, BenchError> {
    check(spec)?;
    let airy = airy(depth)?;
    let size = GridSize::new(spec.size, spec.size)?;
    let ripples: Vec<f32> = (0..size.cells()).map(ripple).collect();
    let report = match spec.backend.gpu() {
        Some(kind) => bench_gpu(spec, kind, size, airy, &ripples)?,
        None => bench_cpu(spec, size, airy, &ripples)?,
    };
    Ok(BenchReport { depth, ..report })
}

fn bench_cpu(
    spec: &BenchGrid,
    size: GridSize,
    airy: AiryDispersion,
    ripples: &[f32],
) -> Result<BenchReport, BenchError> {
    let threads = cpu_threads(spec)?;
    let pool = bench_pool(threads)?;
    let mut water = DispersiveGrid::new(size, CELL_SIZE, DT, Damping::NONE, airy, spec.boundary)?;
    water.set_parallelism(parallelism_for(threads));
    let ripple_levels = |water: &mut DispersiveGrid| {
        let (cur, old) = water.field_mut().levels_mut();
        cur.copy_from_slice(ripples);
        old.copy_from_slice(ripples);
    };
    let seconds = pool.install(|| {
        // A tenth of the steps first (at least one), as the FFTW peer warms up: the
        // transforms' first use (plans, scratch) and the threads' first wakes are not the
        // step's price (one warm-up step left 100 steps of 512² on 2 threads at 1.37 ms a step
        // against 0.59 over 1,000). Then the ripples again, so the timed steps compute what
        // the GPU bench computes.
        ripple_levels(&mut water);
        water.step_many((spec.steps / 10).max(1));
        ripple_levels(&mut water);
        let start = Instant::now();
        water.step_many(spec.steps);
        start.elapsed().as_secs_f64()
    });
    Ok(report(
        spec,
        "cpu",
        threads,
        (seconds, "wall"),
        checksums(&water.heights()),
    ))
}

fn bench_gpu(
    spec: &BenchGrid,
    kind: GpuBackend,
    size: GridSize,
    airy: AiryDispersion,
    ripples: &[f32],
) -> Result<BenchReport, BenchError> {
    let gpu = GpuContext::headless()?;
    let params = WaveParams::dispersive(CELL_SIZE, &airy, DT, Damping::NONE)?;
    let grid_spec =
        GridSpec::new(size, params, spec.boundary, GridMode::Signed).with_dispersion(airy);
    let mut grid = GpuGrid::with_storage(kind, &gpu.device, &gpu.queue, grid_spec, spec.storage)?;
    // The fragment backend never gets here: `GpuGrid::new` refuses the dispersive model on it
    // by name.
    let (seconds, timing) = time_gpu_steps(&gpu, &mut grid, spec.steps, |grid: &mut GpuGrid| {
        grid.upload_f32(ripples, ripples)
    })?;
    let sums = checksums(&grid.heights()?);
    let info = gpu.adapter.get_info();
    Ok(BenchReport {
        adapter: Some(gpu.describe()),
        software_renderer: info.device_type == wgpu::DeviceType::Cpu,
        ..report(spec, kind.name(), 0, (seconds, timing), sums)
    })
}

/// The line's fields common to both backends: every cell counts, the spectral step updates
/// them all.
fn report(
    spec: &BenchGrid,
    backend: &str,
    threads: usize,
    timed: (f64, &str),
    sums: (f64, f64),
) -> BenchReport {
    let cells = spec.size * spec.size;
    BenchReport {
        mode: GridMode::Signed.name().into(),
        ..grid_report(spec, backend, "dispersive", threads, timed, cells, sums)
    }
}
