//! Grid stepping throughput: cells per second for each mode, size and thread count.
//!
//! `cargo bench -p water-benches --bench grid`
#![allow(
    missing_docs,
    reason = "criterion_group! generates undocumented functions"
)]

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use water_core::{Boundary, GridMode};
use water_scene::benchmark::peer_like_bench;

fn grid(c: &mut Criterion) {
    for mode in GridMode::ALL {
        let mut group = c.benchmark_group(format!("grid/{mode}"));
        group.sample_size(10);
        for n in [256usize, 1024, 4096] {
            // Updated cells per step, as the C peer counts them (fixed edges do not update).
            group.throughput(Throughput::Elements(((n - 2) * (n - 2)) as u64));
            for threads in [1usize, 2] {
                let (pool, mut water) =
                    peer_like_bench(n, mode, Boundary::Fixed, threads).expect("bench grid");
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
                peer_like_bench(n, mode, Boundary::Fixed, threads).expect("bench grid");
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

criterion_group!(benches, grid, grid_multi_step);
criterion_main!(benches);
