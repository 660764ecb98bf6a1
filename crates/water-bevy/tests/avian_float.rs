//! Feature `avian`: an avian3d rigid body with a [`Floating`] hull floats at its Archimedes
//! draft, moved by avian with the water's force, and leaves a wake on the water.
#![cfg(feature = "avian")]

use std::time::Duration;

use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use water_bevy::avian3d::prelude::*;
use water_bevy::prelude::*;
use water_bevy::WaterSimulation;

/// The settled draft may differ from `m / (rho A)` by this fraction (the 1%).
const DRAFT_TOLERANCE: f32 = 0.01;

#[test]
fn an_avian_crate_floats_at_its_draft_and_makes_waves() {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        TransformPlugin,
        // avian's systems read mesh assets (as in avian's own tests).
        AssetPlugin::default(),
        bevy::mesh::MeshPlugin,
        PhysicsPlugins::default(),
        WaterPlugin::headless(),
    ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(
        1.0 / 60.0,
    )))
    // The water's standard gravity, so avian's weight and the water's buoyancy agree.
    .insert_resource(Gravity(Vec3::NEG_Y * 9.806_65));
    // Plugins' `finish` (avian sets up its resources there), as `App::run` would.
    app.finish();
    app.cleanup();
    app.world_mut().spawn(Water::new(64, 64));
    let floating = Floating::cuboid(Vec3::new(0.3, 0.15, 0.3), 40.0);
    let draft = floating.archimedes_draft().expect("a box");
    let start = Vec3::new(-0.5, 0.15 - draft + 0.1, 0.3);
    // Size and mass written once: the collider and avian's mass come from the description.
    let body = app
        .world_mut()
        .spawn((
            floating.avian_body().expect("a box"),
            // Thrown along +x: a body moving across the water makes bow and stern waves (a
            // straight drop would not).
            LinearVelocity(Vec3::new(1.5, 0.0, 0.0)),
            Transform::from_translation(start),
        ))
        .id();
    let mut peak = 0.0_f32;
    for _ in 0..1200 {
        app.update();
        let world = app.world_mut();
        let mut water = world.query::<&WaterSimulation>();
        if let Ok(simulation) = water.single(world) {
            let frame_peak = simulation
                .heights_into(|h| h.iter().fold(0.0_f32, |m, z| m.max(z.abs())))
                .expect("cpu heights");
            peak = peak.max(frame_peak);
        }
    }
    let at = app.world().get::<Position>(body).expect("avian position").0;
    assert!(
        (at.y - start.y).abs() > 0.05,
        "avian never moved the crate: {at}"
    );
    assert!(peak > 1e-4, "the thrown crate made no waves: peak {peak} m");
    assert!(
        at.x > start.x + 0.1,
        "the crate did not travel along +x: {at}"
    );
    let surface = app
        .world_mut()
        .run_system_once(move |water: WaterQuery| water.height_at(at))
        .expect("query")
        .expect("over the water");
    let settled = surface - (at.y - 0.15);
    let error = (settled - draft).abs() / draft;
    assert!(
        error < DRAFT_TOLERANCE,
        "avian crate floats {settled} m deep against Archimedes' {draft} m ({:.2}% off)",
        error * 100.0
    );
}
