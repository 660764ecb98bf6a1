//! [`WaterBevyError`]: why the plugin could not build water or float a body, naming the entity,
//! the value and the limit.

use bevy::prelude::Entity;
use water_scene::water_buoyancy::BuoyancyError;
use water_scene::water_core::WaterError;
use water_scene::SceneError;

/// Why the plugin could not build a water surface, add a floating body or queue an impulse.
///
/// The plugin never panics on bad input: systems log these (with `error!`) and leave the
/// entity as it was, without water or without floating.
#[derive(Debug, thiserror::Error)]
pub enum WaterBevyError {
    /// The water's settings were refused (grid size, cell size, wave speed, damping, land).
    #[error("water entity {entity}: {source}")]
    Settings {
        /// The [`crate::Water`] entity.
        entity: Entity,
        /// The cause.
        source: WaterError,
    },
    /// The scene refused the water or a body.
    #[error("water entity {entity}: {source}")]
    Scene {
        /// The [`crate::Water`] entity.
        entity: Entity,
        /// The cause.
        source: SceneError,
    },
    /// A floating body's hull or mass was refused.
    #[error("floating entity {entity}: {source}")]
    Hull {
        /// The [`crate::Floating`] entity.
        entity: Entity,
        /// The cause.
        source: BuoyancyError,
    },
    /// A mesh given as a convex hull has no usable triangle list.
    #[error("floating hull from a mesh: {reason}")]
    Mesh {
        /// What is wrong with the mesh.
        reason: String,
    },
    /// A second [`crate::Water`] entity: the plugin steps one water surface.
    #[error(
        "water entity {entity}: a second Water; the plugin steps one water surface (entity {first})"
    )]
    SecondWater {
        /// The refused entity.
        entity: Entity,
        /// The water already stepped.
        first: Entity,
    },
    /// A GPU backend was asked for where the plugin has no GPU to run it.
    #[error(
        "backend {backend} needs Bevy's render device and queue (RenderPlugin, in DefaultPlugins), \
         and this app has none; use the cpu backend without a renderer"
    )]
    NoGpu {
        /// The backend asked for.
        backend: water_scene::Backend,
    },
}
