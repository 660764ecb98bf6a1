//! Helpers shared by the integration tests.
#![allow(
    dead_code,
    reason = "each test file is a crate of its own and uses only some of the helpers"
)]

use water_core::{Boundary, GridMode, GridSize, LandMask, WaveParams};
use water_scene::{GridSpec, Scene, SceneSettings};

/// A scene on a `width x height` signed grid of `params` with absorbing edges: no land, default
/// settings and no GPU.
pub fn open_absorbing_scene(width: usize, height: usize, params: WaveParams) -> Scene {
    let spec = GridSpec::new(
        GridSize::new(width, height).expect("size"),
        params,
        Boundary::Absorbing,
        GridMode::Signed,
    );
    Scene::new(
        spec,
        LandMask::empty(spec.size),
        SceneSettings::default(),
        None,
    )
    .expect("scene")
}
