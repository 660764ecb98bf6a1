//! Typed errors of the buoyancy crate.

use thiserror::Error;

/// What can go wrong describing or moving a floating body.
///
/// Every variant names the offending value, so the message alone says what to change.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum BuoyancyError {
    /// A number was NaN or infinite.
    #[error("{name} must be a finite number, got {}", water_core::readable_exact(*.value))]
    NotFinite {
        /// Which parameter (as the scenario key or the argument names it).
        name: &'static str,
        /// What was given.
        value: f64,
    },
    /// A number that must be strictly positive was zero or negative.
    #[error("{name} must be greater than 0, got {}", water_core::readable_exact(*.value))]
    NotPositive {
        /// Which parameter (as the scenario key or the argument names it).
        name: &'static str,
        /// What was given.
        value: f64,
    },
    /// A number that must not be negative was.
    #[error("{name} must be 0 or more, got {}", water_core::readable_exact(*.value))]
    Negative {
        /// Which parameter.
        name: &'static str,
        /// The value given.
        value: f64,
    },
    /// A number outside its allowed range.
    #[error("{name} = {} is outside the allowed range {range}", water_core::readable_exact(*.value))]
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
    /// A floating body's motion stopped being finite, or outran the speed or spin a body may
    /// have: what went wrong first, with its value.
    /// A scene wraps it with the body's name and the step.
    #[error("{cause} in substep {substep} of {substeps}")]
    Diverged {
        /// What stopped being finite or outran [`crate::MAX_BODY_SPEED`] or
        /// [`crate::MAX_BODY_SPIN`], and its value.
        cause: Divergence,
        /// The substep it happened in, from 1.
        substep: u32,
        /// Substeps the step was split into.
        substeps: u32,
    },
    /// A time step so long against the body's fastest natural motion that it would take more
    /// than [`crate::MAX_SUBSTEPS`] substeps to integrate stably.
    #[error(
        "time step {dt} s is too long for this body: its fastest natural period is {} s, \
         which needs {substeps} substeps (at most {max_substeps}); use dt <= {} s",
        water_core::readable(f64::from(*period)),
        water_core::readable_at_most(f64::from(*max_dt))
    )]
    TimeStepTooLong {
        /// The step asked for, s.
        dt: f32,
        /// Period of the body's fastest mode (its bound, see `docs/math.md` section 10), s.
        period: f32,
        /// Substeps that step would need.
        substeps: f64,
        /// The most substeps allowed.
        max_substeps: u32,
        /// The longest step allowed, s.
        max_dt: f32,
    },
    /// An error from the water itself.
    #[error(transparent)]
    Water(#[from] water_core::WaterError),
}

/// What stopped being finite, or outran the speed or spin a body may have, while a body moved,
/// with the offending value (world axes).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Divergence {
    /// The force on the body, N.
    Force(glam::Vec3),
    /// The torque about its centre of mass, N m.
    Torque(glam::Vec3),
    /// Its velocity, m/s.
    LinearVelocity(glam::Vec3),
    /// Its angular velocity, rad/s.
    AngularVelocity(glam::Vec3),
    /// Its centre of mass, m.
    Position(glam::Vec3),
    /// Its orientation (x, y, z, w), which should stay a unit quaternion.
    Orientation(glam::Quat),
    /// Its velocity, m/s, with a component past [`crate::MAX_BODY_SPEED`]: a state
    /// [`crate::RigidBody::new`] refuses, which would leave any grid within a step.
    TooFast(glam::Vec3),
    /// Its angular velocity, rad/s, with a component past [`crate::MAX_BODY_SPIN`]: each step
    /// would take more substeps than a game's frame has time for.
    TooMuchSpin(glam::Vec3),
}

impl std::fmt::Display for Divergence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Force(v) => write!(f, "force became non-finite: {v} N"),
            Self::Torque(v) => write!(f, "torque became non-finite: {v} N m"),
            Self::LinearVelocity(v) => write!(f, "velocity became non-finite: {v} m/s"),
            Self::AngularVelocity(v) => {
                write!(f, "angular velocity became non-finite: {v} rad/s")
            }
            Self::Position(v) => write!(f, "position became non-finite: {v} m"),
            Self::Orientation(q) => write!(
                f,
                "orientation became degenerate: quaternion {q} of length {}",
                q.length()
            ),
            Self::TooFast(v) => write!(
                f,
                "velocity ({}, {}, {}) m/s passed the body speed limit, {:e} m/s in a \
                 component (MAX_BODY_SPEED): pushed, towed or fallen too fast for its mass and \
                 drag",
                water_core::readable(f64::from(v.x)),
                water_core::readable(f64::from(v.y)),
                water_core::readable(f64::from(v.z)),
                crate::MAX_BODY_SPEED
            ),
            Self::TooMuchSpin(w) => write!(
                f,
                "angular velocity ({}, {}, {}) rad/s passed the body spin limit, {:e} rad/s in a \
                 component (MAX_BODY_SPIN): turned by a torque or drag too strong for its inertia",
                water_core::readable(f64::from(w.x)),
                water_core::readable(f64::from(w.y)),
                water_core::readable(f64::from(w.z)),
                crate::MAX_BODY_SPIN
            ),
        }
    }
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
