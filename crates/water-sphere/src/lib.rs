//! # water-sphere
//!
//! Water on a planet: an icosphere whose vertices list their five or six neighbours in cyclic
//! order, counter-clockwise seen from outside, as the sphere steppers and their shaders read
//! them.
//!
//! Vertices are numbered along a Z-order curve of their positions (see [`Icosphere`]); every
//! per-vertex slice of the public API ([`SphereWater::heights`], the slot table, normals,
//! picks) is in that order. On the CPU, [`SphereWater`] steps its heights in the
//! [`SphereLayout::Rhombus`] layout by default ([`RhombusLayout`]: ten regular patches, a seven-point
//! stencil along rows, halos and twelve corner fix-ups), or vertex by vertex with gathers
//! ([`SphereLayout::Gather`], [`sphere_step`]); both give the same bits.

mod adjacency;
mod displaced_surface;
mod error;
mod height_source;
mod icosphere;
mod levels;
mod operator;
mod rhombus;
mod rhombus_step;
mod sphere_impulse;
mod sphere_layout;
mod sphere_step;
mod sphere_water;

pub use adjacency::{Adjacency, NO_NEIGHBOUR, SLOTS};
pub use displaced_surface::{
    displaced_positions, pick, rest_tilt, vertex_normals, vertex_normals_with,
};
pub use error::SphereError;
pub use icosphere::{
    vertex_count, Icosphere, ICOSAHEDRON_FACES, MAX_LEVEL, MAX_VERTICES, RADIUS_RANGE,
};
pub use operator::GraphOperator;
pub use rhombus::{RhombusLayout, DIRECTIONS, LEFT_PAD, RHOMBI};
pub use rhombus_step::{
    offsets, rhombus_row, rhombus_row_scalar, Corner, RhombusStencil, RowWeights, StencilWeights,
};
pub use sphere_impulse::SphereImpulse;
pub use sphere_layout::SphereLayout;
pub use sphere_step::{sphere_step, sphere_step_scalar, SlotTable};
pub use sphere_water::{
    keep_weighted_level, weighted_level_amounts, SphereStepper, SphereWater, POWER_ITERATIONS,
    SPECTRAL_MARGIN,
};
