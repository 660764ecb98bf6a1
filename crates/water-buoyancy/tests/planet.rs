//! A ball floating on a planet of sphere water settles where buoyancy balances radial gravity:
//! where the lens it shares with the water sphere holds its mass of water.

use std::f64::consts::PI;

use glam::Vec3;
use water_buoyancy::{
    Archimedes, BodyState, BuoyancyModel, FloatingBody, Gravity, Hull, Pose, RigidBody, Shape,
    Wrench,
};
use water_core::Damping;
use water_sphere::{Icosphere, SphereStepper, SphereWater};

/// Volume (m^3) shared by balls of radii `big` and `small` whose centres are `d` apart.
fn lens(big: f64, small: f64, d: f64) -> f64 {
    if d >= big + small {
        return 0.0;
    }
    if d <= big - small {
        return 4.0 / 3.0 * PI * small.powi(3);
    }
    PI * (big + small - d).powi(2)
        * (d * d + 2.0 * d * small - 3.0 * small * small + 2.0 * d * big + 6.0 * small * big
            - 3.0 * big * big)
        / (12.0 * d)
}

#[test]
fn ball_settles_where_the_displaced_lens_weighs_its_mass() {
    let (planet, ball, rho) = (10.0_f32, 0.5_f32, 1000.0_f32);
    let water = SphereWater::new(
        Icosphere::new(5, planet).unwrap(),
        SphereStepper::Mean { a: 0.5 },
        Damping::PerStep(1.0),
    )
    .unwrap();
    let gravity = Gravity::Radial {
        centre: Vec3::ZERO,
        acceleration: 9.81,
    };
    // A ball of 30% the water's density.
    let shape = Shape::sphere(ball).unwrap();
    let mass = 0.3 * rho * shape.volume();
    let direction = Vec3::new(1.0, 2.0, 3.0).normalize();
    let start = Pose::from_position(direction * (planet + ball + 0.2)).unwrap();
    let mut body = FloatingBody {
        body: RigidBody::from_shape(&shape, mass, BodyState::at_rest(start)).unwrap(),
        hulls: vec![Hull::new(shape, Pose::IDENTITY).unwrap()],
        model: BuoyancyModel::Archimedes(
            Archimedes::new(rho)
                .unwrap()
                .with_drag(2000.0, 0.0, 10.0)
                .unwrap(),
        ),
    };
    for _ in 0..6000 {
        body.step(&water, &gravity, 2e-3, Wrench::ZERO).unwrap();
    }
    // The centre distance where the lens holds m / rho of water, by bisection.
    let target = f64::from(mass / rho);
    let (mut lo, mut hi) = (f64::from(planet - ball), f64::from(planet + ball));
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if lens(f64::from(planet), f64::from(ball), mid) > target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let expected = 0.5 * (lo + hi);
    let position = body.body.state.pose.position;
    let radius = f64::from(position.length());
    let draft = f64::from(planet + ball) - expected;
    assert!(
        (radius - expected).abs() < 0.01 * draft,
        "centre at {radius} m from the planet's centre, expected {expected} m (draft {draft} m)"
    );
    // Radial gravity and buoyancy leave it over the same spot.
    assert!(
        position.normalize().dot(direction) > 1.0 - 1e-6,
        "drifted to {position}"
    );
}
