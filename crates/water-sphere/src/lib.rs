//! # water-sphere
//!
//! Water on a planet: an icosphere whose vertices list their five or six neighbours in cyclic
//! order, counter-clockwise seen from outside, as the sphere steppers and their shaders read
//! them.

pub mod adjacency;
pub mod error;
pub mod height_source;
pub mod icosphere;
pub mod operator;
pub mod sphere_step;
pub mod sphere_water;
pub mod surface;

pub use adjacency::Adjacency;
pub use error::SphereError;
pub use icosphere::Icosphere;
pub use operator::GraphOperator;
pub use sphere_water::{SphereStepper, SphereWater};
pub use surface::Click;
