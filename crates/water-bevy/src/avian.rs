//! Feature `avian`: floating bodies that avian3d moves. A [`Floating`] entity that is also an
//! avian `RigidBody` is integrated by avian, not by the water: its body in the scene is
//! kinematic (`water_scene::Scene::set_kinematic`). Each fixed tick, before the water steps,
//! the plugin puts it where avian has it (so its wake follows); the water's step measures the
//! water's force and torque on its hull there (buoyancy and water drag, once, from the water
//! the step reads); after the step the plugin hands them to avian with `Forces`, which applies
//! them in avian's next step (`FixedPostUpdate`, after the water's `FixedUpdate`). A tick that
//! runs no water step (the water's step is longer than the tick) measures them on the current
//! water instead, all bodies at once, so avian never gets a stale force.
//!
//! A [`crate::FloatingForce`] on such a body is applied through avian with the water's force,
//! and [`crate::FloatingMotion`] is filled from avian's velocities each tick, as for the
//! bodies the water integrates.
//!
//! The avian this crate was built against is re-exported as `water_bevy::avian3d`: use it, and
//! its version and features match by construction.
//!
//! The hull is placed about the avian body's origin, as [`Floating`] describes it: give the
//! body a collider centred there, and an avian mass equal to [`Floating::mass`] (the water's
//! drag rates are scaled by it). avian applies gravity itself.

use avian3d::prelude::{
    Collider, Forces, Mass, ReadRigidBodyForces, RigidBody, WriteRigidBodyForces,
};
use bevy::prelude::*;
use water_scene::water_buoyancy::{BodyState, Pose};

use crate::error::WaterBevyError;
use crate::floating::{Floating, FloatingForce, FloatingHull, FloatingMotion, IntegratedElsewhere};
use crate::plugin::WaterSystems;
use crate::simulation::{OnWater, WaterSimulation};

impl Floating {
    /// A floating avian rigid body from this one description: the [`Floating`] itself, a
    /// dynamic `RigidBody`, a `Collider` of the same solid (box, ball, capsule along y, or the
    /// convex hull of the mesh's vertices) and a `Mass` equal to [`Floating::mass`], so size and
    /// mass are written once. Spawn it with a `Transform` (and a `LinearVelocity` to throw it).
    ///
    /// ```
    /// use bevy::prelude::*;
    /// use water_bevy::avian3d::prelude::{Collider, Mass};
    /// use water_bevy::Floating;
    /// let (floating, _body, collider, mass) =
    ///     Floating::cuboid(Vec3::new(0.3, 0.15, 0.3), 40.0).avian_body()?;
    /// assert_eq!(mass.0, floating.mass);
    /// let half = collider.shape().as_cuboid().expect("a box").half_extents;
    /// assert_eq!((half.x, half.y, half.z), (0.3, 0.15, 0.3));
    /// # Ok::<(), water_bevy::WaterBevyError>(())
    /// ```
    ///
    /// # Errors
    /// [`crate::WaterBevyError::Mesh`] for a mesh hull whose vertices span no volume.
    pub fn avian_body(self) -> Result<(Self, RigidBody, Collider, Mass), WaterBevyError> {
        let collider = match &self.hull {
            FloatingHull::Cuboid { half_extents } => {
                let full = *half_extents * 2.0;
                Collider::cuboid(full.x, full.y, full.z)
            }
            FloatingHull::Sphere { radius } => Collider::sphere(*radius),
            FloatingHull::Capsule {
                radius,
                half_length,
            } => Collider::capsule(*radius, half_length * 2.0),
            FloatingHull::ConvexMesh { vertices, .. } => Collider::convex_hull(vertices.clone())
                .ok_or_else(|| WaterBevyError::Mesh {
                    reason: "its vertices span no volume, so no convex collider holds them".into(),
                })?,
        };
        let mass = Mass(self.mass);
        Ok((self, RigidBody::Dynamic, collider, mass))
    }
}

pub(crate) fn build(app: &mut App) {
    app.add_systems(
        FixedUpdate,
        (
            (mark_avian_bodies, place_avian_bodies)
                .chain()
                .in_set(WaterSystems::Prepare)
                .after(crate::simulation::apply_floating_forces),
            push_avian_bodies.in_set(WaterSystems::WriteBack),
        ),
    );
}

/// Marks floating avian bodies as integrated by avian, so the plugin never writes their
/// transforms.
fn mark_avian_bodies(
    mut commands: Commands,
    new: Query<
        Entity,
        (
            With<Floating>,
            With<RigidBody>,
            Without<IntegratedElsewhere>,
        ),
    >,
) {
    for entity in &new {
        commands.entity(entity).insert(IntegratedElsewhere);
    }
}

/// Puts each floating avian body where avian has it, kinematic to the scene.
fn place_avian_bodies(
    mut water: Query<&mut WaterSimulation>,
    bodies: Query<(Entity, Forces), (With<Floating>, With<RigidBody>, With<OnWater>)>,
) {
    let Some(mut simulation) = water.iter_mut().next() else {
        return;
    };
    let placement = simulation.placement();
    for (entity, forces) in &bodies {
        let Some(id) = simulation.body_of(entity) else {
            continue;
        };
        let pose = Pose::new(placement.to_scene(forces.position().0), forces.rotation().0);
        let state = match pose {
            Ok(pose) => BodyState {
                pose,
                linear_velocity: forces.linear_velocity(),
                angular_velocity: forces.angular_velocity(),
            },
            Err(source) => {
                error!("{}", WaterBevyError::Hull { entity, source });
                continue;
            }
        };
        let scene = simulation.scene_mut();
        if let Err(source) = scene
            .set_kinematic(id, true)
            .and_then(|()| scene.set_body_state(id, &state))
        {
            error!("{}", WaterBevyError::Scene { entity, source });
        }
    }
}

/// Hands avian the water's force and torque on each floating avian body: what this tick's water
/// step measured, or, in a tick that ran none, a measurement on the current water where avian
/// put the bodies (all of them at once).
fn push_avian_bodies(
    mut water: Query<(Entity, &mut WaterSimulation)>,
    mut bodies: Query<
        (
            Entity,
            Forces,
            Option<&FloatingForce>,
            Option<&mut FloatingMotion>,
        ),
        (With<Floating>, With<RigidBody>, With<OnWater>),
    >,
) {
    let Some((water_entity, mut simulation)) = water.iter_mut().next() else {
        return;
    };
    if simulation.last_tick_steps() == 0 {
        if let Err(source) = simulation.scene_mut().measure_kinematic_bodies() {
            error!(
                "{}",
                WaterBevyError::Scene {
                    entity: water_entity,
                    source
                }
            );
        }
    }
    for (entity, mut forces, push, motion) in &mut bodies {
        let Some(id) = simulation.body_of(entity) else {
            continue;
        };
        match simulation.scene().body(id) {
            Ok(view) => {
                if let (Some(force), Some(torque)) = (view.water_force, view.water_torque) {
                    forces.apply_force(force);
                    forces.apply_torque(torque);
                }
                // The game's own push goes through avian too, each tick as the water's does:
                // avian integrates the body, so a force the scene kept would never act.
                if let Some(push) = push {
                    forces.apply_force(push.force);
                    forces.apply_torque(push.torque);
                }
                if let Some(mut motion) = motion {
                    *motion = FloatingMotion {
                        velocity: forces.linear_velocity(),
                        angular_velocity: forces.angular_velocity(),
                        submerged_volume: view.submerged_volume,
                        off_water: view.off_water,
                    };
                }
            }
            Err(source) => error!("{}", WaterBevyError::Scene { entity, source }),
        }
    }
}
