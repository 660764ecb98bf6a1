//! GPU grid stepping: steps per second and cells per second for single-step and fused
//! dispatches (f32 and f16 storage), the fragment backend, and the latency of a frame of one
//! step plus a readback.
//!
//! `cargo bench -p water-benches --bench gpu`. On a machine without a GPU this runs on Mesa's
//! lavapipe, whose timings are software rendering, not GPU performance; the bench says which
//! adapter it measured.
#![allow(
    missing_docs,
    reason = "criterion_group! generates undocumented functions"
)]

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use water_core::{Boundary, Damping, GridMode, GridSize, WaveParams};
use water_gpu::GpuGridWater;
use water_gpu::FUSED_STEPS;
use water_gpu::{GpuBackend, GpuContext, GpuGrid, GridSpec, StorageFormat};

mod common;

use common::{bench_gpu, wait};

fn grid(gpu: &GpuContext, backend: GpuBackend, storage: StorageFormat, n: usize) -> GpuGrid {
    let size = GridSize::new(n, n).expect("bench size");
    let params = WaveParams::new(1.0, 1.0, 0.5, Damping::PerStep(0.999)).expect("params");
    let spec = GridSpec::new(size, params, Boundary::Fixed, GridMode::Signed);
    let mut g =
        GpuGrid::with_storage(backend, &gpu.device, &gpu.queue, spec, storage).expect("grid");
    let field: Vec<f32> = (0..n * n).map(|i| ((i * 7) % 97) as f32 * 0.001).collect();
    g.upload_f32(&field, &field).expect("upload");
    g
}

fn gpu_steps(c: &mut Criterion) {
    let Some(gpu) = bench_gpu("gpu") else {
        return;
    };
    let mut group = c.benchmark_group("gpu");
    group.sample_size(10);
    for n in [256usize, 1024, 4096] {
        let cells = (n * n) as u64;
        for (name, backend, storage, steps) in [
            (
                "compute-single-step",
                GpuBackend::Compute,
                StorageFormat::F32,
                1u64,
            ),
            (
                "compute-fused",
                GpuBackend::Compute,
                StorageFormat::F32,
                FUSED_STEPS * 4,
            ),
            (
                "compute-fused-f16",
                GpuBackend::Compute,
                StorageFormat::F16,
                FUSED_STEPS * 4,
            ),
            ("fragment", GpuBackend::Fragment, StorageFormat::F32, 1),
        ] {
            let mut g = grid(&gpu, backend, storage, n);
            group.throughput(Throughput::Elements(cells * steps));
            group.bench_function(BenchmarkId::new(name, n), |b| {
                b.iter(|| {
                    if name == "compute-single-step" || name == "fragment" {
                        g.step().expect("step");
                    } else {
                        g.step_many(steps).expect("steps");
                    }
                    wait(&gpu);
                });
            });
        }
        let mut g = grid(&gpu, GpuBackend::Compute, StorageFormat::F32, n);
        group.throughput(Throughput::Elements(cells));
        group.bench_function(BenchmarkId::new("frame-step-and-readback", n), |b| {
            b.iter(|| {
                g.step().expect("step");
                g.heights().expect("readback")
            });
        });
    }
    group.finish();
}

criterion_group!(benches, gpu_steps);
criterion_main!(benches);
