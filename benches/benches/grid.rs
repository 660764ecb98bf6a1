//! Grid stepping throughput: cells per second for each mode, size and thread count.
//!
//! `cargo bench -p water-benches --bench grid`
#![allow(
    missing_docs,
    reason = "criterion_group! generates undocumented functions"
)]

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use water_core::{
    AiryDispersion, Boundary, Damping, Depth, DispersiveGrid, GridMode, GridSize, GridWater,
    SignedGrid, WaveParams,
};
use water_scene::benchmark::c_peer_bench;

fn grid(c: &mut Criterion) {
    for mode in GridMode::ALL {
        let mut group = c.benchmark_group(format!("grid/{mode}"));
        group.sample_size(10);
        for n in [256usize, 1024, 4096] {
            // Updated cells per step, as the C peer counts them (fixed edges do not update).
            group.throughput(Throughput::Elements(((n - 2) * (n - 2)) as u64));
            for threads in [1usize, 2] {
                let (pool, mut water) =
                    c_peer_bench(n, mode, Boundary::Fixed, threads).expect("bench grid");
                group.bench_function(BenchmarkId::new(format!("{threads}-thread"), n), |b| {
                    pool.install(|| b.iter(|| water.step()));
                });
            }
        }
        group.finish();
    }
}

/// Multi-step runs (`step_many`, temporally blocked where `TemporalBlocking::Auto` says so)
/// against the same number of single steps, for every mode: the speed-up temporal blocking buys.
fn grid_multi_step(c: &mut Criterion) {
    for mode in GridMode::ALL {
        grid_multi_step_mode(c, mode);
    }
}

fn grid_multi_step_mode(c: &mut Criterion, mode: GridMode) {
    const STEPS: u64 = 16;
    let mut group = c.benchmark_group(format!("grid-multi-step/{mode}"));
    group.sample_size(10);
    for n in [256usize, 1024, 4096] {
        group.throughput(Throughput::Elements(((n - 2) * (n - 2)) as u64 * STEPS));
        for threads in [1usize, 2] {
            let (pool, mut water) =
                c_peer_bench(n, mode, Boundary::Fixed, threads).expect("bench grid");
            group.bench_function(
                BenchmarkId::new(format!("{threads}-thread-multi"), n),
                |b| {
                    pool.install(|| b.iter(|| water.step_many(STEPS)));
                },
            );
            group.bench_function(
                BenchmarkId::new(format!("{threads}-thread-single"), n),
                |b| {
                    pool.install(|| {
                        b.iter(|| {
                            for _ in 0..STEPS {
                                water.step();
                            }
                        });
                    });
                },
            );
        }
    }
    group.finish();
}

/// The mean-level keeper's cost: a 1024 x 1024 reflective grid, 2,000 steps in one
/// `step_many` on 2 threads, undamped (volume-conserving: the keeper corrects every
/// `mean_level_period` = 1,024 steps) against `d = 1 - 1e-6` (the same blocked run, keeper
/// off). `docs/reliability.md`, "Volume conservation".
fn grid_conserving(c: &mut Criterion) {
    const N: usize = 1024;
    const STEPS: u64 = 2000;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("pool");
    let mut group = c.benchmark_group("grid-conserving/signed-reflective-1024");
    group.sample_size(10);
    group.throughput(Throughput::Elements((N * N) as u64 * STEPS));
    for (name, damping) in [
        ("undamped-keeper", Damping::NONE),
        ("damped-no-keeper", Damping::PerStep(1.0 - 1e-6)),
    ] {
        let params = WaveParams::new(1.0, 1.0, 0.5, damping).expect("params");
        let mut grid = SignedGrid::new(
            GridSize::new(N, N).expect("size"),
            params,
            Boundary::Reflective,
        );
        let (cur, old) = grid.field_mut().levels_mut();
        for (i, (c, o)) in cur.iter_mut().zip(old.iter_mut()).enumerate() {
            let (x, y) = ((i % N) as f32 - 512.0, (i / N) as f32 - 340.0);
            let z = (-(x * x + y * y) / 200.0).exp();
            (*c, *o) = (z, z);
        }
        group.bench_function(name, |b| {
            pool.install(|| b.iter(|| grid.step_many(STEPS)));
        });
    }
    group.finish();
}

/// The cost per cell of each water model's step on the same periodic grid: the five-point
/// stencil, the variable-coefficient stencil over a depth (a slope from 2 m to 0.5 m), the
/// dispersive spectral step (deep water) and the dispersive step over the same slope (its
/// reference depths and flux divergence), at 256^2 and 512^2 on 1 and 2 threads; and the
/// dispersive step called from outside any thread pool. `docs/benchmarks.md`, "Water models".
fn grid_models(c: &mut Criterion) {
    let mut group = c.benchmark_group("grid-models");
    group.sample_size(10);
    for n in [256usize, 512] {
        group.throughput(Throughput::Elements((n * n) as u64));
        let size = GridSize::new(n, n).expect("size");
        let (cell, dt) = (0.05, 0.005);
        let metres = (0..n * n)
            .map(|i| 2.0 - 1.5 * (i % n) as f32 / n as f32)
            .collect();
        let depth = Depth::from_cells(size, metres).expect("depth");
        let airy = AiryDispersion::gravity_waves(9.81).expect("airy");
        for threads in [1usize, 2] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("pool");
            let params = WaveParams::new(cell, 2.0, dt, Damping::NONE).expect("stable");
            let mut five_point = SignedGrid::new(size, params, Boundary::Periodic);
            let deep =
                WaveParams::shallow_water(cell, &depth, 9.81, dt, Damping::NONE).expect("stable");
            let mut over_depth = SignedGrid::new(size, deep, Boundary::Periodic);
            over_depth.set_depth(&depth).expect("depth");
            let mut dispersive =
                DispersiveGrid::new(size, cell, 0.02, Damping::NONE, airy, Boundary::Periodic)
                    .expect("stable");
            let mut dispersive_depth = dispersive.clone();
            dispersive_depth.set_depth(&depth).expect("stable");
            // Water in motion everywhere, so no step meets still water.
            let ripples: Vec<f32> = (0..n * n)
                .map(|i| 0.01 * ((i * 7919 % 1013) as f32 / 1013.0 - 0.5))
                .collect();
            for (cur, old) in [
                five_point.field_mut().levels_mut(),
                over_depth.field_mut().levels_mut(),
                dispersive.field_mut().levels_mut(),
                dispersive_depth.field_mut().levels_mut(),
            ] {
                cur.copy_from_slice(&ripples);
                old.copy_from_slice(&ripples);
            }
            let models: [(&str, &mut dyn GridWater); 4] = [
                ("five-point", &mut five_point),
                ("depth", &mut over_depth),
                ("dispersive", &mut dispersive),
                ("dispersive-depth", &mut dispersive_depth),
            ];
            for (name, water) in models {
                group.bench_function(
                    BenchmarkId::new(format!("{name}/{threads}-thread"), n),
                    |b| {
                        pool.install(|| b.iter(|| water.step()));
                    },
                );
            }
            if threads == 2 {
                // Stepped from this thread, outside any pool, as `water run` and the scene step
                // it (on rayon's global pool: one thread a core, 2 on the machines measured).
                group.bench_function(BenchmarkId::new("dispersive/outside-the-pool", n), |b| {
                    b.iter(|| dispersive.step());
                });
            }
        }
    }
    group.finish();
}

criterion_group!(benches, grid, grid_multi_step, grid_conserving, grid_models);
criterion_main!(benches);
