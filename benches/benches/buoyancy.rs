//! Floating-body force evaluations per second: the demo's probes and Archimedes hulls (box,
//! sphere, capsule, convex mesh) on a wavy CPU grid and on sphere water.
//!
//! `cargo bench -p water-benches --bench buoyancy`
#![allow(
    missing_docs,
    reason = "criterion_group! generates undocumented functions"
)]

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use glam::{Quat, Vec2, Vec3};
use water_buoyancy::{Archimedes, BodyState, Gravity, Hull, Pose, ProbeVelocity, Probes, Shape};
use water_core::{
    Boundary, Damping, GridSize, GridWater, Impulse, ImpulseShape, SignedGrid, WaveParams,
};
use water_sphere::{Icosphere, SphereStepper, SphereWater};

/// A 256 x 256 grid of 5 cm cells with waves on it, and a body in the middle of it.
fn wavy_grid() -> SignedGrid {
    let size = GridSize::new(256, 256).expect("size");
    let params = WaveParams::new(0.05, 1.0, 0.02, Damping::NONE).expect("params");
    let mut water = SignedGrid::new(size, params, Boundary::Reflective);
    water.add_impulse(
        &Impulse::new(Vec2::new(100.0, 120.0), 20.0, 0.1, ImpulseShape::Cosine).expect("impulse"),
    );
    water.step_many(60);
    water
}

fn shapes() -> Vec<(&'static str, Shape)> {
    // A boat-like convex hull: a box whose front tapers to a bow.
    let hull = [
        (-0.5, -0.2, -0.15),
        (0.3, -0.2, -0.15),
        (0.6, 0.0, -0.15),
        (0.3, 0.2, -0.15),
        (-0.5, 0.2, -0.15),
    ];
    let mut vertices: Vec<Vec3> = hull.iter().map(|&(x, y, z)| Vec3::new(x, y, z)).collect();
    vertices.extend(hull.iter().map(|&(x, y, _)| Vec3::new(x, y, 0.15)));
    let mut triangles = vec![
        [0, 2, 1],
        [0, 3, 2],
        [0, 4, 3],
        [5, 6, 7],
        [5, 7, 8],
        [5, 8, 9],
    ];
    for k in 0..5u32 {
        let n = (k + 1) % 5;
        triangles.push([k, n, n + 5]);
        triangles.push([k, n + 5, k + 5]);
    }
    vec![
        (
            "box",
            Shape::cuboid(Vec3::new(0.5, 0.2, 0.15)).expect("box"),
        ),
        ("sphere", Shape::sphere(0.25).expect("sphere")),
        ("capsule", Shape::capsule(0.15, 0.4).expect("capsule")),
        (
            "boat-mesh",
            Shape::convex_mesh(vertices, triangles).expect("mesh"),
        ),
    ]
}

fn hull_forces(c: &mut Criterion) {
    let water = wavy_grid();
    let view = water.view();
    let state = BodyState::at_rest(
        Pose::new(Vec3::new(6.4, 6.4, 0.0), Quat::from_rotation_z(0.3)).expect("pose"),
    );
    let archimedes = Archimedes::new(1000.0)
        .and_then(|a| a.with_drag(50.0, 10.0, 5.0))
        .expect("archimedes");
    let mut group = c.benchmark_group("buoyancy/hull-on-grid");
    group.sample_size(20);
    group.throughput(Throughput::Elements(1));
    for (name, shape) in shapes() {
        let hull = Hull::new(shape, Pose::IDENTITY).expect("hull");
        group.bench_function(
            BenchmarkId::new(name, hull.surface().triangles.len()),
            |b| {
                b.iter(|| archimedes.hull_force(&hull, &state, &view, &Gravity::EARTH));
            },
        );
    }
    group.finish();

    let sphere_water = SphereWater::new(
        Icosphere::new(6, 10.0).expect("sphere"),
        SphereStepper::Mean { a: 0.5 },
        Damping::NONE,
    )
    .expect("sphere water");
    let on_planet = BodyState::at_rest(
        Pose::from_position(Vec3::new(1.0, 2.0, 3.0).normalize() * 10.0).expect("pose"),
    );
    let planet = Gravity::Radial {
        centre: Vec3::ZERO,
        acceleration: 9.81,
    };
    let mut group = c.benchmark_group("buoyancy/hull-on-sphere");
    group.sample_size(20);
    group.throughput(Throughput::Elements(1));
    let hull = Hull::new(
        Shape::cuboid(Vec3::new(0.5, 0.2, 0.15)).expect("box"),
        Pose::IDENTITY,
    )
    .expect("hull");
    group.bench_function("box", |b| {
        b.iter(|| archimedes.hull_force(&hull, &on_planet, &sphere_water, &planet));
    });
    group.finish();
}

fn probe_forces(c: &mut Criterion) {
    let water = wavy_grid();
    let view = water.view();
    let state = BodyState::at_rest(Pose::from_position(Vec3::new(6.4, 6.4, 0.0)).expect("pose"));
    let mut group = c.benchmark_group("buoyancy/probes-on-grid");
    group.sample_size(20);
    for count in [4usize, 16, 64] {
        let offsets = (0..count)
            .map(|i| {
                let a = i as f32 / count as f32 * std::f32::consts::TAU;
                Vec3::new(0.5 * a.cos(), 0.2 * a.sin(), -0.1)
            })
            .collect();
        let mut probes = Probes::new(offsets, 400.0, 0.2).expect("probes");
        group.throughput(Throughput::Elements(count as u64));
        group.bench_function(BenchmarkId::from_parameter(count), |b| {
            b.iter(|| {
                probes
                    .wrench(&state, &view, &Gravity::EARTH, ProbeVelocity::Body)
                    .expect("wrench")
            });
        });
    }
    group.finish();
}

criterion_group!(benches, hull_forces, probe_forces);
criterion_main!(benches);
