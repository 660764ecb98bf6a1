//! Raindrops in a rock pool: Hugo Elias's classic integer ripple on the GPU, drawn in his 2-D
//! look over a pebbled floor. Drops fall at repeatable random places and times.

use glam::Vec2;
use water_core::{Boundary, Damping, GridMode, GridSize, Impulse, ImpulseShape, WaveParams};
use water_gpu::GpuGridWater;
use water_gpu::{GpuBackend, GpuContext, GpuGrid, GridSpec};
use water_render::{ClassicRenderer, ClassicShading, RgbaImage};

use crate::frames::{draw_frame, frame_target};
use crate::{ExampleError, Repeatable, SceneOptions};

/// 320 x 200 pixels, 48 frames of 4 steps over a 256 x 160 pool.
pub const DEFAULTS: SceneOptions = SceneOptions {
    width: 320,
    height: 200,
    frames: 48,
    steps_per_frame: 4,
    quality: 256,
};

/// Chance of a drop in each step.
const DROP_CHANCE: f32 = 0.2;

/// The frames of the scene.
///
/// # Errors
/// GPU failures; a quality below 8 cells.
pub fn raindrops(gpu: &GpuContext, options: &SceneOptions) -> Result<Vec<RgbaImage>, ExampleError> {
    let (device, queue) = (&gpu.device, &gpu.queue);
    let width = options.quality as usize;
    let size = GridSize::new(width, width * 5 / 8)?;
    // Classic mode ignores the wave speed and cell size (its Courant number is 1/2); the damping
    // is its own right shift.
    let params = WaveParams::new(0.02, 1.0, 0.014, Damping::NONE)?;
    let spec =
        GridSpec::new(size, params, Boundary::Fixed, GridMode::Classic).with_classic_shift(Some(5));
    let mut pool = GpuGrid::new(GpuBackend::Compute, device, queue, spec)?;
    let target = frame_target(gpu, options)?;
    let floor = RgbaImage::pebbles(size.width() as u32, size.height() as u32, 20, 11);
    let mut renderer = ClassicRenderer::new(
        device,
        queue,
        target.format(),
        size,
        ClassicShading::default(),
        &floor,
    )?;
    let mut rain = Repeatable::new(2024);
    let mut frames = Vec::with_capacity(options.frames as usize);
    for _ in 0..options.frames {
        for _ in 0..options.steps_per_frame {
            if rain.next_unit() < DROP_CHANCE {
                let at = Vec2::new(
                    rain.between(0.0, size.width() as f32),
                    rain.between(0.0, size.height() as f32),
                );
                let radius = rain.between(1.5, 3.5) * width as f32 / 256.0;
                let drop = Impulse::new(
                    at,
                    radius,
                    rain.between(600.0, 1600.0),
                    ImpulseShape::Cosine,
                )?;
                pool.add_impulse(&drop)?;
            }
            pool.step()?;
        }
        let surface = pool.update_normal_height()?.clone();
        frames.push(draw_frame(gpu, &target, |encoder| {
            renderer.encode(encoder, target.colour_view(), &surface)
        })?);
    }
    Ok(frames)
}
