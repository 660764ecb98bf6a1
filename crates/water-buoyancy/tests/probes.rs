//! Probe buoyancy exactly as the demo defines it: `buoyancy * (-depth - drag * v) / count` per
//! probe under water, at the probe.

use glam::{Quat, Vec3};
use water_buoyancy::{
    BodyState, BuoyancyModel, FloatingBody, Gravity, Pose, ProbeVelocity, Probes, RigidBody, Wrench,
};
use water_core::{FlatWater, GridSize, HeightView};

#[test]
fn force_follows_the_demo_formula() {
    let (k, drag) = (400.0, 0.25);
    let offsets = vec![Vec3::new(-1.0, 0.0, -0.5), Vec3::new(1.0, 0.0, 0.5)];
    let mut probes = Probes::new(offsets, k, drag).unwrap();
    // The first probe sits 0.3 m under the surface, the second 0.7 m above it.
    let state = BodyState {
        pose: Pose::from_position(Vec3::new(0.0, 0.0, 0.2)).unwrap(),
        linear_velocity: Vec3::new(0.0, 0.0, -0.4),
        angular_velocity: Vec3::ZERO,
    };
    let water = FlatWater { level: 0.0 };
    let supplied = probes
        .wrench(
            &state,
            &water,
            &Gravity::EARTH,
            ProbeVelocity::Supplied(state.linear_velocity),
        )
        .unwrap();
    let push = k * (0.3 - drag * -0.4) / 2.0;
    assert!(
        (supplied.force - Vec3::Z * push).length() < 1e-4,
        "{supplied:?}"
    );
    // At (-1, 0, -0.5) from the centre of mass: torque r x F.
    let torque = Vec3::new(-1.0, 0.0, -0.5).cross(Vec3::Z * push);
    assert!((supplied.torque - torque).length() < 1e-4, "{supplied:?}");
    // The body's own velocity at the probe is the same here (no spin).
    let body = probes
        .wrench(&state, &water, &Gravity::EARTH, ProbeVelocity::Body)
        .unwrap();
    assert!((body.force - supplied.force).length() < 1e-4);
}

#[test]
fn finite_differences_give_the_probe_velocity() {
    let mut probes = Probes::new(vec![Vec3::ZERO], 100.0, 1.0).unwrap();
    let water = FlatWater { level: 1.0 };
    let at = |z: f32| BodyState::at_rest(Pose::from_position(Vec3::new(0.0, 0.0, z)).unwrap());
    // The wrench on the probe at height `z`, its velocity from its last height over `dt`.
    let mut wrench_at = |z: f32, dt: f32| {
        probes.wrench(
            &at(z),
            &water,
            &Gravity::EARTH,
            ProbeVelocity::FiniteDifference { dt },
        )
    };
    let dt = 0.1;
    // First call: no history, no velocity.
    let first = wrench_at(0.0, dt).unwrap();
    assert!((first.force.z - 100.0).abs() < 1e-4);
    // Then the probe rose 0.05 m in 0.1 s: 0.5 m/s upward, drag 1 s.
    let second = wrench_at(0.05, dt).unwrap();
    assert!(
        (second.force.z - 100.0 * (0.95 - 0.5)).abs() < 1e-3,
        "{second:?}"
    );
    assert!(wrench_at(0.05, 0.0).is_err());
}

#[test]
fn probes_off_the_grid_are_dry() {
    let size = GridSize::new(8, 8).unwrap();
    let heights = vec![0.5; size.cells()];
    let view = HeightView::new(size, 1.0, &heights).unwrap();
    let mut probes = Probes::new(vec![Vec3::ZERO], 100.0, 0.0).unwrap();
    let inside = BodyState::at_rest(Pose::from_position(Vec3::new(4.0, 4.0, 0.0)).unwrap());
    let outside = BodyState::at_rest(Pose::from_position(Vec3::new(-4.0, 4.0, 0.0)).unwrap());
    let wet = probes
        .wrench(&inside, &view, &Gravity::EARTH, ProbeVelocity::Body)
        .unwrap();
    assert!((wet.force.z - 50.0).abs() < 1e-4);
    let dry = probes
        .wrench(&outside, &view, &Gravity::EARTH, ProbeVelocity::Body)
        .unwrap();
    assert_eq!(dry, Wrench::ZERO);
}

/// Four probes at the corners of a raft: weight balances `k * depth` (the four shares add up to
/// one probe's force), so it floats `m g / k` deep, level.
#[test]
fn probe_raft_floats_level_at_the_spring_depth() {
    let (mass, k) = (50.0, 5000.0);
    let corners = [(-1.0, -0.5), (1.0, -0.5), (1.0, 0.5), (-1.0, 0.5)]
        .map(|(x, y)| Vec3::new(x, y, 0.0))
        .to_vec();
    let tilted = Pose::new(Vec3::new(0.0, 0.0, 0.3), Quat::from_rotation_x(0.1)).unwrap();
    let inertia = glam::Mat3::from_diagonal(Vec3::new(5.0, 15.0, 20.0));
    let mut raft = FloatingBody {
        body: RigidBody::new(mass, inertia, BodyState::at_rest(tilted)).unwrap(),
        hulls: Vec::new(),
        model: BuoyancyModel::Probes {
            probes: Probes::new(corners, k, 0.3).unwrap(),
            velocity: ProbeVelocity::Body,
        },
    };
    for _ in 0..20_000 {
        raft.step(&FlatWater::default(), &Gravity::EARTH, 1e-3, Wrench::ZERO)
            .unwrap();
    }
    let expected = -mass * 9.806_65 / k;
    let z = raft.body.state.pose.position.z;
    assert!(
        (z - expected).abs() < 0.01 * expected.abs(),
        "z {z}, expected {expected}"
    );
    let up = raft.body.state.pose.orientation * Vec3::Z;
    assert!(up.z > 1.0 - 1e-5, "tilted: {up}");
}
