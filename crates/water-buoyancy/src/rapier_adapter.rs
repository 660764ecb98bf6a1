//! Water forces on rapier3d rigid bodies (feature `rapier`).
//!
//! rapier integrates; this crate says what the water does. Read a body's state with
//! [`body_state`], compute a [`Wrench`] with [`crate::Archimedes`] or [`crate::Probes`], and add
//! it with [`set_wrench`] before the physics step. The state's pose is the body's world centre
//! of mass (which rapier computes from its colliders) with the body's rotation, so hulls and
//! probes are placed relative to the centre of mass, as everywhere in this crate.
//!
//! rapier's vectors are glam types of its own glam version; they cross over as arrays, so the
//! two glam versions need not match.

use glam::{Quat, Vec3};
use rapier3d::math::Vector;
use rapier3d::prelude::RigidBody;

use crate::pose::Pose;
use crate::rigid_body::BodyState;
use crate::wrench::Wrench;

/// The state of a rapier body as this crate's force models read it.
#[must_use]
pub fn body_state(body: &RigidBody) -> BodyState {
    BodyState {
        pose: Pose {
            position: Vec3::from_array(body.center_of_mass().to_array()),
            orientation: Quat::from_array(body.rotation().to_array()),
        },
        linear_velocity: Vec3::from_array(body.linvel().to_array()),
        angular_velocity: Vec3::from_array(body.angvel().to_array()),
    }
}

/// Makes `wrench` (force through the centre of mass, torque about it) the user force and torque
/// rapier applies from its next step on, waking the body.
///
/// rapier keeps added forces until they are reset, so this resets the body's user forces and
/// torques first: call it once per step with the water's new wrench (add other forces after
/// it).
pub fn set_wrench(body: &mut RigidBody, wrench: Wrench) {
    body.reset_forces(false);
    body.reset_torques(false);
    body.add_force(Vector::from_array(wrench.force.to_array()), true);
    body.add_torque(Vector::from_array(wrench.torque.to_array()), true);
}
