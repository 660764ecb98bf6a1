//! `FloatingForce` in a headless Bevy app: a 20 N push on a floating 40 kg crate (y up) carries
//! it to the speed where the wet hull's drag balances the push, `F = f (k1 v + k2 v^2)` with
//! `f` the submerged fraction and `k1 = 4 m`, `k2 = 0.5 m` (`DragRates::DEFAULT`), within 2%;
//! a crate beside it without the component stays where it floats; a torque about y turns the
//! pushed crate's twin.

use bevy::prelude::*;
use water_bevy::prelude::*;

mod support;

#[test]
fn a_floating_force_pushes_a_crate_to_its_drag_limited_speed() {
    let mut app = support::headless_app(1.0 / 60.0);
    app.world_mut().spawn(Water::new(192, 96));
    let (mass, push) = (40.0, 20.0);
    // 0.6 x 0.3 x 0.6 m (y up): draft 40 / (1000 * 0.36) = 0.111 m of 0.3 m.
    let crate_ = Floating::cuboid(Vec3::new(0.3, 0.15, 0.3), mass);
    let draft = crate_.archimedes_draft().expect("a box");
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
    let still = app
        .world()
        .get::<Transform>(idle)
        .expect("idle")
        .translation;
    assert!(
        (still.xz() - Vec2::new(6.0, 3.0)).length() < 0.05,
        "the crate without a force stays: {still}"
    );
}
