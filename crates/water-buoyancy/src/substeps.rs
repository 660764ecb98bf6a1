//! How finely a floating body's step must be cut to stay stable: a bound on the angular
//! frequency of its stiffest mode, from its hulls' geometry and its inertia alone (any pose,
//! any water), and the substep count that keeps `omega h <= 1`.
//!
//! The derivation is in `docs/math.md` section 10. In short: a hull's hydrostatic stiffness
//! about the centre of mass is the waterplane term `rho g integral a a^T dA` (`a = (u, r x u)`:
//! the heave and tilt a unit rise at `r` makes) plus the turning of the buoyancy's lever, at
//! most `2 rho g V L` in the rotation block. Against the mass matrix, the largest eigenvalue is
//! at most the trace:
//!
//! ```text
//! omega^2 <= rho g sum over hulls [ A_max (1/m + max_hull r^T Q r) + 2 V L tr(I^-1) ],
//! Q = tr(I^-1) 1 - I^-1
//! ```
//!
//! with `A_max` the largest plane section of the hull, `L` its farthest point from the centre
//! of mass. Probes are springs `k` at their offsets: `omega^2 <= k (1/m + max r^T Q r)`.

use glam::{Mat3, Vec3};

use crate::error::{BuoyancyError, Result};
use crate::floating_body::{BuoyancyModel, FloatingBody};
use crate::gravity::Gravity;
use crate::hull::Hull;
use crate::shape::Shape;

/// The most substeps one [`FloatingBody::step`] may take; a longer step is refused with
/// [`BuoyancyError::TimeStepTooLong`].
pub const MAX_SUBSTEPS: u32 = 10_000;

/// The largest `omega h` a substep may take. Semi-implicit Euler is stable for an undamped
/// spring up to 2; half of that leaves room for the stiffness changing within a substep (a hull
/// entering the water) and keeps the period within 5% (`2 asin(1/2) = 1.047`).
pub const MAX_PHASE_PER_SUBSTEP: f32 = 1.0;

impl FloatingBody {
    /// An upper bound of the angular frequency of the body's stiffest motion, rad/s: its
    /// hydrostatic heave, pitch and roll (or its probes' springs and their damping), and its
    /// current spin. Holds for any pose and any water on the body's side of `gravity`.
    #[must_use]
    pub fn frequency_bound(&self, gravity: &Gravity) -> f32 {
        let position = self.body.state.pose.position;
        let mass = self.body.mass();
        let inverse = self.body.inertia().inverse();
        let trace = inverse.x_axis.x + inverse.y_axis.y + inverse.z_axis.z;
        let q = Mat3::from_diagonal(Vec3::splat(trace)) - inverse;
        let spin = self.body.state.angular_velocity.length();
        let squared = match &self.model {
            BuoyancyModel::Archimedes(archimedes) => {
                let rho_g = archimedes.density() * gravity.magnitude_at(position);
                self.hulls
                    .iter()
                    .map(|hull| {
                        let (lever, reach) = hull_reach(hull, q, trace);
                        rho_g
                            * (largest_section(hull.shape()) * (1.0 / mass + lever)
                                + 2.0 * hull.shape().volume() * reach * trace)
                    })
                    .sum::<f32>()
            }
            BuoyancyModel::Probes { probes, .. } => {
                let lever = probes
                    .offsets()
                    .iter()
                    .map(|&r| r.dot(q * r))
                    .fold(0.0_f32, f32::max);
                let stiffness = probes.buoyancy() * (1.0 / mass + lever);
                // Their damping is explicit: `rate h <= 1` keeps it from overshooting, which is
                // `omega h <= 1` with omega = rate.
                let rate = stiffness * probes.drag();
                stiffness.max(rate * rate)
            }
        };
        squared.max(0.0).sqrt().max(spin)
    }

    /// Substeps [`FloatingBody::step`] takes for a step of `dt` seconds under `gravity`: the
    /// fewest that keep `omega h <=` [`MAX_PHASE_PER_SUBSTEP`] for the
    /// [`FloatingBody::frequency_bound`].
    ///
    /// # Errors
    /// [`BuoyancyError::NotPositive`] for a bad `dt`; [`BuoyancyError::TimeStepTooLong`] when
    /// that would be more than [`MAX_SUBSTEPS`].
    pub fn substeps(&self, dt: f32, gravity: &Gravity) -> Result<u32> {
        crate::error::positive("dt", dt)?;
        let omega = self.frequency_bound(gravity);
        let needed = (f64::from(dt) * f64::from(omega) / f64::from(MAX_PHASE_PER_SUBSTEP)).ceil();
        if needed.is_nan() || needed > f64::from(MAX_SUBSTEPS) {
            return Err(BuoyancyError::TimeStepTooLong {
                dt,
                period: std::f32::consts::TAU / omega,
                substeps: needed,
                max_substeps: MAX_SUBSTEPS,
                max_dt: MAX_SUBSTEPS as f32 * MAX_PHASE_PER_SUBSTEP / omega,
            });
        }
        Ok((needed as u32).max(1))
    }
}

