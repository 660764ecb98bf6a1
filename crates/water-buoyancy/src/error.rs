//! Typed errors of the buoyancy crate.

use thiserror::Error;

/// What can go wrong describing or moving a floating body.
///
/// Every variant names the offending value, so the message alone says what to change.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum BuoyancyError {
    /// A number was NaN or infinite.
    #[error("{name} must be a finite number, got {value}")]
    NotFinite {
        /// Which parameter.
        name: &'static str,
        /// The value given.
        value: f64,
    },
    /// A number that must be strictly positive was zero or negative.
    #[error("{name} must be greater than 0, got {value}")]
    NotPositive {
        /// Which parameter.
        name: &'static str,
        /// The value given.
        value: f64,
    },
    /// A number that must not be negative was.
    #[error("{name} must be 0 or more, got {value}")]
    Negative {
        /// Which parameter.
        name: &'static str,
        /// The value given.
        value: f64,
    },
    /// A number outside its allowed range.
    #[error("{name} = {value} is outside the allowed range {range}")]
    OutOfRange {
        /// Which parameter.
        name: &'static str,
        /// The value given.
        value: f64,
        /// The allowed range, as an interval.
        range: &'static str,
    },
    /// An orientation quaternion far from unit length (or zero).
    #[error("orientation quaternion has length {length}; it must be within 1e-3 of 1")]
    NotUnitQuaternion {
        /// Its length.
        length: f32,
    },
    /// A triangle mesh that does not bound a convex solid.
    #[error("degenerate hull mesh: {reason}")]
    DegenerateMesh {
        /// What is wrong, with the triangle or vertex concerned.
        reason: String,
    },
    /// An inertia tensor that is not symmetric positive definite.
    #[error("inertia tensor is not symmetric positive definite ({reason})")]
    BadInertia {
        /// Which check failed, with the value.
        reason: String,
    },
    /// A per-cell or per-vertex buffer of the wrong length.
    #[error("{what} has {actual} values but the water has {expected}")]
    SizeMismatch {
        /// Which buffer.
        what: &'static str,
        /// Values needed.
        expected: usize,
        /// Values given.
        actual: usize,
    },
    /// An error from the water itself.
    #[error(transparent)]
    Water(#[from] water_core::WaterError),
}

/// Shorthand for results in this crate.
pub type Result<T> = std::result::Result<T, BuoyancyError>;

/// `value`, if finite.
pub(crate) fn finite(name: &'static str, value: f32) -> Result<f32> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(BuoyancyError::NotFinite {
            name,
            value: f64::from(value),
        })
    }
}

/// `value`, if finite and greater than zero.
pub(crate) fn positive(name: &'static str, value: f32) -> Result<f32> {
    if finite(name, value)? > 0.0 {
        Ok(value)
    } else {
        Err(BuoyancyError::NotPositive {
            name,
            value: f64::from(value),
        })
    }
}

/// `value`, if finite and not negative.
pub(crate) fn non_negative(name: &'static str, value: f32) -> Result<f32> {
    if finite(name, value)? >= 0.0 {
        Ok(value)
    } else {
        Err(BuoyancyError::Negative {
            name,
            value: f64::from(value),
        })
    }
}

/// Every component of `v`, if finite.
pub(crate) fn finite_vec(name: &'static str, v: glam::Vec3) -> Result<glam::Vec3> {
    for c in v.to_array() {
        finite(name, c)?;
    }
    Ok(v)
}
