//! # water-buoyancy
//!
//! Bodies that float on Dynamic Water, and make waves back.
//!
//! * Water is anything that implements [`water_core::HeightSource`]: a CPU grid's
//!   [`water_core::HeightView`], a GPU readback snapshot, sphere water, or
//!   [`water_core::FlatWater`].
//! * Two buoyancy models: the demo's [`Probes`] (a damped spring per probe under water) and
//!   [`Archimedes`] (`rho g V_sub` at the centre of buoyancy, with linear, quadratic and angular
//!   drag), the submerged volume of a [`Hull`] ([`Shape`]: box, sphere, capsule, convex mesh)
//!   integrated over its wet surface under the sampled water (see [`Hull::submerged`]).
//! * Forces come out as a [`Wrench`] about the centre of mass for a [`BodyState`] (a glam
//!   [`Pose`] and velocities), so any integrator can use them; [`RigidBody`] is a small
//!   semi-implicit Euler one, [`FloatingBody`] ties a body to its hulls and model and steps it
//!   in substeps with implicit drag, so it stays bounded at any time step it accepts.
//! * [`DragRates`] are drag per unit mass ([`DragRates::DEFAULT`] for most bodies);
//!   [`FloatingBody::archimedes`] builds a body with them.
//! * [`Gravity`] is uniform over a flat sea or radial on a planet.
//! * [`rasterise_grid_mask`] and [`rasterise_sphere_mask`] turn a body's cut through the water
//!   into contact masks, whose bow and stern events make its wake.
//!
//! ```
//! use glam::Vec3;
//! use water_buoyancy::{Archimedes, BodyState, BuoyancyModel, FloatingBody, Gravity, Hull, Pose, RigidBody, Shape, Wrench};
//! use water_core::FlatWater;
//!
//! // A 1 m x 1 m x 0.5 m crate of 200 kg dropped on a lake.
//! let shape = Shape::cuboid(Vec3::new(0.5, 0.5, 0.25))?;
//! let state = BodyState::at_rest(Pose::from_position(Vec3::new(0.0, 0.0, 0.3))?);
//! let mut crate_ = FloatingBody {
//!     body: RigidBody::from_shape(&shape, 200.0, state)?,
//!     hulls: vec![Hull::new(shape, Pose::IDENTITY)?],
//!     model: BuoyancyModel::Archimedes(Archimedes::new(1000.0)?.with_drag(3000.0, 0.0, 50.0)?),
//! };
//! for _ in 0..3000 {
//!     crate_.step(&FlatWater::default(), &Gravity::EARTH, 0.002, Wrench::ZERO)?;
//! }
//! // It floats 200 kg / (1000 kg/m^3 * 1 m^2) = 0.2 m deep: its bottom at -0.2 m, its centre at
//! // 0.25 - 0.2 = 0.05 m above the surface.
//! assert!((crate_.body.state.pose.position.z - 0.05).abs() < 1e-3);
//! # Ok::<(), water_buoyancy::BuoyancyError>(())
//! ```

mod archimedes;
mod convex_mesh;
mod damping;
mod drag_rates;
mod error;
mod floating_body;
mod gravity;
mod hull;
mod pose;
mod probe;
#[cfg(feature = "rapier")]
pub mod rapier_adapter;
mod rasterise_mask;
mod rigid_body;
mod shape;
mod still_water;
mod substeps;
mod tessellation;
mod tow;
mod wrench;

pub use archimedes::{
    box_draft, box_heave_period, spherical_cap_volume, Archimedes, HullForce, FRESH_WATER_DENSITY,
};
pub use convex_mesh::ConvexMesh;
pub use drag_rates::{DragRates, MAX_DRAG_RATE};
pub use error::{BuoyancyError, Divergence, Result};
pub use floating_body::{BodyStep, BuoyancyModel, FloatingBody};
pub use gravity::{Gravity, STANDARD_GRAVITY};
pub use hull::{Hull, Submersion, DEFAULT_EDGE_FRACTION};
pub use pose::Pose;
pub use probe::{ProbeVelocity, Probes};
pub use rasterise_mask::{
    rasterise_grid_mask, rasterise_sphere_mask, waterplane_fractions, SphereContacts,
};
pub use rigid_body::{BodyState, RigidBody, MAX_BODY_SPEED, MAX_BODY_SPIN};
pub use shape::{Shape, MAX_SHAPE_LENGTH};
pub use still_water::StillWaterOutside;
pub use substeps::{MAX_PHASE_PER_SUBSTEP, MAX_SUBSTEPS};
pub use tessellation::{SurfaceMesh, MAX_TRIANGLES};
pub use tow::{Tow, MAX_TOW_TURN_RATE};
pub use wrench::Wrench;
