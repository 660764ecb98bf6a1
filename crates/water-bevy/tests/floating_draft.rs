//! A crate spawned above the water in a headless Bevy app settles at its Archimedes draft.

use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use water_bevy::prelude::*;

mod support;

/// The settled draft may differ from `m / (rho A)` by this fraction (the 1%).
const DRAFT_TOLERANCE: f32 = 0.01;

#[test]
fn a_crate_settles_at_its_archimedes_draft() {
    // 0.6 x 0.3 x 0.6 m, 40 kg: draft 40 / (1000 * 0.36) = 0.111 m.
    let (mut app, crate_, draft) = support::crate_on_water(64, 64);
    assert!((draft - 0.1111).abs() < 1e-3, "draft {draft}");
    // Let go 5 cm above where it floats, off centre and turned, so it falls, bobs and settles.
    let start = Vec3::new(0.7, 0.15 - draft + 0.05, -0.4);
    let body = app
        .world_mut()
        .spawn((
            crate_,
            Transform::from_translation(start).with_rotation(Quat::from_rotation_y(0.4)),
        ))
        .id();
    // 20 s of game time at 60 frames per second.
    for _ in 0..1200 {
        app.update();
    }
    let at = *app.world().get::<Transform>(body).expect("crate");
    let motion = *app.world().get::<FloatingMotion>(body).expect("motion");
    assert!(
        (at.translation.y - start.y).abs() > 0.04,
        "the crate never fell: {at:?}"
    );
    assert!(motion.velocity.length() < 1e-3, "still moving: {motion:?}");
    let surface = app
        .world_mut()
        .run_system_once(move |water: WaterQuery| water.height_at(at.translation))
        .expect("query")
        .expect("over the water");
    let bottom = at.translation.y - 0.15 * (at.up().y);
    let settled = surface - bottom;
    let error = (settled - draft).abs() / draft;
    assert!(
        error < DRAFT_TOLERANCE,
        "draft {settled} m against Archimedes' {draft} m: {:.3}% off (surface {surface} m, \
         bottom {bottom} m, tilt {:?})",
        error * 100.0,
        at.rotation
    );
}
