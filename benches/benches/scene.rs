//! A scene's step: grid water with floating crates coupled both ways (`water bench scene`'s
//! setup, [`water_scene::benchmark::crate_field`]), one step at a time as a game's frame loop
//! takes them, on a pool of 2 threads. Only the steps are timed, and only the first
//! [`FRESH_STEPS`] of a scene: then a new one is set up (untimed), so the towed crates are
//! always on the water, as in `water bench scene`'s 10 + 200 steps.
//!
//! `cargo bench -p water-benches --bench scene`
#![allow(
    missing_docs,
    reason = "criterion_group! generates undocumented functions"
)]

use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use water_scene::benchmark::{bench_pool, crate_field};
use water_scene::Backend;

/// Threads in the pool: the cores of the machine the figures in `docs/benchmarks.md` come from.
const THREADS: usize = 2;
/// Steps of one scene before a fresh one (5 s at 60 Hz: the towed crates, at 0.5 m/s from at
/// least a tenth of the water's width from its edge, are still on a 256-cell grid's 25.6 m).
const FRESH_STEPS: u64 = 300;

fn scene(c: &mut Criterion) {
    let mut group = c.benchmark_group("scene/cpu");
    // A step takes milliseconds: ten samples of two seconds keep the whole bench under a minute.
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(2));
    let pool = bench_pool(THREADS).expect("pool");
    for n in [256usize, 512] {
        for bodies in [10usize, 100] {
            let fresh = || crate_field(n, bodies, Backend::Cpu, None).expect("crate field");
            let mut scene = pool.install(fresh);
            group.bench_with_input(
                BenchmarkId::new(format!("{bodies}-bodies"), n),
                &n,
                |b, _| {
                    pool.install(|| {
                        b.iter_custom(|iters| {
                            let mut timed = Duration::ZERO;
                            for _ in 0..iters {
                                if scene.steps_taken() >= FRESH_STEPS {
                                    scene = fresh();
                                }
                                let start = Instant::now();
                                scene.step().expect("step");
                                timed += start.elapsed();
                            }
                            timed
                        });
                    });
                },
            );
        }
    }
    group.finish();
}

criterion_group!(benches, scene);
criterion_main!(benches);
