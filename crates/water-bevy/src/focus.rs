//! [`WaterFocus`]: the grid follows an entity (the camera, the player's boat) through the world,
//! by whole cells (`water_scene::Scene::set_focus`): the waves, the floating bodies, impulses,
//! queries and land stay where they are in the world; the grid's surface moves with it.

use bevy::prelude::*;
use water_scene::SceneFocus;

use crate::error::WaterBevyError;
use crate::simulation::WaterSimulation;

/// Put on a [`crate::Water`] entity: its grid follows `0` (any entity with a transform: the
/// camera, a boat) so that the entity stays over the grid's centre cell. The water entity's
/// [`Transform`] is moved with the grid (its translation stays the grid's centre), so its
/// surface is drawn where the grid is; [`crate::WaterSimulation::placement`] keeps the frame the
/// water was made in.
///
/// ```
/// use bevy::prelude::*;
/// use water_bevy::{Water, WaterFocus};
/// fn setup(mut commands: Commands) {
///     let camera = commands.spawn((Camera3d::default(), Transform::from_xyz(0.0, 8.0, 12.0))).id();
///     commands.spawn((Water::new(256, 256), WaterFocus(camera)));
/// }
/// # let _ = IntoSystem::into_system(setup);
/// ```
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct WaterFocus(pub Entity);

/// Each fixed tick, before the water steps: the focus goes to the scene, which moves the grid
/// at the start of each step.
pub(crate) fn follow_water_focus(
    mut water: Query<(Entity, &mut WaterSimulation, &WaterFocus)>,
    targets: Query<&GlobalTransform>,
) {
    for (entity, mut simulation, focus) in &mut water {
        let Ok(target) = targets.get(focus.0) else {
            warn_once!(
                "the water's focus {} has no transform: the grid stays",
                focus.0
            );
            continue;
        };
        let at = simulation.placement().to_scene(target.translation());
        if let Err(source) = simulation
            .scene_mut()
            .set_focus(Some(SceneFocus::Point(at)))
        {
            error!("{}", WaterBevyError::Scene { entity, source });
        }
    }
}

/// Moves each followed water's transform to where its grid now is.
pub(crate) fn place_followed_water(
    mut water: Query<(&WaterSimulation, &mut Transform), With<WaterFocus>>,
) {
    for (simulation, mut transform) in &mut water {
        let now = simulation.window_placement();
        let centre = now.corner
            + Vec3::new(
                now.width as f32 * now.cell_size / 2.0,
                0.0,
                -(now.height as f32) * now.cell_size / 2.0,
            );
        if transform.translation != centre {
            transform.translation = centre;
        }
    }
}
