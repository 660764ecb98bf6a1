//! Feature `avian`: floating bodies that avian3d moves. A [`Floating`] entity that is also an
//! avian `RigidBody` is integrated by avian, not by the water: each fixed tick, before the
//! water steps, the plugin puts the body's water-side twin where avian has it (so its wake
//! follows), computes the water's force and torque on its hull (buoyancy and water drag) and
//! hands them to avian with `Forces`, which applies them in avian's next step
//! (`FixedPostUpdate`, after the water's `FixedUpdate`).
//!
//! The hull is placed about the avian body's origin, as [`Floating`] describes it: give the
//! body a collider centred there, and an avian mass equal to [`Floating::mass`] (the water's
//! drag rates are scaled by it). avian applies gravity itself.

use avian3d::prelude::{Forces, ReadRigidBodyForces, RigidBody, WriteRigidBodyForces};
use bevy::prelude::*;
use water_scene::water_buoyancy::{BodyState, Pose};
use water_scene::UpAxis;

use crate::error::WaterBevyError;
use crate::floating::{Floating, IntegratedElsewhere};
use crate::plugin::WaterSystems;
use crate::simulation::{OnWater, WaterSimulation};

pub(crate) fn build(app: &mut App) {
    app.add_systems(
        FixedUpdate,
        (mark_avian_bodies, push_avian_bodies)
            .chain()
            .in_set(WaterSystems::Prepare)
            .after(crate::simulation::apply_floating_forces),
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

/// Puts each floating avian body's twin where avian has it and hands avian the water's force
/// and torque on it.
fn push_avian_bodies(
    mut water: Query<&mut WaterSimulation>,
    mut bodies: Query<(Entity, Forces), (With<Floating>, With<RigidBody>, With<OnWater>)>,
) {
    let Some(mut simulation) = water.iter_mut().next() else {
        return;
    };
    let placement = simulation.placement();
    let gravity = simulation.scene().settings().gravity;
    for (entity, mut forces) in &mut bodies {
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
        if let Err(source) = simulation.scene_mut().set_body_state(id, &state) {
            error!("{}", WaterBevyError::Scene { entity, source });
            continue;
        }
        let Ok(body) = simulation.scene().floating_body(id) else {
            continue;
        };
        let mut twin = body.clone();
        let wrench = simulation.with_heights(|view| twin.water_wrench(view, &gravity));
        match wrench {
            Ok(Ok((wrench, _))) => {
                forces.apply_force(UpAxis::Y.from_water(wrench.force));
                forces.apply_torque(UpAxis::Y.from_water(wrench.torque));
            }
            Ok(Err(source)) => error!("{}", WaterBevyError::Hull { entity, source }),
            Err(source) => error!("{}", WaterBevyError::Scene { entity, source }),
        }
    }
}
