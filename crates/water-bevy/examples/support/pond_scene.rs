//! The pond's simulation, shared by its window and its headless benchmark: the water and the
//! crates thrown onto it, without anything drawn.

use bevy::prelude::*;
use water_bevy::prelude::*;

/// Side of a crate, metres: six cells of the pond, so its wake has a shape.
pub const CRATE_SIDE_M: f32 = 0.6;

/// Density of a crate, kg/m^3: light wood, floating half out of the water.
const CRATE_DENSITY: f32 = 500.0;

/// Mass of a crate, kg.
pub const CRATE_MASS_KG: f32 = CRATE_DENSITY * CRATE_SIDE_M * CRATE_SIDE_M * CRATE_SIDE_M;

/// Speed a crate is thrown at, m/s: its contact masks make waves in proportion to it.
pub const THROW_SPEED: f32 = 3.0;

/// Height a crate is let go at above the water, metres.
pub const DROP_HEIGHT: f32 = 0.8;

/// The pond: `cells` x `cells * 3 / 4` cells of 0.1 m (25.6 m x 19.2 m at 256), centred on the
/// origin, still water at y = 0.
pub fn pond_water(cells: usize) -> Water {
    Water::new(cells, cells * 3 / 4).with_cell_size(0.1)
}

/// A crate thrown so that it lands at `landing` (a point on the water), flying along `heading`.
pub fn thrown_crate(
    landing: Vec3,
    heading: Vec3,
    yaw: f32,
) -> (Floating, Transform, FloatingMotion) {
    let along = Vec3::new(heading.x, 0.0, heading.z).normalize_or_zero();
    // Let go short of the landing point by the distance it flies while falling.
    let fall_time = (2.0 * DROP_HEIGHT / 9.81_f32).sqrt();
    let start = Vec3::new(landing.x, DROP_HEIGHT, landing.z) - along * THROW_SPEED * fall_time;
    let half = Vec3::splat(CRATE_SIDE_M / 2.0);
    (
        Floating::cuboid(half, CRATE_MASS_KG).with_drag(water_bevy::DragRates {
            linear: 1.5,
            ..water_bevy::DragRates::DEFAULT
        }),
        Transform::from_translation(start)
            .with_rotation(Quat::from_rotation_y(yaw) * Quat::from_rotation_x(0.25)),
        FloatingMotion {
            velocity: along * THROW_SPEED,
            ..default()
        },
    )
}
