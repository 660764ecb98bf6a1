//! The ambient sea on the CPU: synthesising a frame of the `swell` built-in's sea (JONSWAP,
//! four tiles of 256², with and without choppiness; fresh, and written into the spent
//! frame) and 10,000 fixed-point heights from a
//! frame, on 1 and 2 threads; and a box hull's displaced volume on the choppy sea, its vertices
//! asked as one batch and one at a time. `docs/benchmarks.md` sets them beside the FFTW peer's
//! transforms.
//!
//! `cargo bench -p water-benches --bench ocean`
#![allow(
    missing_docs,
    reason = "criterion_group! generates undocumented functions"
)]

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use glam::{Quat, Vec2, Vec3};
use water_buoyancy::{Hull, Pose, Shape};
use water_core::ocean::{AmbientSea, OceanSpec, WaveSpectrum};
use water_core::{HeightSource, SurfaceLevel, SurfaceSample};

/// The `swell` built-in's sea over its 0.2 m cells.
fn swell(choppiness: f64) -> AmbientSea {
    let spec = OceanSpec::new(WaveSpectrum::Jonswap {
        wind_speed: 8.0,
        fetch: 20_000.0,
        peak_enhancement: 3.3,
    })
    .with_direction(30.0)
    .with_spreading(8.0)
    .with_choppiness(choppiness)
    .with_seed(7);
    AmbientSea::new(&spec, 0.2).expect("the swell's sea")
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("pool")
}

fn synthesis(c: &mut Criterion) {
    let mut group = c.benchmark_group("ocean-synthesis");
    group.sample_size(10);
    for (name, choppiness) in [("heights", 0.0), ("choppy", 0.6)] {
        let sea = swell(choppiness);
        for threads in [1usize, 2] {
            let pool = pool(threads);
            let id = BenchmarkId::new(format!("{name}-{threads}-thread"), sea.tiles().len());
            let mut t = 0.0;
            group.bench_function(id, |b| {
                pool.install(|| {
                    b.iter(|| {
                        t += 1.0 / 60.0;
                        sea.frame(t)
                    });
                });
            });
            // What a game (and the scene) does: each frame written into the spent one.
            let id = BenchmarkId::new(format!("{name}-{threads}-thread-reused"), sea.tiles().len());
            let mut frame = sea.frame(t);
            group.bench_function(id, |b| {
                pool.install(|| {
                    b.iter(|| {
                        t += 1.0 / 60.0;
                        sea.frame_into(t, &mut frame);
                    });
                });
            });
        }
    }
    group.finish();
}

fn queries(c: &mut Criterion) {
    let mut group = c.benchmark_group("ocean-heights-10k");
    group.sample_size(10);
    let points: Vec<Vec2> = (0..10_000)
        .map(|i| {
            let i = i as f32;
            Vec2::new((i * 0.618).fract() * 400.0, (i * 0.414).fract() * 400.0)
        })
        .collect();
    let mut out = vec![0.0; points.len()];
    for (name, choppiness) in [("heights", 0.0), ("choppy", 0.6)] {
        let frame = swell(choppiness).frame(12.0);
        for threads in [1usize, 2] {
            let pool = pool(threads);
            group.bench_function(format!("{name}-{threads}-thread"), |b| {
                pool.install(|| b.iter(|| frame.heights_into(&points, &mut out)));
            });
        }
        // The same points asked one at a time (`SeaFrame::height`), as a body's probes are.
        group.bench_function(format!("{name}-one-at-a-time"), |b| {
            b.iter(|| {
                for (o, p) in out.iter_mut().zip(&points) {
                    *o = frame.height(*p);
                }
            });
        });
    }
    group.finish();
}

/// A source that answers one point at a time (the trait's own `levels_at`), as the hull asked
/// before it asked for its vertices in one batch.
struct OneAtATime<'a, S>(&'a S);

impl<S: HeightSource> HeightSource for OneAtATime<'_, S> {
    fn surface_at(&self, position: Vec3) -> Option<SurfaceSample> {
        self.0.surface_at(position)
    }

    fn level_at(&self, position: Vec3) -> Option<SurfaceLevel> {
        self.0.level_at(position)
    }
}

fn hull(c: &mut Criterion) {
    let mut group = c.benchmark_group("ocean-hull");
    let frame = swell(0.6).frame(12.0);
    // A 4 x 2 x 1 m box at its default tessellation, half under, pitched and rolled a little.
    let hull = Hull::new(
        Shape::cuboid(Vec3::new(2.0, 1.0, 0.5)).expect("a box"),
        Pose::IDENTITY,
    )
    .expect("a hull");
    let pose = Pose::new(
        Vec3::new(30.0, 12.0, 0.0),
        Quat::from_euler(glam::EulerRot::XYZ, 0.1, 0.05, 0.7),
    )
    .expect("a pose");
    let vertices = hull.surface().vertices.len();
    for threads in [1usize, 2] {
        let pool = pool(threads);
        group.bench_function(
            format!("choppy-batched-{threads}-thread/{vertices}-vertices"),
            |b| {
                pool.install(|| b.iter(|| hull.submerged(&pose, Vec3::Z, &frame)));
            },
        );
    }
    group.bench_function(format!("choppy-one-at-a-time/{vertices}-vertices"), |b| {
        b.iter(|| hull.submerged(&pose, Vec3::Z, &OneAtATime(&frame)));
    });
    group.finish();
}

criterion_group!(benches, synthesis, queries, hull);
criterion_main!(benches);
