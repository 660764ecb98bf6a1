//! Floating bodies in a headless app: a thrown crate leaves a wake, a despawned one leaves the
//! water without disturbing the others' bookkeeping, and a hull the water refuses is logged,
//! not panicked on.

use bevy::prelude::*;
use water_bevy::prelude::*;
use water_bevy::{OnWater, WaterSimulation};

mod support;

fn headless_pond() -> App {
    let mut app = support::headless_app(1.0 / 60.0);
    app.world_mut().spawn(Water::new(96, 96));
    app
}

fn peak_height(app: &mut App) -> f32 {
    let world = app.world_mut();
    let mut water = world.query::<&WaterSimulation>();
    water
        .single(world)
        .expect("one water")
        .heights_into(|h| h.iter().fold(0.0_f32, |m, z| m.max(z.abs())))
        .expect("cpu heights")
}

#[test]
fn a_crate_thrown_across_the_water_leaves_a_wake() {
    let mut app = headless_pond();
    app.update();
    assert_eq!(peak_height(&mut app), 0.0, "still water to begin with");
    let crate_ = app
        .world_mut()
        .spawn((
            Floating::cuboid(Vec3::splat(0.3), 108.0),
            Transform::from_xyz(-2.0, 0.05, 0.0),
            FloatingMotion {
                velocity: Vec3::new(2.0, 0.0, 0.0),
                ..default()
            },
        ))
        .id();
    for _ in 0..60 {
        app.update();
    }
    let peak = peak_height(&mut app);
    assert!(
        peak > 5e-3,
        "a crate moving at 2 m/s made waves of only {peak} m"
    );
    let at = app
        .world()
        .get::<Transform>(crate_)
        .expect("crate")
        .translation;
    assert!(at.x > -1.5, "the crate did not move along +x: {at}");
}

#[test]
fn despawning_a_body_keeps_the_others_on_their_own_bodies() {
    let mut app = headless_pond();
    let xs = [-3.0, 0.0, 3.0];
    let crates: Vec<Entity> = xs
        .iter()
        .map(|&x| {
            app.world_mut()
                .spawn((
                    Floating::cuboid(Vec3::splat(0.3), 108.0),
                    Transform::from_xyz(x, 0.0, 1.0),
                ))
                .id()
        })
        .collect();
    for _ in 0..10 {
        app.update();
    }
    app.world_mut().despawn(crates[1]);
    for _ in 0..30 {
        app.update();
    }
    let world = app.world_mut();
    let mut water = world.query::<&WaterSimulation>();
    let simulation = water.single(world).expect("one water");
    assert_eq!(simulation.scene().body_count(), 2);
    assert!(simulation.body_of(crates[1]).is_none());
    let bodies: Vec<Vec3> = [crates[0], crates[2]]
        .iter()
        .map(|&e| {
            let id = simulation.body_of(e).expect("still on the water");
            simulation.scene().body(id).expect("body").position
        })
        .collect();
    for ((&entity, &x), body) in [crates[0], crates[2]]
        .iter()
        .zip(&[xs[0], xs[2]])
        .zip(bodies)
    {
        let at = app
            .world()
            .get::<Transform>(entity)
            .expect("crate")
            .translation;
        assert!((at.x - x).abs() < 0.05, "{entity} wandered to {at}");
        // The scene's frame has its origin at the grid's corner (-4.8, 0, 4.8).
        assert!(
            (body.x - 4.8 - x).abs() < 0.05,
            "{entity} maps to a body at {body}"
        );
    }
}

#[test]
fn a_bad_hull_is_refused_and_the_water_goes_on() {
    let mut app = headless_pond();
    let bad = app
        .world_mut()
        .spawn((Floating::sphere(-1.0, 10.0), Transform::default()))
        .id();
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(
        app.world().get::<OnWater>(bad),
        Some(&OnWater { refused: true })
    );
    // The water goes on: it keeps stepping, and a click still makes waves.
    let time = |app: &mut App| {
        let world = app.world_mut();
        let mut water = world.query::<&WaterSimulation>();
        water.single(world).expect("one water").scene().time()
    };
    let before = time(&mut app);
    assert_eq!(
        peak_height(&mut app),
        0.0,
        "still water beside the refused hull"
    );
    app.world_mut()
        .write_message(WaterImpulse::new(Vec3::new(1.0, 0.0, 1.0), 0.4, 0.05));
    for _ in 0..5 {
        app.update();
    }
    assert!(time(&mut app) > before, "the water stopped stepping");
    assert!(
        peak_height(&mut app) > 1e-3,
        "a click after the refusal made no waves"
    );
}
