//! The rapier adapter: a rapier box floated by this crate's Archimedes force settles at the
//! textbook draft `m / (rho A)`.
#![cfg(feature = "rapier")]

use rapier3d::prelude::*;
use water_buoyancy::rapier_adapter::{body_state, set_wrench};
use water_buoyancy::{box_draft, Archimedes, Gravity, Hull, Pose, Shape};
use water_core::FlatWater;

#[test]
fn rapier_box_floats_at_its_draft() {
    let half = glam::Vec3::new(0.5, 0.4, 0.25);
    let mass = 200.0;
    let mut world = PhysicsWorld {
        gravity: Vector::new(0.0, 0.0, -water_buoyancy::STANDARD_GRAVITY),
        ..PhysicsWorld::default()
    };
    let (handle, _) = world.insert(
        RigidBodyBuilder::dynamic().translation(Vector::new(0.0, 0.0, 0.4)),
        ColliderBuilder::cuboid(half.x, half.y, half.z).mass(mass),
    );
    let hull = Hull::new(Shape::cuboid(half).expect("box"), Pose::IDENTITY).expect("hull");
    let water = Archimedes::new(1000.0)
        .and_then(|a| a.with_drag(4000.0, 0.0, 400.0))
        .expect("archimedes");
    for _ in 0..1200 {
        let body = &mut world.bodies[handle];
        let force = water.hull_force(
            &hull,
            &body_state(body),
            &FlatWater::default(),
            &Gravity::EARTH,
        );
        set_wrench(body, force.wrench);
        world.step();
    }
    let z = body_state(&world.bodies[handle]).pose.position.z;
    let draft = half.z - z;
    let expected = box_draft(mass, 1000.0, 4.0 * half.x * half.y);
    assert!(
        (draft - expected).abs() < 0.01 * expected,
        "draft {draft} m, expected {expected} m"
    );
}
