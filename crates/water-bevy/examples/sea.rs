//! `sea`: a boat at sea. A JONSWAP swell without end reaches the horizon around the camera
//! (`Water::with_ocean`); the boat and two crates float and pitch on it, and the boat's wake is
//! the interactive grid's water, added to the sea where the grid lies; foam whitens the wake and
//! the crests that break (`Water::with_foam`). W / up arrow: throttle;
//! S / down arrow: reverse; A and D / left and right arrows: turn. The camera follows the boat.
//!
//! ```text
//! cargo run -p water-bevy --example sea --release
//! ```
//!
//! Check mode, as CI runs it (full throttle at a fixed 1/30 s a frame; the last picture saved;
//! exit 1 when it is blank, the water did not move, or the sea does not reach the horizon under
//! a smooth sky):
//!
//! ```text
//! cargo run -p water-bevy --example sea --release -- --frames 40 --screenshot out/bevy-sea.png
//! ```

#[path = "support/check_mode.rs"]
mod check_mode;
#[path = "support/helm.rs"]
mod helm;

use bevy::prelude::*;
use water_bevy::prelude::*;
use water_bevy::{DragRates, FoamSettings, WaterSystems};

use check_mode::{CheckFrame, SceneSetup};
use helm::{Boat, BoatSpec};

/// The chase camera: metres behind and above the boat, and how far it looks down.
const CAMERA_BEHIND: f32 = 14.0;
const CAMERA_ABOVE: f32 = 4.0;
const CAMERA_PITCH_DEGREES: f32 = 9.0;

/// The player's boat: a 4 m launch.
const LAUNCH: BoatSpec = BoatSpec {
    // Half the boat's beam, height and length, metres.
    half_extents: Vec3::new(0.8, 0.4, 2.0),
    // It floats 0.2 m deep over its 1.6 x 4 m waterplane.
    mass_kg: 1300.0,
    // Drag for a hull made to move: little along its way, turns damped slowly.
    drag: DragRates {
        linear: 0.6,
        quadratic: 0.2,
        angular: 2.0,
    },
    colour: Color::srgb(0.9, 0.9, 0.85),
    cabin_size: Vec3::new(1.2, 0.6, 1.4),
    cabin_centre: Vec3::new(0.0, 0.7, 0.6),
    thrust_n: 2600.0,
    turn_torque_nm: 1500.0,
    check_start_speed: 2.5,
    // Full throttle straight ahead.
    check_turn_frames: 0..0,
};

fn main() -> AppExit {
    match helm::helm_app("sea", LAUNCH, Some(horizon_fraction())) {
        Ok(mut app) => app
            .add_systems(Startup, setup)
            .add_systems(FixedUpdate, chase.after(WaterSystems::WriteBack))
            .run(),
        Err(exit) => exit,
    }
}

/// Where the horizon lies in the camera's picture, as a fraction of its height from the top:
/// a camera pitched down by `p` under a vertical field of view `f` sees the horizontal
/// `tan p / tan(f / 2)` half-heights above the centre.
fn horizon_fraction() -> f32 {
    let fov = PerspectiveProjection::default().fov;
    let pitch = CAMERA_PITCH_DEGREES.to_radians();
    0.5 - 0.5 * pitch.tan() / (0.5 * fov).tan()
}

fn setup(mut scene: SceneSetup, check: Option<Res<CheckFrame>>) {
    scene.spawn_camera_and_light(
        Transform::from_xyz(0.0, CAMERA_ABOVE, CAMERA_BEHIND),
        Vec3::new(-3.0, 6.0, -8.0),
    );
    // A wind sea of 7 m/s over 15 km of fetch (its significant height about 0.5 m), running
    // 30 degrees off +x; the boat's wake on 64 m x 64 m of 0.25 m cells that follow the boat.
    let swell = OceanSpec::new(WaveSpectrum::Jonswap {
        wind_speed: 7.0,
        fetch: 15_000.0,
        peak_enhancement: 3.3,
    })
    .with_direction(30.0)
    .with_choppiness(0.5)
    .with_seed(11);
    let boat = helm::spawn_boat(
        &mut scene,
        &LAUNCH,
        Transform::from_xyz(0.0, 0.3, 8.0),
        check.is_some(),
    );
    scene.commands.spawn((
        Water::new(256, 256)
            .with_cell_size(0.25)
            .with_backend(scene.backend.0)
            .with_ocean(swell)
            // White water: the boat's bow and stern, and the swell's crests where they break.
            .with_foam(FoamSettings {
                half_life: 0.8,
                wake: 0.3,
                jacobian_threshold: Some(0.6),
                shore_depth: None,
            }),
        WaterLook {
            colour: Color::srgb(0.03, 0.16, 0.26),
            ..default()
        },
        // The interactive square travels with the launch, its wake behind it.
        WaterFocus(boat),
    ));
    let crate_material = scene.materials.add(StandardMaterial {
        base_color: Color::srgb(0.55, 0.32, 0.12),
        ..default()
    });
    for x in [-3.0, 3.5] {
        scene.commands.spawn((
            Floating::cuboid(Vec3::splat(0.3), 108.0),
            Transform::from_xyz(x, 0.3, -4.0),
            Mesh3d(scene.meshes.add(Cuboid::from_length(0.6))),
            MeshMaterial3d(crate_material.clone()),
        ));
    }
}

/// Keeps the camera behind the boat at a fixed height and pitch, looking along its heading:
/// the sea's rings follow the camera.
fn chase(
    boats: Query<&Transform, (With<Boat>, Without<Camera3d>)>,
    mut cameras: Query<&mut Transform, With<Camera3d>>,
) {
    let (Some(boat), Some(mut camera)) = (boats.iter().next(), cameras.iter_mut().next()) else {
        return;
    };
    let ahead = Vec3::new(boat.forward().x, 0.0, boat.forward().z)
        .try_normalize()
        .unwrap_or(Vec3::NEG_Z);
    let eye =
        Vec3::new(boat.translation.x, CAMERA_ABOVE, boat.translation.z) - ahead * CAMERA_BEHIND;
    let pitch = CAMERA_PITCH_DEGREES.to_radians();
    let look = ahead * pitch.cos() - Vec3::Y * pitch.sin();
    *camera = Transform::from_translation(eye).looking_to(look, Vec3::Y);
}
