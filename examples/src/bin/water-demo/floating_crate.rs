//! Wooden crates thrown onto the pool: floating bodies (Archimedes over their hull) that the
//! grid scene adds to its [`water_scene::Scene`] as they are thrown.

use glam::{Quat, Vec3};
use water_buoyancy::{
    BodyState, BuoyancyError, DragRates, FloatingBody, Pose, FRESH_WATER_DENSITY,
};
use water_examples::floating_cuboid::floating_cuboid;

/// Side of a crate, metres: about ten cells of the coarsest grid, so even that one sees its
/// shape in the wake.
pub const CRATE_SIDE_M: f32 = 0.8;

/// Density of the crates, kg/m^3: light wood, so they float half out of the water.
const CRATE_DENSITY: f32 = 500.0;

/// Mass of a crate, kg.
pub const CRATE_MASS_KG: f32 = CRATE_DENSITY * CRATE_SIDE_M * CRATE_SIDE_M * CRATE_SIDE_M;

/// Drag per unit mass (and per unit of the smallest moment of inertia): linear 1.5 /s, below
/// [`DragRates::DEFAULT`]'s 4 /s so a thrown crate glides a little and leaves a wake; the
/// default's quadratic and angular rates.
const DRAG_RATES: DragRates = DragRates {
    linear: 1.5,
    ..DragRates::DEFAULT
};

/// Horizontal speed of a thrown crate, m/s: its contact masks make waves in proportion to it
/// (a crate merely dropped would slip in without a wave, since heave makes none).
const THROW_SPEED: f32 = 2.0;

/// Height above the water a crate is let go at, metres.
const DROP_HEIGHT: f32 = 0.6;

/// Tilt a crate is thrown with, radians, so it lands on an edge and rocks.
const THROW_TILT: f32 = 0.25;

/// Colour of the crates, linear RGB: weathered pine.
pub const CRATE_COLOUR: Vec3 = Vec3::new(0.55, 0.32, 0.12);

/// A crate let go above `landing` (a point on the water), thrown along `heading` (its
/// horizontal part is used; none: dropped straight down), turned `yaw` radians about z.
///
/// # Errors
/// [`BuoyancyError`] for a non-finite landing point.
pub fn thrown_crate(landing: Vec3, heading: Vec3, yaw: f32) -> Result<FloatingBody, BuoyancyError> {
    let along = Vec3::new(heading.x, heading.y, 0.0).normalize_or_zero();
    let orientation = Quat::from_rotation_z(yaw) * Quat::from_rotation_x(THROW_TILT);
    // Let go short of the landing point by the distance it flies while falling.
    let fall_time = (2.0 * DROP_HEIGHT / 9.81_f32).sqrt();
    let start = landing - along * (THROW_SPEED * fall_time) + Vec3::Z * DROP_HEIGHT;
    let mut state = BodyState::at_rest(Pose::new(start, orientation)?);
    state.linear_velocity = along * THROW_SPEED;
    floating_cuboid(
        Vec3::splat(CRATE_SIDE_M),
        CRATE_MASS_KG,
        state,
        FRESH_WATER_DENSITY,
        DRAG_RATES,
    )
}

#[cfg(test)]
mod tests {
    use water_buoyancy::{Gravity, Wrench};
    use water_core::FlatWater;

    use super::*;

    #[test]
    fn a_crate_settles_half_submerged_on_still_water() {
        let mut body = thrown_crate(Vec3::new(5.0, 5.0, 0.0), Vec3::ZERO, 0.3).expect("crate");
        for _ in 0..2000 {
            body.step(&FlatWater::default(), &Gravity::EARTH, 0.005, Wrench::ZERO)
                .expect("step");
        }
        // Density 500 in water of 1000: a plane through a cube's centre halves it, so whichever
        // way it settles, its centre floats at the waterline.
        let z = body.body.state.pose.position.z;
        assert!(z.abs() < 0.01, "centre at {z} m");
    }

    #[test]
    fn a_thrown_crate_lands_where_it_was_aimed() {
        let landing = Vec3::new(4.0, 6.0, 0.0);
        let mut body = thrown_crate(landing, Vec3::new(1.0, -1.0, -0.5), 0.0).expect("crate");
        // Fall until its centre reaches the water (the water barely slows it before that).
        let dt = 0.002;
        while body.body.state.pose.position.z > 0.0 {
            body.step(&FlatWater::default(), &Gravity::EARTH, dt, Wrench::ZERO)
                .expect("step");
        }
        let at = body.body.state.pose.position;
        let miss = (at - landing).truncate().length();
        assert!(miss < 0.1, "landed at {at}, {miss} m from {landing}");
    }
}
