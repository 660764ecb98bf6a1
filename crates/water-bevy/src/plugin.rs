//! [`WaterPlugin`]: the systems that step the water on Bevy's fixed clock, float bodies on it
//! and draw it.

use bevy::asset::Assets;
use bevy::pbr::MaterialPlugin;
use bevy::prelude::*;

use crate::focus::{follow_water_focus, place_followed_water};
use crate::gpu::refresh_gpu_heights;
use crate::impulse::{queue_impulses, WaterImpulse};
use crate::ocean_surface::{
    make_ocean_surfaces, sea_taps_source, update_ocean_surfaces, OceanSurfaceMaterial,
    OCEAN_SURFACE_SHADER, SEA_TAPS_SHADER,
};
use crate::simulation::{
    add_floating_bodies, apply_floating_forces, build_simulations, remove_floating_bodies,
    step_water, write_floating_transforms,
};
use crate::surface::{
    make_surfaces, upload_foam, upload_heights, WaterSurfaceMaterial, FOAM_LOOK_SHADER,
    SURFACE_PASS_SHADER, WATER_SURFACE_SHADER,
};

/// Simulated, rendered water in a Bevy app: add it, then spawn a [`crate::Water`] and
/// [`crate::Floating`] bodies.
///
/// The water steps in [`FixedUpdate`] (each tick runs as many water steps as its time holds),
/// so it is the same at any frame rate; Bevy's fixed timestep (64 Hz by default) sets how often
/// bodies and gameplay see new water. Floating bodies' transforms are written every tick, in
/// [`WaterSystems::WriteBack`].
///
/// [`WaterPlugin::headless`] leaves out the surface's mesh and material, for apps without a
/// renderer (servers, tests with `MinimalPlugins`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WaterPlugin {
    /// Whether to draw the water (a mesh, a height texture and [`WaterSurfaceMaterial`]); needs
    /// Bevy's PBR plugin (in `DefaultPlugins`).
    pub render: bool,
}

impl Default for WaterPlugin {
    fn default() -> Self {
        Self { render: true }
    }
}

impl WaterPlugin {
    /// Simulation only: no mesh, texture or material (no renderer needed).
    #[must_use]
    pub fn headless() -> Self {
        Self { render: false }
    }
}

/// The plugin's fixed-tick phases, in order, to order gameplay systems against.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WaterSystems {
    /// New and removed bodies, impulses and forces go to the scene.
    Prepare,
    /// The water and its bodies step.
    Step,
    /// Bodies' transforms and motion are written back.
    WriteBack,
}

/// One of the plugin's own shader files beside this one, for the table the plugin registers:
/// its handle, its source, and the path it is named by (`water_bevy/` and the file's name).
macro_rules! plugin_shader {
    ($handle:expr, $file:literal) => {
        (
            $handle,
            include_str!($file).to_owned(),
            concat!("water_bevy/", $file),
        )
    };
}

impl Plugin for WaterPlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<WaterImpulse>()
            .configure_sets(
                FixedUpdate,
                (
                    WaterSystems::Prepare,
                    WaterSystems::Step,
                    WaterSystems::WriteBack,
                )
                    .chain(),
            )
            .add_systems(PreUpdate, build_simulations)
            .add_systems(
                FixedUpdate,
                (
                    (
                        remove_floating_bodies,
                        add_floating_bodies,
                        queue_impulses,
                        apply_floating_forces,
                        follow_water_focus,
                    )
                        .chain()
                        .in_set(WaterSystems::Prepare),
                    step_water.in_set(WaterSystems::Step),
                    write_floating_transforms.in_set(WaterSystems::WriteBack),
                ),
            );
        // GPU backends: the surface texture and the gameplay heights' readback, after the
        // frame's fixed steps.
        app.add_systems(PostUpdate, refresh_gpu_heights)
            .add_systems(
                PostUpdate,
                // Before the transforms propagate, so the surface is drawn where its texture is.
                place_followed_water.before(TransformSystems::Propagate),
            );
        #[cfg(feature = "avian")]
        crate::avian::build(app);
        if self.render {
            for (handle, source, path) in [
                plugin_shader!(FOAM_LOOK_SHADER, "foam_look.wgsl"),
                plugin_shader!(SURFACE_PASS_SHADER, "surface_pass.wgsl"),
                (
                    SEA_TAPS_SHADER,
                    sea_taps_source(),
                    "water_bevy/sea_taps.wgsl",
                ),
                plugin_shader!(WATER_SURFACE_SHADER, "water_surface.wgsl"),
                plugin_shader!(OCEAN_SURFACE_SHADER, "ocean_surface.wgsl"),
            ] {
                let shader = Shader::from_wgsl(source, path);
                if let Err(e) = app
                    .world_mut()
                    .resource_mut::<Assets<Shader>>()
                    .insert(handle.id(), shader)
                {
                    error!("{path}: {e}");
                }
            }
            app.add_plugins((
                MaterialPlugin::<WaterSurfaceMaterial>::default(),
                MaterialPlugin::<OceanSurfaceMaterial>::default(),
            ))
            .add_systems(
                PostUpdate,
                (
                    make_surfaces,
                    upload_heights,
                    upload_foam,
                    make_ocean_surfaces,
                    update_ocean_surfaces,
                )
                    .chain(),
            );
            crate::gpu::build_render(app);
        }
    }
}
