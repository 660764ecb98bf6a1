//! A crate floats in a pond while a drop spreads: the scene's public API as a game uses it,
//! built without the scenario format.

use water_scene::glam::Vec3;
use water_scene::water_buoyancy::{
    BodyState, DragRates, FloatingBody, Hull, Pose, RigidBody, Shape, FRESH_WATER_DENSITY,
};
use water_scene::water_core::{
    Boundary, Damping, GridMode, GridSize, ImpulseShape, LandMask, WaveParams,
};
use water_scene::{BodySpec, GridSpec, Scene, SceneSettings, UpAxis};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let params = WaveParams::new(0.1, 1.0, 1.0 / 60.0, Damping::PerSecond(0.5))?;
    let spec = GridSpec::new(
        GridSize::new(64, 64)?,
        params,
        Boundary::Absorbing,
        GridMode::Signed,
    );
    let settings = SceneSettings {
        up: UpAxis::Y,
        ..SceneSettings::default()
    };
    let mut scene = Scene::new(spec, LandMask::empty(spec.size), settings, None)?;
    let shape = Shape::cuboid(Vec3::new(0.3, 0.15, 0.3))?;
    let state = BodyState::at_rest(Pose::from_position(Vec3::new(3.2, 0.1, -3.2))?);
    let body = RigidBody::from_shape(&shape, 40.0, state)?;
    let hulls = vec![Hull::new(shape, Pose::IDENTITY)?];
    let floating = FloatingBody::archimedes(body, hulls, FRESH_WATER_DENSITY, DragRates::DEFAULT)?;
    let id = scene.add_body(BodySpec::new("crate", floating))?;
    let drop = scene.impulse_at(Vec3::new(1.6, 0.0, -1.6), 0.4, 0.05, ImpulseShape::Cosine)?;
    scene.add_impulse(drop);
    for _frame in 0..120 {
        scene.advance(1.0 / 60.0)?;
    }
    let b = scene.body(id)?;
    println!(
        "crate at {} after {} steps",
        b.position,
        scene.steps_taken()
    );
    Ok(())
}
