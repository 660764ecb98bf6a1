//! # water-sphere
//!
//! Water on a planet: an icosphere whose vertices list their five or six neighbours in cyclic
//! order, counter-clockwise seen from outside, as the sphere steppers and their shaders read
//! them.
//!
//! Vertices are numbered along a Z-order curve of their positions (see [`Icosphere`]); every
//! per-vertex slice of the public API ([`SphereWater::heights`], the slot table, normals,
//! picks) is in that order. On the CPU, [`SphereWater`] steps its heights in the
//! [`SphereLayout::Rhombus`] layout by default ([`rhombus`]: ten regular patches, a seven-point
//! stencil along rows, halos and twelve corner fix-ups), or vertex by vertex with gathers
//! ([`SphereLayout::Gather`], [`sphere_step`]); both give the same bits.

pub mod adjacency;
pub mod error;
pub mod height_source;
pub mod icosphere;
mod levels;
pub mod operator;
pub mod rhombus;
pub mod rhombus_step;
pub mod sphere_step;
pub mod sphere_water;
pub mod surface;

pub use adjacency::Adjacency;
pub use error::SphereError;
pub use icosphere::Icosphere;
pub use levels::SphereLayout;
pub use operator::GraphOperator;
pub use rhombus::RhombusLayout;
pub use sphere_water::{SphereStepper, SphereWater};
pub use surface::Click;
