//! The ground of the `boat` example's lake and of the `pond`: a flat bank reaching under the
//! water, where it is the bed.

use bevy::prelude::*;

use super::check_mode::SceneSetup;

/// Spawns the ground: a rough square `side` metres across in `colour`, `depth` metres below the
/// still water (below the deepest trough the scene's waves make, so it never shows through).
pub fn spawn_ground(scene: &mut SceneSetup, side: f32, colour: Color, depth: f32) {
    scene.commands.spawn((
        Mesh3d(scene.meshes.add(Plane3d::default().mesh().size(side, side))),
        MeshMaterial3d(scene.materials.add(StandardMaterial {
            base_color: colour,
            perceptual_roughness: 0.9,
            ..default()
        })),
        Transform::from_xyz(0.0, -depth, 0.0),
    ));
}
