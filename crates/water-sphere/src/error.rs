//! Typed errors of the sphere crate.

use thiserror::Error;

/// What can go wrong building or driving sphere water.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum SphereError {
    /// The subdivision level would make more vertices than supported.
    #[error(
        "an icosphere of {subdivisions} subdivisions has {number_of_resulting_points} vertices, \
         more than the limit of {limit}"
    )]
    TooManyVertices {
        /// Level asked for.
        subdivisions: u32,
        /// `10 * 4^level + 2`.
        number_of_resulting_points: u64,
        /// Largest supported vertex count.
        limit: u64,
    },
    /// A setting beyond the stability limit of the sphere operator.
    #[error(
        "unstable: {name} = {value} exceeds the largest stable {name}, {limit} \
         (from the spectral radius of the sphere operator)"
    )]
    Unstable {
        /// `"a"` (mean stepper) or `"dt"` (Laplace-Beltrami).
        name: &'static str,
        /// The value given.
        value: f64,
        /// The largest stable value.
        limit: f64,
    },
    /// Damping per second asked of the mean stepper, whose step has no duration.
    #[error("the mean stepper's step has no duration: give damping per step, not per second")]
    DampingPerSecond,
    /// A parameter is invalid (the grid crate's own checks).
    #[error(transparent)]
    Invalid(#[from] water_core::WaterError),
}
