//! A small rigid body for examples and tests: mass, inertia tensor, quaternion orientation,
//! semi-implicit Euler.
//!
//! The forces of this crate are plain [`Wrench`]es, so any physics engine can integrate them;
//! this body is the smallest integrator that lets boats bob without one.

use glam::{Mat3, Quat, Vec3};

use crate::damping::Damping;
use crate::error::{finite_vec, positive, BuoyancyError, Divergence, Result};
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

    /// The smallest eigenvalue of the inertia tensor, kg m^2: the moment about the axis it is
    /// easiest to spin.
    #[must_use]
    pub fn smallest_principal_moment(&self) -> f32 {
        smallest_eigenvalue(self.inertia)
    }

    /// One semi-implicit Euler step of `dt` seconds under `wrench` and `gravity`: velocities
    /// first (with the gyroscopic term), then the pose from the new velocities (the orientation
    /// turned by the exact rotation `omega dt`, so it stays a unit quaternion).
    ///
    /// Explicit: stable only while `dt` is well below the period of the forces' stiffness over
    /// the body's mass; [`crate::FloatingBody::step`] substeps and takes drag implicitly.
    ///
    /// # Errors
    /// [`BuoyancyError::NotPositive`] for a bad `dt`; [`BuoyancyError::Diverged`] for a
    /// non-finite wrench (the state is left unchanged) or a state that stops being finite.
    pub fn integrate(&mut self, wrench: Wrench, gravity: &Gravity, dt: f32) -> Result<()> {
        positive("dt", dt)?;
        self.integrate_damped(wrench, &Damping::default(), gravity, dt)
            .map(|_| ())
            .map_err(|cause| BuoyancyError::Diverged {
                cause,
                substep: 1,
                substeps: 1,
            })
    }

    /// One step of `h` seconds with `applied` explicit and the drag `damping` implicit:
    /// `(M + h D) q1 = M q0 + h (F + m g, tau - omega x I omega)`, then the pose from `q1`.
    /// Returns the drag wrench `-D q1` that acted. On error the state is unchanged.
    pub(crate) fn integrate_damped(
        &mut self,
        applied: Wrench,
        damping: &Damping,
        gravity: &Gravity,
        h: f32,
    ) -> std::result::Result<Wrench, Divergence> {
        if !applied.force.is_finite() {
            return Err(Divergence::Force(applied.force));
        }
        if !applied.torque.is_finite() {
            return Err(Divergence::Torque(applied.torque));
        }
        let s = self.state;
        let r = Mat3::from_quat(s.pose.orientation).as_dmat3();
        let world_inertia = r * self.inertia.as_dmat3() * r.transpose();
        let (v, w) = (s.linear_velocity.as_dvec3(), s.angular_velocity.as_dvec3());
        let m = f64::from(self.mass);
        let hd = f64::from(h);
        let gyroscopic = w.cross(world_inertia * w);
        let force = applied.force.as_dvec3() + gravity.at(s.pose.position).as_dvec3() * m;
        let momentum = v * m + force * hd;
        let angular = world_inertia * w + (applied.torque.as_dvec3() - gyroscopic) * hd;
        let mut mass = [[0.0; 6]; 6];
        for i in 0..3 {
            mass[i][i] = m;
            for j in 0..3 {
                mass[3 + i][3 + j] = world_inertia.col(j)[i];
            }
        }
        let rhs = [
            momentum.x, momentum.y, momentum.z, angular.x, angular.y, angular.z,
        ];
        let q = damping.solve(mass, hd, rhs).unwrap_or([f64::NAN; 6]);
        let v1 = Vec3::new(q[0] as f32, q[1] as f32, q[2] as f32);
        let w1 = Vec3::new(q[3] as f32, q[4] as f32, q[5] as f32);
        if !v1.is_finite() {
            return Err(Divergence::LinearVelocity(v1));
        }
        if !w1.is_finite() {
            return Err(Divergence::AngularVelocity(w1));
        }
        let position = s.pose.position + v1 * h;
        if !position.is_finite() {
            return Err(Divergence::Position(position));
        }
        // The exact rotation by omega h keeps the quaternion unit length at any spin; adding
        // `0.5 h omega q` and normalising does not (it collapses once the sum overflows).
        let turned = Quat::from_scaled_axis(w1 * h) * s.pose.orientation;
        let length = turned.length();
        if !length.is_finite() || (length - 1.0).abs() > 1e-3 {
            return Err(Divergence::Orientation(turned));
        }
        let drag = damping.apply(q);
        self.state = BodyState {
            pose: Pose {
                position,
                orientation: turned / length,
            },
            linear_velocity: v1,
            angular_velocity: w1,
        };
        Ok(Wrench {
            force: -Vec3::new(drag[0] as f32, drag[1] as f32, drag[2] as f32),
            torque: -Vec3::new(drag[3] as f32, drag[4] as f32, drag[5] as f32),
        })
    }
}

/// The smallest eigenvalue of a symmetric 3 x 3 matrix (the trigonometric solution of the
/// characteristic cubic), in f64 for accuracy.
fn smallest_eigenvalue(m: Mat3) -> f32 {
    let a = m.as_dmat3();
    let off = a.x_axis.y.powi(2) + a.x_axis.z.powi(2) + a.y_axis.z.powi(2);
    let diag = glam::DVec3::new(a.x_axis.x, a.y_axis.y, a.z_axis.z);
    if off == 0.0 {
        return diag.min_element() as f32;
    }
    let q = diag.element_sum() / 3.0;
    let p = (((diag - q).length_squared() + 2.0 * off) / 6.0).sqrt();
    let b = (a - glam::DMat3::from_diagonal(glam::DVec3::splat(q))) * (1.0 / p);
    let phi = (b.determinant() / 2.0).clamp(-1.0, 1.0).acos() / 3.0;
    (q + 2.0 * p * (phi + 2.0 * std::f64::consts::FRAC_PI_3).cos()) as f32
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smallest_principal_moment_survives_rotation() {
        // diag(1, 2, 5) turned about an oblique axis: the same eigenvalues, 1 the smallest.
        let r = Mat3::from_quat(Quat::from_axis_angle(
            Vec3::new(1.0, 2.0, 3.0).normalize(),
            0.7,
        ));
        let inertia = r * Mat3::from_diagonal(Vec3::new(1.0, 2.0, 5.0)) * r.transpose();
        let body = RigidBody::new(1.0, inertia, BodyState::default()).unwrap();
        assert!((body.smallest_principal_moment() - 1.0).abs() < 1e-5);
    }

    #[test]
    fn a_spin_turns_by_exactly_omega_dt() {
        // 2.5 rad/s about z for 1 s turns x to (cos 2.5, sin 2.5, 0). Adding 0.5 h omega q and
        // normalising would turn it by 2 atan(1.25) = 1.79 rad.
        let state = BodyState {
            angular_velocity: Vec3::new(0.0, 0.0, 2.5),
            ..BodyState::default()
        };
        let mut body = RigidBody::new(1.0, Mat3::IDENTITY, state).unwrap();
        body.integrate(Wrench::ZERO, &Gravity::Uniform(Vec3::Z * -1.0), 1.0)
            .unwrap();
        let q = body.state.pose.orientation;
        assert!((q.length() - 1.0).abs() < 1e-6);
        let x = q * Vec3::X;
        assert!(
            x.distance(Vec3::new(2.5_f32.cos(), 2.5_f32.sin(), 0.0)) < 1e-5,
            "{x}"
        );
    }
}
