//! Typed errors of the sphere crate.

use thiserror::Error;

/// What can go wrong building or driving sphere water.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum SphereError {
    /// The subdivision level would make more vertices than supported.
    #[error(
        "icosphere level {subdivisions} is past the finest, {}: its 10 * 4^{subdivisions} + 2 \
         vertices{} pass the limit of {limit}",
        crate::MAX_LEVEL,
        vertex_count_text(*subdivisions)
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

/// The vertex count in brackets, exact where it fits in a u64, else to four digits; nothing
/// where even an f64 cannot hold it (level 512 and up).
fn vertex_count_text(level: u32) -> String {
    match 4u64.checked_pow(level).and_then(|p| p.checked_mul(10)) {
        Some(n) => format!(" ({})", n + 2),
        None => {
            let n = 10.0 * 4f64.powf(f64::from(level)) + 2.0;
            if n.is_finite() {
                format!(" ({})", water_core::readable(n))
            } else {
                String::new()
            }
        }
    }
}
