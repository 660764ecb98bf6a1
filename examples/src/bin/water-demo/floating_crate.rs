//! Wooden crates thrown onto the pool: floating bodies (Archimedes over their hull) whose hull
//! mesh, uploaded once, draws their contact masks and their picture.

use glam::{Affine3A, Quat, Vec3};
use water_buoyancy::{
    Archimedes, BodyState, BuoyancyError, BuoyancyModel, FloatingBody, Hull, Pose, RigidBody,
    Shape, FRESH_WATER_DENSITY,
};
use water_gpu::HullMesh;

use crate::error::DemoError;

/// Side of a crate, metres: about ten cells of the coarsest grid, so even that one sees its
/// shape in the wake.
pub const CRATE_SIDE_M: f32 = 0.8;

/// Density of the crates, kg/m^3: light wood, so they float half out of the water.
const CRATE_DENSITY: f32 = 500.0;

/// Drag per unit mass (and per unit of the smallest moment of inertia): linear 1/s, quadratic
/// 1/m, angular 1/s. Lower than `water run`'s linear default so a thrown crate glides a little
/// and leaves a wake; explicit integration stays stable while rate * dt < 2.
const DRAG_RATES: [f32; 3] = [1.5, 0.5, 4.0];

/// Horizontal speed of a thrown crate, m/s: its contact masks make waves in proportion to it
/// (a crate merely dropped would slip in without a wave, since heave makes none).
const THROW_SPEED: f32 = 2.0;

/// Height above the water a crate is let go at, metres.
const DROP_HEIGHT: f32 = 0.6;

/// Tilt a crate is thrown with, radians, so it lands on an edge and rocks.
const THROW_TILT: f32 = 0.25;

/// Colour of the crates, linear RGB: weathered pine.
pub const CRATE_COLOUR: Vec3 = Vec3::new(0.55, 0.32, 0.12);

/// A crate's shape, hull and mass properties, without the GPU: what every crate is made from.
#[derive(Debug, Clone)]
pub struct CrateTemplate {
    shape: Shape,
    hull: Hull,
    archimedes: Archimedes,
    mass: f32,
}

impl CrateTemplate {
    /// The demo's crate.
    ///
    /// # Errors
    /// [`BuoyancyError`] (never for the demo's constants).
    pub fn new() -> Result<Self, BuoyancyError> {
        let shape = Shape::cuboid(Vec3::splat(CRATE_SIDE_M * 0.5))?;
        let hull = Hull::new(shape.clone(), Pose::IDENTITY)?;
        let mass = CRATE_DENSITY * shape.volume();
        // A cube's three moments are equal: any is the smallest.
        let moment = shape.inertia(mass).x_axis.x;
        let [linear, quadratic, angular] = DRAG_RATES;
        let archimedes = Archimedes::new(FRESH_WATER_DENSITY)?.with_drag(
            linear * mass,
            quadratic * mass,
            angular * moment,
        )?;
        Ok(Self {
            shape,
            hull,
            archimedes,
            mass,
        })
    }

    /// A crate let go above `landing` (a point on the water), thrown along `heading` (its
    /// horizontal part is used; none: dropped straight down), turned `yaw` radians about z.
    ///
    /// # Errors
    /// [`BuoyancyError`] for a non-finite landing point.
    pub fn throw(
        &self,
        landing: Vec3,
        heading: Vec3,
        yaw: f32,
    ) -> Result<FloatingBody, BuoyancyError> {
        let along = Vec3::new(heading.x, heading.y, 0.0).normalize_or_zero();
        let orientation = Quat::from_rotation_z(yaw) * Quat::from_rotation_x(THROW_TILT);
        // Let go short of the landing point by the distance it flies while falling.
        let fall_time = (2.0 * DROP_HEIGHT / 9.81_f32).sqrt();
        let start = landing - along * (THROW_SPEED * fall_time) + Vec3::Z * DROP_HEIGHT;
        let mut state = BodyState::at_rest(Pose::new(start, orientation)?);
        state.linear_velocity = along * THROW_SPEED;
        Ok(FloatingBody {
            body: RigidBody::from_shape(&self.shape, self.mass, state)?,
            hulls: vec![self.hull.clone()],
            model: BuoyancyModel::Archimedes(self.archimedes),
        })
    }
}

/// The crate template and its hull mesh on the GPU, uploaded once and drawn for every crate.
#[derive(Debug)]
pub struct CrateKit {
    /// What crates are made from.
    pub template: CrateTemplate,
    /// The hull's surface mesh on the device.
    pub mesh: HullMesh,
}

impl CrateKit {
    /// The kit, its hull mesh uploaded to `device`.
    ///
    /// # Errors
    /// [`DemoError::Buoyancy`] or [`DemoError::Gpu`] (never for the demo's constants).
    pub fn new(device: &wgpu::Device) -> Result<Self, DemoError> {
        let template = CrateTemplate::new()?;
        let surface = template.hull.surface();
        let mesh = HullMesh::new(device, &surface.vertices, &surface.triangles)?;
        Ok(Self { template, mesh })
    }
}

/// Where a crate's hull mesh is this moment (the grid's frame).
#[must_use]
pub fn crate_transform(body: &FloatingBody) -> Affine3A {
    let pose = body.body.state.pose;
    Affine3A::from_rotation_translation(pose.orientation, pose.position)
}

/// Keeps a crate inside a square pool of `side` metres: at a wall its velocity into the wall is
/// turned back at half speed. The pool's water ends at its rim, and a crate past it would find
/// no water under it and fall forever.
pub fn keep_in_pool(body: &mut FloatingBody, side: f32) {
    // Half the crate's diagonal: no corner reaches past the rim whichever way it turns.
    let margin = CRATE_SIDE_M * 0.5 * std::f32::consts::SQRT_2;
    let state = &mut body.body.state;
    let (low, high) = (margin, (side - margin).max(margin));
    for axis in 0..2 {
        let p = &mut state.pose.position[axis];
        let v = &mut state.linear_velocity[axis];
        if *p < low {
            *p = low;
            *v = v.abs() * 0.5;
        } else if *p > high {
            *p = high;
            *v = -v.abs() * 0.5;
        }
    }
}

#[cfg(test)]
mod tests {
    use water_buoyancy::{Gravity, Wrench};
    use water_core::FlatWater;

    use super::*;

    #[test]
    fn a_crate_settles_half_submerged_on_still_water() {
        let mut body = CrateTemplate::new()
            .and_then(|t| t.throw(Vec3::new(5.0, 5.0, 0.0), Vec3::ZERO, 0.3))
            .expect("crate");
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
    fn walls_turn_a_crate_back_into_the_pool() {
        let mut body = CrateTemplate::new()
            .and_then(|t| t.throw(Vec3::new(-1.0, 11.0, 0.0), Vec3::new(-1.0, 1.0, 0.0), 0.0))
            .expect("crate");
        keep_in_pool(&mut body, 10.0);
        let s = body.body.state;
        assert!(s.pose.position.x > 0.0 && s.pose.position.y < 10.0);
        assert!(s.linear_velocity.x > 0.0 && s.linear_velocity.y < 0.0);
    }
}
