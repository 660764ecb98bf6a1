//! A small rigid body for examples and tests: mass, inertia tensor, quaternion orientation,
//! semi-implicit Euler.
//!
//! The forces of this crate are plain [`Wrench`]es, so any physics engine can integrate them;
//! this body is the smallest integrator that lets boats bob without one.

use glam::{DMat3, DVec3, Mat3, Quat, Vec3};

use crate::damping::Damping;
use crate::error::{finite_vec, positive, BuoyancyError, Divergence, Result};
use crate::gravity::Gravity;
use crate::pose::Pose;
use crate::shape::Shape;
use crate::tow::Tow;
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

    /// Checks every component is finite, the orientation is a unit quaternion and no velocity
    /// component is past [`MAX_BODY_SPEED`] (nor spin component past [`MAX_BODY_SPIN`]).
    ///
    /// # Errors
    /// [`BuoyancyError::NotFinite`], [`BuoyancyError::NotUnitQuaternion`] or
    /// [`BuoyancyError::OutOfRange`] naming the velocity or spin component.
    pub fn validate(&self) -> Result<()> {
        self.pose.validate()?;
        finite_vec("linear velocity", self.linear_velocity)?;
        finite_vec("angular velocity", self.angular_velocity)?;
        within_component(
            "linear velocity component",
            self.linear_velocity,
            MAX_BODY_SPEED,
            "[-1e4, 1e4] m/s",
        )?;
        within_component(
            "angular velocity component",
            self.angular_velocity,
            MAX_BODY_SPIN,
            "[-1e4, 1e4] rad/s",
        )
    }
}

/// Largest |component| of a body's velocity, m/s: ten kilometres a second, past orbital speed
/// and far past anything that floats. Faster states are refused by [`BodyState::validate`]
/// (and so by [`RigidBody::new`] and a step of a body set so), and a step that would take a
/// body past it stops with [`crate::Divergence::TooFast`]: such a body leaves any grid within
/// a step and its motion stops being finite.
pub const MAX_BODY_SPEED: f32 = 1e4;

/// Largest |component| of a body's spin, rad/s (about 1,600 turns a second): refused by
/// [`BodyState::validate`], and a step that would pass it stops with
/// [`crate::Divergence::TooMuchSpin`] (at 60 steps a second such a spin already takes 167
/// substeps a step).
pub const MAX_BODY_SPIN: f32 = 1e4;

/// Each component of `v` within `[-limit, limit]`, or `OutOfRange` naming it.
fn within_component(name: &'static str, v: Vec3, limit: f32, range: &'static str) -> Result<()> {
    match v.to_array().into_iter().find(|c| c.abs() > limit) {
        Some(c) => Err(BuoyancyError::OutOfRange {
            name,
            value: f64::from(c),
            range,
        }),
        None => Ok(()),
    }
}

/// A rigid body: mass, inertia about the centre of mass in body axes, and its state.
#[derive(Debug, Clone, PartialEq)]
pub struct RigidBody {
    mass: f32,
    inertia: Mat3,
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
    /// [`BodyState::validate`]; [`BuoyancyError::OutOfRange`] for a velocity component past
    /// [`MAX_BODY_SPEED`] or a spin component past [`MAX_BODY_SPIN`].
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
    /// first (the world angular momentum changed by the torque alone), then the pose from the new
    /// velocities and the spin that carries that momentum in the turned body (the orientation
    /// turned by the exact rotation `omega dt`, so it stays a unit quaternion).
    ///
    /// Explicit: stable only while `dt` is well below the period of the forces' stiffness over
    /// the body's mass; [`crate::FloatingBody::step`] substeps and takes drag implicitly.
    ///
    /// # Errors
    /// [`BuoyancyError::NotPositive`] for a bad `dt`; [`BuoyancyError::Diverged`] for a
    /// non-finite wrench or a state that stops being finite or passes [`MAX_BODY_SPEED`] or
    /// [`MAX_BODY_SPIN`] (the state is left unchanged).
    pub fn integrate(&mut self, wrench: Wrench, gravity: &Gravity, dt: f32) -> Result<()> {
        positive("dt", dt)?;
        self.integrate_damped(wrench, &Damping::default(), None, gravity, dt)
            .map(|_| ())
            .map_err(|cause| BuoyancyError::Diverged {
                cause,
                substep: 1,
                substeps: 1,
            })
    }

