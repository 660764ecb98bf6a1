//! A floating box against the textbook: it settles at draft `m / (rho A)` and heaves with period
//! `2 pi sqrt(m / (rho g A))`.

use glam::{Quat, Vec3};
use water_buoyancy::{
    box_draft, box_heave_period, Archimedes, BodyState, BuoyancyModel, FloatingBody, Gravity, Hull,
    Pose, RigidBody, Shape, Wrench, STANDARD_GRAVITY,
};
use water_core::FlatWater;

const HALF: Vec3 = Vec3::new(0.5, 0.4, 0.25);
const MASS: f32 = 200.0;
const RHO: f32 = 1000.0;

fn crate_at(pose: Pose, archimedes: Archimedes) -> FloatingBody {
    let shape = Shape::cuboid(HALF).unwrap();
    FloatingBody {
        body: RigidBody::from_shape(&shape, MASS, BodyState::at_rest(pose)).unwrap(),
        hulls: vec![Hull::new(shape, Pose::IDENTITY).unwrap()],
        model: BuoyancyModel::Archimedes(archimedes),
    }
}

fn area() -> f32 {
    4.0 * HALF.x * HALF.y
}

#[test]
fn box_settles_upright_at_its_draft() {
    let drag = Archimedes::new(RHO)
        .unwrap()
        .with_drag(4000.0, 0.0, 400.0)
        .unwrap();
    // Dropped from above the water, tilted 0.2 rad about x and 0.1 about y.
    let tilt = Quat::from_rotation_x(0.2) * Quat::from_rotation_y(0.1);
    let mut body = crate_at(Pose::new(Vec3::new(0.0, 0.0, 0.4), tilt).unwrap(), drag);
    for _ in 0..10_000 {
        body.step(&FlatWater::default(), &Gravity::EARTH, 1e-3, Wrench::ZERO)
            .unwrap();
    }
    let pose = body.body.state.pose;
    let draft = HALF.z - pose.position.z; // the bottom's depth, upright
    let expected = box_draft(MASS, RHO, area());
    assert!(
        (draft - expected).abs() < 0.01 * expected,
        "draft {draft} m, expected {expected} m"
    );
    // Metacentric height I/V - BG = (A b^2/12)/(A d) - (H/2 - d/2) > 0: it must right itself.
    let up = pose.orientation * Vec3::Z;
    assert!(up.dot(Vec3::Z) > 0.9999, "still tilted: body z axis {up}");
}

#[test]
fn box_heaves_at_the_spring_period() {
    let expected = box_heave_period(MASS, RHO, STANDARD_GRAVITY, area());
    let rest = HALF.z - box_draft(MASS, RHO, area());
    let start = Pose::from_position(Vec3::new(0.0, 0.0, rest + 0.03)).unwrap();
    let mut body = crate_at(start, Archimedes::new(RHO).unwrap());
    let dt = 2e-4;
    let mut crossings = Vec::new();
    let mut last = body.body.state.pose.position.z - rest;
    for i in 1..=40_000 {
        body.step(&FlatWater::default(), &Gravity::EARTH, dt, Wrench::ZERO)
            .unwrap();
        let z = body.body.state.pose.position.z - rest;
        if last < 0.0 && z >= 0.0 {
            // Linear interpolation of the upward crossing time.
            crossings.push((i as f32 - 1.0 + last / (last - z)) * dt);
        }
        last = z;
    }
    assert!(
        crossings.len() >= 5,
        "only {} oscillations",
        crossings.len()
    );
    let measured = (crossings[crossings.len() - 1] - crossings[0]) / (crossings.len() - 1) as f32;
    assert!(
        (measured - expected).abs() < 0.03 * expected,
        "heave period {measured} s, expected {expected} s"
    );
}
