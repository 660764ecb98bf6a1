//! Sphere water stepping: vertex updates per second against the icosphere level (3: 642
//! vertices, up to 8: 655,362), for both CPU steppers and both GPU backends.
//!
//! `cargo bench -p water-benches --bench sphere` (all levels, a few minutes); a criterion filter
//! picks levels, e.g. `cargo bench -p water-benches --bench sphere -- '/[3-6]$'`. On a machine
//! without a GPU the GPU groups run on Mesa's lavapipe, whose timings are software rendering,
//! not GPU performance; the bench says which adapter it measured.
#![allow(
    missing_docs,
    reason = "criterion_group! generates undocumented functions"
)]

use std::time::Duration;
use water_gpu::GpuSphereWater;

use criterion::measurement::WallTime;
use criterion::{
    criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion, Throughput,
};
use water_core::Damping;
use water_gpu::{GpuBackend, GpuSphere};

mod common;

use common::{bench_gpu, wait};
use water_sphere::{Icosphere, SphereError, SphereStepper, SphereWater};

/// Icosphere levels measured.
const LEVELS: std::ops::RangeInclusive<u32> = 3..=8;
/// GPU steps per measured iteration, in one submission: a frame's substeps, so the time is the
/// steps' rather than one submission's fixed cost.
const GPU_STEPS: u64 = 8;

/// Heights to start from: a fixed pattern rather than still water, so no step works on zeros.
fn start_heights(n: usize) -> Vec<f32> {
    (0..n).map(|i| ((i * 7) % 97) as f32 * 0.001).collect()
}

/// Water of `level` stepped by `stepper`, started from [`start_heights`].
fn water(level: u32, stepper: SphereStepper) -> SphereWater {
    let sphere = Icosphere::new(level, 1.0).expect("bench level");
    let mut water = SphereWater::new(sphere, stepper, Damping::PerStep(0.999)).expect("stable");
    let start = start_heights(water.heights().len());
    water.set_at_rest(&start).expect("one height per vertex");
    water
}

/// The Laplace-Beltrami stepper at half the largest stable `dt` of `level` (c = 1 m/s on a
/// sphere of 1 m), as the sphere's own stability check reports it.
fn laplace_beltrami(level: u32) -> SphereStepper {
    let sphere = Icosphere::new(level, 1.0).expect("bench level");
    let wave_speed = 1.0;
    // One second per step is far beyond the limit at any level; the refusal names the limit.
    let probe = SphereStepper::LaplaceBeltrami {
        wave_speed,
        dt: 1.0,
    };
    match SphereWater::new(sphere, probe, Damping::PerStep(0.999)) {
        Err(SphereError::Unstable { limit, .. }) => SphereStepper::LaplaceBeltrami {
            wave_speed,
            dt: 0.5 * limit,
        },
        other => panic!("expected dt = 1 s to be unstable at level {level}: {other:?}"),
    }
}

/// A group of ten samples of two seconds after half a second's warm-up: the finest levels would
/// take minutes at criterion's defaults.
fn short_group<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, WallTime> {
    let mut group = c.benchmark_group(name);
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    group
}

fn sphere_cpu(c: &mut Criterion) {
    let mut group = short_group(c, "sphere-cpu");
    for level in LEVELS {
        for (name, stepper) in [
            ("mean", SphereStepper::Mean { a: 0.5 }),
            ("laplace-beltrami", laplace_beltrami(level)),
        ] {
            let mut w = water(level, stepper);
            group.throughput(Throughput::Elements(w.heights().len() as u64));
            group.bench_function(BenchmarkId::new(name, level), |b| b.iter(|| w.step()));
        }
    }
    group.finish();
}

fn sphere_gpu(c: &mut Criterion) {
    let Some(gpu) = bench_gpu("sphere gpu") else {
        return;
    };
    let mut group = short_group(c, "sphere-gpu");
    for level in LEVELS {
        // Both backends read the same slot table whatever the stepper: one is enough.
        let cpu = water(level, SphereStepper::Mean { a: 0.5 });
        for (name, backend) in [
            ("compute", GpuBackend::Compute),
            ("fragment", GpuBackend::Fragment),
        ] {
            let mut w = GpuSphere::new(backend, &gpu.device, &gpu.queue, &cpu)
                .expect("sphere fits the device");
            group.throughput(Throughput::Elements(cpu.heights().len() as u64 * GPU_STEPS));
            group.bench_function(BenchmarkId::new(name, level), |b| {
                b.iter(|| {
                    w.step_many(GPU_STEPS).expect("steps");
                    wait(&gpu);
                });
            });
        }
    }
    group.finish();
}

criterion_group!(benches, sphere_cpu, sphere_gpu);
criterion_main!(benches);
