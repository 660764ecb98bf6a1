//! The boats' helm, shared by the `boat` and `sea` examples: throttle and rudder from the
//! keyboard, and the force and torque they make.

use bevy::prelude::*;
use water_bevy::FloatingForce;

/// Throttle and rudder in [-1, 1] from the keys: W / up arrow ahead, S / down arrow astern,
/// A / left arrow to port, D / right arrow to starboard.
pub fn keyboard_helm(keys: &ButtonInput<KeyCode>) -> (f32, f32) {
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
pub fn helm_force(
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
pub fn refuse_pond_flags(name: &str, options: &super::check_mode::Options) -> Result<(), AppExit> {
    if options.bench_frames.is_some() || options.size.is_some() || options.crates.is_some() {
        eprintln!(
            "{name}: --bench-frames, --size and --crates are the pond's; {name} takes \
             --frames, --screenshot and --backend"
        );
        return Err(AppExit::from_code(2));
    }
    Ok(())
}
