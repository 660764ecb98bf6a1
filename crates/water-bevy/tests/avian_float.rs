//! Feature `avian`: an avian3d rigid body with a [`Floating`] hull floats at its Archimedes
//! draft, moved by avian with the water's force, and leaves a wake on the water; a
//! [`FloatingForce`] on it acts through avian and its [`FloatingMotion`] follows avian's
//! velocity.
#![cfg(feature = "avian")]

use std::time::Duration;

use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use water_bevy::avian3d::prelude::*;
use water_bevy::prelude::*;
use water_bevy::WaterSimulation;

mod support;

/// The settled draft may differ from `m / (rho A)` by this fraction (the 1%).
const DRAFT_TOLERANCE: f32 = 0.01;

/// A headless app with avian and the water plugin, stepped at 60 frames per second, with the
/// water's standard gravity.
fn avian_app() -> App {
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
    app
}

#[test]
fn an_avian_crate_floats_at_its_draft_and_makes_waves() {
    let mut app = avian_app();
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

/// A 20 N `FloatingForce` on a floating 40 kg avian crate acts through avian: it carries the
/// crate to the speed where the wet hull's drag balances it, `F = f (k1 v + k2 v^2)`
/// (`DragRates::DEFAULT`, `f` the submerged fraction), within 5% (avian integrates the push, the
/// water measures the drag where avian put the crate); the crate's `FloatingMotion` is avian's
/// velocity, within 1 cm/s of the avian step after it.
#[test]
fn a_floating_force_on_an_avian_crate_acts_through_avian() {
    let mut app = avian_app();
    app.world_mut().spawn(Water::new(192, 64));
    let (mass, push) = (40.0, 20.0);
    let floating = Floating::cuboid(Vec3::new(0.3, 0.15, 0.3), mass);
    let draft = floating.archimedes_draft().expect("a box");
    let body = app
        .world_mut()
        .spawn((
            floating.avian_body().expect("a box"),
            FloatingForce {
                force: Vec3::new(push, 0.0, 0.0),
                torque: Vec3::ZERO,
            },
            Transform::from_xyz(-7.0, 0.15 - draft, 0.0),
        ))
        .id();
    // Seven seconds: ten time constants of the drag's linear part.
    for _ in 0..420 {
        app.update();
    }
    let velocity = app.world().get::<LinearVelocity>(body).expect("avian").0;
    let motion = *app.world().get::<FloatingMotion>(body).expect("motion");
    let expected = support::drag_limited_speed(mass, draft / 0.3, push);
    assert!(
        (velocity.x - expected).abs() < 0.05 * expected,
        "avian speed {velocity} m/s, drag balances the push at {expected} m/s"
    );
    assert!(
        (motion.velocity - velocity).length() < 0.01,
        "FloatingMotion {:?} against avian's {velocity}",
        motion.velocity
    );
    assert!(
        motion.submerged_volume.is_some_and(|v| v > 0.0),
        "{motion:?}"
    );
}
