//! `boat`: a boat steered with the keyboard leaving a wake on simulated water. W / up arrow:
//! throttle; S / down arrow: reverse; A and D / left and right arrows: turn. The hull floats by
//! Archimedes; its bow and stern waves come from the water it pushes aside.
//!
//! ```text
//! cargo run -p water-bevy --example boat --release
//! ```
//!
//! Check mode, as CI runs it (full throttle with a scripted turn at a fixed 1/30 s a frame; the
//! last picture saved; exit 1 when it is blank or the water shows no wake):
//!
//! ```text
//! cargo run -p water-bevy --example boat --release -- --frames 60 --screenshot out/bevy-boat.png
//! ```

#[path = "support/check_mode.rs"]
mod check_mode;
#[path = "support/ground.rs"]
mod ground;
#[path = "support/helm.rs"]
mod helm;

use bevy::prelude::*;
use water_bevy::prelude::*;
use water_bevy::DragRates;

use check_mode::{CheckFrame, SceneSetup};
use helm::BoatSpec;

/// The player's boat: a 2.4 m dinghy.
const DINGHY: BoatSpec = BoatSpec {
    // Half the boat's beam, freeboard-to-keel height and length, metres.
    half_extents: Vec3::new(0.45, 0.25, 1.2),
    // It floats 0.12 m deep (`m / (rho A)` over its 0.9 x 2.4 m waterplane).
    mass_kg: 260.0,
    // Drag for a hull: less along its way than a crate's default (it is made to move), the
    // default's quadratic rate, and a slower damping of turns so it carries its heading.
    drag: DragRates {
        linear: 1.0,
        quadratic: 0.3,
        angular: 3.0,
    },
    colour: Color::srgb(0.85, 0.85, 0.8),
    // A cabin, toward the stern.
    cabin_size: Vec3::new(0.6, 0.35, 0.7),
    cabin_centre: Vec3::new(0.0, 0.42, 0.35),
    // About 2.5 m/s through the water against the drag above.
    thrust_n: 450.0,
    turn_torque_nm: 260.0,
    check_start_speed: 2.0,
    // A left turn in the middle of the check mode's run.
    check_turn_frames: 20..40,
};

fn main() -> AppExit {
    match helm::helm_app("boat", DINGHY, None) {
        Ok(mut app) => app.add_systems(Startup, setup).run(),
        Err(exit) => exit,
    }
}

fn setup(mut scene: SceneSetup, check: Option<Res<CheckFrame>>) {
    scene.spawn_camera_and_light(
        Transform::from_xyz(0.0, 14.0, 11.0).looking_at(Vec3::new(0.0, 0.0, -1.0), Vec3::Y),
        Vec3::new(-3.0, 6.0, -8.0),
    );
    // A lake of 32 m x 24 m, 0.1 m cells.
    scene.commands.spawn((
        Water::new(320, 240)
            .with_cell_size(0.1)
            .with_backend(scene.backend.0),
        WaterLook {
            colour: Color::srgb(0.04, 0.2, 0.3),
            height_scale: 1.5,
            ..default()
        },
    ));
    // Heading -z (Bevy's forward), turned to cross the lake along +x.
    let heading = Quat::from_rotation_y(-std::f32::consts::FRAC_PI_2);
    helm::spawn_boat(
        &mut scene,
        &DINGHY,
        Transform::from_xyz(-9.0, 0.1, 3.0).with_rotation(heading),
        check.is_some(),
    );
    // Well below the deepest trough of the wake, so the lake bed never shows through.
    ground::spawn_ground(&mut scene, 90.0, Color::srgb(0.4, 0.42, 0.3), 1.5);
}
