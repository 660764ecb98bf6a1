//! A floating box against the textbook: it settles at draft `m / (rho A)` and heaves with period
//! `2 pi sqrt(m / (rho g A))`.

mod common;

use common::{
    assert_box_heaves_at_the_spring_period, assert_box_settles_upright_at_its_draft, tilted_drop,
};
use glam::Vec3;
use water_buoyancy::{
    Archimedes, BodyState, BuoyancyModel, FloatingBody, Hull, Pose, RigidBody, Shape,
};

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

#[test]
fn box_settles_upright_at_its_draft() {
    let drag = Archimedes::new(RHO)
        .unwrap()
        .with_drag(4000.0, 0.0, 400.0)
        .unwrap();
    // Dropped from above the water, tilted. Its metacentric height
    // I/V - BG = (A b^2/12)/(A d) - (H/2 - d/2) > 0: it must right itself.
    let body = crate_at(tilted_drop(0.4), drag);
    assert_box_settles_upright_at_its_draft(body, HALF, MASS, RHO);
}

#[test]
fn box_heaves_at_the_spring_period() {
    let box_at = |start| crate_at(start, Archimedes::new(RHO).unwrap());
    assert_box_heaves_at_the_spring_period(box_at, HALF, MASS, RHO);
}
