//! # water-scene
//!
//! The frame loop of Dynamic Water as a library: what a game, a tool or the `water` command
//! drives each frame.
//!
//! * [`Scene`]: grid water on any [`Backend`] (the CPU reference, GPU compute, GPU fragment)
//!   with floating bodies coupled both ways. Each step the bodies read the water, their hulls
//!   are drawn into contact masks (on the CPU, or on the GPU with [`MaskSource::Gpu`]), the
//!   masks make bow and stern waves as the water steps, and the water's forces move the bodies.
//!   Towed bodies follow a [`TowPath`]; any body takes a force and torque set by the caller each
//!   frame ([`Scene::set_force`]). [`Scene::advance`] runs the fixed steps a frame's time holds.
//! * [`SphereScene`]: the same on sphere water (an icosphere planet): bodies float on it under
//!   gravity toward its centre and make their wakes on every backend.
//! * [`UpAxis`]: z-up (the water's own frame) or y-up (Bevy, rapier); the scene converts at its
//!   boundary.
//! * Trajectories only on request, into a sink the caller owns ([`Scene::record`],
//!   [`CsvTrajectory`]).
//! * `scenario` (feature `scenario`, on by default): the TOML scenario format (DESIGN.md),
//!   parsed with file, line and column in every error, that builds a scene.
//!
//! The crates underneath are re-exported, so one dependency gives matching versions of all of
//! them: [`water_core`] (with its [`glam`]), [`water_gpu`] (with its [`wgpu`]),
//! [`water_buoyancy`] and [`water_sphere`].

/// Floating bodies.
pub use water_buoyancy;
/// The CPU reference solver.
pub use water_core;
/// The glam the whole API speaks.
pub use water_core::glam;
/// Grid descriptions, shared by every backend.
pub use water_core::GridSpec;
/// The GPU backends.
pub use water_gpu;
/// The wgpu the GPU backends speak.
pub use water_gpu::wgpu;
/// Sphere water.
pub use water_sphere;

/// The README's code blocks, compiled and run as doc tests.
#[doc = include_str!("../../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

mod backend;
mod backend_grid;
pub mod benchmark;
mod body;
mod body_set;
mod body_water;
mod error;
mod event;
pub mod npy;
#[cfg(feature = "scenario")]
pub mod scenario;
mod scene;
mod scene_ocean;
mod sphere_scene;
mod step_times;
mod tow_path;
mod trajectory;
mod up_axis;
mod water;

pub use backend::{Backend, UnknownBackend};
pub use backend_grid::BackendGrid;
pub use body::{BodyId, BodySpec, BodyView};
pub use body_water::{BodyWater, UnknownBodyWater};
pub use error::SceneError;
pub use event::SceneEvent;
pub use scene::{
    cascade_weight, FoamSettings, MaskSource, Scene, SceneFocus, SceneSettings, SurfaceQuery,
    CASCADE_BLEND_CELLS, CASCADE_IMPULSE_MIN_CELLS, DEFAULT_CONTACT_AMPLITUDE, MAX_CASCADES,
};
pub use scene_ocean::cell_centres;
pub use sphere_scene::{SphereScene, SphereSceneSettings};
pub use step_times::StepTimes;
pub use tow_path::TowPath;
pub use trajectory::{CsvTrajectory, OwnedRow, TrajectoryRow, TrajectorySink, CSV_HEADER};
pub use up_axis::UpAxis;
pub use water::{BackendSphere, CpuGrid, GridOutputs, Water, WaterGrid};
