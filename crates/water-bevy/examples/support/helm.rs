//! The boats' helm, shared by the `boat` and `sea` examples: the app they start from, the boat
//! and its cabin, throttle and rudder from the keyboard, and the force and torque they make.

use std::ops::Range;

use bevy::prelude::*;
use water_bevy::{DragRates, Floating, FloatingForce, FloatingMotion};

use super::check_mode::{self, CheckFrame, Options, SceneSetup};

/// The sky over both boats' water.
const SKY: Color = Color::srgb(0.62, 0.74, 0.86);

/// The colour of both boats' cabins.
const CABIN_COLOUR: Color = Color::srgb(0.7, 0.2, 0.15);

/// The player's boat.
#[derive(Component)]
pub struct Boat;

/// A boat: its hull and cabin, its engine and rudder, and how the check mode sails it.
#[derive(Resource)]
pub struct BoatSpec {
    /// Half the hull's beam, freeboard-to-keel height and length, metres.
    pub half_extents: Vec3,
    /// Mass, kg.
    pub mass_kg: f32,
    /// Drag of the hull in the water.
    pub drag: DragRates,
    /// The hull's colour.
    pub colour: Color,
    /// The cabin's size, metres.
    pub cabin_size: Vec3,
    /// Where the cabin's centre stands from the hull's, metres.
    pub cabin_centre: Vec3,
    /// Full throttle, N.
    pub thrust_n: f32,
    /// Full rudder, N m about the vertical.
    pub turn_torque_nm: f32,
    /// Speed the boat starts at in check mode, m/s, so the few scripted seconds show a wake.
    pub check_start_speed: f32,
    /// Frames of the check mode's full left rudder (empty: straight ahead all the way).
    pub check_turn_frames: Range<u32>,
}

/// The app of the helm example `name` (boat, sea) sailing `boat`: [`check_mode::example_app`]
/// under the boats' sky (with `horizon` for a scene at sea), the pond's flags refused, and the
/// helm steering the [`Boat`].
pub fn helm_app(name: &str, boat: BoatSpec, horizon: Option<f32>) -> Result<App, AppExit> {
    let options = check_mode::options_or_exit(name)?;
    refuse_pond_flags(name, &options)?;
    let mut app = check_mode::example_app(name, &options, SKY, horizon)?;
    app.insert_resource(boat).add_systems(Update, steer);
    Ok(app)
}

/// Spawns the [`Boat`] of `spec` at `at` with its cabin on deck, and returns it: at rest, or in
/// check mode (`checking`) already going ahead at the spec's check-mode speed.
pub fn spawn_boat(
    scene: &mut SceneSetup,
    spec: &BoatSpec,
    at: Transform,
    checking: bool,
) -> Entity {
    let SceneSetup {
        commands,
        meshes,
        materials,
        ..
    } = scene;
    let speed = if checking {
        spec.check_start_speed
    } else {
        0.0
    };
    commands
        .spawn((
            Boat,
            Floating::cuboid(spec.half_extents, spec.mass_kg).with_drag(spec.drag),
            FloatingForce::default(),
            FloatingMotion {
                velocity: at.rotation * Vec3::NEG_Z * speed,
                ..default()
            },
            at,
            Mesh3d(meshes.add(Cuboid::from_size(spec.half_extents * 2.0))),
            MeshMaterial3d(materials.add(StandardMaterial {
                base_color: spec.colour,
                perceptual_roughness: 0.5,
                ..default()
            })),
        ))
        .with_children(|boat| {
            boat.spawn((
                Mesh3d(meshes.add(Cuboid::from_size(spec.cabin_size))),
                MeshMaterial3d(materials.add(StandardMaterial {
                    base_color: CABIN_COLOUR,
                    ..default()
                })),
                Transform::from_translation(spec.cabin_centre),
            ));
        })
        .id()
}

/// Throttle and rudder from the keyboard, or the check mode's script (full throttle, full left
/// rudder over the boat's `check_turn_frames`), as the boat's force.
fn steer(
    keys: Res<ButtonInput<KeyCode>>,
    check: Option<Res<CheckFrame>>,
    spec: Res<BoatSpec>,
    mut boats: Query<(&Transform, &mut FloatingForce), With<Boat>>,
) {
    let helm = match check {
        Some(frame) => (
            1.0,
            if spec.check_turn_frames.contains(&frame.0) {
                1.0
            } else {
                0.0
            },
        ),
        None => keyboard_helm(&keys),
    };
    for (transform, mut force) in &mut boats {
        *force = helm_force(transform, helm, spec.thrust_n, spec.turn_torque_nm);
    }
}

/// Throttle and rudder in [-1, 1] from the keys: W / up arrow ahead, S / down arrow astern,
/// A / left arrow to port, D / right arrow to starboard.
fn keyboard_helm(keys: &ButtonInput<KeyCode>) -> (f32, f32) {
    let pressed = |a: KeyCode, b: KeyCode| keys.pressed(a) || keys.pressed(b);
    let axis = |plus: bool, minus: bool| f32::from(u8::from(plus)) - f32::from(u8::from(minus));
    (
        axis(
            pressed(KeyCode::KeyW, KeyCode::ArrowUp),
            pressed(KeyCode::KeyS, KeyCode::ArrowDown),
        ),
        axis(
            pressed(KeyCode::KeyA, KeyCode::ArrowLeft),
            pressed(KeyCode::KeyD, KeyCode::ArrowRight),
        ),
    )
}

/// The force of `thrust` N along the boat's heading, level (a propeller under a rolling boat
/// still drives it across the water, not into it), and `turn` N m about the vertical, scaled by
/// the helm.
fn helm_force(
    transform: &Transform,
    (throttle, rudder): (f32, f32),
    thrust: f32,
    turn: f32,
) -> FloatingForce {
    let ahead = Vec3::new(transform.forward().x, 0.0, transform.forward().z).normalize_or_zero();
    FloatingForce {
        force: ahead * thrust * throttle,
        torque: Vec3::Y * turn * rudder,
    }
}

/// Refuses the pond's own flags in the helm example `name` (boat, sea), which takes `--frames`,
/// `--screenshot` and `--backend` alone.
fn refuse_pond_flags(name: &str, options: &Options) -> Result<(), AppExit> {
    if options.bench_frames.is_some() || options.size.is_some() || options.crates.is_some() {
        eprintln!(
            "{name}: --bench-frames, --size and --crates are the pond's; {name} takes \
             --frames, --screenshot and --backend"
        );
        return Err(AppExit::from_code(2));
    }
    Ok(())
}
