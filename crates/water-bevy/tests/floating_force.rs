//! `FloatingForce` in a headless Bevy app: a 20 N push on a floating 40 kg crate (y up) carries
//! it to the speed where the wet hull's drag balances the push, `F = f (k1 v + k2 v^2)` with
//! `f` the submerged fraction and `k1 = 4 m`, `k2 = 0.5 m` (`DragRates::DEFAULT`), within 2%;
//! a crate beside it without the component stays where it floats; a torque about y turns the
//! pushed crate's twin.

use bevy::prelude::*;
use water_bevy::prelude::*;
use water_bevy::{OnWater, WaterSimulation};

mod support;

#[test]
fn a_floating_force_pushes_a_crate_to_its_drag_limited_speed() {
    // 0.6 x 0.3 x 0.6 m (y up), 40 kg: draft 0.111 m of 0.3 m.
    let (mut app, crate_, draft) = support::crate_on_water(192, 96);
    let (mass, push) = (40.0, 20.0);
    let at = |x: f32, z: f32| Transform::from_xyz(x, 0.15 - draft, z);
    let pushed = app
        .world_mut()
        .spawn((
            crate_.clone(),
            at(-7.0, -2.0),
            FloatingForce {
                force: Vec3::new(push, 0.0, 0.0),
                torque: Vec3::ZERO,
            },
        ))
        .id();
    let turned = app
        .world_mut()
        .spawn((
            crate_.clone(),
            at(-7.0, 2.0),
            FloatingForce {
                force: Vec3::ZERO,
                torque: Vec3::new(0.0, 2.0, 0.0),
            },
        ))
        .id();
    let idle = app.world_mut().spawn((crate_, at(6.0, 3.0))).id();
    // Seven seconds: ten time constants m / (f k1) of about 0.7 s.
    for _ in 0..420 {
        app.update();
    }
    let motion = |app: &App, e: Entity| *app.world().get::<FloatingMotion>(e).expect("motion");
    let v = motion(&app, pushed).velocity.x;
    let expected = support::drag_limited_speed(mass, draft / 0.3, push);
    assert!(
        (v - expected).abs() < 0.02 * expected,
        "speed {v} m/s, drag balances the push at {expected} m/s"
    );
    let spin = motion(&app, turned).angular_velocity;
    assert!(spin.y > 0.05, "the torque turns its crate about +y: {spin}");
    assert_stays(&app, idle, Vec2::new(6.0, 3.0));
}

/// A push that takes its crate past 1e4 m/s within a step (1e8 N on 40 kg: 4e4 m/s in a tick)
/// stops that step for every body; the plugin takes that crate off the water, marks it
/// `OnWater { refused: true }`, and the water goes on stepping with the other crate floating
/// where it was (the scene had stalled on it, logging the error every tick).
#[test]
fn a_crate_pushed_past_the_speed_limit_is_taken_off_and_the_water_goes_on() {
    let (mut app, crate_, draft) = support::crate_on_water(96, 96);
    let at = |x: f32, z: f32| Transform::from_xyz(x, 0.15 - draft, z);
    let flung = app
        .world_mut()
        .spawn((
            crate_.clone(),
            at(-2.0, 0.0),
            FloatingForce {
                force: Vec3::new(1e8, 0.0, 0.0),
                torque: Vec3::ZERO,
            },
        ))
        .id();
    let idle = app.world_mut().spawn((crate_, at(2.0, 0.0))).id();
    let mut steps = || {
        for _ in 0..15 {
            app.update();
        }
        let mut water = app.world_mut().query::<&WaterSimulation>();
        let simulation = water.single(app.world()).expect("one water");
        assert!(
            simulation.body_of(flung).is_none(),
            "the flung crate is off the water"
        );
        assert!(
            simulation.body_of(idle).is_some(),
            "the idle crate is on it"
        );
        simulation.scene().steps_taken()
    };
    let (first, later) = (steps(), steps());
    assert!(
        later >= first + 5,
        "the water went on: {first} steps, then {later}"
    );
    assert_eq!(
        app.world().get::<OnWater>(flung),
        Some(&OnWater { refused: true })
    );
    assert_stays(&app, idle, Vec2::new(2.0, 0.0));
}

/// The crate `idle`, pushed by nothing, floats within 5 cm of where it was put, `(x, z)`.
fn assert_stays(app: &App, idle: Entity, put: Vec2) {
    let still = app
        .world()
        .get::<Transform>(idle)
        .expect("idle")
        .translation;
    assert!(
        (still.xz() - put).length() < 0.05,
        "the crate without a force stays: {still}"
    );
}
