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

use check_mode::{CheckFrame, ExampleBackend};
use helm::{helm_force, keyboard_helm};

/// Half the boat's beam, height and length, metres: a 4 m launch.
const HULL_HALF_EXTENTS: Vec3 = Vec3::new(0.8, 0.4, 2.0);

/// Mass, kg: it floats 0.2 m deep over its 1.6 x 4 m waterplane.
const BOAT_MASS_KG: f32 = 1300.0;

/// Drag for a hull made to move: little along its way, turns damped slowly.
const BOAT_DRAG: DragRates = DragRates {
    linear: 0.6,
    quadratic: 0.2,
    angular: 2.0,
};

/// Full throttle, N.
const THRUST_N: f32 = 2600.0;

/// Full rudder, N m about the vertical.
const TURN_TORQUE_NM: f32 = 1500.0;

/// Speed the boat starts at in check mode, m/s, so the few scripted seconds show a wake.
const CHECK_START_SPEED: f32 = 2.5;

/// The chase camera: metres behind and above the boat, and how far it looks down.
const CAMERA_BEHIND: f32 = 14.0;
const CAMERA_ABOVE: f32 = 4.0;
const CAMERA_PITCH_DEGREES: f32 = 9.0;

/// The player's boat.
#[derive(Component)]
struct Boat;

fn main() -> AppExit {
    run().unwrap_or_else(|exit| exit)
}

fn run() -> Result<AppExit, AppExit> {
    let options = check_mode::options_or_exit("sea")?;
    helm::refuse_pond_flags("sea", &options)?;
    let mut app = check_mode::example_app(
        "sea",
        &options,
        Color::srgb(0.62, 0.74, 0.86),
        Some(horizon_fraction()),
    )?;
    app.add_systems(Startup, setup)
        .add_systems(Update, steer)
        .add_systems(FixedUpdate, chase.after(WaterSystems::WriteBack));
    Ok(app.run())
}

/// Where the horizon lies in the camera's picture, as a fraction of its height from the top:
/// a camera pitched down by `p` under a vertical field of view `f` sees the horizontal
/// `tan p / tan(f / 2)` half-heights above the centre.
fn horizon_fraction() -> f32 {
    let fov = PerspectiveProjection::default().fov;
    let pitch = CAMERA_PITCH_DEGREES.to_radians();
    0.5 - 0.5 * pitch.tan() / (0.5 * fov).tan()
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
    let speed = if check.is_some() {
        CHECK_START_SPEED
    } else {
        0.0
    };
    let boat = commands
        .spawn((
            Boat,
            Floating::cuboid(HULL_HALF_EXTENTS, BOAT_MASS_KG).with_drag(BOAT_DRAG),
            FloatingForce::default(),
            FloatingMotion {
                velocity: Vec3::NEG_Z * speed,
                ..default()
            },
            Transform::from_xyz(0.0, 0.3, 8.0),
            Mesh3d(meshes.add(Cuboid::from_size(HULL_HALF_EXTENTS * 2.0))),
            MeshMaterial3d(materials.add(StandardMaterial {
                base_color: Color::srgb(0.9, 0.9, 0.85),
                perceptual_roughness: 0.5,
                ..default()
            })),
        ))
        .with_children(|boat| {
            boat.spawn((
                Mesh3d(meshes.add(Cuboid::new(1.2, 0.6, 1.4))),
                MeshMaterial3d(materials.add(StandardMaterial {
                    base_color: Color::srgb(0.7, 0.2, 0.15),
                    ..default()
                })),
                Transform::from_xyz(0.0, 0.7, 0.6),
            ));
        })
        .id();
    commands.spawn((
        Water::new(256, 256)
            .with_cell_size(0.25)
            .with_backend(backend.0)
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
    let crate_material = materials.add(StandardMaterial {
        base_color: Color::srgb(0.55, 0.32, 0.12),
        ..default()
    });
    for x in [-3.0, 3.5] {
        commands.spawn((
            Floating::cuboid(Vec3::splat(0.3), 108.0),
            Transform::from_xyz(x, 0.3, -4.0),
            Mesh3d(meshes.add(Cuboid::from_length(0.6))),
            MeshMaterial3d(crate_material.clone()),
        ));
    }
}

/// Throttle and rudder from the keyboard (full throttle in check mode) as the boat's force.
fn steer(
    keys: Res<ButtonInput<KeyCode>>,
    check: Option<Res<CheckFrame>>,
    mut boats: Query<(&Transform, &mut FloatingForce), With<Boat>>,
) {
    let helm = if check.is_some() {
        (1.0, 0.0)
    } else {
        keyboard_helm(&keys)
    };
    for (transform, mut force) in &mut boats {
        *force = helm_force(transform, helm, THRUST_N, TURN_TORQUE_NM);
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
