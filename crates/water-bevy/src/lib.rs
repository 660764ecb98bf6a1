//! # water-bevy
//!
//! Interactive water in a Bevy game with one plugin: a simulated surface (Dynamic Water's
//! `water-scene`) stepped on Bevy's fixed clock, drawn with Bevy's lights, with bodies that
//! float on it by Archimedes and leave wakes.
//!
//! * [`WaterPlugin`] and a [`Water`] component: grid size, cell size, wave speed, damping,
//!   boundary, land, backend. The surface is a mesh displaced by the heights, lit per pixel
//!   ([`WaterSurfaceMaterial`]).
//! * [`Floating`]: a box, sphere, capsule or convex [`bevy::prelude::Mesh`] that floats, with
//!   [`FloatingMotion`] (read it, or insert it to throw a body) and [`FloatingForce`] (a motor).
//! * [`WaterImpulse`] messages (a click, a rock) and [`WaterQuery`] (heights and normals at
//!   world positions).
//! * [`Water::with_ocean`]: an ambient sea without end around the grid, drawn to the horizon
//!   around the camera ([`OceanSurfaceMaterial`], centred on an [`OceanFocus`] or the first
//!   `Camera3d`); bodies and [`WaterQuery`] see the sea plus the grid's water.
//! * GPU backends run on Bevy's own render device and queue: the surface is drawn from a
//!   GPU-side copy of the water's texture; [`WaterQuery`] heights arrive a frame late.
//! * y up, world positions throughout: the plugin converts to the water's frame.
//! * Feature `avian`: avian3d rigid bodies with [`Floating`] get the water's force and torque,
//!   measured once per water step; the avian this crate was built against is re-exported as
//!   `water_bevy::avian3d`, so a game's avian matches its version and features.
//!
//! ```
//! use bevy::prelude::*;
//! use water_bevy::prelude::*;
//!
//! let mut app = App::new();
//! app.add_plugins((MinimalPlugins, WaterPlugin::headless()));
//! app.world_mut().spawn(Water::new(64, 64)); // 6.4 m x 6.4 m, centred on the origin
//! app.world_mut().spawn((
//!     Floating::cuboid(Vec3::new(0.3, 0.15, 0.3), 40.0), // a 40 kg crate
//!     Transform::from_xyz(0.0, 0.2, 0.0),
//! ));
//! app.update();
//! ```
//!
//! A game (the README's example; it opens a window, so it is compiled, not run):
//!
//! ```no_run
//! use bevy::prelude::*;
//! use water_bevy::prelude::*;
//!
//! fn main() {
//!     App::new()
//!         .add_plugins((DefaultPlugins, WaterPlugin::default()))
//!         .add_systems(Startup, setup)
//!         .add_systems(Update, |keys: Res<ButtonInput<KeyCode>>, mut waves: MessageWriter<WaterImpulse>| {
//!             if keys.just_pressed(KeyCode::Space) {
//!                 waves.write(WaterImpulse::new(Vec3::new(2.0, 0.0, 1.0), 0.5, 0.1)); // 0.5 m, 10 cm
//!             }
//!         })
//!         .run();
//! }
//!
//! fn setup(mut commands: Commands, mut meshes: ResMut<Assets<Mesh>>, mut materials: ResMut<Assets<StandardMaterial>>) {
//!     commands.spawn((Camera3d::default(), Transform::from_xyz(0.0, 9.0, 12.0).looking_at(Vec3::ZERO, Vec3::Y)));
//!     commands.spawn((DirectionalLight::default(), Transform::from_xyz(-4.0, 6.0, -8.0).looking_at(Vec3::ZERO, Vec3::Y)));
//!     commands.spawn(Water::new(256, 192)); // 25.6 m x 19.2 m of 0.1 m cells around the origin, still at y = 0
//!     commands.spawn((
//!         Floating::cuboid(Vec3::splat(0.3), 108.0), // a 0.6 m crate of 108 kg, dropped in: it floats half out
//!         Transform::from_xyz(0.0, 1.0, 0.0),
//!         Mesh3d(meshes.add(Cuboid::from_length(0.6))),
//!         MeshMaterial3d(materials.add(Color::srgb(0.55, 0.32, 0.12))),
//!     ));
//! }
//! ```

#![allow(
    clippy::type_complexity,
    reason = "Bevy systems name their queries' data and filters in the signature; aliases would hide what a system reads"
)]

mod error;
mod floating;
mod focus;
mod gpu;
mod impulse;
mod ocean_surface;
mod placement;
mod plugin;
mod query;
mod simulation;
mod surface;
mod water;

#[cfg(feature = "avian")]
pub mod avian;

/// The avian3d this crate was built against (feature `avian`): depend on it through here.
#[cfg(feature = "avian")]
pub use avian3d;
pub use error::WaterBevyError;
pub use floating::{Floating, FloatingForce, FloatingHull, FloatingMotion, IntegratedElsewhere};
pub use focus::WaterFocus;
pub use impulse::WaterImpulse;
pub use ocean_surface::{
    ocean_layout, ocean_mesh, sea_point, sea_texels, OceanFocus, OceanSurface,
    OceanSurfaceExtension, OceanSurfaceMaterial, OceanSurfaceUniform, MAX_OCEAN_TILES,
    OCEAN_HALF_QUADS, OCEAN_REACH, OCEAN_SURFACE_SHADER, RIM_FADE_CELLS,
};
pub use placement::WaterPlacement;
pub use plugin::{WaterPlugin, WaterSystems};
pub use query::{WaterQuery, WaterSample};
pub use simulation::{OnWater, WaterRefused, WaterSimulation};
pub use surface::{
    grid_mesh, WaterLook, WaterSurface, WaterSurfaceExtension, WaterSurfaceMaterial,
    WaterSurfaceUniform, FOAM_LOOK_SHADER, WATER_SURFACE_SHADER,
};
pub use water::{LandRect, Water, STABLE_STEP_FRACTION};

/// The ambient sea's settings, as [`Water::with_ocean`] takes them.
pub mod ocean {
    pub use water_scene::water_core::ocean::{AmbientSea, OceanSpec, SeaFrame, WaveSpectrum};
}
/// The simulation underneath, with matching versions of every Dynamic Water crate.
pub use water_scene;
/// Boundaries and drag rates, as [`Water`] and [`Floating`] take them.
pub use water_scene::{
    water_buoyancy::DragRates, water_core::Boundary, water_core::ContactSource, Backend, BodyWater,
    FoamSettings, DEFAULT_CONTACT_AMPLITUDE,
};

/// What a game using the plugin needs in scope.
pub mod prelude {
    pub use crate::ocean::{OceanSpec, WaveSpectrum};
    pub use crate::{
        Floating, FloatingForce, FloatingMotion, OceanFocus, Water, WaterFocus, WaterImpulse,
        WaterLook, WaterPlugin, WaterQuery, WaterSystems,
    };
}
