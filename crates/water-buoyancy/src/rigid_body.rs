//! A small rigid body for examples and tests: mass, inertia tensor, quaternion orientation,
//! semi-implicit Euler.
//!
//! The forces of this crate are plain [`Wrench`]es, so any physics engine can integrate them;
//! this body is the smallest integrator that lets boats bob without one.

use glam::{Mat3, Quat, Vec3};

use crate::error::{finite, finite_vec, positive, BuoyancyError, Result};
use crate::gravity::Gravity;
use crate::pose::Pose;
use crate::shape::Shape;
use crate::wrench::Wrench;

/// Where a body is and how it moves: what force models read.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BodyState {
    /// Pose of the centre of mass.
    pub pose: Pose,
    /// Velocity of the centre of mass, m/s.
    pub linear_velocity: Vec3,
    /// Angular velocity, rad/s, world axes.
    pub angular_velocity: Vec3,
}

impl BodyState {
    /// A body at rest at `pose`.
    #[must_use]
    pub fn at_rest(pose: Pose) -> Self {
        Self {
            pose,
            ..Self::default()
        }
    }

    /// Velocity of the body's material point now at world position `point`, m/s.
    #[must_use]
    pub fn point_velocity(&self, point: Vec3) -> Vec3 {
        self.linear_velocity + self.angular_velocity.cross(point - self.pose.position)
    }

    /// Checks every component is finite and the orientation is a unit quaternion.
    ///
    /// # Errors
    /// [`BuoyancyError::NotFinite`] or [`BuoyancyError::NotUnitQuaternion`].
    pub fn validate(&self) -> Result<()> {
        self.pose.validate()?;
        finite_vec("linear velocity", self.linear_velocity)?;
        finite_vec("angular velocity", self.angular_velocity)?;
        Ok(())
    }
}

/// A rigid body: mass, inertia about the centre of mass in body axes, and its state.
#[derive(Debug, Clone, PartialEq)]
pub struct RigidBody {
    mass: f32,
    inertia: Mat3,
    inverse_inertia: Mat3,
    /// Pose and velocities.
    pub state: BodyState,
}

impl RigidBody {
    /// A body of `mass` kg with inertia tensor `inertia` (kg m^2, about the centre of mass, body
    /// axes).
    ///
    /// # Errors
    /// [`BuoyancyError::NotPositive`] for zero or negative mass; [`BuoyancyError::BadInertia`]
    /// for a tensor that is not symmetric positive definite; errors of
    /// [`BodyState::validate`].
    ///
    /// ```
    /// use glam::{Mat3, Vec3};
    /// use water_buoyancy::{BodyState, Pose, RigidBody};
    /// let body = RigidBody::new(2.0, Mat3::from_diagonal(Vec3::splat(0.1)), BodyState::default())?;
    /// assert!(RigidBody::new(0.0, Mat3::IDENTITY, BodyState::default()).is_err());
    /// # let _ = body;
    /// # Ok::<(), water_buoyancy::BuoyancyError>(())
    /// ```
    pub fn new(mass: f32, inertia: Mat3, state: BodyState) -> Result<Self> {
        positive("mass", mass)?;
        state.validate()?;
        check_inertia(inertia)?;
        Ok(Self {
            mass,
            inertia,
            inverse_inertia: inertia.inverse(),
            state,
        })
    }

    /// A uniform solid of `shape` and `mass`, its centre of mass at the shape's local origin.
    ///
    /// # Errors
    /// As [`RigidBody::new`].
    pub fn from_shape(shape: &Shape, mass: f32, state: BodyState) -> Result<Self> {
        positive("mass", mass)?;
        Self::new(mass, shape.inertia(mass), state)
    }

    /// Mass, kg.
    #[must_use]
    pub fn mass(&self) -> f32 {
        self.mass
    }

    /// Inertia about the centre of mass, body axes, kg m^2.
    #[must_use]
    pub fn inertia(&self) -> Mat3 {
        self.inertia
    }

    /// Inertia about the centre of mass in world axes, kg m^2.
    #[must_use]
    pub fn world_inertia(&self) -> Mat3 {
        let r = Mat3::from_quat(self.state.pose.orientation);
        r * self.inertia * r.transpose()
    }

    /// One semi-implicit Euler step of `dt` seconds under `wrench` and `gravity`: velocities
    /// first (with the gyroscopic term), then the pose from the new velocities.
    ///
    /// # Errors
    /// [`BuoyancyError::NotPositive`] for a bad `dt`; [`BuoyancyError::NotFinite`] for a
    /// non-finite wrench (the state is left unchanged).
    pub fn integrate(&mut self, wrench: Wrench, gravity: &Gravity, dt: f32) -> Result<()> {
        positive("dt", dt)?;
        finite_vec("force", wrench.force)?;
        finite_vec("torque", wrench.torque)?;
        let s = &mut self.state;
        s.linear_velocity += (wrench.force / self.mass + gravity.at(s.pose.position)) * dt;
        s.pose.position += s.linear_velocity * dt;
        let r = Mat3::from_quat(s.pose.orientation);
        let world_inertia = r * self.inertia * r.transpose();
        let world_inverse = r * self.inverse_inertia * r.transpose();
        let omega = s.angular_velocity;
        let gyroscopic = omega.cross(world_inertia * omega);
        s.angular_velocity += world_inverse * (wrench.torque - gyroscopic) * dt;
        let w = s.angular_velocity;
        let spin = Quat::from_xyzw(w.x, w.y, w.z, 0.0) * s.pose.orientation;
        s.pose.orientation = (s.pose.orientation + spin * (0.5 * dt)).normalize();
        for c in s.pose.position.to_array() {
            finite("position", c)?;
        }
        Ok(())
    }
}

/// Symmetric and positive definite (Sylvester: leading minors positive).
fn check_inertia(m: Mat3) -> Result<()> {
    let bad = |reason: String| Err(BuoyancyError::BadInertia { reason });
    if !m.is_finite() {
        return bad(format!("not finite: {m}"));
    }
    let scale = m.abs().to_cols_array().into_iter().fold(0.0_f32, f32::max);
    let asymmetry = (m - m.transpose())
        .abs()
        .to_cols_array()
        .into_iter()
        .fold(0.0_f32, f32::max);
    if asymmetry > 1e-5 * scale {
        return bad(format!("asymmetric by {asymmetry} kg m^2"));
    }
    let m1 = m.x_axis.x;
    let m2 = m.x_axis.x * m.y_axis.y - m.x_axis.y * m.y_axis.x;
    let m3 = m.determinant();
    for (name, minor) in [("first", m1), ("second", m2), ("third", m3)] {
        if minor <= 0.0 {
            return bad(format!("{name} leading minor {minor} is not positive"));
        }
    }
    Ok(())
}