/// For a hull (body frame): the largest `r^T Q r` over its points, and the distance of its
/// farthest point from the centre of mass, m. `r^T Q r` is convex in `r`, so over a polytope
/// its largest value is at a vertex; round parts add their radius along `Q`'s largest
/// eigenvalue, at most `tr(I^-1)`.
fn hull_reach(hull: &Hull, q: Mat3, trace: f32) -> (f32, f32) {
    let pose = hull.local_pose();
    let quad = |r: Vec3| r.dot(q * r).max(0.0);
    let over = |points: &mut dyn Iterator<Item = Vec3>, radius: f32| {
        let (mut lever, mut reach) = (0.0_f32, 0.0_f32);
        for r in points {
            lever = lever.max(quad(r).sqrt());
            reach = reach.max(r.length());
        }
        ((lever + radius * trace.sqrt()).powi(2), reach + radius)
    };
    match hull.shape() {
        Shape::Cuboid { half_extents: h } => over(
            &mut (0..8).map(|k| {
                let s = Vec3::new(
                    if k & 1 == 0 { -1.0 } else { 1.0 },
                    if k & 2 == 0 { -1.0 } else { 1.0 },
                    if k & 4 == 0 { -1.0 } else { 1.0 },
                );
                pose.transform_point(*h * s)
            }),
            0.0,
        ),
        Shape::Sphere { radius } => over(&mut std::iter::once(pose.position), *radius),
        Shape::Capsule {
            radius,
            half_length,
        } => over(
            &mut [-1.0, 1.0]
                .into_iter()
                .map(|s| pose.transform_point(Vec3::Z * (s * half_length))),
            *radius,
        ),
        Shape::ConvexMesh(mesh) => over(
            &mut mesh.vertices().iter().map(|&v| pose.transform_point(v)),
            0.0,
        ),
    }
}

/// An upper bound of the area of any plane section of `shape`, m^2: a section lies inside the
/// shape's shadow on its plane, and a convex body's shadow along `n` is
/// `1/2 integral |n . n_s| dS` (Cauchy), at most half its surface. For a box of sides `a, b, c`
/// the shadow is `|n . (bc, ca, ab)|`, at most `|(bc, ca, ab)|`; for a capsule `pi r^2` plus its
/// cylinder's side view.
fn largest_section(shape: &Shape) -> f32 {
    match shape {
        Shape::Cuboid { half_extents: h } => {
            4.0 * Vec3::new(h.y * h.z, h.z * h.x, h.x * h.y).length()
        }
        Shape::Sphere { radius } => std::f32::consts::PI * radius * radius,
        Shape::Capsule {
            radius,
            half_length,
        } => std::f32::consts::PI * radius * radius + 4.0 * radius * half_length,
        Shape::ConvexMesh(mesh) => {
            let v = mesh.vertices();
            0.5 * mesh
                .triangles()
                .iter()
                .map(|t| {
                    let [a, b, c] = t.map(|i| v[i as usize]);
                    0.5 * (b - a).cross(c - a).length()
                })
                .sum::<f32>()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Archimedes, BodyState, Pose, RigidBody};

    fn crate_body(half: Vec3, mass: f32) -> FloatingBody {
        let shape = Shape::cuboid(half).unwrap();
        FloatingBody {
            body: RigidBody::from_shape(&shape, mass, BodyState::default()).unwrap(),
            hulls: vec![Hull::new(shape, Pose::IDENTITY).unwrap()],
            model: BuoyancyModel::Archimedes(Archimedes::new(1000.0).unwrap()),
        }
    }

    #[test]
    fn the_bound_is_above_the_heave_frequency_but_near_it() {
        // Heave of a 250 kg 1 m x 1 m box: sqrt(rho g A / m) = 6.26 rad/s. Its pitch is
        // slower. The bound must not be below, and should not be far above (or a 60 Hz step
        // would need several substeps).
        let body = crate_body(Vec3::new(0.5, 0.5, 0.25), 250.0);
        let heave = (1000.0 * crate::STANDARD_GRAVITY * 1.0 / 250.0_f32).sqrt();
        let bound = body.frequency_bound(&Gravity::EARTH);
        assert!(bound >= heave && bound < 8.0 * heave, "{bound} vs {heave}");
        assert_eq!(body.substeps(1.0 / 60.0, &Gravity::EARTH).unwrap(), 1);
    }

    #[test]
    fn a_step_past_the_limit_is_refused_with_the_period() {
        let body = crate_body(Vec3::new(0.5, 0.5, 0.25), 250.0);
        let bound = body.frequency_bound(&Gravity::EARTH);
        let too_long = 2.0 * MAX_SUBSTEPS as f32 / bound;
        match body.substeps(too_long, &Gravity::EARTH) {
            Err(BuoyancyError::TimeStepTooLong { period, max_dt, .. }) => {
                assert!((period - std::f32::consts::TAU / bound).abs() < 1e-4 * period);
                assert!((max_dt - too_long / 2.0).abs() < 1e-3 * max_dt);
            }
            other => panic!("expected a refusal, got {other:?}"),
        }
        let just = 0.99 * MAX_SUBSTEPS as f32 / bound;
        assert!(body.substeps(just, &Gravity::EARTH).unwrap() <= MAX_SUBSTEPS);
    }

    #[test]
    fn largest_section_holds_the_diagonal_rectangle_of_a_cube() {
        // The unit cube's largest section is the diagonal rectangle, sqrt 2 m^2.
        let cube = Shape::cuboid(Vec3::splat(0.5)).unwrap();
        let bound = largest_section(&cube);
        assert!(
            (2.0_f32.sqrt()..=3.0_f32.sqrt() + 1e-6).contains(&bound),
            "{bound}"
        );
    }
}
