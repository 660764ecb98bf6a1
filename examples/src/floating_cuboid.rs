//! A box that floats by Archimedes' principle over its own shape: the crates and the boat of
//! the examples, and the demo's thrown crates.

use glam::Vec3;
use water_buoyancy::{
    BodyState, BuoyancyError, DragRates, FloatingBody, Hull, Pose, RigidBody, Shape,
};

/// A box of full size `size` (m) and `mass` (kg) in `state`, one hull over its whole shape, in
/// water of `density` (kg/m^3) with drag `rates` (per unit mass, see [`DragRates`]).
///
/// # Errors
/// [`BuoyancyError`] for a size, mass, state, density or rate out of range.
pub fn floating_cuboid(
    size: Vec3,
    mass: f32,
    state: BodyState,
    density: f32,
    rates: DragRates,
) -> Result<FloatingBody, BuoyancyError> {
    let shape = Shape::cuboid(size * 0.5)?;
    let body = RigidBody::from_shape(&shape, mass, state)?;
    let hulls = vec![Hull::new(shape, Pose::IDENTITY)?];
    FloatingBody::archimedes(body, hulls, density, rates)
}

#[cfg(test)]
mod tests {
    use water_buoyancy::{BuoyancyModel, FRESH_WATER_DENSITY};

    use super::*;

    #[test]
    fn the_hull_is_the_whole_box_and_drag_scales_with_mass() {
        let size = Vec3::new(1.0, 0.5, 0.4);
        let state = BodyState::at_rest(Pose::from_position(Vec3::Z).expect("pose"));
        let body = floating_cuboid(size, 100.0, state, FRESH_WATER_DENSITY, DragRates::DEFAULT)
            .expect("body");
        assert_eq!(body.hulls.len(), 1);
        let volume = body.hulls[0].shape().volume();
        assert!((volume - 0.2).abs() < 1e-6, "hull volume {volume} m^3");
        let BuoyancyModel::Archimedes(water) = &body.model else {
            panic!("not Archimedes: {:?}", body.model);
        };
        assert_eq!(water.density(), FRESH_WATER_DENSITY);
        assert_eq!(water.linear_drag(), DragRates::DEFAULT.linear * 100.0);
        assert_eq!(water.quadratic_drag(), DragRates::DEFAULT.quadratic * 100.0);
    }
}
