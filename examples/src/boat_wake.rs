//! A boat's wake among floating crates: split-mode grid water (the bow's positive and the
//! stern's negative waves in their own channels, as the demo drew them), a towed boat and two
//! free crates floating by Archimedes' principle, coupled by a [`Scene`] on the GPU: the bodies
//! read the water from a GPU snapshot, the hulls' contact masks are drawn on the GPU and make the
//! wake there.

use glam::{Quat, Vec2, Vec3};
use water_buoyancy::{BodyState, DragRates, Pose};
use water_core::{Boundary, Damping, GridMode, GridSize, LandMask, WaveParams};
use water_gpu::{GpuContext, GridSpec};
use water_render::{Camera, GridSurfaceRenderer, GridSurfaceStyle, RgbaImage};
use water_scene::{BodySpec, Scene, TowPath};

use crate::floating_cuboid::floating_cuboid;
use crate::frames::{draw_frame, frame_target};
use crate::scene_drawing::scene_drawing;
use crate::{gpu_scene_settings, ExampleError, SceneOptions};

/// 320 x 200 pixels, 48 frames of 6 steps over a 12.8 m x 8 m bay in 256 x 160 cells.
pub const DEFAULTS: SceneOptions = SceneOptions {
    width: 320,
    height: 200,
    frames: 48,
    steps_per_frame: 6,
    quality: 256,
};

/// The bay, metres.
const BAY: (f32, f32) = (12.8, 8.0);
/// Time step, seconds.
const DT: f32 = 0.02;
/// Wave height per unit of hull speed, metres per (m/s): 3.2 cm at the boat's 0.8 m/s, about
/// the head `v^2 / 2g` (3.3 cm) the water piles up against a bow at that speed.
const WAKE_AMPLITUDE: f32 = 0.04;
/// Fresh water, kg/m^3.
const DENSITY: f32 = 1000.0;
/// The boat's towing speed, m/s.
const BOAT_SPEED: f32 = 0.8;
/// The boat's course, metres: along +x through the middle of the bay, parked 1.5 m short of its
/// far side (the default run covers 4.6 m of it).
const BOAT_COURSE: [Vec2; 2] = [Vec2::new(1.5, 4.0), Vec2::new(BAY.0 - 1.5, 4.0)];
/// Drawn metres per metre of wave.
const HEIGHT_SCALE: f32 = 6.0;

/// A box of full size `size` (m) and `mass` (kg) at rest at `position`, turned `yaw` (rad)
/// about z, with the default drag.
fn crate_body(
    name: &str,
    size: Vec3,
    mass: f32,
    position: Vec3,
    yaw: f32,
) -> Result<BodySpec, ExampleError> {
    let state = BodyState::at_rest(Pose::new(position, Quat::from_rotation_z(yaw))?);
    let body = floating_cuboid(size, mass, state, DENSITY, DragRates::DEFAULT)?;
    Ok(BodySpec::new(name, body))
}

/// The frames of the scene.
///
/// # Errors
/// GPU failures; forces that stop being finite.
pub fn boat_and_crates(
    gpu: &GpuContext,
    options: &SceneOptions,
) -> Result<Vec<RgbaImage>, ExampleError> {
    let (device, queue) = (&gpu.device, &gpu.queue);
    let width = options.quality as usize;
    let size = GridSize::new(width, width * 5 / 8)?;
    let cell = BAY.0 / width as f32;
    let damping = Damping::PerSecond(0.9);
    let params = WaveParams::new(f64::from(cell), 1.2, f64::from(DT), damping)?;
    let spec = GridSpec::new(size, params, Boundary::Absorbing, GridMode::Split);
    let settings = gpu_scene_settings(WAKE_AMPLITUDE);
    let mut bay = Scene::new(spec, LandMask::empty(size), settings, Some(gpu))?;

    // The boat is towed: its course and speed are set, the water only lifts and tilts it.
    let [start, _] = BOAT_COURSE;
    let boat = crate_body(
        "boat",
        Vec3::new(1.0, 0.4, 0.3),
        48.0,
        start.extend(0.05),
        0.0,
    )?;
    bay.add_body(boat.towed(TowPath::new(BOAT_COURSE.to_vec(), BOAT_SPEED)?))?;
    let small = Vec3::new(0.4, 0.4, 0.2);
    bay.add_body(crate_body(
        "crate 1",
        small,
        12.0,
        Vec3::new(5.0, 4.9, 0.05),
        0.5,
    )?)?;
    bay.add_body(crate_body(
        "crate 2",
        small,
        12.0,
        Vec3::new(7.5, 3.1, 0.05),
        0.0,
    )?)?;
    let colours = [
        Vec3::new(0.75, 0.12, 0.08),
        Vec3::new(0.55, 0.33, 0.12),
        Vec3::new(0.55, 0.33, 0.12),
    ];

    let target = frame_target(gpu, options)?;
    let style = GridSurfaceStyle {
        mesh_quads: (width as u32).min(512),
        height_scale: HEIGHT_SCALE,
        floor_depth: 1.2,
        floor_tile: 2.5,
        absorption: 1.0,
        ..GridSurfaceStyle::default()
    };
    let mut renderer = GridSurfaceRenderer::new(device, queue, target.format(), size, cell, style)?;
    let centre = Vec3::new(BAY.0 * 0.5, BAY.1 * 0.5, 0.0);
    let camera = Camera::orbit(centre, 9.5, 0.3, 0.8, options.aspect());

    let mut frames = Vec::with_capacity(options.frames as usize);
    for _ in 0..options.frames {
        bay.step_many(u64::from(options.steps_per_frame))?;
        let drawing = scene_drawing(&mut bay, |body| colours[body])?;
        frames.push(draw_frame(gpu, &target, |encoder| {
            renderer.encode(
                encoder,
                target.frame(Vec3::new(0.55, 0.65, 0.75)),
                &camera,
                &drawing.surface,
                drawing.hull_mask,
                &drawing.bodies,
            )
        })?);
    }
    Ok(frames)
}
