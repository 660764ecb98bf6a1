//! [`WaterQuery`]: a system parameter for the water's height and normal at world positions.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use water_scene::water_core::ocean::SeaWithWater;
use water_scene::water_core::{HeightSource, PlacedWater};

use crate::simulation::WaterSimulation;

/// The water surface on the vertical through a world point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WaterSample {
    /// The surface point, world metres.
    pub point: Vec3,
    /// Unit normal of the surface there, pointing out of the water (y up on still water).
    pub normal: Vec3,
}

/// The water's surface for gameplay: heights and normals at world positions.
///
/// With an ambient sea ([`crate::Water::with_ocean`]) the surface is the sea plus the grid's
/// water where the grid lies, and the sea alone everywhere else: no point of the world is off
/// the water (on a GPU backend, over the grid, once its patch has arrived). The sea is taken at
/// the step of the grid's heights it is added to.
///
/// On the CPU backend they are the last fixed step's, the heights the bodies just floated on
/// (no readback, no delay). On a GPU backend they come from an asynchronous readback of
/// patches around the points asked about since the last one (at most 21 x 21 cells, 4 bytes a
/// cell, each), started after the frame's fixed steps and taken when it arrives, usually the
/// next frame: a frame (or more, on a slow device) late. Over the grid a point is `None` the
/// first time it is asked (sea included), and answered once its patch has arrived, as long as
/// it is asked each frame and moves less than 8 cells in two frames. The whole field is read
/// back only when the points' patches would hold more cells than it. The step they show is
/// [`crate::WaterSimulation::gameplay_step`]. Nothing here waits for the GPU.
///
/// ```
/// use bevy::prelude::*;
/// use water_bevy::WaterQuery;
/// fn bob(water: WaterQuery, mut buoys: Query<&mut Transform, With<Name>>) {
///     for mut t in &mut buoys {
///         if let Some(y) = water.height_at(t.translation) {
///             t.translation.y = y;
///         }
///     }
/// }
/// # let _ = IntoSystem::into_system(bob);
/// ```
#[derive(SystemParam)]
pub struct WaterQuery<'w, 's> {
    water: Query<'w, 's, &'static WaterSimulation>,
}

impl WaterQuery<'_, '_> {
    /// The surface on the vertical through `world`, or `None` off the water (never with an
    /// ambient sea), with no water yet, or, on a GPU backend, over the grid until the patch
    /// around `world` has arrived (see above).
    #[must_use]
    pub fn surface_at(&self, world: Vec3) -> Option<WaterSample> {
        let simulation = self.water.iter().next()?;
        let placement = simulation.placement();
        let covered = simulation.window_placement().covers(world);
        // The scene's frame is the water's z-up one: x along x, y along the rows (-z); the
        // heights' grid had its corner at `origin` in it.
        let up = water_scene::UpAxis::Y;
        let at = up.to_water(placement.to_scene(world));
        let origin = simulation.gameplay_origin();
        let sample = match (simulation.gameplay_sea(), origin) {
            // The sea has no edge: off the grid it is the whole surface.
            (Some(sea), _) if !covered => sea.surface_at(at)?,
            (_, None) => return None,
            (Some(sea), Some(origin)) => simulation
                .with_gameplay_heights(at.truncate(), |view| {
                    SeaWithWater::new(sea, &PlacedWater::new(view, origin)).surface_at(at)
                })??,
            (None, _) if !covered => return None,
            (None, Some(origin)) => simulation.with_gameplay_heights(at.truncate(), |view| {
                PlacedWater::new(view, origin).surface_at(at)
            })??,
        };
        Some(WaterSample {
            point: placement.to_world(up.from_water(sample.point)),
            normal: up.from_water(sample.normal),
        })
    }

    /// The surface's height (world y) on the vertical through `world`, or `None` off the water.
    #[must_use]
    pub fn height_at(&self, world: Vec3) -> Option<f32> {
        self.surface_at(world).map(|s| s.point.y)
    }

    /// The surface's unit normal on the vertical through `world`, or `None` off the water.
    #[must_use]
    pub fn normal_at(&self, world: Vec3) -> Option<Vec3> {
        self.surface_at(world).map(|s| s.normal)
    }

    /// The still-water level (world y), or `None` with no water.
    #[must_use]
    pub fn still_level(&self) -> Option<f32> {
        Some(self.water.iter().next()?.placement().corner.y)
    }
}
