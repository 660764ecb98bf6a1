//! A crate dropped into a lake, simulated by rapier3d and floated by water-buoyancy: the water's
//! Archimedes force and drag are computed from the crate's hull and handed to rapier each step.
//!
//! `cargo run -p water-buoyancy --features rapier --example rapier_float`

use rapier3d::prelude::*;
use water_buoyancy::rapier_adapter::{body_state, set_wrench};
use water_buoyancy::{Archimedes, Gravity, Hull, Pose, Shape, STANDARD_GRAVITY};
use water_core::FlatWater;

fn main() -> Result<(), water_buoyancy::BuoyancyError> {
    let half = glam::Vec3::new(0.4, 0.3, 0.2);
    let mut world = PhysicsWorld {
        gravity: Vector::new(0.0, 0.0, -STANDARD_GRAVITY),
        ..PhysicsWorld::default()
    };
    let (crate_, _) = world.insert(
        RigidBodyBuilder::dynamic().translation(Vector::new(0.0, 0.0, 1.0)),
        ColliderBuilder::cuboid(half.x, half.y, half.z).mass(40.0),
    );
    let hull = Hull::new(Shape::cuboid(half)?, Pose::IDENTITY)?;
    let water = Archimedes::new(1000.0)?.with_drag(400.0, 50.0, 40.0)?;
    let lake = FlatWater::default();
    for step in 0..=300 {
        let body = &mut world.bodies[crate_];
        let force = water.hull_force(&hull, &body_state(body), &lake, &Gravity::EARTH);
        set_wrench(body, force.wrench);
        if step % 30 == 0 {
            let z = body_state(body).pose.position.z;
            println!(
                "t = {:4.2} s  centre z = {z:+.3} m  submerged {:.4} m^3",
                step as f32 / 60.0,
                force.submersion.volume
            );
        }
        world.step();
    }
    Ok(())
}
