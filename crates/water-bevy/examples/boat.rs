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
#[path = "support/helm.rs"]
mod helm;

use bevy::prelude::*;
use water_bevy::prelude::*;
use water_bevy::DragRates;

use check_mode::{CheckFrame, ExampleBackend};
use helm::{helm_force, keyboard_helm};

/// Half the boat's beam, freeboard-to-keel height and length, metres: a 2.4 m dinghy.
const HULL_HALF_EXTENTS: Vec3 = Vec3::new(0.45, 0.25, 1.2);

/// Mass, kg: it floats 0.12 m deep (`m / (rho A)` over its 0.9 x 2.4 m waterplane).
const BOAT_MASS_KG: f32 = 260.0;

/// Drag for a hull: less along its way than a crate's default (it is made to move), the
/// default's quadratic rate, and a slower damping of turns so it carries its heading.
const BOAT_DRAG: DragRates = DragRates {
    linear: 1.0,
    quadratic: 0.3,
    angular: 3.0,
};

/// Full throttle, N: about 2.5 m/s through the water against the drag above.
const THRUST_N: f32 = 450.0;

/// Full rudder, N m about the vertical.
const TURN_TORQUE_NM: f32 = 260.0;

/// Speed the boat starts at in check mode, m/s, so the few scripted seconds show a wake.
const CHECK_START_SPEED: f32 = 2.0;

/// Frames of the check mode's left turn.
const CHECK_TURN_FRAMES: std::ops::Range<u32> = 20..40;

/// The player's boat.
#[derive(Component)]
struct Boat;

fn main() -> AppExit {
    run().unwrap_or_else(|exit| exit)
}

fn run() -> Result<AppExit, AppExit> {
    let options = check_mode::options_or_exit("boat")?;
    helm::refuse_pond_flags("boat", &options)?;
    let mut app = check_mode::example_app("boat", &options, Color::srgb(0.62, 0.74, 0.86), None)?;
    app.add_systems(Startup, setup).add_systems(Update, steer);
    Ok(app.run())
}

fn setup(
    backend: Res<ExampleBackend>,
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    check: Option<Res<CheckFrame>>,
) {
    check_mode::spawn_camera_and_light(
        &mut commands,
        Transform::from_xyz(0.0, 14.0, 11.0).looking_at(Vec3::new(0.0, 0.0, -1.0), Vec3::Y),
        Vec3::new(-3.0, 6.0, -8.0),
    );
    // A lake of 32 m x 24 m, 0.1 m cells.
    commands.spawn((
        Water::new(320, 240)
            .with_cell_size(0.1)
            .with_backend(backend.0),
        WaterLook {
            colour: Color::srgb(0.04, 0.2, 0.3),
            height_scale: 1.5,
            ..default()
        },
    ));
    let hull = Cuboid::from_size(HULL_HALF_EXTENTS * 2.0);
    let speed = if check.is_some() {
        CHECK_START_SPEED
    } else {
        0.0
    };
    // Heading -z (Bevy's forward), turned to cross the lake along +x.
    let heading = Quat::from_rotation_y(-std::f32::consts::FRAC_PI_2);
    commands
        .spawn((
            Boat,
            Floating::cuboid(HULL_HALF_EXTENTS, BOAT_MASS_KG).with_drag(BOAT_DRAG),
            FloatingForce::default(),
            FloatingMotion {
                velocity: heading * Vec3::NEG_Z * speed,
                ..default()
            },
            Transform::from_xyz(-9.0, 0.1, 3.0).with_rotation(heading),
            Mesh3d(meshes.add(hull)),
            MeshMaterial3d(materials.add(StandardMaterial {
                base_color: Color::srgb(0.85, 0.85, 0.8),
                perceptual_roughness: 0.5,
                ..default()
            })),
        ))
        .with_children(|boat| {
            // A cabin, toward the stern.
            boat.spawn((
                Mesh3d(meshes.add(Cuboid::new(0.6, 0.35, 0.7))),
                MeshMaterial3d(materials.add(StandardMaterial {
                    base_color: Color::srgb(0.7, 0.2, 0.15),
                    ..default()
                })),
                Transform::from_xyz(0.0, 0.42, 0.35),
            ));
        });
    commands.spawn((
        Mesh3d(meshes.add(Plane3d::default().mesh().size(90.0, 90.0))),
        MeshMaterial3d(materials.add(StandardMaterial {
            base_color: Color::srgb(0.4, 0.42, 0.3),
            perceptual_roughness: 0.9,
            ..default()
        })),
        // Well below the deepest trough of the wake, so the lake bed never shows through.
        Transform::from_xyz(0.0, -1.5, 0.0),
    ));
}

/// Throttle and rudder from the keyboard (or the check mode's script) as the boat's force.
fn steer(
    keys: Res<ButtonInput<KeyCode>>,
    check: Option<Res<CheckFrame>>,
    mut boats: Query<(&Transform, &mut FloatingForce), With<Boat>>,
) {
    let helm = match check {
        Some(frame) => (
            1.0,
            if CHECK_TURN_FRAMES.contains(&frame.0) {
                1.0
            } else {
                0.0
            },
        ),
        None => keyboard_helm(&keys),
    };
    for (transform, mut force) in &mut boats {
        *force = helm_force(transform, helm, THRUST_N, TURN_TORQUE_NM);
    }
}