    /// One step of `h` seconds with `applied` explicit and the drag `damping` implicit. The
    /// torque-free turning (Euler's `I dOmega/dt + Omega x I Omega = 0` in body axes) comes first,
    /// by the implicit midpoint rule ([`free_rotation`]); then
    /// `(M + h D) q1 = M q0' + h (F + m g, tau)` with `q0'` holding that turned spin; then the
    /// pose from `q1`, the body-axes spin carried into the turned body. With a `tow`, the
    /// velocities it holds are constraints of that solve ([`Damping::solve_constrained`]), with
    /// the seconds left to the step's end (a tow to a heading gets there by then).
    /// Returns the drag wrench `-D q1` that acted and the tow's reaction (zero without one).
    /// On error the state is unchanged.
    pub(crate) fn integrate_damped(
        &mut self,
        applied: Wrench,
        damping: &Damping,
        tow: Option<(&Tow, f32)>,
        gravity: &Gravity,
        h: f32,
    ) -> std::result::Result<(Wrench, Wrench), Divergence> {
        if !applied.force.is_finite() {
            return Err(Divergence::Force(applied.force));
        }
        if !applied.torque.is_finite() {
            return Err(Divergence::Torque(applied.torque));
        }
        let s = self.state;
        let r = axes(s.pose.orientation);
        let inertia = self.inertia.as_dmat3();
        let world_inertia = r * inertia * r.transpose();
        let v = s.linear_velocity.as_dvec3();
        let m = f64::from(self.mass);
        let hd = f64::from(h);
        let force = applied.force.as_dvec3() + gravity.at(s.pose.position).as_dvec3() * m;
        let momentum = v * m + force * hd;
        let turning = r * free_rotation(inertia, r.transpose() * s.angular_velocity.as_dvec3(), hd);
        let angular = world_inertia * turning + applied.torque.as_dvec3() * hd;
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
        let held = tow.map(|(t, time_left)| t.constraints(s.pose.orientation, time_left, h));
        let (q, reaction) = damping
            .solve_constrained(mass, hd, rhs, held.as_ref().map_or(&[], |c| &c[..]))
            .unwrap_or(([f64::NAN; 6], [0.0; 6]));
        let v1 = Vec3::new(q[0] as f32, q[1] as f32, q[2] as f32);
        let w1 = Vec3::new(q[3] as f32, q[4] as f32, q[5] as f32);
        if !v1.is_finite() {
            return Err(Divergence::LinearVelocity(v1));
        }
        if !w1.is_finite() {
            return Err(Divergence::AngularVelocity(w1));
        }
        // A body no constructor would take is stopped here, with its name and step in the
        // scene's error, rather than flung across the world (10 km a second) toward the void.
        if v1.abs().max_element() > MAX_BODY_SPEED {
            return Err(Divergence::TooFast(v1));
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
        let orientation = turned / length;
        // The spin is the body's: turning the body turns it along, so the body-axes spin (and
        // with it |L| and the energy the midpoint rule kept) stays what the step made it.
        let r1 = axes(orientation);
        let spin = (r1 * (r.transpose() * DVec3::new(q[3], q[4], q[5]))).as_vec3();
        if !spin.is_finite() {
            return Err(Divergence::AngularVelocity(spin));
        }
        // Past it a game's step would be cut into hundreds to thousands of substeps.
        if spin.abs().max_element() > MAX_BODY_SPIN {
            return Err(Divergence::TooMuchSpin(spin));
        }
        let drag = damping.apply(q);
        self.state = BodyState {
            pose: Pose {
                position,
                orientation,
            },
            linear_velocity: v1,
            angular_velocity: spin,
        };
        let as_wrench = |w: [f64; 6]| Wrench {
            force: Vec3::new(w[0] as f32, w[1] as f32, w[2] as f32),
            torque: Vec3::new(w[3] as f32, w[4] as f32, w[5] as f32),
        };
        let drag = as_wrench(drag);
        Ok((
            Wrench {
                force: -drag.force,
                torque: -drag.torque,
            },
            as_wrench(reaction),
        ))
    }
}

/// The rotation matrix of an orientation, from its quaternion normalised in f64. A unit f32
/// quaternion is unit only to about 1e-7, and a matrix from it scales by its squared length:
/// carrying the spin from one such matrix to the next every substep grew a tumbling box's
/// energy by 0.5% over 3,000 steps.
fn axes(orientation: Quat) -> DMat3 {
    DMat3::from_quat(orientation.as_dquat().normalize())
}

/// Newton iterations [`free_rotation`] may take; with `|Omega| h <= 1` (the substeps' bound) it
/// converges to f64 rounding in four to six.
const FREE_ROTATION_ITERATIONS: usize = 12;

/// Torque-free turning of a rigid body over `h` seconds: Euler's equations
/// `I dOmega/dt + Omega x I Omega = 0` for the spin `omega` in body axes (rad/s), by the implicit
/// midpoint rule `I (Omega_1 - Omega_0) + h Omega_m x I Omega_m = 0`, `Omega_m` the mean,
/// solved by Newton's method. The rule keeps both quadratic invariants, `|I Omega|` (angular
/// momentum) and `Omega . I Omega / 2` (energy), to rounding at any step, so a tumbling body's
/// spin can neither grow nor overflow; the explicit gyroscopic term it replaces grew the energy
/// every substep and once overflowed a tumbling box to NaN. NaN when Newton's method fails.
fn free_rotation(inertia: DMat3, omega: DVec3, h: f64) -> DVec3 {
    let skew = |a: DVec3| DMat3::from_cols_array(&[0.0, a.z, -a.y, -a.z, 0.0, a.x, a.y, -a.x, 0.0]);
    let mut next = omega;
    for _ in 0..FREE_ROTATION_ITERATIONS {
        let mid = (omega + next) * 0.5;
        let residual = inertia * (next - omega) + mid.cross(inertia * mid) * h;
        // d/dOmega_1 of the residual: I + h/2 ([Omega_m]x I - [I Omega_m]x).
        let jacobian = inertia + (skew(mid) * inertia - skew(inertia * mid)) * (h * 0.5);
        let delta = jacobian.inverse() * residual;
        if !delta.is_finite() {
            return DVec3::NAN;
        }
        next -= delta;
        if delta.length() <= 1e-14 * next.length() {
            break;
        }
    }
    next
}

/// The smallest eigenvalue of a symmetric 3 x 3 matrix (the trigonometric solution of the
/// characteristic cubic), in f64 for accuracy.
fn smallest_eigenvalue(m: Mat3) -> f32 {
    let a = m.as_dmat3();
    let off = a.x_axis.y.powi(2) + a.x_axis.z.powi(2) + a.y_axis.z.powi(2);
    let diag = DVec3::new(a.x_axis.x, a.y_axis.y, a.z_axis.z);
    if off == 0.0 {
        return diag.min_element() as f32;
    }
    let q = diag.element_sum() / 3.0;
    let p = (((diag - q).length_squared() + 2.0 * off) / 6.0).sqrt();
    let b = (a - DMat3::from_diagonal(DVec3::splat(q))) * (1.0 / p);
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
    if scale == 0.0 {
        return bad("zero".into());
    }
    // Definiteness does not depend on scale: the minors of the tensor over its largest entry,
    // so a light or small body's (entries near 1e-20 kg m^2, minors near 1e-60) do not
    // underflow f32 to 0.
    let n = m * (1.0 / scale);
    let m1 = n.x_axis.x;
    let m2 = n.x_axis.x * n.y_axis.y - n.x_axis.y * n.y_axis.x;
    let m3 = n.determinant();
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
    fn definiteness_does_not_depend_on_scale() {
        // Moments of 1e-20 kg m^2 have a determinant of 1e-60, which f32 holds as 0: taken as
        // they stand, the third minor was "not positive". Over the largest entry the minors
        // are those of a tensor near 1. An indefinite tensor stays refused at any scale.
        for scale in [1.0, 1e-10, 1e-20, 1e20] {
            let spd = Mat3::from_diagonal(Vec3::new(1.0, 2.0, 3.0)) * scale;
            assert!(check_inertia(spd).is_ok(), "{scale}");
            let indefinite = Mat3::from_diagonal(Vec3::new(1.0, -2.0, 3.0)) * scale;
            assert!(check_inertia(indefinite).is_err(), "{scale}");
        }
        assert!(check_inertia(Mat3::ZERO).is_err());
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
