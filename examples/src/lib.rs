//! # water-examples
//!
//! Scenes shared by the examples (`cargo run --release -p water-examples --example NAME`),
//! their reference-image tests (`examples/tests/reference_images.rs`) and the interactive demo
//! (`cargo run --release -p water-examples --bin water-demo`):
//!
//! - [`rock_pool`]: raindrops in a rock pool, Hugo Elias's classic integer ripple drawn in 2-D;
//! - [`boat_wake`]: a towed boat's wake and floating crates, split-mode grid water with
//!   Archimedes buoyancy, masks and wake on the GPU, coupled by a [`water_scene::Scene`];
//! - [`sky_aquarium`]: a small planet of water, clicked.
//!
//! Each scene runs on the GPU device it is given and returns its frames as pictures.
//! [`scene_drawing`], [`floating_cuboid`] and [`gpu_scene_settings`] serve the boat's wake and
//! the demo's pool alike; [`frames`] draws every scene's frames.

pub mod boat_wake;
pub mod floating_cuboid;
pub mod frames;
pub mod output;
pub mod rock_pool;
pub mod scene_drawing;
pub mod sky_aquarium;

use water_gpu::GpuError;
use water_scene::{Backend, MaskSource, SceneSettings};

/// How big and how long a scene's render is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SceneOptions {
    /// Picture width, pixels.
    pub width: u32,
    /// Picture height, pixels.
    pub height: u32,
    /// Frames to draw.
    pub frames: u32,
    /// Water steps between frames.
    pub steps_per_frame: u32,
    /// Cells along the water's longer side (grid scenes) or the icosphere level (the sphere).
    pub quality: u32,
}

impl SceneOptions {
    /// Picture width over height, for the camera.
    #[must_use]
    pub fn aspect(&self) -> f32 {
        self.width as f32 / self.height as f32
    }
}

/// Settings of a scene that runs wholly on the GPU: the water, the bodies' contact masks and
/// the waves they make there, with `contact_amplitude` metres of wave per m/s of hull speed.
#[must_use]
pub fn gpu_scene_settings(contact_amplitude: f32) -> SceneSettings {
    SceneSettings {
        backend: Backend::Gpu,
        contact_amplitude,
        masks: MaskSource::Gpu,
        ..SceneSettings::default()
    }
}

/// Why a scene failed.
#[derive(Debug, thiserror::Error)]
pub enum ExampleError {
    /// The GPU side.
    #[error(transparent)]
    Gpu(#[from] GpuError),
    /// Water parameters.
    #[error(transparent)]
    Water(#[from] water_core::WaterError),
    /// Sphere water.
    #[error(transparent)]
    Sphere(#[from] water_sphere::SphereError),
    /// Floating bodies.
    #[error(transparent)]
    Buoyancy(#[from] water_buoyancy::BuoyancyError),
    /// Water and bodies coupled in a scene.
    #[error(transparent)]
    Scene(#[from] water_scene::SceneError),
    /// Writing pictures.
    #[error("writing {path}: {source}")]
    Io {
        /// The file or folder.
        path: std::path::PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// Options out of range.
    #[error("{0}")]
    Options(String),
}

/// A small generator of repeatable pseudo-random numbers (xorshift32), so scenes and their
/// reference pictures are the same on every run.
#[derive(Debug, Clone)]
pub struct Repeatable(u32);

impl Repeatable {
    /// A sequence from `seed` (0 is replaced by 1: xorshift never leaves 0).
    #[must_use]
    pub fn new(seed: u32) -> Self {
        Self(seed.max(1))
    }

    /// The next number in `[0, 1)`.
    pub fn next_unit(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        (self.0 >> 8) as f32 / (1u32 << 24) as f32
    }

    /// The next number in `[lo, hi)`.
    pub fn between(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.next_unit()
    }
}
